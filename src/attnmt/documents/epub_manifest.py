"""How an EPUB package's manifest lists the pages attnmt.documents.epub translates: an item's media type as
MIME reads one, and the items that name a page it cannot read as one, each warned of in one line.

A media type is read without case, spaces or parameters (``Application/XHTML+XML``, `` application/xhtml+xml``):
compared as written, such a page was left out, untranslated, and nothing said so.  An item with no ``href``
names no member, and one whose file is a page (``chapter1.xhtml``) but whose media type is another's, or
missing (a broken manifest, which epubcheck refuses), is no page to a reading system either: each is kept as
it is, and a warning names it, so that a chapter left in the source's language is not found out by a reader.
So is a page that is not well-formed XML (listed_page): a reading system shows none of it either, and the
rest of the book is translated."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.archive import Archive, parse_part
from attnmt.documents.part_parsing import NotWellFormed
from attnmt.errors import DataError, LeftUntranslated, warn

PAGE_SUFFIXES = (".xhtml", ".html", ".htm", ".xht")  # the files a page is kept in


def media_type(item: etree._Element) -> str:
    """The manifest item's ``media-type`` as MIME reads it: lower-case, without spaces or parameters."""
    return item.get("media-type", "").split(";")[0].strip().lower()


def is_read(item: etree._Element, kind: str, kinds: tuple[str, ...], where: str) -> bool:
    """Whether the manifest ``item``, of media type ``kind``, is one of ``kinds`` (a page, the table of contents)
    with an ``href``; where it is not, a warning (``where``: the package, named) says why its file stays as it
    was, for an item with no ``href`` or one whose file is a page."""
    href = item.get("href", "").strip()
    name = item.get("id", "")
    if kind in kinds and not href:
        warn(f"{where} lists item {name!r} ({kind}) with no href; there is no page of it to translate")
    elif kind not in kinds and href.split("#")[0].lower().endswith(PAGE_SUFFIXES):
        listed = f"as {kind}" if kind else "with no media type"
        warn(f"{where} lists {href} (item {name!r}) {listed}, not as a page ({kinds[0]}); it is kept as it is, "
             "untranslated")
    return kind in kinds and bool(href)


def listed_page(archive: Archive, member: str) -> etree._ElementTree | None:
    """The page (or toc.ncx) ``member`` parsed as XML, as a reading system parses it (archive.parse_part); None
    where it is not well-formed XML, with a warning naming it and the line, and its bytes kept as they are: one
    chapter with a stray ``<br>`` refused the whole book.  Any other refusal of it (an entity its DOCTYPE
    declares, a page too large or nested too deep) still refuses the book."""
    try:
        return parse_part(archive, member, doctype=True)
    except NotWellFormed as e:
        warn(f"{e}; it is kept as it is, untranslated", category=LeftUntranslated)
        return None


def listed_picture(archive: Archive, member: str) -> etree._ElementTree | None:
    """The SVG picture ``member`` that the spine lists as a page, parsed as listed_page parses a page; None where
    it cannot be read at all, not well-formed or declaring an entity (as Adobe Illustrator declares its
    namespaces, ``<!ENTITY ns_svg "http://www.w3.org/2000/svg">``), with a warning naming it, and its bytes kept
    as they are: a picture the book showed as it was is no reason to refuse the rest of it."""
    try:
        return parse_part(archive, member, doctype=True)
    except DataError as e:
        warn(f"{e}; it is kept as it is, untranslated", category=LeftUntranslated)
        return None
