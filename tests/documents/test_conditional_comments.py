"""Outlook's conditional comments in HTML e-mail (attnmt.documents.conditional_comments): what
every other client shows between ``<!--[if !mso]><!-->`` and ``<!--<![endif]-->`` is translated,
the two comments kept in order; what Outlook alone shows, inside ``<!--[if mso]>...<![endif]-->``,
is a comment, kept as written."""

import pytest

from attnmt.documents.conditional_comments import CONDITION, conditional_edge
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pages import parse
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.xliff import translate_xliff

DE = DocumentOptions(target_lang="de")
XLIFF = ('<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en" datatype="html"><body>\n'
         '<trans-unit id="a"><source>{source}</source></trans-unit>\n</body></file></xliff>\n')
EDGES = [(CONDITION, True), (CONDITION, False)]  # a start, then its end
STATE = 'state="needs-review-translation" state-qualifier="mt-suggestion"'


def comments(html: str) -> list:
    return [node for node in parse(html, False, "t").root.iter() if not isinstance(node.tag, str)]


@pytest.mark.parametrize(("html", "edges"), [
    ("<p>a<!--[if !mso]><!-->b<!--<![endif]--></p>", EDGES),
    ("<p>a<!--[if !mso]><!-- -->b<!--<![endif]--></p>", EDGES),
    ("<p>a<![if !supportLists]>1.<![endif]>b</p>", EDGES),
    ("<p>a<!--[if mso]><b>x</b><![endif]--><!--[if mso]><![endif]--><!-- note --></p>", [None, None, None])])
def test_only_a_downlevel_revealed_conditions_comments_are_a_ranges_edges(html, edges):
    assert [conditional_edge(node) for node in comments(html)] == edges


@pytest.mark.parametrize("start", ["<!--[if !mso]><!-->", "<!--[if !mso]><!-- -->"])
def test_a_conditions_end_stays_after_its_start_in_a_sentence_turned_around(mirror, start):
    """Placed each on its own, the end came first (``RUN. DOG<!--<![endif]--> BLUE A <!--[if !mso]><!-->AND
    ...``): a condition no ``<![endif]`` closes, and Outlook hid the rest of the mail.  The two go around the
    translation of the words between them (attnmt.documents.spans.range_points)."""
    html = f"<p>A red car {start}and a blue dog<!--<![endif]--> run.</p>"
    assert translate_markup([html], mirror) == [f"<p>RUN. {start}DOG BLUE A AND<!--<![endif]--> CAR RED A</p>"]


@pytest.mark.parametrize("html", [
    "<p>a dog<![if !supportLists]>1.<![endif]> runs</p>",  # Word's own HTML: a list's typed number
    '<![if !mso]><p>a dog runs</p><![endif]>',
])
def test_a_condition_written_without_a_comment_comes_back_as_written(same, html):
    """libxml2 2.14 reads ``<![if !mso]>`` as a bogus comment, written ``<!--[if !mso]-->``: a comment to
    Word and Outlook too, which then showed what they hid (a list's number typed beside Word's own)."""
    assert translate_markup([html], same) == [html]


def test_words_between_a_conditions_comments_in_an_xliff_source_are_translated_as_html(mirror):
    """Read as words, the comments went to the model: ``RUNS. DOG BLUE !MSO]><!-->A <!--[IF<!--<![ENDIF]-->``."""
    source = "<![CDATA[<!--[if !mso]><!-->A blue dog runs.<!--<![endif]-->]]>"
    out = translate_xliff(XLIFF.format(source=source), mirror, DE)
    assert f"<target {STATE}><![CDATA[<!--[if !mso]><!-->RUNS. DOG BLUE A<!--<![endif]-->]]></target>" in out
    assert mirror.given == ["A blue dog runs."]



@pytest.mark.parametrize("words", ["Use List<String> here.", "If x > y stop.", "Add salt & pepper.", "A &copy dog.",
                                   "A &dog; runs."])
def test_words_html_would_not_read_as_written_between_a_conditions_comments_are_words(upper, words):
    """Read as HTML, ``List<String>`` took an invented element (``LIST<string> HERE.<!--<![endif]--></string>``),
    ``>`` and a bare ``&`` came back escaped, and ``&copy`` without its ";" as ``©``."""
    source = f"<![CDATA[<!--[if !mso]><!-->{words}<!--<![endif]-->]]>"
    out = translate_xliff(XLIFF.format(source=source), upper, DE)
    assert f"<!-->{words.upper().replace('X > Y', 'x > y')}<!--" in out  # a comparison is kept whole


def test_words_with_character_references_between_a_conditions_comments_are_html(mirror):
    """HTML reads ``&amp;`` as "&", and writes it back so (words in small letters: a name joined by "&" is kept)."""
    source = "<![CDATA[<!--[if !mso]><!-->salt &amp; pepper<!--<![endif]-->]]>"
    out = translate_xliff(XLIFF.format(source=source), mirror, DE)
    assert f"<target {STATE}><![CDATA[<!--[if !mso]><!-->PEPPER &amp; SALT<!--<![endif]-->]]></target>" in out
    assert mirror.given == ["salt & pepper"]


def test_words_between_comments_that_are_no_condition_in_an_xml_element_are_words(upper):
    """Any two comments around words made them HTML: ``List<String>`` took an invented element,
    ``<`` and ``&`` came back escaped twice, and ``&copy`` without its ";" as ``©``."""
    xml = ("<doc><p>&lt;!-- c --&gt;Use List&lt;String&gt; here.&lt;!-- d --&gt;</p>"
           "<q>&lt;!-- a --&gt;If x &lt; y then add salt &amp; pepper.&lt;!-- b --&gt;</q>"
           "<r>&lt;!-- e --&gt;A &amp;copy dog.&lt;!-- f --&gt;</r></doc>")
    out = translate_file_bytes(xml.encode(), "c.xml", upper, DE).decode()
    assert "USE LIST&lt;STRING&gt; HERE." in out and "&lt;/string&gt;" not in out
    assert "IF x &lt; y THEN ADD SALT &amp; PEPPER." in out  # its comparison kept whole (protected.COMPARISON)
    assert "A &amp;COPY DOG." in out

def test_html_only_outlook_shows_is_a_comment_kept_as_written(mirror):
    """Inside ``<!--[if mso]>...<![endif]-->`` (a ghost table, a VML button): a comment to every other
    reader, kept whole; the HTML beside it, shown by every other client, is translated."""
    html = ('<div><!--[if mso]><table><tr><td>Shop now<![endif]-->'
            '<!--[if !mso]><!--><a href="x">Shop now</a><!--<![endif]--></div>')
    assert translate_markup([html], mirror) == [html.replace('">Shop now</a>', '">NOW SHOP</a>')]
    assert mirror.given == ["Shop now"]
