"""How quality reads a translation's end (attnmt.decoding.quality_ending): where neither side ends with a final
mark, the end counts the model's probability of ending there or after a full stop."""

import math
from collections import Counter

import pytest
import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.forced import ForcedPass, forced_passes
from attnmt.decoding.quality import Assessor, assess
from attnmt.decoding.quality_ending import STOP, open_ended, stop_ending
from attnmt.decoding.quality_measures import ends_sentence
from attnmt.decoding.translate import translate_n_best


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def test_the_end_is_ending_there_or_after_a_full_stop():
    """P(EOS) 0.01 after the last word, P(STOP) 0.5 there and P(EOS) 0.9 after it: 0.01 + 0.5 * 0.9 = 0.46."""
    cross = torch.zeros(2, 3)
    plain = ForcedPass([4, 5, 2], [7, 8], [math.log(0.6), math.log(0.7), math.log(0.01)], cross)
    stopped = ForcedPass([4, 5, 2], [7, 8, 9], [math.log(0.6), math.log(0.7), math.log(0.5), math.log(0.9)], cross)
    read = stop_ending(plain, stopped)
    assert read.log_probs == pytest.approx([math.log(0.6), math.log(0.7), math.log(0.46)])
    assert read.target == [7, 8] and read.cross is cross


def test_an_end_read_with_a_full_stop_is_never_more_likely_than_certain():
    plain = ForcedPass([4, 2], [7], [0.0, 0.0], torch.zeros(1, 2))  # a search's own log-probs: P(EOS) = 1
    assert stop_ending(plain, ForcedPass([4, 2], [7, 9], [0.0, math.log(0.3), 0.0], torch.zeros(2, 2))).log_probs \
        == [0.0, 0.0]


@pytest.mark.parametrize(("source", "translation", "open"), [
    ("A man sleeping in a green room", "Ein Mann schläft in einem grünen Raum", True),
    ("A man sleeping in a green room.", "Ein Mann schläft in einem grünen Raum", False),  # the stop lost
    ("A man sleeping in a green room", "Ein Mann schläft in einem grünen Raum.", False),
    ("Is the man asleep?", "Schläft der Mann?", False),
    ('He asked: "Why?"', "Er fragte: „Warum?“", False),  # the mark inside the quotation ends it
    ("A dog", "...", False),  # no word to end
])
def test_a_pair_is_open_ended_where_neither_side_ends_with_a_final_mark(source, translation, open):
    assert open_ended(source, translation) is open


@pytest.mark.parametrize(("text", "ends"), [
    ("Ein Hund rennt.", True), ("Wer ist da?", True), ("Lauf!", True), ("他来了。", True), ("Τι κάνεις;", True),
    ("Set the value;", False), ("Ein Hund rennt", False), ("(see below)", False), ("»Halt!«", True),
])
def test_a_sentence_ends_with_a_final_mark_of_its_script(text, ends):
    assert ends_sentence(text) is ends


def test_assess_reads_an_open_ended_translations_end_with_a_full_stop_after_it(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    source, translation = "a dog runs", "ein hund rennt"
    source_ids, ids, stopped = (tokenizer.encode(source), tokenizer.encode_target(translation),
                                tokenizer.encode_target(translation + STOP))
    (_, plain), (_, with_stop) = forced_passes(model, [source_ids, source_ids], [ids, stopped])
    expected = math.log(math.exp(plain.log_probs[-1]) + math.exp(sum(with_stop.log_probs[len(ids):])))
    [found] = assess(model, tokenizer, [source], [translation])
    assert found.features.eos_log_prob == pytest.approx(expected, abs=1e-9)
    assert found.features.eos_log_prob > plain.log_probs[-1]


def test_assess_reads_the_end_as_it_is_where_the_source_ends_with_a_full_stop(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    [(_, plain)] = forced_passes(model, [tokenizer.encode("a dog runs.")], [tokenizer.encode_target("ein hund rennt")])
    [found] = assess(model, tokenizer, ["a dog runs."], ["ein hund rennt"])
    assert found.features.eos_log_prob == pytest.approx(plain.log_probs[-1], abs=1e-9)


def test_the_searchs_open_ended_translations_are_read_with_a_full_stop_against_its_encoder_output(
        model_and_tokenizer, monkeypatch):
    """translate encoded each batch holding one a second time, for the pass with STOP after the translation."""
    model, tokenizer = model_and_tokenizer
    sources = ["a dog runs", "two cats run", "the girl laughs"]  # no final mark, nor in their translations
    encoded, encode = [], model.encode
    monkeypatch.setattr(model, "encode", lambda src, *rest: encoded.extend(src.tolist()) or encode(src, *rest))
    found = translate_n_best(model, tokenizer, sources, quality=Assessor())
    pad = model.config.pad_id
    rows = Counter(tuple(i for i in row if i != pad) for row in encoded)
    assert rows == Counter(tuple(tokenizer.encode(s)) for s in sources)  # each source once: the search's
    monkeypatch.undo()
    again = assess(model, tokenizer, sources, [hs[0].text for hs in found])
    assert all(not ends_sentence(hs[0].text) for hs in found)
    for hypotheses, a in zip(found, again, strict=True):
        assert hypotheses[0].assessment.features.eos_log_prob == pytest.approx(a.features.eos_log_prob, abs=1e-6)
        assert hypotheses[0].quality == pytest.approx(a.quality, abs=1e-6)
