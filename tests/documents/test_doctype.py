"""A DOCTYPE kept as it was, never read as a DTD (attnmt.documents.doctype), and the XML entity
references it declares kept unexpanded; every output parses as strict XML."""

import pytest
from lxml import etree, html

from attnmt.documents.doctype import split_doctype
from attnmt.documents.files import translate_file_bytes
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import DataError

NOTE = ('<?xml version="1.0"?>\n<!DOCTYPE note [\n  <!ENTITY co "Acme"> <!-- a "]>" in a comment -->\n]>\n'
        "<note>hello from &co; &amp; friends</note>\n")


def xml(text, translator, **options):
    return translate_markup([text], translator, xml=True, **options)[0]


def strict(text):
    """The text parsed as strict XML, its entities neither expanded nor fetched."""
    return etree.fromstring(text.encode(), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))


def test_an_xml_doctype_is_kept_as_written_and_not_translated(mirror):
    out = xml(NOTE, mirror)
    assert out.startswith(NOTE[:NOTE.index("<note>")]) and mirror.given == ["hello from & friends"]
    assert out.endswith("<note>FRIENDS &co; &amp; FROM HELLO</note>\n")  # the reference kept, unexpanded
    strict(out)


def test_an_entity_a_dtd_outside_may_declare_is_kept(same):
    text = '<!DOCTYPE note SYSTEM "note.dtd"><note>a &nbsp; b</note>'
    out = xml(text, same)
    assert out == text
    strict(out)


def test_an_entity_declared_nowhere_is_refused_naming_it(same):
    with pytest.raises(DataError, match=r"^in.xml, line 1: the entity &nbsp; is declared nowhere"):
        xml("<p>a&nbsp;b</p>", same, where="in.xml")


def test_an_entity_declared_nowhere_in_a_document_names_its_line(same):
    with pytest.raises(DataError, match=r"^in.xml, line 7: the entity &other;"):
        xml(NOTE + "<!-- &fine; -->\n<x>&other;</x>", same, where="in.xml")


def test_an_entity_in_an_attribute_value_is_refused(same):
    with pytest.raises(DataError, match="&co; is in an attribute value"):
        xml('<!DOCTYPE n [<!ENTITY co "A">]><n title="&co;">hello</n>', same)


def test_billion_laughs_are_never_expanded(same):
    lol = "".join(f'<!ENTITY lol{k} "{f"&lol{k - 1};" * 10}">' for k in range(1, 10))
    text = f'<!DOCTYPE lolz [<!ENTITY lol0 "lol">{lol}]><lolz>a &lol9; b</lolz>'
    assert xml(text, same) == text


def test_billion_laughs_in_an_html_page_are_never_expanded(same):
    lol = "".join(f'<!ENTITY lol{k} "{f"&lol{k - 1};" * 10}">' for k in range(1, 10))
    page = f'<!DOCTYPE html [<!ENTITY lol0 "lol">{lol}]>\n<html><body><p>a &lol9; b</p></body></html>'
    out = translate_markup([page], same)[0]
    assert out.startswith(page[:page.index("\n")]) and "<p>a &amp;lol9; b</p>" in out  # as a browser shows it
    assert len(out) < 2 * len(page)


@pytest.mark.parametrize(("name", "root"), [
    ("app_de.ts", '<TS version="2.1" language="de"><context><name>Main</name><message><source>Open &xxe;</source>'
                  '<translation type="unfinished"></translation></message></context></TS>'),
    ("strings.xlf", '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" '
                    'datatype="plaintext" original="a"><body><trans-unit id="1"><source>Open &xxe;</source>'
                    "</trans-unit></body></file></xliff>"),
    ("Strings.resx", '<root><data name="Open"><value>Open &xxe;</value></data></root>'),
    ("note.xml", "<x>a &xxe; b</x>")])
def test_a_file_declaring_an_external_entity_is_refused_in_one_line_and_nothing_is_read(same, tmp_path, name, root):
    """The reference was kept and translated around: the translation carried the declaration to lrelease,
    a .resx compiler or a CAT tool, which may read the file, and the words it stands for went untranslated."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the password", encoding="utf-8")
    text = f'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n{root}\n'
    with pytest.raises(DataError) as caught:
        translate_file_bytes(text.encode(), name, same, DocumentOptions(target_lang="de"))
    assert str(caught.value) == (f'{name}, line 2: its DOCTYPE declares the external entity xxe (SYSTEM '
                                 f'"{secret.as_uri()}"), which is never read, for it could read any file or '
                                 "address: write its text where it is used, and take the declaration out")
    assert same.given == []


def test_xinclude_is_never_followed(same, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the password", encoding="utf-8")
    out = xml(f'<x xmlns:xi="http://www.w3.org/2001/XInclude">a <xi:include href="{secret.as_uri()}" '
              'parse="text"/> b</x>', same)
    assert "password" not in out and "include" in out


def test_an_html_doctype_with_an_internal_subset_stays_out_of_the_page(same):
    text = '<!DOCTYPE html [<!ENTITY a "b">]>\n<html><body><p>hello there</p></body></html>'
    out = translate_markup([text], same)[0]
    assert out.startswith('<!DOCTYPE html [<!ENTITY a "b">]>\n<html>') and "]&gt;" not in out
    assert html.document_fromstring(out).findtext(".//p") == "hello there"


@pytest.mark.parametrize("page", ["<!DOCTYPE html>\n", "<!doctype html><!-- nothing yet -->"])
def test_a_page_of_nothing_but_a_doctype_comes_back_as_it_was(same, page):
    assert translate_markup([page], same) == [page]


@pytest.mark.parametrize("doctype", ["<!DOCTYPEhtml>", "<!DOCTYPEhtml>\n<!-- saved -->\n", "<!doctype HTML>",
                                     '<!DOCTYPE html SYSTEM "about:legacy-compat">'])
def test_a_pages_doctype_is_kept_as_written_with_or_without_a_space_before_its_name(mirror, doctype):
    """"<!DOCTYPEhtml>" (a DOCTYPE to a browser, its missing space a parse error) was lost, with
    the line breaks after it: it was found only where a word boundary followed "<!DOCTYPE", and
    libxml2 dropped it."""
    out = translate_markup([doctype + "<html><body><p>a dog runs</p></body></html>"], mirror)[0]
    assert out.startswith(doctype + "<html") and "<p>RUNS DOG A</p>" in out


@pytest.mark.parametrize(("text", "line", "xhtml"), [
    ("<!DOCTYPEnote>\n<note>a dog</note>\n", 1, False),
    (NOTE.replace("<!DOCTYPE note", "<!DOCTYPEnote"), 2, False),
    ('<!-- saved -->\n<!DOCTYPEnote SYSTEM "note.dtd">\n<note>a dog</note>', 2, False),
    ('<!DOCTYPEnote>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a dog</p></body></html>', 1, True)])
def test_an_xml_doctype_without_a_space_before_its_name_is_refused_naming_its_line(same, text, line, xhtml):
    """An HTML page's "<!DOCTYPEhtml>" is kept, as a browser reads it, but XML has no DOCTYPE
    without the space: an XML or XHTML file's was written back as it came, and the output was no XML."""
    fix = r'<!DOCTYPE must be followed by a space and the root element\'s name \(write "<!DOCTYPE note"\)$'
    with pytest.raises(DataError, match=rf"^in.xml, line {line}: <!DOCTYPEnote is not XML: {fix}"):
        translate_markup([text], same, xml=not xhtml, xhtml=xhtml, where="in.xml")
    assert same.given == []


@pytest.mark.parametrize(("text", "line", "written", "root", "xhtml"), [
    ("<!doctype note>\n<note>a dog</note>\n", 1, "<!doctype note", "note", False),
    ('<?xml version="1.0"?>\n<!Doctype note SYSTEM "n.dtd">\n<note>a dog</note>', 2, "<!Doctype note", "note", False),
    ("<!doctypenote>\n<note>a dog</note>\n", 1, "<!doctypenote", "note", False),
    ('<!doctype html>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a dog</p></body></html>', 1,
     "<!doctype html", "html", True)])
def test_an_xml_doctype_not_in_capitals_is_refused_naming_its_line(same, text, line, written, root, xhtml):
    """XML's names are case-sensitive: an XML or XHTML file's "<!doctype note>" was written back as
    it came, and the output was no XML (a parser stops at its "<!d"), as an .xhtml page's
    "<!doctype html>" is none to a browser or an EPUB reader, which read it as XML."""
    fix = rf'XML\'s <!DOCTYPE is written in capitals \(write "<!DOCTYPE {root}"\)$'
    with pytest.raises(DataError, match=rf"^in.xml, line {line}: {written} is not XML: {fix}"):
        translate_markup([text], same, xml=not xhtml, xhtml=xhtml, where="in.xml")
    assert same.given == []


@pytest.mark.parametrize("page", ["<!DOCTYPE", "  <!doctype", "<!DOCTYPEhtml>", "<html", '<?xml version="1.0"?>',
                                  '<?xml version="1.0"?>\n<!-- nothing yet -->\n'])
def test_an_unfinished_doctype_or_a_declaration_alone_comes_back_as_it_was(same, page):
    # lxml took a text starting "<!DOCTYPE" or "<html" for a page: with nothing in it, "Document is empty"
    # was a traceback; an XML declaration alone, read as a fragment, came back a comment
    assert translate_markup([page], same) == [page] and same.given == []


def test_a_fragment_starting_like_html_is_parsed_as_a_fragment(mirror):
    # lxml took it for a page and did not wrap it: the unfinished tag was dropped, not closed
    assert translate_markup(["<html-x", "<htmlx>a dog</htmlx>"], mirror) == ["<html-x></html-x>",
                                                                               "<htmlx>DOG A</htmlx>"]


def test_a_doctype_is_found_past_a_byte_order_mark_comments_and_an_xml_declaration():
    before, doctype, after = split_doctype('\ufeff<?xml version="1.0"?><!-- c --><!DOCTYPE a PUBLIC "-//x" "a.dtd" '
                                           "[<!ENTITY b 'x]>'><!ENTITY % p 'y'>]><a/>")
    assert before == '\ufeff<?xml version="1.0"?><!-- c -->' and after == "<a/>"
    assert doctype.entities == {"b"} and doctype.external


def test_text_without_a_doctype_has_none():
    assert split_doctype("<p>a</p>") == ("", split_doctype("")[1], "<p>a</p>")


XHTML = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
         '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><body>\n'
         "<p>A cat&mdash;the black one&mdash;sleeps.</p>\n<p>The man&rsquo;s caf&eacute; runs&hellip;</p>\n"
         "</body></html>")


def test_an_xhtml_pages_entities_are_read_as_their_characters_and_written_back_as_they_were(same):
    """The model read "A catthe black onesleeps" (or "A cat the black one sleeps"): a reference was
    an atom that stood for no text, and "caf&eacute;" two words."""
    assert translate_markup([XHTML], same, xhtml=True)[0] == XHTML
    assert same.given == ["A cat—the black one—sleeps.", "The man’s café runs…"]


def test_no_text_between_two_entities_is_lost(fixed):
    out = translate_markup([XHTML], fixed("Eine Katze—die schwarze—schläft.", []), xhtml=True)[0]
    assert "<p>Eine Katze&mdash;die schwarze&mdash;schläft.</p>" in out
    strict(out.split("\n", 1)[1])  # its DOCTYPE names the DTD that declares them


def test_an_xhtml_no_break_space_entity_parts_words_and_stays_where_it_stood(same):
    page = XHTML.replace("A cat&mdash;the", "Chapter&nbsp;2: the")
    assert translate_markup([page], same, xhtml=True)[0] == page
    assert same.given[0] == "Chapter 2: the black one—sleeps."



@pytest.mark.parametrize("part, expected, given", [
    ("<head><title>Red shoes &ndash; Acme shop</title></head>", "<title>SHOES RED &ndash; SHOP ACME</title>",
     ["Red shoes", "Acme shop"]),
    ('<p><a href="/">Home</a> &raquo; <a href="/s">Shop</a> &raquo; Red shoes</p>',
     '<p><a href="/">HOME</a> &raquo; <a href="/s">SHOP</a> &raquo; SHOES RED</p>', ["Home", "Shop", "Red shoes"]),
    ('<p><a href="/p">Privacy</a> &middot; <a href="/t">Terms of use</a></p>',
     '<p><a href="/p">PRIVACY</a> &middot; <a href="/t">USE OF TERMS</a></p>', ["Privacy", "Terms of use"]),
])
def test_an_xhtml_trails_separator_entity_parts_its_labels_and_stays_as_written(mirror, part, expected, given):
    """Kept whole by the XML parser, "&raquo;" was no separator: the title and the breadcrumb were one sentence
    each, "Home » Shop » Red shoes", and came back
    ``SHOES RED &raquo; <a href="/s">SHOP</a> &raquo; <a href="/">HOME</a>``."""
    page = XHTML.replace("<body>", f"{part}<body>" if "<head>" in part else f"<body>{part}")
    assert expected in translate_markup([page], mirror, xhtml=True)[0]
    assert mirror.given[:len(given)] == given
