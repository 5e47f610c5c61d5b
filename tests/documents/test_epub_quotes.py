"""Quotes inside a sentence of an EPUB page or a Word file's HTML chunk (attnmt.documents.office.job_results): read
and written as an HTML file's are (attnmt.documents.split_quotes, attnmt.documents.quote_forms), the model given the
words without their marks and the quote written around their translation in the target language's form.  Upper
upper-cases each sentence, Mirror reverses its words too."""

import pytest
from office_files import EPUB2_PAGE, chunked_word_file, epub2_file, read_members, write_members

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

PAGE = "OEBPS/Text/chapter 1.xhtml"
PACKAGE = "OEBPS/content.opf"
BLOCK = "<p>A dog runs on the grass.</p>"


def book_with(block: str) -> bytes:
    """epub2_file, its page's paragraph ``block`` instead."""
    members = read_members(epub2_file())
    assert BLOCK in EPUB2_PAGE
    members[PAGE] = members[PAGE].replace(BLOCK.encode(), block.encode())
    return write_members(members)


def page_body(book: bytes) -> str:
    page = read_members(book)[PAGE].decode()
    return page[page.index("<body>") + len("<body>"):page.index("</body>")]


@pytest.mark.parametrize("block, given, written", [
    ('<p>The girl said "hello" to the old man.</p>', "The girl said hello to the old man.",
     "<p>THE GIRL SAID „HELLO“ TO THE OLD MAN.</p>"),
    ("<p>He read “The Times” in the garden.</p>", "He read The Times in the garden.",
     "<p>HE READ „THE TIMES“ IN THE GARDEN.</p>"),
    ("<p>&#8220;The roses are red,&#8221; says the woman.<a href=\"n.xhtml#n1\"><sup>1</sup></a></p>",
     "The roses are red, says the woman.",
     "<p>„THE ROSES ARE RED“, SAYS THE WOMAN.<a href=\"n.xhtml#n1\"><sup>1</sup></a></p>"),
    ('<p>She wrote "<b>bonjour</b> à tous" on the card.</p>', "She wrote bonjour à tous on the card.",
     "<p>SHE WROTE „<b>BONJOUR</b> À TOUS“ ON THE CARD.</p>"),
])
def test_a_quote_inside_a_books_sentence_is_written_in_the_target_form(upper, block, given, written):
    """It stopped the whole book: TypeError: 'Quote' object does not support item deletion."""
    out = translate_file_bytes(book_with(block), "book.epub", upper, DocumentOptions(target_lang="de"))
    assert page_body(out) == written
    assert given in upper.given


def test_a_quote_in_a_book_wraps_its_words_where_the_translation_puts_them(mirror):
    out = translate_file_bytes(book_with('<p>The girl said "hello there" and left.</p>'), "book.epub", mirror,
                               DocumentOptions(target_lang="de"))
    assert page_body(out) == "<p>LEFT. AND „THERE HELLO“ SAID GIRL THE</p>"


def test_a_quote_in_a_book_of_no_target_language_stays_as_written(upper):
    out = translate_file_bytes(book_with('<p>The girl said "hello" to him.</p>'), "book.epub", upper, DocumentOptions())
    assert page_body(out) == '<p>THE GIRL SAID "HELLO" TO HIM.</p>'


def test_a_quote_in_a_word_files_html_chunk_is_written_in_the_target_form(upper):
    """An imported HTML chunk (w:altChunk) is read as a book's page is, and stopped the same way."""
    chunk = b'<html><body><p>The girl said "hello" to him.</p></body></html>'
    out = translate_office(chunked_word_file(chunk, "text/html"), ".docx", upper, DocumentOptions(target_lang="de"))
    page = read_members(out)["word/chunk.htm"].decode()
    assert "<p>THE GIRL SAID „HELLO“ TO HIM.</p>" in page


def test_a_quote_in_a_books_description_written_as_html_is_written_in_the_target_form(upper):
    """Calibre's description, HTML escaped as text, is read as an HTML fragment, and stopped the same way."""
    members = read_members(epub2_file())
    members[PACKAGE] = members[PACKAGE].replace(b"<dc:language>", b'<dc:description>&lt;p&gt;A dog named "Max" runs.'
                                                                  b"&lt;/p&gt;</dc:description><dc:language>")
    out = translate_file_bytes(write_members(members), "book.epub", upper, DocumentOptions(target_lang="de"))
    assert "<dc:description>&lt;p&gt;A DOG NAMED „MAX“ RUNS.&lt;/p&gt;</dc:description>" in read_members(out)[
        PACKAGE].decode()
