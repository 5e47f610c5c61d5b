"""The order placed marks are written in, and the ranges kept in it (attnmt.documents.spans, rule 3).

A range (a comment's anchor, a bookmark, XLIFF's ``<bx/>``/``<ex/>`` and ``<sm/>``/``<em/>``) has a
start and an end, two atoms that may sit in different elements: ``<g><bx/>red bike</g> and a
<ex/>car``.  A translation that turns the words around can write the end before its start, an
invalid file.  Their order is the order the whole output is written in (document_order), so it
is checked there, whatever elements lie between them, not only where the two share a parent.
Where a range's two ends go in the first place is here too (``range_points``): around the
translation of the words between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText, Mark

if TYPE_CHECKING:  # spans places the marks with these ranges' points, and imports them from here
    from attnmt.documents.spans import Projector


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


def range_points(flat: FlatText, projector: Projector) -> dict[int, int]:
    """Where each range's start and end go (mark -> target position): the edges of the translation of
    the words between them, as a mark over those words goes (rule 1), and the atoms right after its end
    with it (``<e/>`` and a Word comment's reference, by which LibreOffice anchors the comment: before
    the range's end, it made the comment one over no words).  Each put by rule 2, before the translation
    of the word after it, a range over words that came back in another order covered other words
    (``A <s/>big red dog<e/> sleeps`` -> ``Un <s/>gros chien<e/> rouge dort``: a comment lost "rouge";
    ``the <s/>red <e/>car`` -> ``la <s/>voiture <e/>rouge``).  An edge between two letters of a word
    (``ri<s/>ding``) is left to rule 2, which keeps it there in a word written unchanged, and so is a
    range whose words have no translation aligned to them (none: an empty bookmark)."""
    marks, text, points = flat.marks, flat.text, {}
    starts = {mark.opened_by for mark in marks}
    for end, mark in enumerate(marks):
        start = mark.opened_by
        covered = None if start is None else projector.span(Mark(marks[start].start, mark.start))
        if start is None or covered is None:
            continue
        if not in_word(text, marks[start].start):
            points[start] = covered[0]
        if in_word(text, mark.start):
            continue
        points[end] = covered[1]
        # the atoms that touch the end, none a range's edge: after it (a comment's reference), and before it, inside
        # the range (a caption's number field, "<s/>Figure <SEQ/><e/>: A dog", which rule 2 put after the end)
        for side in (range(end + 1, len(marks)), range(end - 1, start, -1)):
            for k in side:
                if not marks[k].atom or marks[k].start != mark.start or k in starts or marks[k].opened_by is not None:
                    break
                points[k] = covered[1]
    return points


def in_word(text: str, position: int) -> bool:
    """Whether ``position`` stands between two letters or digits of ``text``."""
    return 0 < position < len(text) and text[position - 1].isalnum() and text[position].isalnum()
