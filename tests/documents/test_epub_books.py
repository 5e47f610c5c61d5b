"""Whole EPUB books as ebooklib writes them, translated (attnmt.documents.epub) and read back as a reading
system reads them: with ebooklib, and member by member with zipfile and lxml.  Mirror: words upper-cased in
reverse order."""

import io

import pytest
from ebooklib import epub
from lxml import etree
from office_files import book_file, read_members, write_members, written_book

from attnmt.documents.files import translate_file_bytes
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

GERMAN = DocumentOptions(target_lang="de")
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def read_book(data: bytes) -> epub.EpubBook:
    return epub.read_epub(io.BytesIO(data), {"ignore_ncx": False})


def with_member(member: str, change) -> bytes:
    """book_file, its ``member`` changed by ``change`` (a function of its bytes)."""
    members = read_members(book_file())
    members[member] = change(members[member])
    return write_members(members)


def test_a_chapter_that_is_not_well_formed_is_warned_of_and_the_rest_of_the_book_translated(mirror):
    """A stray <br> in one chapter refused the whole book ("member EPUB/one.xhtml is not well-formed XML
    at line 9"); a reading system shows none of that chapter either, and the rest is the user's book."""
    book = with_member("EPUB/one.xhtml", lambda page: page.replace(b"grass.</p>", b"grass.<br></p>"))
    with pytest.warns(LeftUntranslated) as caught:
        out = translate_file_bytes(book, "book.epub", mirror, GERMAN)
    assert [str(w.message) for w in caught] == [
        "book.epub: member EPUB/one.xhtml is not well-formed XML at line 9: Opening and ending tag mismatch: br "
        "line 9 and p; it is kept as it is, untranslated"]
    assert read_members(out)["EPUB/one.xhtml"] == read_members(book)["EPUB/one.xhtml"]
    read = read_book(out)
    assert read.get_metadata("DC", "title") == [("BOOK A", {})]
    assert read.get_metadata("DC", "language") == [("de", {})]
    nav = etree.fromstring(read.get_item_with_id("nav").get_content())
    assert [a.text for a in nav.iter("{*}a")] == ["CHAPTER FIRST THE"]


def test_a_table_of_contents_that_is_not_well_formed_is_warned_of_and_the_pages_translated(mirror):
    book = with_member("EPUB/toc.ncx", lambda ncx: ncx.replace(b"</navMap>", b""))
    with pytest.warns(LeftUntranslated, match=r"^book\.epub: member EPUB/toc\.ncx is not well-formed XML at line "
                                              r"\d+: .*; it is kept as it is, untranslated$"):
        out = read_members(translate_file_bytes(book, "book.epub", mirror, GERMAN))
    assert out["EPUB/toc.ncx"] == read_members(book)["EPUB/toc.ncx"]
    page = etree.fromstring(out["EPUB/one.xhtml"])
    assert [h.text for h in page.iter("{*}h1")] == ["CHAPTER FIRST THE"]


def subjects_book() -> bytes:
    """An EPUB 3 book with a subject of words, a BISAC code, and BISAC's heading refined by its scheme and code."""
    book = epub.EpubBook()
    book.set_identifier("id-1")
    book.set_title("A book")
    book.set_language("en")
    book.add_metadata("DC", "subject", "Ghost stories")
    book.add_metadata("DC", "subject", "FIC027000")
    book.add_metadata("DC", "subject", "FICTION / Ghost", {"id": "s1"})
    book.add_metadata(None, "meta", "BISAC", {"refines": "#s1", "property": "authority"})
    book.add_metadata(None, "meta", "FIC015000", {"refines": "#s1", "property": "term"})
    chapter = epub.EpubHtml(title="One", file_name="one.xhtml", lang="en")
    chapter.content = "<p>A dog runs.</p>"
    return written_book(book, chapter)


def test_a_books_subjects_are_translated_as_its_tags_but_a_schemes_terms_kept(mirror):
    """A library shows dc:subject as the book's tags: "Ghost stories" stayed English in a German book.  A code,
    and the heading a scheme's authority and term refine, are looked up as written, kept."""
    read = read_book(translate_file_bytes(subjects_book(), "book.epub", mirror, GERMAN))
    assert [text for text, _ in read.get_metadata("DC", "subject")] == ["STORIES GHOST", "FIC027000",
                                                                       "FICTION / Ghost"]
    assert read.get_metadata("DC", "title") == [("BOOK A", {})]


def with_package_language(book: bytes) -> bytes:
    """``book`` whose package root and title state English written left to right, as EPUB 3 lets them."""
    def stated(opf: bytes) -> bytes:
        opf = opf.replace(b'version="3.0"', b'version="3.0" xml:lang="en" dir="ltr"', 1)
        return opf.replace(b"<dc:title>", b'<dc:title xml:lang="en" dir="ltr">', 1)
    members = read_members(book)
    members["EPUB/content.opf"] = stated(members["EPUB/content.opf"])
    return write_members(members)


@pytest.mark.parametrize("target, way", [("de", "ltr"), ("ar", "rtl")])
def test_a_packages_stated_language_and_direction_are_the_targets(mirror, target, way):
    """<package xml:lang="en" dir="ltr">, which the metadata's texts inherit, stayed so: the translated
    description said English; and an Arabic title said dir="ltr"."""
    out = read_members(translate_file_bytes(with_package_language(book_file()), "book.epub", mirror,
                                            DocumentOptions(target_lang=target)))
    package = etree.fromstring(out["EPUB/content.opf"])
    title = package.find("{*}metadata/{http://purl.org/dc/elements/1.1/}title")
    assert (package.get(XML_LANG), package.get("dir")) == (target, way)
    assert (title.text, title.get(XML_LANG), title.get("dir")) == ("BOOK A", target, way)


def test_a_package_whose_every_sentence_kept_its_source_keeps_its_stated_language(mirror):
    from attnmt.decoding.quality import Assessment
    from attnmt.documents.review import Review

    book = with_package_language(book_file())
    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = read_members(translate_file_bytes(book, "book.epub", mirror, DocumentOptions(target_lang="ar"),
                                            review=review))
    package = etree.fromstring(out["EPUB/content.opf"])
    assert (package.get(XML_LANG), package.get("dir")) == ("en", "ltr")


@pytest.mark.parametrize("description, translated", [
    ("A dog runs.", "RUNS. DOG A"), ("&lt;p&gt;A dog runs.&lt;/p&gt;", "&lt;p&gt;RUNS. DOG A&lt;/p&gt;")])
def test_a_descriptions_stated_language_is_the_targets_once_translated(mirror, description, translated):
    """<dc:description xml:lang="en"> went on saying English over its translation (Calibre's escaped HTML too)."""
    members = read_members(book_file())
    members["EPUB/content.opf"] = members["EPUB/content.opf"].replace(
        b"</metadata>", f'<dc:description xml:lang="en" dir="ltr">{description}</dc:description></metadata>'.encode())
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror,
                                            DocumentOptions(target_lang="ar")))
    assert (f'<dc:description xml:lang="ar" dir="rtl">{translated}</dc:description>'.encode()
            in out["EPUB/content.opf"])


def contents_book(heading: str, title: str = "A book") -> bytes:
    """An EPUB 3 book titled ``title`` of one chapter headed ``heading``, with toc.ncx and the navigation page
    listing it."""
    book = epub.EpubBook()
    book.set_identifier("id-1")
    book.set_title(title)
    book.set_language("en")
    chapter = epub.EpubHtml(title=heading, file_name="one.xhtml", lang="en")
    chapter.content = f'<h1 id="h1">{heading}</h1><p>A dog runs.</p>'
    return written_book(book, chapter, [epub.Link("one.xhtml#h1", heading, "one")])


@pytest.mark.parametrize("heading", ["Part One: The storm", "Chapter 2", "A dog runs  in the park"])
def test_a_contents_entry_of_toc_ncx_is_translated_as_the_heading_it_points_to(mirror, heading):
    """toc.ncx's entries were read as XML's records: "Part One: The storm" went to the model whole ("STORM THE
    ONE: PART"), where the heading and the navigation page's entry wrote the part's label ("Teil Eins: STORM THE")."""
    out = read_members(translate_file_bytes(contents_book(heading), "book.epub", mirror, GERMAN))
    page, nav, ncx = (etree.fromstring(out[f"EPUB/{name}"]) for name in ("one.xhtml", "nav.xhtml", "toc.ncx"))
    entry = ncx.find("{*}navMap/{*}navPoint")
    assert entry.findtext("{*}navLabel/{*}text") == page.findtext(".//{*}h1") == nav.findtext(".//{*}a")
    assert entry.find("{*}content").get("src") == "one.xhtml#h1"


def test_a_contents_entry_under_a_root_stating_its_region_is_translated_and_the_root_says_the_target(mirror):
    """toc.ncx's root says xml:lang="en-US", as older tools write it: climbing from a translated entry to state
    its language, the reading of a page's elements looked for a block above that root, and failed."""
    members = read_members(contents_book("Part One: The storm"))
    members["EPUB/toc.ncx"] = members["EPUB/toc.ncx"].replace(b'version="2005-1"', b'version="2005-1" xml:lang="en-US"')
    out = read_members(translate_file_bytes(write_members(members), "book.epub", mirror, GERMAN))
    ncx = etree.fromstring(out["EPUB/toc.ncx"])
    assert ncx.get(XML_LANG) == "de"
    assert ncx.findtext("{*}navMap/{*}navPoint/{*}navLabel/{*}text") == "Teil Eins: STORM THE"


def test_a_books_title_is_translated_in_its_package_as_on_its_navigation_page_and_toc_ncx(mirror):
    """dc:title was read as XML's record: "Part One: The storm" went to the model whole ("STORM THE ONE: PART"),
    where the navigation page's <title> and toc.ncx's docTitle wrote the part's label."""
    out = read_members(translate_file_bytes(contents_book("A dog runs.", "Part One: The storm"), "book.epub", mirror,
                                            GERMAN))
    package, nav, ncx = (etree.fromstring(out[f"EPUB/{name}"]) for name in ("content.opf", "nav.xhtml", "toc.ncx"))
    assert package.findtext("{*}metadata/{http://purl.org/dc/elements/1.1/}title") == "Teil Eins: STORM THE"
    assert nav.findtext("{*}head/{*}title") == ncx.findtext("{*}docTitle/{*}text") == "Teil Eins: STORM THE"


def navigation_book() -> bytes:
    """An EPUB 3 book whose navigation page ebooklib writes with its landmarks ("Guide", from the book's guide) and
    its list of pages ("Pages", from the chapter's page breaks: labelled 12, xii and "Page 13")."""
    book = epub.EpubBook()
    book.set_identifier("id-1")
    book.set_title("A book")
    book.set_language("en")
    chapter = epub.EpubHtml(title="The first chapter", file_name="one.xhtml", lang="en")
    chapter.content = ('<h1 id="h1">The first chapter</h1><p>A dog runs.<span epub:type="pagebreak" id="p12" '
                       'aria-label="12"/> A cat sleeps.<span epub:type="pagebreak" id="pxii" aria-label="xii"/> '
                       'A bird sings.<span epub:type="pagebreak" id="p13" aria-label="Page 13"/></p>')
    book.guide.append({"type": "text", "title": "Start of the book", "href": "one.xhtml"})
    return written_book(book, chapter, [epub.Link("one.xhtml#h1", "The first chapter", "one")])


def test_each_lists_heading_on_the_navigation_page_is_translated_and_its_page_numbers_kept(mirror):
    """The list of pages was kept whole, its heading too: "Pages" stayed English under the table of contents'
    and the landmarks' translated headings.  Its entries that are page numbers stay as they are, an entry in
    words is translated; each entry keeps its link, and each list its epub:type."""
    out = translate_file_bytes(navigation_book(), "book.epub", mirror, GERMAN)
    nav = etree.fromstring(read_members(out)["EPUB/nav.xhtml"])
    lists = [(nav_list.get("{http://www.idpf.org/2007/ops}type"), nav_list.findtext("{*}h2"))
             for nav_list in nav.iter("{*}nav")]
    assert lists == [("toc", "BOOK A"), ("landmarks", "GUIDE"), ("page-list", "PAGES")]
    landmark = nav.find(".//{*}nav[@{http://www.idpf.org/2007/ops}type='landmarks']//{*}a")
    assert (landmark.text, landmark.get("href"), landmark.get("{http://www.idpf.org/2007/ops}type")) == (
        "BOOK THE OF START", "one.xhtml", "bodymatter")
    read = read_book(out)  # as a reading system reads the list of pages
    assert [(page.href, page.title) for page in read.pages] == [
        ("one.xhtml#p12", "12"), ("one.xhtml#pxii", "xii"), ("one.xhtml#p13", "13 PAGE")]
    assert "12" not in mirror.given and "xii" not in mirror.given


def with_stated_labels(book: bytes) -> bytes:
    """``book`` whose toc.ncx states its entries' languages as older tools write them: the book's title's on its
    ``<text>``, the chapter's on its ``<navLabel>``, with its direction."""
    members = read_members(book)
    members["EPUB/toc.ncx"] = members["EPUB/toc.ncx"].replace(b"<text>A book</text>", b'<text xml:lang="de-AT">A book'
                                                              b"</text>").replace(b"<navLabel>", b'<navLabel '
                                                                                  b'xml:lang="en-GB" dir="ltr">')
    return write_members(members)


def stated_labels(ncx: bytes) -> list[tuple[str, str | None, str | None]]:
    """Each element of toc.ncx that states a language: its name, language and direction."""
    return [(etree.QName(node).localname, node.get(XML_LANG), node.get("dir"))
            for node in etree.fromstring(ncx).iter() if node.get(XML_LANG) is not None]


@pytest.mark.parametrize("target, way", [("de", "ltr"), ("ar", "rtl")])
def test_a_contents_entrys_stated_language_is_the_targets_once_translated(mirror, target, way):
    """<text xml:lang="de-AT"> and <navLabel xml:lang="en-GB" dir="ltr"> went on saying so over their translation,
    where toc.ncx's root, the package's dc:language and the pages said the target's."""
    out = translate_file_bytes(with_stated_labels(contents_book("The first chapter")), "book.epub", mirror,
                               DocumentOptions(target_lang=target))
    labels = stated_labels(read_members(out)["EPUB/toc.ncx"])
    assert labels[1:] == [("text", target, None), ("navLabel", target, way)]
    assert labels[0][:2] == ("ncx", target)  # as it was
    assert [link.title for link in read_book(out).toc] == ["CHAPTER FIRST THE"]


def test_a_contents_entry_that_kept_its_source_keeps_its_stated_language(mirror):
    from attnmt.decoding.quality import Assessment
    from attnmt.documents.review import Review

    review = Review(lambda sources, texts: [Assessment(0.2, [], False) for _ in sources], 0.5, source_below=True)
    out = translate_file_bytes(with_stated_labels(contents_book("The first chapter")), "book.epub", mirror,
                               GERMAN, review=review)
    assert stated_labels(read_members(out)["EPUB/toc.ncx"]) == [("text", "de-AT", None), ("navLabel", "en-GB", "ltr")]


def kept_entries_book(root_lang: str = "") -> bytes:
    """An EPUB 3 book whose contents list "The first chapter", "1984" (nothing to translate) and "Don Quixote"
    (``translate="no"`` on the navigation page), toc.ncx's root stating ``root_lang`` where given."""
    book = epub.EpubBook()
    book.set_identifier("id-1")
    book.set_title("A book")
    book.set_language("en")
    chapter = epub.EpubHtml(title="The first chapter", file_name="one.xhtml", lang="en")
    chapter.content = '<h1 id="h1">The first chapter</h1><p>A dog runs.</p><h2 id="h2">1984</h2><h2 id="h3">Q</h2>'
    members = read_members(written_book(book, chapter, [epub.Link("one.xhtml#h1", "The first chapter", "one"),
                                                         epub.Link("one.xhtml#h2", "1984", "two"),
                                                         epub.Link("one.xhtml#h3", "Don Quixote", "three")]))
    members["EPUB/nav.xhtml"] = members["EPUB/nav.xhtml"].replace(b'<a href="one.xhtml#h3">',
                                                                  b'<a href="one.xhtml#h3" translate="no">')
    if root_lang:
        members["EPUB/toc.ncx"] = members["EPUB/toc.ncx"].replace(b'version="2005-1"',
                                                                  f'version="2005-1" xml:lang="{root_lang}"'.encode())
    return write_members(members)


@pytest.mark.parametrize("root_lang, target, said", [("", "de", ("en", None)), ("en-US", "de", ("en-US", None)),
                                                     ("", "ar", ("en", "ltr"))])
def test_a_contents_entry_that_kept_its_source_says_its_language_under_a_root_saying_the_targets(
        mirror, root_lang, target, said):
    """"1984", nothing to translate, inherited the target's language from toc.ncx's root once "The first chapter"
    was translated: it says the source's (the root's as it came, else the book's dc:language) on its navLabel."""
    out = translate_file_bytes(kept_entries_book(root_lang), "book.epub", mirror, DocumentOptions(target_lang=target))
    ncx = etree.fromstring(read_members(out)["EPUB/toc.ncx"])
    assert ncx.get(XML_LANG) == target
    labels = [(label.findtext("{*}text"), label.get(XML_LANG), label.get("dir")) for label in ncx.iter("{*}navLabel")]
    assert labels == [("CHAPTER FIRST THE", None, None), ("1984", *said), ("QUIXOTE DON", None, None)]
    assert [link.title for link in read_book(out).toc] == ["CHAPTER FIRST THE", "1984", "QUIXOTE DON"]


def test_a_navigation_pages_entry_that_kept_its_source_says_its_language(mirror):
    """"1984" and "Don Quixote" (translate="no") read as German under <html lang="de">; the list of pages' numbers,
    kept by design, state none."""
    out = read_members(translate_file_bytes(kept_entries_book(), "book.epub", mirror, GERMAN))
    nav = etree.fromstring(out["EPUB/nav.xhtml"])
    assert (nav.get("lang"), nav.get(XML_LANG)) == ("de", "de")
    assert [(a.text, a.get("lang"), a.get(XML_LANG)) for a in nav.iter("{*}a")] == [
        ("CHAPTER FIRST THE", None, None), ("1984", "en", "en"), ("Don Quixote", "en", "en")]
    pages = etree.fromstring(read_members(translate_file_bytes(navigation_book(), "book.epub", mirror, GERMAN))[
        "EPUB/nav.xhtml"])
    listed = pages.find(".//{*}nav[@{http://www.idpf.org/2007/ops}type='page-list']")
    assert [(a.text, a.get("lang")) for a in listed.iter("{*}a")] == [("12", None), ("xii", None), ("13 PAGE", None)]


def test_a_contents_entry_kept_below_the_quality_says_its_language_beside_a_translated_one(mirror):
    from attnmt.decoding.quality import Assessment
    from attnmt.documents.review import Review

    review = Review(lambda sources, texts: [Assessment(0.2 if source == "Don Quixote" else 0.9, [], False)
                                            for source in sources], 0.5, source_below=True)
    out = translate_file_bytes(kept_entries_book(), "book.epub", mirror, GERMAN, review=review)
    ncx = etree.fromstring(read_members(out)["EPUB/toc.ncx"])
    assert [(label.findtext("{*}text"), label.get(XML_LANG)) for label in ncx.iter("{*}navLabel")] == [
        ("CHAPTER FIRST THE", None), ("1984", "en"), ("Don Quixote", "en")]
