"""What ``attnmt translate --below-quality source`` writes beside a source line it keeps in place of
a translation, end to end on the tiny model: the line's own word alignment (each word with
itself), no confidences, one row however many hypotheses were turned down; the quality, flags
and scores of the translation turned down, which say why.  --min-quality 1 turns down every
translation of a line with words."""

import json

import pytest
from support import run_cli

KEEP_SOURCE = ["--min-quality", "1", "--below-quality", "source"]


@pytest.mark.parametrize("input_format, line", [("text", "a dog runs"), ("jsonl", '{"text": "a dog runs"}')])
def test_a_kept_source_line_is_aligned_word_for_word(trained_model, tmp_path, capsys, input_format, line):
    """It came with the turned-down translation's alignment, or the model's attention over the copy."""
    source = tmp_path / "in.txt"
    source.write_text(line + "\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, *KEEP_SOURCE, "--alignments", "--input-format",
                            input_format, source], capsys)
    assert code == 0 and out == "a dog runs ||| 0-0 1-1 2-2\n"


@pytest.mark.parametrize("input_format, line", [("text", "a dog runs"), ("jsonl", '{"text": "a dog runs"}')])
def test_a_kept_source_line_in_jsonl_has_no_confidences_and_the_turned_down_quality(trained_model, tmp_path, capsys,
                                                                                   input_format, line):
    """It came with the German pieces' confidences (["▁ein", 0.9], ...) beside the English line."""
    source = tmp_path / "in.txt"
    source.write_text(line + "\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, *KEEP_SOURCE, "--alignments", "--confidence",
                            "--output-format", "jsonl", "--input-format", input_format, source], capsys)
    [hypothesis] = json.loads(out)["hypotheses"]
    assert code == 0 and hypothesis["text"] == "a dog runs"
    assert hypothesis["alignment"] == "0-0 1-1 2-2" and hypothesis["confidence"] == []
    # The quality of the translation turned down (written to 4 places, it may read 1.0 on a CPU whose
    # rounding takes the tiny model's score that close), and the flag that says why.
    code, out, _ = run_cli(["translate", "--model", trained_model, "--output-format", "jsonl", "--input-format",
                            input_format, source], capsys)
    [translated] = json.loads(out)["hypotheses"]
    assert code == 0 and translated["text"] != "a dog runs"
    assert hypothesis["quality"] == translated["quality"] and "low_quality" in hypothesis["flags"]


@pytest.mark.parametrize("input_format, line", [("text", "a dog runs"), ("jsonl", '{"text": "a dog runs"}')])
def test_n_best_hypotheses_turned_down_give_one_source_row(trained_model, tmp_path, capsys, input_format, line):
    """Three rows of the same source line came, each with another translation's score."""
    source = tmp_path / "in.txt"
    source.write_text(line + "\n\n" + line + "\n", encoding="utf-8")
    code, out, _ = run_cli(["translate", "--model", trained_model, *KEEP_SOURCE, "--beam", "3", "--n-best", "3",
                            "--output-format", "tsv", "--input-format", input_format, source], capsys)
    rows = [row.split("\t") for row in out.splitlines()]
    assert code == 0 and [(row[0], row[1], row[4], row[-1]) for row in rows] == [
        ("1", "1", "a dog runs", "low_quality"), ("3", "1", "a dog runs", "low_quality")]
