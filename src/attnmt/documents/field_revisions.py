"""A tracked change around part of a complex field, the rest of the field outside it, split into a change a run for
that field's runs, each of the change's author and time.

Word writes this when a field is typed into a tracked insertion (``w:ins``) that then covers only part of it, its
begin and code inserted and its result and end not (``See page <w:ins>{PAGEREF</w:ins> ...}4{} for the map.``), or a
field begun before an insertion ended in it; a tracked deletion (``w:del``) and a move's new place (``w:moveTo``) may
likewise hold a field's begin or its end alone (wordml.REVISIONS).  Read as one container, an insertion was a mark
over its words and its part of the field, and the rest of the field went where alignment put the words around it: the
field's begin was written after its end ("MAP. THE4 FOR <ins>PAGE SEE {PAGEREF</ins>"), or words into its result,
which Word replaces when it updates the field (the demo model's "Eine Frau liest {PAGEREF}<ins>das4{}</ins> Buch.").
Split, each of the field's runs is a child of the paragraph, read as the run its change holds
(fields_complex.held_run): a number amid words in its place, any other field kept whole, its parts one after another.
A link or another mark around runs that holds part of a field is split alike where the field's characters cannot be
moved over its edge (attnmt.documents.field_marks).

A tracked change's piece after the first gets an id of its own (``w:id``, which names one change in the document), one
no part of the package uses (free_ids): Word takes an id the body shares with a change, comment or bookmark in a
header, footer, note or comment for a damaged file."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import count

from lxml import etree

from attnmt.documents.fields import field_kind
from attnmt.documents.wordml import REVISIONS, w

IDENTIFIER = w("id")
# A namespaced attribute ``id`` of a number, as a part's bytes spell it: WordprocessingML's ``w:id`` whatever prefix the
# part gives its namespace (an attribute without one is in no namespace); another vocabulary's only raises the first id
# free, which leaves the ids unique still.
NUMBERED_ID = re.compile(rb"""\s[\w.-]+:id\s*=\s*["'](\d+)["']""")


def free_ids(parts: Iterable[bytes]) -> Iterator[int]:
    """The ids (``w:id``) after the largest that any of ``parts`` (the bytes of every Word part of a package: its body,
    headers, footers, notes, comments) uses, ``parts`` read where the first is asked for: most files split no change,
    and need not be read ahead."""
    yield from count(1 + max((int(number) for part in parts for number in NUMBERED_ID.findall(part)), default=0))


def split_field_revisions(paragraph: etree._Element, ids: Iterator[int]) -> None:
    """Each tracked change among ``paragraph``'s children (wordml.REVISIONS) that holds part of a complex field going
    on past its edge split, in place (split_around_field), each piece after the first with the next of ``ids``
    (free_ids)."""
    for change in [child for child in paragraph if child.tag in REVISIONS]:
        for piece in split_around_field(change)[1:]:
            piece.set(IDENTIFIER, str(next(ids)))


def split_around_field(container: etree._Element) -> list[etree._Element]:
    """``container`` (a tracked change, a link, another mark around runs) split in place where it holds part of a
    complex field going on past its edge: a copy of it around each child of that field's (crossing_children), the
    children before, between and after them in one copy each, as they were; the containers it is now, itself first."""
    children, parent = list(container), container.getparent()
    crossing = crossing_children(children)
    if not crossing or parent is None:
        return [container]
    holders = []
    position = parent.index(container)
    for number, piece in enumerate(pieces(children, crossing)):
        holder = container if not number else container.makeelement(container.tag, container.attrib)
        if number:
            parent.insert(position + number, holder)
        holder.extend(piece)
        holders.append(holder)
    return holders


def crossing_children(children: Sequence[etree._Element]) -> set[int]:
    """The positions among a change's ``children`` of those of a field going on past its edge: from its first child
    to the last that ends a field begun before the change, and from the first that begins a field the change does
    not end to its last child."""
    opened: list[int] = []  # where each field begun in the change and open so far begins
    ended = -1  # the last child that ends a field begun before the change
    for position, child in enumerate(children):
        for kind in map(field_kind, child.iter(w("fldChar"))):
            if kind == "begin":
                opened.append(position)
            elif kind == "end" and opened:
                opened.pop()
            elif kind == "end":
                ended = position
    return set(range(ended + 1)) | set(range(opened[0] if opened else len(children), len(children)))


def pieces(children: Sequence[etree._Element], crossing: set[int]) -> Iterator[list[etree._Element]]:
    """``children`` in the pieces a change is split into: each crossing child alone, the others between them
    together."""
    together: list[etree._Element] = []
    for position, child in enumerate(children):
        if position not in crossing:
            together.append(child)
            continue
        if together:
            yield together
            together = []
        yield [child]
    if together:
        yield together

