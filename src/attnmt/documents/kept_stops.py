"""Sentences joined across a full stop that an element says is its own: the one an element kept whole ends with (an
abbreviation's ``<abbr>Bxl.</abbr>``), and a number's inside a field's result (``As {REF}Table 1. Prices{} shows``);
apart from attnmt.documents.abbreviations so that plain text's pipeline loads no HTML reader."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

from attnmt.documents.copied_results import is_field_result
from attnmt.documents.flat import FlatText

# A number and its stop where a text ends: a caption's or a chapter's as a field shows it ("1.", "1.2.", "3-1.",
# "IV."), which the segmenter takes for a sentence's end before a capital ("As Table 1. Prices of fruit shows").
NUMBER_STOP = re.compile(r"(?<!\w)(?:\d+(?:[.\-\u2013]\d+)*|[IVXLCDM]+)\.\s*\Z")


def across_kept_stops(flat: FlatText, spans: list[tuple[int, int]],
                      fits: Callable[[str], bool] | None = None) -> list[tuple[int, int]]:
    """``spans``, the sentences of ``flat``, each that ends with the full stop of an element kept whole
    (Mark.kept_whole: an abbreviation) joined to the next where that starts in lower case (``We meet in
    <abbr>Bxl.</abbr> today.``): the page says the stop is the abbreviation's, which the segmenter took for a
    sentence's end ("today." alone); but not where the sentence so joined does not ``fit`` the model (its limit,
    where known: the spans were parted to fit it, and joined, the model cut the sentence and lost its end).  So is
    each that ends with a number's stop inside a field's result whose words go on in the next (in_field_number)."""
    ends = {m.start + len(shown.rstrip()) for m in flat.marks
            if m.kept_whole and (shown := flat.text[m.start:m.end]).rstrip().endswith(".")}
    results = [(m.start, m.end) for m in flat.marks if is_field_result(m)]
    joined: list[tuple[int, int]] = []
    breaks = sorted(flat.breaks)  # a tab or a line's end between them ends the sentence still
    for start, end in spans:
        between = bisect_left(breaks, start) - bisect_left(breaks, joined[-1][1]) if joined else 0
        own_stop = joined and ((joined[-1][1] in ends and flat.text[start:start + 1].islower())
                               or in_field_number(flat.text, results, joined[-1][1], start))
        if own_stop and not between and (fits is None or fits(flat.text[joined[-1][0]:end])):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def in_field_number(text: str, results: list[tuple[int, int]], end: int, start: int) -> bool:
    """Whether a sentence of ``text`` that ends at ``end`` ends with a number's stop (NUMBER_STOP) inside one of the
    ``results``, [start, end) of its fields' results (copied_results.is_field_result: a cross-reference to a caption,
    "Table 1. Prices", a link's words), that goes on past the next one's ``start``: a field's number ends no sentence,
    and the result is one thing, which an update writes again whole."""
    return any(low < end and start < high and NUMBER_STOP.search(text, low, end) for low, high in results)
