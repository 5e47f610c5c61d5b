"""Quality for translations the model did not write: the edits that make broken texts to fit on,
the second fit ``attnmt calibrate`` stores, and ``assess_elsewhere`` (what ``attnmt score`` runs)."""

import json
import math
import re
import shutil
import unicodedata
from dataclasses import replace

import pytest
from support import PAIRS, calibration_pairs

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import elsewhere as elsewhere_module
from attnmt.decoding import noising
from attnmt.decoding.calibration import CALIBRATION, calibrate, load_calibration, save_calibration
from attnmt.decoding.elsewhere import (
    DAMAGED_BELOW,
    INPUT_NAMES,
    Reading,
    assess_elsewhere,
    chrf_to,
    elsewhere_labels,
    reordering,
)
from attnmt.decoding.noising import EDITS, front_phrase, front_phrase_verb_third, noised
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_features import Features
from attnmt.errors import ConfigError, ModelDirError

SOURCES = [s for s, _ in PAIRS]
TARGETS = [t for _, t in PAIRS]


def test_every_edit_of_every_translation_of_two_words_or_more_the_same_for_the_same_seed():
    """Every edit but the two that put a phrase first, which find no German sentence to reorder in these words."""
    sources, translations = ["a b c", "d", "e f g h"], ["x y z w", "v", "p q r s t"]
    made = noised(sources, translations)
    random_edits = [edit.__name__ for edit in EDITS if edit not in (front_phrase, front_phrase_verb_third)]
    assert [i for i, _, _ in made] == [0] * len(random_edits) + [2] * len(random_edits)  # "v": one word, left alone
    assert [edit for _, _, edit in made] == random_edits * 2
    assert made == noised(sources, translations) and made != noised(sources, translations, seed=1)
    assert all(text != translations[i] for i, text, _ in made)  # distinct words: every edit changes the text
    cut = made[3][1].split()  # truncate: a proper prefix of the words
    assert 1 <= len(cut) < 4 and cut == "x y z w".split()[: len(cut)]


def test_a_german_translation_also_gets_a_phrase_put_first_and_the_random_edits_draw_as_without_it(monkeypatch):
    """With the verb second (right) and with the verb third (wrong)."""
    sources = ["A woman reads a book in the park .", "Two dogs run through the snow ."]
    translations = ["Eine Frau liest ein Buch im Park.", "Zwei Hunde rennen durch den Schnee."]
    made = noised(sources, translations)
    assert [text for _, text, edit in made if edit == "front_phrase"] == [
        "Im Park liest eine Frau ein Buch.", "Durch den Schnee rennen zwei Hunde."]
    assert [text for _, text, edit in made if edit == "front_phrase_verb_third"] == [
        "Im Park eine Frau liest ein Buch.", "Durch den Schnee zwei Hunde rennen."]
    fronting = (front_phrase, front_phrase_verb_third)
    monkeypatch.setattr(noising, "EDITS", tuple(edit for edit in EDITS if edit not in fronting))
    assert noised(sources, translations) == [item for item in made if item[2] not in {e.__name__ for e in fronting}]


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


@pytest.fixture(scope="module")
def calibrated(model_and_tokenizer, trained_copy_module):
    model, tokenizer = model_and_tokenizer
    sources, references = zip(*calibration_pairs(), strict=True)
    calibration, report = calibrate(model, tokenizer, trained_copy_module, sources, references)
    save_calibration(calibration, trained_copy_module)
    return calibration, report


@pytest.fixture(scope="module")
def trained_copy_module(trained_model, tmp_path_factory):
    copy = tmp_path_factory.mktemp("elsewhere") / "model"
    shutil.copytree(trained_model, copy)
    return copy


def test_calibrate_fits_and_stores_a_second_fit_for_texts_written_elsewhere(calibrated, trained_copy_module):
    calibration, report = calibrated
    fit = calibration.elsewhere
    assert fit is not None and len(fit.weights) == len(fit.means) == len(fit.scales) == len(INPUT_NAMES)
    assert len(fit.envelope) == 4 and 0.0 <= report.references_low_elsewhere <= 1.0
    assert "read by the fit for texts written elsewhere (attnmt score)" in report.table()
    loaded = load_calibration(trained_copy_module)
    assert loaded.elsewhere == fit


@pytest.mark.parametrize("unacceptable", [0, 1, 9])
def test_too_few_texts_on_one_side_of_the_threshold_leave_no_fit_for_texts_written_elsewhere(
        model_and_tokenizer, trained_copy_module, monkeypatch, unacceptable):
    """As the first fit needs MIN_EACH of each: fitted on a handful, it would flag at random."""
    def labels(kinds, *_):
        return [0.0 if i < unacceptable else 1.0 for i in range(len(kinds))]

    monkeypatch.setattr(elsewhere_module, "elsewhere_labels", labels)
    model, tokenizer = model_and_tokenizer
    sources, references = zip(*calibration_pairs(), strict=True)
    calibration, report = calibrate(model, tokenizer, trained_copy_module, sources, references)
    assert calibration.elsewhere is None and report.references_low_elsewhere is None
    assert "texts written elsewhere" not in report.table()


def test_a_pair_the_model_reads_no_piece_of_is_left_out_of_the_fit(model_and_tokenizer, calibrated,
                                                                  trained_copy_module):
    """A zero-width space given as its own reference is a copy, quality 1 with no features
    (quality.blank_pair): calibrate fits and measures without it, as without a blank pair.  (The
    fit for texts written elsewhere changes a little: the last sentence's noised edits borrow from
    the next one, this pair's empty translation, noising.noised.)"""
    model, tokenizer = model_and_tokenizer
    sources, references = zip(*calibration_pairs(), ("\u200b", "\u200b"), strict=True)
    calibration, report = calibrate(model, tokenizer, trained_copy_module, sources, references)
    assert replace(calibration, elsewhere=None) == replace(calibrated[0], elsewhere=None)
    assert calibration.sentences == 120 and report.own == calibrated[1].own
    assert report.references_low == calibrated[1].references_low and calibration.elsewhere is not None


def test_a_text_that_reads_as_the_models_own_translation_keeps_the_own_fits_quality(model_and_tokenizer,
                                                                                   calibrated):
    model, tokenizer = model_and_tokenizer
    calibration, _ = calibrated
    sources = ["a dog runs", "the boy laughs"]
    own = ["ein hund rennt", "der junge lacht"]  # what the tiny model writes for them
    assert [a.quality for a in assess_elsewhere(model, tokenizer, sources, own, calibration)] == pytest.approx(
        [a.quality for a in assess(model, tokenizer, sources, own, calibration)])


def test_the_models_translation_ending_as_its_source_ends_keeps_its_own_assessment(model_and_tokenizer, calibrated):
    """translate writes a line's sentence ending as its source ends, without the full stop the model added where the
    source has none: score read that output as written elsewhere (the demo model: 0.0519 and ``untranslated`` where
    translate had said 0.1483; here 0.077 and ``low_quality`` for 0.519).  The model's translations are given with
    a stop (``own``): the tiny model writes none."""
    model, tokenizer = model_and_tokenizer
    calibration, _ = calibrated
    sources, written = ["a dog runs", "the boy laughs"], ["ein hund rennt", "der junge lacht"]
    own = [text + "." for text in written]
    found = assess_elsewhere(model, tokenizer, sources, written, calibration, own=own)
    expected = assess(model, tokenizer, sources, own, calibration)
    assert [(a.quality, a.flags) for a in found] == [(pytest.approx(a.quality), a.flags) for a in expected]
    assert [[word for word, _ in a.words] for a in found] == [text.split() for text in written]


def test_another_text_is_read_against_the_models_translation_and_capped_where_a_rule_fires(model_and_tokenizer,
                                                                                         calibrated):
    model, tokenizer = model_and_tokenizer
    calibration, _ = calibrated
    sources = ["a dog runs", "the boy laughs", "a cat sleeps"]
    texts = ["ein hund", "der junge lacht lacht lacht lacht", "eine katze schläft gern"]
    plain = assess(model, tokenizer, sources, texts, calibration)
    read = assess_elsewhere(model, tokenizer, sources, texts, calibration)
    owns = ["ein hund rennt", "der junge lacht", "eine katze schläft"]  # what the tiny model writes
    own = assess(model, tokenizer, sources, owns, calibration)
    for k, (a, b, o) in enumerate(zip(plain, read, own, strict=True)):
        # Every input of the Reading: built with chrF to the own translation alone, this held only
        # while the fit gave chrF from it and the reordering no weight.
        reading = Reading(a.features, o.features, *chrf_to([texts[k]], [owns[k]]), *chrf_to([owns[k]], [texts[k]]),
                          reordering(texts[k], owns[k]))
        trusted = calibration.quality(o.features) >= calibration.threshold
        assert b.quality == pytest.approx(calibration.elsewhere.quality(reading, a.quality, calibration.length_center,
                                                                        calibration.length_range, trusted))
        assert b.words == a.words and b.calibrated is True
        assert ("low_quality" in b.flags) == (b.quality < calibration.threshold)
    assert "repetition" in read[1].flags and read[1].quality <= plain[1].quality  # a rule fired: at most the own fit's


def test_a_text_with_no_letter_passed_through_keeps_quality_one_whatever_the_model_writes(model_and_tokenizer,
                                                                                          calibrated):
    model, tokenizer = model_and_tokenizer
    calibration, _ = calibrated
    found = assess_elsewhere(model, tokenizer, ["12345"] * 2, ["12345"] * 2, calibration, own=["ein hund", "12345."])
    assert [(a.quality, a.flags) for a in found] == [(1.0, [])] * 2  # not the model's "12345." without its stop


def test_without_a_fit_for_texts_written_elsewhere_it_is_assess(model_and_tokenizer, calibrated):
    model, tokenizer = model_and_tokenizer
    calibration, _ = calibrated
    older = replace(calibration, elsewhere=None)  # as a calibration fitted before the second fit existed
    sources, texts = ["a dog runs", "a cat sleeps"], ["ein hund", "eine katze"]
    for given in (None, older):
        assert ([a.quality for a in assess_elsewhere(model, tokenizer, sources, texts, given)]
                == [a.quality for a in assess(model, tokenizer, sources, texts, given)])


@pytest.mark.parametrize(("sources", "translations"), [(SOURCES[:1], TARGETS[:2]), (SOURCES[:2], TARGETS[:1])])
def test_not_one_translation_a_source_is_refused_naming_both_counts(model_and_tokenizer, calibrated, sources,
                                                                    translations):
    """A translation too many was left out without a word; one too few was an IndexError from the
    forced pass (assess) or zip()'s ValueError (assess_elsewhere)."""
    model, tokenizer = model_and_tokenizer
    counts = f"got {len(sources)} sources and {len(translations)} translations; give one translation per source$"
    for assessing in (assess, assess_elsewhere):
        with pytest.raises(ConfigError, match=f"^sources and translations: {counts}"):
            assessing(model, tokenizer, sources, translations, calibrated[0])


@pytest.mark.parametrize("own", [TARGETS[:1], TARGETS[:3]])
def test_not_one_own_translation_a_source_is_refused_naming_both_counts(model_and_tokenizer, calibrated, own):
    """Too few was an IndexError; too many were left out without a word."""
    model, tokenizer = model_and_tokenizer
    with pytest.raises(ConfigError, match=f"^own: got {len(own)} translations for 2 sources; give the model's "
                                          "translation of each source$"):
        assess_elsewhere(model, tokenizer, SOURCES[:2], TARGETS[:2], calibrated[0], own=own)


@pytest.mark.parametrize(("own", "error"), [("Hund", "own: expected a list of texts, got str; pass [text] for one"),
                                           ([None, TARGETS[1]], "own[0]: expected a str, got NoneType")])
def test_own_translations_not_a_list_of_texts_are_refused_naming_own(model_and_tokenizer, calibrated, own, error):
    """As the translations are: a str of as many characters as sources was read a character a
    source, and a None was blamed on ``translations[2]`` (the forced pass reads both at once)."""
    model, tokenizer = model_and_tokenizer
    sources, translations = (SOURCES[:4], TARGETS[:4]) if isinstance(own, str) else (SOURCES[:2], TARGETS[:2])
    with pytest.raises(ConfigError, match=f"^{re.escape(error)}$"):
        assess_elsewhere(model, tokenizer, sources, translations, calibrated[0], own=own)


def test_own_translations_given_as_a_generator_are_read_as_the_list(model_and_tokenizer, calibrated):
    """len() of a generator was a bare TypeError."""
    model, tokenizer = model_and_tokenizer
    listed = assess_elsewhere(model, tokenizer, SOURCES[:2], TARGETS[:2], calibrated[0], own=TARGETS[2:4])
    generated = assess_elsewhere(model, tokenizer, SOURCES[:2], TARGETS[:2], calibrated[0],
                                 own=(t for t in TARGETS[2:4]))
    assert [a.quality for a in generated] == [a.quality for a in listed]


def test_a_stored_fit_for_other_inputs_is_refused_in_one_line(calibrated, trained_copy_module, tmp_path):
    copy = tmp_path / "model"
    shutil.copytree(trained_copy_module, copy)
    stored = json.loads((copy / CALIBRATION).read_text())
    stored["elsewhere"]["inputs"] = stored["elsewhere"]["inputs"][:-1]
    (copy / CALIBRATION).write_text(json.dumps(stored))
    with pytest.raises(ModelDirError, match=r"its fit for texts written elsewhere holds (\d+) weights, \1 means and "
                                            r"\1 scales for its \d+ inputs; run attnmt calibrate"):
        load_calibration(copy)


def test_a_fit_stored_before_the_attention_gaps_still_loads_and_reads_its_own_inputs(model_and_tokenizer, calibrated,
                                                                                    trained_copy_module, tmp_path):
    copy = tmp_path / "model"
    shutil.copytree(trained_copy_module, copy)
    stored = json.loads((copy / CALIBRATION).read_text())
    older = stored["elsewhere"]  # as written before coverage_gap, source_entropy_gap, omitted, reordered and
    for key in ("inputs", "weights", "means", "scales"):  # verb_third were in
        older[key] = older[key][:-5]
    (copy / CALIBRATION).write_text(json.dumps(stored))
    loaded = load_calibration(copy)
    assert loaded.elsewhere.inputs == INPUT_NAMES[:-5]
    f = Features(mean_log_prob=-0.5, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.0, coverage=-2.0, source_entropy=0.6)
    reading = Reading(f, replace(f, coverage=-0.1, source_entropy=0.3), 80.0, 95.0, 0.25)
    assert reading.inputs(0.0, (0.4, 2.5))[-5:] == pytest.approx([-1.9, 0.3, 0.15, 0.25, 0.0])
    assert reading.inputs(0.0, (0.4, 2.5), loaded.elsewhere.inputs) == reading.inputs(0.0, (0.4, 2.5))[:-5]
    model, tokenizer = model_and_tokenizer
    [found] = assess_elsewhere(model, tokenizer, ["a dog runs"], ["ein hund rennt schnell"], loaded)
    assert 0.0 <= found.quality <= 1.0


def test_a_broken_text_that_keeps_too_little_of_the_models_translation_is_labelled_unacceptable():
    kinds = ["reference", "n-best", "noised drop_words", "noised drop_words", "noised truncate",
             "noised transpose_adjacent", "reference"]
    to_reference = [80.0, 40.0, 80.0, 80.0, 30.0, 90.0, 80.0]
    to_own = [30.0, 30.0, DAMAGED_BELOW - 1, DAMAGED_BELOW, 95.0, 95.0, 99.0]  # a reference: by chrF alone
    made_from = [60.0] * len(kinds)
    assert elsewhere_labels(kinds, to_reference, to_own, made_from, 50.0) == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]


def test_a_phrase_put_first_is_labelled_as_the_translation_it_was_made_from():
    """However little chrF it keeps of that translation or of the reference (its words at other joins): 'Im Park
    liest eine Frau ein Buch.' is as right as 'Eine Frau liest ein Buch im Park.', and as wrong as a wrong one."""
    kinds = ["noised front_phrase"] * 3
    assert elsewhere_labels(kinds, [45.0, 45.0, 70.0], [DAMAGED_BELOW - 10] * 3, [55.0, 80.0, 40.0], 50.0) == \
        [1.0, 1.0, 0.0]
    assert all(kind.split()[-1] in {e.__name__ for e in EDITS} for kind in kinds if kind.startswith("noised"))


def test_a_phrase_put_first_with_the_verb_third_is_labelled_unacceptable_whatever_it_keeps():
    """'Im Park eine Frau liest ein Buch.' keeps chrF 80 of the reference and of the model's translation, and German
    does not allow it."""
    kinds = ["noised front_phrase_verb_third", "noised front_phrase"]
    assert elsewhere_labels(kinds, [80.0, 80.0], [DAMAGED_BELOW + 5] * 2, [90.0, 90.0], 50.0) == [0.0, 1.0]
    assert all(kind.split()[-1] in {e.__name__ for e in EDITS} for kind in kinds)


def test_a_text_with_the_verb_third_after_a_phrase_put_first_is_an_input_of_the_fit():
    f = Features(mean_log_prob=-0.5, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.0)
    by_name = lambda reading: dict(zip(INPUT_NAMES, reading.inputs(0.0, (0.4, 2.5)), strict=True))  # noqa: E731
    assert by_name(Reading(replace(f, verb_third=True), f, 80.0))["verb_third"] == 1.0
    assert by_name(Reading(f, f, 80.0))["verb_third"] == 0.0


def test_a_reading_has_one_input_a_name():
    f = Features(mean_log_prob=-0.5, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.0)
    assert len(Reading(f, f, 100.0).inputs(0.0, (0.4, 2.5))) == len(INPUT_NAMES)


def test_far_from_a_translation_the_model_does_not_trust_is_no_cap_and_far_from_one_it_trusts_is():
    """Out of the model's domain its own translation is poor, and a good text far from it (chrF 10) was capped at
    the own fit's quality: 61 % of good news, software and travel translations low_quality on the demo model."""
    n = len(INPUT_NAMES)
    fit = elsewhere_module.ElsewhereFit([0.0] * n, math.log(0.9 / 0.1), [0.0] * n, [1.0] * n,
                                        envelope=[-4.0, 20.0, -2.5, -14.0])  # the fit alone: quality 0.9
    f = Features(mean_log_prob=-3.0, min_log_prob=-8.0, eos_log_prob=-0.5, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.0)
    far = Reading(f, f, 10.0)  # chrF 10 to the model's translation: under the envelope's 20
    assert fit.quality(far, 0.1, 0.0, (0.4, 2.5), own_trusted=True) == pytest.approx(0.1)
    assert fit.quality(far, 0.1, 0.0, (0.4, 2.5), own_trusted=False) == pytest.approx(0.9)
    cut = Reading(replace(f, eos_log_prob=-6.0), f, 10.0)  # its own ending unlikely: capped, trusted or not
    assert fit.quality(cut, 0.1, 0.0, (0.4, 2.5), own_trusted=False) == pytest.approx(0.1)


def test_a_text_with_a_phrase_added_is_capped_at_the_own_fits_quality():
    """A phrase added keeps most of the model's translation (chrF 80 to it, inside the envelope): the added rule
    caps it, as the rules that mark a broken text do."""
    n = len(INPUT_NAMES)
    fit = elsewhere_module.ElsewhereFit([0.0] * n, math.log(0.9 / 0.1), [0.0] * n, [1.0] * n,
                                        envelope=[-4.0, 20.0, -2.5, -14.0])  # the fit alone: quality 0.9
    f = Features(mean_log_prob=-1.0, min_log_prob=-6.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.2)
    assert fit.quality(Reading(f, f, 80.0), 0.1, 0.0, (0.4, 2.5)) == pytest.approx(0.9)
    assert fit.quality(Reading(replace(f, added=True), f, 80.0), 0.1, 0.0, (0.4, 2.5)) == pytest.approx(0.1)


def test_a_text_with_a_number_changed_or_its_one_word_source_given_back_is_capped_at_the_own_fits_quality():
    """'Vier Pferde.' for 'Two horses.' keeps nearly all of the model's 'Zwei Pferde.' (chrF 80 to it): the verbatim
    rule caps it; 'Snow.' for 'Snow.' is one word, too short for the fit to read, and the copied rule caps it."""
    n = len(INPUT_NAMES)
    fit = elsewhere_module.ElsewhereFit([0.0] * n, math.log(0.9 / 0.1), [0.0] * n, [1.0] * n,
                                        envelope=[-4.0, 20.0, -2.5, -14.0])  # the fit alone: quality 0.9
    f = Features(mean_log_prob=-1.0, min_log_prob=-6.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.2)
    assert fit.quality(Reading(replace(f, verbatim=True), f, 80.0), 0.1, 0.0, (0.4, 2.5)) == pytest.approx(0.1)
    kept = replace(f, copied=1.0, words=1, source_word_kept=True)
    assert fit.quality(Reading(kept, f, 80.0), 0.1, 0.0, (0.4, 2.5)) == pytest.approx(0.1)


def test_a_text_that_leaves_out_part_of_the_models_translation_reads_as_omitting_and_a_rewording_does_not():
    f = Features(mean_log_prob=-0.5, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=0.0,
                 length_ratio=1.0)
    own = "Ein Mann mit einem roten Hut steht neben einem Fahrrad auf der Straße."
    texts = ["Ein Mann mit einem roten Hut steht auf der Straße.",  # a third left out
             "Ein Mann mit rotem Hut steht auf der Straße neben einem Fahrrad.",  # reworded, all there
             "Ein Mann mit einem roten Hut steht neben einem blauen Fahrrad auf der Straße."]  # one word added
    omitted = [Reading(f, f, a, b).omitted()
               for a, b in zip(chrf_to(texts, [own] * 3), chrf_to([own] * 3, texts), strict=True)]
    assert omitted[0] > 0.1 and omitted[1] < 0.05 and omitted[2] == 0.0
    assert Reading(f, f, 80.0).omitted() == 0.0  # a reading made without the chrF back: nothing known omitted


def test_the_models_translation_with_its_words_in_another_order_reads_as_reordered_and_another_wording_does_not():
    own = "Ein Mann mit einem roten Hut steht neben einem Fahrrad auf der Straße."
    words = own.split()
    words[3], words[9] = words[9], words[3]  # two words swapped across the sentence
    assert reordering(own, own) == 0.0
    assert reordering(" ".join(words), own) == pytest.approx(1 / 3)
    assert reordering("Eine Frau fährt mit ihrem Fahrrad über die Straße.", own) < 0.01
    assert reordering("", own) == 0.0
    assert reordering("Hund.", "Hund") == reordering("Hund", own) == 0.0  # one word: no order to break


def test_a_text_in_another_unicode_form_than_the_models_translation_is_not_reordered():
    """The words are read after NFKC: "Straße" typed with a combining accent elsewhere was cut at it."""
    own = "Ein Mann fährt über die Straße zum Café."
    assert reordering(unicodedata.normalize("NFD", own), own) == 0.0


def test_score_names_weights_given_as_a_folder_as_one(calibrated, trained_copy_module, tmp_path, capsys):
    """score read the calibration, which opens the weights for their digest, before the model: a
    checkpoint's folder given to --weights was "[Errno 21] Is a directory"."""
    from attnmt.cli.main import main

    folder = tmp_path / "step_00000001"
    folder.mkdir()
    (tmp_path / "in.en").write_text("a dog runs\n")
    argv = ["score", "--model", str(trained_copy_module), "--weights", str(folder),
            "--src", str(tmp_path / "in.en"), "--hyp", str(tmp_path / "in.en")]
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"attnmt: error: {folder}: is a folder, not a weights file")


def test_the_forced_pass_reads_the_verb_third_after_a_phrase_put_first(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    wrong, right = assess(model, tokenizer, ["A woman reads a book in the park."] * 2,
                          ["Im Park eine Frau liest ein Buch.", "Im Park liest eine Frau ein Buch."])
    assert wrong.features.verb_third and not right.features.verb_third
