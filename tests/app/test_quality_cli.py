"""attnmt calibrate and attnmt score end to end: what they write, and the one-line errors."""

import json
from dataclasses import replace

import pytest
import yaml
from support import PAIRS, calibration_pairs, run_cli, write_calibration, write_pairs

from attnmt.decoding.calibration import CALIBRATION, MIN_SENTENCES
from attnmt.errors import DataError
from attnmt.train_config import load_config
from attnmt.training.run_dir import record_corpora


def test_score_writes_quality_flags_and_word_probabilities_a_line(trained_model, tmp_path, capsys):
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt"), ("a cat sleeps", "a cat sleeps")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    good, copied = map(json.loads, out.splitlines())
    assert code == 0
    assert good["line"] == 1 and good["flags"] == [] and good["calibrated"] is False
    assert [w for w, _ in good["words"]] == ["ein", "hund", "rennt"]
    assert "copied" in copied["flags"] and copied["quality"] < good["quality"]


def test_score_gives_the_words_of_each_line_as_written(trained_model, tmp_path, capsys):
    """A line read sentence by sentence: two sentences that touch share the word where they touch,
    and a URL, which the sentences leave out, is a word of the line too (null: the model read no
    piece of it).  They were the sentences' words one after the other: "rennt." and "Eine" for
    "rennt.Eine", and no URL."""
    lines = [("a dog runs.A cat sleeps.", "ein hund rennt.Eine katze schläft."),
             ("a dog runs https://a.org/x now. a cat sleeps.",
              "ein hund rennt https://a.org/x jetzt. eine katze schläft.")]
    src, hyp = write_pairs(tmp_path, "x", lines)
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    touching, url = map(json.loads, out.splitlines())
    assert code == 0
    assert [w for w, _ in touching["words"]] == lines[0][1].split()
    assert [w for w, _ in url["words"]] == lines[1][1].split() and url["words"][3] == ["https://a.org/x", None]


def test_score_gives_a_word_before_an_invisible_character_its_own_probability(trained_model, tmp_path, capsys):
    """"▁rennt" spans the zero-width space or LRM that ends "hund": its probability went to "hund"."""
    lines = [("a dog runs", "ein hund rennt"), ("a dog runs", "ein hund\u200b rennt"),
             ("a dog runs", "ein hund\u200e rennt")]
    src, hyp = write_pairs(tmp_path, "x", lines)
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--no-search"], capsys)
    plain, *invisible = (json.loads(line)["words"] for line in out.splitlines())
    assert code == 0
    for words, mark in zip(invisible, "\u200b\u200e", strict=True):
        assert words == [["ein", plain[0][1]], [f"hund{mark}", plain[1][1]], ["rennt", plain[2][1]]]



def test_score_gives_a_translation_read_as_no_piece_quality_0(trained_model, tmp_path, capsys):
    """"\u2581" alone, SentencePiece's space, is no translation of "a dog runs", and "ein hund" none
    the model can vouch for of "\u2581"; both scored 1.0 and no flags.  The copy keeps its 1."""
    lines = [("a dog runs", "\u2581"), ("\u2581", "ein hund"), ("\u2581", "\u2581")]
    src, hyp = write_pairs(tmp_path, "x", lines)
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    found = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [(a["quality"], a["flags"]) for a in found] == [(0.0, ["empty", "low_quality"]), (0.0, ["low_quality"]),
                                                          (1.0, [])]

def test_score_writes_tsv_rows(trained_model, tmp_path, capsys):
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt"), ("", "")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output-format", "tsv"],
                           capsys)
    first, blank = out.splitlines()
    assert code == 0
    assert first.split("\t")[0] == "1" and first.split("\t")[2:] == ["-", "ein hund rennt"]
    assert blank == "2\t1.0000\t-\t"  # nothing to translate, passed through: was "2\t\t-\t"


def test_score_refuses_a_translation_file_of_another_length(trained_model, tmp_path, capsys):
    src, hyp = write_pairs(tmp_path, "x", PAIRS[:3])
    hyp.write_text("ein hund rennt\n", encoding="utf-8")
    code, _, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    assert code == 2
    assert err == f"attnmt: error: {hyp} has 1 line but {src} has 3: score needs one translation a source line\n"


def test_score_never_writes_over_its_sources_or_translations(trained_model, tmp_path, capsys):
    src, hyp = write_pairs(tmp_path, "x", PAIRS[:2])
    before = src.read_text(encoding="utf-8"), hyp.read_text(encoding="utf-8")
    for output, option in ((src, "--src"), (hyp, "--hyp")):
        code, _, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output", output],
                               capsys)
        assert code == 2 and err.startswith(f"attnmt: error: the --output {output} is the {option} file: ")
    assert (src.read_text(encoding="utf-8"), hyp.read_text(encoding="utf-8")) == before
    code, _, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output",
                          tmp_path / "scores.jsonl"], capsys)
    assert code == 0 and len((tmp_path / "scores.jsonl").read_text(encoding="utf-8").splitlines()) == 2


@pytest.mark.parametrize(("hyp", "output_format", "suggested"), [("-", "jsonl", "scores.jsonl"),
                                                                   ("x.tsv", "tsv", "x.scores.tsv")])
def test_score_suggests_an_output_name_of_its_own(trained_model, tmp_path, capsys, hyp, output_format, suggested):
    """For stdin it was "-.jsonl", and for x.tsv's scores in tsv x.tsv itself."""
    src, _ = write_pairs(tmp_path, "x", PAIRS[:2])
    code, _, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output-format",
                            output_format, "--output", f"{tmp_path}/o/"], capsys)
    assert code == 2 and err == (f"attnmt: error: the --output {tmp_path}/o/ names a folder: give it a file name "
                                 f"({tmp_path}/o/{suggested})\n")


def test_score_gives_an_empty_translation_quality_0_and_the_flags_empty_and_low_quality(trained_model, tmp_path,
                                                                                        capsys):
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt"), ("a cat sleeps", ""),
                                           ("the boy laughs", "der junge lacht")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    first, missing, last = map(json.loads, out.splitlines())
    assert code == 0
    assert missing == {"line": 2, "quality": 0.0, "flags": ["empty", "low_quality"], "calibrated": False,
                       "words": []}
    assert first["flags"] == last["flags"] == [] and last["quality"] > 0.5


@pytest.mark.parametrize("source", ["", "\u200b"])
def test_score_names_a_translation_without_a_source(trained_model, tmp_path, capsys, source):
    """A source of invisible characters alone (a zero-width space) is as blank as an empty one: it
    was read as no piece, and its translation scored 1 with no flags."""
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt"), (source, "eine katze schläft")])
    code, _, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    assert code == 2
    assert err.count("\n") == 1 and f"{src}:2: the source is blank (nothing but spaces or invisible characters) " \
        "and the translation is not" in err


INVISIBLE = ["\u200b", "\u2060", "\ufeff", "\u00ad", " \u200b\t"]  # zero-width space, word joiner, BOM, soft hyphen


@pytest.mark.parametrize("options", [[], ["--no-search"]])
def test_score_flags_a_translation_of_invisible_characters_alone_empty(trained_copy, tmp_path, capsys, options):
    """A translation that shows nothing is empty, as a blank one is: quality 0, ``empty`` and
    ``low_quality``, read against the model's own translation or alone.  str.strip() keeps these
    characters, so such a translation was read as a text (of no piece, or of an unknown one): a
    zero-width space scored 1 with no flags."""
    from attnmt.decoding.calibration import load_calibration, save_calibration
    from attnmt.decoding.elsewhere import ENVELOPE_SIGNALS, INPUT_NAMES, ElsewhereFit

    write_calibration(trained_copy)  # and a fit for texts written elsewhere, which score searches for
    inputs = len(INPUT_NAMES)
    fit = ElsewhereFit([0.0] * inputs, 0.0, [0.0] * inputs, [1.0] * inputs, [-100.0] * len(ENVELOPE_SIGNALS))
    save_calibration(replace(load_calibration(trained_copy), elsewhere=fit), trained_copy)
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", text) for text in INVISIBLE])
    code, out, err = run_cli(["score", "--model", trained_copy, "--src", src, "--hyp", hyp, *options], capsys)
    assert code == 0, err
    assert [(a["quality"], a["flags"]) for a in map(json.loads, out.splitlines())] == \
        [(0.0, ["empty", "low_quality"])] * len(INVISIBLE)


def test_score_gives_a_source_of_invisible_characters_passed_through_quality_1(trained_model, tmp_path, capsys):
    """Such a line as translate passes it through (the line itself), or left blank: its own
    reference, quality 1 and no flags."""
    pairs = [(text, copy) for text in INVISIBLE for copy in (text, "")]
    src, hyp = write_pairs(tmp_path, "x", pairs)
    code, out, err = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp], capsys)
    assert code == 0, err
    assert [(a["quality"], a["flags"]) for a in map(json.loads, out.splitlines())] == [(1.0, [])] * len(pairs)


def test_score_gives_a_blank_pair_quality_one_as_the_server_does(trained_copy, tmp_path, capsys):
    """A blank line passes through as it is, its own reference: quality 1 and no flags, as a line of
    no letter gets and the server answers for "".  It was null, with calibrated as the model's."""
    src, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt"), ("", ""), ("   ", "")])
    for calibrated in (False, True):
        code, out, _ = run_cli(["score", "--model", trained_copy, "--src", src, "--hyp", hyp], capsys)
        scored, *blanks = map(json.loads, out.splitlines())
        assert code == 0
        assert blanks == [{"line": n, "quality": 1.0, "flags": [], "calibrated": calibrated, "words": []}
                          for n in (2, 3)]
        assert set(blanks[0]) == set(scored)
        write_calibration(trained_copy)


@pytest.mark.parametrize(("text", "message"), [
    ("valid_src: [v.en\n", "line 1, column 12: not valid YAML: a list starts here with '[', and the file ends "
                           "before it is closed"),
    ("[v.en, v.de]\n", "expected a mapping of keys to values at the top level"),
], ids=["not YAML", "a list"])
def test_calibrate_names_a_train_yaml_it_cannot_read_in_one_line(tmp_path, capsys, text, message):
    """Without --src and --ref it reads the validation set's names from the model's train.yaml,
    which was PyYAML's traceback (or an AttributeError's, for a list)."""
    (tmp_path / "train.yaml").write_text(text)
    code, _, err = run_cli(["calibrate", "--model", tmp_path], capsys)
    assert (code, err) == (2, f"attnmt: error: {tmp_path / 'train.yaml'}: {message}\n")


def relative_validation_set(model_dir, started, monkeypatch, pairs=PAIRS):
    """The run in ``model_dir`` made to have started in ``started`` with its train.yaml naming the
    ``pairs`` (the 20) there relative to it (va.src, va.tgt), as corpora.json records them."""
    started.mkdir()
    monkeypatch.chdir(started)
    write_pairs(started, "va", pairs)
    path = model_dir / "train.yaml"
    values = {**yaml.safe_load(path.read_text()), "valid_src": "va.src", "valid_tgt": "va.tgt"}
    path.write_text(yaml.safe_dump(values, sort_keys=False))
    record_corpora(load_config(path), model_dir)


def test_calibrate_reads_the_validation_set_where_the_run_started(trained_copy, tmp_path, capsys, monkeypatch):
    """Without --src and --ref, train.yaml's relative valid_src and valid_tgt were read from the current
    folder: another folder's va.src/va.tgt (1 pair) were taken for the run's 20, as a resume reads them."""
    relative_validation_set(trained_copy, tmp_path / "a", monkeypatch)
    write_pairs(tmp_path, "va", PAIRS[:1])
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["calibrate", "--model", trained_copy], capsys)
    assert (code, err) == (2, f"attnmt: error: 20 sentences to calibrate on; quality needs at least {MIN_SENTENCES} "
                              "(give a larger --src/--ref pair)\n")


def test_calibrate_refuses_a_validation_file_changed_since_the_run_started(trained_copy, tmp_path, capsys,
                                                                            monkeypatch):
    """Its changed bytes were taken for the run's set; now one line says where it looked and why."""
    relative_validation_set(trained_copy, tmp_path / "a", monkeypatch)
    (tmp_path / "a" / "va.src").write_text("one line\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["calibrate", "--model", trained_copy], capsys)
    assert (code, err) == (2, f"attnmt: error: {tmp_path / 'a' / 'va.src'}: the validation file the model's "
                              f"train.yaml names is not the one it started with (size 9 bytes, not 291; "
                              f"{tmp_path / 'va.src'} cannot be read); give --src and --ref\n")


def test_calibrate_refuses_too_few_sentences_in_one_line(trained_copy, tmp_path, capsys):
    src, ref = write_pairs(tmp_path, "valid", PAIRS)
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 2
    assert err == (f"attnmt: error: 20 sentences to calibrate on; quality needs at least {MIN_SENTENCES} "
                   "(give a larger --src/--ref pair)\n")
    assert not (trained_copy / CALIBRATION).exists()


@pytest.mark.parametrize("pairs, counted", [
    (PAIRS[:1], "1 sentence to calibrate on"),
    (PAIRS[:1] * 2, "1 distinct sentence to calibrate on (1 more line repeats a pair before it, and counts once)"),
])
def test_calibrate_counts_one_sentence_in_the_singular(trained_copy, tmp_path, capsys, pairs, counted):
    """It said "1 sentences to calibrate on" and "1 more lines repeat a pair before them"."""
    src, ref = write_pairs(tmp_path, "valid", pairs)
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 2 and err == f"attnmt: error: {counted}; quality needs at least {MIN_SENTENCES} (give a larger " \
                                "--src/--ref pair)\n"


def test_calibrate_counts_a_repeated_pair_once(trained_copy, tmp_path, capsys):
    """10 pairs given 11 times (one with other spaces) passed the minimums as 110 sentences, and
    the fit, weighted by the repeats, was written: "ECE 0.000", then good references low_quality."""
    ten = PAIRS[:5] + [(s, PAIRS[k + 10][1]) for k, (s, _) in enumerate(PAIRS[:5])]  # 5 acceptable, 5 not
    src, ref = write_pairs(tmp_path, "valid", ten * 10 + [(f" {s}  ", r.replace(" ", "  ")) for s, r in ten])
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 2 and not (trained_copy / CALIBRATION).exists()
    assert err == ("attnmt: error: 10 distinct sentences to calibrate on (100 more lines repeat a pair before them, "
                   f"and count once); quality needs at least {MIN_SENTENCES} (give a larger --src/--ref pair)\n")


def test_calibrate_names_a_pair_with_one_blank_side(trained_copy, tmp_path, capsys):
    """It was left out without a word, where score refuses the same input."""
    src, ref = write_pairs(tmp_path, "valid", [*PAIRS[:2], ("", ""), (PAIRS[3][0], " "), *PAIRS[4:]])
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 2 and err == (f"attnmt: error: {ref}:4: the line is blank and the same line of {src} is not: "
                                 "give both sides of each pair, or leave both blank\n")



def test_calibrate_names_a_pair_whose_source_is_an_invisible_character_alone(trained_copy, tmp_path, capsys):
    """A zero-width space is as blank as an empty line (score refuses it so); calibrate took the pair, the
    model read no piece of it, and it was left out of the fit without a word."""
    src, ref = write_pairs(tmp_path, "valid", [*PAIRS[:3], ("\u200b", PAIRS[3][1]), *PAIRS[4:]])
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 2 and err == (f"attnmt: error: {src}:4: the line is blank and the same line of {ref} is not: "
                                 "give both sides of each pair, or leave both blank\n")


def test_calibrate_says_when_the_models_translations_are_empty(trained_copy, tmp_path, capsys, monkeypatch):
    from attnmt.decoding import calibration

    monkeypatch.setattr(calibration, "translate", lambda model, tokenizer, texts, *rest: [""] * len(texts))
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    n = len(calibration_pairs())
    assert code == 2
    assert err == (f"attnmt: error: the model's translations of {n} of the {n} sentences are empty, leaving 0 to "
                   f"calibrate on; quality needs at least {MIN_SENTENCES} (is the model trained enough?)\n")
    assert not (trained_copy / CALIBRATION).exists()


def test_calibrate_stores_a_calibration_that_score_then_uses(calibrated, tmp_path, capsys):
    trained_copy, code, out = calibrated
    assert code == 0
    assert "fitted on 120 sentences" in out and "expected calibration error (ECE)" in out
    assert "references under the low_quality threshold: " in out
    stored = json.loads((trained_copy / CALIBRATION).read_text())
    assert stored["sentences"] == 120 and len(stored["model_sha256"]) == 64
    pairs, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt")])
    code, out, _ = run_cli(["score", "--model", trained_copy, "--src", pairs, "--hyp", hyp], capsys)
    assert code == 0 and json.loads(out)["calibrated"] is True



def test_calibrate_parts_a_source_longer_than_the_model_reads_as_translate_does(trained_copy, tmp_path, capsys,
                                                                                 monkeypatch):
    """translate parts "a dog runs, and a cat sleeps" (20 pieces, where the model was trained on 16 at
    most) into "a dog runs," and "and a cat sleeps"; calibrate gave the model the sentence whole and
    labelled the few words it wrote for it against the whole reference."""
    from attnmt.decoding import calibration
    from attnmt.trained_lengths import write_longest_source

    write_longest_source(trained_copy, 16)  # the other sources fit
    given: list[str] = []
    translate = calibration.translate
    monkeypatch.setattr(calibration, "translate", lambda model, tokenizer, texts, *rest: given.extend(texts)
                        or translate(model, tokenizer, texts, *rest))
    long = ("a dog runs, and a cat sleeps", "ein hund rennt, und eine katze schläft")
    src, ref = write_pairs(tmp_path, "valid", [*calibration_pairs(), long])
    code, out, _ = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 0 and "fitted on 122 sentences" in out
    assert long[0] not in given and {"a dog runs,", "and a cat sleeps"} <= set(given)


def test_calibrate_reads_a_line_of_several_sentences_sentence_by_sentence_as_translate_and_score_do(
        trained_copy, tmp_path, capsys, monkeypatch):
    """translate gives the model "the boy laughs." and "a bird sings." apart, and score reads the line's
    translation sentence by sentence; calibrate gave the model the line whole and fitted quality on the
    two sentences as one.  A line whose reference has another number of sentences stays whole, as score
    reads such a line whole."""
    from attnmt.decoding import calibration

    given: list[str] = []
    translate = calibration.translate
    monkeypatch.setattr(calibration, "translate", lambda model, tokenizer, texts, *rest: given.extend(texts)
                        or translate(model, tokenizer, texts, *rest))
    two = ("the boy laughs. a bird sings.", "der junge lacht. ein vogel singt.")
    uneven = ("a dog runs. a cat sleeps.", "ein hund rennt und eine katze schläft")
    src, ref = write_pairs(tmp_path, "valid", [*calibration_pairs(), two, uneven])
    code, out, _ = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 0 and "fitted on 123 sentences" in out
    assert two[0] not in given and {"the boy laughs.", "a bird sings.", uneven[0]} <= set(given)
    code, _, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref, "--no-split"], capsys)
    assert code == 0, err
    assert two[0] in given


def test_calibrate_leaves_out_a_pair_translate_passes_through_without_the_model(trained_copy, tmp_path, capsys,
                                                                                monkeypatch):
    """translate passes "12345" and a URL through untranslated, and score gives them quality 1 without
    the model (attnmt.decoding.unread.copy_assessment); calibrate gave the model them and fitted quality on what it
    wrote, on pairs no translation is ever rated by."""
    from attnmt.decoding import calibration

    given: list[str] = []
    translate = calibration.translate
    monkeypatch.setattr(calibration, "translate", lambda model, tokenizer, texts, *rest: given.extend(texts)
                        or translate(model, tokenizer, texts, *rest))
    passed = [("12345", "12345"), ("https://example.com/docs", "https://example.com/docs"), ("!!!", "!!!")]
    src, ref = write_pairs(tmp_path, "valid", [*calibration_pairs(), *passed])
    code, out, err = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref], capsys)
    assert code == 0, err
    assert "fitted on 120 sentences" in out and not {s for s, _ in passed} & set(given)


def test_score_reads_a_text_against_the_models_own_translation_unless_told_not_to(calibrated, tmp_path, capsys):
    from attnmt.decoding.calibration import load_calibration
    from attnmt.decoding.elsewhere import assess_elsewhere
    from attnmt.decoding.quality import assess
    from attnmt.fast.prepared import load_packed

    trained_copy, code, out = calibrated
    assert code == 0 and "read by the fit for texts written elsewhere (attnmt score)" in out
    rows = [("a dog runs", "ein hund rennt"), ("a dog runs", "der junge lacht"), ("the boy laughs", "der junge")]
    pairs, hyp = write_pairs(tmp_path, "x", rows)
    scored = {}
    for how in ([], ["--no-search"]):
        code, out, _ = run_cli(["score", "--model", trained_copy, "--src", pairs, "--hyp", hyp, *how], capsys)
        assert code == 0
        scored[bool(how)] = [json.loads(line)["quality"] for line in out.splitlines()]
    fast, tokenizer = load_packed(trained_copy)  # the copy score runs
    calibration, sources, texts = load_calibration(trained_copy), [s for s, _ in rows], [t for _, t in rows]
    assert calibration.elsewhere is not None
    assert scored[False] == pytest.approx([a.quality for a in assess_elsewhere(fast, tokenizer, sources, texts,
                                                                               calibration)], abs=1e-3)
    assert scored[True] == pytest.approx([a.quality for a in assess(fast, tokenizer, sources, texts, calibration)],
                                         abs=1e-3)


def test_score_refuses_a_calibration_of_other_weights_in_one_line(calibrated, tmp_path, capsys):
    trained_copy, code, _ = calibrated
    assert code == 0
    # other weights: a checkpoint's (a byte added to the file's end made it no weights file at all)
    (trained_copy / "model.safetensors").write_bytes(a_checkpoint(trained_copy).read_bytes())
    pairs, hyp = write_pairs(tmp_path, "x", [("a dog runs", "ein hund rennt")])
    code, _, err = run_cli(["score", "--model", trained_copy, "--src", pairs, "--hyp", hyp], capsys)
    assert code == 2 and err.count("\n") == 1 and "was fitted for other weights" in err


def test_translate_jsonl_hypotheses_carry_quality_and_flags(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n\nthe boy laughs. a cat sleeps\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "jsonl", "--beam", "2",
                            "--n-best", "2", source], capsys)
    first, blank, split = map(json.loads, out.splitlines())
    assert code == 0
    assert [set(h) >= {"quality", "flags", "calibrated"} for h in first["hypotheses"]] == [True, True]
    assert first["hypotheses"][0]["flags"] == [] and first["hypotheses"][0]["quality"] > 0.8
    assert blank["hypotheses"] == []
    assert split["hypotheses"][0]["text"] == "der junge lacht eine katze schläft"  # two sentences, each assessed
    assert split["hypotheses"][0]["flags"] == []  # the tiny vocabulary lacks ".", punctuation alone: no unknown


def translated_then_scored(model, tmp_path, capsys, lines) -> tuple[list[dict], list[dict]]:
    """Each line's best hypothesis from ``translate --output-format jsonl``, and ``score``'s JSONL of the
    same pairs; both commands must succeed."""
    source = tmp_path / "in.txt"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", model, "--output-format", "jsonl", source], capsys)
    assert code == 0
    best = [json.loads(line)["hypotheses"][0] for line in out.splitlines()]
    src, hyp = write_pairs(tmp_path, "x", [(s, h["text"]) for s, h in zip(lines, best, strict=True)])
    code, out, _ = run_cli(["score", "--model", model, "--src", src, "--hyp", hyp], capsys)
    assert code == 0
    return best, [json.loads(line) for line in out.splitlines()]


def test_translate_jsonl_quality_is_what_score_gives_the_same_pairs(trained_model, tmp_path, capsys):
    lines = ["a dog runs", "...", "2 + 2", "zebra quantum xylophone"]  # one sentence each, or none
    best, scored = translated_then_scored(trained_model, tmp_path, capsys, lines)
    assert best[1]["text"] == "..." and best[2]["text"] == "2 + 2"  # no words: passed through, a copy
    assert [(h["quality"], h["flags"]) for h in best[1:3]] == [(1.0, [])] * 2
    assert [h["flags"] for h in best] == [s["flags"] for s in scored]
    assert [h["quality"] for h in best] == pytest.approx([s["quality"] for s in scored], abs=1.5e-4)
    assert all(h["calibrated"] is False for h in best)


def test_score_reads_a_line_of_sentences_and_urls_as_translate_assessed_it(trained_model, tmp_path, capsys):
    lines = ["the boy laughs\ta cat sleeps", "a dog runs to www.example.com"]  # two sentences (no "." known); a URL
    best, scored = translated_then_scored(trained_model, tmp_path, capsys, lines)
    assert "www.example.com" in best[1]["text"]
    assert [h["flags"] for h in best] == [s["flags"] for s in scored]
    assert [h["quality"] for h in best] == pytest.approx([s["quality"] for s in scored], abs=1.5e-4)


def test_score_flags_a_url_dropped_or_added_and_a_number_changed_verbatim(trained_model, tmp_path, capsys):
    """The sentences the model reads have their URLs taken out, so that a URL dropped or added was
    never compared: the line is read whole for it (quality.verbatim)."""
    lines = [("a dog runs to http://example.com/park now.", "ein hund rennt jetzt."),
             ("a dog runs.", "ein hund rennt. http://evil.example/x"), ("3 dogs run", "5 hunde rennen"),
             ("a dog runs to http://example.com/park now.", "ein hund rennt zu http://example.com/park jetzt.")]
    src, hyp = write_pairs(tmp_path, "x", lines)
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--output-format", "tsv"],
                           capsys)
    assert code == 0
    assert ["verbatim" in row.split("\t")[2] for row in out.splitlines()] == [True, True, True, False]


def test_translate_tsv_rows_end_with_quality_and_flags(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "tsv", "--no-split", source],
                           capsys)
    row = out.rstrip("\n").split("\t")
    assert code == 0
    assert row[4] == "ein hund rennt" and 0.8 < float(row[5]) <= 1.0 and row[6] == "-"


def test_translate_tsv_writes_quality_with_four_decimals_as_score_does(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("12345\na dog runs\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "tsv", source], capsys)
    copied, translated = (row.split("\t")[5] for row in out.splitlines())
    assert code == 0
    assert copied == "1.0000" and len(translated.split(".")[1]) == 4  # a line passed through: quality 1


def test_a_line_of_invisible_characters_passed_through_has_quality_1_in_every_output(trained_model, tmp_path,
                                                                                      capsys):
    """The model reads a left-to-right mark alone as no piece: its row had no quality and flags
    (5 columns, and evaluate refused translate's own file), its JSONL hypothesis none either."""
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n\u200e\n", encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", trained_model, "--output-format", "tsv", source], capsys)
    assert code == 0, err
    assert out.splitlines()[1].split("\t") == ["2", "1", "0.0000", "0.0000", "\u200e", "1.0000", "-"]
    (tmp_path / "out.tsv").write_text(out, encoding="utf-8")
    code, _, err = run_cli(["evaluate", "--hyp", tmp_path / "out.tsv", "--ref", source], capsys)
    assert code == 0, err
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text('{"text": "\\u200b"}\n', encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", trained_model, "--input-format", "jsonl", "--output-format",
                              "jsonl", jsonl], capsys)
    assert code == 0, err
    [hypothesis] = json.loads(out)["hypotheses"]
    assert hypothesis == {"text": "\u200b", "score": 0, "log_prob": 0, "quality": 1.0, "flags": [],
                          "calibrated": False}


@pytest.mark.parametrize("threshold", ["0", "-1", "100.5"])
def test_calibrate_refuses_a_chrf_threshold_outside_0_to_100(trained_copy, tmp_path, capsys, threshold):
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    with pytest.raises(SystemExit) as stop:
        run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref, "--chrf-threshold", threshold],
                capsys)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and not (trained_copy / CALIBRATION).exists()
    assert err.endswith(f"argument --chrf-threshold: a chrF threshold is above 0 and at most 100 (sentence chrF "
                        f"runs from 0 to 100), got '{threshold}'\n")


def test_calibrate_keeps_the_chrf_threshold_given(trained_copy, tmp_path, capsys):
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    code, out, _ = run_cli(["calibrate", "--model", trained_copy, "--src", src, "--ref", ref, "--beam", "1",
                            "--chrf-threshold", "100"], capsys)
    assert code == 0 and out.startswith("quality: P(sentence chrF >= 100)")
    assert json.loads((trained_copy / CALIBRATION).read_text())["chrf_threshold"] == 100


def test_calibrate_reads_the_validation_set_of_the_training_config(trained_copy, capsys):
    code, _, err = run_cli(["calibrate", "--model", trained_copy], capsys)
    assert code == 2 and "20 sentences to calibrate on" in err  # the tiny config validates on its 20 pairs


def test_calibrate_fits_on_the_validation_pairs_the_run_scored(trained_copy, tmp_path, capsys, monkeypatch):
    """Without --src and --ref it fitted on every line of the run's validation set, a pair over max_len
    too, where training's calibration at the run's end leaves it out: the same weights were calibrated
    otherwise by each."""
    from attnmt.decoding import calibration

    long = " ".join(["a dog runs"] * 12)  # 36 words: over the run's max_len
    relative_validation_set(trained_copy, tmp_path / "a", monkeypatch, [*PAIRS, (long, "ein hund rennt")])
    fitted = []

    def too_few(model, tokenizer, folder, sources, references, *rest):
        fitted.append(list(zip(sources, references, strict=True)))
        raise DataError("too few sentences")

    monkeypatch.setattr(calibration, "calibrate", too_few)
    code, out, err = run_cli(["calibrate", "--model", trained_copy], capsys)
    assert (code, err, fitted) == (2, "attnmt: error: too few sentences\n", [PAIRS])
    max_len = load_config(trained_copy / "train.yaml").max_len
    started = tmp_path / "a"
    assert out == (f"validation set {started / 'va.src'}, {started / 'va.tgt'}: 20 of 21 pairs scored (0 with an "
                   f"empty side, 1 longer than max_len {max_len})\n")


def a_checkpoint(model_dir):
    """The weights of the model's first checkpoint: other weights than model.safetensors."""
    weights = sorted((model_dir / "checkpoints").iterdir())[0] / "model.safetensors"
    assert weights.read_bytes() != (model_dir / "model.safetensors").read_bytes()
    return weights


def test_translate_with_weights_uses_only_a_calibration_fitted_on_them(trained_copy, capsys):
    weights = a_checkpoint(trained_copy)
    source = trained_copy / "in.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    write_calibration(trained_copy)  # fitted on model.safetensors: refused for the checkpoint
    code, _, err = run_cli(["translate", "--model", trained_copy, "--weights", weights, "--output-format", "jsonl",
                            source], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "was fitted for other weights" in err and f"--weights {weights} (which replaces the file)" in err
    write_calibration(trained_copy, weights)
    code, out, _ = run_cli(["translate", "--model", trained_copy, "--weights", weights, "--output-format", "jsonl",
                            source], capsys)
    assert code == 0 and json.loads(out)["hypotheses"][0]["calibrated"] is True
    code, _, err = run_cli(["translate", "--model", trained_copy, "--output-format", "jsonl", source], capsys)
    assert code == 2 and "was fitted for other weights" in err  # and on the checkpoint's, for model.safetensors


@pytest.mark.parametrize("command", ["serve", "score"])
def test_weights_that_are_no_weights_file_are_named_not_the_calibration(command, trained_copy, tmp_path, capsys):
    """serve and score read quality.json before the model: its check digested config.json as other
    weights, and the error blamed the calibration ("was fitted for other weights: run attnmt calibrate")."""
    src, hyp = write_pairs(tmp_path, "x", PAIRS[:1])
    write_calibration(trained_copy)
    weights = trained_copy / "config.json"
    rest = {"serve": ["--port", "0"], "score": ["--src", src, "--hyp", hyp]}[command]
    code, _, err = run_cli([command, "--model", trained_copy, "--weights", weights, *rest], capsys)
    assert code == 2 and err.count("\n") == 1 and f"{weights}: cannot load weights (" in err


def test_calibrate_with_weights_stores_the_fingerprint_of_those_weights(trained_copy, tmp_path, capsys):
    from attnmt.files import file_digest

    weights = a_checkpoint(trained_copy)
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    code, _, _ = run_cli(["calibrate", "--model", trained_copy, "--weights", weights, "--beam", "1", "--src", src,
                          "--ref", ref], capsys)
    assert code == 0
    assert json.loads((trained_copy / CALIBRATION).read_text())["model_sha256"] == file_digest(weights)


def test_serve_with_weights_refuses_a_calibration_fitted_on_model_safetensors(trained_copy, capsys):
    weights = a_checkpoint(trained_copy)
    write_calibration(trained_copy)
    code, _, err = run_cli(["serve", "--model", trained_copy, "--weights", weights, "--port", "0"], capsys)
    assert code == 2 and err.count("\n") == 1 and f"--weights {weights} (which replaces the file)" in err


@pytest.mark.parametrize("line", ["https://example.com/docs/page", "info@example.com"])
def test_a_line_that_is_only_a_url_or_an_address_has_quality_one_in_translate_and_score(trained_model, tmp_path,
                                                                                       capsys, line):
    """Passed through as it is, as a line with no letter is (the server's answers agree); read whole
    by the model, it was rated 0, copied and low_quality."""
    source = tmp_path / "in.txt"
    source.write_text(f"{line}\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "tsv", source], capsys)
    assert code == 0 and out.rstrip("\n").split("\t")[4:] == [line, "1.0000", "-"]
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", source, "--hyp", source], capsys)
    scored = json.loads(out)
    assert code == 0 and (scored["quality"], scored["flags"]) == (1.0, [])


def test_score_flags_a_translation_not_in_the_target_language(trained_model, tmp_path, capsys):
    """An English paraphrase given as the German translation had no flag: it copies too few of the
    source's words for ``copied``.  --target-lang names the language (else the model's, where its training
    files name it); the splitter's default, en, is no language the translations are said to be in."""
    src, hyp = write_pairs(tmp_path, "x", [("a man rides a bike", "the man is riding on his bike with a friend"),
                                           ("a man rides a bike", "ein mann fährt ein fahrrad")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--no-search",
                            "--target-lang", "de"], capsys)
    english, german = (json.loads(line)["flags"] for line in out.splitlines())
    assert code == 0 and "language" in english and "language" not in german
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--no-search"], capsys)
    assert code == 0 and not any("language" in json.loads(line)["flags"] for line in out.splitlines())


def test_score_flags_a_dropped_negation(trained_model, tmp_path, capsys):
    """`Der Hund schläft.` for `The dog does not sleep.` read as fluent German, with no flag."""
    src, hyp = write_pairs(tmp_path, "x", [("the dog does not sleep", "der hund schläft"),
                                           ("the dog does not sleep", "der hund schläft nicht")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--no-search",
                            "--source-lang", "en", "--target-lang", "de"], capsys)
    dropped, kept = (json.loads(line)["flags"] for line in out.splitlines())
    assert code == 0 and "negation" in dropped and "negation" not in kept


def test_score_reads_the_language_of_a_line_of_short_sentences_whole(trained_model, tmp_path, capsys):
    """Each of `The dog runs.`, `The cat sleeps.`, `The man reads.` is too short to judge alone; the
    line, three English sentences given as the German translation, is not."""
    src, hyp = write_pairs(tmp_path, "x", [("A dog runs. A cat sleeps. A man reads.",
                                            "The dog runs. The cat sleeps. The man reads."),
                                           ("A dog runs. A cat sleeps. A man reads.",
                                            "Ein Hund rennt. Eine Katze schläft. Ein Mann liest.")])
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", src, "--hyp", hyp, "--no-search",
                            "--target-lang", "de"], capsys)
    english, german = (json.loads(line)["flags"] for line in out.splitlines())
    assert code == 0 and "language" in english and "language" not in german


def test_translate_flags_its_output_not_in_the_target_language_asked_for(trained_model, tmp_path, capsys):
    """translate's assessments read --target-lang: the model writes German, which is no English; a line of
    two sentences is read whole (``read_whole``), where each sentence alone is too short to judge."""
    source = tmp_path / "in.txt"
    source.write_text("a woman reads a book. a man rides a bike.\n", encoding="utf-8")
    flags = {}
    for target in ("de", "en"):
        code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "jsonl", "--target-lang",
                                target, source], capsys)
        assert code == 0
        flags[target] = json.loads(out)["hypotheses"][0]["flags"]
    assert "language" not in flags["de"] and "language" in flags["en"]
