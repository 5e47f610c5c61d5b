"""``attnmt translate`` of plain text translates a hard-wrapped paragraph whole and fills its translation
again to its width (attnmt.documents.hard_wrap; docs/documents.md, Plain text): a file's, and stdin's
where it is read whole; a stream's lines, translated as they arrive, and --keep-lines keep their lines."""

import io
import os
import sys
from types import SimpleNamespace

import pytest
from support import run_cli, write

HALF = "A dog runs in the park while a cat sleeps on the sofa and two dogs"  # 66 columns: the width
WHOLE = f"{HALF} run away."
MAIL = f"Hi Anna,\n\n{HALF}\nrun away. A cat sleeps.\n\nTom\n"


def translated(trained_model, capsys, *arguments) -> list[str]:
    code, out, err = run_cli(["translate", "--model", trained_model, "--beam", "1", *arguments], capsys)
    assert code == 0, err
    return out.split("\n")


def test_a_wrapped_paragraph_of_a_file_reaches_the_model_whole_and_keeps_its_width(trained_model, tmp_path, capsys,
                                                                                   reached):
    lines = translated(trained_model, capsys, write(tmp_path / "mail.txt", MAIL))
    assert WHOLE in reached and HALF not in reached and "run away." not in reached
    blank = [k for k, line in enumerate(lines) if not line]
    assert blank[:2] == [1, len(lines) - 3] and lines[-1] == ""  # "Hi Anna,", the paragraph, "Tom"
    assert all(0 < len(line) <= len(HALF) for line in lines[2:blank[1]])


def test_keep_lines_translates_each_line_alone(trained_model, tmp_path, capsys, reached):
    lines = translated(trained_model, capsys, "--keep-lines", write(tmp_path / "mail.txt", MAIL))
    assert HALF in reached and WHOLE not in reached and len(lines) == MAIL.count("\n") + 1


def test_stdin_read_whole_is_joined_and_a_pipes_lines_as_they_arrive_are_not(trained_model, capsys, monkeypatch,
                                                                             reached):
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(MAIL.encode())))  # < mail.txt
    translated(trained_model, capsys)
    assert WHOLE in reached and HALF not in reached
    reached.clear()
    read, written = os.pipe()
    os.write(written, MAIL.encode())
    os.close(written)
    with os.fdopen(read, "rb") as pipe:  # cat mail.txt |: a paragraph may be cut between two reads
        monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=pipe))
        lines = translated(trained_model, capsys)
    assert HALF in reached and len(lines) == MAIL.count("\n") + 1


@pytest.mark.parametrize("input_format", ["jsonl", "html"])
def test_keep_lines_on_input_that_is_no_plain_text_is_refused_before_the_model_loads(tmp_path, capsys,
                                                                                   input_format):
    source = write(tmp_path / "in.txt", '{"text": "a dog runs"}\n')
    code, out, err = run_cli(["translate", "--model", "no-such-model", "--keep-lines", "--input-format", input_format,
                              source], capsys)
    assert (code, out) == (2, "")
    assert err == (f"attnmt: error: --keep-lines keeps the lines of plain text's paragraphs: {source} is read as "
                   f"{input_format}, so it would do nothing: leave it out\n")


@pytest.mark.parametrize("options, named", [
    (["--output-format", "jsonl"], "--output-format jsonl"),
    (["--output-format", "tsv", "--n-best", "2"], "--output-format tsv"),
    (["--alignments"], "--alignments"),
    (["--prefix", "Ein"], "--prefix"),
    (["--min-quality", "0.5", "--below-quality", "mark"], "--min-quality"),
])
def test_keep_lines_where_each_line_is_translated_alone_already_is_refused_before_the_model_loads(
        tmp_path, capsys, options, named):
    source = write(tmp_path / "mail.txt", MAIL)
    code, out, err = run_cli(["translate", "--model", "no-such-model", "--keep-lines", *options, source], capsys)
    assert (code, out) == (2, "")
    assert err == (f"attnmt: error: --keep-lines keeps the lines of plain text's paragraphs: with {named} each line "
                   "is translated alone already, so it would do nothing: leave it out\n")


def test_keep_lines_with_a_glossary_is_refused_and_with_a_review_taken(trained_model, tmp_path, capsys, reached):
    source, glossary = write(tmp_path / "mail.txt", MAIL), write(tmp_path / "terms.tsv", "dog\tHund\n")
    code, _, err = run_cli(["translate", "--model", trained_model, "--keep-lines", "--glossary", glossary, source],
                           capsys)
    assert code == 2 and "with --glossary each line is translated alone already" in err
    translated(trained_model, capsys, "--keep-lines", "--review", str(tmp_path / "review.tsv"), source)
    assert HALF in reached and WHOLE not in reached
