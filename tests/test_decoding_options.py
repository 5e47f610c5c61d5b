"""The decoding options the other toolkits have: a target prefix, sampling, the repetition
penalties, disable_unk and min_len, each on a hand-made model with a known answer."""

import itertools
import math
import warnings

import numpy as np
import pytest
import torch
from support import EOS, CharTokenizer, ScriptedModel, ending_model

from attnmt.decoding import Decoding
from attnmt.decoding.next_tokens import Sampler
from attnmt.decoding.options import LEAST_REPETITION_PENALTY
from attnmt.decoding.penalties import repeated_penalised
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning, ConfigError

A, B, C, D = 4, 5, 6, 7
UNK = 1
ONE_SOURCE = torch.tensor([[A, B]])


def many(count: int) -> torch.Tensor:
    """``count`` source sentences, all different (a sentence's draws are its own: the same one
    twice draws the same), of 5 tokens A…9: one draw each."""
    return torch.tensor([[A + k // 6**d % 6 for d in range(5)] for k in range(count)])


# --- a prefix: the output starts with it ------------------------------------------------------

# Unconstrained, A + EOS wins; starting with B, B C + EOS (0.4 · 0.5) beats B + EOS (0.4 · 0.3).
PREFIXED = {(): {A: 0.6, B: 0.4}, (B,): {EOS: 0.3, C: 0.5, D: 0.2}, (B, D): {D: 0.5, EOS: 0.5}}


def test_a_prefix_starts_the_output_and_is_scored():
    model = ScriptedModel(PREFIXED)
    assert greedy_search(model, ONE_SOURCE, use_cache=False) == [[A]]
    assert greedy_search(model, ONE_SOURCE, use_cache=False, prefixes=[[B]]) == [[B, C]]
    [[best]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False, prefixes=[[B]])
    assert best.tokens == [B, C] and best.log_prob == pytest.approx(math.log(0.4 * 0.5))


def test_a_prefix_longer_than_the_length_limit_is_written_whole():
    decoding = Decoding(beam_size=2, max_len_a=0.0, max_len_b=1)
    [[best]] = beam_search(ScriptedModel(PREFIXED), ONE_SOURCE, decoding, use_cache=False, prefixes=[[B, D, D]])
    assert best.tokens == [B, D, D] and best.log_prob == pytest.approx(math.log(0.4 * 0.2 * 0.5))


def test_a_prefix_gets_its_tokens_on_top_of_the_length_limit():
    # A limit of 1 left B + EOS (0.4 · 0.3); with B's token on top, B C + EOS (0.4 · 0.5 · 1) fits.
    decoding = Decoding(beam_size=2, alpha=0.0, max_len_a=0.0, max_len_b=1)
    [[best]] = beam_search(ScriptedModel(PREFIXED), ONE_SOURCE, decoding, use_cache=False, prefixes=[[B]])
    assert best.tokens == [B, C] and best.log_prob == pytest.approx(math.log(0.4 * 0.5))


@pytest.mark.parametrize("min_len", [0, 1, 5])
def test_an_n_best_list_at_a_limit_the_prefix_fills_holds_the_prefix_alone(min_len):
    """Forcing B D, the beam holds one finite hypothesis; the rows at -inf that filled it used to
    come back as ranks 2 and 3, not starting with the prefix, and one of them twice."""
    decoding = Decoding(beam_size=3, n_best=3, max_len_a=0.0, max_len_b=0, min_len=min_len)
    [found] = beam_search(ScriptedModel(PREFIXED), ONE_SOURCE, decoding, use_cache=False, prefixes=[[B, D]])
    assert [h.tokens for h in found] == [[B, D]]
    assert found[0].log_prob == pytest.approx(math.log(0.4 * 0.2 * 0.5))


class TargetChars(CharTokenizer):
    """CharTokenizer's ids on the target side too, as a prefix is written."""

    def encode_target(self, text: str) -> list[int]:
        return self.encode(text)


def test_a_prefix_that_fills_the_models_positions_is_cut_there_with_one_warning():
    """It was cut in silence, where a glossary term that cannot fit gets a warning naming it."""
    model = ending_model()
    longest = model.config.longest_input  # 62 pieces; the prefix's "a" is one piece a letter
    with pytest.warns(AttnmtWarning) as caught:
        texts = translate(model, TargetChars(), ["a cat", "a dog"], prefix="a" * 70)
    assert texts == ["a" * longest] * 2
    [warning] = caught  # one for the prefix, not one a sentence
    assert str(warning.message) == (f"prefix {'a' * 40 + '…'!r} (70 pieces) leaves no room in a translation of at "
                                    f"most {longest} pieces (the model's positions): the translation is the "
                                    f"prefix's first {longest} pieces alone; shorten the prefix")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert translate(model, TargetChars(), ["a cat"], prefix="a" * (longest - 1))[0].startswith("a" * 61)


@pytest.mark.parametrize("prefix", [[B, C, C], [B, B], [A, A, A]])
def test_every_hypothesis_starts_with_a_prefix_the_model_rules_out(prefix):
    """After a prefix token the model gives no probability every hypothesis is at -inf, its own
    and the beam's filling rows alike; each still starts with the prefix, and none comes twice."""
    [found] = beam_search(ScriptedModel(PREFIXED), ONE_SOURCE, Decoding(beam_size=3, n_best=3), use_cache=False,
                          prefixes=[prefix])
    assert found and all(h.tokens[: len(prefix)] == prefix and h.log_prob == -math.inf for h in found)
    assert len({tuple(h.tokens) for h in found}) == len(found)


def test_the_n_gram_ban_never_rules_out_a_prefixs_own_piece():
    """The prefix C C repeats C, which no_repeat_ngram_size 1 bans: every hypothesis was at -inf,
    the rest of the translation chosen among them as if at random."""
    table = {(): {C: 0.6, A: 0.4}, (C,): {C: 0.5, EOS: 0.5}, (C, C): {EOS: 0.7, C: 0.3}}
    decoding = Decoding(beam_size=2, alpha=0.0, no_repeat_ngram_size=1)
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, prefixes=[[C, C]])
    # after the prefix the model's own C is banned: EOS, at 0.7 of what is left, gets it all
    assert best.tokens == [C, C] and best.log_prob == pytest.approx(math.log(0.6 * 0.5))


# --- sampling -----------------------------------------------------------------------------------

COIN = {(): {A: 0.6, B: 0.3, C: 0.1}}


def drawn(decoding: Decoding, count: int = 4000) -> list[int]:
    return [ids[0] for ids in greedy_search(ScriptedModel(COIN), many(count), decoding, use_cache=False)]


def test_sampling_draws_tokens_as_often_as_the_model_gives_them():
    tokens = drawn(Decoding(beam_size=1, sampling_topk=0, seed=1))
    assert tokens.count(A) / len(tokens) == pytest.approx(0.6, abs=0.04)
    assert tokens.count(C) / len(tokens) == pytest.approx(0.1, abs=0.03)


def test_top_k_and_top_p_cut_the_unlikely_tokens():
    assert set(drawn(Decoding(beam_size=1, sampling_topk=2, seed=1))) == {A, B}
    assert set(drawn(Decoding(beam_size=1, sampling_topk=0, sampling_topp=0.5, seed=1))) == {A}
    assert set(drawn(Decoding(beam_size=1, sampling_topk=0, sampling_topp=0.8, seed=1))) == {A, B}


def test_temperature_flattens_the_distribution():
    # softmax(log p / 2) ∝ √p: A gets √.6 / (√.6 + √.3 + √.1) = 0.47
    tokens = drawn(Decoding(beam_size=1, sampling_topk=0, sampling_temperature=2.0, seed=1))
    assert tokens.count(A) / len(tokens) == pytest.approx(0.47, abs=0.04)


# Tiny values the options allow, past what float32 holds: 1e-40 and 1e-100 overflowed the logits
# or were 0 in float32 (translations of "⁇" and ""), where their limit is greedy search's token.
@pytest.mark.parametrize("options", [dict(sampling_temperature=1e-40), dict(sampling_temperature=1e-100),
                                     dict(sampling_topp=1e-100)])
def test_a_tiny_temperature_or_nucleus_draws_the_most_likely_token(options):
    assert set(drawn(Decoding(beam_size=1, **({"sampling_topk": 0} | options), seed=1), 200)) == {A}


def test_a_temperature_past_what_float32_holds_is_refused_and_the_largest_draws_evenly():
    """The sampler divides float32 logits by the temperature: 1e39 was inf there, a banned token's
    -inf / inf NaN, and the padding token was drawn at every step (empty translations)."""
    largest = torch.finfo(torch.float32).max
    assert set(drawn(Decoding(beam_size=1, sampling_topk=0, sampling_temperature=largest, seed=1), 200)) == {A, B, C}
    with pytest.raises(ConfigError, match=r"^decoding option sampling_temperature: expected more than 0 and at most "
                                          r"3.403e\+38 \(float32's largest number\), got 1e\+39$"):
        Decoding(beam_size=1, sampling_topk=0, sampling_temperature=1e39, seed=1)


def test_a_tiny_temperature_draws_the_most_likely_token_that_is_not_banned():
    """Before min_len EOS, the model's favourite, is banned: the next most likely is drawn."""
    model = ScriptedModel({(): {EOS: 0.7, B: 0.2, C: 0.1}})
    decoding = Decoding(beam_size=1, sampling_topk=0, sampling_temperature=1e-100, min_len=1, seed=1)
    assert {tuple(tokens) for tokens in greedy_search(model, many(50), decoding, use_cache=False)} == {(B,)}


def test_a_tiny_temperature_does_not_tie_large_logits_at_infinity():
    """Logits 1, 2 and 3 over 1e-40 all overflowed float32 to +inf, the first of them drawn."""
    sampler = Sampler(Decoding(beam_size=1, sampling_topk=0, sampling_temperature=1e-40, seed=1), many(200), 0)
    logits = torch.tensor([[1.0, 2.0, 3.0, -1.0]]).expand(200, -1)
    assert set(sampler.draw(logits, [], range(200)).tolist()) == {2}


def test_the_same_seed_gives_the_same_draws_and_another_seed_others():
    first = drawn(Decoding(beam_size=1, sampling_topk=0, seed=7), 200)
    assert drawn(Decoding(beam_size=1, sampling_topk=0, seed=7), 200) == first
    assert drawn(Decoding(beam_size=1, sampling_topk=0, seed=8), 200) != first


def test_a_sentence_given_several_times_with_no_seed_gets_several_samples():
    """With no seed every row draws from a stream of its own: keyed on the source (as a seed's
    streams are), copies of one sentence in one call all got the same sample."""
    same = torch.tensor([[A, B]] * 200)  # each token is drawn at least once but for odds of 1e-9
    tokens = [ids[0] for ids in greedy_search(ScriptedModel(COIN), same, Decoding(beam_size=1, sampling_topk=0),
                                             use_cache=False)]
    assert set(tokens) == {A, B, C}


# Every step a coin of four sides, EOS one of them: outputs of 0 to 6 tokens, rows ending at every step.
COINS = {prefix: {A: 0.3, B: 0.3, C: 0.15, EOS: 0.25}
         for n in range(6) for prefix in itertools.product((A, B, C), repeat=n)}
SEEDED = [Decoding(beam_size=1, sampling_topk=0, seed=7), Decoding(beam_size=1, sampling_topk=3, seed=7),
          Decoding(beam_size=1, sampling_topk=0, sampling_topp=0.7, sampling_temperature=1.5, seed=7)]


@pytest.mark.parametrize("decoding", SEEDED, ids=["all", "top-k", "top-p"])
def test_a_seeded_sentence_draws_the_same_alone_in_any_batch_and_at_any_place(decoding):
    """One generator for the batch gave a sentence another sample with each batch size, each
    sentence beside it and each row that ended before it (--batch-size changed the output)."""
    model, src = ScriptedModel(COINS), many(12)
    together = greedy_search(model, src, decoding, use_cache=False)
    assert len({len(tokens) for tokens in together}) > 2  # sentences end at different steps
    assert [greedy_search(model, src[k:k + 1], decoding, use_cache=False)[0] for k in range(12)] == together
    assert greedy_search(model, src.flip(0), decoding, use_cache=False) == together[::-1]
    assert greedy_search(model, src[5:], decoding, use_cache=False) == together[5:]


@pytest.mark.parametrize("max_sentences", [1, 3])
def test_a_seeded_translation_does_not_change_with_the_batch_size(max_sentences):
    model, tokenizer = ending_model(), CharTokenizer()
    sentences = ["a dog runs", "two cats sleep on a mat", "the man sits", "a boy jumps", "she reads a long book"]
    decoding = Decoding(beam_size=1, sampling_topk=0, seed=7)
    assert (translate(model, tokenizer, sentences, decoding, max_sentences=max_sentences)
            == translate(model, tokenizer, sentences, decoding, max_sentences=0))


def test_a_sentence_padded_in_a_batch_draws_as_it_does_alone():
    """A sentence's stream is seeded from its source ids without the padding."""
    src = torch.tensor([[A, B, 0, 0], [C, D, A, B]])
    decoding = SEEDED[0]
    alone = greedy_search(ScriptedModel(COINS), src[:1, :2], decoding, use_cache=False)
    assert greedy_search(ScriptedModel(COINS), src, decoding, use_cache=False)[0] == alone[0]


@pytest.mark.parametrize(("options", "message"), [
    (dict(sampling_topk=0), "sampling draws one translation per sentence: set beam_size 1"),
    (dict(sampling_topk=0, n_best=2), "^sampling draws one translation per sentence, so n_best 2 has no list to "
                                      "return: leave out n_best or sampling$"),
    (dict(sampling_topk=5, n_best=9), "so n_best 9 has no list"),
    (dict(beam_size=1, sampling_topp=0.9), "option sampling_topp only applies when sampling"),
    (dict(beam_size=1, seed=7), "option seed only applies when sampling"),
    (dict(sampling_temperature=2.0, seed=7), "options sampling_temperature and seed only apply when sampling"),
    (dict(beam_size=1, sampling_topk=0, sampling_temperature=0.0), "sampling_temperature: expected more than 0"),
])
def test_sampling_options_that_cannot_work_are_refused_in_one_line(options, message):
    with pytest.raises(ConfigError, match=message):
        Decoding(**options)


def test_a_length_penalty_past_what_a_float_holds_is_refused_in_one_line():
    """α 1000 made ((5 + |Y|) / 6)^α overflow inside the search: every line failed, one by one."""
    with pytest.raises(ConfigError, match=r"^decoding option alpha: expected 0 to 10, got 1000"):
        Decoding(alpha=1000)
    assert Decoding(alpha=10).alpha == 10


def test_numbers_of_numpys_types_are_taken_as_the_python_numbers_they_are():
    decoding = Decoding(beam_size=np.int64(1), alpha=np.float32(0.5), sampling_topk=np.int32(0), seed=np.uint64(7),
                        disable_unk=np.True_, early_stopping=np.False_)
    assert decoding == Decoding(beam_size=1, alpha=0.5, sampling_topk=0, seed=7, disable_unk=True)
    assert decoding.early_stopping is False
    assert [type(decoding.beam_size), type(decoding.alpha), type(decoding.seed)] == [int, float, int]
    assert decoding.disable_unk is True


@pytest.mark.parametrize(("options", "message"), [
    (dict(beam_size=True), r"^decoding option beam_size: expected a whole number, got True$"),
    (dict(beam_size=2.5), r"^decoding option beam_size: expected a whole number, got 2.5$"),
    (dict(alpha="0.6"), r"^decoding option alpha: expected a finite number, got '0.6'$"),
    (dict(alpha=np.float64("nan")), r"^decoding option alpha: expected a finite number, got "),
    (dict(disable_unk=1), r"^decoding option disable_unk: expected true or false, got 1$"),
    (dict(early_stopping="false"), r"^decoding option early_stopping: expected true or false, got 'false'$"),
    (dict(beam_size=1, sampling_topk=0, seed=-1), r"^decoding option seed: expected a whole number from 0 "),
])
def test_an_option_that_is_no_number_of_its_kind_is_refused_in_one_line(options, message):
    with pytest.raises(ConfigError, match=message):
        Decoding(**options)


def test_an_n_best_under_1_is_refused_as_such_not_as_too_small_a_beam():
    """n_best 0 said "needs beam_size 0 or more (got beam_size 4)", which a beam of 4 is."""
    with pytest.raises(ConfigError, match=r"^decoding option n_best: expected 1 or more, got 0$"):
        Decoding(n_best=0)
    with pytest.raises(ConfigError, match=r"^decoding option n_best 5 needs beam_size 5 or more \(got beam_size 4\)$"):
        Decoding(n_best=5)


# --- penalties, disable_unk, min_len ------------------------------------------------------------

# After A, A is most likely again (0.5); C follows at 0.3.
REPEATS = {(): {A: 0.7, B: 0.3}, (A,): {A: 0.5, C: 0.3, EOS: 0.2}, (A, A): {EOS: 1.0}, (A, C): {EOS: 1.0}}


def test_a_repetition_penalty_makes_a_repeated_token_less_likely():
    model = ScriptedModel(REPEATS)
    assert greedy_search(model, ONE_SOURCE, use_cache=False) == [[A, A]]
    # A's logit log 0.5 = -0.69 becomes -1.39 at penalty 2, below C's log 0.3 = -1.20
    assert greedy_search(model, ONE_SOURCE, Decoding(repetition_penalty=2.0), use_cache=False) == [[A, C]]
    assert greedy_search(model, ONE_SOURCE, Decoding(repetition_penalty=1.5), use_cache=False) == [[A, A]]


@pytest.mark.parametrize("penalty", [1e-37, 1e-300, 0.0])
def test_a_repetition_penalty_a_float32_logit_divided_by_would_overflow_is_refused(penalty):
    """A logit of 40 divided by 1e-37 is past float32's largest number: the logits held inf, the
    softmax NaN, and the readable and prepared models wrote different garbage."""
    with pytest.raises(ConfigError, match=r"^decoding option repetition_penalty: expected at least 1e-30 \(a logit "
                                          r"divided by less overflows float32\), got "):
        Decoding(repetition_penalty=penalty)
    assert Decoding(repetition_penalty=LEAST_REPETITION_PENALTY).repetition_penalty == 1e-30
    logits = torch.tensor([[40.0, -3.0, 1.0]])
    changed = repeated_penalised(logits, torch.tensor([[0, 1]]), LEAST_REPETITION_PENALTY)
    assert torch.isfinite(changed).all() and changed[0, 0] == pytest.approx(4e31, rel=1e-6)


def test_no_repeat_ngram_size_rules_out_an_ngram_the_output_holds():
    table = {(): {A: 1.0}, (A,): {B: 1.0}, (A, B): {A: 0.9, C: 0.1}, (A, B, A): {B: 0.9, D: 0.1}}
    model = ScriptedModel(table)
    assert greedy_search(model, ONE_SOURCE, use_cache=False) == [[A, B, A, B]]
    assert greedy_search(model, ONE_SOURCE, Decoding(no_repeat_ngram_size=2), use_cache=False) == [[A, B, A, D]]
    assert greedy_search(model, ONE_SOURCE, Decoding(no_repeat_ngram_size=1), use_cache=False) == [[A, B, C]]


def test_disable_unk_never_generates_the_unknown_piece():
    model = ScriptedModel({(): {UNK: 0.6, A: 0.4}})
    assert greedy_search(model, ONE_SOURCE, use_cache=False) == [[UNK]]
    assert greedy_search(model, ONE_SOURCE, Decoding(disable_unk=True), use_cache=False) == [[A]]
    [[best]] = beam_search(model, ONE_SOURCE, Decoding(beam_size=2, disable_unk=True), use_cache=False)
    assert best.tokens == [A]


def test_min_len_rules_out_eos_before_that_many_tokens():
    model = ScriptedModel({(): {A: 1.0}, (A,): {EOS: 0.9, B: 0.1}})
    assert greedy_search(model, ONE_SOURCE, Decoding(min_len=2), use_cache=False) == [[A, B]]
