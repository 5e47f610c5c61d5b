"""An XML part of an archive (or a flat OpenDocument file) parsed safely: with lxml, with no DTD
loaded, no entity resolved and no network.  A part that declares a DTD is refused (Office and
OpenDocument parts never do) unless ``doctype`` allows one (OpenDocument's manifest; an EPUB's XML
files: its pages, package document and container, which old tools wrote with DOCTYPEs), and then
only without entity declarations (refused naming the entity and its line), and with no reference to
an entity (``&nbsp;``) in an attribute value, which the parser would drop.  Such a part nests as deep
as an .xhtml file's page may (pages.MAX_DEPTH, past libxml2's own 256 levels), and is refused deeper.
A part whose tree does not fit in memory is refused as too large, not as XML that is not well-formed
(libxml2: "unknown error").  attnmt.documents.archive.parse_part reads a member's bytes for it.
"""

from __future__ import annotations

import re

from lxml import etree

from attnmt.documents.doctype import at_line, blank_inert, check_attribute_references
from attnmt.documents.pages import check_depth, too_deep
from attnmt.errors import DataError
from attnmt.text.xml_entities import check_entities
from attnmt.text.xml_start import first_element

# libxml2's message where markup nests past its limit (group 1), "use XML_PARSE_HUGE option" after it.
DEPTH_LIMIT = re.compile(r"Excessive depth in document: (\d+)")


class NotWellFormed(DataError):
    """A part that is not well-formed XML, its line named: a format where one such part is no
    reason to refuse the rest (an EPUB's page: attnmt.documents.epub_manifest.listed_page) tells
    it from a part refused for what it declares or how large it is."""


def parse_xml(data: bytes, where: str, suffix: str, doctype: bool = False,
              large: bool = False) -> etree._ElementTree:
    """``parse_part`` of an XML document's bytes, errors naming it as ``where`` and its kind by
    the file's extension ``suffix``; ``large``: its
    limits lifted where it has no DOCTYPE that declares an entity, as for a part with a DOCTYPE
    (a flat OpenDocument file holds its pictures as base64 text, past libxml2's 10 MB a text)."""
    lifted = (doctype or large) and declares_no_entity(data)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             remove_blank_text=False, huge_tree=lifted, strip_cdata=False)
    try:
        tree = etree.fromstring(data, parser=parser).getroottree()
    except MemoryError as e:
        raise too_large(where, len(data)) from e
    except etree.XMLSyntaxError as e:
        if e.code == etree.ErrorTypes.ERR_NO_MEMORY:  # libxml2's "unknown error"
            raise too_large(where, len(data)) from e
        # nested past even huge_tree's levels (2048); libxml2 gives an entity's amplification the same code
        limit = DEPTH_LIMIT.match(e.msg) if lifted and e.code == etree.ErrorTypes.ERR_RESOURCE_LIMIT else None
        if limit is not None:
            raise too_deep(where, f"more than {limit.group(1)}") from e
        # libxml2 stops entities that grow (billion laughs) before the DOCTYPE can be refused below
        recovered = recovered_docinfo(data)
        if recovered is not None:
            check_doctype(recovered, data, where, suffix, doctype)
        reason = e.msg.split(", line ")[0]  # lxml's message ends with the place, given here as a line
        raise NotWellFormed(f"{where} is not well-formed XML at line {e.lineno}: {reason}") from e
    if lifted:
        check_depth(tree.getroot(), parser, where)
    text = check_doctype(tree.docinfo, data, where, suffix, doctype)
    if text is not None:  # a DTD outside may declare &nbsp;: kept in text, dropped in an attribute value
        check_attribute_references(text, where, 1)
    return tree


def check_doctype(info: etree.DocInfo, data: bytes, where: str, suffix: str, doctype: bool) -> str | None:
    """DataError for the DTD of a part (its bytes ``data``, ``info`` from parsing them) that may
    have none (``doctype`` False), or whose DOCTYPE declares an entity (check_declarations); the
    part's text, blank_inert, where it has an allowed one, None where it has none."""
    dtd = info.internalDTD
    if dtd is None:
        return None
    if not doctype:
        raise DataError(f"{where} declares a DTD, which is never read, and which no application that writes "
                        f"{suffix} files puts there")
    text = blank_inert(data.decode(info.encoding or "utf-8", "replace"))
    check_declarations(dtd, text, where)
    return text


def recovered_docinfo(data: bytes) -> etree.DocInfo | None:
    """What an XML part that is not well-formed says of itself (its encoding, its DOCTYPE), read as
    far as libxml2 reads it within its limits; None where it reads no element."""
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError:
        return None
    return None if root is None else root.getroottree().docinfo


def too_large(where: str, size: int) -> DataError:
    """The refusal of a part (``where``) of ``size`` bytes whose tree did not fit in memory."""
    return DataError(f"{where} is too large to read: its {size} bytes parsed ran out of memory")


def declares_no_entity(data: bytes) -> bool:
    """Whether an XML part's DOCTYPE, if it has one, declares no entity (general or parameter):
    read with libxml2's limits, and only up to the part's first element, as its internal subset
    comes before it.  False where that cannot be read: the part is then parsed within the limits,
    which say what is wrong."""
    first = first_element(data)
    if first is None:
        return False
    dtd = first.getroottree().docinfo.internalDTD
    return dtd is None or not dtd.entities()


def check_declarations(dtd: etree.DTD, text: str, where: str) -> None:
    """DataError naming the first entity the DOCTYPE of a part that may have one (an EPUB page)
    declares, and its line in ``text`` (the part, blank_inert): a declared entity is never
    expanded, for one may name a file to read, or grow without bound (billion laughs)."""
    at = at_line(text, max(0, text.find("<!ENTITY")), where, 1)
    check_entities(dtd, at, keeps_internal=False)
