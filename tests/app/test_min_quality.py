"""attnmt translate --min-quality and --below-quality end to end: a line whose translation's
quality is under the threshold is written marked, or as its source; a line with no letter, whose
quality is 1, never is; a threshold over 1, or one that text output would do nothing with, is
refused; without --min-quality the calibration's threshold is taken."""

import pytest
from support import UNKNOWN, calibrated_apart, known_apart, run_cli, write_calibration


def test_below_min_quality_the_source_or_a_mark_is_written(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    # Uncalibrated, the memorising model is surer of a pair it knows than of words it never saw.
    source.write_text(f"a dog runs\n{UNKNOWN}\n", encoding="utf-8")
    outputs = {}
    threshold = ["--min-quality", str(known_apart(str(trained_model)))]
    for below, given in (("keep", []), ("mark", threshold), ("source", threshold)):
        code, out, _ = run_cli(["translate", "--model", trained_model, *given, "--below-quality", below, source],
                               capsys)
        assert code == 0
        outputs[below] = out.splitlines()
    kept = outputs["keep"][1]
    assert outputs["keep"][0] == outputs["mark"][0] == outputs["source"][0] == "ein hund rennt"
    assert outputs["mark"][1] == "[needs review] " + kept
    assert outputs["source"][1] == UNKNOWN


@pytest.mark.parametrize("input_format", ["text", "jsonl"])
def test_min_quality_on_text_output_with_below_quality_keep_is_refused_as_on_a_document(trained_model, capsys,
                                                                                        input_format):
    code, _, err = run_cli(["translate", "--model", trained_model, "--input-format", input_format,
                            "--min-quality", "0.95"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--min-quality with text output and --below-quality keep (the default) would do nothing" in err


def test_a_line_with_no_letter_passes_through_unmarked_under_any_min_quality(trained_model, tmp_path, capsys):
    source = tmp_path / "in.txt"
    source.write_text("12345\n!!!\na dog runs. 12345\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, "--min-quality", "1", "--below-quality", "mark",
                            source], capsys)
    assert code == 0  # quality 1 is under no threshold; a translation's is under 1
    assert out.splitlines() == ["12345", "!!!", "[needs review] ein hund rennt 12345"]


@pytest.mark.parametrize("given", ["1.5", "-0.1", "inf", "1e400", "nan", "high"])
def test_min_quality_outside_zero_to_one_is_refused_with_its_range(trained_model, capsys, given):
    with pytest.raises(SystemExit):
        run_cli(["translate", "--model", trained_model, "--min-quality", given], capsys)
    assert f"a quality is from 0 to 1, got '{given}'" in capsys.readouterr().err


@pytest.mark.parametrize("below", ["mark", "source"])
def test_below_quality_without_min_quality_takes_the_calibrations_threshold(trained_copy, capsys, below):
    write_calibration(trained_copy, threshold=calibrated_apart(trained_copy))
    source = trained_copy / "in.txt"
    source.write_text(f"a dog runs\n{UNKNOWN}\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_copy, "--below-quality", below, source], capsys)
    known, unknown = out.splitlines()
    assert code == 0 and known == "ein hund rennt"
    assert unknown.startswith("[needs review] ") if below == "mark" else unknown == UNKNOWN


@pytest.mark.parametrize("input_format, line", [("text", "a dog runs"), ("jsonl", '{"text": "a dog runs"}')])
def test_a_marked_translation_is_aligned_past_the_marks_words(trained_model, tmp_path, capsys, input_format, line):
    """The translation's words came numbered from 0, the mark's two words taken for its first two
    (text), or the model's attention over the mark aligned them to source words (JSONL)."""
    source = tmp_path / "in.txt"
    source.write_text(line + "\n", encoding="utf-8")
    translate = ["translate", "--model", trained_model, "--alignments", "--input-format", input_format, source]
    code, out, _ = run_cli(translate, capsys)
    kept, kept_pairs = out.rstrip("\n").split(" ||| ")
    assert code == 0 and kept_pairs
    code, out, _ = run_cli([*translate, "--min-quality", "1", "--below-quality", "mark"], capsys)
    shifted = " ".join(f"{s}-{int(t) + 2}" for s, t in (pair.split("-") for pair in kept_pairs.split()))
    assert code == 0 and out == f"[needs review] {kept} ||| {shifted}\n"


def test_score_flags_low_quality_under_its_min_quality_as_translate_does(trained_model, tmp_path, capsys):
    src, hyp = tmp_path / "src.txt", tmp_path / "hyp.txt"
    src.write_text("a dog runs\n", encoding="utf-8")
    hyp.write_text("ein hund rennt\n", encoding="utf-8")
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", str(src), "--hyp", str(hyp)], capsys)
    assert code == 0 and "low_quality" not in out  # the pair the model knows is over 0.5
    code, out, _ = run_cli(["score", "--model", trained_model, "--src", str(src), "--hyp", str(hyp),
                            "--min-quality", "1"], capsys)
    assert code == 0 and '"low_quality"' in out


@pytest.mark.parametrize("given", ["1.5", "-0.1", "nan", "high"])
def test_score_refuses_a_min_quality_outside_zero_to_one_as_translate_does(trained_model, tmp_path, capsys, given):
    with pytest.raises(SystemExit):
        run_cli(["score", "--model", trained_model, "--src", "a", "--hyp", "b", "--min-quality", given], capsys)
    assert f"a quality is from 0 to 1, got '{given}'" in capsys.readouterr().err


def test_score_reads_the_mark_translate_wrote_as_no_word_of_the_translation(trained_model, tmp_path, capsys):
    src, hyp, marked = tmp_path / "src.txt", tmp_path / "hyp.txt", tmp_path / "marked.txt"
    src.write_text("a dog runs\na cat sleeps\n", encoding="utf-8")
    hyp.write_text("ein hund rennt\n\n", encoding="utf-8")
    marked.write_text("[needs review] ein hund rennt\n[needs review]\n", encoding="utf-8")
    scored = [run_cli(["score", "--model", trained_model, "--src", str(src), "--hyp", str(h), "--output-format",
                       "tsv"], capsys) for h in (hyp, marked)]
    assert scored[0][0] == scored[1][0] == 0 and scored[1][1] == scored[0][1]
    assert "\tein hund rennt" in scored[1][1] and "needs review" not in scored[1][1]
