"""The C++ decoder step (attnmt.fast.step): the Python step's numbers, caches and translations."""

import copy
import dataclasses
import gc
import sys
import warnings
from collections import Counter

import pytest
import torch
from support import EMBEDDING_TIES, NEEDS_EXTENSION_BUILD, fond_of_pad, masked_log_probs

from attnmt.attention import padding_mask
from attnmt.decoding import Decoding
from attnmt.decoding.next_tokens import READABLE, next_tokens_of
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.fast import extension, prepare
from attnmt.fast.int8 import int8_panels_available
from attnmt.fast.next_tokens import FusedNextTokens
from attnmt.fast.step import Activation, FusedDecoderStep, Linears, StepWeights, set_linear
from attnmt.hardware import bf16_native
from attnmt.model import AttentionTrace, DecoderCache, Transformer, TransformerConfig

pytestmark = NEEDS_EXTENSION_BUILD


FUSED = FusedNextTokens()  # the C++ next-token choice (needs the extension: extension.available())

def small_model(seed: int = 0, **overrides) -> Transformer:
    torch.manual_seed(seed)
    settings = dict(vocab_size=60, d_model=32, n_heads=4, encoder_layers=2, decoder_layers=3, d_ff=64,
                    dropout=0.1, max_positions=64) | overrides
    return Transformer(TransformerConfig(**settings)).eval()


def test_the_extension_builds_and_prepare_attaches_it():
    assert extension.available()
    model = small_model()
    assert prepare(model).step is not None
    assert prepare(model, fused_step=False).step is None
    # translate's batches: a few dozen sentences for the C++ step, the token budget for the Python one
    assert next_tokens_of(prepare(model)).sentences_per_batch(model.config, 4) == 64
    assert next_tokens_of(prepare(model, fused_step=False)).sentences_per_batch(model.config, 4) == 0
    assert not hasattr(model, "step")  # the original is left alone


def test_batches_are_smaller_where_a_steps_logits_would_pass_the_budget():
    choose = FusedNextTokens()
    multi30k, opus = (dataclasses.replace(small_model().config, vocab_size=v) for v in (8_000, 58_101))
    assert choose.sentences_per_batch(multi30k, 4) == 64
    assert choose.sentences_per_batch(opus, 1) == 64  # greedy: 64 rows of logits are 15 MB
    assert choose.sentences_per_batch(opus, 4) == 36  # beam 4: 36 · 4 rows · 58,101 · 4 bytes <= 32 MiB
    assert choose.sentences_per_batch(opus, 64) == 2
    # torch.ao's int8 output layer writes int32 products beside its logits: half the sentences
    assert FusedNextTokens(vocabulary_buffers=2).sentences_per_batch(opus, 4) == 18


def test_batches_are_smaller_where_their_keys_and_values_would_pass_the_budget():
    opus = dataclasses.replace(small_model().config, vocab_size=58_101, d_model=512, decoder_layers=6)
    # 4 rows · 6 layers · 2 · 512 · 4 bytes · 64 positions = 6 MiB a sentence: 26 in 160 MiB
    assert FusedNextTokens(key_value_bytes=4).sentences_per_batch(opus, 4) == 26
    assert FusedNextTokens(key_value_bytes=2).sentences_per_batch(opus, 4) == 36  # float16: the logits bind first
    assert FusedNextTokens(key_value_bytes=4).sentences_per_batch(opus, 1) == 64  # greedy


def test_the_int8_copy_counts_fbgemms_int32_products_where_torch_ao_multiplies():
    fast = prepare(small_model(), int8=True)
    assert fast.next_tokens.vocabulary_buffers == (1 if int8_panels_available() else 2)
    assert prepare(small_model()).next_tokens.vocabulary_buffers == 1


@pytest.mark.parametrize(
    "overrides",
    [{}, {"norm_first": True}, {"activation": "gelu"}, {"activation": "swish"}, {"n_heads": 8},
     {"positional": "learned"}, {"positional": "none", "scale_embeddings": False}],
    ids=["post-norm relu", "pre-norm", "gelu", "swish", "8 heads", "learned positions", "no positions, unscaled"],
)
def test_each_step_gives_the_python_steps_states_and_caches(overrides):
    model = small_model(**overrides)
    fast, reference = prepare(model), prepare(model, fused_step=False)
    assert fast.step is not None
    assert_steps_agree(model, fast, reference, groups=3, width=4, steps=6)


@pytest.mark.parametrize("int8", [False, True], ids=["float32 keys", "float16 keys"])
@pytest.mark.parametrize("source_length", [1, 9, 17])
@pytest.mark.parametrize("d_model, n_heads", [(64, 4), (128, 2), (160, 2)], ids=["dk 16", "dk 64", "dk 80"])
def test_heads_of_16_floats_and_more_attend_as_the_python_step(d_model, n_heads, source_length, int8):
    """Where the float32 panels run AVX-512, heads whose dk is a multiple of 16 attend 16 floats at a
    time (elsewhere, and for other dk, 8): over sources and caches whose lengths cross the blocks of
    8 positions, their states, caches and logits are the Python step's."""
    model = small_model(seed=source_length, d_model=d_model, n_heads=n_heads, d_ff=2 * d_model)
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    if torch.ops.attnmt.panels_available():  # the attention kernels follow the panels' instruction set
        wide = torch.backends.cpu.get_cpu_capability() == "AVX512"
        assert torch.ops.attnmt.panel_isa() == ("avx512" if wide else "avx2")
    assert_steps_agree(model, fast, reference, groups=3, width=2, steps=18, source_length=source_length,
                       quantised=int8)


def assert_steps_agree(model: Transformer, fast: Transformer, reference: Transformer, groups: int, width: int,
                       steps: int, atol: float = 2e-5, rtol: float = 1e-4, source_length: int = 7,
                       quantised: bool = False) -> None:
    """Decodes random tokens step by step with both copies, in beam search's layout (a
    sentence's ``width`` hypotheses on consecutive rows), and compares states and caches: the
    decoder stack's output (``decoder_states``) at even steps, the logits (``decode``: the
    embedding and the output layer in the same C++ call) at odd ones.  ``quantised``: compared
    as assert_quantised_close does, not elementwise."""
    def assert_agree(ours: torch.Tensor, theirs: torch.Tensor) -> None:
        if quantised:
            assert_quantised_close(ours, theirs)
        else:
            torch.testing.assert_close(ours, theirs, atol=atol, rtol=rtol)

    src = torch.randint(4, 60, (groups, source_length))
    src[1, max(4, source_length - 8):] = 0  # padding, masked in cross-attention
    src_mask = padding_mask(src, 0)
    tokens = torch.randint(4, 60, (groups * width, steps))
    with torch.inference_mode():
        memory = model.encode(src)
        caches = fast.start_decoding(memory), reference.start_decoding(memory)
        for t in range(steps):
            step = tokens[:, t:t + 1]
            run = "decoder_states" if t % 2 == 0 else "decode"
            ours = getattr(fast, run)(step, memory, src_mask, cache=caches[0])
            theirs = getattr(reference, run)(step, memory, src_mask, cache=caches[1])
            width_out = model.config.d_model if t % 2 == 0 else model.config.vocab_size
            assert ours.shape == theirs.shape == (groups * width, 1, width_out)
            assert_agree(ours, theirs)
    assert caches[0].length == caches[1].length == steps
    caches[0].materialise()  # per-row float32 keys/values, as the Python step keeps them
    heads = model.config.n_heads
    for ours, theirs in zip(caches[0].layers, caches[1].layers, strict=True):
        assert ours.self_k.shape == (groups * width, heads, steps, model.config.d_model // heads)
        assert_agree(ours.self_k, theirs.self_k)
        assert_agree(ours.self_v, theirs.self_v)


def assert_quantised_close(ours: torch.Tensor, theirs: torch.Tensor) -> None:
    """int8 layers quantise their inputs row by row (round(x · 127 / max|x_row|), 63 on AVX2): where
    a value computed in another order (attention, LayerNorm, the float16 cache) lies on a rounding
    boundary, its q moves by one step, and everything after it by about 2 % of a value (seen: at
    most 0.067, values up to about 7).  A wrong weight, bias or residual moves every value by more
    than that, so: within 1 % on average (seen: at most 0.4 %), no value off by more than 10 % of the
    largest (most steps are equal to the last bit)."""
    difference = (ours - theirs).abs()
    assert difference.mean() <= 0.01 * theirs.abs().mean(), (difference.mean(), theirs.abs().mean())
    assert difference.max() <= 0.1 * theirs.abs().max(), (difference.max(), theirs.abs().max())


@pytest.mark.parametrize("d_model, n_heads", [(32, 4), (48, 4), (128, 2), (144, 2)])
def test_attention_over_many_positions_agrees_whatever_the_head_width(d_model, n_heads):
    """Head widths 8, 12, 64 and 72, over 19 source positions (8 of them padding in one sentence)
    and up to 21 of its own: the step's attention takes 8 positions and 64 of a head's floats at
    a time where it can, and the rest one by one."""
    model = small_model(d_model=d_model, n_heads=n_heads)
    fast, reference = prepare(model), prepare(model, fused_step=False)
    assert_steps_agree(model, fast, reference, groups=2, width=2, steps=21, source_length=19)


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
def test_a_one_token_source_steps_in_cpp_with_the_python_steps_numbers(int8):
    """A one-word line of a model without source </s> is one source token: its encoder keys/values
    [G, H, 1, dk] are split from [G, 1, H, dk], contiguous with a stride of H·dk between positions
    (PyTorch leaves a size-1 dimension's stride arbitrary), which the step must read all the same."""
    model = small_model(seed=5)
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    assert_steps_agree(model, fast, reference, groups=3, width=4, steps=4, source_length=1, quantised=int8)
    src = torch.randint(4, 60, (3, 1))
    assert greedy_search(fast, src) == greedy_search(reference, src)
    ours, theirs = beam_search(fast, src), beam_search(reference, src)
    assert [[h.tokens for h in n] for n in ours] == [[h.tokens for h in n] for n in theirs]


def test_cpp_steps_after_a_first_python_step_read_its_one_position_cache():
    """An attention trace at the first step leaves the Python step's keys/values of one position
    [N, H, 1, dk] (a stride of H·dk between positions), which the C++ steps after it copy."""
    model = small_model(seed=6)
    fast, reference = prepare(model), prepare(model, fused_step=False)
    src = torch.randint(4, 60, (2, 5))
    src_mask = padding_mask(src, 0)
    with torch.inference_mode():
        memory = fast.encode(src)
        ours, theirs = fast.start_decoding(memory), reference.start_decoding(memory)
        for t in range(4):
            step = torch.randint(4, 60, (2, 1))
            trace = AttentionTrace() if t == 0 else None
            torch.testing.assert_close(fast.decode(step, memory, src_mask, trace=trace, cache=ours),
                                       reference.decode(step, memory, src_mask, cache=theirs), atol=2e-5, rtol=1e-4)


def test_keys_whose_positions_are_not_dk_apart_are_refused():
    """The layout check still reads every stride the step steps along: the same keys stored with
    positions 1 apart (each head's values S apart) would be read wrong, so they are refused."""
    model = small_model(seed=8)
    fast = prepare(model)
    src = torch.randint(4, 60, (2, 5))
    with torch.inference_mode():
        memory = fast.encode(src)
        cache = fast.start_decoding(memory)
        for layer in cache.layers:
            layer.cross_k = layer.cross_k.transpose(2, 3).contiguous().transpose(2, 3)
        with pytest.raises(RuntimeError, match="keys and values must share one layout with contiguous positions"):
            fast.decode(torch.randint(4, 60, (2, 1)), memory, padding_mask(src, 0), cache=cache)


def test_two_steps_from_one_cache_state_each_keep_their_own_keys():
    """The step appends in place where the cache's buffer has room and no other tensor shares it:
    a second step from the same earlier cache (a copy of its list of layers) must not overwrite
    the first one's new position."""
    model = small_model()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    src = torch.randint(4, 60, (2, 7))
    src_mask = padding_mask(src, 0)
    with torch.inference_mode():
        memory = model.encode(src)
        cache, ref_cache = fast.start_decoding(memory), reference.start_decoding(memory)
        cache.reserve(8)  # as greedy search asks: the step grows the keys/values in place where it can
        for t in range(3):  # the cache now has room after its positions
            step = torch.full((2, 1), 5 + t)
            fast.decoder_states(step, memory, src_mask, cache=cache)
            reference.decoder_states(step, memory, src_mask, cache=ref_cache)
        branch, ref_branch = (copy.deepcopy(c) for c in (cache, ref_cache))
        branch.layers = [copy.copy(layer) for layer in cache.layers]  # the same key/value tensors
        first = fast.decoder_states(torch.full((2, 1), 20), memory, src_mask, cache=cache)
        second = fast.decoder_states(torch.full((2, 1), 30), memory, src_mask, cache=branch)
        torch.testing.assert_close(first, reference.decoder_states(torch.full((2, 1), 20), memory, src_mask,
                                                                   cache=ref_cache), atol=2e-5, rtol=1e-4)
        torch.testing.assert_close(second, reference.decoder_states(torch.full((2, 1), 30), memory, src_mask,
                                                                    cache=ref_branch), atol=2e-5, rtol=1e-4)
    for ours, theirs in zip(cache.layers + branch.layers, ref_cache.layers + ref_branch.layers, strict=True):
        torch.testing.assert_close(ours.self_k, theirs.self_k, atol=2e-5, rtol=1e-4)
        torch.testing.assert_close(ours.self_v, theirs.self_v, atol=2e-5, rtol=1e-4)


def steps_side_by_side(room: int, steps: int, hold_keys: bool = False) -> tuple[DecoderCache, DecoderCache, list[bool]]:
    """Decodes ``steps`` positions of two sentences with the C++ step (its cache given ``room``) and
    the Python step, comparing their logits at each step.  Returns both caches and, for each step
    after the first, whether the C++ cache's first-layer keys grew in place (the same buffer as
    before: a copy goes to a new one while the old is still held); ``hold_keys``: a storage
    object of those keys is held through each step after the first."""
    model = small_model()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    src = torch.randint(4, 60, (2, 7))
    src_mask = padding_mask(src, 0)
    buffers = []
    with torch.inference_mode():
        memory = model.encode(src)
        cache, ref_cache = fast.start_decoding(memory), reference.start_decoding(memory)
        cache.reserve(room)
        for t in range(steps):
            held = cache.layers[0].self_k.untyped_storage() if hold_keys and t else None  # noqa: F841
            step = torch.full((2, 1), 5 + t)
            torch.testing.assert_close(fast.decode(step, memory, src_mask, cache=cache),
                                       reference.decode(step, memory, src_mask, cache=ref_cache), atol=2e-5, rtol=1e-4)
            buffers.append(cache.layers[0].self_k.data_ptr())  # the buffer's start: the views begin there
    return cache, ref_cache, [now == before for before, now in zip(buffers[:-1], buffers[1:], strict=True)]


@pytest.mark.parametrize("room", [0, 20])
def test_the_step_grows_keys_in_place_and_copies_once_the_buffer_is_full(room):
    cache, ref_cache, in_place = steps_side_by_side(room, steps=18)
    for ours, theirs in zip(cache.layers, ref_cache.layers, strict=True):
        torch.testing.assert_close(ours.self_k, theirs.self_k, atol=2e-5, rtol=1e-4)
        torch.testing.assert_close(ours.self_v, theirs.self_v, atol=2e-5, rtol=1e-4)
    # The first position's buffer holds it alone (beam search copies at the next step anyway); a
    # copied buffer holds t + 1 + room positions, or with no room reserved a multiple of 16: room 0:
    # positions 0-15 in the second buffer, 16 and 17 in the third; room 20: positions 0-17 in the
    # second (22).
    assert in_place == ([False] + [True] * 16 if room else [False] + [True] * 14 + [False, True])
    keys = cache.layers[0].self_k
    assert keys.stride(1) // keys.size(-1) == (22 if room else 32)  # the last buffer's positions


@pytest.mark.parametrize("fused_step", [True, False])
def test_reorders_of_the_rows_are_applied_by_the_next_step_as_the_readable_cache_applies_them(fused_step):
    """The inference copy's cache keeps beam search's reorders for the step to apply (or for the
    Python step to apply first): the beam widening (a new buffer), reorders within each sentence's
    beam and two in a row, then a sentence leaving (the rows' lineage, no copy).  Logits stay the
    readable model's, and so do the keys and values once settled."""
    model = small_model(seed=5)
    fast = prepare(model, fused_step=fused_step)
    src = torch.randint(4, 60, (3, 6))
    src_mask = padding_mask(src, 0)
    reorders = [  # (rows, groups) before each step after the first
        [(torch.tensor([0, 0, 1, 1, 2, 2]), None)],  # each sentence's one row becomes two
        [(torch.tensor([1, 0, 2, 3, 5, 5]), None), (torch.tensor([0, 1, 2, 2, 4, 5]), None)],  # two in a row:
        # [1, 0, 2, 2, 5, 5]: a swap (each row's source rewritten too), a copy, a row kept
        [(torch.tensor([2, 3, 5, 4]), torch.tensor([1, 2]))],  # the first sentence has ended
    ]
    buffers, rows = [], len(src)
    with torch.inference_mode():
        memory, reference_memory = fast.encode(src), model.encode(src)
        ours, theirs = fast.start_decoding(memory), model.start_decoding(reference_memory)
        for t in range(len(reorders) + 1):
            step = torch.randint(4, 60, (rows, 1))
            torch.testing.assert_close(fast.decode(step, memory, src_mask, cache=ours),
                                       model.decode(step, reference_memory, src_mask, cache=theirs),
                                       atol=2e-5, rtol=1e-4)
            buffers.append(ours.layers[0].self_k.data_ptr())
            for order, groups in reorders[t] if t < len(reorders) else []:
                ours.reorder(order, groups)
                theirs.reorder(order, groups)
                rows = len(order)
                if groups is not None:
                    memory, reference_memory, src_mask = memory[groups], reference_memory[groups], src_mask[groups]
    ours.materialise()
    for mine, reference in zip(ours.layers, theirs.layers, strict=True):
        torch.testing.assert_close(mine.self_k, reference.self_k, atol=2e-5, rtol=1e-4)
        torch.testing.assert_close(mine.self_v, reference.self_v, atol=2e-5, rtol=1e-4)
    if fused_step:  # the widening copies into a new buffer; the reorders after it stay in that one
        assert [now == before for before, now in zip(buffers[:-1], buffers[1:], strict=True)] == [False, True, True]


def test_a_long_run_of_random_reorders_and_sentences_leaving_keeps_the_readable_logits():
    """Each row's positions lie in whichever blocks its ancestors wrote them to (the lineage): after
    many random reorders within the beams, sentences leaving one by one and a full buffer copied
    once, every step's logits are still the readable model's."""
    model = small_model(seed=11)
    fast = prepare(model)
    generator = torch.Generator().manual_seed(0)
    src = torch.randint(4, 60, (4, 7), generator=generator)
    src[1, 5:] = 0
    src_mask, width = padding_mask(src, 0), 3
    with torch.inference_mode():
        memory, reference_memory = fast.encode(src), model.encode(src)
        ours, theirs = fast.start_decoding(memory), model.start_decoding(reference_memory)
        ours.reserve(10)  # a new buffer at the widening (room 10: 12 positions), another after position 11
        sentences = len(src)
        for t in range(20):
            rows = sentences * (width if t else 1)
            step = torch.randint(4, 60, (rows, 1), generator=generator)
            torch.testing.assert_close(fast.decode(step, memory, src_mask, cache=ours),
                                       model.decode(step, reference_memory, src_mask, cache=theirs),
                                       atol=2e-5, rtol=1e-4)
            groups = None
            if t in (6, 11, 14):  # a sentence ends: its group leaves
                groups = torch.tensor([g for g in range(sentences) if g != t % sentences])
            kept = range(sentences) if groups is None else groups.tolist()
            # Each row continues a random row of its own sentence's beam (or the sentence's one row).
            parents = torch.tensor([g * (width if t else 1) + int(torch.randint(width if t else 1, (1,),
                                                                                 generator=generator))
                                    for g in kept for _ in range(width)])
            ours.reorder(parents, groups)
            theirs.reorder(parents, groups)
            if groups is not None:
                memory, reference_memory, src_mask = memory[groups], reference_memory[groups], src_mask[groups]
                sentences -= 1
    ours.materialise()
    for mine, reference in zip(ours.layers, theirs.layers, strict=True):
        torch.testing.assert_close(mine.self_k, reference.self_k, atol=2e-5, rtol=1e-4)
        torch.testing.assert_close(mine.self_v, reference.self_v, atol=2e-5, rtol=1e-4)


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
def test_python_steps_between_cpp_steps_read_and_leave_the_cache_as_the_cpp_step_does(int8):
    """Steps that take the Python path (an attention trace) settle the C++ step's cache (lineage,
    pending reorder, float16 beside int8 layers) into per-row float32 keys/values and append to
    them; the C++ steps after them copy those into a buffer of their own type again."""
    model = small_model(seed=4)
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    src = torch.randint(4, 60, (2, 7))
    src_mask = padding_mask(src, 0)
    with torch.inference_mode():
        memory = fast.encode(src)
        ours, theirs = fast.start_decoding(memory), reference.start_decoding(memory)
        ours.reserve(8)
        for t in range(12):
            step = torch.randint(4, 60, (2 if t == 0 else 6, 1))
            trace = AttentionTrace() if t in (4, 5) else None
            mine, expected = (fast.decode(step, memory, src_mask, trace=trace, cache=ours),
                              reference.decode(step, memory, src_mask, cache=theirs))
            if int8:
                assert_quantised_close(mine, expected)
            else:
                torch.testing.assert_close(mine, expected, atol=2e-5, rtol=1e-4)
            parents = torch.tensor([0, 0, 0, 1, 1, 1] if t == 0 else [2, 0, 1, 5, 5, 3])
            ours.reorder(parents)
            theirs.reorder(parents)
        assert trace is None and ours.lineage is not None  # the last steps were the C++ step's
        expected = torch.float16 if int8 else torch.float32
        assert {layer.self_k.dtype for layer in ours.layers} == {expected}


def test_a_finished_batchs_key_value_buffers_are_the_next_batchs():
    """The step keeps the keys/values buffers a search drops and hands them to the next search that
    fits in them (no fresh pages to fault in at every batch); the next search's numbers are its own."""
    model = small_model(seed=2)
    fast = prepare(model)
    src = torch.randint(4, 60, (2, 7))

    def first_buffers(tokens: torch.Tensor) -> tuple[set[int], torch.Tensor]:
        with torch.inference_mode():
            memory = fast.encode(src)
            cache = fast.start_decoding(memory)
            cache.reserve(40)
            logits = fast.decode(tokens, memory, padding_mask(src, 0), cache=cache)
            return {p for layer in cache.layers for p in (layer.self_k.data_ptr(), layer.self_v.data_ptr())}, logits

    before, _ = first_buffers(torch.full((2, 1), 5))  # the cache is dropped on return
    after, logits = first_buffers(torch.full((2, 1), 9))
    assert after == before
    with torch.inference_mode():
        memory = model.encode(src)
        expected = model.decode(torch.full((2, 1), 9), memory, padding_mask(src, 0), cache=model.start_decoding(memory))
    torch.testing.assert_close(logits, expected, atol=2e-5, rtol=1e-4)


def test_freed_buffers_are_kept_for_requests_of_their_kind_and_those_outgrown_are_freed():
    """The step keeps freed key/value and logits buffers, each kind for its own requests: one is
    handed out to a request of at least half its size, and a request that none fits frees the
    smaller kept buffers of its kind, which it has outgrown, leaving larger ones and the other
    kind's."""
    fast = prepare(small_model(seed=3))
    kept, kept_logits = torch.ops.attnmt.kept_key_value_bytes, torch.ops.attnmt.kept_logits_bytes
    generator = torch.Generator().manual_seed(0)
    decoding = Decoding(beam_size=4, max_len_a=0.0, max_len_b=6)
    gc.collect()  # earlier tests' caches freed first
    torch.ops.attnmt.release_kept_buffers()
    assert kept() == [] and kept_logits() == []
    beam_search(fast, torch.randint(4, 60, (1, 5), generator=generator), decoding)
    first = Counter(kept())
    # 3 layers' keys and values: the first position's [1, H, 1, dk], the beam's [4, H, 2 + room 6, dk]
    assert sorted(first.items()) == [(1 * 4 * 1 * 8 * 4, 6), (4 * 4 * 8 * 8 * 4, 6)]
    beam_search(fast, torch.randint(4, 60, (8, 9), generator=generator), dataclasses.replace(decoding, max_len_b=12))
    second = Counter(kept())
    assert not second & first  # outgrown: freed
    largest = max(second)
    assert second[largest] == 6 and largest == 8 * 4 * 4 * (2 + 12) * 8 * 4  # the beam's, kept for the next
    beam_search(fast, torch.randint(4, 60, (1, 5), generator=generator), decoding)
    assert Counter(kept())[largest] == 6  # a smaller batch takes buffers of its own: the larger stay
    before = Counter(kept())
    src = torch.randint(4, 60, (1, 5), generator=generator)
    with torch.inference_mode():
        memory = fast.encode(src)
        logits = fast.decode(torch.full((1, 1), 5), memory, padding_mask(src, 0), cache=fast.start_decoding(memory))
        assert logits.shape[-1] == 60
        del logits
    assert len(kept_logits()) == 1  # the step's logits buffer, kept
    assert Counter(kept()) == before  # a logits request frees no keys or values


def test_keys_held_elsewhere_make_keys_and_values_copy_together():
    """A tensor sharing one layer's keys (here the storage object Python hands out) stops them growing
    in place; the values, which could, are copied too, so that attention reads both alike."""
    _, _, in_place = steps_side_by_side(room=8, steps=4, hold_keys=True)
    assert in_place == [False] * 3  # copied at every step: the held storage is shared


def test_a_sentence_with_every_source_position_masked_gets_zero_cross_attention_as_the_python_step():
    model = small_model()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    src = torch.randint(4, 60, (2, 5))
    src_mask = padding_mask(src, 0)
    src_mask[1] = False
    step = torch.randint(4, 60, (2, 1))
    with torch.inference_mode():
        memory = model.encode(src)
        ours = fast.decoder_states(step, memory, src_mask, cache=fast.start_decoding(memory))
        theirs = reference.decoder_states(step, memory, src_mask, cache=reference.start_decoding(memory))
    assert torch.isfinite(ours).all()
    torch.testing.assert_close(ours, theirs, atol=2e-5, rtol=1e-4)


@pytest.mark.parametrize("ties", EMBEDDING_TIES.values(), ids=EMBEDDING_TIES.keys())
@pytest.mark.parametrize("beam", [1, 4])
def test_translations_are_the_python_steps(beam, ties):
    model = small_model(seed=3, **ties)
    fast, reference = prepare(model), prepare(model, fused_step=False)
    src = torch.randint(4, model.config.src_vocab_size or 60, (6, 9))
    src[2, 3:] = 0
    src[4, 6:] = 0
    if beam == 1:
        assert greedy_search(fast, src) == greedy_search(reference, src)
    else:
        decoding = Decoding(beam_size=beam)
        ours, theirs = beam_search(fast, src, decoding), beam_search(reference, src, decoding)
        assert [[h.tokens for h in n] for n in ours] == [[h.tokens for h in n] for n in theirs]
        for n_ours, n_theirs in zip(ours, theirs, strict=True):
            assert n_ours[0].log_prob == pytest.approx(n_theirs[0].log_prob, abs=1e-4)


def test_attention_traces_and_whole_sequences_still_take_the_python_path():
    model = small_model()
    fast = prepare(model)
    src, tgt = torch.randint(4, 60, (2, 6)), torch.randint(4, 60, (2, 5))
    with torch.inference_mode():
        logits, trace = fast(src, tgt, return_attention=True)
        expected = model(src, tgt)
    assert len(trace.decoder_self) == 3 and trace.cross[0].shape == (2, 4, 5, 6)
    torch.testing.assert_close(logits, expected, atol=1e-4, rtol=1e-4)


def test_the_last_layers_cross_attention_alone_is_the_readable_models():
    model = small_model()
    src, tgt = torch.randint(4, 60, (2, 6)), torch.randint(4, 60, (2, 5))
    src[1, 3:] = 0
    with torch.inference_mode():
        _, trace = model(src, tgt, return_attention=True)
        fast = prepare(model)
        alone = fast.cross_attention(tgt, fast.encode(src), padding_mask(src, 0))
    torch.testing.assert_close(alone, trace.cross[-1], atol=1e-5, rtol=1e-4)


def test_a_failed_build_warns_once_and_leaves_the_python_step(monkeypatch, tmp_path):
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path))  # nothing built there yet

    def no_compiler(folder):
        raise OSError("c++: not found")

    monkeypatch.setattr(extension, "_build", no_compiler)
    with pytest.warns(UserWarning, match="c\\+\\+: not found"):
        assert not extension.available()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not extension.available()  # decided once per process
        model = small_model()
        assert prepare(model).step is None
        src = torch.randint(4, 60, (2, 5))
        assert greedy_search(prepare(model), src) == greedy_search(model, src)


def test_it_can_be_switched_off(monkeypatch):
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setenv("ATTNMT_FUSED", "0")
    assert prepare(small_model()).step is None


def test_without_the_avx2_kernel_the_step_calls_onednn_with_the_same_numbers():
    model = small_model()
    fast, reference = prepare(model), prepare(model, fused_step=False)
    if torch.ops.attnmt.panels_available():
        assert all(linear.panels is not None for linear in fast.step.weights.linear_layers())
        with pytest.raises(ValueError, match="PanelLinear"):  # they hold no oneDNN copy
            FusedDecoderStep(fast, panels=False)
    fast = prepare(model, fused_step=False)  # every layer oneDNN's
    fast.step, fast.next_tokens = FusedDecoderStep(fast, panels=False), FusedNextTokens()
    assert all(linear.panels is None for linear in fast.step.weights.linear_layers())
    assert_steps_agree(model, fast, reference, groups=2, width=3, steps=4)


@pytest.mark.parametrize("rows, k, n", [(1, 32, 16), (2, 40, 24), (5, 48, 40), (11, 32, 40), (12, 64, 48),
                                        (13, 256, 768), (15, 64, 80), (22, 48, 40), (32, 100, 7), (29, 64, 80)])
def test_the_panel_kernel_is_f_linear_with_its_residual_and_relu(rows, k, n):
    """Whichever kernel runs here: AVX-512 where PyTorch's kernels use it, else AVX2
    (ATEN_CPU_CAPABILITY=avx2 tests that one).  The rows left after whole blocks go in one block of
    their own size: after blocks of 8 (AVX-512) 1, 2, 5 (5, 13, 29), 3 (11), 4 (12), 7 (15), 6 (22);
    after blocks of 6 (AVX2) 1 (1, 13), 2 (2, 32), 3 (15), 4 (22), 5 (5, 11, 29).  80 columns end in
    a single panel.  From 8 rows the kernels fetch the next panels ahead."""
    assert extension.available()
    if not torch.ops.attnmt.panels_available():
        pytest.skip("built without AVX2/FMA: the step uses oneDNN")
    capability = torch.backends.cpu.get_cpu_capability()
    assert torch.ops.attnmt.panel_isa() == ("avx512" if capability == "AVX512" else "avx2")
    torch.manual_seed(rows)
    x, w, b, residual = torch.randn(rows, k), torch.randn(n, k), torch.randn(n), torch.randn(rows, n)
    panels = torch.ops.attnmt.pack_panels(w)
    assert panels.shape == ((n + 15) // 16, k, 16)
    linear = torch.ops.attnmt.panel_linear
    close = dict(atol=1e-4, rtol=1e-4)  # sums of up to 256 products of N(0, 1) values, in another order
    torch.testing.assert_close(linear(x, panels, b, n, None, False), torch.nn.functional.linear(x, w, b), **close)
    torch.testing.assert_close(linear(x, panels, None, n, None, False), x @ w.T, **close)
    torch.testing.assert_close(linear(x, panels, b, n, residual, True), (x @ w.T + b + residual).relu(), **close)
    with pytest.raises(RuntimeError, match="pack_panels' output"):
        linear(x[:, 1:], panels, b, n, None, False)  # K does not match


def test_it_refuses_layers_that_are_not_packed():
    with pytest.raises(TypeError, match="PackedLinear"):
        FusedDecoderStep(small_model())


def with_first_layer(weights: StepWeights, **fields) -> StepWeights:
    """``weights`` with some fields of its first decoder layer replaced (built, so checked, anew)."""
    return dataclasses.replace(weights, layers=(dataclasses.replace(weights.layers[0], **fields), *weights.layers[1:]))


def test_the_old_module_still_imports_with_a_deprecation_warning(monkeypatch):
    monkeypatch.delitem(sys.modules, "attnmt.fast.fused", raising=False)
    with pytest.warns(DeprecationWarning, match="attnmt.fast.fused is split"):
        from attnmt.fast.fused import FusedDecoderStep as old
    assert old is FusedDecoderStep


def test_step_weights_with_a_weight_of_the_wrong_shape_are_refused_naming_the_layer_and_field():
    weights = prepare(small_model()).step.weights  # d_model 32, d_ff 64
    with pytest.raises(ValueError, match="layer 0's ff2 is 64 × 32, expected 32 × 64"):
        with_first_layer(weights, ff2=weights.layers[0].ff1)


def test_step_weights_with_a_layernorm_of_another_dtype_are_refused_naming_it():
    weights = prepare(small_model()).step.weights
    norm = weights.layers[0].cross_norm
    with pytest.raises(ValueError, match="layer 0's cross_norm γ is torch.float64"):
        with_first_layer(weights, cross_norm=dataclasses.replace(norm, gamma=norm.gamma.double()))


def test_step_weights_of_an_unknown_kind_or_activation_are_refused():
    weights = prepare(small_model()).step.weights
    with pytest.raises(ValueError, match="linears 'int4' is not a Linears"):
        dataclasses.replace(weights, linears="int4")
    with pytest.raises(ValueError, match="no activation 'tanh': it has relu, gelu, swish"):
        Activation.named("tanh")


def first_logits(fast: Transformer, weights: StepWeights) -> torch.Tensor:
    """The logits of one C++ step (``decode``) from ``weights``, over a fixed source and tokens."""
    torch.manual_seed(1)
    src, tokens = torch.randint(4, 60, (2, 7)), torch.randint(4, 60, (2, 1))
    step = copy.copy(fast.step)
    step.kernel = torch.classes.attnmt.DecoderStep(weights.to_cpp())
    with torch.inference_mode():
        return step.decode(tokens, fast.start_decoding(fast.encode(src)), padding_mask(src, 0))


def test_the_cpp_step_reads_each_weight_by_its_field_name():
    fast = prepare(small_model())
    weights = fast.step.weights
    layer = weights.layers[0]
    swapped = with_first_layer(weights, self_out=layer.cross_out, cross_out=layer.self_out)  # both d × d
    assert torch.equal(first_logits(fast, weights), first_logits(fast, weights))
    assert not torch.allclose(first_logits(fast, swapped), first_logits(fast, weights), atol=1e-3)


def test_the_cpp_weights_refuse_an_unknown_field_and_a_layer_with_one_never_set():
    weights = prepare(small_model(decoder_layers=1)).step.weights
    cpp = torch.classes.attnmt.StepWeights(int(weights.linears), int(weights.norm), int(weights.activation),
                                           weights.heads, weights.eps, weights.embedding, weights.positions,
                                           weights.embed_scale, None, None)
    cpp.add_layer()
    layer = weights.layers[0]
    with pytest.raises(RuntimeError, match="a decoder layer has no field norm1"):
        cpp.set_norm("norm1", layer.self_norm.gamma, layer.self_norm.beta)
    for name in ("self_qkv", "self_out", "cross_q", "cross_out", "ff1", "ff2"):
        set_linear(cpp, name, getattr(layer, name))
    cpp.set_norm("self_norm", layer.self_norm.gamma, layer.self_norm.beta)
    cpp.set_norm("cross_norm", layer.cross_norm.gamma, layer.cross_norm.beta)
    set_linear(cpp, "output", weights.output)
    with pytest.raises(RuntimeError, match="layer 0's ff_norm was never set"):
        torch.classes.attnmt.DecoderStep(cpp)


BANNED = [0, 2, 3]


def awkward_logits(rows: int, vocab: int) -> torch.Tensor:
    """Random logits [rows, vocab] where row 1's maximum is a banned token (2) and row 2's best
    token sits in the last, partial chunk of 64."""
    torch.manual_seed(vocab)
    logits = torch.randn(rows, vocab) * 4
    logits[1, 2] = logits[1].max() + 5  # a banned token holding its row's (and chunk's) maximum
    logits[2, vocab - 1] = logits[2].max() + 1  # the best token in the last, partial chunk
    return logits


@pytest.mark.parametrize("vocab, k", [(8000, 8), (60, 8), (130, 3), (64, 1)])
def test_top_log_probs_are_log_softmaxs_best_tokens_outside_the_banned_ones(vocab, k):
    assert extension.available()
    logits, banned = awkward_logits(7, vocab), BANNED
    top, tokens, normaliser = FUSED.top_log_probs(logits, k, banned)
    log_probs = logits.log_softmax(dim=-1)
    torch.testing.assert_close(normaliser, logits.logsumexp(dim=-1), atol=1e-5, rtol=1e-6)
    log_probs[:, banned] = float("-inf")
    expected_top, expected_tokens = log_probs.topk(k, dim=1)
    assert torch.equal(tokens, expected_tokens)
    torch.testing.assert_close(top, expected_top, atol=1e-5, rtol=1e-6)
    assert tokens[2, 0] == vocab - 1 and not torch.isin(tokens, torch.tensor(banned)).any()


@pytest.mark.parametrize("vocab, k", [(8000, 8), (130, 5), (67, 1)])
def test_among_tied_logits_the_lower_ids_are_chosen_first(vocab, k):
    """Logits of four values only, so that the k-th best is tied with many later tokens: the
    choice is the first k of a stable sort, as the kernels compare a chunk's logits with the
    k-th best several at a time."""
    assert extension.available()
    torch.manual_seed(vocab)
    logits = torch.randint(0, 4, (6, vocab)).float()
    logits[2] = 1.0  # every token tied
    order = torch.sort(-logits.index_fill(1, torch.tensor(BANNED), float("-inf")), dim=1, stable=True).indices
    assert torch.equal(FUSED.top_log_probs(logits, k, BANNED)[1], order[:, :k])
    assert torch.equal(FUSED.best_tokens(logits, BANNED), order[:, 0])


@pytest.mark.parametrize("k", [1, 2, 5])
def test_a_value_tied_with_the_kth_best_is_taken_from_the_lowest_id_across_chunks(k):
    """Token 10 (chunk 0) ties with token 140 in chunk 2, whose maximum (token 130) is larger: the
    chunks are searched in the order of their ids, not of their maxima."""
    assert extension.available()
    logits = torch.full((2, 300), -5.0)
    logits[:, 10], logits[:, 130], logits[:, 140] = 3.0, 10.0, 3.0
    logits[1, 200:204] = 3.0
    order = torch.sort(-logits.index_fill(1, torch.tensor(BANNED), float("-inf")), dim=1, stable=True).indices
    assert torch.equal(FUSED.top_log_probs(logits, k, BANNED)[1], order[:, :k])
    assert FUSED.top_log_probs(logits, 2, BANNED)[1].tolist() == [[130, 10], [130, 10]]


@pytest.mark.parametrize("k", [1, 4])
def test_a_banned_token_beyond_a_chunks_first_eight_is_never_chosen(k):
    """Banned tokens holding their rows' largest logits at places the search reaches once its list
    of k best is full (where it compares 8 logits at a time)."""
    assert extension.available()
    torch.manual_seed(k)
    logits = torch.randn(3, 8000)
    banned = [0, 150, 5003]  # 150: chunk 2, place 22; 5003: chunk 78, place 11
    logits[:, 5003], logits[:, 150] = 50.0, 40.0
    order = torch.sort(-logits.index_fill(1, torch.tensor(banned), float("-inf")), dim=1, stable=True).indices
    assert torch.equal(FUSED.top_log_probs(logits, k, banned)[1], order[:, :k])
    assert torch.equal(FUSED.best_tokens(logits, banned), order[:, 0])


@pytest.mark.parametrize("vocab", [8000, 60, 130, 64])
def test_best_tokens_are_the_largest_logits_outside_the_banned_ones(vocab):
    assert extension.available()
    logits, banned = awkward_logits(9, vocab), BANNED
    logits[3, :64] = logits[3].max() + 1  # banned tokens and a tie in one chunk: the lowest id wins
    tokens = FUSED.best_tokens(logits, banned)
    expected = logits.index_fill(1, torch.tensor(banned), float("-inf")).max(dim=1).indices
    assert torch.equal(tokens, expected)
    assert tokens[1] != 2 and tokens[2] == vocab - 1 and tokens[3] == 1
    untied = [0, 1, 2, *range(4, 9)]  # torch.topk, under the readable path, leaves the order of ties open
    assert torch.equal(READABLE.best_tokens(logits[untied], banned), expected[untied])


def test_top_log_probs_refuses_more_tokens_than_the_vocabulary_offers():
    assert extension.available()
    with pytest.raises(RuntimeError, match="exceeds the vocabulary"):
        FUSED.top_log_probs(torch.randn(2, 10), 8, [0, 1, 2])


@pytest.mark.parametrize("min_len", [0, 4])
def test_beam_search_at_its_length_limit_and_under_min_len_scores_as_the_python_path(min_len):
    model = small_model(seed=5)
    fast, reference = prepare(model), prepare(model, fused_step=False)
    src = torch.randint(4, 60, (4, 6))
    src[3, 2:] = 0
    settings = Decoding(beam_size=4, n_best=4, alpha=0.6, max_len_a=0.0, max_len_b=5, min_len=min_len)
    ours, theirs = beam_search(fast, src, settings), beam_search(reference, src, settings)
    for n_ours, n_theirs in zip(ours, theirs, strict=True):
        assert [h.tokens for h in n_ours] == [h.tokens for h in n_theirs]
        assert [h.log_prob for h in n_ours] == pytest.approx([h.log_prob for h in n_theirs], abs=1e-4)
        assert all(len(h.tokens) >= min(min_len, 5) for h in n_ours)


@pytest.mark.parametrize(
    "overrides", [{}, {"norm_first": True, "activation": "gelu"}], ids=["post-norm", "pre-norm gelu"]
)
def test_the_int8_copy_steps_in_cpp_too_with_its_python_steps_numbers(overrides):
    model = small_model(seed=7, **overrides)
    fast, reference = prepare(model, int8=True), prepare(model, int8=True, fused_step=False)
    assert fast.step is not None and reference.step is None
    assert fast.step.weights.linears in (Linears.INT8, Linears.INT8_PANELS)
    assert_steps_agree(model, fast, reference, groups=3, width=2, steps=5, quantised=True)
    src = torch.randint(4, 60, (3, 7))
    src[2, 3:] = 0
    assert greedy_search(fast, src) == greedy_search(reference, src)
    ours, theirs = beam_search(fast, src), beam_search(reference, src)
    assert [[h.tokens for h in n] for n in ours] == [[h.tokens for h in n] for n in theirs]


@pytest.mark.parametrize(
    "overrides", [{}, {"norm_first": True, "activation": "gelu"}], ids=["post-norm", "pre-norm gelu"]
)
@pytest.mark.skipif(not bf16_native()[0], reason="oneDNN runs bf16 layers only where the CPU multiplies bf16")
def test_the_bf16_copy_steps_in_cpp_too_with_its_python_steps_numbers(overrides):
    model = small_model(seed=9, **overrides)
    fast, reference = prepare(model, bf16=True), prepare(model, bf16=True, fused_step=False)
    assert fast.step is not None and reference.step is None
    assert all(linear.panels is None for linear in fast.step.weights.linear_layers())
    # Both round each layer's input and product to bf16 (8 bits); attention and LayerNorm in
    # another order can move a value across a bf16 rounding boundary: one bf16 step, 2^-8 relative.
    assert_steps_agree(model, fast, reference, groups=3, width=2, steps=5, atol=2e-2, rtol=2e-2)
    src = torch.randint(4, 60, (3, 7))
    src[2, 3:] = 0
    assert greedy_search(fast, src) == greedy_search(reference, src)


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
@pytest.mark.parametrize("shortlist", [False, True], ids=["full", "shortlist"])
def test_the_cpp_step_records_the_cross_attention_a_readable_pass_over_the_output_gives(int8, shortlist):
    """Beam search on the inference copy records each token's cross-attention inside the C++ step
    (GrowingCache.record): the weights a teacher-forced pass of the Python layers over the found
    tokens gives, for every hypothesis, a one-token source, padding and any layer."""
    from attnmt.decoding.state import Recording
    from attnmt.decoding.teacher_forcing import written_attention
    from attnmt.fast.shortlist import Shortlist, use_shortlist

    model = small_model(seed=3)
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    if shortlist:
        use_shortlist(fast, Shortlist({}, list(range(60)), 60, 60))
    src = torch.randint(4, 60, (4, 9))
    src[1, 1:] = 0  # one source token
    src[2, 5:] = 0
    tolerance = dict(atol=1e-2, rtol=0.05) if int8 else dict(atol=1e-5, rtol=1e-4)  # int8: float16 keys/values
    decoding = Decoding(beam_size=3, n_best=3)
    with torch.inference_mode():
        memory = fast.encode(src)
    for layer in (-1, 0):
        found = beam_search(fast, src, decoding, record=Recording(layer))
        plain = beam_search(fast, src, decoding)
        assert [[h.tokens for h in s] for s in found] == [[h.tokens for h in s] for s in plain]
        for i, sentence in enumerate(found):
            for h in sentence:
                assert h.attention.shape == (len(h.tokens), 9)
                if h.tokens:
                    forced = written_attention(reference, src[i:i + 1], memory[i:i + 1], [h.tokens], layer)[0]
                    torch.testing.assert_close(h.attention, forced, **tolerance)
                    assert torch.allclose(h.attention.sum(dim=1), torch.ones(len(h.tokens)), atol=1e-4)


@pytest.mark.parametrize("int8", [False, True], ids=["float32", "int8"])
def test_the_cpp_steps_log_probs_leave_pad_and_bos_out_of_the_softmax_as_the_python_path(int8):
    """A model whose output layer gives pad and BOS most of each step's mass: the C++ step's choice
    (the output layer and the top-k in one pass) normalises without them, as the Python path does,
    and its log-probs are the softmax over the other tokens."""
    model = fond_of_pad(small_model(seed=11, output_bias=True))
    fast, reference = prepare(model, int8=int8), prepare(model, int8=int8, fused_step=False)
    src = torch.randint(4, 60, (3, 6))
    settings = Decoding(beam_size=4, n_best=2, alpha=0.0, max_len_a=0.0, max_len_b=5)
    ours, theirs = beam_search(fast, src, settings), beam_search(reference, src, settings)
    for row, (n_ours, n_theirs) in enumerate(zip(ours, theirs, strict=True)):
        assert [h.tokens for h in n_ours] == [h.tokens for h in n_theirs]
        for h_ours, h_theirs in zip(n_ours, n_theirs, strict=True):
            assert h_ours.token_log_probs == pytest.approx(h_theirs.token_log_probs, abs=1e-4)
        if not int8:
            expected = masked_log_probs(model, src[row : row + 1], n_ours[0].tokens)
            assert n_ours[0].token_log_probs == pytest.approx(expected.tolist(), abs=1e-4)


def test_top_log_probs_leave_the_tokens_outside_out_of_the_normaliser_as_the_python_path():
    logits = awkward_logits(5, 8000)
    logits[:, [0, 2]] = logits.max() + 30  # pad and BOS: all the mass, were they counted
    ours, theirs = FUSED.top_log_probs(logits, 8, BANNED, [0, 2]), READABLE.top_log_probs(logits, 8, BANNED, [0, 2])
    assert torch.equal(ours[1], theirs[1])
    torch.testing.assert_close(ours[0], theirs[0], atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(ours[2], theirs[2], atol=1e-5, rtol=1e-6)
