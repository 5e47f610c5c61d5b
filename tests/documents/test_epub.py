"""An EPUB book's package (attnmt.documents.epub): the pages its manifest lists, each translated
once, and the languages it states.  Mirror: words upper-cased in reverse order."""

from xml.sax.saxutils import escape

import pytest
from conftest import Judging, Sentencing
from lxml import etree, html
from office_files import EPUB2_PAGE, book_file, epub2_file, read_members, write_members
from support import everything_listed

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.errors import DataError

GERMAN = DocumentOptions(target_lang="de")
PACKAGE = "OEBPS/content.opf"
PAGE = "OEBPS/Text/chapter 1.xhtml"
OPF, DC, NCX = "http://www.idpf.org/2007/opf", "http://purl.org/dc/elements/1.1/", "http://www.daisy.org/z3986/2005/ncx/"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def test_a_pages_attribute_texts_are_numbered_where_their_elements_stand(same):
    """An <img alt> was numbered after the page's last block: paragraph 4 here, for the second."""
    members = read_members(epub2_file())
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>", b'<p>A dog runs.</p><figure>'
                                          b'<img alt="A brown dog" src="d.png"/><figcaption>Two.</figcaption></figure>')
    review = everything_listed()
    translate_file_bytes(write_members(members), "book.epub", same, GERMAN, review=review)
    assert [(s.place.number, s.source) for s in review.segments] == [(1, "One"), (2, "A dog runs."),
                                                                    (3, "A brown dog"), (4, "Two.")]


def with_package(change) -> bytes:
    """epub2_file, its content.opf changed by ``change`` (a function of its text)."""
    members = read_members(epub2_file())
    members[PACKAGE] = change(members[PACKAGE].decode()).encode()
    return write_members(members)


def test_a_page_two_manifest_items_link_is_translated_and_listed_once(same):
    """Linked as "Text/chapter%201.xhtml" and "./Text/chapter%201.xhtml", it was translated twice
    and its sentences listed twice in the review ("17 of 17" for 15)."""
    book = with_package(lambda opf: opf.replace("</manifest>", '<item id="b" href="./Text/chapter%201.xhtml" '
                                                               'media-type="application/xhtml+xml"/></manifest>'))
    review = everything_listed()
    out = read_members(translate_file_bytes(book, "book.epub", same, GERMAN, review=review))
    once = read_members(translate_file_bytes(epub2_file(), "book.epub", same, GERMAN))
    assert out[PAGE] == once[PAGE]
    assert [(s.place.part, s.source) for s in review.segments] == [(PAGE, "One"), (PAGE, "A dog runs on the grass.")]
    assert review.sentences == 2


TWO_LANGUAGES = "<dc:language>en</dc:language>\n    <dc:language>fr</dc:language>\n  </metadata>"


def with_two_languages() -> bytes:
    return with_package(lambda opf: opf.replace("<dc:language>en</dc:language></metadata>", TWO_LANGUAGES))


def metadata(book: bytes) -> str:
    """The package's metadata as written, from its ``<metadata`` to its ``</metadata>``."""
    opf = read_members(book)[PACKAGE].decode()
    return opf[opf.index("<metadata"):opf.index("</metadata>") + len("</metadata>")]


def test_a_book_stating_two_languages_states_the_target_once(mirror):
    """It said <dc:language>de</dc:language><dc:language>de</dc:language>."""
    out = translate_file_bytes(with_two_languages(), "book.epub", mirror, GERMAN)
    assert metadata(out) == metadata(with_two_languages()).replace(TWO_LANGUAGES,
                                                                   "<dc:language>de</dc:language>\n  </metadata>")


def test_a_book_whose_every_sentence_kept_its_source_keeps_both_its_languages(mirror):
    from attnmt.decoding.quality import Assessment

    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = translate_file_bytes(with_two_languages(), "book.epub", mirror, GERMAN, review=review)
    assert metadata(out) == metadata(with_two_languages())


REFINED = ('<dc:language id="l1">en</dc:language>\n    <dc:language id="l2">fr</dc:language>\n'
           '    <meta refines="#l2" property="display-seq">2</meta>\n'
           '    <meta refines="#l1" property="display-seq">1</meta>\n  </metadata>')


def with_refined_languages() -> bytes:
    """An EPUB 3 package stating two languages, each with a ``<meta refines>`` saying more of it."""
    return with_package(lambda opf: opf.replace('version="2.0"', 'version="3.0"')
                        .replace("<dc:language>en</dc:language></metadata>", REFINED))


def test_the_meta_refining_a_language_taken_out_goes_with_it(mirror):
    """<meta refines="#l2"> was left pointing at an id the package no longer had (epubcheck: an error)."""
    out = translate_file_bytes(with_refined_languages(), "book.epub", mirror, GERMAN)
    assert metadata(out) == metadata(with_refined_languages()).replace(REFINED, (
        '<dc:language id="l1">de</dc:language>\n    <meta refines="#l1" property="display-seq">1</meta>\n'
        "  </metadata>"))


def test_a_book_whose_every_sentence_kept_its_source_keeps_its_languages_refinements(mirror):
    from attnmt.decoding.quality import Assessment

    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = translate_file_bytes(with_refined_languages(), "book.epub", mirror, GERMAN, review=review)
    assert metadata(out) == metadata(with_refined_languages())


def spine(book: bytes) -> str:
    """The package's spine start tag, as written."""
    opf = read_members(book)[PACKAGE].decode()
    return opf[opf.index("<spine"):opf.index(">", opf.index("<spine")) + 1]


def with_spine(attributes: str, version: str = "3.0") -> bytes:
    """epub2_file as an EPUB ``version`` book whose spine has ``attributes`` (`` page-progression-direction="rtl"``)."""
    return with_package(lambda opf: opf.replace('version="2.0"', f'version="{version}"')
                        .replace("<spine>", f"<spine{attributes}>"))


@pytest.mark.parametrize("attributes, target, expected", [
    (' page-progression-direction="rtl"', "de", '<spine page-progression-direction="ltr">'),
    (' page-progression-direction="ltr"', "ar", '<spine page-progression-direction="rtl">'),
    (' page-progression-direction="default"', "he", '<spine page-progression-direction="rtl">'),
    ("", "fa", '<spine page-progression-direction="rtl">'),
    (' page-progression-direction="default"', "de", '<spine page-progression-direction="default">'),
    ("", "de", "<spine>"),
])
def test_a_books_pages_turn_the_way_its_target_language_is_written(mirror, attributes, target, expected):
    """The spine kept the source's way while its pages said the target's ``dir``: from Arabic into
    German the book still turned its pages right to left, and from English into Arabic left to right.
    ``default`` (or none) leaves it to the reading system, which turns them left to right."""
    out = translate_file_bytes(with_spine(attributes), "book.epub", mirror, DocumentOptions(target_lang=target))
    assert spine(out) == expected


def test_an_epub2_spine_that_says_no_direction_is_given_none(mirror):
    """EPUB 2's spine has no page-progression-direction; one it has is turned as EPUB 3's is."""
    arabic = DocumentOptions(target_lang="ar")
    assert spine(translate_file_bytes(with_spine("", "2.0"), "old.epub", mirror, arabic)) == "<spine>"
    assert spine(translate_file_bytes(with_spine(' page-progression-direction="ltr"', "2.0"), "old.epub", mirror,
                                      arabic)) == '<spine page-progression-direction="rtl">'


@pytest.mark.parametrize("attributes", ["", ' page-progression-direction="ltr"'])
def test_a_book_whose_every_sentence_kept_its_source_keeps_its_pages_direction(mirror, attributes):
    from attnmt.decoding.quality import Assessment

    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = translate_file_bytes(with_spine(attributes), "book.epub", mirror, DocumentOptions(target_lang="ar"),
                               review=review)
    assert spine(out) == f"<spine{attributes}>"


def with_page(body: str, kind: str = "application/xhtml+xml") -> bytes:
    """epub2_file, its page's body ``body`` and its manifest type ``kind``."""
    members = read_members(with_package(lambda opf: opf.replace("application/xhtml+xml", kind)))
    members[PAGE] = EPUB2_PAGE.replace("<p>A dog runs on the grass.</p>", body).encode()
    return write_members(members)


def test_a_page_nests_as_deep_as_an_xhtml_files_page_may(same):
    """300 levels were refused as "not well-formed XML ... Excessive depth in document: 256, use
    XML_PARSE_HUGE option" (libxml2's limit), where an .xhtml file's page may nest MAX_DEPTH (512)."""
    translate_file_bytes(with_page("<div>" * 300 + "<p>A man is walking.</p>" + "</div>" * 300), "deep.epub",
                         same, GERMAN)
    assert same.given == ["One", "A man is walking."]
    with pytest.raises(DataError) as caught:
        translate_file_bytes(with_page("<div>" * 600 + "</div>" * 600), "deep.epub", same, GERMAN)
    assert str(caught.value) == ("deep.epub: member OEBPS/Text/chapter 1.xhtml: the markup nests elements 602 deep; "
                                 "at most 512 can be translated: close the elements left open, or split the document")


def test_a_contents_entry_with_a_comment_is_translated_whole_and_keeps_it(mirror):
    """Only "The first", the text before the comment, was translated: "FIRST THE<!-- c --> chapter".  The
    comment goes where a page's <p>The first<!-- c --> chapter</p> has it go (markup.TreeJob): glued to
    the end of "first", after that word's translation (attnmt.documents.glued_points)."""
    members = read_members(book_file())
    members["EPUB/toc.ncx"] = members["EPUB/toc.ncx"].replace(b"<text>The first chapter</text>",
                                                              b"<text>The first<!-- c --> chapter</text>")
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, GERMAN))
    assert b"<text>CHAPTER FIRST<!-- c --> THE</text>" in out["EPUB/toc.ncx"]


HTML_PAGE = ('<html><head><title>One</title><style>div > p { color: red }</style></head><body><p>A man walks.</p>'
             '<script src="a.js"></script><div id="x"></div><textarea></textarea><p>The cat sleeps.</p></body></html>')
XHTML_PAGE = EPUB2_PAGE.replace("</title>", "</title><style>div > p { color: red }</style>").replace(
    "<p>A dog runs on the grass.</p>", '<p>A man walks.</p><script>if (a &lt; b &amp;&amp; c > d) go();</script>'
    '<script src="a.js"></script><div id="x"></div><br/><p>The cat sleeps.</p>')


def shape(page: bytes) -> list[tuple[str, int]]:
    """The elements an HTML parser reads in ``page`` (each with its depth), but the <meta charset>
    a page written as UTF-8 is given."""
    return [(element.tag, len(list(element.iterancestors())))
            for element in html.fromstring(page).iter(etree.Element) if element.tag != "meta"]


@pytest.mark.parametrize("page", [HTML_PAGE, XHTML_PAGE], ids=["html", "xhtml"])
def test_a_page_listed_as_text_html_is_translated_and_written_as_html(mirror, page):
    """Such a page (old EPUB 2 books list theirs so) was written back as XML where it parsed as XML:
    ``<script src="a.js"/>``, which an HTML reader takes for a start tag (the rest of the page a
    script), ``<div id="x"/>`` left open, a style's ``div &gt; p``, and its language in xml:lang alone."""
    out = read_members(translate_file_bytes(with_page_file(page, "text/html"), "old.epub", mirror, GERMAN))[PAGE]
    assert shape(out) == shape(page.encode())
    assert b"<style>div > p { color: red }</style>" in out
    assert b'<script src="a.js"></script><div id="x"></div>' in out
    assert b"<p>WALKS. MAN A</p>" in out and b"<p>SLEEPS. CAT THE</p>" in out
    assert html.fromstring(out).get("lang") == "de"


def test_a_scripts_text_in_a_page_listed_as_text_html_stays_as_it_came(same):
    out = read_members(translate_file_bytes(with_page_file(XHTML_PAGE, "text/html"), "old.epub", same, GERMAN))[PAGE]
    assert b"<script>if (a &lt; b &amp;&amp; c > d) go();</script>" in out


def test_a_page_listed_as_text_html_that_is_not_utf8_is_warned_of_and_left_as_it_is(same):
    book = with_page_file(EPUB2_PAGE.replace("A dog runs", "Ein Hund läuft"), "text/html", "latin-1")
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_file_bytes(book, "old.epub", same, GERMAN))
    assert [str(w.message) for w in caught] == [
        "old.epub: member OEBPS/Text/chapter 1.xhtml, line 4: the text is not UTF-8 (byte 0xe4); the manifest lists "
        "it as text/html, and it is left as it is"]
    assert out[PAGE] == read_members(book)[PAGE]


def with_page_file(page: str, kind: str, encoding: str = "utf-8") -> bytes:
    """epub2_file, its page ``page`` (a whole file) and its manifest type ``kind``."""
    members = read_members(with_package(lambda opf: opf.replace("application/xhtml+xml", kind)))
    members[PAGE] = page.encode(encoding)
    return write_members(members)


def test_a_page_past_libxml2s_amplification_limit_is_not_said_to_nest_too_deep(same):
    """libxml2 gives an attribute's default value copied past its amplification limit the code of
    markup nested too deep, and the page was refused as nesting "more than 512" deep."""
    page = (f'<?xml version="1.0"?>\n<!DOCTYPE html [<!ATTLIST p xmlns:x CDATA "urn:{"a" * 10_000}">]>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml"><body>' + "<p>A man.</p>" * 1000 + "</body></html>")
    with pytest.warns(UserWarning) as caught:
        translate_file_bytes(with_page_file(page, "application/xhtml+xml"), "big.epub", same, GERMAN)
    assert str(caught[0].message).startswith("big.epub: member OEBPS/Text/chapter 1.xhtml is not well-formed XML "
                                             "at line 3: Maximum entity amplification factor exceeded")


def test_a_page_past_libxml2s_own_depth_says_how_deep_it_read(same):
    """Past huge_tree's 2048 levels libxml2 stops; the page was said to nest "more than 512" deep."""
    with pytest.raises(DataError) as caught:
        translate_file_bytes(with_page("<div>" * 3000 + "</div>" * 3000), "deep.epub", same, GERMAN)
    assert str(caught.value) == ("deep.epub: member OEBPS/Text/chapter 1.xhtml: the markup nests elements more than "
                                 "2048 deep; at most 512 can be translated: close the elements left open, or split "
                                 "the document")


def test_a_page_named_in_utf8_without_zips_utf8_flag_is_translated_and_keeps_its_name(mirror):
    """Info-ZIP's ``zip`` on Linux writes ``Käse.xhtml`` as its UTF-8 bytes with the flag clear:
    zipfile read it as code page 437 (``K├ñse.xhtml``), the manifest's ``K%C3%A4se.xhtml`` named
    no member, and the page was skipped, silently, then written as ``K├ñse.xhtml`` in UTF-8."""
    members = read_members(with_package(lambda opf: opf.replace("chapter%201", "K%C3%A4se")))
    members["OEBPS/Text/K__se.xhtml"] = members.pop(PAGE)
    book = write_members(members)
    assert book.count(b"OEBPS/Text/K__se.xhtml") == 2  # its local header's and the central directory's
    book = book.replace(b"OEBPS/Text/K__se.xhtml", "OEBPS/Text/Käse.xhtml".encode())
    out = read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))
    assert list(out) == list(read_members(book))
    assert b"<p>GRASS. THE ON RUNS DOG A</p>" in out["OEBPS/Text/K├ñse.xhtml"]  # zipfile's reading of the name


def test_a_page_the_manifest_lists_but_the_book_lacks_is_warned_of(same):
    book = with_package(lambda opf: opf.replace("chapter%201", "chapter%202"))
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_file_bytes(book, "book.epub", same, GERMAN))
    assert [str(w.message) for w in caught] == [
        "book.epub: member OEBPS/content.opf lists OEBPS/Text/chapter 2.xhtml (application/xhtml+xml), which the "
        "book does not hold; there is nothing of it to translate"]
    assert out[PAGE] == read_members(book)[PAGE]


@pytest.mark.parametrize("media", ["Application/XHTML+XML", " application/xhtml+xml "])
def test_a_pages_media_type_in_capitals_or_spaced_is_read_as_mimes(same, media):
    """Compared as written, the page was left out, untranslated, and nothing said so."""
    book = with_package(lambda opf: opf.replace('media-type="application/xhtml+xml"', f'media-type="{media}"'))
    out = read_members(translate_file_bytes(book, "book.epub", same, GERMAN))
    assert b'xml:lang="de"' in out[PAGE]


SVG_PAGE = ('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" '
            'xml:lang="en"><title>A dog runs in the snow</title><rect width="600" height="800"/>'
            '<text x="10" y="20">A girl climbs a wall.</text></svg>')


def with_svg(spine: bool) -> bytes:
    """epub2_file with an SVG picture, ``pic.svg``, that its spine lists as a page after the chapter or not."""
    item = '<item id="s" href="Text/pic.svg" media-type="image/svg+xml"/></manifest>'
    members = read_members(with_package(lambda opf: opf.replace("</manifest>", item).replace(
        "</spine>", '<itemref idref="s"/></spine>' if spine else "</spine>")))
    members["OEBPS/Text/pic.svg"] = SVG_PAGE.encode()
    return write_members(members)


def test_an_svg_page_in_the_spine_is_translated_and_says_the_target_language(mirror):
    """EPUB 3's SVG content document (a fixed-layout book's title page, a comic's) was left in the source
    language, its drawn text and its title read out, and nothing said so, where the same SVG inline in an
    XHTML page is translated (attnmt.documents.svg_texts); its shapes stay, and it gets no ``lang``, which
    SVG 1.1 has not."""
    out = read_members(translate_file_bytes(with_svg(spine=True), "book.epub", mirror, GERMAN))
    assert mirror.given == ["One", "A dog runs on the grass.", "A dog runs in the snow", "A girl climbs a wall."]
    assert out["OEBPS/Text/pic.svg"].decode().endswith(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" xml:lang="de"><title>SNOW THE IN RUNS DOG A'
        '</title><rect width="600" height="800"/><text x="10" y="20">WALL. A CLIMBS GIRL A</text></svg>')


def test_an_svg_page_declaring_entities_is_warned_of_and_kept_and_the_book_translated(mirror):
    """Adobe Illustrator declares its namespaces as entities; read as a page, such a picture refused the whole
    book, which was translated while its SVG pages were not read."""
    members = read_members(with_svg(spine=True))
    picture = (b'<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n]>\n'
               b'<svg xmlns="&ns_svg;"><text>A girl climbs a wall.</text></svg>')
    members["OEBPS/Text/pic.svg"] = picture
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, GERMAN))
    assert [str(w.message) for w in caught] == [
        "book.epub: member OEBPS/Text/pic.svg, line 3: its DOCTYPE declares the entity ns_svg, and declared entities "
        "are never expanded (one could read a file): write its text where it is used, and take the declaration out; "
        "it is kept as it is, untranslated"]
    assert out["OEBPS/Text/pic.svg"] == picture
    assert b"<p>GRASS. THE ON RUNS DOG A</p>" in out[PAGE]


def test_an_svg_picture_outside_the_spine_stays_as_it_came(mirror):
    """A picture a page shows (an <img src="pic.svg">) is an image, not a page: its bytes are kept."""
    book = with_svg(spine=False)
    out = read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))
    assert out["OEBPS/Text/pic.svg"] == SVG_PAGE.encode()


@pytest.mark.parametrize("item, listed", [
    ('<item id="a" href="Text/chapter%201.xhtml" media-type="text/xml"/>', "Text/chapter%201.xhtml (item 'a') as "
     "text/xml, not as a page (application/xhtml+xml); it is kept as it is, untranslated"),
    ('<item id="a" href="Text/chapter%201.xhtml"/>', "Text/chapter%201.xhtml (item 'a') with no media type, not as "
     "a page (application/xhtml+xml); it is kept as it is, untranslated"),
    ('<item id="a" media-type="application/xhtml+xml"/>', "item 'a' (application/xhtml+xml) with no href; there is "
     "no page of it to translate")])
def test_a_broken_manifest_entry_for_a_page_is_warned_of_in_one_line(same, item, listed):
    """A page listed with another media type, none, or no href was left untranslated without a word."""
    book = with_package(lambda opf: opf.replace(
        '<item id="a" href="Text/chapter%201.xhtml" media-type="application/xhtml+xml"/>', item))
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_file_bytes(book, "book.epub", same, GERMAN))
    assert [str(w.message) for w in caught] == [f"book.epub: member OEBPS/content.opf lists {listed}"]
    assert out[PAGE] == read_members(book)[PAGE]


@pytest.mark.parametrize("href", ["http://example.com/a.xhtml", "https://example.com/b%201.xhtml",
                                  "//example.com/a.xhtml"])
def test_a_page_the_manifest_lists_at_a_remote_url_is_warned_of_as_remote(same, href):
    """It was named as the member "OEBPS/http:/example.com/a.xhtml", which the book does not hold."""
    book = with_package(lambda opf: opf.replace("</manifest>", f'<item id="r" href="{href}" '
                                                               'media-type="application/xhtml+xml"/></manifest>'))
    with pytest.warns(UserWarning) as caught:
        out = read_members(translate_file_bytes(book, "book.epub", same, GERMAN))
    assert [str(w.message) for w in caught] == [
        f"book.epub: member OEBPS/content.opf lists {href} (application/xhtml+xml), a remote resource outside the "
        "book; it is kept as it is, untranslated"]
    assert href.encode() in out[PACKAGE] and out[PAGE] == read_members(
        translate_file_bytes(epub2_file(), "book.epub", same, GERMAN))[PAGE]


def test_a_manifest_href_on_a_windows_drive_is_no_remote_resource(same):
    """urlsplit reads "C:" as a scheme: it was warned of as "a remote resource outside the book"."""
    book = with_package(lambda opf: opf.replace("</manifest>", '<item id="c" href="C:/x.xhtml" '
                                                               'media-type="application/xhtml+xml"/></manifest>'))
    with pytest.warns(UserWarning) as caught:
        translate_file_bytes(book, "book.epub", same, GERMAN)
    assert [str(w.message) for w in caught] == [
        "book.epub: member OEBPS/content.opf lists OEBPS/C:/x.xhtml (application/xhtml+xml), which the book does "
        "not hold; there is nothing of it to translate"]


def test_a_book_with_nothing_to_translate_keeps_its_language(same):
    """Its pages kept their language, and its package said the target's: a book with no sentence
    was not taken for one whose every sentence kept its source."""
    members = read_members(epub2_file())
    members[PAGE] = EPUB2_PAGE.replace("<title>One</title>", "<title></title>").replace(
        "<p>A dog runs on the grass.</p>", "").encode()
    book = write_members(members)
    out = translate_file_bytes(book, "empty.epub", same, GERMAN)
    assert same.given == []
    assert metadata(out) == metadata(book)
    assert read_members(out)[PAGE] == read_members(book)[PAGE]


OEB_DOCTYPE = ('<!DOCTYPE package PUBLIC "+//ISBN 0-9673008-1-9//DTD OEB 1.2 Package//EN" '
               '"http://openebook.org/dtds/oeb-1.2/oebpkg12.dtd">')
CONTAINER_DOCTYPE = '<!DOCTYPE container SYSTEM "container.dtd">'


def test_a_package_and_container_with_a_doctype_are_read_and_keep_it(mirror):
    """An EPUB 2 package with OEB 1.2's DOCTYPE (old Adobe tools write it), or a container with
    one, was refused: "declares a DTD, which is never read; the file was not written by an office
    application".  They are read as the pages are: no DTD loaded, no entity declared."""
    members = read_members(with_package(lambda opf: opf.replace("?>", "?>" + OEB_DOCTYPE, 1)))
    members["META-INF/container.xml"] = members["META-INF/container.xml"].replace(
        b"?>", b"?>" + CONTAINER_DOCTYPE.encode(), 1)
    out = read_members(translate_file_bytes(write_members(members), "old.epub", mirror, GERMAN))
    assert b"<p>GRASS. THE ON RUNS DOG A</p>" in out[PAGE]
    assert out[PACKAGE].startswith(b"<?xml version='1.0' encoding='UTF-8'?>\n" + OEB_DOCTYPE.encode() + b"\n")
    assert b"<dc:language>de</dc:language>" in out[PACKAGE]


def test_a_package_whose_doctype_declares_an_entity_is_refused_naming_it(same):
    book = with_package(lambda opf: opf.replace("?>", '?>\n<!DOCTYPE package [<!ENTITY x SYSTEM "file:///etc/passwd">]>'))
    with pytest.raises(DataError) as caught:
        translate_file_bytes(book, "evil.epub", same, GERMAN)
    assert str(caught.value) == ("evil.epub: member OEBPS/content.opf, line 2: its DOCTYPE declares the external "
                                 'entity x (SYSTEM "file:///etc/passwd"), which is never read, for it could read any '
                                 "file or address: write its text where it is used, and take the declaration out")


CASE = ('<epub:case required-namespace="http://www.w3.org/1998/Math/MathML"><math '
        'xmlns="http://www.w3.org/1998/Math/MathML"><mi>v</mi></math></epub:case>')


def switch(default: str) -> str:
    """A paragraph whose sentence holds EPUB 3.0's MathML fallback, its <epub:default> ``default``."""
    return (f'<p xmlns:epub="http://www.idpf.org/2007/ops">The speed is <epub:switch id="s">{CASE}<epub:default>'
            f'{default}</epub:default></epub:switch> meters per second.</p>')


@pytest.mark.parametrize("kind", ["application/xhtml+xml", "text/html"])
def test_an_epub_switchs_default_is_translated_in_its_sentence_and_its_case_kept(upper, kind):
    """EPUB 3.0's MathML fallback: its <epub:case> and <epub:default> side by side made it a block,
    which cut its sentence in two ("The speed is", "meters per second."); then kept whole, its
    default (what most reading systems show) was left untranslated.  The default is read in its
    sentence and carried by alignment; the case, MathML, is kept as it is; the review shows "v" once."""
    review = everything_listed()
    book = with_page(switch("<span>v</span>"), kind)
    out = read_members(translate_file_bytes(book, "math.epub", upper, GERMAN, review=review))
    assert upper.given == ["One", "The speed is v meters per second."]
    assert [s.source for s in review.segments] == ["One", "The speed is v meters per second."]
    assert (f'THE SPEED IS <epub:switch id="s">{CASE}<epub:default><span>V</span></epub:default></epub:switch> '
            'METERS PER SECOND.</p>').encode() in out[PAGE]


def test_an_epub_switchs_default_of_a_picture_keeps_the_space_after_the_switch(upper):
    """A default that holds only a picture (an atom in the default, beside the case, an atom too,
    each touching the other): the space after the switch stays, not ``</epub:switch>METERS``."""
    out = read_members(translate_file_bytes(with_page(switch('<img src="v.png" alt="v"/>')), "math.epub", upper,
                                            GERMAN))
    assert (f'THE SPEED IS <epub:switch id="s">{CASE}<epub:default><img src="v.png" alt="v"/></epub:default>'
            '</epub:switch> METERS PER SECOND.</p>').encode() in out[PAGE]


def test_an_epub_switchs_default_words_are_translated_in_place(upper):
    """The fallback's words, which the reader sees, are translated where they stand, not left as they were."""
    body = switch("at <b>two</b> hundred").replace("The speed is", "A car drives")
    out = read_members(translate_file_bytes(with_page(body), "math.epub", upper, GERMAN))
    assert upper.given == ["One", "A car drives at two hundred meters per second."]
    assert (f'<epub:switch id="s">{CASE}<epub:default>AT <b>TWO</b> HUNDRED</epub:default></epub:switch> '
            'METERS PER SECOND.</p>').encode() in out[PAGE]


def test_an_epub_switchs_default_of_paragraphs_is_a_block_of_its_own(upper):
    body = (f'<div xmlns:epub="http://www.idpf.org/2007/ops">A dog runs. <epub:switch>{CASE}<epub:default>'
            '<p>A man walks on the sand.</p></epub:default></epub:switch></div>')
    out = read_members(translate_file_bytes(with_page(body), "math.epub", upper, GERMAN))
    assert upper.given == ["One", "A dog runs.", "A man walks on the sand."]
    assert (f'<epub:switch>{CASE}<epub:default><p>A MAN WALKS ON THE SAND.</p></epub:default>'
            '</epub:switch></div>').encode() in out[PAGE]


def test_a_books_title_is_translated_in_its_package_and_contents_as_on_its_navigation_page(mirror):
    """The nav page's <title> and heading said "BOOK A", the package's dc:title and toc.ncx's docTitle "A book":
    a reading system's library showed the source's title over the translated book."""
    out = read_members(translate_file_bytes(book_file(), "book.epub", mirror, GERMAN))
    package, contents = etree.fromstring(out["EPUB/content.opf"]), etree.fromstring(out["EPUB/toc.ncx"])
    assert package.findtext(f"{{{OPF}}}metadata/{{{DC}}}title") == "BOOK A"
    assert contents.findtext(f"{{{NCX}}}docTitle/{{{NCX}}}text") == "BOOK A"
    assert html.fromstring(out["EPUB/nav.xhtml"]).findtext(".//title") == "BOOK A"
    assert package.findtext(f"{{{OPF}}}metadata/{{{DC}}}identifier") == "id-1"
    assert package.findtext(f"{{{OPF}}}metadata/{{{DC}}}language") == "de"
    assert mirror.given.count("A book") == 1  # one sentence, one translation everywhere


def test_a_books_metadata_but_its_titles_is_kept(mirror):
    """An EPUB 2 package's title and subtitle are translated, and the one stating its language states the
    target's; its creator, date, publisher and identifier are names and data, kept."""
    metadata = ('<dc:title xml:lang="en">The old house</dc:title><dc:title>A dark story</dc:title>'
                '<dc:creator opf:role="aut">Mary Rose Field</dc:creator><dc:date>2019-03-01</dc:date>'
                '<dc:publisher>Green Tree Books</dc:publisher><dc:language>en</dc:language>')
    book = with_package(lambda text: text.replace("<dc:language>en</dc:language>", metadata).replace(
        "<metadata ", f'<metadata xmlns:opf="{OPF}" '))
    package = etree.fromstring(read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))[PACKAGE])
    metadata = package.find(f"{{{OPF}}}metadata")
    found = [(etree.QName(node).localname, node.text, node.get(XML_LANG)) for node in metadata]
    assert found == [("identifier", "x", None), ("title", "HOUSE OLD THE", "de"), ("title", "STORY DARK A", None),
                     ("creator", "Mary Rose Field", None), ("date", "2019-03-01", None),
                     ("publisher", "Green Tree Books", None), ("language", "de", None)]


def test_a_books_series_name_is_translated_as_its_title_is(mirror):
    """An EPUB 3 book's collection (a series' name, which a reading system's library shows beside the
    title) stayed in the source; what refines it (its kind, the book's place in it) is data, kept."""
    metadata = ('<dc:title>The old house</dc:title>'
                '<meta property="belongs-to-collection" id="c">The dark stories</meta>'
                '<meta refines="#c" property="collection-type">series</meta>'
                '<meta refines="#c" property="group-position">2</meta><dc:language>en</dc:language>')
    book = with_package(lambda text: text.replace("<dc:language>en</dc:language>", metadata).replace(
        'version="2.0"', 'version="3.0"'))
    package = etree.fromstring(read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))[PACKAGE])
    found = [(etree.QName(node).localname, node.text) for node in package.find(f"{{{OPF}}}metadata")]
    assert found == [("identifier", "x"), ("title", "HOUSE OLD THE"), ("meta", "STORIES DARK THE"),
                     ("meta", "series"), ("meta", "2"), ("language", "de")]


def test_a_books_series_name_calibre_writes_is_translated(mirror):
    """Calibre names an EPUB 2 book's series in a meta's content, which its library shows; its
    position in the series is data, kept."""
    metadata = ('<dc:title>The old house</dc:title><meta name="calibre:series" content="The dark stories"/>'
                '<meta name="calibre:series_index" content="2.0"/><dc:language>en</dc:language>')
    book = with_package(lambda text: text.replace("<dc:language>en</dc:language>", metadata))
    package = etree.fromstring(read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))[PACKAGE])
    assert [meta.get("content") for meta in package.iter(f"{{{OPF}}}meta")] == ["STORIES DARK THE", "2.0"]


def test_an_epub2_guides_titles_are_translated_and_their_types_and_links_kept(mirror):
    """The guide is EPUB 2's landmarks, which a reading system's Go To menu lists by title: they stayed English
    where the navigation page's landmarks, in an EPUB 3 book, are translated."""
    guide = ('</spine><guide><reference type="toc" title="Table of Contents" href="Text/chapter%201.xhtml"/>'
             '<reference type="text" title="Beginning of the story" href="Text/chapter%201.xhtml#start"/></guide>')
    book = with_package(lambda text: text.replace("</spine>", guide))
    package = etree.fromstring(read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))[PACKAGE])
    assert [dict(entry.attrib) for entry in package.iter(f"{{{OPF}}}reference")] == [
        {"type": "toc", "title": "CONTENTS OF TABLE", "href": "Text/chapter%201.xhtml"},
        {"type": "text", "title": "STORY THE OF BEGINNING", "href": "Text/chapter%201.xhtml#start"}]


def test_a_books_plain_description_is_translated_and_one_holding_markup_translated_as_html(mirror):
    """The blurb a reading system's library shows stayed in the source; Calibre's escaped HTML was kept whole (its
    tags, read as text, would go to the model as words): its text is translated as an HTML fragment's, its tags
    and their attributes kept, and it is written back escaped as it came."""
    metadata = ("<dc:description>A dog runs.\nA cat sleeps.</dc:description>"
                "<dc:description>&lt;div class=\"blurb\"&gt;&lt;p&gt;A man &lt;b&gt;walks&lt;/b&gt;.&lt;/p&gt;"
                "&lt;/div&gt;</dc:description><dc:language>en</dc:language>")
    book = with_package(lambda text: text.replace("<dc:language>en</dc:language>", metadata))
    package = etree.fromstring(read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))[PACKAGE])
    assert [node.text for node in package.iter(f"{{{DC}}}description")] == [
        "RUNS. DOG A\nSLEEPS. CAT A", '<div class="blurb"><p><b>WALKS</b>. MAN A</p></div>']
    assert not any("<" in given for given in mirror.given)


def test_a_span_of_a_class_the_books_stylesheet_sets_monospaced_is_kept_as_code(mirror):
    """LibreOffice writes a document's code into an EPUB as a span of a class its CSS sets in a
    monospaced font, not as <code>: read as words, ``pip install attnmt`` was translated.  A paragraph
    all in such a font is words, as a screenplay in Courier is."""
    members = read_members(epub2_file())
    members["OEBPS/Styles/style.css"] = (b"/* .span1 { font-family: Courier } */ .span4 {\n  font-family: 'DejaVu Sans "
                                         b"Mono';\n}\np.listing, .mono { font-family: monospace, serif }")
    code = '<span class="span4">pip install attnmt</span>'
    page = (f'<p><span class="span1">Run </span>{code}<span class="span1"> to start.</span></p>'
            '<p><span class="mono">A dog runs.</span></p>')
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>", page.encode())
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, DocumentOptions()))
    assert mirror.given == ["One", "Run to start.", "A dog runs."]  # the page's title, then its paragraphs
    assert f'<span class="span1">START. TO</span> {code}' in out[PAGE].decode()


def test_a_paragraph_all_of_a_monospaced_class_among_prose_is_kept_as_code(mirror):
    """LibreOffice exports a "Preformatted Text" paragraph as a span of a class its CSS sets in a
    monospaced font, the body's in another: ``make install clean`` was translated.  A Courier paragraph
    that reads as a sentence is words."""
    code = '<p class="para0"><span class="span1">make install clean</span></p>'
    out = monospaced_book(mirror, code, "Open a terminal and run the following command.", "A dog runs.")
    assert mirror.given == ["One", "Open a terminal and run the following command.", "A dog runs."]
    assert code in out[PAGE].decode()


@pytest.mark.parametrize("line", ["print('Hi.')", 'console.log("Saved!");', 'greeting = "Good morning."',
                                  "$ echo Done.", ">>> len('abc.')"])
def test_a_monospaced_line_of_code_that_ends_like_a_sentence_is_kept_as_code(mirror, line):
    """Its stop is a string's or an argument's (``print('Hi.')``): read as a sentence, the line was translated
    and the program broken.  A call with a string, an assignment or a prompt tells it from words in Courier."""
    code = f'<p class="para0"><span class="span1">{escape(line)}</span></p>'
    out = monospaced_book(mirror, code, "Open a terminal and type the following line.", "A dog runs (fast).")
    assert mirror.given == ["One", "Open a terminal and type the following line.", "A dog runs (fast)."]
    assert code in out[PAGE].decode()


def monospaced_book(mirror, code: str, before: str, after: str) -> dict[str, bytes]:
    """A LibreOffice-style book's members, translated: its page a serif paragraph ``before``, the paragraph ``code``
    and a monospaced paragraph ``after``, the two spans' fonts in its stylesheet."""
    members = read_members(epub2_file())
    members["OEBPS/Styles/style.css"] = (b".span0 { font-family: 'Liberation Serif'; }\n"
                                         b".span1 { font-family: 'Liberation Mono'; }")
    page = (f'<p class="para0"><span class="span0">{before}</span></p>'
            f'{code}<p class="para0"><span class="span1">{after}</span></p>')
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>", page.encode())
    return read_members(translate_file_bytes(write_members(members), "book.epub", mirror, DocumentOptions()))


def test_a_formulas_script_in_a_class_set_below_the_line_is_kept_whole(mirror):
    """A converter writes a subscript as a span of a class its CSS sets ``vertical-align: sub``, not as <sub>:
    read as a mark, "H2O" went to the model, which lost it, and the span went over a translated word."""
    members = read_members(epub2_file())
    members["OEBPS/Styles/style.css"] = b".calibre5 { font-size: 0.75em; vertical-align: sub }\n.calibre6 { }"
    formula = '<span class="calibre5">2</span>'
    page = f'<p>A man drinks H{formula}O on the street.</p><p>A dog <span class="calibre5">runs</span> home.</p>'
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>", page.encode())
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, DocumentOptions()))
    assert mirror.given == ["One", "A man drinks on the street.", "A dog runs home."]
    assert f"<p>STREET. THE H{formula}O ON DRINKS MAN A</p>" in out[PAGE].decode()


def test_a_formulas_script_in_a_class_moved_below_the_line_by_its_position_is_kept_whole(mirror):
    """LibreOffice's EPUB export moves a subscript down by a relative position and leaves its ``vertical-align`` at
    baseline: read as a word's mark, "H2O" went to the model, which lost the "2"."""
    members = read_members(epub2_file())
    members["OEBPS/styles/stylesheet.css"] = (b".span2 {\n  font-size: 0.58em;\n  position: relative;\n  top: 0.33em;\n"
                                              b"  vertical-align: baseline;\n}\n.span3 { position: relative; top: 0; }")
    formula = '<span class="span2">2</span>'
    page = f'<p>A man drinks H{formula}O on the street.</p><p>A dog <span class="span3">runs</span> home.</p>'
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>", page.encode())
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, DocumentOptions()))
    assert mirror.given == ["One", "A man drinks on the street.", "A dog runs home."]
    assert f"<p>STREET. THE H{formula}O ON DRINKS MAN A</p>" in out[PAGE].decode()


def test_a_formula_that_libreoffice_writes_in_spans_keeps_its_letters_and_script(mirror):
    """LibreOffice's EPUB export: each run a span, the subscript's class moved down by its position.  "H2O" went to the
    model, which lost the "2", and the subscript's span came back empty."""
    members = read_members(epub2_file())
    members["OEBPS/styles/stylesheet.css"] = b".span2 { font-size: 0.58em; position: relative; top: 0.33em }"
    page = ('<p class="para1"><span class="span1">A man drinks H</span><span class="span2">2</span>'
            '<span class="span1">O in the park.</span></p>')
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>", page.encode())
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, DocumentOptions()))
    assert mirror.given == ["One", "A man drinks in the park."]
    assert ('<p class="para1"><span class="span1">PARK. THE IN</span> <span class="span1">H</span><span class="span2">2'
            '</span><span class="span1">O</span> <span class="span1">DRINKS MAN A</span></p>') in out[PAGE].decode()


def test_a_pages_block_whose_every_sentence_kept_its_source_says_the_sources_language(mirror):
    """"<p>SIGNAL: 3 bars</p>" came back from the demo model as "EIN SCHILD: Drei weiblichen", so both kept their
    source, and the page that now says German held it with no xml:lang="en" on it."""
    members = read_members(epub2_file())
    members[PAGE] = members[PAGE].replace(b"<p>A dog runs on the grass.</p>",
                                          b"<p>SIGNAL: 3 bars</p><p>A dog runs.</p>")
    translator = Judging(Sentencing({"SIGNAL": "EIN SCHILD", "3 bars": "Drei weiblichen", "A dog runs.": "Ein Hund.",
                                     "One": "Eins"}), {})
    page = read_members(translate_file_bytes(write_members(members), "book.epub", translator, GERMAN))[PAGE]
    assert b'<p xml:lang="en">SIGNAL: 3 bars</p><p>Ein Hund.</p>' in page
