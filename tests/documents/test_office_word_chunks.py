"""Word's imported chunks (w:altChunk, attnmt.documents.word_chunks): an HTML, XHTML or plain-text
chunk translated, any other kept as it is with one warning.  Mirror: words upper-cased in reverse
order."""

import io
import warnings

import docx
import pytest
from office_files import CHUNK_PAGE, chunked_word_file, read_members
from support import everything_listed

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review

GERMAN = DocumentOptions(target_lang="de")


def translated(data: bytes, translator, review: Review | None = None) -> dict[str, bytes]:
    """The members of ``data`` translated into German, no warning given."""
    return read_members(translated_file(data, translator, review))


def translated_file(data: bytes, translator, review: Review | None = None) -> bytes:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return translate_office(data, ".docx", translator, GERMAN, review=review)


def test_an_html_chunk_is_translated_as_a_page(mirror):
    """It was left as it was, with no word said: English in the German document."""
    out = translated_file(chunked_word_file(CHUNK_PAGE, "text/html"), mirror)
    assert read_members(out)["word/chunk.htm"] == (b'<html lang="de"><head><meta charset="utf-8"></head>'
                                                   b"<body><p>BOOK. A READING IS WOMAN A</p></body></html>")
    assert [p.text for p in docx.Document(io.BytesIO(out)).paragraphs] == ["WALKING. IS MAN A"]


def test_an_html_chunk_in_windows_1252_is_read_so_and_written_as_utf8_saying_so(mirror):
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head>'
            "<body><p>The café is open.</p></body></html>").encode("cp1252")
    out = translated(chunked_word_file(page, "text/html"), mirror)["word/chunk.htm"].decode("utf-8")
    assert out == '<html lang="de"><head><meta charset="utf-8"></head><body><p>OPEN. IS CAFÉ THE</p></body></html>'


def test_an_html_fragment_not_ascii_starts_with_a_byte_order_mark(mirror):
    out = translated(chunked_word_file("<p>A café.</p>".encode(), "text/html"), mirror)["word/chunk.htm"]
    assert out == "\ufeff<p>CAFÉ. A</p>".encode()


def test_an_xhtml_chunk_is_translated_in_its_own_encoding(mirror):
    page = ('<?xml version="1.0" encoding="iso-8859-1"?>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en" '
            'xml:lang="en"><body><p>The café is open.</p></body></html>').encode("latin-1")
    out = translated(chunked_word_file(page, "application/xhtml+xml", "chunk.xhtml"), mirror)["word/chunk.xhtml"]
    assert out.startswith(b"<?xml version='1.0' encoding='iso-8859-1'?>")
    assert b'lang="de" xml:lang="de"' in out
    assert "<p>OPEN. IS CAFÉ THE</p>".encode("latin-1") in out


def test_a_plain_text_chunk_is_translated_a_line_for_a_line(mirror):
    text = b"A woman is reading.\r\n\r\n2012\r\nA dog runs."
    out = translated(chunked_word_file(text, "text/plain", "chunk.txt"), mirror)["word/chunk.txt"]
    assert out == b"READING. IS WOMAN A\r\n\r\n2012\r\nRUNS. DOG A"


def test_a_plain_text_chunk_keeps_a_terminal_s_colours_around_their_words_as_a_text_file_does(mirror):
    text = b"\x1b[31mA red car\x1b[0m is parked."
    out = translated(chunked_word_file(text, "text/plain", "chunk.txt"), mirror)["word/chunk.txt"]
    assert out == b"PARKED. IS \x1b[31mCAR RED A\x1b[0m"


def test_an_rtf_chunk_is_kept_as_it_is_with_one_warning_naming_its_part(mirror):
    rtf = rb"{\rtf1\ansi A woman is reading a book.\par}"
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_office(chunked_word_file(rtf, "application/rtf", "chunk.rtf"), ".docx",
                                            mirror, GERMAN, name="r.docx"))
    assert [str(w.message) for w in caught] == [
        "r.docx: the imported chunk word/chunk.rtf (application/rtf) is left as it is, untranslated; attnmt "
        "translates HTML, XHTML and plain-text chunks (w:altChunk)"]
    assert out["word/chunk.rtf"] == rtf


def test_a_docx_chunk_typed_as_a_main_part_is_kept_with_one_warning_and_the_file_translated(mirror):
    """The Open XML SDK types a .docx chunk as a main part: it was read as the document's XML, and
    the whole file refused ("member word/chunk.docx is not well-formed XML")."""
    chunk = chunked_word_file(CHUNK_PAGE, "text/html")
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    with pytest.warns(UserWarning) as caught:
        out = translate_office(chunked_word_file(chunk, main, "chunk.docx"), ".docx", mirror, GERMAN, name="r.docx")
    assert [str(w.message) for w in caught] == [
        f"r.docx: the imported chunk word/chunk.docx ({main}) is left as it is, untranslated; attnmt translates "
        "HTML, XHTML and plain-text chunks (w:altChunk)"]
    assert read_members(out)["word/chunk.docx"] == chunk
    assert b">WALKING. IS MAN A</w:t>" in read_members(out)["word/document.xml"]


def test_a_chunk_not_in_the_encoding_it_declares_is_kept_with_a_warning_naming_its_line(mirror):
    page = "<html><body>\n<p>The café is open.</p></body></html>".encode("cp1252")  # no charset: UTF-8
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_office(chunked_word_file(page, "text/html"), ".docx", mirror, GERMAN,
                                            name="r.docx"))
    assert [str(w.message) for w in caught] == [
        "r.docx: member word/chunk.htm, line 2: the text is not utf-8 (byte 0xe9); the chunk is left as it is, "
        "untranslated"]
    assert out["word/chunk.htm"] == page


def test_a_chunk_in_a_header_is_translated(mirror):
    out = translated(chunked_word_file(CHUNK_PAGE, "text/html", in_header=True), mirror)
    assert b"BOOK. A READING IS WOMAN A" in out["word/chunk.htm"]


def test_the_review_places_a_chunks_sentences_in_its_part(same):
    review = everything_listed()
    translated(chunked_word_file(b"<p>One.</p><p>Two.</p>", "text/html"), same, review)
    assert [(s.place.part, s.place.number, s.source) for s in review.segments] == [
        ("word/document.xml", 1, "A man is walking."), ("word/chunk.htm", 1, "One."), ("word/chunk.htm", 2, "Two.")]
