"""EPUB books: each XHTML page of the package's manifest translated as an HTML page is
(attnmt.documents.markup; the EPUB 3 navigation page is one of them, its list of pages' numbers kept, and so
is an SVG picture the spine lists as a page: its texts, as an inline SVG's, svg_texts), and the EPUB 2
table of contents (toc.ncx) entry by entry (ENTRIES, comments in them kept), and the package's
metadata a reader sees, its titles and description (attnmt.documents.epub_metadata). Pages are
parsed as XML, as EPUB readers parse them, and written back as XML; one the manifest lists as
text/html (old EPUB 2 books) is read as HTML by readers, and so is parsed and written back as an
HTML file is (HtmlPart). With a target language, each page's ``xml:lang`` (and
``lang``, but on an EPUB 2 page without one: XHTML 1.1 has none), those of its blocks of translated
text and the elements around them (TreeJob), the package's first ``dc:language`` (the others taken
out, with the metas refining them), the package root's ``xml:lang`` and ``dir`` and the table of
contents' ``xml:lang`` (its root's, and a translated entry's and its label's: ContentsJob) say it, and the spine's
``page-progression-direction`` turns the pages the target's way (a page's root and the table of
contents' once something of theirs is translated: one whose every sentence kept its source,
--below-quality source, keeps its language, and so does the package where every sentence of the
book kept its source, or it has none: PackageJob). The manifest's links are IRIs:
``chapter%201.xhtml`` is the member ``chapter 1.xhtml``; its media types are read as MIME's
(attnmt.documents.epub_manifest).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import unquote, urlsplit

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Part, kind_advice, parse_part
from attnmt.documents.elements import Vocabulary
from attnmt.documents.epub_kept_entries import KeptEntries, nav_labels, outside
from attnmt.documents.epub_manifest import is_read, listed_page, listed_picture, media_type
from attnmt.documents.epub_metadata import DC, OPF, LibraryJob, metadata_jobs
from attnmt.documents.flat import FlatText
from attnmt.documents.language import XML_LANG, direction, say_language, say_page_direction
from attnmt.documents.markup import TreeJob
from attnmt.documents.page_metadata import say_metadata_language
from attnmt.documents.page_root import page_language
from attnmt.documents.pages import Parsed, parse
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.spans import Nested
from attnmt.documents.styled_code import StyledVocabulary, monospaced_classes, script_classes
from attnmt.errors import DataError, warn

CONTAINER = "META-INF/container.xml"
ENCRYPTION = "META-INF/encryption.xml"
XMLENC = "http://www.w3.org/2001/04/xmlenc#"
# A font's obfuscation (IDPF's, Adobe's): its bytes scrambled with the book's id, so that it is not copied
# out alone; the pages stay readable.  Any other algorithm there is DRM (AES: Adobe ADEPT, Readium LCP).
OBFUSCATION = frozenset(("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"))
NCX = "http://www.daisy.org/z3986/2005/ncx/"
XHTML = "application/xhtml+xml"
HTML = "text/html"  # how an old EPUB 2 book may list its pages: read as HTML (HtmlPart)
TOC = "application/x-dtbncx+xml"
SVG = "image/svg+xml"  # a picture, and a page of its own where the spine lists it (EPUB 3's SVG content document)
PROGRESSION = "page-progression-direction"  # the spine's: the way the book's pages turn (ltr, rtl, default)
# toc.ncx's entries: the table of contents' (navMap) and other lists' (navList: illustrations, tables), and the
# book's title (docTitle), translated as the package's dc:title is; not its pageList (page numbers), nor docAuthor,
# a name, as the package's dc:creator is.
ENTRIES = "n:docTitle/n:text | n:navMap//n:navLabel/n:text | n:navList//n:navLabel/n:text"


class PageJob(TreeJob):
    """An XHTML page (TreeJob), whose root then says the target language where something of it was
    translated (``say_page_language``; ``lang`` too on an EPUB 3 page, or one that has it: XHTML
    1.1, EPUB 2's, has none)."""

    def __init__(self, root: etree._Element, vocabulary: Vocabulary, options: DocumentOptions,
                 glossary: Glossary | None, epub3: bool, entries: KeptEntries | None = None) -> None:
        super().__init__(root, vocabulary, options, glossary)
        self.root, self.target_lang, self.epub3 = root, options.target_lang, epub3
        self.entries = entries  # the navigation page's (epub_kept_entries)

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        super().finish(results)
        say_page_language(self.root, page_language(self.root, self.target_lang, self.translated()),
                          self.epub3 or self.root.get("lang") is not None)
        if self.entries is not None:
            self.entries.say_own(self.language, partial(outside, set(self.blocks())))


class HtmlPageJob(TreeJob):
    """A page the manifest lists as text/html, parsed as an HTML file is (pages.parse), whose root
    then says the target language where something of it was translated (pages.Parsed.say_language:
    ``lang``, and ``xml:lang`` where it has one)."""

    def __init__(self, page: Parsed, vocabulary: Vocabulary, options: DocumentOptions,
                 glossary: Glossary | None) -> None:
        super().__init__(page.root, vocabulary, options, glossary)
        self.page, self.target_lang = page, options.target_lang

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        super().finish(results)
        self.page.say_language(page_language(self.page.root, self.target_lang, self.translated()))


@dataclass
class HtmlPart(Part):
    """A page the manifest lists as text/html: written back as an HTML file is (pages.Parsed.serialise:
    its scripts and styles as they came, empty and void elements as HTML has them, XHTML's syntax where
    it has an XML declaration), not as XML, whose ``<script src="a.js"/>`` an HTML reader takes for a
    start tag, and whose ``div &gt; p`` breaks a style."""

    page: Parsed = field(kw_only=True)

    def written(self, original: bytes) -> bytes:
        return self.page.serialise(None).encode("utf-8")  # its language said by its job (HtmlPageJob)


def html_part(archive: Archive, member: str, vocabulary: Vocabulary, options: DocumentOptions,
              glossary: Glossary | None) -> list[Part]:
    """The page ``member``, listed as text/html, as a part to translate, parsed as an HTML file is
    (pages.parse: a repair of its markup warned of, markup nested too deep refused); none for a page
    of nothing but a DOCTYPE and comments, and none, with a warning naming it, for one that is not
    UTF-8 (EPUB's encoding, but for UTF-16, rare), left as it is."""
    where = f"{archive.name}: member {member}"
    data = archive.to_parse(member)
    try:
        text = data.decode("utf-8")  # a byte order mark kept, as the page's first character
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        warn(f"{where}, line {line}: the text is not UTF-8 (byte 0x{data[e.start]:02x}); the manifest lists it as "
             f"{HTML}, and it is left as it is")
        return []
    page = parse(text, False, where, whole=True)
    if page is None:
        return []
    job = HtmlPageJob(page, vocabulary, options, glossary)
    return [HtmlPart(member, page.root.getroottree(), [job] if job.flats() else [], page=page)]


class ContentsJob(LibraryJob):
    """The entries of toc.ncx (each ``<text>``), each translated as the page's heading it points to is
    (a LineJob of its own, read as an HTML block: a comment in it is kept, where its words go, and a
    numbered part's label written in the target's words, "Part One: The storm" as "Teil Eins: …", where
    read as XML's record it went to the model whole); its root's ``xml:lang`` then says the target
    language where one of them was translated, and so does what a translated entry and its label state
    (language.say_language: ``<navLabel xml:lang="en-GB">``, ``<text xml:lang="de-AT">`` went on saying
    their source's language over its German words; a ``dir`` agrees); an entry that kept its source text then
    says its own language on its label (epub_kept_entries: "1984" read as German under ``<ncx xml:lang="de">``)."""

    def __init__(self, root: etree._Element, entries: list[etree._Element], options: DocumentOptions,
                 glossary: Glossary | None, book_lang: str = "") -> None:
        super().__init__(entries, options, glossary)
        self.root, self.entries = root, KeptEntries(entries, book_lang, options.source_lang)

    def stating(self, title: etree._Element) -> tuple[etree._Element, ...]:
        """An entry's ``<text>``, and its ``<navLabel>`` or ``<docTitle>``."""
        return title, title.getparent()

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        super().finish(results)
        translated = not all(flat.source_kept for flat in self.flats())
        say_page_language(self.root, page_language(self.root, self.target_lang, translated), False)
        kept = {title for title, texts in zip(self.titles, self.texts, strict=True)
                if all(flat.source_kept for flat in texts)}  # none to translate, or --below-quality source
        self.entries.say_own(self.target_lang, kept.__contains__, etree._Element.getparent)


class PackageJob:
    """The package's ``dc:language`` elements: the first says the target language, the others (a
    book in English and French) are taken out, as the translation is in one language, with the
    EPUB 3 ``<meta refines="#l2">`` that say more of them (``refining``: left, each would point
    at an id the package no longer has, an error to epubcheck); the language and direction its root
    states (EPUB 3's ``<package xml:lang="en" dir="ltr">``, which its metadata's texts inherit: its
    translated title said English) say the target's (language.say_language); and its spine turns the
    pages the target's way (turn_pages).  Where the book's every sentence kept its source (``texts``, the
    page jobs' flat texts: FlatText.source_kept, --below-quality source), or that has none, they
    are all put back as they were, as its pages' roots keep theirs."""

    def __init__(self, package: etree._Element, texts: list[FlatText], target_lang: str, epub3: bool) -> None:
        languages, spine = list(package.iter(f"{{{DC}}}language")), package.find(f"{{{OPF}}}spine")
        self.package, self.languages, self.spine, self.texts = package, languages, spine, texts
        self.stated = [language.text for language in languages]
        self.said = dict(package.attrib)
        say_language(package, target_lang)
        if languages:
            languages[0].text = target_lang
        self.removed = refining(languages[1:])
        self.taken = [take_out(element) for element in self.removed]
        self.progression = None if spine is None else spine.get(PROGRESSION)
        turned = spine is not None and turn_pages(spine, target_lang, epub3)
        self.changed = bool(languages) or turned or self.said != dict(package.attrib)

    def flats(self) -> list[FlatText]:
        return []

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        if all(flat.source_kept for flat in self.texts):  # none: nothing was translated, and no page says the target
            for element, place in reversed(list(zip(self.removed, self.taken, strict=True))):
                put_back(element, *place)
            for language, stated in zip(self.languages, self.stated, strict=True):
                language.text = stated
            self.package.attrib.update(self.said)
            if self.spine is not None and self.progression is not None:
                self.spine.set(PROGRESSION, self.progression)
            elif self.spine is not None:  # it said nothing, and was given rtl
                self.spine.attrib.pop(PROGRESSION, None)


def turn_pages(spine: etree._Element, lang: str, epub3: bool) -> bool:
    """The spine's ``page-progression-direction`` follows ``lang``'s direction (language.direction),
    as each page's ``dir`` does; whether it changed.  For a language written right to left it says
    ``rtl``: over ``ltr``, over ``default`` (the reading system's choice, left to right in most) and,
    in an EPUB 3 book, where it says nothing (EPUB 2 has no such attribute).  For one written left to
    right an ``rtl`` becomes ``ltr``; ``default``, or none, stays: the reading system then turns the
    pages left to right.  Else an Arabic book turned its pages as the English one it came from."""
    said, wanted = spine.get(PROGRESSION), direction(lang)
    written = (said or "").strip().lower()
    if written == wanted or (wanted == "ltr" and written != "rtl") or (said is None and not epub3):
        return False
    spine.set(PROGRESSION, wanted)
    return True


def refining(elements: list[etree._Element]) -> list[etree._Element]:
    """``elements`` and, after them, the package's ``<meta refines="#id">`` that refine one of
    them by its id, or refine such a meta in turn."""
    metas = list(elements[0].getroottree().iter(f"{{{OPF}}}meta")) if elements else []
    found = list(elements)
    for element in found:  # grows as refining metas are found
        refined = element.get("id")
        found += [meta for meta in metas if refined and meta.get("refines", "").strip() == f"#{refined}"
                  and meta not in found]
    return found


def take_out(element: etree._Element) -> tuple[etree._Element, etree._Element | None, str | None]:
    """Removes ``element`` with the whitespace before it (the line it stood on), so that what
    follows keeps its indentation; returns where it was, for put_back: its parent, the sibling
    before it and the text that sibling (or, with none, the parent) ended with."""
    parent, previous = element.getparent(), element.getprevious()
    before = parent.text if previous is None else previous.tail
    if previous is None:
        parent.text = element.tail
    else:
        previous.tail = element.tail
    parent.remove(element)  # its tail goes with it
    return parent, previous, before


def put_back(element: etree._Element, parent: etree._Element, previous: etree._Element | None,
             before: str | None) -> None:
    """``element`` where take_out took it from (elements taken out one after another are put back
    last first)."""
    if previous is None:
        parent.insert(0, element)
        parent.text = before
    else:
        previous.addnext(element)
        previous.tail = before


def say_page_language(root: etree._Element, lang: str | None, with_lang: bool) -> None:
    """A page's root says ``lang`` (None: what it says stays) in ``xml:lang``, and in ``lang``
    ``with_lang``, its direction (say_page_direction) and its metadata (say_metadata_language)."""
    if lang:
        root.set(XML_LANG, lang)
        if with_lang:
            root.set("lang", lang)
        say_page_direction(root, lang)
        say_metadata_language(root, lang)


def package_path(archive: Archive) -> str:
    """The package document (.opf) the container names."""
    if CONTAINER not in archive:
        raise DataError(f"{archive.name}: member {CONTAINER} is missing; this is not an EPUB book"
                        f"{kind_advice(archive)}")
    rootfile = parse_part(archive, CONTAINER, doctype=True).getroot().find(".//{*}rootfile")
    path = rootfile.get("full-path") if rootfile is not None else None
    if not path or path not in archive:
        raise DataError(f"{archive.name}: member {CONTAINER} names no package document that the book holds "
                        f"({path or 'none'})")
    return path


def check_encryption(archive: Archive) -> None:
    """DataError naming the first member META-INF/encryption.xml says is encrypted (DRM), but for a
    font's obfuscation (OBFUSCATION): its page would be read as XML that is not well-formed."""
    if ENCRYPTION not in archive:
        return
    for data in parse_part(archive, ENCRYPTION, doctype=True).getroot().iter(f"{{{XMLENC}}}EncryptedData"):
        method = data.find(f"{{{XMLENC}}}EncryptionMethod")
        if method is not None and method.get("Algorithm", "").strip() in OBFUSCATION:
            continue
        reference = data.find(f"{{{XMLENC}}}CipherData/{{{XMLENC}}}CipherReference")
        member = unquote(reference.get("URI", "")) if reference is not None else "unnamed"  # relative to the root
        raise DataError(f"{archive.name}: the book is encrypted (DRM: member {member} is encrypted, says "
                        f"{ENCRYPTION}); only a book without DRM can be translated")


def is_remote(href: str) -> bool:
    """Whether a manifest item's ``href`` is a URL of its own, with a scheme (``http://example.com/a.xhtml``)
    or a host (``//example.com/a.xhtml``), not a path to a member: joined to the package's folder, it
    named a member no book holds (``OEBPS/http:/example.com/a.xhtml``).  A scheme of one letter is
    a Windows drive (``C:/x.xhtml``), which urlsplit reads as a scheme: a path, to no member."""
    parts = urlsplit(href.strip())
    return bool(len(parts.scheme) > 1 or parts.netloc)


def epub_parts(archive: Archive, options: DocumentOptions, glossary: Glossary | None) -> list[Part]:
    opf_path = package_path(archive)
    check_encryption(archive)
    opf = parse_part(archive, opf_path, doctype=True)  # an EPUB 2 one may have OEB 1.2's DOCTYPE
    folder = posixpath.dirname(opf_path)
    stylesheets = [archive.read(name).decode("utf-8", "replace") for name in archive.names() if name.endswith(".css")]
    # code and a formula's scripts told by their classes
    vocabulary = StyledVocabulary(monospaced_classes(stylesheets), options.source_lang, script_classes(stylesheets))
    epub3 = opf.getroot().get("version", "3.0").split(".")[0] != "2"
    book_lang = (opf.getroot().findtext(f"{{{OPF}}}metadata/{{{DC}}}language") or "").strip()  # the source's
    parts = []
    seen: set[str] = set()  # a member two items link ("a.xhtml", "./a.xhtml") is translated and listed once
    spine = {ref.get("idref") for ref in opf.getroot().iterfind(f"{{{OPF}}}spine/{{{OPF}}}itemref")}
    for item in opf.getroot().iterfind(f"{{{OPF}}}manifest/{{{OPF}}}item"):
        href, kind = item.get("href", "").strip(), media_type(item)
        kinds = (XHTML, HTML, TOC, SVG) if item.get("id") in spine else (XHTML, HTML, TOC)
        if not is_read(item, kind, kinds, f"{archive.name}: member {opf_path}"):
            continue
        if is_remote(href):  # EPUB 3's remote resources: no member to translate
            warn(f"{archive.name}: member {opf_path} lists {href} ({kind}), a remote resource outside the book; "
                 "it is kept as it is, untranslated")
            continue
        member = posixpath.normpath(posixpath.join(folder, unquote(href)))  # an IRI: %20 a space
        if member in seen:
            continue
        seen.add(member)
        if member not in archive:  # a reader cannot show it either; the rest of the book is translated
            warn(f"{archive.name}: member {opf_path} lists {member} ({kind}), which the book does not hold; "
                 "there is nothing of it to translate")
            continue
        if kind == HTML:
            parts += html_part(archive, member, vocabulary, options, glossary)
            continue
        tree = listed_picture(archive, member) if kind == SVG else listed_page(archive, member)
        if tree is None:  # not well-formed (or, a picture, refused): warned of, and kept as it is
            continue
        root = tree.getroot()
        job: PageJob | ContentsJob
        if kind == TOC:
            job = ContentsJob(root, root.xpath(ENTRIES, namespaces={"n": NCX}), options, glossary, book_lang)
        else:
            navigation = "nav" in (item.get("properties") or "").split()  # EPUB 3's navigation page
            entries = KeptEntries(nav_labels(root), book_lang, options.source_lang) if navigation else None
            job = PageJob(root, vocabulary, options, glossary, epub3 and kind != SVG, entries)
        parts.append(Part(member, tree, [job] if job.flats() else []))
    package_jobs = metadata_jobs(opf.getroot(), options, glossary, f"{archive.name}: member {opf_path}")
    if options.target_lang:
        texts = [flat for part in parts for job in part.jobs for flat in job.flats()]
        package = PackageJob(opf.getroot(), texts, options.target_lang, epub3)
        package_jobs += [package] if package.changed else []
    if package_jobs:
        parts.append(Part(opf_path, opf, package_jobs, changed=True))
    return parts
