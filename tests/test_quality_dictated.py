"""Quality where the search was made to write words (attnmt.decoding.dictated): a prefix's and a glossary's
target terms are the user's words, which neither lower the quality nor count as copied."""

import math
import re
from statistics import mean

import pytest
import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.dictated import NOTHING, Dictated, by_glossary, dictated_pieces
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.forced import ForcedPass
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.quality import Assessment, Assessor, assess
from attnmt.decoding.quality_features import counted_log_probs, features_of
from attnmt.decoding.quality_joined import joined, read_whole
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.teacher_forcing import score_pair
from attnmt.decoding.translate import translate_n_best


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def test_a_forced_piece_counts_as_at_least_the_mean_of_the_chosen_ones():
    # The chosen pieces and EOS: -0.1, -0.3, -0.2, mean -0.2; the forced -5.0 counts as -0.2.
    assert counted_log_probs([-0.1, -5.0, -0.3, -0.2], [False, True, False]) == pytest.approx([-0.1, -0.2, -0.3, -0.2])
    # One the model would have written anyway counts as it is.
    assert counted_log_probs([-0.1, -0.05, -0.3, -0.2], [False, True, False]) == [-0.1, -0.05, -0.3, -0.2]
    assert counted_log_probs([-0.1, -5.0, -0.3], []) == [-0.1, -5.0, -0.3]


def test_the_prefix_is_dictated_at_the_start_and_a_term_wherever_it_stands():
    text = "Ein Mann in New York City, nicht in New York City."
    assert Dictated("Ein Mann", ("New York City",)).spans(text) == [(0, 8), (12, 25), (36, 49)]
    assert Dictated("Mann").spans(text) == []
    assert not Dictated() and Dictated(terms=("x",))


def test_a_piece_is_dictated_where_it_stands_inside_a_dictated_span():
    text = "Ein New Yorker"
    pieces = [(0, 3), (3, 7), (7, 10), (10, 14)]  # "Ein", " New", " Yo", "rker"
    assert dictated_pieces(pieces, [(4, 10)], text) == [False, True, True, False]
    assert dictated_pieces(pieces, [], text) == [False] * 4


def test_a_prefix_the_model_would_not_write_does_not_lower_the_quality(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    [[guided]] = translate_n_best(model, tokenizer, ["a dog runs"], prefix="eine katze", quality=Assessor())
    assert guided.text.startswith("eine katze")
    [plain] = assess(model, tokenizer, ["a dog runs"], [guided.text])  # nothing dictated: as written elsewhere
    pair = score_pair(model, tokenizer.encode("a dog runs"), tokenizer.encode_target(guided.text))
    log_probs = [math.log(p) for p in pair.probs]
    forced = len(tokenizer.encode_target("eine katze"))
    chosen = log_probs[forced:]  # the model's own pieces, then EOS
    counted = [max(lp, mean(chosen)) for lp in log_probs[:forced]] + chosen
    assert plain.features.mean_log_prob == pytest.approx(mean(log_probs), abs=1e-4)
    assert guided.assessment.features.mean_log_prob == pytest.approx(mean(counted), abs=1e-4)
    assert guided.quality > plain.quality


def test_a_term_kept_as_written_is_no_copy(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    [[guided]] = translate_n_best(model, tokenizer, ["a dog runs"], glossary={"a dog": "a dog"}, quality=Assessor())
    assert "a dog" in guided.text  # where the term stands is the tiny model's choice, which differs by CPU
    assert "copied" not in guided.flags and guided.assessment.features.copied == 0.0
    # The same rule on a whole copy, apart from where a search puts a term: source words are copied where
    # nothing says the glossary wrote them, and no copy where it did.
    copy = Dictated(prefix="", terms=("a dog runs",), sources=("a dog runs",))
    plain, kept = assess(model, tokenizer, ["a dog runs"] * 2, ["a dog runs"] * 2, dictated=[NOTHING, copy])
    assert "copied" in plain.flags
    assert "copied" not in kept.flags and kept.features.copied == 0.0
    assert kept.quality > plain.quality


def test_a_kept_plain_translations_terms_are_the_models_words(model_and_tokenizer):
    """The search without the glossary writes "fahrrad" itself, and its translation is kept (plain_first): its
    assessment is that of the same translation without the glossary.  It read "fahrrad" as dictated, its piece
    raised to the mean (quality 0.99924 against 0.99923 on one CPU) and its source term left out."""
    model, tokenizer = model_and_tokenizer
    source = "a man rides a bike"
    [[plain]] = translate_n_best(model, tokenizer, [source], quality=Assessor())
    [[kept]] = translate_n_best(model, tokenizer, [source], glossary={"bike": "fahrrad"}, quality=Assessor())
    assert kept.text == plain.text == "ein mann fährt ein fahrrad"
    assert kept.assessment == plain.assessment and kept.assessment.dictated == NOTHING


def test_a_translation_searched_with_its_terms_still_has_them_dictated(model_and_tokenizer):
    """"runs" -> "schläft", which the model would not write: searched with the term, whose piece counts as the
    user's (quality 0.9995 against 0.127 read as the model's, on one CPU)."""
    model, tokenizer = model_and_tokenizer
    [[guided]] = translate_n_best(model, tokenizer, ["a dog runs"], glossary={"runs": "schläft"}, quality=Assessor())
    assert "schläft" in guided.text
    assert guided.assessment.dictated == Dictated("", ("schläft",), ("runs",))
    [plain] = assess(model, tokenizer, ["a dog runs"], [guided.text])  # nothing dictated: as written elsewhere
    assert guided.quality > plain.quality


def features(source, translation, dictated=NOTHING):
    """features_of for ``translation`` of ``source``, read by a stand-in pass (every piece likely, the
    attention even) whose pieces are its words; ``dictated``: what the search was made to write."""
    words = translation.split()
    forced = ForcedPass(list(range(3, 3 + len(source.split()) + 1)), list(range(3, 3 + len(words))),
                        [-0.1] * (len(words) + 1), torch.full((len(words), len(source.split()) + 1), 0.1))
    pieces = [(m.start(), m.end()) for m in re.finditer(r"\S+", translation)]
    return features_of(forced, source, translation, [*source.split(), "</s>"], 0, Languages("en", "de"), words,
                       dictated, pieces)


def test_a_number_a_term_brings_is_no_verbatim_fault():
    source = "A Formula One car races past a Windows 11 poster."
    translation = "Ein Formel 1 Auto fährt an einem Windows 11 Plakat vorbei."
    assert features(source, translation).verbatim  # "1" is no number of the source's, where nothing says why
    terms = Dictated(terms=("Formel 1", "Windows 11"), sources=("Formula One", "Windows 11"))
    assert not features(source, translation, terms).verbatim
    # A prefix holding the source's number: the same as written.
    assert not features("Chapter 3: the end.", "Kapitel 3: das Ende.", Dictated("Kapitel 3:")).verbatim


def test_a_number_the_model_changed_beside_a_term_is_still_a_verbatim_fault():
    source = "A Formula One car with the number 5."
    term = Dictated(terms=("Formel 1",), sources=("Formula One",))
    assert features(source, "Ein Formel 1 Auto mit der Nummer 6.", term).verbatim
    assert not features(source, "Ein Formel 1 Auto mit der Nummer 5.", term).verbatim


def test_a_text_read_whole_reads_what_its_sentences_were_dictated_apart():
    """Translate and the server read the verbatim rule again over a paragraph whole (read_whole), which
    flagged "Formel 1" once more."""
    term = Dictated(terms=("Formel 1",), sources=("Formula One",))
    parts = [Assessment(0.9, [], True, dictated=term), Assessment(0.8, [], True)]
    whole = read_whole(joined(parts), "A Formula One car. It is fast.", "Ein Formel 1 Auto. Es ist schnell.")
    assert whole.flags == []
    changed = read_whole(joined(parts), "A Formula One car. It is 5.", "Ein Formel 1 Auto. Es ist 6.")
    assert changed.flags == ["verbatim"]
    assert read_whole(joined(parts[1:]), "A Formula One car.", "Ein Formel 1 Auto.").flags == ["verbatim"]


def test_score_with_the_glossary_scores_translates_output_as_translate_did(model_and_tokenizer):
    """``attnmt score --glossary`` (assess_elsewhere) read the terms as the model's own choice: "a dog"
    was copied there, and not in translate's assessment of the same text."""
    model, tokenizer = model_and_tokenizer
    terms = {"a dog": "a dog"}
    [[guided]] = translate_n_best(model, tokenizer, ["a dog runs"], glossary=terms, quality=Assessor())
    [scored] = assess_elsewhere(model, tokenizer, ["a dog runs"], [guided.text], None, glossary=terms)
    assert scored.flags == guided.flags and "copied" not in scored.flags
    assert scored.quality == pytest.approx(guided.quality, abs=1e-4)


def test_score_with_the_glossary_reads_a_kept_plain_translations_terms_as_the_models(model_and_tokenizer):
    """``attnmt score --glossary`` read "fahrrad" as dictated where translate, which kept its translation without
    the glossary, reads it as the model's; a translation that is not the model's own still has it dictated."""
    model, tokenizer = model_and_tokenizer
    source, terms = "a man rides a bike", {"bike": "fahrrad"}
    [[kept]] = translate_n_best(model, tokenizer, [source], glossary=terms, quality=Assessor())
    other = "ein junge fährt ein fahrrad"
    scored, written = assess_elsewhere(model, tokenizer, [source] * 2, [kept.text, other], None, glossary=terms)
    assert scored.dictated == kept.assessment.dictated == NOTHING
    assert scored.quality == pytest.approx(kept.quality, abs=1e-6) and scored.flags == kept.flags
    assert written.dictated == Dictated("", ("fahrrad",), ("bike",))


def test_a_glossary_dictates_its_targets_as_the_vocabulary_writes_them():
    found = by_glossary(Glossary.of({"New York City": "New York City", "truck": "Laster"}),
                        "A truck in New York City.", str.upper)
    assert found == Dictated("", ("LASTER", "NEW YORK CITY"), ("truck", "New York City"))
    assert by_glossary(None, "A truck.", str) == NOTHING
