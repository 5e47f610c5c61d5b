"""The spaces that go out of a flat text with the runs attnmt.documents.symbols takes out of it as atoms (a
measure, an emoji): placed, each atom writes back the spaces it had in the source (attnmt.documents.atom_spacing),
so the model reads one space where a run stood between two words, and none before a comma after it.

One space after a run goes with it where one comes before it and a word after it ("runs 👍🏽 fast" reads "runs
fast"), or atoms that it touched and then that word (``<kbd>Ctrl</kbd>+<kbd>C</kbd> to``), and so does the space
between two runs ("Pay <span>5 €</span> <del>6 €</del> now", which read "Pay  now." and came back with two spaces
before the first price); not where more spacing or none follows ("run. 👍  " at a line's end), nor an element's
edge but the end of those the run fills (``is <b>12 °C</b> today``).  Such spacing stays as it was, for the
translation passes spacing outside its sentences through byte for byte.  Spacing before a run after a word that holds
a no-break space goes with it but one plain space (``Pay &nbsp;<b>5 €</b> now`` reads "Pay now."), all of it before a
comma (no_breaks_before)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Mapping, Sequence

from attnmt.documents.atom_no_breaks import NO_BREAK, holds_no_break
from attnmt.documents.closing_marks import closes, closes_up_run
from attnmt.documents.flat import Mark
from attnmt.text.sentence_ends import SENTENCE_ENDS

SPACES = " " + NO_BREAK  # the spacing before a run that goes out with it, where it holds a no-break space


def spaces_taken(text: str, cuts: Sequence[tuple[int, int]], marks: Sequence[Mark], edges: set[int],
                 breaks: Collection[int]) -> tuple[list[tuple[int, int]], set[int], dict[int, str]]:
    """[start, end) of what goes out of ``text`` for each of ``cuts`` (sorted runs, [start, end)), the run with the
    space before it or after it or both, the starts of the runs whose space before goes out where a mark that
    closes follows them (closing_marks.closes_up_run, Mark.closed_up), and the spacing before each run that goes out
    with it but its first character, which stays as a plain space (``no_breaks_before``).  ``marks``: the flat
    text's; ``edges``: where one starts or ends or a line breaks (``breaks``)."""
    edged: dict[int, list[Mark]] = {}  # position -> the elements with an edge there
    for mark in marks:
        for p in {mark.start, mark.end} if not mark.atom else ():
            edged.setdefault(p, []).append(mark)
    pointed = {mark.start for mark in marks if mark.atom} | set(breaks)  # the edges of no element
    starts, led = {s for s, _ in cuts}, spaced_before(text, cuts)
    # a plain space, or a no-break one (``👍🏽&nbsp;runs``, ``<span>5 €</span>&nbsp;<del>6 €</del>``: left in, the model
    # read "A dog \u00a0runs." and the page came back with one more), which the atom writes back as it was
    # (Mark.space_after_as)
    after = {s for s, e in cuts if text[e:e + 1] in (" ", *NO_BREAK)
             and text[e + 1:e + 2].strip() and s in led and e not in breaks and fills(edged.get(e, []), s, e)}
    spaced_ends = spaced_end(cuts, after)
    ends = {e for _, e in cuts}  # "Pay 5 €, then" reads "Pay, then", where no run before it takes that space
    closed = {s for s, e in cuts if s - 1 not in ends
              and closes_up_run(text, s, spaced_ends[s],
                                edges_keeping(s, edges, edged, pointed))}
    # A run that ends an element it does not fill, a space inside the element before it and one outside after
    # it (``<b>runs 👍🏽</b> fast``), takes the space before it: the one after is the text's after the element,
    # and with both the model read "runs  fast.", and the line came back so.
    inside = {s for s, e in cuts if s > 0 and text[s - 1] == " " and text[e:e + 1] == " " and text[e + 1:e + 2].strip()
              and edged.get(e) and not fills(edged[e], s, e) and not {s - 1, s} & edges and s - 1 not in ends}
    before = closed | inside
    spaced = no_breaks_before(text, cuts, edges | ends, before)
    # all of it before a comma after a word: "Price&nbsp;<i>3½ €</i>, then" reads "Price, then", as with a plain space
    closed |= {s for s in spaced if text[s - len(spaced[s]) - 1].isalnum() and closes_after(text, spaced_ends[s])}
    # the last run of a chain whose first took the space before it leaves the space after it ("Pay, now", not "Paynow")
    first = chain_starts(cuts, after)
    after -= {s for s, e in cuts if e + 1 not in starts and first[s] != s and first[s] in before}
    removed = [(s - len(spaced[s]) + (s not in closed) if s in spaced else s - 1 if s in before else s,
                e + 1 if s in after else e) for s, e in cuts]
    return removed, closed, spaced


def no_breaks_before(text: str, cuts: Sequence[tuple[int, int]], edges: Collection[int],
                     before: Collection[int]) -> dict[int, str]:
    """Each run of ``cuts`` by its start -> the spacing before it, where that holds a no-break space, follows a word
    and no edge (``edges``: of marks, of runs, a break) stands inside it or at its start, and the space before the
    run does not go out with it already (``before``).  All of it but its first character goes out with the run, and
    that one stays as a plain space (led_by_plain_spaces): ``Pay &nbsp;<b>5 €</b> now.`` read "Pay \u00a0now.", and
    the model wrote a plain space for it.  The atom writes it back as written (Mark.space_before_as)."""
    spaced: dict[int, str] = {}
    points = sorted(edges)  # found by bisection: a paragraph holds thousands of runs and edges
    for s, _ in cuts:
        b = s
        while b and text[b - 1] in SPACES:
            b -= 1
        k = bisect_left(points, b)
        if b and s not in before and holds_no_break(text[b:s]) and not (k < len(points) and points[k] < s):
            spaced[s] = text[b:s]
    return spaced


def led_by_plain_spaces(text: str, spaced: Mapping[int, str], closed: Collection[int]) -> str:
    """``text`` with the first character of each spacing that goes out with a run but that one (``spaced``:
    no_breaks_before's; not before a comma, ``closed``, where all of it goes) a plain space, the one the model reads
    between the words either side."""
    characters = list(text)
    for start, spacing in spaced.items():
        if start not in closed:
            characters[start - len(spacing)] = " "
    return "".join(characters)


def spaced_before(text: str, cuts: Sequence[tuple[int, int]]) -> set[int]:
    """The starts of the runs of ``cuts`` (sorted) that a space or the text's start stands before, or a run that
    touches them and that one stands before: ``Pay 5 €,<b>6 €</b> now`` is two runs, "5 €," and the bold's, and
    the space after the second goes out as one run's would (the model read "Pay  now.", and the page came back
    with two spaces before the price)."""
    led: set[int] = set()
    before = (-1, -1)  # the run before, [start, end)
    for s, e in cuts:
        if s == 0 or text[s - 1].isspace() or (s == before[1] and before[0] in led):
            led.add(s)
        before = (s, e)
    return led


def chain_starts(cuts: Sequence[tuple[int, int]], after: Collection[int]) -> dict[int, int]:
    """Each run of ``cuts`` (sorted) by its start -> the start of the first run of its chain: the runs that follow
    each other touching (``<b>5 €</b>,<b>6 €</b>``: the comma is one) or one space apart, that space going out
    with the one before (``after``)."""
    first: dict[int, int] = {}
    before = (-1, -1)  # the run before, [start, end)
    for s, e in cuts:
        linked = s == before[1] or (s == before[1] + 1 and before[0] in after)
        first[s] = first[before[0]] if linked else s
        before = (s, e)
    return first


def spaced_end(cuts: Sequence[tuple[int, int]], after: Collection[int]) -> dict[int, int]:
    """Each run of ``cuts`` by its start -> the end of the runs that follow it, each one space after the one
    before, that space going out with it (``after``): "<span>5 €</span> <del>6 €</del>, then" ends before the
    comma, and the first price takes the space before it out as a price alone would (it read "Pay , then go.")."""
    ends: dict[int, int] = {}
    for s, e in reversed(cuts):  # a run touching it goes on the chain too (``<b>5 €</b>,<b>6 €</b>``)
        ends[s] = ends.get(e, ends.get(e + 1, e) if s in after else e)
    return ends


def closes_after(text: str, end: int) -> bool:
    """Whether a mark that closes what is before it (closing_marks.closes), a sentence's stop aside, is at ``end``."""
    return end < len(text) and closes(text[end]) and text[end] not in SENTENCE_ENDS


def edges_keeping(start: int, edges: set[int], edged: Mapping[int, list[Mark]], pointed: Collection[int]) -> set[int]:
    """The ``edges`` that keep the space before a run at ``start`` in the text (closing_marks.closes_up_run): at
    that space or at ``start``, but for the start of elements that open there alone (no atom, no line break:
    ``pointed``): ``Pay <b>5 €</b>, then`` takes the space before the bold out, which the atom writes back before
    it, where that edge kept it in and the model read "Pay , then go."."""
    near = {start - 1, start} & edges
    if start not in pointed and all(mark.start == start for mark in edged.get(start, [])):
        return near - {start}
    return near


def fills(edged: Sequence[Mark], start: int, end: int) -> bool:
    """Whether the elements ``edged`` at ``end``, a run's (flat.text[start:end]), all end there and start
    within the run, none where none is: it fills them (``<b>12 °C</b>``), and the text after is no text of theirs."""
    return all(mark.end == end and start <= mark.start < end for mark in edged)
