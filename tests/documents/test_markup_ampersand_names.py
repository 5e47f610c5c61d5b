"""A name joined by "&" (attnmt.decoding.protected.AMPERSAND_NAME: ``Tom & Jerry``, ``AT&T``) passes through a web
page's text and its translated attributes, and a Markdown file's, as it passes through a line of plain text
(test_ampersand_names), with AmpersandDropping of conftest.py, which drops the words holding "&" as the demo model
did.  Read whole, ``<p>We watched Tom &amp; Jerry at AT&amp;T.</p>`` came back ``<p>WE WATCHED TOM JERRY AT</p>``."""

import pytest

from attnmt.documents.markup import translate_markup

XHTML_PAGE = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
              '<meta charset="utf-8"/></head><body>{}</body></html>')


@pytest.mark.parametrize("text, given, expected", [
    ("<p>We watched Tom &amp; Jerry at AT&amp;T.</p>", ["We watched at."],
     "<p>WE WATCHED Tom &amp; Jerry AT AT&amp;T.</p>"),
    ("<p>A man works at <b>H&amp;M</b> for Procter &amp; Gamble.</p>", ["A man works at for."],
     "<p>A MAN WORKS AT <b>H&amp;M</b> FOR Procter &amp; Gamble.</p>"),
])
def test_a_name_joined_by_an_ampersand_passes_through_a_pages_text_as_written(ampersand_dropping, text, given,
                                                                              expected):
    assert translate_markup([text], ampersand_dropping)[0] == expected
    assert ampersand_dropping.given == given


def test_a_names_bare_ampersand_is_written_back_escaped(ampersand_dropping):
    """HTML5 reads a bare "&" before a space as text; the page written keeps HTML's escape."""
    assert translate_markup(["<p>We watched Tom & Jerry.</p>"], ampersand_dropping)[0] == \
        "<p>WE WATCHED Tom &amp; Jerry.</p>"


def test_an_ampersand_between_words_in_lower_case_is_the_models_to_translate(ampersand_dropping):
    assert translate_markup(["<p>Salt &amp; pepper go in the soup.</p>"], ampersand_dropping)[0] == \
        "<p>SALT PEPPER GO IN THE SOUP.</p>"
    assert ampersand_dropping.given == ["Salt & pepper go in the soup."]


@pytest.mark.parametrize("text, given, expected", [
    ('<p><img src="a.png" alt="A man works at AT&amp;T."> A dog runs.</p>', ["A man works at.", "A dog runs."],
     '<p><img src="a.png" alt="A MAN WORKS AT AT&amp;T."> A DOG RUNS.</p>'),
    ('<p title="We watched Tom &amp; Jerry.">A dog runs.</p>', ["We watched.", "A dog runs."],
     '<p title="WE WATCHED Tom &amp; Jerry.">A DOG RUNS.</p>'),
])
def test_a_name_joined_by_an_ampersand_passes_through_a_translated_attribute(ampersand_dropping, text, given,
                                                                             expected):
    assert translate_markup([text], ampersand_dropping)[0] == expected
    assert ampersand_dropping.given == given


@pytest.mark.parametrize("page, name", [("<html><body>{}</body></html>", "in.html"), (XHTML_PAGE, "in.xhtml")])
def test_a_page_file_keeps_the_name_and_its_escape(ampersand_dropping, translated, page, name):
    out = translated(ampersand_dropping, name, page.format("<p>We watched <b>Tom &amp; Jerry</b> at AT&amp;T.</p>"))
    assert "<p>WE WATCHED <b>Tom &amp; Jerry</b> AT AT&amp;T.</p>" in out
    assert ampersand_dropping.given == ["We watched at."]


@pytest.mark.parametrize("text, given, expected", [
    ("We watched Tom & Jerry at AT&T.\n", ["We watched at."], "WE WATCHED Tom & Jerry AT AT&T.\n"),
    ("A man works at **H&M** today.\n", ["A man works at today."], "A MAN WORKS AT **H&M** TODAY.\n"),
    ('![A man works at AT&T.](a.png "We met Procter & Gamble.")\n', ["A man works at.", "We met."],
     '![A MAN WORKS AT AT&T.](a.png "WE MET Procter & Gamble.")\n'),
    ("Salt & pepper go in the soup.\n", ["Salt & pepper go in the soup."], "SALT PEPPER GO IN THE SOUP.\n"),
])
def test_a_name_joined_by_an_ampersand_passes_through_markdown_as_written(ampersand_dropping, translated, text, given,
                                                                          expected):
    """Markdown writes its "&" bare, as the file did."""
    assert translated(ampersand_dropping, "in.md", text) == expected
    assert ampersand_dropping.given == given


@pytest.mark.parametrize("text, given, expected", [
    ("<p>We watched <b>Tom</b> &amp; Jerry.</p>", ["We watched."], "<p>WE WATCHED <b>Tom</b> &amp; Jerry.</p>"),
    ("<p>A man works at <i>AT</i>&amp;T today.</p>", ["A man works at today."],
     "<p>A MAN WORKS AT <i>AT</i>&amp;T TODAY.</p>"),
    ("<p>We watched Tom <b>&amp; Jerry</b> today.</p>", ["We watched today."],
     "<p>WE WATCHED Tom <b>&amp; Jerry</b> TODAY.</p>"),
    ("<p>We met <b>Tom</b> &amp; Jerry AT&amp;T.</p>", ["We met."], "<p>WE MET <b>Tom</b> &amp; Jerry AT&amp;T.</p>"),
    ('<p>We met <a href="a.html">Marks</a> &amp; <a href="b.html">Spencer</a>, <i>H</i>&amp;M.</p>',
     ["We met, ."], '<p>WE MET <a href="a.html">Marks</a> &amp; <a href="b.html">Spencer</a>, <i>H</i>&amp;M.</p>'),
])
def test_a_name_an_element_parts_passes_through_a_pages_text_with_its_marks_where_they_were(ampersand_dropping, text,
                                                                                          given, expected):
    """Read piece by piece, no piece held the name: ``<b>Tom</b> &amp; Jerry`` came back ``<b>TOM</b> JERRY``."""
    assert translate_markup([text], ampersand_dropping)[0] == expected
    assert ampersand_dropping.given == given


def test_a_name_an_element_parts_stays_whole_where_the_words_around_it_move(mirror):
    assert translate_markup(["<p>We watched <b>Tom</b> &amp; Jerry today.</p>"], mirror)[0] == \
        "<p><b>Tom</b> &amp; Jerry TODAY. WATCHED WE</p>"
    assert mirror.given == ["We watched today."]


def test_an_element_around_words_and_part_of_a_name_keeps_them_and_the_words_around_it_are_translated(
        ampersand_dropping):
    assert translate_markup(["<p>We watched <b>the Tom</b> &amp; Jerry show.</p>"], ampersand_dropping)[0] == \
        "<p>WE WATCHED <b>THE Tom</b> &amp; Jerry SHOW.</p>"
    assert ampersand_dropping.given == ["We watched the show."]


@pytest.mark.parametrize("text, given, expected", [
    ("We watched **Tom** & Jerry today.\n", ["We watched today."], "WE WATCHED **Tom** & Jerry TODAY.\n"),
    ("A man works at *AT*&T.\n", ["A man works at."], "A MAN WORKS AT *AT*&T.\n"),
])
def test_a_name_an_element_parts_passes_through_markdown_with_its_marks_where_they_were(ampersand_dropping, translated,
                                                                                       text, given, expected):
    assert translated(ampersand_dropping, "in.md", text) == expected
    assert ampersand_dropping.given == given
