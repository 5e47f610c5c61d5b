"""Spans of a flat text as intervals: the arithmetic attnmt.documents.spans places marks with.

Apart from spans.py so that the rules of placing (words, points, nesting) read on their own; these
helpers know only [start, end) pairs, whitespace, and the marks' parent links."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from attnmt.documents.flat import Mark, is_punctuation


@dataclass
class Placement:
    """The translation of one FlatText and where each of its marks went: spans[i] is mark i's
    [start, end) in ``text`` (start == end: a point), parents[i] the mark it is written in (its
    source parent, but for a range's ends that changed places: each other's); ``starts``: where each
    sentence's translation starts in ``text``, in order."""

    text: str
    spans: list[tuple[int, int]]
    parents: list[int | None]
    dropped: frozenset[int] = frozenset()  # word breaks whose word the translation no longer has (word_breaks)
    starts: tuple[int, ...] = (0,)
    merged: frozenset[int] = frozenset()  # links around nothing beside a sibling link's word that holds their words

    def opens_sentence(self, at: int) -> bool:
        """Whether position ``at`` of ``text`` comes before every word of its sentence's translation."""
        i = bisect_right(self.starts, at)
        return not self.text[self.starts[i - 1] if i else 0:at].strip()


def initial_span(target: str, letters: int) -> tuple[int, int] | None:
    """Where a drop cap that held ``letters`` letters or digits goes in ``target``, its text's
    translation: over the translation's first characters, up to its ``letters``-th letter or digit
    and the punctuation before it, within the first word ("T" in "The children": "D" in "Die Kinder",
    "„D" in "„Die Kinder"); None where the translation is empty."""
    start = end = len(target) - len(target.lstrip())
    while end < len(target) and letters > 0 and not target[end].isspace():
        letters -= target[end].isalnum()
        end += 1
    return (start, end) if end > start else None


def strip(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) without the whitespace at either end."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def strip_span(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    start, end = strip(text, *span)
    return (start, end) if start < end else None


def trim_punctuation(marked: str, target: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) of ``target`` without the punctuation at an end where ``marked``, the mark's source text,
    has none there (the model's stop after a marked last word stays outside it); one character at least."""
    if marked and not is_punctuation(marked[-1]):
        while end - start > 1 and is_punctuation(target[end - 1]):
            end -= 1
    if marked and not is_punctuation(marked[0]):
        while end - start > 1 and is_punctuation(target[start]):
            start += 1
    return start, end


def is_inside(marks: Sequence[Mark], k: int, ancestor: int) -> bool:
    parent = marks[k].parent
    while parent is not None:
        if parent == ancestor:
            return True
        parent = marks[parent].parent
    return False


def edge_spaces(text: str, marks: Sequence[Mark], j: int) -> tuple[bool, bool]:
    """Whether mark ``j`` starts, and ends, with whitespace of ``text``: not at an edge where an atom
    inside it stands beyond the space (a link's result ``page `` and its page number's field, which
    ends it)."""
    start, end = marks[j].start, marks[j].end
    source = text[start:end]
    lead, trail = source[:1].isspace(), source[-1:].isspace()
    if not (lead or trail):  # the usual case, with no mark after it read: read for each, a paragraph took n² steps
        return False, False
    atoms = {marks[k].start for k in range(j + 1, len(marks)) if marks[k].atom and is_inside(marks, k, j)}
    return lead and start not in atoms, trail and end not in atoms
