"""A phrase the source does not say, added within a translation (attnmt.decoding.quality_within): words the model
did not expect, reading source words the others translate, that the source makes no likelier than no source."""

import re
from dataclasses import replace

import pytest
import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import quality_within
from attnmt.decoding.forced import ForcedPass, WithoutSource, forced_passes
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_added import word_pieces
from attnmt.decoding.quality_features import features_of
from attnmt.decoding.quality_measures import source_end
from attnmt.decoding.quality_within import (
    SHORT_LEFT_OUT,
    SHORT_UNSUPPORTED,
    WITHIN_UNLIKELY,
    short_runs,
    translation_words,
    with_source_unread,
    within_runs,
)

WORD = re.compile(r"\w+|[^\w\s]")  # a word or a mark: the stand-in pass's pieces
SOURCE = "A man in a red hat rides a bike ."
TEXT = "Ein Mann mit rotem Hut fährt gestern in Berlin Fahrrad."  # "gestern in Berlin": the 7th to 9th word
READS = [0, 1, 2, 4, 5, 6, None, None, None, 8, 9]  # the source piece each translation piece translates
RUN = range(6, 9)
UNLIKELY = WITHIN_UNLIKELY - 2


def spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in WORD.finditer(text)]


def features(run_reads: list[int], log_probs: list[float], unconditioned: list[float] | None):
    """The Features of TEXT for SOURCE from a stand-in pass: each piece reads its word of READS, the run's pieces
    ``run_reads``, half each; its unlikely runs read with no source give ``unconditioned`` (None: not read), as
    with_source_unread reads them."""
    source_pieces = [*SOURCE.split(), "</s>"]
    cross = torch.zeros(len(READS), len(source_pieces))  # [T, S]
    for k, read in enumerate(READS):
        for s in ([read] if read is not None else run_reads):
            cross[k, s] = 1.0 if read is not None else 1.0 / len(run_reads)
    forced = ForcedPass(list(range(3, 3 + len(source_pieces))), list(range(3, 3 + len(READS))), log_probs, cross)
    runs = within_runs(translation_words(forced.log_probs, TEXT, spans(TEXT)), forced.cross, source_end(source_pieces))
    if runs and unconditioned is not None:
        forced = replace(forced, without_source=WithoutSource(runs, unconditioned))
    return features_of(forced, SOURCE.replace(" .", "."), TEXT, source_pieces, 0,
                       target_pieces=[TEXT[b:e] for b, e in spans(TEXT)], target_spans=spans(TEXT))


def log_probs_with(run: float, elsewhere: float = -0.1) -> list[float]:
    """Each piece's log-prob (and EOS's): ``run`` for the run's pieces, ``elsewhere`` for the others."""
    return [run if k in RUN else elsewhere for k in range(len(READS))] + [-0.1]


def test_a_run_the_source_makes_no_likelier_than_no_source_is_added():
    """'gestern in Berlin' reads 'man' and 'rides', which 'Mann' and 'fährt' translate, and the model gives it less
    with the source than with none.  A right phrase the model would have put otherwise is as unlikely, but likelier
    with its source than with none; and one as likely with its source as with none is given the benefit of the
    doubt."""
    assert features([1, 6], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY + 1)).added
    assert not features([1, 6], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY - 3)).added
    assert not features([1, 6], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY)).added


def test_a_run_that_reads_source_words_no_other_word_reads_is_no_addition():
    """Reading 'a' and 'a', which nothing else in the translation reads, it translates them; reading 'man' and
    'a', half its attention goes to what the others read, under WITHIN_READ_ELSEWHERE."""
    assert features([1, 6], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY + 1)).added
    assert not features([3, 7], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY + 1)).added
    assert not features([1, 7], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY + 1)).added


def test_a_run_no_less_likely_than_the_rest_of_its_translation_is_no_addition():
    """A translation the model finds unlikely throughout (an idiom it never learnt) has no run it expected less."""
    assert features([1, 6], log_probs_with(UNLIKELY, -1.0), log_probs_with(UNLIKELY + 1)).added
    assert not features([1, 6], log_probs_with(UNLIKELY, UNLIKELY + 1), log_probs_with(UNLIKELY + 1)).added


def test_a_run_whose_pass_without_the_source_was_not_read_is_no_addition():
    assert features([1, 6], log_probs_with(UNLIKELY), log_probs_with(UNLIKELY + 1)).added
    assert not features([1, 6], log_probs_with(UNLIKELY), None).added


ONE_SOURCE = "A man rides a bike ."
ONE_TEXT = "Ein großer Mann fährt Fahrrad."  # "großer" (piece 1) is added
ONE_READS = [0, 1, 1, 2, 4, 5]  # the source piece each translation piece reads


def one_word_added(unsupported_by: float, left_out: dict[tuple[int, ...], float] | None):
    """Whether ONE_TEXT is flagged added from a stand-in pass: "großer" at UNLIKELY, the other pieces at -0.1, and
    with no source "großer" ``unsupported_by`` likelier (the others as likely); ``left_out``: the pass's gains."""
    source_pieces = [*ONE_SOURCE.split(), "</s>"]
    cross = torch.zeros(len(ONE_READS), len(source_pieces))  # [T, S]
    for k, read in enumerate(ONE_READS):
        cross[k, read] = 1.0
    log_probs = [UNLIKELY if k == 1 else -0.1 for k in range(len(ONE_READS) + 1)]
    unconditioned = [lp - unsupported_by if k == 1 else lp for k, lp in enumerate(log_probs)]
    forced = ForcedPass(list(range(3, 3 + len(source_pieces))), list(range(3, 3 + len(ONE_READS))), log_probs, cross)
    short = short_runs(translation_words(log_probs, ONE_TEXT, spans(ONE_TEXT)))
    if left_out is not None:
        forced = replace(forced, without_source=WithoutSource([], unconditioned, short, left_out))
    return features_of(forced, ONE_SOURCE.replace(" .", "."), ONE_TEXT, source_pieces, 0,
                       target_pieces=[ONE_TEXT[b:e] for b, e in spans(ONE_TEXT)], target_spans=spans(ONE_TEXT)).added


def test_a_word_its_source_makes_unlikely_and_no_other_word_needs_is_added():
    """'großer' in 'Ein großer Mann fährt Fahrrad.' for 'A man rides a bike.': the model gives it far less with the
    source than with none, and with it left out, 'Ein Mann fährt Fahrrad.', the other words lose nothing."""
    assert one_word_added(SHORT_UNSUPPORTED - 0.5, {(1,): SHORT_LEFT_OUT + 0.2})


def test_a_word_the_other_words_need_is_no_addition():
    """The first word of a phrase moved ('Im' in 'Im Park liest eine Frau ein Buch.') is as unlikely and
    unsupported, but left out, the words after it ('Park liest ...') lose much."""
    assert not one_word_added(SHORT_UNSUPPORTED - 0.5, {(1,): SHORT_LEFT_OUT - 2.0})


def test_a_word_its_source_makes_only_a_little_less_likely_is_no_addition():
    """A right word the model would have put otherwise ('schwarzer' for 'black', where it expected 'dunkler') is
    not much less likely with its source than with none."""
    assert not one_word_added(SHORT_UNSUPPORTED + 1.0, {(1,): SHORT_LEFT_OUT + 0.2})


def test_a_word_whose_pass_without_it_was_not_read_is_no_addition():
    assert not one_word_added(SHORT_UNSUPPORTED - 0.5, None)
    assert not one_word_added(SHORT_UNSUPPORTED - 0.5, {})


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def test_only_a_translation_with_an_unlikely_run_is_read_again_with_no_source(model_and_tokenizer):
    """The run's log-probs with no source are a forced pass's over a source of </s> alone; a translation of three
    words, which has no run within, is not read again."""
    model, tokenizer = model_and_tokenizer
    source, short, translation = "a dog runs", "ein hund rennt", "ein hund rennt ein hund rennt schnell"
    ids = tokenizer.encode_target(translation)
    passes = dict(forced_passes(model, [tokenizer.encode(source)] * 2, [tokenizer.encode_target(short), ids]))
    plain, long = passes[0], passes[1]
    run = [k for k, (begin, _) in enumerate(tokenizer.target_spans(translation)) if 14 <= begin < 29]
    unlikely = ForcedPass(long.source, long.target, [UNLIKELY if k in run else -0.1 for k in range(len(ids) + 1)],
                          torch.zeros(len(ids), len(long.source)).index_fill_(1, torch.tensor([0]), 1.0))
    found = with_source_unread(model, tokenizer, {0: plain, 1: unlikely}, [source] * 2, [short, translation], 4096)
    [(_, alone)] = forced_passes(model, [[model.config.eos_id]], [ids])
    assert found[0].without_source is None
    assert found[1].without_source.log_probs == pytest.approx(alone.log_probs, abs=1e-6)
    assert run in [sum(words, []) for words in found[1].without_source.runs]  # the run read again, with others


def test_the_runs_within_are_found_once_a_translation(model_and_tokenizer, monkeypatch):
    """The runs chosen for the pass without a source are those the added rule reads: found once, where the rule
    found them a second time for each translation read again."""
    model, tokenizer = model_and_tokenizer
    calls = []

    def one_run(words, cross, words_end):
        calls.append(len(words.pieces))
        return [[[1], [2], [3]]]

    monkeypatch.setattr(quality_within, "within_runs", one_run)
    translations = ["ein hund rennt schnell über die wiese", "eine frau liest ein buch im park"]
    assess(model, tokenizer, ["a dog runs fast over the meadow", "a woman reads a book in the park"], translations)
    assert sorted(calls) == [7, 7]  # each translation's words, once


def test_a_translation_is_cut_into_words_once_for_both_kinds_of_run(model_and_tokenizer, monkeypatch):
    """The runs within and the short runs are read from one cutting of each translation into words and one sum of
    each word's log-probs: within_runs and short_runs each cut it again."""
    model, tokenizer = model_and_tokenizer
    cut_texts = []

    def counted(translation, spans):
        cut_texts.append(translation)
        return word_pieces(translation, spans)

    monkeypatch.setattr(quality_within, "word_pieces", counted)
    translations = ["ein hund rennt schnell über die wiese", "eine frau liest ein buch im park"]
    assess(model, tokenizer, ["a dog runs fast over the meadow", "a woman reads a book in the park"], translations)
    assert sorted(cut_texts) == sorted(translations)


def test_a_short_run_its_source_makes_unlikely_is_read_again_without_it(model_and_tokenizer):
    """Its gain: the log-probs of the other pieces and the end in a forced pass over the translation without the
    run's pieces, less what they had with it; "schnell", unlikely in the stand-in pass, is such a run, and so are
    "hund schnell" (two words averaging as little); a translation with no unlikely run is read neither way."""
    model, tokenizer = model_and_tokenizer
    source, short, translation = "a dog runs", "ein hund rennt", "ein hund schnell rennt"
    ids = tokenizer.encode_target(translation)
    passes = dict(forced_passes(model, [tokenizer.encode(source)] * 2, [tokenizer.encode_target(short), ids]))
    plain, long = passes[0], passes[1]
    words = word_pieces(translation, tokenizer.target_spans(translation))
    run = tuple(words[2])  # "schnell"
    log_probs = [10 * UNLIKELY if k in run else -0.1 for k in range(len(ids) + 1)]
    unlikely = ForcedPass(long.source, long.target, log_probs, long.cross)
    found = with_source_unread(model, tokenizer, {0: plain, 1: unlikely}, [source] * 2, [short, translation], 4096)
    [(_, without)] = forced_passes(model, [long.source], [[p for k, p in enumerate(ids) if k not in run]])
    kept = sum(lp for k, lp in enumerate(log_probs) if k not in run)
    assert found[0].without_source is None
    assert set(found[1].without_source.left_out) == {run, (*words[1], *run)}
    assert found[1].without_source.left_out[run] == pytest.approx(sum(without.log_probs) - kept, abs=1e-4)
