"""Constrained beam search and the other decoding options through the inference copy: the C++
step (float32 and int8) gives the Python step's outputs, and every term is written."""

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD

from attnmt.decoding import Decoding
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.fast import prepare
from attnmt.hardware import bf16_native
from attnmt.model import Transformer, TransformerConfig

pytestmark = NEEDS_EXTENSION_BUILD

TERMS = [[[30, 31]], [[32]], [], [[33, 34, 35], [36]], [[40, 41]], [[42], [43]]]


def model_and_batch() -> tuple[Transformer, torch.Tensor]:
    torch.manual_seed(3)
    config = TransformerConfig(vocab_size=60, d_model=32, n_heads=4, encoder_layers=2, decoder_layers=3, d_ff=64,
                               dropout=0.0, max_positions=64)
    src = torch.randint(4, 60, (6, 9))
    src[2, 3:] = 0
    src[4, 6:] = 0
    return Transformer(config).eval(), src


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
def test_constrained_search_through_the_cpp_step_is_the_python_steps_and_holds_every_term(int8):
    model, src = model_and_batch()
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    assert fast.step is not None
    decoding = Decoding(beam_size=4, n_best=2)
    ours = beam_search(fast, src, decoding, terms=TERMS, prefixes=[[9], [], [], [10, 11], [], []])
    theirs = beam_search(reference, src, decoding, terms=TERMS, prefixes=[[9], [], [], [10, 11], [], []])
    assert [[h.tokens for h in n] for n in ours] == [[h.tokens for h in n] for n in theirs]
    for hypotheses, terms in zip(ours, TERMS, strict=True):
        assert hypotheses and all(h.missed == 0 and holds_all(h.tokens, terms) for h in hypotheses)


def holds_all(tokens: list[int], terms: list[list[int]]) -> bool:
    return all(any(tokens[i: i + len(t)] == t for i in range(len(tokens))) for t in terms)


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
def test_an_n_best_list_at_a_limit_the_prefix_and_terms_fill_is_the_python_steps_and_keeps_them(int8):
    """A limit of 0 (the prefix's and terms' tokens, no more): the C++ step gives the Python step's
    n-best lists (the ATTNMT_FUSED=0 path), each hypothesis once, with its prefix and every term."""
    model, src = model_and_batch()
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    decoding = Decoding(beam_size=4, n_best=4, max_len_a=0.0, max_len_b=0)
    prefixes = [[9], [], [12, 13, 14], [10, 11], [], [20]]
    ours = beam_search(fast, src, decoding, terms=TERMS, prefixes=prefixes)
    theirs = beam_search(reference, src, decoding, terms=TERMS, prefixes=prefixes)
    assert [[(h.tokens, h.missed) for h in n] for n in ours] == [[(h.tokens, h.missed) for h in n] for n in theirs]
    for hypotheses, terms, prefix in zip(ours, TERMS, prefixes, strict=True):
        assert len({tuple(h.tokens) for h in hypotheses}) == len(hypotheses) > 0
        for h in hypotheses:
            assert h.tokens[: len(prefix)] == prefix and h.missed == 0 and holds_all(h.tokens, terms)


@pytest.mark.parametrize("size", [1, 2])
def test_terms_and_prefixes_that_repeat_a_piece_are_written_under_the_n_gram_ban_through_the_cpp_step(size):
    """no_repeat_ngram_size banned the pieces of a term or prefix that repeats one: the terms went
    missing; the C++ step reads the same exempted logits as the Python step."""
    model, src = model_and_batch()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    terms = [[[30, 30]], [[32, 33, 32, 33]], [], [[34, 34, 34]], [[40, 41], [40, 41, 42]], [[43], [43, 43]]]
    prefixes = [[9, 9], [], [12, 12, 12], [], [], []]
    decoding = Decoding(beam_size=4, n_best=2, no_repeat_ngram_size=size)
    ours = beam_search(fast, src, decoding, terms=terms, prefixes=prefixes)
    theirs = beam_search(reference, src, decoding, terms=terms, prefixes=prefixes)
    assert [[h.tokens for h in n] for n in ours] == [[h.tokens for h in n] for n in theirs]
    for hypotheses, each, prefix in zip(ours, terms, prefixes, strict=True):
        for h in hypotheses:
            assert h.tokens[: len(prefix)] == prefix and h.missed == 0 and holds_all(h.tokens, each)
            assert h.log_prob > float("-inf")


def test_sampling_and_the_penalties_through_the_cpp_step_are_the_python_steps():
    model, src = model_and_batch()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    sampled = Decoding(beam_size=1, sampling_topk=5, seed=3, repetition_penalty=1.3, no_repeat_ngram_size=2)
    assert greedy_search(fast, src, sampled) == greedy_search(reference, src, sampled)


def test_a_seeded_sentence_draws_the_same_through_the_cpp_step_alone_and_in_its_batch():
    model, src = model_and_batch()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    assert fast.step is not None
    sampled = Decoding(beam_size=1, sampling_topk=0, seed=5)
    together = greedy_search(fast, src, sampled)
    assert [greedy_search(fast, row[row != 0][None], sampled)[0] for row in src] == together
    assert greedy_search(reference, src.flip(0), sampled) == together[::-1]


@pytest.mark.skipif(not bf16_native()[0], reason="the CPU does not multiply bf16 (bf16 layers are refused there)")
def test_constrained_search_in_bf16_holds_every_term():
    """bf16 rounds differently from float32, so its outputs may differ; every term must still be written."""
    model, src = model_and_batch()
    fast = prepare(model, bf16=True)
    for hypotheses, terms in zip(beam_search(fast, src, Decoding(beam_size=4), terms=TERMS), TERMS, strict=True):
        assert hypotheses[0].missed == 0 and holds_all(hypotheses[0].tokens, terms)
