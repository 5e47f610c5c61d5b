"""A page's drop caps (attnmt.documents.markup_dropcaps), read with the words they begin and given
the translation's first letters, and texts of one letter, kept as written
(attnmt.text.letters.is_one_letter), in HTML and in an EPUB book."""

import pytest
from office_files import read_members, write_members

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.text.letters import is_one_letter

CHILDREN = {"The children play.": ("Die Kinder spielen.", [(0, 0), (1, 1), (2, 2)]),
            "A man walks.": ("Ein Mann geht.", [(0, 0), (1, 1), (2, 2)])}


def one(text, translator):
    return translate_markup([text], translator)[0]


@pytest.mark.parametrize("cap", ['<span class="dropcap">T</span>', '<span class="calibre-drop-cap">T</span>',
                                 '<b class="Initial">T</b>', "<big>T</big>"])
def test_a_drop_cap_is_read_with_its_word_and_gets_the_translations_first_letter(known, cap):
    """Rule 1 of spans gave it the whole word: '<span class="dropcap">Die</span> Kinder'."""
    translator = known(CHILDREN)
    written = one(f"<p>{cap}he children play.</p>", translator)
    assert translator.given == ["The children play."]
    assert written == f"<p>{cap.replace('>T<', '>D<')}ie Kinder spielen.</p>"


def test_a_drop_cap_named_by_its_class_gets_the_first_letter_of_a_whole_word(known):
    """"A" is a word of its own, and the drop cap still holds one letter of its translation, not "Ein"."""
    assert one('<p><span class="dropcap">A</span> man walks.</p>', known(CHILDREN)) == (
        '<p><span class="dropcap">E</span>in Mann geht.</p>')


def test_a_drop_caps_letter_goes_to_the_first_word_whatever_the_order(mirror):
    """Mirror: "Once upon a time" -> "TIME A UPON ONCE"; the element over "O" went to "ONCE"."""
    assert one("<p><big>O</big>nce upon a time</p>", mirror) == "<p><big>T</big>IME A UPON ONCE</p>"


def test_a_pictures_drop_cap_is_read_with_its_word_and_its_alt_gets_the_translations_letter(known):
    """Kept whole, the picture left "he children" to the model, and its alt "T" was a sentence of its own."""
    translator = known(CHILDREN)
    written = one('<p><img class="dropcap" src="t.png" alt="T">he children play.</p>', translator)
    assert translator.given == ["The children play."]
    assert written == '<p><img class="dropcap" src="t.png" alt="D">ie Kinder spielen.</p>'


@pytest.mark.parametrize(("text", "expected"), [
    ("<p><b>A</b> dog runs</p>", "<p>RUNS DOG <b>A</b></p>"),  # a word in bold, no drop cap class
    ("<p>Then <b>T</b>he dog runs</p>", "<p>RUNS DOG <b>THE</b> THEN</p>"),  # not at its block's start
    ('<p><span class="dropcap">Once</span> upon a time</p>', '<p>TIME A UPON <span class="dropcap">ONCE</span></p>'),
])
def test_an_element_that_is_no_drop_cap_covers_its_whole_words(mirror, text, expected):
    assert one(text, mirror) == expected


@pytest.mark.parametrize("text", ["A", "a", "I", "A.", "(b)", " T ", "Ä!", "ㄱ", "あ"])
def test_one_letter_with_punctuation_is_one_letter(text):
    assert is_one_letter(text)


@pytest.mark.parametrize("text", ["AB", "1a", "12", "", "猫", "네", "I am."])
def test_two_letters_a_digit_an_ideograph_or_a_hangul_syllable_are_not_one_letter(text):
    assert not is_one_letter(text)


def test_a_heading_and_an_alt_of_one_letter_are_kept_as_written(mirror):
    """The model wrote a sentence for each: "A" -> "Ein Mann befindet sich.", "B" -> "Dieses."."""
    page = ('<h2 id="A">A</h2><p>an apple</p><h2 id="B">(b)</h2>'
            '<p>a <img src="k.png" alt="K"> boat</p><p><b>I</b>.</p>')
    assert one(page, mirror) == ('<h2 id="A">A</h2><p>APPLE AN</p><h2 id="B">(b)</h2>'
                                 '<p><img src="k.png" alt="K"> BOAT A</p><p><b>I</b>.</p>')
    assert mirror.given == ["an apple", "a boat"]


PAGE = "a.xhtml"


def book(body: str) -> bytes:
    """An EPUB 3 book of one page whose body is ``body``."""
    container = ('<?xml version="1.0"?>'
                 '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                 '<rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles>'
                 "</container>")
    package = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="u">'
               '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="u">x</dc:identifier>'
               "<dc:title>T</dc:title><dc:language>en</dc:language></metadata><manifest>"
               f'<item id="a" href="{PAGE}" media-type="application/xhtml+xml"/></manifest>'
               '<spine><itemref idref="a"/></spine></package>')
    page = ('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en">'
            f"<head><title>T</title></head><body>{body}</body></html>")
    return write_members({"mimetype": b"application/epub+zip", "META-INF/container.xml": container.encode(),
                          "c.opf": package.encode(), PAGE: page.encode()})


def translated_body(body: str, translator) -> str:
    written = read_members(translate_file_bytes(book(body), "book.epub", translator, DocumentOptions(target_lang="de")))
    page = written[PAGE].decode()
    return page[page.index("<body>") + len("<body>"):page.index("</body>")]


def test_an_epub_pages_drop_caps_get_the_translations_first_letters(known):
    translator = known(CHILDREN)
    body = ('<p><span class="dropcap">T</span>he children play.</p>'
            '<p><img class="dropcap" src="t.png" alt="T"/>he children play.</p>')
    assert translated_body(body, translator) == ('<p><span class="dropcap">D</span>ie Kinder spielen.</p>'
                                                 '<p><img class="dropcap" src="t.png" alt="D"/>ie Kinder spielen.</p>')
    assert translator.given == ["The children play."]  # once: the same sentence is translated once


def test_an_epub_pages_title_headings_and_alt_of_one_letter_are_kept_as_written(mirror):
    body = '<h2 id="A">A</h2><p>an apple</p><h2 id="B">B.</h2><p><img src="k.png" alt="K"/></p>'
    assert translated_body(body, mirror) == ('<h2 id="A">A</h2><p>APPLE AN</p><h2 id="B">B.</h2>'
                                             '<p><img src="k.png" alt="K"/></p>')
    assert mirror.given == ["an apple"]
