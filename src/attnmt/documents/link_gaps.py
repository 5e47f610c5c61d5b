"""A slide's link whose words are in runs of two looks, the space between them linked again.

DrawingML puts a link in each run's properties (``a:hlinkClick``), so a link over words of two looks,
``our big`` then ``web site`` in bold, is two runs with the same link, side by side.  The translation may
put their words in another order, the bold one first, and the space between them then fell outside
both, in a run of the paragraph's look: ``SITE WEB`` `` `` ``BIG OUR`` showed as two links, the underline
and the click broken at the space.  That space takes the link back, in its own look otherwise; a space
between two links that were apart in the source (``bus`` and ``stop``, with a plain space between) stays
as it was."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:  # ooxml_dialects imports attnmt.documents.ooxml, whose writer imports this module
    from attnmt.documents.ooxml_dialects import Dialect

# What follows each link in a:rPr (CT_TextCharacterProperties' sequence)
LATER = {"hlinkClick": {"hlinkMouseOver", "rtl", "extLst"}, "hlinkMouseOver": {"rtl", "extLst"}}


def link_of(run: etree._Element, dialect: Dialect) -> etree._Element | None:
    """The link in ``run``'s own properties (None where it has none, or is no run)."""
    properties = run.find(dialect.properties) if run.tag == dialect.run else None
    return None if properties is None else next((child for child in properties if child.tag in dialect.links), None)


def link_key(run: etree._Element, dialect: Dialect) -> bytes | None:
    """What tells ``run``'s link from another: its element as written (target, tip and action)."""
    link = link_of(run, dialect)
    return None if link is None else etree.tostring(link)


def joined_links(children: Sequence[etree._Element], dialect: Dialect) -> set[bytes]:
    """The links that two runs side by side among a paragraph's ``children`` share: one link over both."""
    keys = [link_key(child, dialect) for child in children]
    return {key for key, after in pairwise(keys) if key is not None and key == after}


def link_gaps(paragraph: etree._Element, dialect: Dialect, joined: set[bytes]) -> None:
    """Each run of ``paragraph`` that holds spaces alone, with no link, between two runs of the same
    link of ``joined``, given a copy of that link."""
    children = list(paragraph)
    for before, run, after in zip(children, children[1:], children[2:], strict=False):
        key, link = link_key(before, dialect), link_of(before, dialect)
        if (link is not None and key in joined and link_key(after, dialect) == key and run.tag == dialect.run
                and link_of(run, dialect) is None and is_space(run, dialect)):
            properties = run.find(dialect.properties)
            if properties is None:
                properties = run.makeelement(dialect.properties, {})
                run.insert(0, properties)
            # in the schema's order: after the look's children, before a second link, a:rtl and a:extLst
            later = LATER[etree.QName(link).localname]
            at = next((i for i, child in enumerate(properties) if etree.QName(child).localname in later),
                      len(properties))
            properties.insert(at, copy.deepcopy(link))


def is_space(run: etree._Element, dialect: Dialect) -> bool:
    """Whether ``run`` holds text and nothing else, and its text is spaces alone."""
    parts = [child for child in run if child.tag != dialect.properties]
    return bool(parts) and all(child.tag == dialect.text for child in parts) and not "".join(
        dialect.text_of(child) for child in parts).strip()
