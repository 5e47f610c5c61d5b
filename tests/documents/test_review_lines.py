"""The line a review lists an HTML page's sentence at (attnmt.documents.markup_lines.run_line): the line
of the first word of its block's text, or, for a text after a block, of the text's; an attribute's text
at its element's line, an element's texts in the order its attributes stand.  A sentence with "bad"
in it is under the threshold."""

import pytest

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pages import MAX_DEPTH
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review

OPTIONS = DocumentOptions()


def grading() -> Review:
    """A review that grades each ``bad`` sentence 0.2 (listed), every other 0.9."""
    from attnmt.decoding.quality import Assessment

    return Review(lambda sources, texts: [Assessment(0.2 if "bad" in s else 0.9, ["low_quality"], False)
                                          for s in sources], 0.5)


def listed(page: bytes, translator, options: DocumentOptions = OPTIONS) -> list[tuple[int, str]]:
    review = grading()
    translate_file_bytes(page, "page.html", translator, options, review=review)
    return [(s.place.number, s.source) for s in review.segments]


def test_an_html_pages_sentences_are_listed_at_their_lines_attributes_too(same):
    page = (b"<!DOCTYPE html>\n<html>\n<body>\n<p>Good text.</p>\n<p>A <b>bad</b> thing. Fine here.</p>\n"
            b"<img alt='a bad picture'>\n</body></html>\n")
    assert listed(page, same) == [(5, "A bad thing."), (6, "a bad picture")]


def test_a_text_after_a_block_of_several_lines_is_listed_at_the_line_of_its_first_word(same):
    """It was listed at the line the block before it opened on (2), above that block's sentences."""
    page = (b"<div>\n<div class='card'\n  id='c'>\n<h2>A bad girl.</h2>\n<!-- a\nnote -->\n</div>A bad man."
            b"\n<div><p>A bad boy.</p></div>\n\n  A bad dog.\n</div>\n")
    assert listed(page, same) == [
        (4, "A bad girl."), (7, "A bad man."), (8, "A bad boy."), (10, "A bad dog.")]


@pytest.mark.parametrize("between", ['<input type="text">', "<br>", '<img src="x.png">', "<!-- a\nnote -->",
                                     '<input type="text"><b></b>'])
def test_a_text_after_a_block_and_an_element_without_words_is_listed_at_its_first_words_line(same, between):
    """It was listed at the line after the block's end (2), counting the line breaks before the
    ``<input>``, ``<br>`` or ``<img>`` only."""
    page = f"<div><p>A man is walking.</p>\n{between}\n\n<span>A bad dog is running.</span></div>\n".encode()
    line = 4 + between.count("\n")
    assert listed(page, same) == [(line, "A bad dog is running.")]


@pytest.mark.parametrize("first", ['<input type="text">', "<br>", '<img src="x.png">', "<!-- a\nnote -->"])
def test_a_blocks_own_text_after_an_element_without_words_is_listed_at_its_first_words_line(same, first):
    """It was listed at the block's start tag (2), where the ``<input>``, ``<br>``, ``<img>`` or
    comment opening the block's text stands."""
    page = f"<table><tr>\n<td>{first}\n<br>\n  A bad dog is running.</td></tr></table>\n".encode()
    assert listed(page, same) == [(4 + first.count("\n"), "A bad dog is running.")]


def test_a_blocks_own_text_is_listed_after_the_picture_before_it_at_its_first_words_line(same):
    """Listed at the block's start tag (1), it came before the picture's alt text of line 2."""
    page = b'<p>\n<img src="x.png" alt="A bad cat">\n<br>\nA bad dog.</p>\n'
    assert listed(page, same) == [(2, "A bad cat"), (4, "A bad dog.")]


def test_a_text_after_a_picture_in_an_element_is_listed_at_its_first_words_line(same):
    """A button's text after its icon: the line where the icon's <svg> ends, not the block's."""
    page = (b'<form><label>Your age</label>\n<input type="reset">\n<button><svg width="8">\n<path d="M0 0"/>'
            b"</svg>\n A bad dog</button></form>\n")
    assert listed(page, same) == [(5, "A bad dog")]


def test_a_text_after_a_block_nested_almost_max_depth_is_translated_and_listed_at_its_line(same):
    """Finding its first word recursed twice a level: a RecursionError at ~490 levels, on every
    translation (the line is found with or without --review)."""
    levels = MAX_DEPTH - 8  # with <html>, <body> and the <div>, a few levels under the limit
    page = ("<div><p>A man is walking.</p>\n" + "<span>" * levels + "\nA bad dog is running."
            + "</span>" * levels + "</div>\n").encode()
    assert b"A bad dog is running." in translate_file_bytes(page, "page.html", same, OPTIONS)
    assert listed(page, same) == [(3, "A bad dog is running.")]


@pytest.mark.parametrize("names", [("title", "alt"), ("alt", "title")])
def test_an_elements_attribute_texts_are_listed_in_the_order_they_stand(same, names):
    """They followed ``--attributes``: the default (title before alt) listed an <img alt title>'s
    title first."""
    page = b'<p><img src="a.png" alt="A bad dog." title="A bad car"> A bad man.</p>\n'
    assert listed(page, same, DocumentOptions(attributes=names)) == [
        (1, "A bad dog."), (1, "A bad car"), (1, "A bad man.")]
