"""The marks placed so far, held by parent: rule 3 of attnmt.documents.spans between siblings.

A new mark is cut so as not to overlap an earlier sibling (``free_pieces``), keeping the piece its
words' translation stands in (``held_piece``), and once placed (``add``) a point strictly inside a
sibling's span moves to that span's nearer edge, with whatever is nested in it.  ``Siblings`` says
this as it reads, holding each new mark against every earlier sibling: quadratic in the siblings of
one parent (8,000 ``<b>`` in one paragraph took 24 s).  ``SortedSiblings``, which place uses, looks
only at the siblings that the new mark's span reaches, found by bisection;
tests/documents/test_siblings.py proves the two place every mark alike."""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Sequence

from attnmt.documents.flat import Mark
from attnmt.documents.span_geometry import is_inside

Span = tuple[int, int]


class Siblings:
    """Every mark's span placed so far (``spans``, written in place) and each parent's children."""

    def __init__(self, spans: list[Span], marks: Sequence[Mark]) -> None:
        self.spans, self.marks = spans, marks
        self.children: dict[int | None, list[int]] = {}

    def free_pieces(self, parent: int | None, span: Span) -> tuple[list[Span], int | None]:
        """The parts of ``span`` that overlap no span of parent's children, in order ([]: nothing
        is left), and the end of the last of those it overlaps (None: it overlaps none)."""
        taken = [self.spans[k] for k in self.children.get(parent, []) if self.spans[k][0] < self.spans[k][1]]
        blocking = [e for s, e in taken if s < span[1] and e > span[0]]
        return free_pieces(span, taken), max(blocking, default=None)

    def add(self, j: int) -> None:
        """Mark j, just placed, among its siblings: points strictly inside a sibling move out of it."""
        siblings = self.children.setdefault(self.marks[j].parent, [])
        for k in siblings:
            move_out(self.spans, k, j, self.marks)
        siblings.append(j)


class SortedSiblings(Siblings):
    """Siblings, each new mark held only against the siblings its span reaches.

    A mark with a span never changes it once placed, and siblings' spans never overlap (each is cut
    free of the earlier ones), so sorted by start they are sorted by end too, and the ones a span
    overlaps stand together.  Points are kept sorted by where they stand, to find those inside a
    new span."""

    def __init__(self, spans: list[Span], marks: Sequence[Mark]) -> None:
        super().__init__(spans, marks)
        self.starts: dict[int | None, list[int]] = {}  # parent -> its children's non-empty spans, by start
        self.ends: dict[int | None, list[int]] = {}  # and their ends, in the same order
        self.points: dict[int | None, list[tuple[int, int]]] = {}  # parent -> (place, mark) of its empty children

    def free_pieces(self, parent: int | None, span: Span) -> tuple[list[Span], int | None]:
        starts, ends = self.starts.get(parent, []), self.ends.get(parent, [])
        first, after = bisect_right(ends, span[0]), bisect_left(starts, span[1])  # the siblings it overlaps
        pieces, start = [], span[0]
        for k in range(first, after):
            pieces.append((start, starts[k]))
            start = ends[k]
        pieces.append((start, span[1]))
        return [p for p in pieces if p[0] < p[1]], ends[after - 1] if after > first else None

    def add(self, j: int) -> None:
        parent, (s, e) = self.marks[j].parent, self.spans[j]
        self.children.setdefault(parent, []).append(j)
        starts, ends = self.starts.setdefault(parent, []), self.ends.setdefault(parent, [])
        points = self.points.setdefault(parent, [])
        if s < e:
            for p, k in points[bisect_left(points, (s + 1,)):bisect_left(points, (e,))]:
                self.move(k, s if p - s <= e - p else e)
            at = bisect_left(starts, s)
            starts.insert(at, s)
            ends.insert(at, e)
            return
        insort(points, (s, j))
        before = bisect_left(starts, s) - 1  # the sibling that starts last before it
        if before >= 0 and s < ends[before]:
            self.move(j, starts[before] if s - starts[before] <= ends[before] - s else ends[before])

    def move(self, k: int, edge: int) -> None:
        """Point k to ``edge``, with everything nested in it (all points at its place)."""
        stack = [k]
        while stack:
            m = stack.pop()
            points = self.points[self.marks[m].parent]
            del points[bisect_left(points, (self.spans[m][0], m))]
            self.spans[m] = (edge, edge)
            insort(points, (edge, m))
            stack.extend(self.children.get(m, []))


def free_pieces(span: Span, taken: list[Span]) -> list[Span]:
    """The parts of ``span`` that overlap none of ``taken``, in order; [] if nothing is left."""
    pieces = [span]
    for ts, te in taken:
        pieces = [piece for s, e in pieces for piece in ((s, min(e, ts)), (max(s, te), e)) if piece[0] < piece[1]]
    return sorted(pieces)


def held_piece(pieces: Sequence[Span], attention: Callable[[], Sequence[tuple[int, float]]]) -> Span | None:
    """Of the free ``pieces`` of a mark's span, the one that holds its words' translation: the one whose target
    words give the mark's source words the most attention (``attention()``: the start of each target word, and
    the attention it gives them: attnmt.documents.spans.Projector.attention), else the longest; the first of
    equals.  The longest alone took the wrong side of a sibling where a stray link stretched the span that way:
    ``Child playing on a <b>playground</b>, <i>hanging from bars</i>.`` -> ``Ein Kind spielt <i>auf einem</i>
    <b>Spielplatz</b> von Barn.`` ("auf" attends to "from" a shade more than to "on"), now ``<i>von Barn</i>``."""
    if len(pieces) < 2:
        return pieces[0] if pieces else None
    weights = attention()
    return max(pieces, key=lambda piece: (sum(w for at, w in weights if piece[0] <= at < piece[1]),
                                          piece[1] - piece[0]))


def move_out(spans: list[Span], a: int, b: int, marks: Sequence[Mark]) -> None:
    """A point strictly inside a sibling's span moves to that span's nearer edge, with whatever
    is nested in it (all points at the same place)."""
    for point, other in ((a, b), (b, a)):
        p, (s, e) = spans[point][0], spans[other]
        if spans[point][0] == spans[point][1] and s < p < e:
            edge = s if p - s <= e - p else e
            for k in range(point, len(spans)):
                if k == point or is_inside(marks, k, point):
                    spans[k] = (edge, edge)
