"""The order placed marks are written in, and the ranges kept in it (attnmt.documents.spans, rule 3).

A range (a comment's anchor, a bookmark, XLIFF's ``<bx/>``/``<ex/>`` and ``<sm/>``/``<em/>``) has a
start and an end, two atoms that may sit in different elements: ``<g><bx/>red bike</g> and a
<ex/>car``.  A translation that turns the words around can write the end before its start, an
invalid file.  Their order is the order the whole output is written in (document_order), so it
is checked there, whatever elements lie between them, not only where the two share a parent.
"""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.flat import Mark


def written_order(marks: Sequence[int], spans: Sequence[tuple[int, int]]) -> list[int]:
    """The marks of one parent in the order they are written: by where they start; at one place,
    a point before an element with words in it, and otherwise as they came in the source."""
    return sorted(marks, key=lambda k: (spans[k][0], spans[k][0] != spans[k][1], k))


def children_of(parents: Sequence[int | None]) -> dict[int | None, list[int]]:
    """parent -> the marks written in it, in source order (None: those in the text itself)."""
    children: dict[int | None, list[int]] = {}
    for k, parent in enumerate(parents):
        children.setdefault(parent, []).append(k)
    return children


def document_order(parents: Sequence[int | None], spans: Sequence[tuple[int, int]]) -> list[int]:
    """Every mark, in the order the output writes it: an element, then what it holds (pre-order);
    ``parents[k]``: the mark that mark k is written in (None: the text itself)."""
    children = children_of(parents)
    order: list[int] = []

    def walk(parent: int | None) -> None:
        for k in written_order(children.get(parent, []), spans):
            order.append(k)
            walk(k)

    walk(None)
    return order


def keep_ranges_in_order(marks: Sequence[Mark], spans: list[tuple[int, int]], parents: list[int | None]) -> None:
    """The end of a range (Mark.opened_by) written before its start changes places with it: each
    takes the other's span and the other's parent, so the start is written where the end was and
    the end where the start was (``<ex/>car ... <g><bx/>bike</g>`` becomes ``<bx/>car ...
    <g><ex/>bike</g>``): a range's start and end are allowed in the same elements (a bookmark's,
    XLIFF's codes), so either is at home in the other's place.  Only the two atoms move, and
    nothing is nested in them, so every other mark keeps its order.  In place."""
    rank = {k: n for n, k in enumerate(document_order(parents, spans))}
    for end, mark in enumerate(marks):
        start = mark.opened_by
        if start is not None and rank[end] < rank[start]:
            spans[end], spans[start] = spans[start], spans[end]
            parents[end], parents[start] = parents[start], parents[end]
