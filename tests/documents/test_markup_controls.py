"""Control characters XML 1.0 cannot hold (U+0001, a vertical tab, U+001F) in an HTML page's text and
translated attributes: libxml2's HTML parser keeps them, as HTML does, and lxml sets no text or value
that holds one, so writing the translation stopped in a bare ValueError ("All strings must be XML
compatible").  They are written as numeric references (``&#1;``), which HTML reads as the character."""

import pytest
from lxml import html

from attnmt.documents.markup import translate_markup
from attnmt.documents.pages import parse, take_out
from attnmt.errors import DataError


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


def shown(fragment: str) -> str:
    """The text a reader of the fragment gets, its references read as their characters (read in a page:
    lxml's fragment_fromstring sets a text before any element anew, and so refuses one with U+0001)."""
    return html.document_fromstring(f"<html><body>{fragment}</body></html>").find("body").text_content()


@pytest.mark.parametrize("text, written", [
    ("<p>Hello.\x01 World.</p>", "<p>Hello.&#1; World.</p>"),  # between two sentences
    ("<p>The cat\x01 sat.</p>", "<p>The cat&#1; sat.</p>"),  # in a sentence the translator gives back
    ("<p>\x1f Hello</p>", "<p>&#31; Hello</p>"),  # at a block's start, where its spacing is kept
    ("<p>Hello <b>world</b>\x1e</p>", "<p>Hello <b>world</b>&#30;</p>"),  # at its end
    ("<p>A\x0bB <i>c</i>.</p>", "<p>A&#11;B <i>c</i>.</p>"),
    ("Hello.\x01 World.", "Hello.&#1; World."),  # a fragment's text before any element
])
def test_a_control_character_in_a_pages_text_is_written_as_its_reference(same, text, written):
    out = one(text, same)
    assert out == written and shown(out) == shown(text)


def test_a_control_character_keeps_its_place_where_the_words_change_order(mirror):
    assert one("<p>Hello.\x01 The <b>red</b> car.</p>", mirror) == "<p>HELLO.&#1; CAR. <b>RED</b> THE</p>"


@pytest.mark.parametrize("attribute", ["title", "alt"])
def test_a_control_character_in_a_translated_attribute_is_written_as_its_reference(same, mirror, attribute):
    text = f'<p><img src="a.png" {attribute}="A dog runs.\x01 The boy\x02 laughs."> A cat sleeps.</p>'
    assert one(text, same) == text.replace("\x01", "&#1;").replace("\x02", "&#2;")
    out = one(text, mirror)
    assert f'{attribute}="RUNS. DOG A&#1; LAUGHS. BOY&#2; THE"' in out
    assert html.fragment_fromstring(out).find("img").get(attribute) == "RUNS. DOG A\x01 LAUGHS. BOY\x02 THE"


def test_a_whole_page_with_control_characters_comes_back_with_every_word(same):
    page = ('<!DOCTYPE html>\n<html><head><title>A\x01 page</title></head><body>\n<p>A dog runs.\x01 The boy laughs.'
            '</p>\n<p><img src="a.png" alt="A cat.\x01 A dog."> 42\x01 7</p>\n</body></html>\n')
    out = one(page, same)
    assert "\x01" not in out.replace("42\x01 7", "")  # a text with no word to translate stays as it was parsed
    assert html.document_fromstring(out).text_content() == html.document_fromstring(page).text_content()
    assert html.document_fromstring(out).find(".//img").get("alt") == "A cat.\x01 A dog."


@pytest.mark.parametrize("description", ["&lt;p&gt;Hello.&amp;#1; World.&lt;/p&gt;",
                                         "&lt;p&gt;42&amp;#1; 7&lt;/p&gt;&lt;p&gt;A cat.&lt;/p&gt;",
                                         "<![CDATA[<p>Hello.&#1; World.</p>]]>"])
def test_a_reference_to_a_control_character_in_html_inside_xml_is_written_back_as_one(same, description):
    """An RSS item's description is HTML, escaped or in a CDATA section: its reference decoded there
    was written back into the XML as the character, which XML cannot hold."""
    text = f"<rss><item><description>{description}</description></item></rss>"
    assert one(text, same, xml=True) == text


@pytest.mark.parametrize("character, column", [("\x01", 16), ("&#1;", 20)])  # the character's; the reference's end
@pytest.mark.parametrize("xhtml", [False, True])
def test_a_control_character_in_xml_is_refused_in_one_line_naming_its_place(same, xhtml, character, column):
    """XML 1.0 holds none, raw or as a reference: its parser refuses the page, so it never reaches the writer."""
    page = f'<html xmlns="http://www.w3.org/1999/xhtml">\n<body><p>Hello.{character} World.</p></body></html>'
    message = rf"^page\.xhtml is not well-formed XML at line 2, column {column}: .* value 1$"
    with pytest.raises(DataError, match=message):
        translate_markup([page], same, xml=not xhtml, xhtml=xhtml, where="page.xhtml")


@pytest.mark.parametrize("text, written", [
    ("<p>A dog <wbr>runs.\x01 The cat sleeps.</p>", "<p>A dog <wbr>runs.&#1; The cat sleeps.</p>"),
    ("<video><source src=\"a.mp4\">Your browser\x01 cannot play it.</video>",
     "<video><source src=\"a.mp4\">Your browser&#1; cannot play it.</video>"),
    ("<p>A <track src=\"a.vtt\">dog runs.\x01 <b>A</b> cat.</p>",
     "<p>A <track src=\"a.vtt\">dog runs.&#1; <b>A</b> cat.</p>"),
    ("<p>A <embed src=\"a.swf\">dog runs.\x1f A cat.</p>", "<p>A <embed src=\"a.swf\">dog runs.&#31; A cat.</p>"),
    ("Hello</body>\x01 World.", "Hello&#1; World."),  # what follows a fragment's own </body>
    ("<p>Hi there.</p></html>\x01 World again.", "<p>Hi there.</p>&#1; World again."),  # ... or </html>
])
def test_a_control_character_in_text_the_parser_moved_is_written_as_its_reference(same, text, written):
    """Text libxml2 nested inside a void element it does not know (pages.open_voids moves it out) or put
    outside the fragment's <body> (fragment_ends.fragment_holder gathers it) is set anew: a bare ValueError."""
    assert one(text, same) == written


def test_a_control_character_after_a_pages_end_is_written_as_its_reference(same):
    """What follows </html>, which pages.gather_strays moves to the end of the <body>."""
    page = "<!DOCTYPE html>\n<html><body><p>Hi there.</p></body></html>\n\x01 Served by nginx.\n"
    assert one(page, same).endswith("<p>Hi there.</p>&#1; Served by nginx.\n</body></html>\n")


@pytest.mark.parametrize("first", [True, False])
def test_a_tail_with_a_control_character_is_kept_where_an_element_is_taken_out(first):
    """pages.take_out (a <meta charset> the page no longer needs) keeps a tail with words."""
    before = "" if first else "<b>x</b>"
    div = html.fragment_fromstring(f'<div>{before}<meta charset="latin1">Hello\x01 there\x02.</div>')
    take_out(div.find("meta"))
    assert html.tostring(div, encoding="unicode") == f"<div>{before}Hello&#1; there&#2;.</div>"


def test_a_fragments_holder_is_the_root_of_its_own_tree(same):
    """Not the wrapper's <html> (attnmt.documents.word_chunks writes the holder's tree)."""
    for text in ("Hello.\x01 World.", "<p>Hello.</p>"):
        assert parse(text, xml=False, where="a.html").root.getroottree().getroot().tag == "div"


@pytest.mark.parametrize("spacing", ["\x0b", "\x0c", "\x1c", "\x1f"])
def test_a_control_character_before_a_fragments_first_element_is_kept(same, spacing):
    """A vertical tab is no spacing the page may lose, as page_writer.EDGE_SPACES says: kept, written as its
    numeric reference, as every control character set in a text is (HTML reads it as the character)."""
    assert one(f"{spacing}<p>Hello there.</p>", same) == f"&#{ord(spacing)};<p>Hello there.</p>"


@pytest.mark.parametrize("text, attribute", [
    ('<p><input placeholder="Type a name.\x01 Then go."> Hello there.</p>', "placeholder"),
    ('<p><span aria-label="A dog runs.\x01 A cat sleeps.">Hi</span> Hello there.</p>', "aria-label"),
    ('<form><input type="submit" value="Send it.\x01 Now."></form>', "value"),
    ('<html><head><meta name="description" content="A dog runs.\x01 A cat sleeps."></head><body></body></html>',
     "content"),
])
def test_a_control_character_in_any_translated_attribute_is_written_as_its_reference(same, text, attribute):
    out = one(text, same)
    assert "\x01" not in out and f'{attribute}="' in out and "&#1;" in out
    node = next(node for node in html.document_fromstring(out).iter() if node.get(attribute))
    assert "\x01" in node.get(attribute)


def test_a_bootstrap_tooltips_title_is_translated(upper):
    """Bootstrap 5 shows ``data-bs-title`` as a tooltip's or popover's text where ``title`` is not set:
    it stayed in the source's language beside the translated page."""
    text = ('<button type="button" class="btn" data-bs-toggle="tooltip" data-bs-title="Open the menu">Menu</button>'
            '<a href="#" data-bs-toggle="popover" data-bs-title="Help" data-bs-content="Click twice">?</a>')
    assert translate_markup([text], upper)[0] == (
        '<button type="button" class="btn" data-bs-toggle="tooltip" data-bs-title="OPEN THE MENU">MENU</button>'
        '<a href="#" data-bs-toggle="popover" data-bs-title="HELP" data-bs-content="Click twice">?</a>')


def test_a_table_headers_short_form_is_translated(upper):
    """``<th abbr>`` is a header's short form, which screen readers read out before each cell: it
    stayed in the source's language beside the translated header.  Only a table cell's is text."""
    text = ('<table><tr><th abbr="Temp." scope="col">Temperature in degrees</th></tr>'
            '<tr><td abbr="Max">The highest value</td></tr></table><p><span abbr="Keep me">Hi</span></p>')
    assert translate_markup([text], upper)[0] == (
        '<table><tr><th abbr="TEMP." scope="col">TEMPERATURE IN DEGREES</th></tr>'
        '<tr><td abbr="MAX">THE HIGHEST VALUE</td></tr></table><p><span abbr="Keep me">HI</span></p>')


def test_the_aria_texts_a_screen_reader_reads_out_are_translated(upper):
    """A widget's description, a custom text box's hint, a carousel's "slide" and a rating's "3 of 5
    stars" stayed in English, read out so to a reader of the translated page; ``aria-labelledby``
    names an element, no text."""
    text = ('<div role="slider" aria-valuetext="Three of five stars" aria-labelledby="rating"></div>'
            '<div role="group" aria-roledescription="slide" aria-description="The first photo of the trip"></div>'
            '<div role="textbox" contenteditable aria-placeholder="Write a message"></div>')
    assert translate_markup([text], upper)[0] == (
        '<div role="slider" aria-valuetext="THREE OF FIVE STARS" aria-labelledby="rating"></div>'
        '<div role="group" aria-roledescription="SLIDE" aria-description="THE FIRST PHOTO OF THE TRIP"></div>'
        '<div role="textbox" contenteditable aria-placeholder="WRITE A MESSAGE"></div>')
