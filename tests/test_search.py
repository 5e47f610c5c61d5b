"""Greedy search, beam search and translate: what they return, and that the fast paths agree."""

import functools
import importlib
import math
import warnings

import pytest
import torch
import torch.nn.functional as F
from support import CharTokenizer, EndingModel, ScriptedModel, ending_model, fond_of_pad, masked_log_probs
from support import search_config as tiny_config

from attnmt.decoding import Decoding, search
from attnmt.decoding.batch_search import forced_hypotheses
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.forced import forced_passes
from attnmt.decoding.inputs import encode_inputs, length_batches
from attnmt.decoding.next_tokens import NextTokens, row_top_k
from attnmt.decoding.search import beam_search, greedy_search, length_penalty
from attnmt.decoding.teacher_forcing import score_pair
from attnmt.decoding.translate import translate, translate_n_best
from attnmt.errors import DataError
from attnmt.model import Transformer

PAD, BOS, EOS = 0, 2, 3
A, B, C, D = 4, 5, 6, 7  # ordinary tokens of the hand-made model


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """These models are tiny: extra threads only add overhead (and wait on a busy machine)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def random_model(seed: int = 0, **changes) -> Transformer:
    """An untrained model: it rarely says EOS, so its outputs run to the max length."""
    torch.manual_seed(seed)
    return Transformer(tiny_config(**changes)).eval()


@functools.cache
def copy_model() -> Transformer:
    """A model trained for a few seconds to copy its input (tokens 4-15, 2-7 of them).

    It copies many sentences and stumbles on others: real uncertainty for the searches.
    """
    torch.manual_seed(0)
    model = Transformer(tiny_config())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    lengths = torch.randint(2, 8, (120, 32), generator=torch.Generator().manual_seed(0)).tolist()
    for step, batch_lengths in enumerate(lengths):
        src = random_batch(step, batch_lengths)  # [32, S]
        tgt_in = F.pad(src, (1, 0), value=BOS)  # BOS a b c PAD
        tgt_out = F.pad(src, (0, 1), value=PAD)
        tgt_out[torch.arange(32), batch_lengths] = EOS  # a b c EOS PAD
        logits = model(src, tgt_in)
        loss = F.cross_entropy(logits.flatten(0, 1), tgt_out.flatten(), ignore_index=PAD)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model.eval()


def random_batch(seed: int, lengths: list[int]) -> torch.Tensor:
    """Random source sentences of the given lengths, right-padded: [len(lengths), max(lengths)]."""
    g = torch.Generator().manual_seed(seed)
    src = torch.full((len(lengths), max(lengths)), PAD)
    for i, n in enumerate(lengths):
        src[i, :n] = torch.randint(4, 16, (n,), generator=g)
    return src


def forced_log_probs(model: Transformer, src: torch.Tensor, tokens: list[int]) -> torch.Tensor:
    """log P of each of tokens, then EOS, given src [S] and the tokens before, by teacher forcing [T + 1]
    (a softmax over every token but pad and BOS)."""
    return masked_log_probs(model, src[None], tokens)


def sequence_log_prob(model: Transformer, src: torch.Tensor, tokens: list[int]) -> float:
    """log P(tokens + [EOS] | src [S]) by teacher forcing: the reference for search scores."""
    return forced_log_probs(model, src, tokens).sum().item()


def unpadded(src: torch.Tensor, i: int) -> torch.Tensor:
    """Sentence i of src alone, [1, its length]."""
    return src[i : i + 1, : int((src[i] != PAD).sum())]


def token_lists(hypotheses):
    return [[h.tokens for h in sentence] for sentence in hypotheses]


# --- lengths and scores -------------------------------------------------------------------------


def test_max_output_length_is_a_times_source_plus_b():
    assert Decoding(max_len_a=1.5, max_len_b=10).max_output_length(10, 1022) == 25
    assert Decoding(max_len_a=0.0, max_len_b=0).max_output_length(3, 1022) == 0


def test_max_output_length_leaves_room_for_bos_and_eos():
    assert Decoding().max_output_length(100, tiny_config(max_positions=64).longest_input) == 62


def test_a_huge_max_len_a_means_up_to_the_positions():
    # 1e308 * 7 is inf, and int(inf) failed every sentence with an OverflowError blamed on the model.
    decoding = Decoding(max_len_a=1e308)
    assert decoding.max_output_length(7, 1022) == 1022
    assert decoding.max_output_length(7, 1022, prefix=3, terms=5) == 1022
    assert decoding.max_output_length(0, 1022) == 10  # no source tokens: b alone


def test_a_huge_max_len_a_translates():
    [text] = translate(ending_model(), CharTokenizer(), ["abc"], Decoding(max_len_a=1e308, beam_size=1))
    assert isinstance(text, str)


def test_max_output_length_gets_a_prefix_and_the_terms_on_top():
    decoding = Decoding(max_len_a=1.0, max_len_b=2)  # 7 tokens for 5 source tokens
    assert decoding.max_output_length(5, 1022, prefix=3) == 10  # the prefix, and room for the rest
    assert decoding.max_output_length(5, 1022, prefix=9) == 16  # not ending with the prefix
    assert decoding.max_output_length(5, 1022, terms=23) == 30  # a long term, and room for the rest
    assert decoding.max_output_length(5, 1022, prefix=9, terms=23) == 39
    assert decoding.max_output_length(5, 20, prefix=9, terms=23) == 20


def test_a_fixed_max_length_gets_the_prefix_and_terms_on_top_as_any_limit_does():
    decoding = Decoding().with_max_length(4)
    assert decoding.max_output_length(5, 1022, terms=3) == 7
    assert decoding.max_output_length(5, 1022, prefix=6, terms=3) == 13


def test_length_penalty_is_gnmt():
    assert length_penalty(1, 0.6) == 1.0
    assert length_penalty(7, 1.0) == 2.0
    assert length_penalty(30, 0.0) == 1.0


# --- the hand-made model: exact numbers ---------------------------------------------------------

# Greedy takes A (0.6), then EOS (0.4): probability 0.24.
# Beam search also keeps B (0.4), which ends with EOS at 0.9: probability 0.36.
GREEDY_TRAP = {(): {A: 0.6, B: 0.4}, (A,): {EOS: 0.4, C: 0.35, D: 0.25}, (B,): {EOS: 0.9, C: 0.1}}
ONE_SOURCE = torch.tensor([[A, B]])


def test_greedy_search_follows_the_most_likely_token_to_eos():
    assert greedy_search(ScriptedModel(GREEDY_TRAP), ONE_SOURCE, use_cache=False) == [[A]]


def test_beam_search_finds_the_better_hypothesis_that_greedy_misses():
    decoding = Decoding(beam_size=2, alpha=0.0, n_best=2)
    [[best, second]] = beam_search(ScriptedModel(GREEDY_TRAP), ONE_SOURCE, decoding, use_cache=False)
    assert best.tokens == [B] and best.log_prob == pytest.approx(math.log(0.36))
    assert second.tokens == [A] and second.log_prob == pytest.approx(math.log(0.24))


def test_beam_search_reports_the_best_so_far_after_each_step():
    # Step 1: A leads (0.6).  Step 2: [B] (0.36) and [A] (0.24) finish, [A, C] (0.21) leads the
    # active ones: [B] is best, and with nothing active able to beat it the search ends.
    reports = []
    [[best]] = beam_search(ScriptedModel(GREEDY_TRAP), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                           on_step=reports.append)
    assert [{i: h.tokens for i, h in report.items()} for report in reports] == [{0: [A]}, {0: [B]}]
    assert reports[0][0].log_prob == pytest.approx(math.log(0.6))
    assert reports[-1][0] == best


def test_score_is_log_prob_over_length_penalty_counting_eos():
    [[best]] = beam_search(ScriptedModel(GREEDY_TRAP), ONE_SOURCE, Decoding(beam_size=2, alpha=1.0), use_cache=False)
    assert best.tokens == [B]
    assert best.score == pytest.approx(math.log(0.36) / ((5 + 2) / 6))


def test_pad_and_bos_are_never_generated_and_get_no_probability():
    model = ScriptedModel({(): {PAD: 0.5, BOS: 0.3, A: 0.2}})
    assert greedy_search(model, ONE_SOURCE, use_cache=False) == [[A]]
    [[best]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=3), use_cache=False)
    # A is the only token left in the softmax: log P = log 1, not log 0.2 (pad and BOS counted)
    assert best.tokens == [A] and best.log_prob == pytest.approx(0.0, abs=1e-6)


def test_output_is_cut_at_max_length_and_the_forced_eos_is_scored():
    model = ScriptedModel({(): {A: 0.9, EOS: 0.1}, (A,): {A: 0.9, EOS: 0.1}, (A, A): {A: 0.9, EOS: 0.1}})
    assert greedy_search(model, ONE_SOURCE, Decoding(max_len_a=0, max_len_b=2), use_cache=False) == [[A, A]]
    decoding = Decoding(beam_size=1, alpha=0.0, max_len_a=0, max_len_b=2)
    [[best]] = beam_search(model, ONE_SOURCE, decoding, use_cache=False)
    assert best.tokens == [A, A] and best.log_prob == pytest.approx(math.log(0.9 * 0.9 * 0.1))


def test_max_length_zero_gives_empty_output():
    model = ScriptedModel({(): {A: 0.9, EOS: 0.1}})
    assert greedy_search(model, ONE_SOURCE, Decoding(max_len_a=0, max_len_b=0), use_cache=False) == [[]]
    [[best]] = beam_search(model, ONE_SOURCE, Decoding(max_len_a=0, max_len_b=0), use_cache=False)
    assert best.tokens == [] and best.log_prob == pytest.approx(math.log(0.1))


# --- random models: the fast paths agree with the plain ones ----------------------------------

MODELS = {"random": random_model, "ending": ending_model, "copying": copy_model}
LENGTHS = [5, 9, 2, 7, 4]


@pytest.mark.parametrize("kind", MODELS)
def test_greedy_with_cache_equals_recomputing_the_prefix(kind):
    model, src = MODELS[kind](), random_batch(1, LENGTHS)
    assert greedy_search(model, src, use_cache=True) == greedy_search(model, src, use_cache=False)


@pytest.mark.parametrize("kind", MODELS)
def test_beam_with_cache_equals_recomputing_the_prefix(kind):
    model, src = MODELS[kind](), random_batch(2, LENGTHS)
    cached = beam_search(model, src, Decoding(beam_size=3, n_best=3), use_cache=True)
    recomputed = beam_search(model, src, Decoding(beam_size=3, n_best=3), use_cache=False)
    assert token_lists(cached) == token_lists(recomputed)


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_beam_size_one_equals_greedy(kind, alpha):
    model, src = MODELS[kind](), random_batch(3, LENGTHS)
    hypotheses = beam_search(model, src, Decoding(beam_size=1, alpha=alpha))
    assert [h.tokens for [h] in hypotheses] == greedy_search(model, src)


@pytest.mark.parametrize("kind", MODELS)
def test_batched_beam_search_equals_one_sentence_at_a_time(kind):
    model, src = MODELS[kind](), random_batch(4, LENGTHS)
    batched = beam_search(model, src, Decoding(beam_size=4, n_best=2))
    for i, hypotheses in enumerate(batched):
        [alone] = beam_search(model, unpadded(src, i), Decoding(beam_size=4, n_best=2))
        assert [h.tokens for h in hypotheses] == [h.tokens for h in alone]
        assert [h.score for h in hypotheses] == pytest.approx([h.score for h in alone], abs=1e-4)


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_step_reports_change_nothing_and_each_sentences_last_is_its_best(kind, alpha):
    model, src, decoding = MODELS[kind](), random_batch(7, LENGTHS), Decoding(beam_size=4, n_best=2, alpha=alpha)
    reports = []
    found = beam_search(model, src, decoding, on_step=reports.append)
    assert token_lists(found) == token_lists(beam_search(model, src, decoding))
    last = {}
    for step, report in enumerate(reports):
        for i, leading in report.items():
            assert len(leading.tokens) <= step + 1 and leading.log_prob <= 0  # at most a token a step so far
            last[i] = leading.tokens
    assert last == {i: hypotheses[0].tokens for i, hypotheses in enumerate(found)}


def test_batched_greedy_search_equals_one_sentence_at_a_time():
    model, src = ending_model(), random_batch(5, LENGTHS)
    batched = greedy_search(model, src)
    assert batched == [greedy_search(model, unpadded(src, i))[0] for i in range(len(LENGTHS))]


def test_hypothesis_log_prob_is_the_models_log_prob_of_tokens_and_eos():
    model, src = random_model(), random_batch(6, [3, 6])  # these run to the max length
    for i, [best] in enumerate(beam_search(model, src, Decoding(beam_size=3))):
        assert best.log_prob == pytest.approx(sequence_log_prob(model, src[i], best.tokens), abs=1e-4)
        assert best.score == pytest.approx(best.log_prob / length_penalty(len(best.tokens) + 1, 0.6))


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("beam", [1, 4])
def test_each_hypothesis_carries_the_log_prob_of_each_token_and_eos_as_teacher_forcing_gives_them(kind, beam):
    model, src = MODELS[kind](), random_batch(9, [1, *LENGTHS])  # a one-token source too
    found = beam_search(model, src, Decoding(beam_size=beam, n_best=beam))
    for i, sentence in enumerate(found):
        for h in sentence:
            assert len(h.token_log_probs) == len(h.tokens) + 1
            assert h.token_log_probs == pytest.approx(forced_log_probs(model, src[i], h.tokens).tolist(), abs=1e-4)
            assert sum(h.token_log_probs) == pytest.approx(h.log_prob, abs=1e-4)


def test_forced_tokens_carry_the_models_log_probs_too():
    model, src = random_model(), random_batch(10, [3, 6])  # these run to the max length: a forced EOS
    found = beam_search(model, src, Decoding(beam_size=3), prefixes=[[A, B], []])
    assert found[0][0].tokens[:2] == [A, B]
    for i, [best] in enumerate(found):
        assert best.token_log_probs == pytest.approx(forced_log_probs(model, src[i], best.tokens).tolist(), abs=1e-4)


@pytest.mark.parametrize("kind", MODELS)
def test_best_beam_scores_at_least_as_well_as_greedy(kind):
    # Not a theorem: a beam can prune greedy's path (about 1 sentence in 450 of
    # these models does).  The hand-made GREEDY_TRAP test above is the exact one.
    model, src = MODELS[kind](), random_batch(7, LENGTHS)
    greedy = greedy_search(model, src)
    for i, [best] in enumerate(beam_search(model, src, Decoding(beam_size=4))):
        greedy_score = sequence_log_prob(model, src[i], greedy[i]) / length_penalty(
            len(greedy[i]) + 1, 0.6)
        assert best.score >= greedy_score - 1e-5


def test_n_best_gives_that_many_distinct_hypotheses_best_first():
    for sentence in beam_search(ending_model(), random_batch(8, LENGTHS), Decoding(beam_size=4, n_best=3)):
        scores = [h.score for h in sentence]
        assert len(sentence) == 3 and scores == sorted(scores, reverse=True)
        assert len({tuple(h.tokens) for h in sentence}) == 3


def test_n_best_larger_than_beam_is_an_error():
    with pytest.raises(ValueError, match="n_best"):
        beam_search(random_model(), random_batch(0, [3]), Decoding(beam_size=2, n_best=3))


def record_batch_sizes(model, monkeypatch) -> list[int]:
    """Rows the model decodes at each step, appended to the returned list as search runs."""
    sizes: list[int] = []
    decode = model.decode

    def spy(tgt_in, *args, **kwargs):
        sizes.append(tgt_in.size(0))
        return decode(tgt_in, *args, **kwargs)

    monkeypatch.setattr(model, "decode", spy)
    return sizes


@pytest.mark.parametrize("use_cache", [True, False])
def test_finished_sentences_leave_the_beam_batch(monkeypatch, use_cache):
    model = random_model()
    sizes = record_batch_sizes(model, monkeypatch)
    # max lengths 1 and 4: the first sentence must end at step 1, the second at step 4.
    beam_search(model, random_batch(9, [1, 4]), Decoding(beam_size=4, max_len_a=1, max_len_b=0), use_cache=use_cache)
    assert sizes == [2, 8, 4, 4, 4]  # one BOS row per sentence, then 4 beams each


def test_finished_sentences_leave_the_greedy_batch_once_half_have_ended(monkeypatch):
    model = random_model()
    sizes = record_batch_sizes(model, monkeypatch)
    greedy_search(model, random_batch(9, [1, 4, 2]), Decoding(max_len_a=1, max_len_b=0))
    assert sizes == [3, 3, 1, 1]  # one of three ended after step 1: kept; two of three after step 2: dropped
    sizes.clear()
    src = random_batch(9, [1, 1, 4, 2])
    outputs = greedy_search(model, src, Decoding(max_len_a=1, max_len_b=0))
    assert sizes == [4, 2, 1, 1]
    monkeypatch.setattr(search, "COMPACT_SHARE", 1e-9)  # drop every ended row at once, as before
    assert greedy_search(model, src, Decoding(max_len_a=1, max_len_b=0)) == outputs


# --- translate ----------------------------------------------------------------------------------


def test_translate_keeps_line_alignment_with_blank_lines():
    model, tok = ending_model(), CharTokenizer()
    out = translate(model, tok, ["a cat sat", "", "   ", "the dog runs far", "hi"])
    assert len(out) == 5 and out[1] == out[2] == ""
    for i, line in [(0, "a cat sat"), (3, "the dog runs far"), (4, "hi")]:
        assert out[i] != "" and out[i] == translate(model, tok, [line])[0]


def test_translate_does_not_run_the_model_for_blank_lines(monkeypatch):
    model = ending_model()
    monkeypatch.setattr(model, "encode", lambda src: pytest.fail("the model was run"))
    assert translate(model, CharTokenizer(), ["", " \t "]) == ["", ""]


def test_translate_truncates_long_lines_with_one_warning():
    model, tok = ending_model(), CharTokenizer()
    long_a, long_b = "ab" * 40, "xyz" * 30  # 80 and 90 characters; the limit is 64 - 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = translate(model, tok, [long_a, "short", long_b])
    assert len(caught) == 1 and "2 of the 3 distinct sentences translated" in str(caught[0].message)
    assert out[0] == translate(model, tok, [long_a[:62]])[0]
    assert out[2] == translate(model, tok, [long_b[:62]])[0]


def test_the_truncation_warning_counts_distinct_sentences_as_it_says():
    """Plain text reaches the search as its distinct sentences: the warning said "1 of 36 input
    sentences" of an input of 111, and of a list with repeats it counted each repeat."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        encode_inputs(CharTokenizer(), ["ab" * 40, "short", "", "ab" * 40, "short", "  "], max_len=62)
    assert len(caught) == 1 and str(caught[0].message).startswith("1 of the 2 distinct sentences translated were")


def test_a_cut_source_keeps_its_closing_eos():
    class EndingCharTokenizer(CharTokenizer):
        source_eos = True

        def encode(self, text: str) -> list[int]:
            return [*super().encode(text), 3]

    with pytest.warns(UserWarning, match="1 of the 2 distinct"):
        cut, short = encode_inputs(EndingCharTokenizer(), ["ab" * 40, "ab"], max_len=62)
    assert cut == [*CharTokenizer().encode("ab" * 40)[:61], 3] and short == [4, 5, 3]


def test_length_batches_sort_by_length_and_keep_to_the_token_budget():
    # Sorted: 1 (i=1), 3 (i=0), 9 (i=2), 20 (i=3).  2 × 3 = 6 fits 10; 3 × 9 does not;
    # 20 alone is over the budget and still gets a batch.
    assert length_batches([3, 1, 9, 20], max_tokens=10) == [[1, 0], [2], [3]]


def test_translate_gives_the_same_output_in_small_batches():
    model, tok = ending_model(), CharTokenizer()
    lines = ["one", "two words", "a longer sentence here", "x", "", "four more words here"]
    assert translate(model, tok, lines, max_tokens=10) == translate(model, tok, lines)


def test_translate_batches_at_most_the_models_batch_sentences_unless_told(monkeypatch):
    module = importlib.import_module("attnmt.decoding.inputs")  # where padded_sources batches by length
    model, tok = ending_model(), CharTokenizer()
    lines = ["one", "two words", "a longer sentence here", "ok", "four more words here"]  # "x" would pass through
    sizes = []

    def recording(lengths, max_tokens, max_sentences=0):
        batches = length_batches(lengths, max_tokens, max_sentences)
        sizes.append([len(b) for b in batches])
        return batches

    monkeypatch.setattr(module, "length_batches", recording)
    whole = translate(model, tok, lines)  # the readable model: the token budget alone
    model.next_tokens = type("Pairs", (NextTokens,), {"batch_sentences": 2})()
    assert translate(model, tok, lines) == whole
    assert translate(model, tok, lines, max_sentences=0) == whole
    assert sizes == [[5], [2, 2, 1], [5]]


def failing_on_z(model: Transformer) -> Transformer:
    """The model, raising on any batch of sources that holds a "z" (a sentence that breaks a search)."""
    encode = model.encode
    z = CharTokenizer().encode("z")[0]

    def fragile(src, *args, **kwargs):
        if (src == z).any():
            raise RuntimeError("broken by z")
        return encode(src, *args, **kwargs)

    model.encode = fragile
    return model


def test_a_sentence_the_model_fails_on_fails_alone_and_its_batch_is_translated():
    model, tok = ending_model(), CharTokenizer()
    lines = ["a cat sat", "fizz", "", "the dog runs far", "buzz"]
    expected = translate(model, tok, lines)
    with pytest.raises(SentencesFailed, match=r"on 2 sentence\(s\), the first on sentence 2: RuntimeError: broken by z"
                       ) as failed:
        translate(failing_on_z(model), tok, lines)
    assert sorted(failed.value.failures) == [1, 4] and str(failed.value.failures[1]) == "broken by z"
    assert failed.value.outputs == [expected[0], "", "", expected[3], ""]


def test_a_sentence_the_model_fails_on_leaves_the_others_n_best_lists():
    model, tok = ending_model(), CharTokenizer()
    lines = ["a cat sat", "fizz", "the dog runs far"]
    expected = translate_n_best(model, tok, lines, Decoding(beam_size=2, n_best=2))
    with pytest.raises(SentencesFailed) as failed:
        translate_n_best(failing_on_z(model), tok, lines, Decoding(beam_size=2, n_best=2))
    texts = [[t.text for t in found] for found in failed.value.outputs]
    assert texts == [[t.text for t in expected[0]], [], [t.text for t in expected[2]]]
    # searched alone, a sentence's scores are its batched ones up to the order of the sums
    assert failed.value.outputs[0][0].score == pytest.approx(expected[0][0].score, abs=1e-4)


def test_a_users_mistake_stops_at_once_and_is_not_retried_sentence_by_sentence():
    model, tok = ending_model(), CharTokenizer()
    batches = []

    def mistaken(src, *args, **kwargs):
        batches.append(len(src))
        raise DataError("glossary.tsv:3: a term the vocabulary cannot write")

    model.encode = mistaken
    with pytest.raises(DataError, match="glossary.tsv:3"):
        translate(model, tok, ["a cat", "a dog"])
    assert batches == [2]


def test_translate_with_beam_size_one_is_greedy_search():
    model, tok = ending_model(), CharTokenizer()
    src = torch.tensor([tok.encode("a cat sat")])
    expected = tok.decode(greedy_search(model, src)[0])
    assert translate(model, tok, ["a cat sat"], Decoding(beam_size=1)) == [expected]


def test_translate_runs_in_eval_mode_and_restores_the_mode():
    torch.manual_seed(0)
    model, tok = EndingModel(tiny_config(dropout=0.5)).train(), CharTokenizer()
    first = translate(model, tok, ["a cat sat", "the dog"])
    assert translate(model, tok, ["a cat sat", "the dog"]) == first  # no dropout noise
    assert model.training


@pytest.mark.parametrize(("vocab", "k"), [(8000, 8), (8003, 8), (8003, 1), (300, 8), (10, 3)])
def test_row_top_k_equals_torch_topk(vocab, k):
    torch.manual_seed(vocab + k)
    scores = torch.randn(37, vocab)
    scores[0] = float("-inf")
    scores[0, 5] = 0.0  # a row where one token may come (a forced EOS)
    scores[1, -1] = 100.0  # the best of a row in its last, partial chunk
    values, indices = row_top_k(scores, k)
    expected = scores.topk(k, dim=1)
    torch.testing.assert_close(values, expected.values)
    finite = expected.values.isfinite()
    assert torch.equal(indices[finite], expected.indices[finite])


# B then EOS (0.22) finishes first; A C D EOS (0.405) needs two more steps.
LATE_WINNER = {(): {A: 0.6, B: 0.4}, (A,): {C: 0.75, EOS: 0.25}, (B,): {EOS: 0.55, D: 0.45},
               (A, C): {D: 0.9, EOS: 0.1}, (B, D): {EOS: 1.0}, (A, C, D): {EOS: 1.0}}


def test_early_stopping_ends_at_beam_size_finished_and_the_default_waits_for_the_winner():
    model = ScriptedModel(LATE_WINNER)
    [[early]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.0, early_stopping=True), use_cache=False)
    assert early.tokens == [B] and early.log_prob == pytest.approx(math.log(0.4 * 0.55))
    [[exact]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False)
    assert exact.tokens == [A, C, D] and exact.log_prob == pytest.approx(math.log(0.6 * 0.75 * 0.9))


# A EOS (0.72) finishes at step 2 and beats every active hypothesis (A C 0.18, B C 0.1).
EARLY_WINNER = {(): {A: 0.9, B: 0.1}, (A,): {EOS: 0.8, C: 0.2}, (B,): {C: 1.0}}


@pytest.mark.parametrize("n_best, steps", [(1, 2), (2, 3)])
def test_with_alpha_zero_search_stops_once_no_active_hypothesis_can_enter_the_n_best(
    monkeypatch, n_best, steps
):
    model = ScriptedModel(EARLY_WINNER)
    sizes = record_batch_sizes(model, monkeypatch)
    hypotheses = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.0, n_best=n_best), use_cache=False)
    assert len(sizes) == steps
    assert [h.tokens for h in hypotheses[0]] == [[A], [A, C]][:n_best]


def test_with_alpha_above_zero_search_waits_for_beam_size_finished(monkeypatch):
    model = ScriptedModel(EARLY_WINNER)
    sizes = record_batch_sizes(model, monkeypatch)
    hypotheses = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.6, n_best=1), use_cache=False)
    assert len(sizes) == 3  # A EOS alone is not enough: A C EOS and B C EOS finish too
    assert [h.tokens for h in hypotheses[0]] == [[A]]


def test_min_len_rules_out_eos_until_then():
    model = ScriptedModel({(): {EOS: 0.9, A: 0.1}, (A,): {EOS: 0.6, B: 0.4}})
    assert greedy_search(model, ONE_SOURCE, Decoding(min_len=0), use_cache=False) == [[]]
    assert greedy_search(model, ONE_SOURCE, Decoding(min_len=2), use_cache=False) == [[A, B]]
    [[best]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, min_len=2), use_cache=False)
    assert best.tokens == [A, B]


# The empty output (EOS first, 0.4) beats every translation (A B EOS 0.36, A C EOS 0.24).
EMPTY_WINS = {(): {A: 0.6, EOS: 0.4}, (A,): {B: 0.6, C: 0.4}}


def test_beam_search_gives_no_empty_output_by_default_though_it_scores_best():
    model = ScriptedModel(EMPTY_WINS)
    [[best]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False)
    assert best.tokens == [A, B] and best.log_prob == pytest.approx(math.log(0.6 * 0.6))
    [[empty]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.0, min_len=0), use_cache=False)
    assert empty.tokens == [] and empty.log_prob == pytest.approx(math.log(0.4))


def test_greedy_search_gives_no_empty_output_by_default():
    model = ScriptedModel({(): {EOS: 0.9, A: 0.1}})
    assert greedy_search(model, ONE_SOURCE, use_cache=False) == [[A]]


@pytest.mark.parametrize("old, new", [("source_batches", "padded_sources"), ("search_batches", "sentence_hypotheses"),
                                      ("search_batch", "run_search")])
def test_the_batch_helpers_earlier_names_still_import_with_a_warning(old, new):
    translate_module = importlib.import_module("attnmt.decoding.translate")
    with pytest.warns(DeprecationWarning, match=f"attnmt.decoding.translate.{old} is now {new}"):
        assert getattr(translate_module, old) is getattr(translate_module, new)


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("beam", [1, 4])
@pytest.mark.parametrize("use_cache", [True, False], ids=["cache", "no cache"])
def test_each_hypothesis_records_the_cross_attention_that_teacher_forcing_its_tokens_gives(kind, beam, use_cache):
    from attnmt.decoding.state import Recording
    from attnmt.decoding.teacher_forcing import written_attention

    model, src = MODELS[kind](), random_batch(11, [1, *LENGTHS])  # a one-token source too
    decoding = Decoding(beam_size=beam, n_best=beam)
    with torch.inference_mode():
        memory = model.encode(src)
    for layer, heads in ((-1, None), (0, (1, 3))):
        found = beam_search(model, src, decoding, use_cache=use_cache, record=Recording(layer, heads))
        assert token_lists(found) == token_lists(beam_search(model, src, decoding, use_cache=use_cache))
        for i, sentence in enumerate(found):
            for h in sentence:
                assert h.attention.shape == (len(h.tokens), src.size(1))
                if h.tokens:
                    forced = written_attention(model, src[i:i + 1], memory[i:i + 1], [h.tokens], layer, heads)[0]
                    torch.testing.assert_close(h.attention, forced, atol=1e-5, rtol=1e-4)
    assert all(h.attention is None for sentence in beam_search(model, src, decoding) for h in sentence)


# ---------------------------------------------------------------- pad and BOS: no probability mass


def test_every_reported_log_prob_leaves_pad_and_bos_out_of_the_softmax():
    """A model whose output layer gives pad and BOS most of each step's mass: beam search's
    log-probs, greedy search's (a teacher-forced pass), the quality's forced pass and the token
    probabilities of the alignment trace are all the softmax over the other tokens.  Counted in the
    softmax, as they were, every token lost p(pad) + p(BOS), here more than half its probability."""
    model = fond_of_pad(random_model(seed=3, output_bias=True))
    src = torch.tensor([[5, 9, 12, 7, EOS]])
    found = beam_search(model, src, Decoding(beam_size=3, max_len_a=0.0, max_len_b=6))[0][0]
    expected = masked_log_probs(model, src, found.tokens)
    with torch.no_grad():  # the plain softmax, pad and BOS in it: far below
        plain = model(src, torch.tensor([[BOS, *found.tokens]]))[0].log_softmax(dim=-1)
    assert (plain[:, [PAD, BOS]].exp().sum(dim=-1) > 0.5).all()
    torch.testing.assert_close(torch.tensor(found.token_log_probs), expected, atol=1e-5, rtol=0)
    assert found.log_prob == pytest.approx(expected.sum().item(), abs=1e-4)
    forced = forced_hypotheses(model, src, [found.tokens], alpha=0.0)[0][0]
    torch.testing.assert_close(torch.tensor(forced.token_log_probs), expected, atol=1e-5, rtol=0)
    ((_, passed),) = forced_passes(model, [src[0].tolist()], [found.tokens])
    torch.testing.assert_close(torch.tensor(passed.log_probs), expected, atol=1e-5, rtol=0)
    scored = score_pair(model, src[0].tolist(), found.tokens)
    torch.testing.assert_close(torch.tensor(scored.probs), expected.exp(), atol=1e-5, rtol=0)


def test_top_log_probs_normalise_without_the_tokens_outside():
    torch.manual_seed(0)
    logits = torch.randn(3, 50)
    logits[:, [PAD, BOS]] = 20.0  # nearly all the mass, and never chosen
    top, tokens, normaliser = NextTokens().top_log_probs(logits, 4, [PAD, BOS, EOS], [PAD, BOS])
    others = logits.index_fill(1, torch.tensor([PAD, BOS]), float("-inf"))
    torch.testing.assert_close(normaliser, others.logsumexp(dim=-1))
    expected = others.log_softmax(dim=-1).index_fill(1, torch.tensor([EOS]), float("-inf")).topk(4, dim=1)
    assert torch.equal(tokens, expected.indices)
    torch.testing.assert_close(top, expected.values)


@pytest.mark.parametrize("outside", [[PAD, BOS], []])
def test_top_log_probs_leave_the_callers_logits_as_they_were(outside):
    """top_log_probs bans in a copy of its own (one, where tokens are both outside and banned)."""
    torch.manual_seed(0)
    logits = torch.randn(3, 50)
    before = logits.clone()
    _, tokens, _ = NextTokens().top_log_probs(logits, 4, [EOS, 7], outside)
    assert torch.equal(logits, before)
    assert not set(tokens.flatten().tolist()) & {EOS, 7, *outside}
