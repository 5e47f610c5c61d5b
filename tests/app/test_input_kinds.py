"""Which kind of input ``attnmt translate`` reads a file as: where --input-format is left out, the
one its extension names (attnmt.cli.document_options.chosen_input_format); where it is given, that
one, whatever the extension.  End to end on the tiny model."""

import argparse
import gzip

import pytest
from support import run_cli

from attnmt.cli.document_options import chosen_input_format, office_suffix
from attnmt.documents.files import supported_suffixes

run = run_cli


@pytest.mark.parametrize("name", ["in.jsonl", "in.JSONL", "in.jsonl.gz", "in.en.jsonl"])
def test_a_file_named_jsonl_is_jsonl_input(name):
    assert chosen_input_format(argparse.Namespace(input_format=None, input=name)) == "jsonl"


@pytest.mark.parametrize("name", [None, "-", "in.txt", "in.jsonl.txt", "jsonl"])
def test_stdin_and_a_file_not_named_jsonl_are_text(name):
    assert chosen_input_format(argparse.Namespace(input_format=None, input=name)) == "text"


@pytest.mark.parametrize("name", ["talk.vtt", "talk.webvtt", "talk.webvtt.gz"])
def test_a_file_named_vtt_or_webvtt_is_webvtt_input(name):
    """A .webvtt, as some players and tools name WebVTT, was read as lines of text, timings and all."""
    assert chosen_input_format(argparse.Namespace(input_format=None, input=name)) == "vtt"


def test_an_explicit_input_format_wins_over_jsonl_in_the_name():
    assert chosen_input_format(argparse.Namespace(input_format="text", input="in.jsonl")) == "text"


def test_a_jsonl_file_is_translated_as_jsonl_input_without_input_format(trained_model, tmp_path, capsys):
    """Each line's "text" is translated, written as text as --input-format jsonl writes it; read
    as text, the JSON syntax went to the model with it."""
    source = tmp_path / "in.jsonl"
    source.write_text('{"text": "a dog runs"}\n{"text": "the boy laughs"}\n', encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and out == "ein hund rennt\nder junge lacht\n"


def test_a_compressed_jsonl_file_is_jsonl_input_too(trained_model, tmp_path, capsys):
    source = tmp_path / "in.jsonl.gz"
    source.write_bytes(gzip.compress(b'{"text": "a dog runs"}\n'))
    code, out, _ = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and out == "ein hund rennt\n"


def test_review_on_a_file_read_as_jsonl_by_its_name_names_the_file_and_the_way_out(trained_model, tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    source.write_text('{"text": "a dog runs"}\n', encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--review", tmp_path / "r.tsv", source,
                        tmp_path / "out.txt"], capsys)
    assert code == 2 and err.strip() == (f"attnmt: error: --review lists the sentences of a document or of plain "
                                         f"text: {source} is read as JSONL (its extension; --input-format text "
                                         "reads it as lines)")


def test_a_text_file_read_as_jsonl_by_its_name_is_told_how_to_read_it_as_text(trained_model, tmp_path, capsys):
    """It was "x.jsonl:1: not valid JSON (Expecting value at character 0)" alone: nothing said that
    its name chose JSONL, nor how to have its lines translated."""
    source = tmp_path / "x.jsonl"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, source], capsys)
    assert (code, out) == (2, "")
    assert err == (f"attnmt: error: {source}:1: not valid JSON (Expecting value at character 0); the file is read as "
                   "JSONL (its extension; --input-format text reads it as lines)\n")


def test_a_text_file_given_as_jsonl_is_refused_without_the_hint(trained_model, tmp_path, capsys):
    """Given --input-format jsonl, the user chose JSONL: the extension had no say."""
    source = tmp_path / "x.jsonl"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "jsonl", source], capsys)
    assert (code, err) == (2, f"attnmt: error: {source}:1: not valid JSON (Expecting value at character 0)\n")


@pytest.mark.parametrize(("name", "chosen", "office"), [("in.docx", "docx", ".docx"), ("in.DOCM", "docx", ".docm"),
                                                        ("in.fodt", "fodt", ".fodt"), ("in.docx.gz", "text", None)])
def test_an_office_extension_chooses_its_format_where_none_is_given(name, chosen, office):
    args = argparse.Namespace(input_format=None, input=name)
    args.input_format = chosen_input_format(args)
    assert (args.input_format, office_suffix(args)) == (chosen, office)


@pytest.mark.parametrize("suffix", supported_suffixes())
def test_an_extension_in_capitals_chooses_the_format_it_does_in_lower_case(suffix):
    """JOB.SDLXLIFF, REPORT.DOCX, PAGE.HTML.GZ: as Windows and CAT tools name files."""
    for name in (f"job{suffix}", f"job{suffix}.gz"):
        lower, upper = argparse.Namespace(input_format=None, input=name), argparse.Namespace(
            input_format=None, input=name.upper())
        lower.input_format, upper.input_format = chosen_input_format(lower), chosen_input_format(upper)
        assert (upper.input_format, office_suffix(upper)) == (lower.input_format, office_suffix(lower))


@pytest.mark.parametrize("name", ["in.docx", "in.docm", "in.fodt", "in.epub", "in.srt"])
def test_input_format_text_reads_a_file_named_as_a_document_as_lines(trained_model, tmp_path, capsys, name):
    """Given, --input-format text won over a subtitle extension, and an office one overrode it:
    stdout, a .txt output and a .docx output were each refused."""
    source = tmp_path / name
    source.write_text("a dog runs\nthe boy laughs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, source, "--input-format", "text"], capsys)
    assert code == 0 and out == "ein hund rennt\nder junge lacht\n"
    code, _, _ = run(["translate", "--model", trained_model, source, "--input-format", "text", tmp_path / "o.txt"],
                     capsys)
    assert code == 0 and (tmp_path / "o.txt").read_text(encoding="utf-8") == "ein hund rennt\nder junge lacht\n"


@pytest.mark.parametrize("name", ["in.docx", "in.srt", "in.odt"])
def test_input_format_html_reads_a_file_named_as_another_format_as_html(trained_model, tmp_path, capsys, name):
    source = tmp_path / name
    source.write_text("<p>a dog runs</p>\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, source, "--input-format", "html"], capsys)
    assert code == 0 and out == "<p>ein hund rennt</p>\n"


def test_an_output_named_as_an_office_file_under_input_format_text_is_refused_naming_the_format(
        trained_model, tmp_path, capsys):
    source = tmp_path / "plain.docx"
    source.write_text("a dog runs\n", encoding="utf-8")
    output = tmp_path / "o.docx"
    code, _, err = run(["translate", "--model", trained_model, source, "--input-format", "text", output], capsys)
    assert code == 2 and err.strip() == (f"attnmt: error: {output} names a .docx file, but the translation of "
                                         "--input-format text is a .txt file (attnmt does not convert formats): "
                                         "name it o.txt")
    assert not output.exists()
