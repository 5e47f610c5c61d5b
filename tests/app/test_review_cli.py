"""``attnmt translate ... --review FILE``: the sentences of a document under a quality, each at its
place, end to end on the tiny model.  Uncalibrated, the memorising model is surer of a pair it
knows than of words it never saw: ``support.known_apart`` is a --min-quality between the two."""

import csv

import docx
import pytest
from support import UNKNOWN, calibrated_apart, known_apart, run_cli, write_calibration

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.documents.review import UNCALIBRATED


def table(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f, delimiter="\t"))


def word_file(path, *paragraphs: str) -> None:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    document.save(path)


def test_a_word_files_unknown_sentence_is_listed_at_its_paragraph(trained_model, tmp_path, capsys):
    source, output, review = tmp_path / "in.docx", tmp_path / "out.docx", tmp_path / "in.review.tsv"
    word_file(source, "a dog runs", UNKNOWN, "a cat sleeps")
    threshold = known_apart(str(trained_model))
    code, out, err = run_cli(["translate", "--model", trained_model, "--min-quality", str(threshold), "--review",
                              review, source, output], capsys)
    assert code == 0 and out == ""
    header, *rows = table(review)
    assert header == ["part", "paragraph", "quality", "flags", "source", "translation"]
    assert [row[:2] + row[4:5] for row in rows] == [["word/document.xml", "2", UNKNOWN]]
    assert float(rows[0][2]) < threshold and "low_quality" in rows[0][3].split(",")
    assert (f"1 of 3 sentences need review (1 with quality under {threshold:g} or empty, 0 flagged by a rule "
            f"alone): listed in {review}") in err
    assert [p.text for p in docx.Document(output).paragraphs][0] == "ein hund rennt"


def test_a_word_files_table_with_no_row_still_has_its_part_and_paragraph_columns(trained_model, tmp_path, capsys):
    source, output, review = tmp_path / "in.docx", tmp_path / "out.docx", tmp_path / "in.review.tsv"
    word_file(source, "a dog runs")
    code, _, err = run_cli(["translate", "--model", trained_model, "--review", review, source, output], capsys)
    assert code == 0 and "0 of 1 sentences need review" in err
    assert err.strip().endswith(f"; {UNCALIBRATED}")  # this tiny model has no calibration: said, as the server does
    assert table(review) == [["part", "paragraph", "quality", "flags", "source", "translation"]]


def test_below_the_quality_a_word_paragraph_keeps_its_source(trained_model, tmp_path, capsys):
    source, output = tmp_path / "in.docx", tmp_path / "out.docx"
    word_file(source, "a dog runs", UNKNOWN)
    code, _, _ = run_cli(["translate", "--model", trained_model, "--min-quality", str(known_apart(str(trained_model))),
                          "--below-quality", "source", source, output], capsys)
    assert code == 0 and [p.text for p in docx.Document(output).paragraphs] == ["ein hund rennt", UNKNOWN]


def test_below_the_calibrations_threshold_a_word_paragraph_keeps_its_source(trained_copy, tmp_path, capsys):
    source, output = tmp_path / "in.docx", tmp_path / "out.docx"
    word_file(source, "a dog runs", UNKNOWN)
    write_calibration(trained_copy, threshold=calibrated_apart(trained_copy))  # no --min-quality: its threshold
    code, _, _ = run_cli(["translate", "--model", trained_copy, "--below-quality", "source", source, output], capsys)
    assert code == 0 and [p.text for p in docx.Document(output).paragraphs] == ["ein hund rennt", UNKNOWN]


def test_subtitles_are_listed_by_line_all_at_one_and_at_zero_only_as_a_rule_flags_them(trained_model, tmp_path,
                                                                                       capsys):
    """The tiny vocabulary knows neither "." nor the "ñ" of "señor": the second sentence is flagged ``unknown``
    (its "señor"), at any quality; the full stops, punctuation alone, flag neither (every sentence was listed at 0
    for them).  A word of a script the vocabulary lacks, "東京", is kept as it is, unread: no ``unknown``."""
    source = tmp_path / "film.srt"
    source.write_text("1\n00:00:01,000 --> 00:00:02,000\na dog runs.\n\n2\n00:00:03,000 --> 00:00:04,000\n"
                      "the boy laughs señor.\n", encoding="utf-8")  # a sentence a cue
    for threshold, lines, flags, count in (("1", ["3", "7"], ["low_quality", "unknown,low_quality"], "2 of 2 sentences "
                                            "need review (2 with quality under 1 or empty, 0 flagged by a rule alone)"),
                                           ("0", ["7"], ["unknown"], "1 of 2 sentences need review (0 with quality "
                                            "under 0 or empty, 1 flagged by a rule alone)")):
        review = tmp_path / f"film.{threshold}.tsv"
        code, out, err = run_cli(["translate", "--model", trained_model, "--min-quality", threshold, "--review",
                                  review, source], capsys)
        header, *rows = table(review)
        assert code == 0 and "ein hund rennt" in out and header[0] == "line"
        assert [row[0] for row in rows] == lines and [row[2] for row in rows] == flags
        assert count in err


def test_html_and_plain_text_are_listed_by_line(trained_model, tmp_path, capsys):
    page, text = tmp_path / "page.html", tmp_path / "notes.txt"
    page.write_text(f"<!DOCTYPE html>\n<html><body>\n<p>a dog runs</p>\n<p>{UNKNOWN}</p>\n</body></html>\n",
                    encoding="utf-8")
    text.write_text(f"a dog runs\n\n{UNKNOWN}\n", encoding="utf-8")
    for source, kind, line in ((page, "html", "4"), (text, "text", "3")):
        review = tmp_path / "review.tsv"
        code, _, _ = run_cli(["translate", "--model", trained_model, "--input-format", kind, "--min-quality",
                              str(known_apart(str(trained_model))), "--review", review, source,
                              tmp_path / f"out{source.suffix}"], capsys)
        assert code == 0 and [row[0] for row in table(review)[1:]] == [line]
        assert table(review)[1][3] == UNKNOWN


def test_review_combinations_that_make_no_sense_get_one_line(trained_model, tmp_path, capsys):
    source, output = tmp_path / "in.docx", tmp_path / "out.docx"
    word_file(source, "a dog runs")
    (tmp_path / "folder").mkdir()
    cases = [
        (["--min-quality", "0.5"], "--min-quality on a .docx file sets which sentences --review FILE lists"),
        (["--review", tmp_path / "r.tsv", "--below-quality", "mark"], "--below-quality mark would write a mark into "
                                                                      "the text of a .docx file"),
        (["--review", output], f"the --review {output} is the output file: give it a file of its own "
                               "(report.review.tsv)"),
        (["--review", source], f"the --review {source} is the input file: give it a file of its own "
                               "(report.review.tsv)"),
        (["--review", tmp_path / "folder"], "is a folder: give the table a file name"),
        (["--review", tmp_path / "r.tsv", "--input-format", "jsonl"], "it does not take --input-format jsonl"),
    ]
    for extra, message in cases:
        code, _, err = run_cli(["translate", "--model", trained_model, *extra, source, output], capsys)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (extra, err)
    assert not output.exists() and not (tmp_path / "r.tsv").exists()


@pytest.mark.parametrize("suffix", [".txt", ".docx"])
def test_a_review_table_that_cannot_be_written_is_refused_before_the_translation(tmp_path, capsys, suffix):
    """It was found once the file was translated: a text file's translation was lost with it, an
    office file's written without a word said of it.  The model is never read: the check comes first."""
    source, output = tmp_path / f"in{suffix}", tmp_path / f"out{suffix}"
    source.write_bytes(b"a dog runs\n")
    (tmp_path / "notes").write_text("a file, not a folder", encoding="utf-8")
    review = tmp_path / "notes" / "r.tsv"
    code, _, err = run_cli(["translate", "--model", "no-such-model", "--review", str(review), str(source),
                            str(output)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"could not write {review}: {tmp_path / 'notes'} is a file, not a directory" in err
    assert not output.exists() and not any(tmp_path.glob(".*"))


def test_the_review_check_makes_no_folder_of_a_run_that_then_fails(tmp_path, capsys):
    """The check made the table's new folders, left behind by a run that wrote nothing."""
    source = tmp_path / "in.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    code, _, _ = run_cli(["translate", "--model", "no-such-model", "--review", str(tmp_path / "new" / "sub" / "r.tsv"),
                          str(source), str(tmp_path / "out.txt")], capsys)
    assert code == 2 and not (tmp_path / "new").exists()


def test_review_dash_is_refused_in_one_line_not_written_to_a_file_named_dash(trained_model, tmp_path, capsys,
                                                                           monkeypatch):
    """"-" is stdin or stdout wherever translate takes a file; --review - wrote a file named "-"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text("a dog runs\n", encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", trained_model, "--review", "-", "in.txt", "-"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--review - would write the table into a file named '-'" in err
    assert not (tmp_path / "-").exists()


def test_translate_file_fills_a_review_in_python(trained_model, tmp_path):
    from attnmt.documents import model_review, translate_file
    from attnmt.documents.flat import Place

    model, tokenizer = load_model_dir(trained_model)
    word_file(tmp_path / "in.docx", UNKNOWN, "a dog runs")
    review = model_review(model, tokenizer, min_quality=known_apart(str(trained_model)))
    translate_file(model, tokenizer, tmp_path / "in.docx", tmp_path / "out.docx", Decoding(beam_size=1), review=review)
    [segment] = review.segments
    assert segment.place == Place("word/document.xml", 1) and segment.source == UNKNOWN
    assert segment.quality < known_apart(str(trained_model))
    review.write(tmp_path / "in.review.tsv")
    assert table(tmp_path / "in.review.tsv")[1][:2] == ["word/document.xml", "1"]


@pytest.mark.parametrize("beam", [1, 4])
def test_a_review_taken_from_the_search_equals_one_by_a_pass_of_its_own(trained_model, monkeypatch, beam):
    """``attnmt translate --review`` assesses each sentence from the search that translated it
    (documents.review.reviewing); ``model_review`` runs a teacher-forced pass of its own
    (quality.assess, whose forced_passes).  Both list the same sentences with the same quality and flags."""
    from attnmt.decoding import quality
    from attnmt.documents.pipeline import translate_lines
    from attnmt.documents.review import model_review, reviewing
    from attnmt.documents.translators import ModelTranslator

    model, tokenizer = load_model_dir(trained_model)
    lines = ["a dog runs. the boy laughs.", UNKNOWN, "", "a cat sleeps. a dog runs.", "dog dog dog dog"]
    decoding = Decoding(beam_size=beam)
    by_pass = model_review(model, tokenizer, min_quality=1.0)  # a threshold of 1 lists every sentence
    expected = translate_lines(lines, ModelTranslator(model, tokenizer, decoding), review=by_pass)

    def no_second_pass(*args, **kwargs):
        raise AssertionError("a review taken from the search ran the whole teacher-forced pass")

    monkeypatch.setattr(quality, "forced_passes", no_second_pass)  # what quality.assess runs
    from_search = reviewing(translator := ModelTranslator(model, tokenizer, decoding), min_quality=1.0)
    assert translate_lines(lines, translator, review=from_search) == expected
    assert from_search.sentences == by_pass.sentences == 6 and translator.assessed == {}
    assert len(from_search.segments) == len(by_pass.segments) == 6
    for found, wanted in zip(from_search.segments, by_pass.segments, strict=True):
        assert (found.place, found.source, found.translation, found.flags) == \
            (wanted.place, wanted.source, wanted.translation, wanted.flags)
        assert found.quality == pytest.approx(wanted.quality, abs=1e-4)


def test_below_quality_source_keeps_the_source_of_a_lines_sentence_under_it_with_review_or_without(
        trained_model, tmp_path, capsys):
    """A line of two sentences and a threshold between their qualities: the one under it keeps its
    source text, the other its translation, as with --review; without it, the whole line was the
    source.  Which of the two the tiny model is surer of follows its training's rounding (on AVX2
    the words it never saw), so the threshold is set from the qualities this CPU gives."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding.quality import assess
    from attnmt.decoding.translate import translate

    sentences = ["a dog runs.", f"{UNKNOWN}."]
    model, tokenizer = load_model_dir(trained_model)
    dog, unknown = (a.quality for a in assess(model, tokenizer, sentences, translate(model, tokenizer, sentences)))
    assert abs(dog - unknown) > 0.002, (dog, unknown)
    source, review = tmp_path / "in.txt", tmp_path / "in.review.tsv"
    source.write_text(" ".join(sentences) + "\n", encoding="utf-8")
    below = ["--min-quality", str(round((dog + unknown) / 2, 4)), "--below-quality", "source"]
    outputs = [run_cli(["translate", "--model", trained_model, *below, *extra, source], capsys)[1]
               for extra in ([], ["--review", review])]
    assert outputs[0] == outputs[1]
    kept = [sentence for sentence in sentences if sentence in outputs[0]]
    assert kept == [sentences[0] if dog < unknown else sentences[1]]  # one kept, not the whole line


def test_a_documents_review_flags_a_dropped_negation_in_the_languages_given(trained_model, tmp_path, capsys):
    """--review read no languages: the negation and language rules never fired on a document, where the
    same translation by ``attnmt translate --output-format jsonl`` (or the server) was flagged.  The tiny
    model never saw "not": its translation drops the negation."""
    source, output, review = tmp_path / "in.txt", tmp_path / "out.txt", tmp_path / "in.review.tsv"
    source.write_text("the dog does not sleep\n\na dog runs\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", trained_model, "--source-lang", "en", "--target-lang", "de",
                            "--review", review, source, output], capsys)
    assert code == 0 and "nicht" not in output.read_text(encoding="utf-8")
    assert [(row[0], row[2], row[3]) for row in table(review)[1:]] == [("1", "negation", "the dog does not sleep")]
    assert "1 of 2 sentences need review" in err


def test_reviewing_assesses_in_the_languages_it_is_given(trained_model):
    from attnmt.decoding.quality_language import Languages
    from attnmt.documents.pipeline import translate_lines
    from attnmt.documents.review import reviewing
    from attnmt.documents.translators import ModelTranslator

    model, tokenizer = load_model_dir(trained_model)
    review = reviewing(translator := ModelTranslator(model, tokenizer), languages=Languages("en", "de"))
    translate_lines(["the dog does not sleep", "a dog runs"], translator, review=review)
    assert [(s.source, s.flags) for s in review.segments] == [("the dog does not sleep", ["negation"])]
