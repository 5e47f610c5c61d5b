"""An empty translation of a source with text, wherever translations are given out with their
quality: quality 0 and the flags empty and low_quality, as ``attnmt score`` gives it
(attnmt.decoding.quality.empty_translation)."""

import json

from support import run_cli

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.quality import Assessor
from attnmt.documents.paragraphs import translate_texts_n_best
from attnmt.documents.pipeline import DocumentOptions

NO_ROOM = ["--max-len-a", "0", "--max-len-b", "0"]  # no output token: every translation is empty
EMPTY = {"quality": 0.0, "flags": ["empty", "low_quality"], "calibrated": False}


def translated(model, tmp_path, capsys, text: str, *options) -> str:
    """``attnmt translate``'s output of ``text`` (an input file) with no room for a translation."""
    source = tmp_path / "in.txt"
    source.write_text(text, encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", model, *NO_ROOM, *options, source], capsys)
    assert code == 0, err
    return out


def test_translate_tsv_gives_an_empty_translation_every_column(trained_model, tmp_path, capsys):
    """Its row had 5 columns where a translated line's has 7, and evaluate refused translate's own file."""
    out = translated(trained_model, tmp_path, capsys, "a dog runs\n12345\n", "--output-format", "tsv")
    rows = [row.split("\t") for row in out.splitlines()]
    assert rows[0][4:] == ["", "0.0000", "empty,low_quality"]
    assert rows[1][4:] == ["12345", "1.0000", "-"]  # no letter: passed through, 7 columns as it always had
    (tmp_path / "out.tsv").write_text(out, encoding="utf-8")
    (tmp_path / "ref.txt").write_text("ein hund rennt\n12345\n", encoding="utf-8")
    code, _, err = run_cli(["evaluate", "--hyp", tmp_path / "out.tsv", "--ref", tmp_path / "ref.txt"], capsys)
    assert code == 0, err


def test_translate_jsonl_gives_an_empty_translation_quality_flags_and_calibrated(trained_model, tmp_path, capsys):
    """Text lines (split into sentences) and JSONL lines (each one sentence) alike."""
    lines = translated(trained_model, tmp_path, capsys, "a dog runs\n", "--output-format", "jsonl")
    jsonl = translated(trained_model, tmp_path, capsys, '{"text": "a dog runs"}\n', "--input-format", "jsonl",
                       "--output-format", "jsonl")
    for out in (lines, jsonl):
        hypothesis = json.loads(out)["hypotheses"][0]
        assert hypothesis["text"] == "" and {key: hypothesis[key] for key in EMPTY} == EMPTY


def test_a_line_whose_sentences_all_come_back_empty_is_empty(trained_model, tmp_path, capsys):
    """It came out as the space between its two sentences, " "."""
    out = translated(trained_model, tmp_path, capsys, "the boy laughs. a cat sleeps\n", "--output-format", "jsonl")
    hypothesis = json.loads(out)["hypotheses"][0]
    assert hypothesis["text"] == "" and hypothesis["flags"] == EMPTY["flags"]
    assert translated(trained_model, tmp_path, capsys, "the boy laughs. a cat sleeps\n") == "\n"


def test_below_min_quality_an_empty_translation_is_marked_or_its_source_written(trained_model, tmp_path, capsys):
    """It has a quality now, 0: under any threshold above 0, as a low one is."""
    marked = translated(trained_model, tmp_path, capsys, '{"text": "a dog runs"}\n', "--input-format", "jsonl",
                        "--min-quality", "0.5", "--below-quality", "mark")
    source = translated(trained_model, tmp_path, capsys, '{"text": "a dog runs"}\n', "--input-format", "jsonl",
                        "--min-quality", "0.5", "--below-quality", "source")
    assert (marked, source) == ("[needs review]\n", "a dog runs\n")  # "[needs review] ", before


def test_at_min_quality_0_an_empty_translation_is_still_below_in_every_output(trained_model, tmp_path, capsys):
    """As a review lists it at any threshold: text output wrote the source, tsv kept it empty, before."""
    options = ("--min-quality", "0", "--below-quality", "source")
    text = translated(trained_model, tmp_path, capsys, "a dog runs\n", *options)
    tsv = translated(trained_model, tmp_path, capsys, "a dog runs\n", *options, "--output-format", "tsv")
    marked = translated(trained_model, tmp_path, capsys, "a dog runs\n", "--min-quality", "0", "--below-quality",
                        "mark")
    assert (text, marked) == ("a dog runs\n", "[needs review]\n")
    assert tsv.split("\t")[4:] == ["a dog runs", "0.0000", "empty\n"]


def test_the_servers_quality_of_an_empty_translation_is_0(trained_model):
    """/v1/translate's return_quality and hypotheses (translate_texts_n_best with an Assessor)."""
    model, tokenizer = load_model_dir(trained_model)
    found = translate_texts_n_best(model, tokenizer, ["a dog runs. a cat sleeps", "12345"],
                                   Decoding(max_len_a=0, max_len_b=0), DocumentOptions(), quality=Assessor())
    empty, passed = (paragraph.hypotheses[0] for paragraph in found)
    assert (empty.text, empty.quality, empty.flags) == ("", 0.0, ["empty", "low_quality"])
    assert [a.fields() for a in found[0].sentence_assessments(0)] == [EMPTY] * 2
    assert (passed.quality, passed.flags) == (1.0, [])


def test_at_min_quality_0_an_empty_translation_is_flagged_empty_alone(trained_model):
    """low_quality is a quality under the threshold, and 0 is not under 0."""
    model, tokenizer = load_model_dir(trained_model)
    found = Assessor(threshold=0.0).assess(model, tokenizer, ["a dog runs", ""], ["", ""])
    assert found[0].flags == ["empty"] and found[1] is None  # a blank pair: nothing to assess
