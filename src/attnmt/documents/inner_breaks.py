"""A line break inside a sentence (a spreadsheet cell's Alt+Enter in a sentence wrapped by hand, a ``<br>`` or a
Word ``w:br`` before a line that goes on in lower case: wrapped_lines.ended_lines) stays between the translation's
words.  Rule 2 of attnmt.documents.spans puts it before the translation of the source word after it, which may be the
translation's first word ("Unit\\nprice" turned around read "\\nPRICE UNIT") or none (after the last): the cell then
showed an empty line above or below its text.  There it goes to the gap between two words that parts the translation
as the break parted its source, in characters (a subtitle cue's break at an edge goes between its words too:
attnmt.documents.cue_wrap.breaks_inside), and where the translation is one word, a cell's line feed is left out."""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText, Mark, has_words

if TYPE_CHECKING:  # spans places the marks with these points, and imports them from here
    from attnmt.documents.spans import Projector


def inner_break_points(flat: FlatText, projector: Projector) -> dict[int, int]:
    """Where each line break inside a sentence that rule 2 would put at an edge of its translation goes (mark ->
    target position): the start of the word after the gap nearest the source's share of the sentence before it."""
    points = {}
    for j, mark in enumerate(flat.marks):
        i = sentence_around(mark, projector)
        if i is None:
            continue
        start, end = projector.target_spans[i]
        point = projector.point(mark.end)
        if has_words(projector.target[start:point]) and has_words(projector.target[point:end]):
            continue  # between words: an edge has none on one side, its stop or quotes at most
        gaps = [word_start for word_start, _ in projector.target_words[i][1:]]
        if gaps:
            source_start, source_end = projector.sentences[i]
            share = (mark.end - source_start) / (source_end - source_start)
            points[j] = min(gaps, key=lambda gap: abs((gap - start) / (end - start) - share))
    return points


def lone_break(flat: FlatText, projector: Projector, j: int) -> bool:
    """Whether mark ``j`` is a line break written as text (a cell's line feed, white_space.TYPED_LINES) inside a
    sentence whose translation is one word: no gap holds it.  An element (``<br>``, ``w:br``) stays where rule 2
    put it: the file keeps every element it had."""
    i = sentence_around(flat.marks[j], projector)
    return i is not None and flat.marks[j].node is None and len(projector.target_words[i]) < 2


def sentence_around(mark: Mark, projector: Projector) -> int | None:
    """The sentence that holds ``mark``, a line break, with words before and after it, else None."""
    if not (mark.atom and mark.line_break):
        return None
    i = bisect_right(projector.sentence_ends, mark.end)
    if i == len(projector.sentences):
        return None
    start, end = projector.sentences[i]
    text = projector.flat.text
    return i if start < mark.end < end and text[start:mark.end].strip() and text[mark.end:end].strip() else None
