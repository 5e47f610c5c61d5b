"""The first element of an XML document, its root, read only as far as it starts: what a file is
before the whole of it is parsed (a termbase's TBX, an office file's Strict Open XML, whether an EPUB
page's DOCTYPE declares an entity).  Read safely: no DTD loaded, no entity resolved, no network,
libxml2's limits kept.  A fault after the root's start (markup nested past libxml2's 256 levels, a
tag that does not match) does not hide it: the pieces are fed to a pull parser, whose events up to a
fault stay readable, where lxml's ``iterparse`` (from lxml 6.2) reports a fault in the block it read
before yielding the root's start."""

from __future__ import annotations

import io
from typing import Protocol

from lxml import etree

PIECE = 1 << 16  # bytes fed at a time: a root's start is in the first piece of any real file


class Readable(Protocol):
    """A binary file (opened plainly or through gzip): only its read is used."""

    def read(self, size: int = -1, /) -> bytes: ...


def first_element(source: bytes | Readable) -> etree._Element | None:
    """The root of the XML document ``source`` (its bytes, or a binary file read from where it is),
    as it starts (its tree's docinfo holds the DOCTYPE); None where no element starts, the document
    failing before it (no XML, a DOCTYPE that cannot be read within libxml2's limits) or empty."""
    parser = etree.XMLPullParser(events=("start",), resolve_entities=False, no_network=True, load_dtd=False,
                                 huge_tree=False)
    read = io.BytesIO(source).read if isinstance(source, bytes) else source.read
    while piece := read(PIECE):
        try:
            parser.feed(piece)
        except etree.XMLSyntaxError:
            return started(parser)
        root = started(parser)
        if root is not None:
            return root
    try:
        parser.close()
    except etree.XMLSyntaxError:
        pass
    return started(parser)


def started(parser: etree.XMLPullParser) -> etree._Element | None:
    """The first element ``parser`` has seen start, if any."""
    for _, element in parser.read_events():
        return element
    return None
