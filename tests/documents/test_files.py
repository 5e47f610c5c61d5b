"""A file's bytes and name in, the translated file's bytes out (attnmt.documents.files), with the
stand-in translators of conftest.py."""

import io
import re
import shlex
import warnings

import docx
import numpy as np
import pytest
import torch
from flat_files import flat_file
from lxml import etree
from office_files import docx_bytes, epub2_file, read_members, sheet_file, slides_file, text_file, word_paragraph

from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.decoding.glossary import Glossary
from attnmt.documents.failed import FileFailed, Replaying, Sparing
from attnmt.documents.files import (
    PROGRESS_STEP,
    Counted,
    supported_suffixes,
    translate_file_bytes,
    translated_name,
)
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.translator_parts import in_order, within_bytes, xml_text
from attnmt.documents.translators import FoundTranslations
from attnmt.errors import ConfigError, LeftUntranslated, UserError

OPTIONS = DocumentOptions()


def test_a_text_file_is_translated_line_by_line_with_its_line_endings(mirror):
    out = translate_file_bytes(b"A red car.\r\n\r\nTwo dogs run.\r\n", "notes.txt", mirror, OPTIONS)
    assert out == b"CAR. RED A\r\n\r\nRUN. DOGS TWO\r\n"


def test_a_text_file_that_mixes_line_endings_keeps_each_lines_own(mirror):
    """A file pasted together from Windows and Unix sources got CRLF on every line."""
    out = translate_file_bytes(b"A red car.\r\nTwo dogs run.\nA cat.\r\n", "notes.txt", mirror, OPTIONS)
    assert out == b"CAR. RED A\r\nRUN. DOGS TWO\nCAT. A\r\n"


def test_a_byte_order_mark_is_kept(mirror):
    assert translate_file_bytes(b"\xef\xbb\xbfa dog", "a.txt", mirror, OPTIONS) == b"\xef\xbb\xbfDOG A"


def test_an_html_file_keeps_its_markup_and_gets_the_target_language(same):
    page = b"<!DOCTYPE html><html lang='en'><body><p>A <b>red</b> car.</p></body></html>"
    out = translate_file_bytes(page, "page.HTM", same, DocumentOptions(target_lang="de")).decode()
    assert out.startswith("<!DOCTYPE html>") and "<html lang='de'>" in out and "<p>A <b>red</b> car.</p>" in out
    assert same.given == ["A red car."]


@pytest.mark.parametrize("prolog", ["", '<?xml version="1.0" encoding="UTF-8"?>\n'])
def test_an_xhtml_file_is_read_as_html_and_written_as_xml(same, prolog):
    # written as HTML, <br/> would become <br> and the page, served as XHTML, no longer parse
    page = (f'{prolog}<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>Dogs</title></head>'
            "<body><p>A <b>red</b> car.<br/>Two dogs play.</p><script>var a = 1 &lt; 2;</script></body></html>")
    out = translate_file_bytes(page.encode(), "book.XHTML", same, DocumentOptions(target_lang="de")).decode()
    assert out.startswith(prolog) and "<br/>" in out and "1 &lt; 2" in out
    assert '<html xmlns="http://www.w3.org/1999/xhtml" lang="de" xml:lang="de">' in out
    assert same.given == ["Dogs", "A red car.", "Two dogs play."]
    etree.fromstring(out.removeprefix(prolog).encode())  # well-formed


def test_an_xhtml_file_without_lang_gets_xml_lang_only(mirror):
    out = translate_file_bytes(b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a dog</p></body></html>',
                               "p.xhtml", mirror, DocumentOptions(target_lang="de")).decode()
    assert out == '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="de"><body><p>DOG A</p></body></html>'


@pytest.mark.parametrize(("name", "page"), [
    ("y5.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>Sleep</title></head>'
                 "<body><p>A man sleeps.</p></body></html>"),
    ("y5.html", '<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>Sleep</title></head>'
                "<body><p>A man sleeps.</p></body></html>"),
    ("units.xml", "<xliff><target>A man sleeps.</target></xliff>"),
], ids=["xhtml", "html", "xml"])
@pytest.mark.parametrize(("declaration", "written"), [
    ('<?xml version="1.0" encoding="iso-8859-1"?>', b"Ein Mann schl\xe4ft."),
    ("<?xml version='1.0' encoding = 'US-ASCII' standalone='yes'?>", b"Ein Mann schl&#228;ft."),
], ids=["iso-8859-1", "us-ascii"])
def test_an_xml_declaration_is_kept_and_the_file_written_in_its_encoding(fixed, name, page, declaration, written):
    """The file is read and written back in the encoding its declaration names, which every XML parser
    reads it in: a character that encoding cannot hold becomes a character reference.  (An HTML
    browser reads US-ASCII as Windows-1252, which holds "ä": attnmt.documents.charsets.)"""
    translator = fixed("Ein Mann schläft.", [])
    out = translate_file_bytes(f"{declaration}\n{page}".encode(), name, translator, DocumentOptions(target_lang="de"))
    assert out.startswith(declaration.encode() + b"\n")
    assert (b"Ein Mann schl\xe4ft." if name == "y5.html" else written) in out
    if name != "y5.html":
        assert "Ein Mann schläft." in [element.text for element in etree.fromstring(out).iter()]


def test_an_html_page_in_windows_1252_is_written_back_in_it_byte_for_byte_but_its_text(fixed):
    """Word's "Save as Web Page" writes Windows-1252 and says so; such a page was refused as invalid UTF-8."""
    page = ('<!DOCTYPE html>\r\n<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head>\r\n'
            "<body><p>A caf\u00e9 \u201cnoir\u201d.</p></body></html>\r\n")
    translator = fixed("Ein Caf\u00e9 \u201eNoir\u201c \u2192 5 \u20ac.", [])
    out = translate_file_bytes(page.encode("cp1252"), "w.html", translator, OPTIONS)
    assert out == ('<!DOCTYPE html>\r\n<html><head><meta charset="windows-1252"><title>Ein Caf\u00e9 \u201eNoir\u201c '
                   "&#8594; 5 \u20ac</title></head>\r\n<body><p>Ein Caf\u00e9 \u201eNoir\u201c &#8594; 5 \u20ac.</p>"
                   "</body></html>\r\n").encode("cp1252")


def test_an_html_page_in_shift_jis_declared_by_http_equiv_is_read_and_written_in_it(mirror):
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head>'
            "<body><p>\u732b a dog</p></body></html>")
    out = translate_file_bytes(page.encode("shift_jis"), "j.htm", mirror, OPTIONS)
    assert out == page.replace("\u732b a dog", "DOG A \u732b").encode("shift_jis")


def test_an_xml_file_in_iso_8859_1_keeps_its_bytes_and_declaration(mirror):
    data = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<doc note="\u00e9t\u00e9"><p>a caf\u00e9</p></doc>\n'
    out = translate_file_bytes(data.encode("latin-1"), "d.xml", mirror, OPTIONS)
    assert out == data.replace("a caf\u00e9", "CAF\u00c9 A").encode("latin-1")


def test_an_xliff_file_in_iso_8859_1_is_read_and_written_back_in_it(mirror):
    """XLIFF is XML, and a file that declares ISO-8859-1 is read in it, as an .xml file is: it was refused
    as "not UTF-8 (byte 0xe9)", with iconv's advice, where every XML reader and CAT tool reads it."""
    data = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" '
            'version="1.2"><file source-language="en" target-language="de" datatype="plaintext" original="a">'
            '<body>\n<trans-unit id="1"><source>a caf\u00e9</source></trans-unit>\n</body></file></xliff>\n')
    out = translate_file_bytes(data.encode("latin-1"), "cafe.xlf", mirror, OPTIONS)
    target = '<target state="needs-review-translation" state-qualifier="mt-suggestion">CAF\u00c9 A</target>'
    assert out == data.replace("</source>", "</source>" + target).encode("latin-1")


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
@pytest.mark.parametrize(("name", "page"), [
    ("strings.xml", '<?xml version="1.0" encoding="UTF-16"?>\r\n<doc>\r\n  <p>a caf\u00e9</p>\r\n</doc>\r\n'),
    ("page.html", '<html><head><meta charset="utf-16"></head><body><p>a caf\u00e9</p></body></html>'),
    ("app.xlf", '<?xml version="1.0" encoding="UTF-16"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" '
                'version="1.2"><file source-language="en" target-language="de" datatype="plaintext" original="a">'
                '<body><trans-unit id="1"><source>a caf\u00e9</source></trans-unit></body></file></xliff>'),
], ids=["xml", "html", "xliff"])
def test_a_page_with_a_utf16_or_utf32_byte_order_mark_is_read_and_written_back_in_it(mirror, encoding, name, page):
    """XML may be UTF-16 (a .resx, an XLIFF saved by a Windows tool), and says so by its byte order mark,
    which every XML reader honours; such a file was refused as "the text is UTF-16, not UTF-8"."""
    out = translate_file_bytes(("\ufeff" + page).encode(encoding), name, mirror, OPTIONS)
    target = '<target state="needs-review-translation" state-qualifier="mt-suggestion">CAF\u00c9 A</target>'
    translated = (page.replace("</source>", "</source>" + target) if name == "app.xlf"
                  else page.replace("a caf\u00e9", "CAF\u00c9 A"))
    assert out == ("\ufeff" + translated).encode(encoding)


def test_a_page_in_utf8_that_still_declares_windows_1252_is_read_as_utf8(mirror):
    """A page re-saved as UTF-8 under an old declaration was read as UTF-8 before declarations were read;
    read by the declaration, "café" became "cafÃ©" (review s41f)."""
    page = '<html><head><meta charset="windows-1252"></head><body><p>a caf\u00e9</p></body></html>'
    out = translate_file_bytes(page.encode("utf-8"), "m.html", mirror, OPTIONS)
    assert "CAF\u00c9 A" in out.decode("utf-8")
    assert mirror.given == ["a caf\u00e9"]


def test_a_byte_order_mark_wins_over_the_declared_encoding(mirror):
    page = '\ufeff<html><head><meta charset="windows-1252"></head><body><p>a caf\u00e9</p></body></html>'
    out = translate_file_bytes(page.encode("utf-8"), "b.html", mirror, OPTIONS)
    assert out.decode("utf-8").startswith('\ufeff<html><head><meta charset="utf-8">') and "CAF\u00c9 A" in out.decode()


def test_a_declared_encoding_python_does_not_know_is_one_line_naming_the_file(mirror):
    page = b'<?xml version="1.0" encoding="x-klingon"?>\n<doc><p>a dog</p></doc>'
    with pytest.raises(UserError, match=r"^k\.xml: the file declares the encoding x-klingon, which attnmt cannot read"):
        translate_file_bytes(page, "k.xml", mirror, OPTIONS)


def test_bytes_not_in_the_declared_encoding_are_named_by_line(mirror):
    page = b'<?xml version="1.0" encoding="Shift_JIS"?>\n<doc>\n<p>a \xff dog</p></doc>'
    with pytest.raises(UserError, match=r"^s\.xml, line 3: the text is not shift_jis, which the file declares "
                                        r"\(byte 0xff\)"):
        translate_file_bytes(page, "s.xml", mirror, OPTIONS)


def test_an_xml_file_is_translated_as_markup(mirror):
    out = translate_file_bytes(b'<?xml version="1.0"?>\n<doc><p>a dog</p></doc>', "d.xml", mirror, OPTIONS)
    assert out == b'<?xml version="1.0"?>\n<doc><p>DOG A</p></doc>'


WORD_2003 = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<?mso-application progid="Word.Document"?>'
             '<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml"><w:body><w:p>'
             '<w:r><w:t>A man </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>ri</w:t></w:r>'
             '<w:r><w:t>des a bike.</w:t></w:r></w:p></w:body></w:wordDocument>')
FLAT_OPC = ('<?xml version="1.0" standalone="yes"?>\r\n<?mso-application progid="Excel.Sheet"?>'
            '<pkg:package xmlns:pkg="http://schemas.microsoft.com/office/2006/xmlPackage"/>')


@pytest.mark.parametrize(("page", "progid", "saved_as"), [
    (WORD_2003, "Word.Document", "a Word document (.docx)"),
    (FLAT_OPC, "Excel.Sheet", "an Excel workbook (.xlsx)"),
], ids=["word-2003-xml", "flat-opc"])
def test_an_office_document_saved_as_xml_is_refused_in_one_line(mirror, page, progid, saved_as):
    """Read as plain XML, each run went to the model apart ("A man", "ri", "des a bike."), and the file
    came back with its words broken."""
    message = (f'^doc\\.xml: an office document saved as XML \\(<\\?mso-application progid="{progid}"\\?>\\), '
               f"not plain XML: each run of its words would be translated apart; save it as {re.escape(saved_as)} and "
               "translate that$")
    with pytest.raises(UserError, match=message):
        translate_file_bytes(page.encode(), "doc.xml", mirror, OPTIONS)
    assert mirror.given == []


@pytest.mark.parametrize(("kind", "name"), [("text", ".fodt"), ("spreadsheet", ".fods"), ("presentation", ".fodp")])
def test_a_libreoffice_flat_file_named_xml_is_refused_in_one_line(mirror, kind, name):
    """Read as plain XML, its settings' "true" and "false" and its styles' names went to the model with
    its words, and LibreOffice read the file back with its settings broken."""
    with pytest.raises(UserError, match=rf'^flat\.xml: a LibreOffice flat file \(office:mimetype="application/vnd\.'
                                        rf'oasis\.opendocument\.{kind}"\), not plain XML: name it \{name} and '
                                        "translate that$"):
        translate_file_bytes(flat_file(kind), "flat.xml", mirror, OPTIONS)
    assert mirror.given == []


def test_an_xml_file_with_another_processing_instruction_is_still_xml(mirror):
    page = b'<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?><doc><p>a dog</p></doc>'
    assert translate_file_bytes(page, "d.xml", mirror, OPTIONS).endswith(b"<doc><p>DOG A</p></doc>")


def test_a_subtitle_file_keeps_its_numbers_and_timings(mirror):
    srt = b"1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n\n2\n00:00:03,000 --> 00:00:04,000\nA cat sleeps.\n"
    out = translate_file_bytes(srt, "film.srt", mirror, OPTIONS)
    assert out == b"1\n00:00:01,000 --> 00:00:02,000\nRUNS. DOG A\n\n2\n00:00:03,000 --> 00:00:04,000\nSLEEPS. CAT A\n"


def test_progress_counts_the_sentences_in_steps(same):
    lines = "\n".join(f"Sentence number {k}." for k in range(PROGRESS_STEP + 5)).encode()
    seen = []
    translate_file_bytes(lines, "many.txt", same, OPTIONS, progress=lambda done, total: seen.append((done, total)))
    total = PROGRESS_STEP + 5
    assert seen == [(0, total), (PROGRESS_STEP, total), (total, total)]


def test_a_text_files_progress_counts_a_repeated_sentence_once(same):
    """As docs/serving.md says: a text file's sentences are translated once each, and counted so."""
    seen = []
    translate_file_bytes(b"A dog runs.\nA cat sleeps.\nA dog runs.\n", "notes.txt", same, OPTIONS,
                         progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 2), (2, 2)]


def test_a_subtitle_files_progress_only_grows_when_a_run_is_translated_again(fixed):
    """"Hello" / "there" / "friend." translated as one word is translated again cue by cue, a second
    call of three sentences: they join the total, and done goes on from the first call's 2."""
    srt = (b"1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n\n2\n00:00:03,000 --> 00:00:04,000\nHello\n\n"
           b"3\n00:00:04,000 --> 00:00:05,000\nthere\n\n4\n00:00:05,000 --> 00:00:06,000\nfriend.\n")
    seen = []
    translate_file_bytes(srt, "film.srt", fixed("Wort.", [(0, 0)]), OPTIONS,
                         progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 2), (2, 2), (2, 5), (5, 5)]


def test_a_text_file_with_progress_keeps_its_translators_glossary(termed):
    """Counted, the translator progress is told through, answers with its translator's glossary: a
    line without letters takes the term as the glossary writes it, not upper-cased by the model."""
    out = translate_file_bytes(b"In 2012 it rained.\n2012\n", "notes.txt", termed, OPTIONS,
                               progress=lambda done, total: None)
    assert out == b"IN ZWEITAUSENDZW\xc3\x96LF IT RAINED.\nzweitausendzw\xc3\xb6lf\n"


@pytest.mark.parametrize("wrapped", [lambda inner: Counted(inner, lambda done, total: None), Sparing,
                                     lambda inner: Replaying(Sparing(inner))], ids=["Counted", "Sparing", "Replaying"])
def test_a_wrapped_translators_glossary_and_fits_are_its_translators(wrapped, same):
    """Counted, Sparing and Replaying (a Wrapper each) answer with the glossary and ``fits`` of the
    translator they hand sentences to; with None and ``within_bytes`` (translator_parts.translator_fits)
    where it has neither."""
    glossary = Glossary.of({"2012": "zweitausendzwölf"})
    inner = FoundTranslations({}, glossary=glossary, fits=lambda sentence: len(sentence) < 9)
    wrapper = wrapped(inner)
    assert wrapper.glossary is glossary
    assert wrapper.fits("short") and not wrapper.fits("a long sentence")
    assert wrapped(same).glossary is None and wrapped(same).fits is within_bytes  # none of its own


@pytest.mark.parametrize("name, message", [
    ("program.exe", "program.exe: the extension .exe is not a format attnmt translates; the formats are .txt, "
                    ".html, .htm, .xhtml, .xml, .xlf, .xliff, .sdlxliff, .mqxliff, .mxliff, .srt, .vtt, .webvtt, "
                    ".ass, .ssa, .md, .markdown, .mdx, .resx, .ts, "),
    ("README", "README: no extension is not a format"),
])
def test_an_unknown_extension_is_one_clear_error(same, name, message):
    with pytest.raises(UserError, match="^" + message.replace(".", r"\.")):
        translate_file_bytes(b"a dog", name, same, OPTIONS)
    assert same.given == []


def test_a_webvtt_file_named_webvtt_is_read_as_webvtt(mirror):
    """A .webvtt was no format attnmt knew: read as text, its header, notes and timing lines went to the model."""
    data = b"WEBVTT\n\nNOTE made by hand\n\nintro\n00:01.000 --> 00:04.000 align:start\n<v Roger>A dog runs.</v>\n"
    out = translate_file_bytes(data, "talk.webvtt", mirror, OPTIONS)
    assert out == data.replace(b"A dog runs.", b"RUNS. DOG A")
    assert mirror.given == ["A dog runs."]



class OneShort:
    def translate(self, sentences, weighed):
        return sentences[:-1], [None] * len(sentences)


class TextsAlone:
    def translate(self, sentences, weighed):
        return list(sentences)


class NoTexts:
    def translate(self, sentences, weighed):
        return [None] * len(sentences), [None] * len(sentences)


@pytest.mark.parametrize(("translator", "message"), [
    (OneShort(), r"^OneShort.translate returned 1 text for 2 sentences: give one per sentence$"),
    (TextsAlone(), r"^TextsAlone.translate returned list \['a dog runs.', 'a cat sleeps.'\], not a \(texts, "),
    (NoTexts(), r"^NoTexts.translate returned None among its texts: each translation is a str$"),
])
@pytest.mark.parametrize("progress", [None, lambda done, total: None])
def test_a_translator_that_answers_in_the_wrong_shape_is_named_in_one_line(translator, message, progress):
    """A user's translator that gave a text short, its texts alone (no weights) or None for a
    text failed with zip() argument 2 is shorter, too many values to unpack, or 'NoneType' object
    is not iterable."""
    with pytest.raises(ConfigError, match=message):
        translate_file_bytes(b"a dog runs. a cat sleeps.", "a.txt", translator, OPTIONS, progress)


class Unweighed:
    """A translator of one's own that gives no weights, None even where they are asked for: each
    sentence upper-cased, then ``added`` to it."""

    def __init__(self, added: str = "", weights: object = None) -> None:
        self.added, self.weights = added, weights

    def translate(self, sentences, weighed):
        return [s.upper() + self.added for s in sentences], [self.weights] * len(sentences)


def test_words_without_weights_are_aligned_by_their_order():
    """The t-th of T target words goes to source word (2t + 1) S // 2T of S: three words onto six
    take the second, fourth and sixth; six onto three, each word twice."""
    assert in_order("a b c d e f", "x y z") == [[0, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 1]]
    assert [row.index(1) for row in in_order("a b c", "u v w x y z")] == [0, 0, 1, 1, 2, 2]
    assert in_order("a b", "") == []


def test_a_mark_keeps_its_words_where_the_translator_gives_no_weights():
    """Given None for a sentence a mark needed weights for, the mark went empty to the sentence's
    end: the bold was lost, "<p>A BIG DOG RUNS.<b></b></p>"."""
    out = translate_file_bytes(b"<p>A <b>big</b> dog runs.</p>", "a.html", Unweighed(), OPTIONS)
    assert out == b"<p>A <b>BIG</b> DOG RUNS.</p>"
    document = docx.Document()
    paragraph = document.add_paragraph("A ")
    paragraph.add_run("big").bold = True
    paragraph.add_run(" dog runs.")
    out = translate_file_bytes(docx_bytes(document), "a.docx", Unweighed(), OPTIONS)
    runs = docx.Document(io.BytesIO(out)).paragraphs[0].runs
    assert [(run.text, run.bold) for run in runs] == [("A ", None), ("BIG", True), (" DOG RUNS.", None)]


class Replacing(Unweighed):
    """A translator of one's own without weights: each sentence upper-cased, ``old`` in it then ``new``."""

    def __init__(self, old: str, new: str) -> None:
        super().__init__()
        self.old, self.new = old, new

    def translate(self, sentences, weighed):
        texts, weights = super().translate(sentences, weighed)
        return [text.replace(self.old, self.new) for text in texts], weights


@pytest.mark.parametrize("name", ["a.html", "a.xml", "a.docx"])
def test_control_characters_a_translator_writes_into_xml_are_left_out(name):
    """XML 1.0 holds none (lxml refused the page: "All strings must be XML compatible"), and a
    model writes none: its tokenizer leaves them out of what it reads."""
    data = b"<p>A dog runs.</p>"
    if name == "a.docx":
        document = docx.Document()
        document.add_paragraph("A dog runs.")
        data = docx_bytes(document)
    out = translate_file_bytes(data, name, Unweighed("\x0b\x01\ufffe"), OPTIONS)
    text = docx.Document(io.BytesIO(out)).paragraphs[0].text if name == "a.docx" else out.decode()
    assert text.removesuffix("</p>").endswith("A DOG RUNS.")


@pytest.mark.parametrize("name, data", [
    ("a.txt", b"A big dog runs.\n"),
    ("a.srt", b"1\n00:00:01,000 --> 00:00:02,000\nA big dog runs.\n")])
def test_a_text_file_keeps_the_control_characters_a_translator_writes(name, data):
    """They were left out of every format, as XML's: "A BIG\\x0cDOG" came back "A BIGDOG"."""
    out = translate_file_bytes(data, name, Replacing("BIG ", "BIG\x0c"), OPTIONS)
    assert out.endswith(b"A BIG\x0cDOG RUNS.\n")
    assert translate_file_bytes(data, name, Unweighed("\x07"), OPTIONS).endswith(b"A BIG DOG RUNS.\x07\n")


def test_a_control_character_between_two_words_of_a_page_is_a_space():
    """Left out, the two words became one, and the bold went empty before them: "A <b></b>BIGDOG RUNS."."""
    out = translate_file_bytes(b"<p>A <b>big</b> dog runs.</p>", "a.html", Replacing("BIG ", "BIG\x0b"), OPTIONS)
    assert out == b"<p>A <b>BIG</b> DOG RUNS.</p>"


@pytest.mark.parametrize("name", ["a.docx", "a.xlsx", "a.pptx", "a.odt", "a.epub", "a.html"])
def test_a_surrogate_alone_that_a_translator_writes_is_left_out_of_an_office_file_or_a_page(name):
    """A translator of one's own that cut an emoji in two ("\\ud83d", as a JSON answer may hold) made the
    file a UnicodeEncodeError: no encoding writes a surrogate alone.  Two that make a pair are the emoji."""
    data = {"a.docx": word_paragraph("<w:r><w:t>A dog runs.</w:t></w:r>"), "a.xlsx": sheet_file(),
            "a.pptx": slides_file(), "a.odt": text_file(), "a.epub": epub2_file(),
            "a.html": b"<p>A dog runs.</p>"}[name]
    out = translate_file_bytes(data, name, Replacing(".", " \ud83d.\ud83d\ude00"), OPTIONS)
    written = b"".join(read_members(out).values()) if out[:2] == b"PK" else out
    assert "\U0001f600".encode() in written and b"\xed\xa0\xbd" not in written


@pytest.mark.parametrize("name, data", [
    ("a.txt", b"A dog runs.\nA cat sits.\n"), ("a.srt", b"1\n00:00:01,000 --> 00:00:02,000\nA dog runs.\n"),
    ("a.vtt", b"WEBVTT\n\n00:01.000 --> 00:02.000\nA dog runs.\n"), ("a.txt", "A dog runs.\n".encode("utf-16"))])
def test_a_surrogate_alone_that_a_translator_writes_is_left_out_of_a_text_file(name, data):
    """No encoding writes one: a .txt or .srt was a UnicodeEncodeError.  Left out as where XML is written
    (a space between two words), and two that make a pair are the emoji they stand for."""
    out = translate_file_bytes(data, name, Replacing("DOG", "DOG\ud83dRUNS\ud83d\ude00"), OPTIONS)
    text = out.decode("utf-16" if data[:2] == b"\xff\xfe" else "utf-8")
    assert "A DOG RUNS\U0001f600 RUNS." in text and "\ud83d" not in text


def test_only_the_control_characters_a_sentence_does_not_hold_are_left_out_of_xml():
    """Those it holds, the format read, and writes again (an Excel cell's _x0007_); a run of the others
    between two words is one space, and at a word's end or beside a space none."""
    assert xml_text("A bell\x07 rings.", "A BELL\x07 RINGS.\x07\x01") == "A BELL\x07 RINGS.\x07"
    assert xml_text("A big dog.", "\x01A BIG\x0b\x0cDOG \x0b.\x01") == "A BIG DOG ."
    assert xml_text("A big dog.", "A BIG\ud83dDOG.\ud83d\ude00") == "A BIG DOG.\U0001f600"


@pytest.mark.parametrize("translator, message", [
    (Unweighed(weights="x"), r"^Unweighed\.translate returned 'x' as a sentence's weights: give None, or a list "),
    (Unweighed(weights=[["x"]]), r"^Unweighed\.translate returned \[\['x'\]\] as a sentence's weights: "),
    (Unweighed(weights=[[float("nan")]]), r"^Unweighed\.translate returned \[\[nan\]\] as a sentence's weights: "),
])
def test_weights_that_are_no_numbers_are_named_in_one_line(translator, message):
    """Weights of text were a TypeError in attnmt.documents.spans."""
    with pytest.raises(ConfigError, match=message):
        translate_file_bytes(b"<p>A <b>big</b> dog runs.</p>", "a.html", translator, OPTIONS)


def test_weights_of_numbers_of_any_kind_are_read_as_floats():
    weights = np.eye(4, dtype=np.float32)
    out = translate_file_bytes(b"<p>A <b>big</b> dog runs.</p>", "a.html", Unweighed(weights=weights), OPTIONS)
    assert out == b"<p>A <b>BIG</b> DOG RUNS.</p>"


@pytest.mark.parametrize("weights", [torch.eye(4), torch.eye(4, dtype=torch.bfloat16), list(torch.eye(4)),
                                     [[torch.tensor(float(k == t)) for k in range(4)] for t in range(4)]],
                         ids=["2-D", "bfloat16", "rows 1-D", "numbers 0-D"])
def test_weights_given_as_a_tensor_are_read_as_its_lists(weights):
    """A model's cross-attention, a [target word][source word] tensor, was refused as no list of rows, and a
    list of 1-D rows was a TypeError ("iteration over a 0-d tensor")."""
    out = translate_file_bytes(b"<p>A <b>big</b> dog runs.</p>", "a.html", Unweighed(weights=weights), OPTIONS)
    assert out == b"<p>A <b>BIG</b> DOG RUNS.</p>"


@pytest.mark.parametrize("weights, shape", [(torch.ones(4), "(4,)"), (torch.tensor(1.0), "()"),
                                            (torch.ones(4, 4, 1), "(4, 4, 1)"), (np.ones(4), "(4,)")])
def test_weights_of_another_shape_are_named_by_it_in_one_line(weights, shape):
    """Not as a traceback ("iteration over a 0-d tensor"), nor the tensor's repr over several lines."""
    with pytest.raises(ConfigError) as error:
        translate_file_bytes(b"<p>A <b>big</b> dog runs.</p>", "a.html", Unweighed(weights=weights), OPTIONS)
    message = str(error.value)
    assert message.startswith(f"Unweighed.translate returned {type(weights).__name__} of shape {shape} as a "
                              "sentence's weights: give None, or a list of rows (a 2-D tensor)")
    assert "\n" not in message


def test_a_file_over_the_size_limit_is_refused_before_any_translation(same):
    with pytest.raises(UserError, match=r"^big\.txt: the file has 11 bytes; at most 10 can be translated"):
        translate_file_bytes(b"a dog runs.", "big.txt", same, OPTIONS, max_bytes=10)
    assert same.given == []


def test_text_that_is_not_utf8_names_its_line_and_byte(same):
    with pytest.raises(UserError, match=r"^latin\.txt, line 2: the text is not UTF-8 \(byte 0xe9\)"):
        translate_file_bytes(b"a dog\ncaf\xe9\n", "latin.txt", same, OPTIONS)


@pytest.mark.parametrize("name, data, named", [
    ("notes.txt", "A man.\r\n".encode("utf-16-be"), "UTF-16BE"),
    ("page.html", "<p>A man.</p>".encode("utf-16-le"), "UTF-16LE"),
    ("film.srt", "1\n00:00:01,000 --> 00:00:02,000\nA man.\n".encode("utf-16-le"), "UTF-16LE")])
def test_utf16_files_without_a_byte_order_mark_are_named_as_such(same, name, data, named):
    """UTF-16 without a byte order mark was translated as garbage, where the CLI's text input names the
    encoding (with its mark it is read: test_unicode_text_files.py)."""
    with pytest.raises(UserError, match=rf"^{name}: the text is {named}, not UTF-8 .*iconv -f {named} -t UTF-8"):
        translate_file_bytes(data, name, same, DocumentOptions())


@pytest.mark.parametrize("name", ["letter.txt", "page.html", "film.srt"])
@pytest.mark.parametrize(("start", "message"), [
    (b"PK\x03\x04", "is a zip archive (an office file?), not text, despite its {} name: name it by its format "
                     "(.docx, .pptx, .xlsx, .odt, .odp, .ods, .epub)"),
    (bytes.fromhex("d0cf11e0a1b11ae1"), "is a compound file (an old .doc, .xls or .ppt, or a password-protected "
                                        "office file?), not text, despite its {} name: attnmt translates .docx, "),
], ids=["zip", "ole"])
def test_an_office_file_named_as_text_is_said_to_be_one_despite_its_name(same, name, start, message):
    """As the CLI says it of a .txt.  A .docx sent to the server as letter.txt was "line 1: the text is
    not UTF-8 (byte 0x84); convert it to UTF-8 first, e.g. with iconv -f WINDOWS-1252 -t UTF-8"."""
    suffix = name[name.index("."):]
    with pytest.raises(UserError, match="^" + re.escape(f"{name} {message.format(suffix)}")):
        translate_file_bytes(start + bytes(100), name, same, OPTIONS)
    assert same.given == []


PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"  # as LibreOffice and Word begin one: binary on its second line


@pytest.mark.parametrize(("name", "command_name"), [("scan.pdf", "scan.pdf"), ("letter.txt", "letter.txt"),
                                                     ("page.html", "page.html"), ("film.srt", "film.srt"),
                                                     ("Brief an Anna.PDF", "'Brief an Anna.PDF'")])
def test_a_pdf_is_said_to_be_one_with_how_to_convert_it(same, name, command_name):
    """Named as text it was "line 2: the text is not UTF-8 (byte 0xe2); convert it to UTF-8 first, e.g.
    with iconv", which makes no text of a PDF; as .pdf, one of the formats attnmt does not translate."""
    with pytest.raises(UserError, match="^" + re.escape(
            f"{name} is a PDF, not text, and attnmt does not translate it: convert it to .docx or .odt first (e.g. "
            f"with LibreOffice: soffice --headless --infilter=writer_pdf_import --convert-to docx {command_name}) and "
            "translate that") + "$"):
        translate_file_bytes(PDF, name, same, OPTIONS)
    assert same.given == []


@pytest.mark.parametrize(("name", "program", "new"), [("letter.doc", "Word", "docx"),
                                                    ("Budget 2024.XLS", "Excel", "xlsx"),
                                                    ("talk.ppt", "PowerPoint", "pptx")])
def test_an_old_binary_office_file_is_refused_saying_what_to_save_it_as(same, name, program, new):
    """It was "the extension .ppt is not a format attnmt translates", and a list of formats, .pptx among them."""
    suffix = name[name.rindex("."):].lower()
    with pytest.raises(UserError, match="^" + re.escape(
            f"{name}: {suffix} is {program} 97-2003's binary format, which attnmt does not translate: save it as "
            f".{new} (File > Save As in {program}, or soffice --headless --convert-to {new} {shlex.quote(name)}) and "
            "translate that") + "$"):
        translate_file_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(100), name, same, OPTIONS)
    assert same.given == []


@pytest.mark.parametrize(("start", "kind"), [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff\xe0", "a JPEG image"), (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"), (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "a WebP image")],
    ids=["png", "jpeg", "gif", "tiff", "webp"])
def test_a_picture_named_as_text_is_said_to_be_one(same, start, kind):
    with pytest.raises(UserError, match="^" + re.escape(f"notes.txt is {kind}, not text, and attnmt does not "
                                                        "translate it: the text in a picture would have to be read")):
        translate_file_bytes(start + b"\x00\x9d" * 50, "notes.txt", same, OPTIONS)


def test_a_text_that_starts_like_a_pdf_in_words_is_text(same):
    assert translate_file_bytes(b"%PDF-files are refused.\n", "notes.txt", same, OPTIONS) == (
        b"%PDF-files are refused.\n")


class FailingOnTheBoy:
    """A translator the model fails on for every sentence that holds "boy", as the search raises it."""

    glossary = None

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        failures = {i: RuntimeError("boom") for i, sentence in enumerate(sentences) if "boy" in sentence}
        if failures:
            raise SentencesFailed(failures)
        return list(sentences), [None] * len(sentences)


@pytest.mark.parametrize("name, data", [("notes.txt", b"A dog runs.\nThe boy laughs.\nThe boy sings.\n"),
                                        ("film.srt", b"1\n00:00:01,000 --> 00:00:02,000\nThe boy laughs.\n")])
def test_a_file_the_model_fails_on_fails_whole_naming_it(name, data):
    """The rule for a file translated whole is translate_file_bytes' own: it let the search's
    SentencesFailed out, keyed by the file's sentences, and each caller named the file itself."""
    with pytest.raises(FileFailed) as failed:
        translate_file_bytes(data, name, FailingOnTheBoy(), OPTIONS)
    assert str(failed.value).startswith(f"{name}: not translated, the model failed on ")
    assert str(failed.value).endswith(" of its sentences (the first: RuntimeError: boom); nothing was written")
    assert list(failed.value.failures) == [0] and failed.value.outputs is None  # one text, failed whole
    assert isinstance(failed.value.__cause__, SentencesFailed)


def test_a_file_that_fails_is_named_as_its_caller_knows_it():
    with pytest.raises(FileFailed, match=r"^docs/notes\.txt: not translated, the model failed on 2 of its sentences"):
        translate_file_bytes(b"The boy laughs.\nThe boy sings.\n", "notes.txt", FailingOnTheBoy(), OPTIONS,
                             where="docs/notes.txt")


def test_the_translations_name_carries_the_target_language():
    assert translated_name("report.docx", "de") == "report.de.docx"
    assert translated_name("../../etc/notes.txt", "de") == "notes.de.txt"
    assert translated_name("C:\\Users\\me\\film.srt", None) == "film.srt"


def test_office_files_go_to_the_office_module_by_their_extension(mirror):
    document = docx.Document()
    document.add_paragraph("a red car")
    seen = []
    out = translate_file_bytes(docx_bytes(document), "Report.DOCX", mirror, OPTIONS, progress=lambda *p: seen.append(p))
    assert [paragraph.text for paragraph in docx.Document(io.BytesIO(out)).paragraphs] == ["CAR RED A"]
    assert seen == [(0, 1), (1, 1)] and {".docx", ".odt", ".epub"} <= set(supported_suffixes())


class Emptying:
    """``translator``'s answers, but "" (without weights) for each sentence that holds ``word``."""

    glossary = None

    def __init__(self, translator, word: str) -> None:
        self.translator, self.word = translator, word

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        texts, weights = self.translator.translate(sentences, weighed)
        empty = [self.word in sentence for sentence in sentences]
        return ([("" if gone else text) for text, gone in zip(texts, empty, strict=True)],
                [None if gone else each for each, gone in zip(weights, empty, strict=True)])


EMPTIED = [(b"A red car.\n\nTwo dogs run. A cat.\n", "notes.txt", "Two dogs run.", "line 3"),
           (b"<html><body><p>A cat.</p><p>Two dogs run.</p></body></html>", "page.html", "Two dogs run.", "line 1"),
           (b"1\n00:00:01,000 --> 00:00:02,000\nTwo dogs run.\n", "film.srt", "Two dogs run.", "line 3"),
           (b"# Two dogs run\n\nA cat.\n", "read.md", "Two dogs run", "line 1"),
           (word_paragraph("<w:r><w:t>Two dogs run.</w:t></w:r>"), "letter.docx", "Two dogs run.",
            "letter.docx: word/document.xml, paragraph 1"),
           (slides_file(), "deck.pptx", "The boy laughs.", "deck.pptx: ppt/slides/slide1.xml, paragraph 1"),
           (sheet_file(), "book.xlsx", "A dog runs.", "book.xlsx: xl/worksheets/sheet1.xml, paragraph 1"),
           (text_file(), "text.odt", "The title here.", "text.odt: content.xml, paragraph 1")]


@pytest.mark.parametrize(("data", "name", "sentence", "where"), EMPTIED, ids=[case[1] for case in EMPTIED])
def test_a_sentence_the_translator_answers_with_nothing_keeps_its_source_with_a_warning(mirror, data, name, sentence,
                                                                                         where):
    """The paragraph, cell, slide title or cue came back empty, and nothing said so: the text was lost."""
    translator = Emptying(mirror, sentence.split()[1])
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        out = translate_file_bytes(data, name, translator, OPTIONS)
    written = b"".join(read_members(out).values()) if name.endswith(("x", "t")) and out[:2] == b"PK" else out
    assert sentence.encode() in written
    assert [str(warning.message) for warning in heard if issubclass(warning.category, LeftUntranslated)] == [
        f"{where}: the translation of {sentence!r} came back empty, so its source text is kept there"]


class Misweighed:
    """``translator``'s translations, with weights ``shape(source, translation)`` gives in place of its."""

    glossary = None

    def __init__(self, translator, shape) -> None:
        self.translator, self.shape = translator, shape

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        texts, _ = self.translator.translate(sentences, weighed)
        return texts, [self.shape(s, t) if w else None for s, t, w in zip(sentences, texts, weighed, strict=True)]


@pytest.mark.parametrize("shape", [
    lambda source, text: [[0.0] * (len(source.split()) + 2) for _ in range(len(text.split()) + 3)],  # by pieces
    lambda source, text: [[] for _ in text.split()],  # rows of nothing
    lambda source, text: [[1.0] * len(source.split())],  # one row
], ids=["pieces", "empty-rows", "one-row"])
def test_word_weights_of_another_shape_place_the_formatting_by_the_words_order_with_a_warning(mirror, shape):
    """Cut to the sentence's words, they placed the bold nowhere ("A dog <b>runs</b>." came back
    "RUNS. DOG A", the bold lost) or on a word chosen by the cut, and nothing said so.  (Not a sentence whose third
    word comes back an article: an article alone is no translation of "runs", attnmt.documents.function_marks.)"""
    data = word_paragraph('<w:r><w:t xml:space="preserve">Dogs run </w:t></w:r><w:r><w:rPr><w:b/></w:rPr>'
                          '<w:t>fast</w:t></w:r><w:r><w:t>.</w:t></w:r>')
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        out = translate_file_bytes(data, "story.docx", Misweighed(mirror, shape), OPTIONS)
    runs = docx.Document(io.BytesIO(out)).paragraphs[0].runs
    assert [(run.text, run.bold) for run in runs] == [("FAST. RUN ", None), ("DOGS", True)]  # the third word's
    assert [str(warning.message).split(": the word weights")[0] for warning in heard] == [
        "story.docx: word/document.xml, paragraph 1"]


def test_word_weights_of_another_shape_for_a_sentence_without_marks_are_passed_over(mirror):
    """A translator that gives weights for every sentence, asked for or not: those of a sentence no mark
    needs are never read, and no warning is given for them."""
    class Always(Misweighed):
        def translate(self, sentences, weighed):
            texts, _ = self.translator.translate(sentences, weighed)
            return texts, [self.shape(s, t) for s, t in zip(sentences, texts, strict=True)]

    translator = Always(mirror, lambda source, text: [[1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = translate_file_bytes(word_paragraph("<w:r><w:t>A dog runs.</w:t></w:r>"), "story.docx", translator,
                                   OPTIONS)
    assert docx.Document(io.BytesIO(out)).paragraphs[0].text == "RUNS. DOG A"
