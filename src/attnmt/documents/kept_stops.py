"""Sentences joined across the full stop an element kept whole ends with (an abbreviation's ``<abbr>Bxl.</abbr>``),
apart from attnmt.documents.abbreviations so that plain text's pipeline loads no HTML reader."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from attnmt.documents.flat import FlatText


def across_kept_stops(flat: FlatText, spans: list[tuple[int, int]],
                      fits: Callable[[str], bool] | None = None) -> list[tuple[int, int]]:
    """``spans``, the sentences of ``flat``, each that ends with the full stop of an element kept whole
    (Mark.kept_whole: an abbreviation) joined to the next where that starts in lower case (``We meet in
    <abbr>Bxl.</abbr> today.``): the page says the stop is the abbreviation's, which the segmenter took for a
    sentence's end ("today." alone); but not where the sentence so joined does not ``fit`` the model (its limit,
    where known: the spans were parted to fit it, and joined, the model cut the sentence and lost its end)."""
    ends = {m.start + len(shown.rstrip()) for m in flat.marks
            if m.kept_whole and (shown := flat.text[m.start:m.end]).rstrip().endswith(".")}
    joined: list[tuple[int, int]] = []
    breaks = sorted(flat.breaks)  # a tab or a line's end between them ends the sentence still
    for start, end in spans:
        between = bisect_left(breaks, start) - bisect_left(breaks, joined[-1][1]) if joined else 0
        if joined and joined[-1][1] in ends and flat.text[start:start + 1].islower() and not between and (
                fits is None or fits(flat.text[joined[-1][0]:end])):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined
