"""A page's quote whose words hold an element (``He said "<b>hello</b> there" and left.``), read as one quote.

A page's text reads each pair of quotes in one piece of text as a quote (attnmt.documents.markup_text.PageBuilder:
a ``Quote`` mark around its words); an element inside the quoted words parts its marks into two pieces, the lead's
``"`` and the tail's ``"``, and each was read as a word: the model read ``He said "hello there" and left.``, and the
quote came back as it placed the marks, in English's form and apart from their words.  Found in the block's text once
it is read, a pair whose words nest with its marks (each element wholly inside the quoted words or wholly around the
pair) is made a ``Quote`` mark there, its marks taken out of the text, as a pair in one piece is: the model reads
``He said hello there and left.``, and the quote is written around the translation of its words in the target
language's form (attnmt.documents.quote_forms).  So is one around the block's whole text (``"<b>Hello</b> there."``),
which a sentence's edges take where no element parts it: left to them, its marks went to the model as words (a
translator that reorders its words wrote ``THERE." "<b>HELLO</b>``, and the demo model, which writes no ``»``, dropped
guillemets' closing one).  A pair an element crosses (``<b>"hello</b> there"``) stays as written, and so does one
whose words hold no element around words but a kept stop's atom (``"A dog runs<b>.</b>"``: documents.kept_stops)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from heapq import heappop, heappush
from itertools import accumulate

from attnmt.documents.flat import FlatText, Mark, has_words
from attnmt.documents.text_emphasis import QUOTE, Quote, marked_parts, quotes_inside


@dataclass(frozen=True)
class Pair:
    """A pair of quotes read as one: its marks' [start, end) in the text, the [start, end) of the words they quote
    (``inner``), and the marks among those words, ``flat.marks[first:stop]``."""

    quote: Quote
    start: int
    end: int
    inner: tuple[int, int]
    first: int
    stop: int


def with_split_quotes(flat: FlatText, protected: re.Pattern[str]) -> FlatText:
    """``flat`` with each pair of quotes an element parts (``split_pairs``) read as a ``Quote`` mark; ``protected``:
    what passes through untranslated, as a quote around it alone is no quote of words (quotes_inside)."""
    pairs = split_pairs(flat, protected)
    return quoted(flat, pairs) if pairs else flat


def split_pairs(flat: FlatText, protected: re.Pattern[str]) -> list[Pair]:
    """The pairs of quotes of ``flat``'s text with a mark among their words, every element there wholly inside those
    words or wholly around the pair (a quote mark of a word of code read with its sentence, ``<code>"a</code>``, is
    the code's, which its element crosses).  One pass over the marks, in order, beside the pairs, in order: the ends
    of the elements opened so far on a heap, those still open at a pair's start each around it or crossing it."""
    pairs: list[Pair] = []
    open_ends: list[int] = []
    k = 0
    for found in QUOTE.finditer(flat.text):
        opening, _, closing = marked_parts(found)
        start, end = found.span()
        inner = (start + len(opening), end - len(closing))
        while k < len(flat.marks) and flat.marks[k].start <= start:
            if not flat.marks[k].atom:
                heappush(open_ends, flat.marks[k].end)
            k += 1
        while open_ends and open_ends[0] <= start:
            heappop(open_ends)
        nests, first = not open_ends or open_ends[0] >= end, k
        while k < len(flat.marks) and flat.marks[k].start < end:
            mark = flat.marks[k]
            nests = nests and (mark.atom or mark.end <= inner[1])
            if not mark.atom:
                heappush(open_ends, mark.end)
            k += 1
        stop = first
        while stop < k and flat.marks[stop].start <= inner[1]:
            stop += 1
        if nests and parts_words(flat, first, stop) and quotes_inside("", found, protected):
            pairs.append(Pair(Quote(opening, closing), start, end, inner, first, stop))
    return pairs


def parts_words(flat: FlatText, first: int, stop: int) -> bool:
    """Whether an element around words stands among a pair's words, ``flat.marks[first:stop]``; not an atom alone, a
    kept stop's (``"A dog runs<b>.</b>"``, whose stop the sentence's own rules keep: attnmt.documents.kept_stops)."""
    return any(not mark.atom and has_words(flat.text[mark.start:mark.end]) for mark in flat.marks[first:stop])


def quoted(flat: FlatText, pairs: list[Pair]) -> FlatText:
    """``flat`` with each of ``pairs``' marks taken out of its text and a ``Quote`` mark over its words, in document
    order: before the first mark among them, the parent of those its parent held."""
    cuts = sorted(cut for pair in pairs for cut in ((pair.start, pair.inner[0]), (pair.inner[1], pair.end)))
    starts, taken = [start for start, _ in cuts], [0, *accumulate(end - start for start, end in cuts)]

    def moved(at: int) -> int:
        """Where a place of the text is once the cuts are taken out of it."""
        k = bisect_right(starts, at)
        return at - taken[k - 1] - (min(at, cuts[k - 1][1]) - cuts[k - 1][0]) if k else at

    firsts = [pair.first for pair in pairs]

    def index(k: int | None) -> int | None:
        """Where the mark at ``k`` stands once a Quote is put before the first mark of each pair."""
        return None if k is None else k + bisect_right(firsts, k)

    marks = [Mark(**{**vars(mark), "start": moved(mark.start), "end": moved(mark.end), "parent": index(mark.parent),
                     "opened_by": index(mark.opened_by)}) for mark in flat.marks]
    for number, pair in enumerate(pairs):
        parent = flat.marks[pair.first].parent
        for mark in marks[pair.first + number:pair.stop + number]:  # after the Quotes put before them
            mark.parent = pair.first + number if mark.parent == index(parent) else mark.parent
        marks.insert(pair.first + number, Mark(moved(pair.inner[0]), moved(pair.inner[1]), index(parent), pair.quote))
    text = "".join(flat.text[start:end] for start, end in zip([0, *(e for _, e in cuts)], [*starts, len(flat.text)],
                                                               strict=True))
    return FlatText(text, marks, flat.place, [moved(at) for at in flat.breaks], [moved(at) for at in flat.line_ends],
                    flat.seen)
