"""Pages parsed and written back (attnmt.documents.pages): what libxml2 gets wrong about HTML is
put right, and nothing the page said is lost."""

import pytest
from office_files import EPUB2_PAGE, epub2_file, read_members, write_members

from attnmt.documents import pages
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


@pytest.mark.parametrize("tag", ["wbr", "embed", "source", "track", "keygen"])
def test_a_void_element_libxml2_does_not_know_is_a_point_and_the_sentence_goes_on_after_it(same, mirror, tag):
    """libxml2 nested the rest of the block inside it: left untranslated (wbr and embed are atoms),
    the sentence cut in two there, and an end tag written."""
    text = f'<p>a red <{tag} class="x">car drives.</p>'
    assert one(text, same) == text
    assert same.given == ["a red car drives."]
    assert one(text, mirror) == f'<p>DRIVES. <{tag} class="x">CAR RED A</p>'


def test_what_follows_a_void_element_keeps_its_markup_and_the_block_its_tail(same):
    page = ('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><video><source src="a.webm">'
            '<source src="a.mp4"><track src="a.vtt"></video><p>A <wbr><b>dog</b> runs.</p>after</body></html>')
    assert one(page, same) == page
    assert same.given == ["A dog runs.", "after"]


@pytest.mark.parametrize("meta", [
    '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
    '<META HTTP-EQUIV="content-type" CONTENT="text/html; charset=ISO-8859-1">',
    '<meta http-equiv="Content-Type" content="text/html">',
])
def test_a_pages_http_equiv_charset_becomes_a_meta_charset_where_it_was(same, meta):
    """libxml2's HTML writer leaves out a <meta http-equiv="Content-Type">: the page lost its
    only word on its encoding."""
    page = f"<!DOCTYPE html>\n<html><head>{meta}<title>A dog.</title></head><body><p>A cat.</p></body></html>"
    out = one(page, same)
    assert out == ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>A dog.</title></head>'
                   "<body><p>A cat.</p></body></html>")


@pytest.mark.parametrize("metas", [
    '<meta charset="windows-1252">\n<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">\n',
    '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">\n<meta charset="windows-1252">\n',
    '<meta http-equiv="Content-Type" content="text/html">\n<meta http-equiv="content-type" content="text/html">\n',
])
def test_a_page_declaring_its_encoding_twice_gets_one_meta_charset(same, metas):
    """A <meta charset> and a <meta http-equiv="Content-Type"> became two <meta charset="utf-8">: invalid HTML."""
    page = f"<!DOCTYPE html>\n<html><head>\n{metas}<title>A dog.</title></head><body><p>A cat.</p></body></html>"
    assert one(page, same) == ('<!DOCTYPE html>\n<html><head>\n<meta charset="utf-8">\n<title>A dog.</title></head>'
                               "<body><p>A cat.</p></body></html>")


@pytest.mark.parametrize("elsewhere", [
    '<div class="widget"><meta charset="utf-8"><p>A cat.</p></div>',
    '<template><meta charset="utf-8"></template><p>A cat.</p>',
    '<noscript><meta charset="utf-8"></noscript><p>A cat.</p>',
])
def test_a_meta_charset_outside_the_head_leaves_the_heads_declaration(same, elsewhere):
    """A pasted widget's <meta charset> in the body counted as the page's declaration, and the head's
    http-equiv one was taken out: the page declared no encoding where a browser looks for one."""
    page = ('<!DOCTYPE html>\n<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">'
            f"<title>A dog.</title></head><body>{elsewhere}</body></html>")
    assert one(page, same).startswith('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>A dog.</title>')


def test_an_xhtml_pages_http_equiv_charset_says_utf8_and_stays(same):
    page = ('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" '
            'content="text/html; charset=iso-8859-1"/></head><body><p>A dog.</p></body></html>')
    assert one(page, same) == page.replace("iso-8859-1", "utf-8")


@pytest.mark.parametrize("meta", [
    '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"/>',
    '<meta charset="iso-8859-1"/>',
])
def test_an_xhtml_files_meta_says_utf8_as_the_page_is_written(same, meta):
    """An .xhtml page is parsed as XML, its names in XHTML's namespace: its <meta> was missed and
    kept saying iso-8859-1, and a browser showed "schlÃ¤ft"."""
    page = (f'<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>{meta}<title>Sleep</title></head>'
            "<body><p>A man sleeps.</p></body></html>")
    assert one(page, same, xhtml=True) == page.replace("iso-8859-1", "utf-8")


@pytest.mark.parametrize("meta, written", [
    ('<meta http-equiv="Content-Type" content="application/xhtml+xml; charset=iso-8859-1"/>',
     '<meta http-equiv="Content-Type" content="application/xhtml+xml; charset=utf-8"/>'),
    ('<meta http-equiv="Content-Type" content="application/xhtml+xml; charset=UTF-8"/>', None),
    ('<meta charset="UTF-8"/>', None),
    ('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"/><meta charset="iso-8859-1"/>',
     '<meta http-equiv="Content-Type" content="text/html; charset=utf-8"/><meta charset="utf-8"/>')])
def test_an_xhtml_meta_keeps_its_type_and_a_utf8_one_is_kept_as_written(same, meta, written):
    """The first mend wrote "text/html; charset=utf-8" over application/xhtml+xml, rewrote a
    meta that said UTF-8 already, and left a second meta saying iso-8859-1."""
    page = (f'<html xmlns="http://www.w3.org/1999/xhtml"><head>{meta}<title>Sleep</title></head>'
            "<body><p>A man.</p></body></html>")
    assert one(page, same, xhtml=True) == page.replace(meta, written or meta)


def test_an_xhtml_file_without_a_meta_gets_none(same):
    """XML's own default is UTF-8: the page is written as it came."""
    page = ('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Sleep</title></head>'
            "<body><p>A man.</p></body></html>")
    assert one(page, same, xhtml=True) == page


@pytest.mark.parametrize("kept", [
    '<script type="text/javascript">//<![CDATA[\nif (a < b && b > c) { go(); }\n//]]></script>',
    '<style type="text/css"><![CDATA[ p > b { color: red; } ]]></style>'])
def test_an_xhtml_pages_cdata_section_in_kept_text_stays_as_it_came(same, kept):
    """Read as text, it was written escaped and without the section: ``if (a &lt; b &amp;&amp;``
    broke the script where the page is served as text/html."""
    page = f'<html xmlns="http://www.w3.org/1999/xhtml"><head>{kept}</head><body><p>A man.</p></body></html>'
    assert one(page, same, xhtml=True) == page
    assert same.given == ["A man."]


def test_an_xml_cdata_section_in_kept_text_stays_as_it_came(same):
    text = '<note>A dog <code translate="no"><![CDATA[a < b]]></code> runs.</note>'
    assert one(text, same, xml=True) == text


def test_an_epub_pages_cdata_section_in_kept_text_stays_as_it_came(same):
    script = '<script type="text/javascript">//<![CDATA[\nif (a < b) { go(); }\n//]]></script>'
    members = read_members(epub2_file())
    members["OEBPS/Text/chapter 1.xhtml"] = EPUB2_PAGE.replace("</title>", f"</title>{script}").encode()
    out = read_members(translate_office(write_members(members), ".epub", same, DocumentOptions()))
    assert script in out["OEBPS/Text/chapter 1.xhtml"].decode()


@pytest.mark.parametrize("empty, written", [
    ('<script type="text/javascript" src="a.js"></script>', None), ('<a id="top"></a>', None),
    ('<div id="map"/>', '<div id="map"></div>'), ('<textarea name="t"/>', '<textarea name="t"></textarea>'),
    ('<br/><img src="a.png" alt=""/><hr/>', None),
    ('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>', None),
    ('<math xmlns="http://www.w3.org/1998/Math/MathML"><mi/></math>', None)])
@pytest.mark.parametrize("xhtml", [True, False])
def test_an_xhtml_pages_empty_element_keeps_its_end_tag(same, empty, written, xhtml):
    """XML's writer shortened it, ``<script src="a.js"/>``: read as HTML (text/html, as XHTML 1.0
    pages often are served), the whole body went into the script, a blank page.  Void elements,
    SVG's and MathML's stay short; a page in an .html file with an XML declaration is written as
    XML too (``xhtml=False``)."""
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
            f'<meta charset="utf-8"/></head><body><p>A man.</p>{empty}</body></html>')
    assert one(page, same, xhtml=xhtml) == page.replace(empty, written or empty)


def test_an_epub_pages_empty_elements_keep_their_end_tags(same):
    members = read_members(epub2_file())
    empty = '<a id="x"></a><span></span>'
    members["OEBPS/Text/chapter 1.xhtml"] = EPUB2_PAGE.replace("</p>", f"</p>{empty}<br/>").encode()
    out = read_members(translate_office(write_members(members), ".epub", same, DocumentOptions()))
    assert f"{empty}<br/>" in out["OEBPS/Text/chapter 1.xhtml"].decode()


URI_VALUES = ["{{ page.url }}", "my photo.jpg", "https://de.wikipedia.org/wiki/Straße", "/send form",
               " a.html?q=a b&amp;r=1"]


@pytest.mark.parametrize("value", URI_VALUES)
@pytest.mark.parametrize("element, attribute", [
    ("a", "href"), ("img", "src"), ("form", "action"), ("a", "name"), ("blockquote", "cite"), ("img", "longdesc"),
    ("object", "data"), ("img", "usemap"), ("object", "codebase"), ("div", "background"), ("button", "formaction"),
    ("video", "poster"), ("div", "src"), ("span", "href")])
def test_a_uri_attribute_comes_back_as_it_was_written(same, element, attribute, value):
    """libxml2's HTML writer URI-escaped an href, src or action (and an <a>'s name), and dropped the
    spaces before it: ``href="{{%20page.url%20}}"``, ``src="my%20photo.jpg"``, ".../Stra%C3%9Fe"."""
    start = f'<{element} {attribute}="{value}">'
    text = f"<div>A {start} dog runs.</div>" if element == "img" else f"<div>A {start}dog</{element}> runs.</div>"
    assert one(text, same) == text


@pytest.mark.parametrize("xhtml", [False, True])
def test_a_pages_uri_attributes_come_back_as_they_were_written(same, xhtml):
    """In a whole page too, and in an XHTML page (written as XML, which never escaped them)."""
    prolog = '<?xml version="1.0" encoding="utf-8"?>\n' if xhtml else "<!DOCTYPE html>\n"
    page = (f'{prolog}<html xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-8"/>'
            '<link rel="stylesheet" href="my style.css"/></head><body><p>A <a href="{{ page.url }}">dog</a> runs.'
            '<img src="Straße 1.jpg" alt="x"/></p></body></html>')
    out = one(page, same, xhtml=xhtml)
    assert 'href="my style.css"' in out and 'href="{{ page.url }}"' in out and 'src="Straße 1.jpg"' in out


@pytest.mark.parametrize("text", [
    '<p>A dog <svg viewBox="0 0 8 8" preserveAspectRatio="none"><linearGradient gradientUnits="userSpaceOnUse">'
    '</linearGradient></svg> runs.</p>',
    '<div><button (click)="go()" *ngIf="shown" [(ngModel)]="name">A dog runs.</button></div>',
    '<MyCard :itemCount="n" v-bind:fooBar="x">A dog runs.</MyCard>',
])
def test_names_written_in_mixed_case_come_back_as_they_were_written(same, text):
    """libxml2's HTML parser lower-cases every name: an inline SVG's ``viewbox`` and
    ``<lineargradient>`` broke the picture, Angular's ``*ngif`` and a Vue component's
    ``<mycard :itemcount>`` the template, which read them case by case."""
    assert one(text, same) == text
    page = f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{text}</body></html>'
    assert one(page, same) == page


def test_names_in_capitals_alone_or_written_two_ways_are_written_in_lower_case_in_a_tag_lxml_writes(same):
    text = '<DIV CLASS="x" CLASS="y"><p onclick="a()">A <b onClick="b()" title="Pets">dog</b> runs.</p></DIV>'
    assert one(text, same) == ('<div class="x"><p onclick="a()">A <b onClick="b()" title="Pets">dog</b> '
                               'runs.</p></DIV>')  # the tag whose second class the parser dropped; the rest as written


def test_a_uri_attributes_quote_is_escaped(same):
    text = """<p>A <a href='x.html?q="dog"' href="y.html">dog</a> runs.</p>"""  # the second href dropped
    assert one(text, same) == '<p>A <a href="x.html?q=&quot;dog&quot;">dog</a> runs.</p>'


@pytest.mark.parametrize("value, written", [
    ("a\x0cb.html", "a\x0cb.html"), ("a\x01b.html", "a\x01b.html"), ("a&#1;b.html", "a\x01b.html"),
    ("a\ufffeb.html", "a\ufffeb.html")])
@pytest.mark.parametrize("whole", [False, True])
def test_a_uri_attribute_with_a_control_character_comes_back_as_it_was_parsed(same, value, written, whole):
    """lxml refuses to set such a value: putting it back into the tree raised "All strings must be XML
    compatible" (a CLI traceback, the server's 500). It comes back as libxml2 read it, as a title's does."""
    start = '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>' if whole else ""
    end = "</body></html>" if whole else ""
    text = f'{start}<p>A <a href="{value}">dog</a> runs.<img src="p q.png"></p>{end}'
    assert one(text, same) == text.replace(value, written)


@pytest.mark.parametrize("text", ['<p>A <a href>dog</a> runs.</p>', '<p>A <a name>dog</a> runs.</p>',
                                  '<p>A dog <img src> runs.</p>', '<p>A <a href="">dog</a> runs.</p>'])
def test_a_uri_attribute_without_a_value_comes_back_without_one(same, text):
    """``<a href>`` came back as ``<a href="">``."""
    assert one(text, same) == text


@pytest.mark.parametrize("space", ["\xa0", "\u3000"])
@pytest.mark.parametrize("between", ["", "<!-- a -->"])
def test_a_no_break_space_before_a_pages_html_is_written_once_where_the_parser_put_it(same, space, between):
    """It is text, which the parser puts at the start of the <body>, as a browser does: it was also
    written before the page, twice in all."""
    page = f"{space}{between}<html><body><p>A dog runs.</p></body></html>"
    head = '<html><head><meta charset="utf-8"></head>'
    assert one(page, same) == f"{head}<body>{space}{between}<p>A dog runs.</p></body></html>"


def test_writing_a_page_leaves_its_tree_as_it_was_parsed():
    parsed = pages.parse('<p><a href="a\x0cb.html" name="x y">dog</a><img src="my photo.jpg"></p>', False, "q")
    before = [dict(element.attrib) for element in parsed.root.iter()]
    parsed.serialise(None)
    assert [dict(element.attrib) for element in parsed.root.iter()] == before


def test_writing_an_xhtml_page_leaves_its_empty_elements_empty():
    parsed = pages.parse('<html xmlns="http://www.w3.org/1999/xhtml"><body><a id="x"/></body></html>', True, "q")
    assert "<a id=\"x\"></a>" in parsed.serialise(None)
    assert [element.text for element in parsed.root.iter()] == [None, None, None, None]


def test_an_html_files_xhtml_page_keeps_its_scripts_and_styles_as_they_came(same):
    """An .html file that is XHTML (an XML declaration) is written as XML, whose writer escaped
    what the HTML parser reads as written: a style's ``div > p`` came back as ``div &gt; p``, a
    script's ``a &lt; b`` as ``a &amp;lt; b``."""
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
            '<meta charset="utf-8"/><style>div > p { color: red }</style>'
            '<script>if (a &lt; b &amp;&amp; c > d) go();</script></head><body><p>A man walks.</p></body></html>')
    assert one(page, same) == page


@pytest.mark.parametrize("kept", ["<xmp><b>A cat</b> & a dog</xmp>", "<listing>A <i>cat</i> sleeps.</listing>",
                                  "<noembed><b>A cat</b> &amp; a dog</noembed>", "<noframes><i>A cat</i></noframes>"])
def test_an_obsolete_xmp_or_listing_is_kept_as_it_came(upper, kept):
    """Obsolete pre-like blocks: their text was translated as words (an <xmp>'s tag names too),
    and an <xmp>'s text, which the HTML parser reads as written, came back escaped
    (``&lt;B&gt;A CAT&lt;/B&gt;``), shown so in a browser."""
    page = f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body><p>a dog</p>{kept}</body></html>"
    assert one(page, upper) == page.replace("a dog</p>", "A DOG</p>")


def test_an_xmp_on_an_html_files_xhtml_page_keeps_its_text_as_it_came(same):
    """Written as XML, its text was escaped as a script's had been (``&lt;b&gt;``)."""
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
            '<meta charset="utf-8"/></head><body><p>A man walks.</p><xmp><b>A cat</b> &amp; x</xmp></body></html>')
    assert one(page, same) == page
