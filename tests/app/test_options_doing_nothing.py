"""attnmt translate refuses the document options an input cannot use, before the model loads:
--allow-macros where the input is no office file, --attributes where it is known to be plain text,
JSONL, XLIFF, subtitles or an office file other than an EPUB (by --input-format or its extension),
--no-split and --source-lang on JSONL (a line is one sentence), and a
--source-lang that is no language code (sentencex split by its default rules without a word); and
--n-best or --confidence on a document, or --n-best with --review, refused at once, not after an
advice to add --output-format; stdin without --input-format is text.  Each refusal is one line."""

import pytest
from support import run_cli

MISSING = "no-such-model"  # the checks come first: a refused option never reaches the model


@pytest.mark.parametrize("given", [["in.txt"], ["in.jsonl"], ["--input-format", "jsonl"], ["page.html"]])
def test_allow_macros_on_an_input_that_is_no_office_file_is_refused(tmp_path, capsys, given):
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    given = [str(tmp_path / name) if "." in name else name for name in given]
    code, _, err = run_cli(["translate", "--model", MISSING, *given, "--allow-macros"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--allow-macros accepts office files with macros (.docm, .pptm, .xlsm)" in err
    assert "so it would do nothing: leave it out" in err


@pytest.mark.parametrize("given, named", [(["in.txt"], "in.txt is read as text"),
                                          (["in.jsonl"], "in.jsonl is read as jsonl"),
                                          (["--input-format", "jsonl"], "the jsonl input is read as jsonl"),
                                          (["--input-format", "text"], "the text input is read as text")])
def test_attributes_on_plain_text_or_jsonl_is_refused(tmp_path, capsys, given, named):
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    given = [str(tmp_path / name) if "." in name else name for name in given]
    code, _, err = run_cli(["translate", "--model", MISSING, *given, "--attributes", "alt"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--attributes chooses the HTML attributes translated on a page: " in err
    assert named in err and "so it would do nothing: leave it out" in err


@pytest.mark.parametrize("given, named", [(["in.odt", "out.odt"], "in.odt is read as odt"),
                                          (["in.ods", "out.ods"], "in.ods is read as ods"),
                                          (["in.odp", "out.odp"], "in.odp is read as odp"),
                                          (["in.docx", "out.docx"], "in.docx is read as docx"),
                                          (["in.docm", "out.docm"], "in.docm is read as docm"),
                                          (["in.pptx", "out.pptx"], "in.pptx is read as pptx"),
                                          (["in.xlsx", "out.xlsx"], "in.xlsx is read as xlsx"),
                                          (["--input-format", "odt", "in.bin", "out.bin"], "in.bin is read as odt")])
def test_attributes_on_an_office_file_but_an_epub_is_refused(tmp_path, capsys, given, named):
    """Word, PowerPoint, Excel and OpenDocument paragraphs have no HTML attributes: the option was
    taken without a word and did nothing."""
    given = [str(tmp_path / name) if "." in name else name for name in given]
    code, _, err = run_cli(["translate", "--model", MISSING, *given, "--attributes", "alt"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--attributes chooses the HTML attributes translated on a page: " in err
    assert named in err and "so it would do nothing: leave it out" in err


@pytest.mark.parametrize("given, named", [(["in.xlf"], "in.xlf is read as xliff"),
                                          (["in.xliff"], "in.xliff is read as xliff"),
                                          (["--input-format", "xliff"], "the xliff input is read as xliff"),
                                          (["in.srt"], "in.srt is read as srt"),
                                          (["in.vtt.gz"], "in.vtt.gz is read as vtt"),
                                          (["--input-format", "vtt", "in.txt"], "in.txt is read as vtt")])
def test_attributes_on_xliff_or_subtitles_is_refused(tmp_path, capsys, given, named):
    """XLIFF's attributes are the file's data (ids, states) and a cue's tags are written back as
    read: the option was taken without a word and did nothing."""
    given = [str(tmp_path / name) if "." in name else name for name in given]
    code, _, err = run_cli(["translate", "--model", MISSING, *given, "--attributes", "alt"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--attributes chooses the HTML attributes translated on a page: " in err
    assert named in err and "so it would do nothing: leave it out" in err


@pytest.mark.parametrize("given", [[], ["-"], ["-", "out.txt"]])
def test_attributes_on_stdin_without_an_input_format_is_refused_saying_how_to_give_html(tmp_path, capsys, given):
    """stdin is read as text whatever it holds: a piped <p title="A dog runs."> came back without its
    tags, the title never translated, and --attributes was taken without a word."""
    code, out, err = run_cli(["translate", "--model", MISSING, *given, "--attributes", "title"], capsys)
    assert (code, out) == (2, "")
    assert err == ("attnmt: error: --attributes chooses the HTML attributes translated on a page: stdin is read as "
                   "text, so it would do nothing: leave it out, or give --input-format html to read it as HTML\n")


@pytest.mark.parametrize("given", [["page.html"], ["--input-format", "html"], ["-", "--input-format", "xml"],
                                   ["book.epub", "out.epub"]])
def test_attributes_where_the_input_may_be_a_page_goes_on_to_the_model(tmp_path, capsys, given):
    if "." in given[0]:  # an input that exists: a missing one is refused before the model is looked for
        (tmp_path / given[0]).write_bytes(b"")
    given = [str(tmp_path / name) if "." in name else name for name in given]
    code, _, err = run_cli(["translate", "--model", MISSING, *given, "--attributes", "alt"], capsys)
    assert code != 0 and MISSING in err and "--attributes" not in err


@pytest.mark.parametrize("option, named", [(["--no-split"], "--no-split would do nothing (it chooses"),
                                           (["--source-lang", "de"], "--source-lang would do nothing (it chooses"),
                                           (["--source-lang", "en"], "--source-lang would do nothing (it chooses"),
                                           (["--no-split", "--source-lang", "de"],
                                            "--no-split and --source-lang would do nothing (they choose")])
@pytest.mark.parametrize("given", [[], ["in.jsonl"]])
def test_sentence_splitting_options_on_jsonl_are_refused(tmp_path, capsys, option, named, given):
    """A JSONL line's text is one sentence, read whole: --no-split and --source-lang (the
    splitter's language, the default's too) were taken without a word and did nothing.  One
    option alone was said to be several: "--no-split would do nothing (they choose …): leave it out"."""
    given = [str(tmp_path / name) for name in given]
    code, out, err = run_cli(["translate", "--model", MISSING, "--input-format", "jsonl", *given, *option], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"attnmt: error: a JSONL line's text is one sentence, read whole: {named} "
                          "how a line of text is split into sentences): leave ")
    assert err.count("\n") == 1


def test_sentence_splitting_options_on_text_go_on_to_the_model(tmp_path, capsys):
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", MISSING, str(tmp_path / "in.txt"), "--no-split", "--source-lang",
                            "de"], capsys)
    assert code != 0 and MISSING in err and "JSONL" not in err


@pytest.mark.parametrize("command", [["translate", "--model", MISSING, "--source-lang"],
                                     ["score", "--model", MISSING, "--src", "s", "--hyp", "h", "--source-lang"],
                                     ["score", "--model", MISSING, "--src", "s", "--hyp", "h", "--target-lang"],
                                     ["attention", "A cat.", "--model", MISSING, "--source-lang"]])
@pytest.mark.parametrize("code", ["english", "e", "en US", "en.US", "", "x", "x-", "auto"])
def test_a_sentence_splitter_language_that_is_no_language_code_is_refused(capsys, command, code):
    with pytest.raises(SystemExit) as stopped:
        run_cli([*command, code], capsys)
    assert stopped.value.code == 2
    assert f"expected a language code such as en, de or pt-BR, got {code!r}" in capsys.readouterr().err


@pytest.mark.parametrize("code", ["en", "EN", "de", "pt-BR", "en_US", "zh-Hant", "sr-Latn-RS", "yue", "x-klingon",
                                  "i-default"])
def test_a_language_code_goes_on_to_the_model(capsys, code):
    status, _, err = run_cli(["translate", "--model", MISSING, "--source-lang", code], capsys)
    assert status != 0 and MISSING in err and "language code" not in err


@pytest.mark.parametrize("attributes", ["alt,title,placeholder,aria-label,value,content", ""])
def test_attributes_given_on_text_are_refused_whatever_they_name(tmp_path, capsys, attributes):
    """The check compared the option's text with the default's: the default list in another order
    was refused and the default itself let through."""
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", MISSING, str(tmp_path / "in.txt"), "--attributes", attributes],
                           capsys)
    assert code == 2 and "--attributes chooses the HTML attributes translated on a page: " in err


@pytest.mark.parametrize("code", ["German", "de DE", "", "de.DE", "auto"])
def test_a_target_language_that_is_no_language_code_is_refused(capsys, code):
    """It was written into the translated file as given (``<w:lang w:val="de DE"/>``), and an empty
    one did nothing."""
    with pytest.raises(SystemExit) as stopped:
        run_cli(["translate", "--model", MISSING, "--target-lang", code], capsys)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"expected a language code such as de, fr or pt-BR, got {code!r}" in err and "written into" in err


def test_a_target_language_code_is_written_as_bcp_47_writes_it(tmp_path):
    from attnmt.cli.main import build_parser

    args = build_parser().parse_args(["translate", "--model", MISSING, "--target-lang", "de_DE"])
    assert args.target_lang == "de-DE"


@pytest.mark.parametrize("given", [["book.epub", "out.epub"], ["in.docx", "out.docx"], ["page.html"],
                                   ["--input-format", "srt"]])
@pytest.mark.parametrize("option", [["--n-best", "2"], ["--n-best", "9"], ["--confidence"]])
def test_n_best_or_confidence_on_a_document_is_refused_at_once(tmp_path, capsys, given, option):
    """The per-line checks came first: "add --output-format tsv or jsonl" (or "needs --beam 9"),
    and doing that was refused in turn with "leave out --output-format, --n-best, ..."."""
    given = [str(tmp_path / name) if "." in name else name for name in given]
    code, _, err = run_cli(["translate", "--model", MISSING, *given, *option], capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.endswith(": leave out --output-format, --n-best, --alignments, --confidence and --prefix\n")


def test_n_best_with_review_is_refused_at_once(tmp_path, capsys):
    """--n-best asked for --output-format tsv or jsonl, which --review then refused."""
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", MISSING, str(tmp_path / "in.txt"), "--n-best", "2",
                            "--review", str(tmp_path / "review.tsv")], capsys)
    assert code == 2 and err == ("attnmt: error: --review writes the sentences that need review to a table of their "
                                 "own: leave out --output-format, --n-best, --alignments, --confidence and --prefix\n")


@pytest.mark.parametrize("output_format", ["tsv", "jsonl"])
@pytest.mark.parametrize("threshold", [[], ["--min-quality", "0.5"]])
def test_below_quality_mark_with_tsv_or_jsonl_output_is_refused(tmp_path, capsys, output_format, threshold):
    """The mark goes before a translation in text; tsv and jsonl wrote the same rows with or
    without it (their low_quality flag is the mark), and took it without a word."""
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    code, out, err = run_cli(["translate", "--model", MISSING, str(tmp_path / "in.txt"), "--output-format",
                              output_format, "--below-quality", "mark", *threshold], capsys)
    assert (code, out) == (2, "")
    assert err == (f"attnmt: error: --below-quality mark writes a mark before a translation in text output: "
                   f"{output_format} gives each translation's quality and flags (low_quality under --min-quality) of "
                   "their own, so it would do nothing: leave it out\n")


def test_min_quality_with_tsv_output_goes_on_to_the_model(tmp_path, capsys):
    """What following the refusal above leaves: the threshold of the low_quality flag."""
    (tmp_path / "in.txt").write_text("A cat sleeps.\n", encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", MISSING, str(tmp_path / "in.txt"), "--output-format", "tsv",
                            "--min-quality", "0.5"], capsys)
    assert code != 0 and MISSING in err and "--below-quality" not in err
