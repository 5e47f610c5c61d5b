"""attnmt.documents.source_tags: an HTML line's tags come back as it wrote them, where they say what they said."""

from attnmt.documents.markup import translate_markup
from attnmt.documents.source_tags import source_tags, written_as_tagged


def test_a_tagged_line_keeps_each_tag_byte_for_byte(upper):
    """lxml wrote ``<p class="intro">``, ``target="_blank"``, ``</a>`` and ``<br>``: a CAT tool took each
    for a tag the translation had broken."""
    line = "<P CLASS=intro>Click <A HREF=\"/x\" target='_blank'>here</A > to continue.<BR/>Thanks.</P>"
    assert translate_markup([line], upper) == [
        "<P CLASS=intro>CLICK <A HREF=\"/x\" target='_blank'>HERE</A > TO CONTINUE.<BR/>THANKS.</P>"]


def test_a_page_keeps_its_tags_as_written(same):
    page = ("<!DOCTYPE html>\n<html><head><title>Menu</title></head><body>\n"
            "<TABLE BORDER=1><TR><TD ALIGN=center>A dog runs.</TD></TR></TABLE>\n</body></html>\n")
    assert "<TABLE BORDER=1><TR><TD ALIGN=center>A dog runs.</TD></TR></TABLE>" in translate_markup([page], same)[0]


def test_tags_that_say_the_same_written_two_ways_keep_their_ways_in_order():
    tags = source_tags("<b>A</b> and <B>b</B>.")
    assert written_as_tagged("<b>A</b> and <b>b</b>.", tags) == "<b>A</b> and <B>b</b>."  # two end ways: lxml's
    assert written_as_tagged("<b>A</b> <b>b</b> <b>c</b>.", tags) == "<b>A</b> <b>b</b> <b>c</b>."  # a third


def test_a_tag_the_writer_changed_or_added_is_written_as_lxml_writes_it():
    tags = source_tags('<p class="a">A <span lang="en">dog</span>.')
    assert written_as_tagged('<p class="a">A <span lang="de">dog</span>.</p>', tags) == (
        '<p class="a">A <span lang="de">dog</span>.</p>')


def test_a_tag_with_a_translated_attribute_keeps_its_way_around_the_new_value(upper):
    line = """<ABBR TITLE='World Health Organization' class=x>WHO</ABBR> and <IMG SRC=a.png ALT=Car> met."""
    assert translate_markup([line], upper) == [
        """<ABBR TITLE='WORLD HEALTH ORGANIZATION' class=x>WHO</ABBR> AND <IMG SRC=a.png ALT=CAR> MET."""]


def test_a_value_is_written_in_its_quotes():
    tags = source_tags("""<a title='Go' alt=Car data-x="1">""")
    assert written_as_tagged("""<a title="It's &quot;new&quot;" alt="A car" data-x="1">""", tags) == (
        """<a title='It&#39;s "new"' alt="A car" data-x="1">""")


def test_a_lines_self_closed_placeholder_comes_back_once_and_closed(same):
    """A CAT tool's ``<x-ph id="1"/>`` came back ``<x-ph id="1"></x-ph>``: a second tag it never sent."""
    line = '<x-ph id="1"/>Hello <x-ph id="2"/>world<x-ph id="3"/>'
    assert translate_markup([line], same) == [line]


def test_a_pages_self_closed_element_gets_its_end_tag():
    """A browser reads a page's ``<div id="map"/>`` as a start tag: the end tag lxml writes stays."""
    assert written_as_tagged('<div id="map"></div>', source_tags('<div id="map"/>')) == '<div id="map"></div>'


def test_end_tags_a_line_left_out_where_html_lets_it_stay_out(upper):
    """``<li>A dog runs.<li>A cat sleeps.`` came back with two ``</li>`` the line never had."""
    assert translate_markup(["<ul><li>A dog runs.<li>A cat sleeps.</ul>"], upper) == [
        "<ul><li>A DOG RUNS.<li>A CAT SLEEPS.</ul>"]
    assert translate_markup(["<ul><li>A dog runs.</li><li>A cat sleeps.</ul>"], upper) == [
        "<ul><li>A DOG RUNS.</li><li>A CAT SLEEPS.</li></ul>"]  # one written: the parser's are too


def test_an_svg_or_math_element_a_page_closed_itself_stays_closed_so(same):
    """In a page's ``<svg>`` and ``<math>`` (HTML's foreign content) ``/>`` closes an element, as a browser reads it;
    ``<path d="M0 0L9 9"/>`` came back ``<path d="M0 0L9 9"></path>``, a tag the page never wrote."""
    page = ("<!DOCTYPE html>\n<html><head><title>Chart</title></head><body>\n"
            '<svg viewBox="0 0 9 9"><circle r="4"/><path d="M0 0L9 9"/></svg><svg width="9"/>\n'
            '<p>So <math><mi>x</mi><mspace width="1em"/></math> is.</p>\n<div id="map"></div>\n</body></html>\n')
    written = translate_markup([page], same)[0]
    assert '<svg viewBox="0 0 9 9"><circle r="4"/><path d="M0 0L9 9"/></svg><svg width="9"/>\n' in written
    assert '<math><mi>x</mi><mspace width="1em"/></math>' in written and '<div id="map"></div>' in written


def test_an_element_no_html_knows_that_the_text_never_closes_is_a_point_and_gets_no_end_tag(upper):
    """The demo model's ``Press <Enter> to start.`` came back ``<Enter>darauf zu beginnen.</Enter>``: libxml2
    nested the rest of the line in it, and an end tag the client never sent was written."""
    assert translate_markup(["Press <Enter> to start."], upper) == ["PRESS <Enter> TO START."]
    assert upper.given == ["Press to start."]
    page = "<html><body><p>Press <Ctrl> and <C> now.</p></body></html>"
    assert "<p>PRESS <Ctrl> AND <C> NOW.</p>" in translate_markup([page], upper)[0]


def test_an_element_no_html_knows_keeps_the_end_tag_the_text_wrote(upper):
    assert translate_markup(["<my-card>A dog runs.</my-card> <Key>A cat.</Key>"], upper) == [
        "<my-card>A DOG RUNS.</my-card> <Key>A CAT.</Key>"]
