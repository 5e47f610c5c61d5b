"""A name joined by "&" that an element parts (``<b>Tom</b> &amp; Jerry``, ``<i>AT</i>&amp;T``, a Word paragraph's
bold "Tom" run before a plain " & Jerry" one), kept whole as one inside a piece of text is
(attnmt.decoding.protected.AMPERSAND_NAME).

A builder finds what passes through in each piece of text it is given (flat.FlatBuilder's ``protected``): a name
whose words stand in two elements was whole in neither piece, and went to the model, which dropped it (``<p>We
watched <b>Tom</b> &amp; Jerry.</p>`` came back ``<p>WE WATCHED <b>TOM</b> JERRY.</p>``, and ``<i>AT</i>&amp;T`` was
lost whole).  So the block's text is searched once it is read: a name there that the builder's ``protected`` keeps
whole, with an element's edge inside it and no atom that shows text, is taken out of the text, its spaces as a
piece's atom's (flat.FlatBuilder._add_plain, closing_marks.space_closed_up), each of its parts between those edges an
atom written as it was inside the innermost element that holds it.  The model reads ``We watched.``, and the name
comes back with its characters and with its marks on the same characters (``<b>Tom</b> &amp; Jerry``), its atoms side
by side where the name goes.  An element that holds other words with a part of the name goes where those words go,
and takes its part along, as it would take inline code: the name is whole where its elements hold it alone.  Not a
name an element read as words crosses (Mark.kept_whole: an abbreviation), which reads its part whole.  Its parts are
the text as read: a text line's or a cue's ``&amp;`` read as "&", written again as the line wrote it
(Mark.references_read).  A comment, a bookmark or a line break inside a name stays in its place between its parts
(``Tom<br/>&amp; Jerry``, a name wrapped in a narrow column, is still one name): no sentence ends there."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from attnmt.decoding.protected import AMPERSAND_NAME
from attnmt.documents.closing_marks import LETTER_SPACE, closes
from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.symbols import in_source_order, innermost, position_mover

NAME = re.compile(AMPERSAND_NAME)
Span = tuple[int, int]


def take_out_split_names(flat: FlatText, protected: re.Pattern[str]) -> Callable[[int], int]:
    """In place: each name joined by "&" in ``flat``'s text that its marks part, and that ``protected`` keeps whole,
    taken out into atoms (the module docstring); where a place of the text read is once they are out."""
    names = [parts for match in NAME.finditer(flat.text)
             if (parts := name_parts(flat, *match.span())) and protected.fullmatch(match.group())]
    removed: list[Span] = []
    for parts, run_end in zip(names, run_ends(flat.text, names), strict=True):
        removed.append(taken_span(flat.text, parts[0][0], parts[-1][1], run_end, removed[-1][1] if removed else 0))
    moved = position_mover(removed)
    if not names:
        return moved
    atoms = [atom for parts, cut in zip(names, removed, strict=True) for atom in name_atoms(flat, parts, cut, moved)]
    starts = [mark.start for mark in flat.marks]
    places = [bisect_right(starts, first) for parts in names for first, _ in parts]
    spans = [(parts[0][0], parts[-1][1]) for parts in names]
    for mark in flat.marks:  # a line break inside a name goes with it: no sentence's end, no break between words
        mark.line_break = mark.line_break and not within(mark.start, spans)
        mark.start, mark.end = moved(mark.start), moved(mark.end)
    flat.breaks[:] = [moved(at) for at in flat.breaks if not within(at, spans)]
    flat.line_ends[:] = [moved(at) for at in flat.line_ends if not within(at, spans)]
    flat.marks[:] = in_source_order(flat.marks, atoms, places)
    kept = [0, *(at for cut in removed for at in cut), len(flat.text)]
    flat.text = "".join(flat.text[kept[k]:kept[k + 1]] for k in range(0, len(kept), 2))
    return moved


def within(at: int, spans: list[Span]) -> bool:
    """Whether place ``at`` of a text is strictly inside one of ``spans`` (in order, apart): found by bisection, as
    each mark and break of a paragraph of many names asks."""
    k = bisect_left(spans, (at,)) - 1  # the last span that starts before ``at``: only it can hold it
    return k >= 0 and spans[k][0] < at < spans[k][1]


def name_parts(flat: FlatText, start: int, end: int) -> list[Span]:
    """The [start, end) of each part of ``flat.text[start:end]`` between the edges of the elements and the atoms inside
    it, in order; none where none is inside it, or an atom that shows text stands inside it (a URL, inline code), or
    an element read as words has an edge there.  An atom that shows nothing (a comment, a bookmark) or stands for a
    space (a line break, a tab) stays in its place between the name's parts: read as words, ``Tom <!-- x -->&amp;
    Jerry`` and ``Tom<br/>&amp; Jerry`` lost their "&" to the model.  Not across an empty line (two line breaks, spaces
    alone between them), which parts what a reader sees as two blocks."""
    edges: set[int] = set()
    lines: list[int] = []
    for mark in flat.marks:
        inside = {at for at in (mark.start, mark.end) if start < at < end}
        if not inside:
            continue
        if mark.atom and mark.shows_text and not mark.parts_words or mark.kept_whole:
            return []
        edges |= inside
        lines += [mark.start] if mark.line_break else []
    if any(not flat.text[first:last].strip() for first, last in pairwise(lines)):
        return []
    ordered = [start, *sorted(edges), end]
    return list(zip(ordered, ordered[1:], strict=False)) if edges else []


def run_ends(text: str, names: list[list[Span]]) -> list[int]:
    """For each name (its ``parts``, in order), where the run of names it stands in ends: names one space apart
    (``Tom & Jerry AT&T``) are one run, whose space before goes out or stays as one name's would (``taken_span``)."""
    ends = [parts[-1][1] for parts in names]
    for k in range(len(names) - 2, -1, -1):
        if text[ends[k]:names[k + 1][0][0]] == " ":
            ends[k] = ends[k + 1]
    return ends


def taken_span(text: str, start: int, end: int, run_end: int, free: int) -> Span:
    """What of ``text`` goes out with the name over text[start:end], the run of names it starts ending at
    ``run_end`` (run_ends): a space after it too where a space or the text's start is before it, as a piece's
    text leaves one; the space before it too where a mark that closes follows its run after a word
    (closing_marks.space_closed_up: "We watched Tom & Jerry." reads "We watched."), and no earlier name took it
    (``free``: where what they took ends).  Judged name by name, "We met Tom & Jerry AT&T." read "We met .": the
    first name kept the space before it and took the one after it, the second found no space left to take."""
    if start > free and closes_up(text, start, run_end):
        return start - 1, end + (end < run_end)  # the space to the next name of its run: that name's is gone
    spaced = start == 0 or text[start - 1].isspace()
    return start, end + (spaced and text[end:end + 1] == " ")


def closes_up(text: str, start: int, end: int) -> bool:
    """Whether the space before the name (or run of names) over text[start:end] goes out with it (``taken_span``)."""
    return end < len(text) and closes(text[end]) and LETTER_SPACE.search(text, 0, start) is not None


def spaced_after_break(flat: FlatText, at: int) -> bool:
    """Whether flat.text[at] is the space the builder put after a line break that the source wrote glued to the word
    after it (white_space.spaced_after_break: ``Tom<br/>&amp; Jerry`` reads "Tom & Jerry"), no part of the name."""
    return flat.text[at:at + 1] == " " and any(mark.atom and mark.start == at and mark.parts_words
                                               and not mark.space_after for mark in flat.marks)


def name_atoms(flat: FlatText, parts: list[Span], cut: Span, moved: Callable[[int], int]) -> list[Mark]:
    """The atoms of a name's ``parts``, at the place its ``cut`` leaves, each in the innermost element that holds
    it (numbered in ``flat.marks``), the spaces and letters beside the name as FlatBuilder.add_atom gives an
    atom's on its first and its last, or, where an atom touches it, that atom's spacing on that side (as
    symbols.symbol_atom gives a symbol's: ``Tom & Jerry AT&T.`` read the space before ``AT&T`` as its own); the parts
    touch one another."""
    text, start, end = flat.text, parts[0][0], parts[-1][1]
    before = [mark for mark in flat.marks if mark.atom and mark.start == start]
    after = [mark for mark in flat.marks if mark.atom and mark.start == end]
    atoms = [Mark(moved(start), moved(start), innermost(flat.marks, first, last), atom=True,
                  literal=text[first + spaced_after_break(flat, first):last], shows_text=True, closed_up=cut[0] < start,
                  references_read=True) for first, last in parts]
    spaced, glued = start == 0 or text[start - 1].isspace(), text[start - 1:start].isalnum()
    atoms[0] = replace(atoms[0], space_before=before[-1].space_after if before else spaced,
                       glued_before=glued and not before)
    atoms[-1] = replace(atoms[-1], space_after=after[0].space_before if after else text[end:end + 1].isspace())
    return atoms
