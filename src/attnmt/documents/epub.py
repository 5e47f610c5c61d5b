"""EPUB books: each XHTML page of the package's manifest translated as an HTML page is
(attnmt.documents.markup; the EPUB 3 navigation page is one of them, its list of pages kept),
and the EPUB 2 table of contents (toc.ncx) entry by entry (ENTRIES).  Pages are parsed as XML, as
EPUB readers parse them, and written back as XML.  With a target language, each page's
``xml:lang`` (and ``lang``, but on an EPUB 2 page without one: XHTML 1.1 has none), those of its
blocks of translated text and the elements around them (TreeJob), the package's ``dc:language``
and the table of contents' ``xml:lang`` say it.  The manifest's links are IRIs:
``chapter%201.xhtml`` is the member ``chapter 1.xhtml``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from urllib.parse import unquote

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.elements import Vocabulary
from attnmt.documents.flat import FlatText, has_words
from attnmt.documents.language import XML_LANG, set_direction
from attnmt.documents.markup import TreeJob, page_language
from attnmt.documents.pipeline import DocumentOptions, flat_line
from attnmt.documents.spans import Nested, plain
from attnmt.errors import DataError

CONTAINER = "META-INF/container.xml"
ENCRYPTION = "META-INF/encryption.xml"
XMLENC = "http://www.w3.org/2001/04/xmlenc#"
# A font's obfuscation (IDPF's, Adobe's): its bytes scrambled with the book's id, so that it is not copied
# out alone; the pages stay readable.  Any other algorithm there is DRM (AES: Adobe ADEPT, Readium LCP).
OBFUSCATION = frozenset(("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"))
OPF = "http://www.idpf.org/2007/opf"
DC = "http://purl.org/dc/elements/1.1/"
NCX = "http://www.daisy.org/z3986/2005/ncx/"
PAGES = ("application/xhtml+xml",)
TOC = "application/x-dtbncx+xml"
# toc.ncx's entries: the table of contents' (navMap) and other lists' (navList: illustrations, tables);
# not its pageList (page numbers), nor docTitle and docAuthor, which stay the package's dc:title and creator.
ENTRIES = "n:navMap//n:navLabel/n:text | n:navList//n:navLabel/n:text"


class EntryJob:
    """One entry of toc.ncx (its ``<text>``), translated as a line."""

    def __init__(self, element: etree._Element) -> None:
        self.element = element

    def flats(self) -> list[FlatText]:
        return [flat_line(self.element.text or "")]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        self.element.text = plain(results[0])


def package_path(archive: Archive) -> str:
    """The package document (.opf) the container names."""
    if CONTAINER not in archive:
        raise DataError(f"{archive.name}: member {CONTAINER} is missing; this is not an EPUB book")
    rootfile = parse_part(archive, CONTAINER).getroot().find(".//{*}rootfile")
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
    for data in parse_part(archive, ENCRYPTION).getroot().iter(f"{{{XMLENC}}}EncryptedData"):
        method = data.find(f"{{{XMLENC}}}EncryptionMethod")
        if method is not None and method.get("Algorithm", "").strip() in OBFUSCATION:
            continue
        reference = data.find(f"{{{XMLENC}}}CipherData/{{{XMLENC}}}CipherReference")
        member = unquote(reference.get("URI", "")) if reference is not None else "unnamed"  # relative to the root
        raise DataError(f"{archive.name}: the book is encrypted (DRM: member {member} is encrypted, says "
                        f"{ENCRYPTION}); only a book without DRM can be translated")


def epub_parts(archive: Archive, options: DocumentOptions) -> list[Part]:
    opf_path = package_path(archive)
    check_encryption(archive)
    opf = parse_part(archive, opf_path)
    folder = posixpath.dirname(opf_path)
    vocabulary = Vocabulary(source_lang=options.source_lang)
    epub3 = opf.getroot().get("version", "3.0").split(".")[0] != "2"
    parts = []
    for item in opf.getroot().iterfind(f"{{{OPF}}}manifest/{{{OPF}}}item"):
        member = posixpath.normpath(posixpath.join(folder, unquote(item.get("href", ""))))  # an IRI: %20 a space
        kind = item.get("media-type", "")
        if member not in archive or kind not in (*PAGES, TOC):
            continue
        tree = parse_part(archive, member, doctype=True)
        root = tree.getroot()
        if kind == TOC:
            jobs = [EntryJob(t) for t in root.xpath(ENTRIES, namespaces={"n": NCX}) if has_words(t.text or "")]
        else:
            jobs = [TreeJob(root, vocabulary, options)]
            jobs = jobs if jobs[0].runs or jobs[0].attributes else []
        part = Part(member, tree, jobs)
        if page_language(root, options.target_lang) and jobs:
            root.set(XML_LANG, options.target_lang)
            if kind != TOC and (epub3 or root.get("lang") is not None):  # XHTML 1.1 (EPUB 2) has no lang
                root.set("lang", options.target_lang)
            set_direction(root, options.target_lang)
        parts.append(part)
    if options.target_lang:
        languages = list(opf.getroot().iter(f"{{{DC}}}language"))
        for language in languages:
            language.text = options.target_lang
        parts.append(Part(opf_path, opf, changed=bool(languages)))
    return parts
