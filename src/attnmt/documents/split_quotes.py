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
guillemets' closing one).  So is one whose words hold an atom that shows words, inline code or a URL kept whole
(``"Hello <code>x.py</code>"``, ``"Run <code>x.py</code> now."``), which its sentence's edges cannot take where it
stands last or first (the model read ``"Hello "``, quotes as words, and the demo model's garbled translation kept
its English).  A pair an element crosses (``<b>"hello</b> there"``) stays as written, and so does one whose words
hold no element around words but a kept stop's atom (``"A dog runs<b>.</b>"``: documents.kept_stops).  One around
atoms alone among other words (``Use "<code>npm install</code>" now.``) quotes no words: it goes with them as written
(``kept_quote``), where the model read ``Use " " now.`` and dropped the quotes; one that is all its block shows
(``"<code>pip install attnmt</code>"``) is no sentence and stays as written.  So do brackets around atoms alone
(``(<code>config.yml</code>)``: ``BRACKETED``)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from itertools import accumulate

from attnmt.documents.closing_marks import closes
from attnmt.documents.flat import FlatText, Mark, atom_text, has_words
from attnmt.documents.terminal_codes import Style
from attnmt.documents.text_emphasis import Quote, marked_parts, quote, quotes_inside

# What stands for an atom that shows words where the quotes are looked for (``shown_atoms``): a quote's words may end
# or start with one, and, no word's character, it glues no quote to a word.
SHOWN_ATOM = "\ue000"
# Brackets around such atoms alone (``(<code>config.yml</code>)``), which go with them as a text line's go with a
# file's name (closing_marks.bracketed): the model read ``The file () holds the settings.``
BRACKETED = re.compile(f"(?P<bracket>\\({SHOWN_ATOM}+\\)|\\[{SHOWN_ATOM}+\\]|\uff08{SHOWN_ATOM}+\uff09)")
PAIRED = re.compile(f"{BRACKETED.pattern}|{quote().pattern}")


@dataclass(frozen=True)
class Pair:
    """A pair of quotes read as one: its marks' [start, end) in the text, the [start, end) of the words they quote
    (``inner``), and the marks among those words, ``flat.marks[first:stop]``."""

    quote: Style
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
    """The pairs of quotes of ``flat``'s text with a mark among their words, and of brackets around atoms alone
    (``BRACKETED``), every element there wholly inside those words or wholly around the pair (a quote mark of a word
    of code read with its sentence, ``<code>"a</code>``, is the code's, which its element crosses).  One pass over
    the marks, in order, beside the pairs, in order: the ends of the elements opened so far on a heap, those still
    open at a pair's start each around it or crossing it."""
    pairs: list[Pair] = []
    open_ends: list[int] = []
    k = 0
    shown, placed = shown_atoms(flat)
    for found in PAIRED.finditer(shown):
        opening, _, closing = (found[0][0], "", found[0][-1]) if found["bracket"] else marked_parts(found)
        start, end = (at - bisect_left(placed, at) for at in found.span())  # where they are in flat.text
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
        alone = inner[0] == inner[1]  # atoms alone, no words of prose
        if nests and parts_words(flat, first, stop) and (alone or quotes_inside("", found, protected)):
            quote = kept_quote(flat.marks[first:stop], opening, closing) if alone else Quote(opening, closing)
            pairs.append(Pair(quote, start, end, inner, first, stop))
    return pairs


def kept_quote(marks: Sequence[Mark], opening: str, closing: str) -> Style:
    """The marks of a pair of quotes around atoms alone (``"<code>report.pdf</code>"``, ``marks``), which go with
    them as written, as a text line's go with a file's name (closing_marks.bracketed): a ``Style``, not a ``Quote``
    of prose's words, which takes the target language's form.  A closing guillemet gets the space its opening one
    has inside (``« <code>make test</code> »``), which the text left out after the atom, spaced already."""
    atoms = [mark for mark in marks if mark.atom]
    spaced = opening[-1:].isspace() and not closing[:1].isspace() and atoms[-1].space_after
    return Style(opening, opening[-1] + closing if spaced else closing)


def shown_atoms(flat: FlatText) -> tuple[str, list[int]]:
    """``flat``'s text with ``SHOWN_ATOM`` where each atom that shows words (``shows_words``) or refers to a note
    stands, and where each went in it, in order: brackets around a note's reference alone go with it as around code
    (``Note (<a href="#fn1">1</a>) here.`` read ``Note () here.``)."""
    pieces: list[str] = []
    placed: list[int] = []
    position = 0
    for mark in flat.marks:
        if mark.atom and (shows_words(mark) or mark.reference):
            pieces.extend([flat.text[position:mark.start], SHOWN_ATOM])
            placed.append(mark.start + len(placed))
            position = mark.start
    return "".join([*pieces, flat.text[position:]]), placed


def shows_words(mark: Mark) -> bool:
    """Whether an atom shows words to a reader: inline code, a URL; not a kept stop, a line break, a picture."""
    return mark.shows_text and not mark.line_break and has_words(atom_text(mark))


def parts_words(flat: FlatText, first: int, stop: int) -> bool:
    """Whether an element around words, an atom that shows words or a note's reference stands among a pair's words,
    ``flat.marks[first:stop]`` (``"A dog runs.<sup>1</sup>"``: its pieces of text, ``"A dog runs.`` and ``"``, held
    no pair, and the model read the quotes as words); not a kept stop's atom alone (``"A dog runs<b>.</b>"``, whose
    stop the sentence's own rules keep: attnmt.documents.kept_stops)."""
    return any((shows_words(mark) or mark.reference) if mark.atom else has_words(flat.text[mark.start:mark.end])
               for mark in flat.marks[first:stop])


def quoted(flat: FlatText, pairs: list[Pair]) -> FlatText:
    """``flat`` with each of ``pairs``' marks taken out of its text and a ``Quote`` mark over its words, in document
    order: before the first mark among them, the parent of those its parent held."""
    taken_out = [marks_cuts(flat, pair) for pair in pairs]
    cuts = sorted(cut for pair_cuts in taken_out for cut in pair_cuts)
    # an atom at the quoted words' edge is spaced on the side where a space was taken out with the mark
    spaced_before = {pair.inner[0] for pair, (opening, _) in zip(pairs, taken_out, strict=True)
                     if opening[1] > pair.inner[0] or opening[0] < pair.start}
    closed_up = {pair.inner[0] for pair, (opening, _) in zip(pairs, taken_out, strict=True) if opening[0] < pair.start}
    spaced_after = {pair.inner[1] for pair, (_, closing) in zip(pairs, taken_out, strict=True) if closing[1] > pair.end}
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
    for mark, given in zip(marks, flat.marks, strict=True):
        mark.space_before = mark.space_before or given.atom and given.start in spaced_before
        mark.space_after = mark.space_after or given.atom and given.start in spaced_after
        mark.closed_up = mark.closed_up or given.atom and given.start in closed_up
    for number, pair in enumerate(pairs):
        parent = flat.marks[pair.first].parent
        for mark in marks[pair.first + number:pair.stop + number]:  # after the Quotes put before them
            mark.parent = pair.first + number if mark.parent == index(parent) else mark.parent
        marks.insert(pair.first + number, Mark(moved(pair.inner[0]), moved(pair.inner[1]), index(parent), pair.quote))
    text = "".join(flat.text[start:end] for start, end in zip([0, *(e for _, e in cuts)], [*starts, len(flat.text)],
                                                               strict=True))
    return FlatText(text, marks, flat.place, [moved(at) for at in flat.breaks], [moved(at) for at in flat.line_ends],
                    flat.seen)


def marks_cuts(flat: FlatText, pair: Pair) -> tuple[tuple[int, int], tuple[int, int]]:
    """The [start, end) of ``flat``'s text that taking ``pair``'s opening and closing marks out of it takes: each mark,
    and where an atom stands at the quoted words' edge with its space between it and them, the space that would be
    doubled (``He said "open <code>x.py</code>" and left.`` read ``He said open  and left.``): the space after the
    closing mark, or the words' first one, the atom then spaced on that side as a space there wrote it."""
    (start, end), (first, last) = (pair.start, pair.end), pair.inner
    text = flat.text
    atom_at = {mark.start for mark in flat.marks[pair.first:pair.stop] if mark.atom}
    spaced = start == 0 or text[start - 1].isspace()
    if first == last:  # atoms alone: the space after the pair, or before it where a stop or a comma follows
        closed_up = spaced and start > 0 and closes(text[end:end + 1])
        return (start - closed_up, first), (last, end + (spaced and text[end:end + 1].isspace()))
    leading = first in atom_at and text[first:first + 1].isspace() and start > 0 and text[start - 1].isspace()
    trailing = last in atom_at and text[last - 1:last].isspace() and text[end:end + 1].isspace()
    return (start, first + leading), (last, end + trailing)
