"""``attnmt translate --input-format html|xml|srt|vtt`` and sentence splitting, end to end on the tiny model,
and ``"format": "html"`` in a request to the server."""

import gzip
import io
import os
import warnings

import pytest
from fastapi.testclient import TestClient
from lxml import etree, html
from support import run_cli

from attnmt.checkpoint import load_model_dir
from attnmt.documents import translate_html_texts
from attnmt.documents.pages import MAX_DEPTH
from attnmt.server.app import ServedModel, create_app

run = run_cli


def text_of(fragment: str) -> str:
    return html.fragment_fromstring(fragment, create_parent="div").text_content()


# Which German word a tag lands on follows the tiny model's attention, which rounding may tip on
# another CPU; these tests check what holds anyway: the words, and each tag once, well nested.
def test_html_fragments_a_line_keep_their_tags(trained_model, tmp_path, capsys):
    source = tmp_path / "in.html"
    source.write_text("a <b>dog</b> runs\n\n<i>the boy laughs</i>\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "html", source], capsys)
    first, blank, second = out.split("\n")[:-1]
    assert code == 0 and text_of(first) == "ein hund rennt" and first.count("<b>") == first.count("</b>") == 1
    assert blank == "" and second == "<i>der junge lacht</i>"  # a tag around a whole sentence: no alignment needed


def test_a_line_with_two_sentences_is_split_unless_no_split(trained_model, tmp_path, capsys, monkeypatch):
    source = tmp_path / "in.txt"
    source.write_text("A dog runs. The boy laughs.\n", encoding="utf-8")
    seen = []
    from attnmt.documents import translators

    real = translators.translate_assessed
    monkeypatch.setattr(translators, "translate_assessed", lambda model, tok, sentences, *rest, **named:
                        seen.append(list(sentences)) or real(model, tok, sentences, *rest, **named))
    assert run(["translate", "--model", trained_model, source], capsys)[0] == 0
    assert seen == [["A dog runs.", "The boy laughs."]]


def test_subtitles_keep_numbers_and_timings(trained_model, tmp_path, capsys):
    source = tmp_path / "in.srt"
    source.write_text("7\n00:00:01,000 --> 00:00:02,000\na dog runs.\n\n8\n00:00:02,500 --> 00:00:03,000\n"
                      "the boy laughs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "srt", source], capsys)
    assert code == 0
    assert out == ("7\n00:00:01,000 --> 00:00:02,000\nein hund rennt\n\n8\n00:00:02,500 --> 00:00:03,000\n"
                   "der junge lacht\n")


def test_a_whole_page_keeps_its_structure_and_gets_the_target_lang(trained_model, tmp_path, capsys):
    source, output = tmp_path / "page.html", tmp_path / "page.de.html"
    source.write_text('<!DOCTYPE html>\n<html lang="en"><head><title>the boy laughs</title></head><body>'
                      '<ul><li>a dog runs</li><li><img alt="a cat sleeps" src="c.png"></li></ul></body></html>\n',
                      encoding="utf-8")
    code, _, _ = run(["translate", "--model", trained_model, "--input-format", "html", "--target-lang", "de",
                      source, output], capsys)
    page = html.parse(str(output)).getroot()
    assert code == 0 and page.get("lang") == "de"
    assert page.findtext(".//title") == "der junge lacht" and page.findtext(".//li") == "ein hund rennt"
    assert page.find(".//img").get("alt") == "eine katze schläft"


def test_a_page_in_windows_1252_is_translated_and_written_back_in_it(trained_model, tmp_path, capsys):
    """As Word's "Save as Web Page" writes it; it was refused as invalid UTF-8 (exit 2)."""
    source, output = tmp_path / "w.html", tmp_path / "w.de.html"
    source.write_bytes(b'<!DOCTYPE html>\r\n<html lang="en"><head><meta charset="windows-1252"></head>\r\n'
                       b"<body><p>a cat sleeps</p><!-- caf\xe9 --></body></html>\r\n")
    code, _, err = run(["translate", "--model", trained_model, "--target-lang", "de", source, output], capsys)
    assert code == 0, err
    assert output.read_bytes() == (b'<!DOCTYPE html>\r\n<html lang="de"><head><meta charset="windows-1252"></head>\r\n'
                                   b"<body><p>eine katze schl\xe4ft</p><!-- caf\xe9 --></body></html>\r\n")


def test_an_xliff_file_in_iso_8859_1_is_translated_and_written_back_in_it(trained_model, tmp_path, capsys):
    """XLIFF is XML: its declared encoding is read as an .xml file's is; it was refused as invalid UTF-8 (exit 2)."""
    source, output = tmp_path / "w.xlf", tmp_path / "w.de.xlf"
    source.write_bytes(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
                       b'<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">'
                       b'<file source-language="en" target-language="de" datatype="plaintext" original="caf\xe9">'
                       b'<body><trans-unit id="1"><source>a cat sleeps</source></trans-unit></body></file></xliff>\n')
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "xliff", "--target-lang", "de",
                        source, output], capsys)
    assert code == 0, err
    assert output.read_bytes().startswith(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n')
    assert b'original="caf\xe9"' in output.read_bytes() and b">eine katze schl\xe4ft</target>" in output.read_bytes()


def test_an_xml_file_in_utf16_is_translated_and_written_back_in_it(trained_model, tmp_path, capsys):
    """A byte order mark says XML's UTF-16, as a Windows tool writes it; it was refused as "not UTF-8" (exit 2)."""
    source, output = tmp_path / "w.xml", tmp_path / "w.de.xml"
    source.write_bytes('\ufeff<?xml version="1.0" encoding="UTF-16"?>\r\n<doc><p>a cat sleeps</p></doc>\r\n'
                       .encode("utf-16-le"))
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "xml", source, output], capsys)
    assert code == 0, err
    assert output.read_bytes() == ('\ufeff<?xml version="1.0" encoding="UTF-16"?>\r\n<doc><p>eine katze schläft</p>'
                                   "</doc>\r\n").encode("utf-16-le")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize(("name", "text", "translated"), [
    ("film.srt", "1\r\n00:00:01,000 --> 00:00:02,000\r\na dog runs.\r\n\r\n"
                 "2\r\n00:00:03,000 --> 00:00:04,000\r\na cat sleeps\r\n",
     "1\r\n00:00:01,000 --> 00:00:02,000\r\nein hund rennt\r\n\r\n"
     "2\r\n00:00:03,000 --> 00:00:04,000\r\neine katze schläft\r\n"),
    ("read.md", "# the boy laughs\r\n\r\na cat sleeps\r\n", "# der junge lacht\r\n\r\neine katze schläft\r\n"),
], ids=["srt", "markdown"])
def test_a_utf16_subtitle_or_markdown_file_is_translated_and_written_back_in_it(trained_model, tmp_path, capsys,
                                                                               encoding, name, text, translated):
    """``attnmt translate film.srt film.de.srt`` of Subtitle Edit's "Unicode" (UTF-16 with its byte order mark)
    was refused as "the text is UTF-16, not UTF-8" (exit 2), where the server reads it."""
    source, output = tmp_path / name, tmp_path / f"out{name[name.index('.'):]}"
    source.write_bytes(("\ufeff" + text).encode(encoding))
    code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 0, err
    assert output.read_bytes().decode(encoding) == "\ufeff" + translated


def test_a_utf16_vtt_file_from_stdin_is_read_and_written_back_in_it(trained_model, tmp_path, capsys, monkeypatch):
    """``attnmt translate --input-format vtt - < film.vtt``: stdin's lines were refused as UTF-16 as they came."""
    output, vtt = tmp_path / "film.de.vtt", "\ufeffWEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\na cat sleeps\r\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(vtt.encode("utf-16-le"))))
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "vtt", "-", output], capsys)
    assert code == 0, err
    assert output.read_bytes().decode("utf-16-le") == vtt.replace("a cat sleeps", "eine katze schläft")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_text_file_with_its_mark_is_translated_and_written_back_in_it(trained_model, tmp_path, capsys,
                                                                             encoding):
    """Notepad's "Unicode": ``attnmt translate notes.txt notes.de.txt`` stopped with "the text is UTF-16, not
    UTF-8" (exit 2), where the server translates the same file."""
    source, output = tmp_path / "notes.txt", tmp_path / "notes.de.txt"
    source.write_bytes("\ufeffa cat sleeps\r\n\r\nthe boy laughs\r\n".encode(encoding))
    code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 0, err
    assert output.read_bytes().decode(encoding) == "\ufeffeine katze schläft\r\n\r\nder junge lacht\r\n"


@pytest.mark.parametrize("given", ["stdin", "gzip"])
def test_a_utf16_text_from_stdin_or_gzipped_is_translated_and_written_back_in_it(trained_model, tmp_path, capsys,
                                                                                monkeypatch, given):
    """``attnmt translate - < notes.txt`` and ``attnmt translate notes.txt.gz`` of Notepad's "Unicode" were refused
    as "the text is UTF-16, not UTF-8" (exit 2), where the same file by name was translated."""
    data, output = "\ufeffa cat sleeps\r\n\r\nthe boy laughs\r\n".encode("utf-16-le"), tmp_path / "notes.de.txt"
    if given == "stdin":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
        source = "-"
    else:
        source = tmp_path / "notes.txt.gz"
        source.write_bytes(gzip.compress(data))
    code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 0, err
    assert output.read_bytes().decode("utf-16-le") == "\ufeffeine katze schläft\r\n\r\nder junge lacht\r\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
def test_a_text_file_line_the_model_fails_on_is_named_and_the_others_kept_in_any_encoding(
        trained_model, tmp_path, capsys, failing_on_the_boy, encoding):
    """A UTF-8 file kept its other lines (exit 1, the line named), where the same file in UTF-16 was translated whole
    and failed whole: exit 2, nothing written."""
    source, output = tmp_path / "notes.txt", tmp_path / "notes.de.txt"
    source.write_bytes(f"\ufeffa cat sleeps\r\n{failing_on_the_boy}\r\n".encode(encoding))
    code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 1 and "notes.txt:2" in err.replace(", line ", ":"), err
    assert output.read_bytes().decode(encoding) == "\ufeffeine katze schläft\r\n\r\n"


WINDOWS_1252_PAGE = (b'<!DOCTYPE html>\r\n<html lang="en"><head><meta charset="windows-1252"></head>\r\n'
                     b"<body><p>a cat sleeps</p><!-- caf\xe9 --></body></html>\r\n")


@pytest.mark.parametrize("given", ["stdin", "pipe"])
def test_a_page_in_windows_1252_from_stdin_or_a_pipe_is_read_and_written_in_it(trained_model, tmp_path, capsys,
                                                                                monkeypatch, given):
    """``attnmt translate --input-format html - < w.html``, ``cat w.html | …`` and ``<(cat w.html)``: only a file
    by name was read for its declaration, and the same bytes from stdin or a pipe were refused as invalid UTF-8
    (exit 2).  The pipe's bytes are read once, for the declaration and the translation alike."""
    output = tmp_path / "w.de.html"
    read, write = os.pipe()  # the page on stdin, or on a pipe (``<(cat w.html)``) with nothing on stdin
    os.write(write, WINDOWS_1252_PAGE if given == "pipe" else b"")
    os.close(write)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(WINDOWS_1252_PAGE if given == "stdin" else b"")))
    source = "-" if given == "stdin" else f"/dev/fd/{read}"
    try:
        code, _, err = run(["translate", "--model", trained_model, "--input-format", "html", "--target-lang", "de",
                            source, output], capsys)
    finally:
        os.close(read)
    assert code == 0, err
    assert output.read_bytes() == (b'<!DOCTYPE html>\r\n<html lang="de"><head><meta charset="windows-1252"></head>'
                                   b"\r\n<body><p>eine katze schl\xe4ft</p><!-- caf\xe9 --></body></html>\r\n")


def test_a_page_declaring_an_encoding_python_does_not_know_on_stdin_is_one_line_naming_stdin(
        trained_model, tmp_path, capsys, monkeypatch):
    output = tmp_path / "k.de.xml"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        b'<?xml version="1.0" encoding="x-klingon"?>\n<doc>a cat sleeps</doc>\n')))
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "xml", "-", output], capsys)
    assert code == 2 and not output.exists()
    assert err == ("attnmt: error: <stdin>: the file declares the encoding x-klingon, which attnmt cannot read; "
                   "convert it to UTF-8 first (and say so in its declaration), e.g. with iconv\n")


def test_a_page_from_a_pipe_is_read_once_as_utf8(trained_model, tmp_path, capsys):
    """``attnmt translate <(cat page.html)``: the page was read whole for its declared encoding, then again
    as lines, which a pipe cannot give twice, and the translation was empty, exit 0 (review s41f)."""
    read, write = os.pipe()
    os.write(write, b'<html lang="en"><body><p>a cat sleeps</p></body></html>\n')
    os.close(write)
    output = tmp_path / "page.de.html"
    try:
        code, _, err = run(["translate", "--model", trained_model, "--input-format", "html", "--target-lang", "de",
                            f"/dev/fd/{read}", output], capsys)
    finally:
        os.close(read)
    assert code == 0, err
    assert html.parse(str(output)).getroot().findtext(".//p") == "eine katze schläft"


def test_a_page_declaring_its_encoding_after_a_long_head_is_read_in_it(trained_model, tmp_path, capsys):
    """Only the first 64 KiB were read for a declaration: a <head> of long scripts put it later, and the
    page was refused as invalid UTF-8 (review s41h)."""
    source, output = tmp_path / "late.html", tmp_path / "late.de.html"
    script = b"var x = 1;\n" * 7000
    source.write_bytes(b"<html><head><script>" + script + b'</script><meta charset="windows-1252"></head>'
                       b"<body><p>a cat sleeps</p><!-- caf\xe9 --></body></html>\n")
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "html", "--target-lang", "de",
                        source, output], capsys)
    assert code == 0, err
    assert b"<p>eine katze schl\xe4ft</p><!-- caf\xe9 -->" in output.read_bytes()


def test_a_page_declaring_an_encoding_python_does_not_know_is_one_line(trained_model, tmp_path, capsys):
    source, output = tmp_path / "k.xml", tmp_path / "k.de.xml"
    source.write_bytes(b'<?xml version="1.0" encoding="x-klingon"?>\n<doc>a cat sleeps</doc>\n')
    code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 2 and not output.exists()
    assert err == (f"attnmt: error: {source}: the file declares the encoding x-klingon, which attnmt cannot read; "
                   "convert it to UTF-8 first (and say so in its declaration), e.g. with iconv\n")


def test_a_page_says_the_models_target_language_where_no_target_lang_is_given(english_to_german, tmp_path, capsys):
    """As the server writes a sent page's lang; the command line wrote none, the page kept lang="en"."""
    source, output = tmp_path / "page.html", tmp_path / "page.de.html"
    source.write_text('<html lang="en"><body><p>a dog runs</p></body></html>\n', encoding="utf-8")
    code, _, _ = run(["translate", "--model", english_to_german, source, output], capsys)
    page = html.parse(str(output)).getroot()
    assert code == 0 and page.get("lang") == "de" and page.findtext(".//p") == "ein hund rennt"


def test_attributes_are_left_alone_when_none_are_named(trained_model, tmp_path, capsys):
    source = tmp_path / "in.html"
    source.write_text('<img alt="a dog runs"> the boy laughs\n', encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "html", "--attributes", "",
                        source], capsys)
    assert code == 0 and out == '<img alt="a dog runs"> der junge lacht\n'


def test_bad_markup_is_translated_with_a_warning(trained_model, tmp_path, capsys):
    source = tmp_path / "in.html"
    source.write_text("a <b>dog runs\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="markup repaired"):
        code, out, _ = run(["translate", "--model", trained_model, "--input-format", "html", source], capsys)
    assert code == 0 and out.startswith("ein") and out.count("<b>") == out.count("</b>") == 1


def test_document_formats_refuse_per_line_extras_in_one_line(trained_model, capsys):
    code, _, err = run(["translate", "--model", trained_model, "--input-format", "html", "--alignments"], capsys)
    assert code == 2 and "--input-format html" in err and len(err.strip().splitlines()) == 1


def test_the_server_translates_html_when_asked(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    with TestClient(create_app([ServedModel(model, tokenizer, "tiny")])) as client:
        answer = client.post("/translate", json={"texts": ["a <b>dog</b> runs", "<i>the boy laughs</i>"],
                                                 "format": "html"})
        refused = client.post("/translate", json={"text": "a dog", "format": "html", "return_attention": True})
        unscored = client.post("/translate", json={"text": "a dog", "format": "html", "return_quality": True})
        termed = client.post("/translate", json={"text": "a <b>dog</b> runs", "format": "html",
                                                 "glossary": {"dog": "katze"}})
    first, second = answer.json()["translations"]
    assert answer.status_code == 200 and text_of(first) == "ein hund rennt" and first.count("</b>") == 1
    assert second == "<i>der junge lacht</i>"
    assert unscored.status_code == 422 and "return_quality" in unscored.json()["detail"]  # was a 500
    assert refused.status_code == 422 and "html" in refused.json()["detail"]
    assert termed.status_code == 200 and "katze" in text_of(termed.json()["translations"][0]).split()


@pytest.mark.parametrize("page", ["<!DOCTYPE", "<!DOCTYPE html>", "<html", '<?xml version="1.0"?>', "<!-- x -->"])
def test_a_file_or_request_with_no_element_comes_back_as_it_was(trained_model, tmp_path, capsys, page):
    # "<!DOCTYPE" and "<html" alone were a traceback (lxml's "Document is empty"), and a 500 from the server
    source = tmp_path / "in.html"
    source.write_text(page, encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "html", source], capsys)
    assert (code, out.rstrip("\n"), err) == (0, page, "")
    model, tokenizer = load_model_dir(trained_model)
    with TestClient(create_app([ServedModel(model, tokenizer, "tiny")])) as client:
        answer = client.post("/translate", json={"text": page, "format": "html"})
    assert answer.status_code == 200 and answer.json()["translations"] == [page]


def test_a_glossary_applies_to_every_sentence_of_a_document(trained_model, tmp_path, capsys):
    (tmp_path / "terms.tsv").write_text("dog\tkatze\n", encoding="utf-8")
    source = tmp_path / "in.html"
    source.write_text("a <b>dog</b> runs\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "html", "--glossary",
                        tmp_path / "terms.tsv", source], capsys)
    assert code == 0 and "katze" in text_of(out.strip()).split() and out.count("</b>") == 1


def nested(depth: int, inside: str = "a dog runs") -> str:
    return "<div>" * depth + inside + "</div>" * depth


@pytest.mark.parametrize("depth", [254, 255, 256, 300])
def test_html_nested_past_255_levels_is_translated_whole(trained_model, tmp_path, capsys, depth):
    source = tmp_path / "deep.html"
    source.write_text(nested(depth) + "\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "html", source], capsys)
    assert code == 0 and out == nested(depth, "ein hund rennt") + "\n"


def test_html_nested_too_deep_is_refused_in_one_line_naming_the_file(trained_model, tmp_path, capsys):
    source = tmp_path / "deep.html"
    source.write_text(nested(MAX_DEPTH + 1) + "\n", encoding="utf-8")
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "html", source], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{source}: the markup nests elements" in err


def test_an_xml_document_keeps_its_doctype_and_comes_back_well_formed(trained_model, tmp_path, capsys):
    source = tmp_path / "note.xml"
    prolog = '<?xml version="1.0"?>\n<!DOCTYPE note [\n  <!ENTITY co "Acme">\n]>\n'
    source.write_text(prolog + "<note>\n  <p>a dog runs</p>\n  <p>&co;</p>\n</note>\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "xml", source], capsys)
    assert code == 0 and out == prolog + "<note>\n  <p>ein hund rennt</p>\n  <p>&co;</p>\n</note>\n"
    etree.fromstring(out.encode(), etree.XMLParser(resolve_entities=False))  # strict: raises unless well-formed


@pytest.fixture(scope="module")
def client(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    with TestClient(create_app([ServedModel(model, tokenizer, "en-de", "en", "de")])) as client:
        yield client


def test_the_server_translates_html_nested_300_deep(client):
    deep = "<div>" * 300 + "a dog runs"  # tags left open nest as deep, in fewer than max_chars
    native = client.post("/v1/translate", json={"text": deep, "format": "html"})
    libre = client.post("/translate", json={"q": deep, "source": "en", "target": "de", "format": "html"})
    assert native.status_code == 200 and native.json()["translations"] == [nested(300, "ein hund rennt")]
    assert libre.status_code == 200 and libre.json() == {"translatedText": nested(300, "ein hund rennt")}


def test_the_server_gives_an_html_fragment_ending_in_an_open_comment_back_without_the_parsers_wrapper(client):
    # the comment took in the closing tags lxml wraps a fragment in: "<!-- x</body></html>-->"
    libre = client.post("/translate", json={"q": "<p>a dog runs</p><!-- x", "source": "en", "target": "de",
                                            "format": "html"})
    assert libre.status_code == 200 and libre.json() == {"translatedText": "<p>ein hund rennt</p><!-- x-->"}


def test_the_server_refuses_html_nested_too_deep_and_says_why(client):
    deep = "<i>" * (MAX_DEPTH + 1) + "a dog runs"
    native = client.post("/v1/translate", json={"texts": ["a dog runs", deep], "format": "html"})
    libre = client.post("/translate", json={"q": deep, "source": "en", "target": "de", "format": "html"})
    assert native.status_code == 413 and native.json()["detail"].startswith("texts[1]: the markup nests elements")
    assert libre.status_code == 400 and "the markup nests elements" in libre.json()["error"]


def test_a_subtitle_cue_with_a_malformed_timing_line_is_translated_with_a_warning_naming_the_line(
        trained_model, tmp_path, capsys):
    source = tmp_path / "in.srt"
    source.write_text("1\n00:00:01,000 --> 00:00:02,000\na dog runs.\n\n2\n00:00:02,000 - 00:00:03,000\n"
                      "the boy laughs\n", encoding="utf-8")
    with pytest.warns(UserWarning, match=f"^{source}, line 6: timings written as"):
        code, out, _ = run(["translate", "--model", trained_model, "--input-format", "srt", source], capsys)
    assert code == 0 and out.endswith("2\n00:00:02,000 - 00:00:03,000\nder junge lacht\n")


def test_a_word_file_is_translated_by_its_extension_with_its_bold_run(trained_model, tmp_path, capsys):
    import docx

    document = docx.Document()
    paragraph = document.add_paragraph("a ")
    paragraph.add_run("dog").bold = True
    paragraph.add_run(" runs")
    source, output = tmp_path / "in.docx", tmp_path / "out.docx"
    document.save(source)
    code, out, _ = run(["translate", "--model", trained_model, "--target-lang", "de", source, output], capsys)
    translated = docx.Document(output).paragraphs[0]
    assert code == 0 and out == ""
    assert translated.text == "ein hund rennt"
    bold = [run.text for run in translated.runs if run.bold]
    assert len(bold) == 1 and bold[0] in ("ein", "hund", "rennt")  # one word: which one, the attention says


def test_an_office_file_with_macros_is_refused_naming_the_option_that_allows_them(trained_model, tmp_path, capsys):
    import docx

    source = tmp_path / "budget.docm"
    docx.Document().save(source)
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out.docm"], capsys)
    assert code == 2 and err.rstrip("\n").endswith("holds macros (a .docm file); they are refused unless asked for "
                                                   "(--allow-macros), and kept as they are then")


def test_an_office_file_needs_an_output_file_and_a_bad_one_gets_one_line(trained_model, tmp_path, capsys):
    source = tmp_path / "in.docx"
    source.write_bytes(b"not a zip")
    code, _, err = run(["translate", "--model", trained_model, source], capsys)
    assert code == 2 and "give the output file after the input" in err
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out.docx"], capsys)
    assert code == 2 and f"{source}: not a readable zip archive" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out.docx").exists()


def test_an_office_file_is_written_under_its_own_formats_extension_only(trained_model, tmp_path, capsys):
    source = tmp_path / "in.docx"
    source.write_bytes(b"not a zip")
    for output, suggested in (("out.txt", "out.docx"), ("out.odt", "out.docx"), ("out.DOCM", "out.DOCX")):
        code, _, err = run(["translate", "--model", trained_model, source, tmp_path / output], capsys)
        assert code == 2 and err.strip() == (f"attnmt: error: {tmp_path / output} names a "
                                             f"{output[3:].lower()} file, but the translation of a .docx file is a "
                                             f".docx file (attnmt does not convert formats): name it {suggested}")
    assert not list(tmp_path.glob("out.*"))
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out.docx.gz"], capsys)
    assert code == 2 and "a .docx file is a compressed (zip) archive already: name it out.docx, without .gz" in err
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "OUT.DOCX.GZ"], capsys)
    assert code == 2 and "archive already: name it OUT.DOCX, without .gz" in err  # it said out.docx
    page = tmp_path / "page.html"
    page.write_text("<p>a dog runs</p>\n", encoding="utf-8")
    for output, message in (("out.docx", "names a .docx file, but the translation of a .html file is a .html file"),
                            ("out.srt", "names a .srt file, but the translation of a .html file is a .html file")):
        code, _, err = run(["translate", "--model", trained_model, page, tmp_path / output], capsys)
        assert code == 2 and message in err and "name it out.html" in err  # out.SRT.GZ: below
    code, _, _ = run(["translate", "--model", trained_model, page, tmp_path / "out.htm"], capsys)
    assert code == 0 and (tmp_path / "out.htm").read_text(encoding="utf-8") == "<p>ein hund rennt</p>\n"


@pytest.mark.parametrize(("source", "output", "suggested"), [
    ("in.odt", "OUT.docx.gz", "OUT.odt"),  # it said OUT.docx, which it then refused
    ("in.odt", "OUT.DOCX.GZ", "OUT.ODT"),  # OUT.DOCX
    ("in.odt", "report.de.gz", "report.de.odt"),  # report.de
    ("in.odt", "out.docx.gz.gz", "out.odt"),  # out.docx.gz
    ("page.html", "out.srt.gz", "out.html.gz"),  # out.html: the compression asked for dropped
    ("page.html", "OUT.SRT.GZ", "OUT.HTML.GZ"),  # out.html (and before that, out.SRT.html)
], ids=lambda value: value)
def test_the_output_name_a_refusal_suggests_is_one_it_takes(trained_model, tmp_path, capsys, source, output,
                                                             suggested):
    """The suggestion keeps the name's case, its parts that name no format (``.de``), and a ``.gz`` the
    format is compressed with; an office file's loses every ``.gz``, and its extension is the office file's."""
    path = tmp_path / source
    path.write_text("<p>a dog runs</p>\n", encoding="utf-8")  # an .odt of no zip: refused once its name is taken
    code, _, err = run(["translate", "--model", trained_model, path, tmp_path / output], capsys)
    assert code == 2 and f"name it {suggested}" in err and f"name it {suggested}." not in err
    code, _, err = run(["translate", "--model", trained_model, path, tmp_path / suggested], capsys)
    assert "name it" not in err


@pytest.mark.parametrize("start", [b"PK\x03\x04", bytes.fromhex("d0cf11e0a1b11ae1")], ids=["zip", "ole"])
def test_an_office_file_of_an_extension_attnmt_does_not_know_is_one_line_not_a_utf8_error(
        trained_model, tmp_path, capsys, start):
    source = tmp_path / "letter.dotx"
    source.write_bytes(start + bytes(100))
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out.dotx"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} is an office file or an archive, not text, "
                                        "and attnmt does not translate files ending in .dotx: it translates .txt, ")
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "out.dotx").exists()


def test_an_old_binary_office_file_is_one_line_saying_what_to_save_it_as(trained_model, tmp_path, capsys):
    """It was "an office file or an archive, not text, ... it translates .txt, ...", and every format."""
    source = tmp_path / "talk.ppt"
    source.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(100))
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "talk.de.ppt"], capsys)
    assert code == 2 and err == (f"attnmt: error: {source}: .ppt is PowerPoint 97-2003's binary format, which "
                                 "attnmt does not translate: save it as .pptx (File > Save As in PowerPoint, or "
                                 "soffice --headless --convert-to pptx talk.ppt) and translate that\n")
    assert not (tmp_path / "talk.de.ppt").exists()


FLAT_TEXT = ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document '
             'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
             'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3" '
             'office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>'
             '<text:p>a dog runs</text:p></office:text></office:body></office:document>\n')


def test_a_flat_opendocument_text_is_translated_by_its_extension_not_line_by_line(trained_model, tmp_path, capsys):
    """Its every line of XML went to the model as text, and the file came back broken (exit 0)."""
    source, output = tmp_path / "a.fodt", tmp_path / "a.de.fodt"
    source.write_text(FLAT_TEXT, encoding="utf-8")
    code, _, _ = run(["translate", "--model", trained_model, source, output], capsys)
    translated = etree.fromstring(output.read_bytes())
    assert code == 0 and translated.tag.endswith("}document")
    assert [p.text for p in translated.iter("{urn:oasis:names:tc:opendocument:xmlns:text:1.0}p")] == ["ein hund rennt"]


@pytest.mark.parametrize("name", ["a.fodx", "drawing.svg", "noextension"])
def test_markup_under_an_extension_attnmt_does_not_know_is_refused_in_one_line(trained_model, tmp_path, capsys, name):
    source = tmp_path / name
    source.write_text(FLAT_TEXT, encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} starts with XML or HTML markup, not text, ")
    assert "--input-format" in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("name", "start"), [
    ("drawing.svg", b'<svg xmlns="http://www.w3.org/2000/svg" width="10">'),
    ("a.fodx", b'\xef\xbb\xbf <office:document\n xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">'),
    ("page.htm5", b"<!doctype html>\n<html>"),
])
def test_a_namespaced_root_or_a_doctype_under_an_extension_attnmt_does_not_know_is_refused(
        trained_model, tmp_path, capsys, name, start):
    source = tmp_path / name
    source.write_bytes(start + b"<p>a dog runs</p>\n")
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} starts with XML or HTML markup, not text, ")


def test_compressed_markup_is_refused_by_what_it_holds(trained_model, tmp_path, capsys):
    """The check returned at once for a .gz name, and the SVG's every line went to the model."""
    source = tmp_path / "pic.svg.gz"
    source.write_bytes(gzip.compress(FLAT_TEXT.encode()))
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out.gz"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} starts with XML or HTML markup, not text, ")
    assert "ending in .svg:" in err and not (tmp_path / "out.gz").exists()


@pytest.mark.parametrize(("name", "text"), [
    ("README.rst", '<p align="center">\na dog runs\n'),
    ("chat.log", "<alice> a dog runs\n<bob> the boy laughs\n"),
    ("README", "<b>a dog runs</b>\n"),
    ("notes.org", "<!-- a comment -->\na dog runs\n"),
    ("notes.org.gz", "<b>a dog runs</b>\n"),
])
def test_text_under_an_extension_attnmt_does_not_know_that_starts_with_a_tag_is_translated_as_text(
        trained_model, tmp_path, capsys, name, text):
    """Refused as markup for its first "<", where it was translated line by line before."""
    source = tmp_path / name
    data = text.encode()
    source.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    code, out, err = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and err == "" and out.count("\n") == text.count("\n")


@pytest.mark.parametrize(("name", "command_name"), [("letter.rtf", "letter.rtf"), ("letter.doc", "letter.doc"),
                                                     ("letter", "letter"), ("my letter.rtf", "'my letter.rtf'")])
def test_a_rich_text_format_document_is_refused_in_one_line(trained_model, tmp_path, capsys, name, command_name):
    """Its bytes are ASCII: every line of control words went to the model as text, and a broken file
    came back with exit 0."""
    source = tmp_path / name
    source.write_bytes(b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}}\n{\\pard a dog runs\\par}\n}\n")
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
    assert code == 2 and err == (f"attnmt: error: {source} is a Rich Text Format document, not text, and attnmt "
                                 f"does not translate it: save it as .docx or .odt (soffice --headless "
                                 f"--convert-to docx {command_name}) and translate that\n")
    assert not (tmp_path / "out").exists()


ASS = (b"[Script Info]\r\nScriptType: v4.00+\r\n\r\n[Events]\r\nFormat: Layer, Start, End, Style, Text\r\n"
       b"Comment: 0,0:00:00.00,0:00:01.00,Default,a dog runs\r\n"
       b"Dialogue: 0,0:00:01.00,0:00:02.00,Default,a dog runs\r\n")


@pytest.mark.parametrize(("name", "data"), [("film.ass", ASS), ("film.SSA", b"\xef\xbb\xbf" + ASS)])
def test_an_ass_or_ssa_file_is_translated_by_its_extension(trained_model, tmp_path, capsys, name, data):
    """It was refused ("convert it to SRT"), which lost its styles, positions and comments."""
    source, output = tmp_path / name, tmp_path / f"out{name[-4:]}"
    source.write_bytes(data)
    code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 0 and err == ""
    dialogue = b"Dialogue: 0,0:00:01.00,0:00:02.00,Default,"
    assert output.read_bytes() == data.replace(dialogue + b"a dog runs", dialogue + b"ein hund rennt")


def test_input_format_ass_reads_a_file_of_any_name_as_ass(trained_model, tmp_path, capsys):
    source = tmp_path / "film.txt"
    source.write_bytes(ASS)
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "ass", source], capsys)
    assert code == 0 and out.endswith("Comment: 0,0:00:00.00,0:00:01.00,Default,a dog runs\r\n"
                                      "Dialogue: 0,0:00:01.00,0:00:02.00,Default,ein hund rennt\r\n")


def test_input_format_ass_reads_stdin_as_ass(trained_model, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(ASS), encoding="utf-8", newline=""))
    code, out, err = run(["translate", "--model", trained_model, "--input-format", "ass"], capsys)
    assert code == 0 and err == ""
    assert out.replace("\r\n", "\n").endswith("Default,a dog runs\n"
                                             "Dialogue: 0,0:00:01.00,0:00:02.00,Default,ein hund rennt\n")


def test_translate_subtitles_reads_an_ass_file_as_ass(trained_model):
    """It was read as SRT: no block had a timing line, so nothing was translated."""
    from attnmt.documents import translate_subtitles

    out = translate_subtitles(*load_model_dir(trained_model), ASS)
    dialogue = "Dialogue: 0,0:00:01.00,0:00:02.00,Default,"
    assert out == ASS.decode().replace(dialogue + "a dog runs", dialogue + "ein hund rennt")


@pytest.mark.parametrize(("name", "data", "advice"), [
    ("film.subs", ASS, "name it film.ass, or give --input-format ass"),
    ("film.sub", b"{1}{25}a dog runs|a cat sleeps\n{30}{50}the boy laughs\n",
     "convert it to SRT (ffmpeg -i film.sub film.srt) and translate that"),
])
def test_a_subtitle_file_under_a_name_attnmt_does_not_read_is_refused_in_one_line(trained_model, tmp_path, capsys, name,
                                                                                  data, advice):
    """Read as text, its every line went to the model, the timings and styles of "Dialogue:
    0,0:00:01.00,…" and "{1}{25}" with it, and a file no player reads came back with exit 0."""
    source = tmp_path / name
    source.write_bytes(data)
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
    kind = "an ASS/SSA" if name == "film.subs" else "a MicroDVD"
    assert code == 2 and err == (f"attnmt: error: {source} is {kind} subtitle file, not text: {advice}, or give "
                                 "--input-format text to translate its lines as they are\n")
    assert not (tmp_path / "out").exists()


def test_a_txt_file_that_starts_like_rich_text_format_is_still_text(trained_model, tmp_path, capsys):
    source = tmp_path / "braces.txt"
    source.write_text("{\\rtf1 a dog runs}\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and out.count("\n") == 1


def test_a_txt_file_that_starts_with_markup_is_still_text(trained_model, tmp_path, capsys):
    source = tmp_path / "tags.txt"
    source.write_text("<b>a dog runs</b>\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and out.count("\n") == 1


@pytest.mark.parametrize(("start", "message"), [
    (b"PK\x03\x04", "is a zip archive (an office file?), not text, despite its .txt name: name it by its format "
                     "(.docx, .pptx, .xlsx, .odt, .odp, .ods, .epub) or give the format with --input-format (docx, "),
    (bytes.fromhex("d0cf11e0a1b11ae1"), "is a compound file (an old .doc, .xls or .ppt, or a password-protected "
                                        "office file?), not text, despite its .txt name: attnmt translates .docx, "),
], ids=["zip", "ole"])
def test_an_office_file_named_txt_is_said_to_be_one_despite_its_name(trained_model, tmp_path, capsys, start, message):
    """It was "attnmt does not translate files ending in .txt: it translates .txt, …"."""
    source = tmp_path / "letter.txt"
    source.write_bytes(start + bytes(100))
    code, _, err = run(["translate", "--model", trained_model, source], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} {message}") and err.count("\n") == 1


@pytest.mark.parametrize("name", ["page.html", "page.htm.gz", "data.xml", "strings.xlf", "film.srt", "film.vtt",
                                  "notes.md"])
def test_an_office_file_named_as_a_text_format_is_said_to_be_one_as_the_server_says(trained_model, tmp_path, capsys,
                                                                                      name):
    """It was "page.html:1: invalid UTF-8 (byte 0x9d); convert the file to UTF-8, e.g. with iconv", where the
    server says what it is (attnmt.documents.files.check_not_archive)."""
    source = tmp_path / name
    data = b"PK\x03\x04\x14\x00\x9d" + bytes(100)
    source.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    suffix = name.removesuffix(".gz")[name.index("."):]
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} is a zip archive (an office file?), not text, "
                                        f"despite its {suffix} name: name it by its format (.docx, ")
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["scan.pdf", "scan.txt", "scan"])
def test_a_pdf_is_refused_in_one_line_saying_how_to_convert_it(trained_model, tmp_path, capsys, name):
    """It was "scan.pdf:2: invalid UTF-8 (byte 0xe2); convert the file to UTF-8, e.g. with iconv"."""
    source = tmp_path / name
    source.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
    code, _, err = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
    assert code == 2 and err == (f"attnmt: error: {source} is a PDF, not text, and attnmt does not translate it: "
                                 "convert it to .docx or .odt first (e.g. with LibreOffice: soffice --headless "
                                 f"--infilter=writer_pdf_import --convert-to docx {name}) and translate that\n")
    assert not (tmp_path / "out").exists()


def test_a_picture_is_refused_in_one_line_saying_what_it_is(trained_model, tmp_path, capsys):
    source = tmp_path / "photo.jpg"
    source.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(100))
    code, _, err = run(["translate", "--model", trained_model, source], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {source} is a JPEG image, not text, and attnmt does not "
                                        "translate it: ") and err.count("\n") == 1


SUBTITLES = ("1\n00:00:01,000 --> 00:00:02,000\na dog runs.\n\n2\n00:00:03,000 --> 00:00:04,000\nthe boy laughs.\n\n"
             "a cat sleeps\n")  # the last block has no timing line: not a cue, left as it is


@pytest.mark.parametrize("suffix", [".srt", ".SRT"])
def test_a_subtitle_file_is_translated_as_subtitles_by_its_extension(trained_model, tmp_path, capsys, suffix):
    source = tmp_path / f"film{suffix}"
    source.write_text(SUBTITLES, encoding="utf-8")
    with pytest.warns(UserWarning, match=f"^{source}, line 9: a block without a timing line"):
        code, by_extension, _ = run(["translate", "--model", trained_model, source], capsys)
    with pytest.warns(UserWarning, match="a block without a timing line"):
        _, named, _ = run(["translate", "--model", trained_model, "--input-format", "srt", source], capsys)
    assert code == 0 and by_extension == named
    assert by_extension.startswith("1\n00:00:01,000 --> 00:00:02,000\nein hund rennt")
    assert "\n\n2\n00:00:03,000 --> 00:00:04,000\nder junge lacht" in by_extension
    assert by_extension.endswith("\n\na cat sleeps\n")


@pytest.mark.parametrize("name, text", [("film.srt", SUBTITLES), ("page.html", "<html><body>\n<p>a dog runs.</p>\n"
                                                                       "<p>the boy laughs.</p>\n</body></html>\n"),
                                        ("notes.txt", "a dog runs.\n\nthe boy laughs.\n")],
                         ids=["srt", "html", "txt"])  # a .txt came back without them
def test_a_file_read_whole_keeps_its_byte_order_mark_and_line_endings_as_the_server_does(
        trained_model, tmp_path, capsys, name, text):
    plain, windows = tmp_path / name, tmp_path / f"windows_{name}"
    plain.write_text(text, encoding="utf-8")
    windows.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the subtitles' block without a timing line
        for source in plain, windows:
            code, _, _ = run(["translate", "--model", trained_model, source, tmp_path / f"{source.stem}.de"], capsys)
            assert code == 0
    translated = (tmp_path / f"{plain.stem}.de").read_bytes()
    assert b"\r" not in translated and translated.count(b"\n") == text.count("\n")
    assert (tmp_path / f"{windows.stem}.de").read_bytes() == b"\xef\xbb\xbf" + translated.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("input_format", ["html", "xml"])
def test_a_file_of_fragments_a_line_keeps_its_byte_order_mark_and_line_endings(
        trained_model, tmp_path, capsys, input_format):
    """As a text file's lines do: a file of markup a line saved on Windows came back in LF, without
    its byte order mark."""
    text = "a <b>dog</b> runs\nthe boy <i>laughs</i>\n<br/>"
    plain, windows = tmp_path / "lines.txt", tmp_path / "windows_lines.txt"
    plain.write_text(text, encoding="utf-8")
    windows.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    for source in plain, windows:
        code, _, _ = run(["translate", "--model", trained_model, "--input-format", input_format, source,
                          tmp_path / f"{source.stem}.de"], capsys)
        assert code == 0
    translated = (tmp_path / "lines.de").read_bytes()
    assert translated.count(b"\n") == 2 and b"\r" not in translated and b"<b>" in translated
    assert (tmp_path / "windows_lines.de").read_bytes() == b"\xef\xbb\xbf" + translated.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("name, text", [("film.srt", "1\n00:00:01,000 --> 00:00:02,000\na dog runs."),
                                        ("page.html", "<html><body>\n<p>a dog runs.</p>\n</body></html>"),
                                        ("notes.txt", "a dog runs.\n\nthe boy laughs.")], ids=["srt", "html", "txt"])
def test_a_file_whose_last_line_has_no_line_ending_is_translated_without_one_as_the_server_does(
        trained_model, tmp_path, capsys, name, text):
    """The command line added a final line ending the file did not have; the server kept it out."""
    for newline in "\n", "\r\n":
        source = tmp_path / name
        source.write_bytes(text.replace("\n", newline).encode())
        code, _, _ = run(["translate", "--model", trained_model, source, tmp_path / "out"], capsys)
        translated = (tmp_path / "out").read_bytes()
        assert code == 0 and not translated.endswith(b"\n") and translated.count(b"\n") == text.count("\n")
        assert translated.count(newline.encode()) == text.count("\n")


def test_input_format_text_reads_a_subtitle_file_as_lines(trained_model, tmp_path, capsys):
    source = tmp_path / "film.srt"
    source.write_text(SUBTITLES, encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, "--input-format", "text", "--no-split", source], capsys)
    lines = out.splitlines()
    assert code == 0 and len(lines) == SUBTITLES.count("\n") and lines[-1] == "eine katze schläft"


def test_per_line_output_of_a_file_chosen_by_its_extension_names_the_file_and_the_way_out(
        trained_model, tmp_path, capsys):
    source = tmp_path / "page.html"
    source.write_text("<p>a dog runs</p>\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--output-format", "tsv", source], capsys)
    assert code == 2 and err.strip() == (f"attnmt: error: {source} is translated as html (its extension; "
                                         "--input-format text reads it as lines): leave out --output-format, "
                                         "--n-best, --alignments, --confidence and --prefix")
    code, out, _ = run(["translate", "--model", trained_model, "--output-format", "tsv", "--input-format", "text",
                        source], capsys)
    assert code == 0 and len(out.splitlines()) == 1


def test_markup_files_chosen_by_their_extension_are_read_whole_as_the_server_reads_them(
        trained_model, tmp_path, capsys):
    """A file that is no whole document (no doctype, <html> or XML declaration) is one fragment, not one
    fragment a line: a paragraph wrapped over two lines and the closing tags on lines of their own
    stay whole.  (--input-format html reads such a file a fragment a line.)"""
    page, notes = tmp_path / "part.html", tmp_path / "notes.xml"
    page.write_text('<div class="note">\n  <p>a dog\n  runs</p>\n</div>\n', encoding="utf-8")
    notes.write_text("<root>\n  <item>a dog runs</item>\n  <item>the boy laughs</item>\n</root>\n", encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, page], capsys)
    assert code == 0 and out == '<div class="note">\n  <p>ein hund rennt</p>\n</div>\n'
    code, out, _ = run(["translate", "--model", trained_model, notes], capsys)
    assert code == 0 and out == ("<root>\n  <item>ein hund rennt</item>\n  <item>der junge lacht</item>\n"
                                 "</root>\n")


def test_an_android_strings_file_keeps_its_placeholders_through_the_model(trained_model, tmp_path, capsys):
    """Through a real model, an Android strings.xml's ``%1$s`` and ``<xliff:g>`` come back as written
    (read as words, the model dropped them), its strings translated."""
    strings = tmp_path / "strings.xml"
    strings.write_text('<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:'
                       'document:1.2">\n    <string name="a">a dog runs %1$s</string>\n    <string name="b">the boy '
                       'laughs <xliff:g id="n">%d</xliff:g></string>\n</resources>\n', encoding="utf-8")
    code, out, _ = run(["translate", "--model", trained_model, strings], capsys)
    assert code == 0 and out.count("%1$s") == 1 and out.count('<xliff:g id="n">%d</xliff:g>') == 1
    assert "ein hund rennt" in out and "der junge lacht" in out


def test_a_compressed_subtitle_file_is_chosen_by_the_extension_before_gz(trained_model, tmp_path, capsys):
    import gzip

    source = tmp_path / "film.srt.gz"
    with gzip.open(source, "wt", encoding="utf-8") as f:
        f.write(SUBTITLES)
    with pytest.warns(UserWarning, match="a block without a timing line"):
        code, out, _ = run(["translate", "--model", trained_model, source], capsys)
    assert code == 0 and out.startswith("1\n00:00:01,000 --> 00:00:02,000\nein hund rennt")


def test_messages_about_a_format_chosen_by_the_extension_name_the_file(trained_model, tmp_path, capsys):
    film = tmp_path / "film.srt"
    film.write_text(SUBTITLES, encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, "--min-quality", "0.5", film], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: --min-quality on {film}, translated as srt (its extension; "
                                        "--input-format text reads it as lines) sets which sentences")
    code, _, err = run(["translate", "--model", trained_model, "--output-format", "tsv", tmp_path / "in.docx",
                        tmp_path / "out.docx"], capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {tmp_path / 'in.docx'} is translated as .docx (its "
                                        "extension): leave out --output-format")


def test_a_file_read_whole_that_the_model_fails_on_is_one_line_and_nothing_written(
        trained_model, tmp_path, capsys, monkeypatch):
    from attnmt.decoding.failed_sentences import SentencesFailed
    from attnmt.documents import translators

    translate = translators.ModelTranslator.translate

    def failing(self, sentences, weighed):
        failures = {i: RuntimeError("boom") for i, s in enumerate(sentences) if "boy" in s}
        if failures:
            raise SentencesFailed(failures)
        return translate(self, sentences, weighed)

    monkeypatch.setattr(translators.ModelTranslator, "translate", failing)
    page, output = tmp_path / "part.html", tmp_path / "part.de.html"
    page.write_text("<p>a dog runs.</p>\n<p>the boy laughs.</p>\n", encoding="utf-8")
    output.write_text("the last translation\n", encoding="utf-8")
    code, _, err = run(["translate", "--model", trained_model, page, output], capsys)
    assert code == 2 and err == (f"attnmt: error: {page}: not translated, the model failed on 1 of its sentences "
                                 "(the first: RuntimeError: boom); nothing was written\n")
    assert output.read_text(encoding="utf-8") == "the last translation\n"


def office_file(suffix: str, sentences: list[str]) -> bytes:
    """A file of the kind ``suffix`` names holding ``sentences``, one a paragraph (a slide, a cell), built
    with its own library."""
    out = io.BytesIO()
    if suffix == ".docx":
        import docx

        document = docx.Document()
        for sentence in sentences:
            document.add_paragraph(sentence)
    elif suffix == ".pptx":
        import pptx

        document = pptx.Presentation()
        for sentence in sentences:
            document.slides.add_slide(document.slide_layouts[5]).shapes.title.text = sentence
    elif suffix == ".xlsx":
        import openpyxl

        document = openpyxl.Workbook()
        for row, sentence in enumerate(sentences, 1):
            document.active.cell(row, 1, sentence)
    elif suffix == ".odt":
        from odf.opendocument import OpenDocumentText
        from odf.text import P

        document = OpenDocumentText()
        for sentence in sentences:
            document.text.addElement(P(text=sentence))
    else:
        from ebooklib import epub

        document = epub.EpubBook()
        document.set_identifier("id-1")
        document.set_language("en")
        chapter = epub.EpubHtml(file_name="one.xhtml", lang="en",
                                content="".join(f"<p>{sentence}</p>" for sentence in sentences))
        document.add_item(chapter)
        document.spine = [chapter]
        epub.write_epub(out, document)
        return out.getvalue()
    document.save(out)
    return out.getvalue()


@pytest.mark.parametrize("suffix", [".docx", ".pptx", ".xlsx", ".odt", ".epub"])
def test_an_office_file_that_the_model_fails_on_is_one_line_and_nothing_written(
        trained_model, tmp_path, capsys, failing_on_the_boy, suffix):
    """It was a traceback of the search's SentencesFailed, exit status 1, that named no file and counted
    its distinct sentences ("the first on sentence 2"): the other formats read whole say this line."""
    source, output = tmp_path / f"report{suffix}", tmp_path / f"report.de{suffix}"
    source.write_bytes(office_file(suffix, ["a dog runs", failing_on_the_boy]))
    output.write_bytes(b"the last translation")
    code, out, err = run(["translate", "--model", trained_model, source, output], capsys)
    assert code == 2 and out == "" and err == (f"attnmt: error: {source}: not translated, the model failed on 1 of "
                                               "its sentences (the first: RuntimeError: boom); nothing was written\n")
    assert output.read_bytes() == b"the last translation"


def test_a_repair_in_a_fragment_read_whole_names_its_line(trained_model, tmp_path, capsys):
    page = tmp_path / "part.html"
    page.write_text("<p>a dog runs</p>\n<p>the boy laughs</p>\n<p>a <b>cat</p>\n", encoding="utf-8")
    with pytest.warns(UserWarning, match=f"^{page}: markup repaired .* the first at line 3: "):
        code, _, _ = run(["translate", "--model", trained_model, page], capsys)
    assert code == 0


def test_an_html_fragment_file_keeps_what_follows_a_stray_end_tag_and_the_warning_names_its_line(
        trained_model, tmp_path, capsys):
    """What followed the </body> was dropped, and the warning named line 4 of a file of 3: that of the
    </body> lxml's wrapper adds after the text, unexpected once the text's own had closed the body."""
    source, output = tmp_path / "end.html", tmp_path / "end.de.html"
    source.write_text("<p>a dog runs</p>\n</body>\n<p>the boy laughs</p>\n", encoding="utf-8")
    with pytest.warns(UserWarning, match=f"^{source}: markup repaired .* the first at line 2: Unexpected end tag : "
                                         "body\\)"):
        assert run(["translate", "--model", trained_model, source, output], capsys)[0] == 0
    assert output.read_text(encoding="utf-8") == "<p>ein hund rennt</p>\n\n<p>der junge lacht</p>\n"


def test_html_lines_and_texts_keep_what_follows_a_stray_end_tag(trained_model, tmp_path, capsys, client):
    source = tmp_path / "in.html"
    source.write_text("<p>a dog runs</p></html><p>the boy laughs</p>\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="markup repaired"):
        code, out, _ = run(["translate", "--model", trained_model, "--input-format", "html", source], capsys)
    assert code == 0 and out == "<p>ein hund rennt</p><p>der junge lacht</p>\n"
    model, tokenizer = load_model_dir(trained_model)[:2]
    with pytest.warns(UserWarning, match="markup repaired"):
        assert translate_html_texts(model, tokenizer, ["<p>a dog runs</p></body><p>the boy laughs</p>"]) == [
            "<p>ein hund rennt</p><p>der junge lacht</p>"]
    libre = client.post("/translate", json={"q": "<p>a dog runs</p></html><p>the boy laughs</p>", "source": "en",
                                            "target": "de", "format": "html"})
    assert libre.status_code == 200
    assert libre.json() == {"translatedText": "<p>ein hund rennt</p><p>der junge lacht</p>"}


def test_a_translation_is_never_written_over_its_input(trained_model, tmp_path, capsys):
    source = tmp_path / "notes.txt"
    source.write_text("a dog runs\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.hardlink_to(source)
    (tmp_path / "sub").mkdir()
    for output in (source, tmp_path / "sub" / ".." / "notes.txt", link):
        code, _, err = run(["translate", "--model", trained_model, source, output], capsys)
        assert code == 2 and err.startswith(f"attnmt: error: the output {output} is the input file: give it a "
                                            "file of its own (notes.translated.txt)")
    assert source.read_text(encoding="utf-8") == "a dog runs\n"
    code, _, _ = run(["translate", "--model", trained_model, source, tmp_path / "notes.de.txt"], capsys)
    assert code == 0 and (tmp_path / "notes.de.txt").read_text(encoding="utf-8") == "ein hund rennt\n"
