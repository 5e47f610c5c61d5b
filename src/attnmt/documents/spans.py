"""Marks on a flat text, carried onto its translation by word alignments.

A block of a document becomes one *flat text* (the words a reader sees, markup taken
out: attnmt.documents.flat) and a list of *marks*: each inline element is a span [start, end) of that text,
and each thing kept as it is (a ``<br/>``, inline ``<code>``, a URL) is an *atom* at
one position.  The text is cut into sentences, each sentence is translated, and
each mark is put back on the translation by the rules below (docs/documents.md
gives them with examples):

1. Words.  A mark covers the source words it overlaps (a tag inside a word covers the whole
   word, unless the translation writes that word unchanged as the one word aligned to it:
   ``H<sub>2</sub>O`` keeps its place in ``H2O``, attnmt.documents.kept_words; one over punctuation
   glued to a word alone goes over that punctuation of the target word, else is a point).  Its
   translation runs from the first to the last of the target words aligned to those words: each
   target word whose cross-attention goes most to one of them, and the target word that gives
   them, together, the most attention (the second catches a word whose own attention looked one
   word off); trailing or leading punctuation of that stretch is left outside unless the marked
   source text had punctuation there too.  A mark over whole sentences covers their whole
   translations (no alignment needed).
2. Points.  An atom, or an element around nothing (or whose words were aligned to nothing), goes before the first
   target word aligned to the source word that followed it (with none, the target word attending most to that word);
   atoms glued to a word's end alone (``bench<a>[1]</a>.``), and those only spaces after them, after the letters of
   the last target word aligned to its letters (``Bank<a>[1]</a>.``: attnmt.documents.glued_points); inside a word,
   before its closing quotes and brackets alone, before those of that word's translation (``"yes<b>.</b>" and`` ->
   ``„ja<b>.</b>“ und``), in a word written unchanged at its place; after the last word of a sentence, at the end of
   its translation (before the quotes and brackets that close it, where the source has it before them), at its place
   in the spacing after it (the source's: attnmt.documents.sentence_gaps).  A line break or a tab that had no space
   beside it takes the place of the space between the target words either side.
3. Nesting.  Marks are placed parents first: a child is cut to its parent's span, and a point at its parent's
   end in the source stays at its end; a sibling is cut so as not to overlap an earlier sibling (keeping the
   longest free piece; left with nothing, it goes right after them, empty), and a point inside a sibling moves
   to that sibling's nearer edge.  The end of a range (a comment's anchor, a bookmark, an XLIFF <ept>) that
   would come before its start changes places with it, in whatever elements the two stand
   (attnmt.documents.range_order).  So the output nests properly whatever the alignments say, and every
   element appears exactly once, with its attributes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from attnmt.documents.atom_spacing import AtomRuns, would_glue
from attnmt.documents.bidi import held
from attnmt.documents.flat import FlatText, Mark, closing_length, is_punctuation
from attnmt.documents.glued_points import glued_point
from attnmt.documents.kept_words import glued_side, in_kept_word, kept_point, on_glued
from attnmt.documents.range_order import children_of, keep_ranges_in_order, written_order
from attnmt.documents.sentence_gaps import sentence_gap
from attnmt.documents.span_geometry import edge_spaces, free_piece, hoist_spaces, move_out, strip_span

WORD = re.compile(r"\S+")

# One sentence's cross-attention between words, [target word][source word] (attnmt.inspect.align.word_weights).
Weights = Sequence[Sequence[float]]


def identity(n: int) -> Weights:
    """The weights of a sentence that is its own translation: each word attends to itself."""
    return [[float(s == t) for s in range(n)] for t in range(n)]


def needs_alignment(flat: FlatText, sentence: tuple[int, int]) -> bool:
    """Whether some mark starts, ends or sits strictly inside this sentence (else whole sentences
    map onto whole translations and no alignment is needed)."""
    start, end = sentence
    return any(start < edge < end for m in flat.marks for edge in (m.start, m.end))


@dataclass
class Placement:
    """The translation of one FlatText and where each of its marks went: spans[i] is mark i's
    [start, end) in ``text`` (start == end: a point), parents[i] the mark it is written in (its
    source parent, but for a range's ends that changed places: each other's)."""

    text: str
    spans: list[tuple[int, int]]
    parents: list[int | None]


class Projector:
    """Maps one FlatText's marks onto its sentences' translations (rules 1 and 2 of the module)."""

    def __init__(self, flat: FlatText, sentences: Sequence[tuple[int, int]], translations: Sequence[str],
                 alignments: Sequence[Weights | None]) -> None:
        self.flat, self.sentences = flat, list(sentences)
        source = flat.text
        parts, self.target_spans = [], []
        position = 0
        for (start, end), translation in zip(sentences, translations, strict=True):
            parts.append(sentence_gap(source, position, start, parts[-1] if parts else "", translation))
            offset = sum(map(len, parts))
            self.target_spans.append((offset, offset + len(translation)))
            parts.append(translation)
            position = end
        parts.append(source[position:])
        self.target = "".join(parts)
        self.source_words = [[(m.start() + s, m.end() + s) for m in WORD.finditer(source[s:e])]
                             for s, e in sentences]
        self.target_words = [[(m.start() + s, m.end() + s) for m in WORD.finditer(self.target[s:e])]
                             for s, e in self.target_spans]
        # Word counts as the tokenizer saw them may differ from whitespace words in odd text: cut to both.
        self.weights = [[list(row[: len(self.source_words[i])]) for row in (weights or [])[: len(self.target_words[i])]]
                        for i, weights in enumerate(alignments)]
        self.links = [self._links(weights) for weights in self.weights]

    @staticmethod
    def _links(weights: list[list[float]]) -> dict[int, list[int]]:
        """source word -> the target words that attend to it most (each target word's argmax)."""
        links: dict[int, list[int]] = {}
        for t, row in enumerate(weights):
            if row and max(row) > 0:
                links.setdefault(row.index(max(row)), []).append(t)
        return links

    def most_attending(self, i: int, words: Sequence[int]) -> int | None:
        """The target word of sentence i that gives ``words`` the most attention (None: none gives any)."""
        # A row can be shorter than the sentence's words: the model truncated an over-long sentence.
        mass = [sum(row[k] for k in words if k < len(row)) for row in self.weights[i]]
        return mass.index(max(mass)) if mass and max(mass) > 0 else None

    def aligned(self, i: int, words: Sequence[int]) -> list[int]:
        """Sentence i's target words aligned to source ``words``, in order (rule 1)."""
        best = self.most_attending(i, words)
        return sorted({t for k in words for t in self.links[i].get(k, ())} | ({best} if best is not None else set()))

    def span(self, mark: Mark) -> tuple[int, int] | None:
        """Rule 1: the target stretch of a mark over text, or None (no aligned word)."""
        stretches = []  # (start, end, whether a whole sentence's translation)
        for i, (s, e) in enumerate(self.sentences):
            words = [k for k, (ws, we) in enumerate(self.source_words[i]) if ws < mark.end and we > mark.start]
            if not words:
                continue
            if len(words) == len(self.source_words[i]) and mark.start <= s and mark.end >= e:
                stretches.append((*self.target_spans[i], True))
                continue
            targets, word = self.aligned(i, words), self.source_words[i][words[0]]
            aligned = [self.target_words[i][t] for t in targets]
            if side := glued_side(self.flat.text, word, (mark.start, mark.end)):  # punctuation glued to one word
                return on_glued(self.flat.text, word, side, self.target, aligned, (mark.start, mark.end))
            if len(words) == len(targets) == 1:  # one word to one: a word kept unchanged keeps the mark's place
                stretches.append((*in_kept_word(self.flat.text, word, self.target, aligned[0], (mark.start, mark.end)),
                                  False))
            elif targets:
                stretches.append((self.target_words[i][targets[0]][0], self.target_words[i][targets[-1]][1], False))
        if not stretches:
            return None
        first, last = min(stretches), max(stretches, key=lambda stretch: stretch[1])
        start, end = self._trim_punctuation(mark, first[0], last[1])
        # a whole sentence's translation keeps the punctuation the model ended (or began) it with
        return self.held_controls(mark, first[0] if first[2] else start, last[1] if last[2] else end)

    def held_controls(self, mark: Mark, start: int, end: int) -> tuple[int, int]:
        """[start, end) widened over the bidirectional controls the mark holds at the edges of the
        sentences whose translations it starts or ends with (attnmt.documents.bidi.held): the
        spacing around a translation is the source's, so they stand there as they did."""
        bounds = [0] + [e for _, e in self.sentences] + [len(self.flat.text)]
        for i, ((s, e), (ts, te)) in enumerate(zip(self.sentences, self.target_spans, strict=True)):
            if ts == start:
                start -= s - held(self.flat.text, s, max(mark.start, bounds[i]), -1)
            if te == end:
                following = self.sentences[i + 1][0] if i + 1 < len(self.sentences) else bounds[-1]
                end += held(self.flat.text, e, min(mark.end, following), 1) - e
        return start, end

    def _trim_punctuation(self, mark: Mark, start: int, end: int) -> tuple[int, int]:
        marked = self.flat.text[mark.start:mark.end].strip()
        if marked and not is_punctuation(marked[-1]):
            while end - start > 1 and is_punctuation(self.target[end - 1]):
                end -= 1
        if marked and not is_punctuation(marked[0]):
            while end - start > 1 and is_punctuation(self.target[start]):
                start += 1
        return start, end

    def point(self, position: int) -> int:
        """Rule 2: where something at source ``position`` goes in the target."""
        before = [i for i, (s, e) in enumerate(self.sentences) if e <= position]
        inside = [i for i, (s, e) in enumerate(self.sentences) if s < position < e]
        if not inside:  # in the spacing around sentences, which the translation keeps as it was: its place there
            if before:
                return self.target_spans[before[-1]][1] + position - self.sentences[before[-1]][1]
            return position if self.sentences else len(self.target)
        i = inside[0]
        following = [k for k, (ws, _) in enumerate(self.source_words[i]) if ws >= position]
        closed = self.inside_closing(i, position) if following else None
        inside_word = [k for k, (ws, we) in enumerate(self.source_words[i]) if ws < position < we]
        if closed is None and inside_word:  # a word the translation writes unchanged keeps it in its place
            closed = kept_point(self.flat.text, self.source_words[i][inside_word[0]], self.target,
                                [self.target_words[i][t] for t in self.aligned(i, inside_word)], position)
        if closed is None:
            closed = glued_point(self.flat, self.source_words[i], self.target, self.target_words[i],
                                 lambda words: self.aligned(i, words), position)
        if closed is not None:
            return closed
        for k in following:
            best = self.most_attending(i, [k])
            if k in self.links[i] or best is not None:
                return self.target_words[i][min(self.links[i].get(k, [best]))][0]
        return self.before_closing(i, position)

    def inside_closing(self, i: int, position: int) -> int | None:
        """Where something at ``position`` inside a source word of sentence i, with only that word's
        closing quotes and brackets after it (a stop kept in ``said "yes<b>.</b>" and``), goes: before
        as many of those as the target word aligned to that word ends with (``sagte „ja<b>.</b>“
        und``, and before a comma after them: ``„Ja<b>.</b>“, sagte er``), not out of them before the
        next word.  None where it stands in no such word, or no target word aligned to it ends with
        a quote or a bracket."""
        for k, (ws, we) in enumerate(self.source_words[i]):
            rest = self.flat.text[position:we]
            if not ws < position < we or closing_length(rest) != len(rest):
                continue
            for t in self.aligned(i, [k]):
                ts, te = self.target_words[i][t]
                te = ts + len(self.target[ts:te].rstrip(",;:"))
                closing = min(closing_length(self.target[ts:te]), len(rest))
                if 0 < closing < te - ts:  # a word of quotes alone ("»«", a URL between them) counts too
                    return te - closing
        return None

    def before_closing(self, i: int, position: int) -> int:
        """The end of sentence i's translation, before as many of the quotes and brackets that close
        it as the source has after ``position`` (a stop kept in ``"A dog runs<b>.</b>"`` stays inside
        the quotes: ``"Ein Hund rennt<b>.</b>"``); the very end where the source has none there."""
        start, end = self.target_spans[i]
        after = self.flat.text[position:self.sentences[i][1]]
        if closing_length(after) != len(after):
            return end
        closing = closing_length(self.target[start:end])
        return end - min(closing, len(after)) if after else end


def place(flat: FlatText, sentences: Sequence[tuple[int, int]], translations: Sequence[str],
          alignments: Sequence[Weights | None]) -> Placement:
    """Every mark's span on the joined translation, properly nested (rule 3 of the module).

    sentences: [start, end) of each sentence in flat.text (whitespace between them is kept);
    translations: one per sentence; alignments: one per sentence, None where
    ``needs_alignment`` is false."""
    projector = Projector(flat, sentences, translations, alignments)
    spans: list[tuple[int, int]] = []
    siblings: dict[int | None, list[int]] = {}
    for j, mark in enumerate(flat.marks):
        raw = None if mark.atom or mark.start == mark.end else projector.span(mark)
        bounds = spans[mark.parent] if mark.parent is not None else (0, len(projector.target))
        taken = [spans[k] for k in siblings.get(mark.parent, []) if spans[k][0] < spans[k][1]]
        p = None
        if raw is not None:
            clipped = (max(raw[0], bounds[0]), min(raw[1], bounds[1]))
            blocking = [e for s, e in taken if s < clipped[1] and e > clipped[0]]
            raw = free_piece(clipped, taken)
            raw = None if raw is None else strip_span(projector.target, raw)
            if raw is None and blocking:  # emptied by earlier siblings: it goes right after them
                p = max(blocking)
        if raw is None:
            if p is None:  # rule 2; a point at its parent's end (a ruby's <rt> after its base) stays there
                at_end = mark.parent is not None and mark.end == flat.marks[mark.parent].end
                p = bounds[1] if at_end else projector.point(mark.end)
            p = min(max(p, bounds[0]), bounds[1])
            raw = (p, p)
        spans.append(raw)
        for k in siblings.get(mark.parent, []):
            move_out(spans, k, j, flat.marks)
        siblings.setdefault(mark.parent, []).append(j)
    parents = [mark.parent for mark in flat.marks]
    keep_ranges_in_order(flat.marks, spans, parents)  # the words of a range can come back in another order
    return Placement(projector.target, spans, parents)


@dataclass
class Nested:
    """A placed mark and what it holds: text and further Nested marks, in order."""

    mark: int
    content: list[str | Nested]


def nest(flat: FlatText, placement: Placement) -> list[str | Nested]:
    """The translation as text and Nested marks, ready to become markup again; atoms come with
    the spaces they had around them in the source, and a mark's edge spaces go outside it
    (hoist_spaces) unless it keeps them (keep_edge_spaces)."""
    children = children_of(placement.parents)
    runs = AtomRuns(flat.marks, placement.spans, placement.parents, len(placement.text))
    content = _fill(flat, placement, children, runs, None, 0, len(placement.text))
    part_words_in_place(flat, content)
    keep_edge_spaces(flat, content)
    return content


def _fill(flat: FlatText, placement: Placement, children: dict[int | None, list[int]], runs: AtomRuns,
          parent: int | None, start: int, end: int) -> list[str | Nested]:
    text, spans = placement.text, placement.spans
    order = written_order(children.get(parent, []), spans)
    content: list[str | Nested] = []
    position = start
    i = 0
    while i < len(order):
        k = order[i]
        s, e = spans[k]
        content.append(text[position:s])
        if flat.marks[k].atom:  # with the atoms right after it at the same place (and those it touched: AtomRuns)
            group = [k]
            while i + 1 < len(order) and flat.marks[order[i + 1]].atom and spans[order[i + 1]][0] == s:
                i += 1
                group.append(order[i])
            atoms = [flat.marks[g] for g in group]
            drop, before, after, skip = runs.spaces(text, group, content[-1][-1:] == " ")
            if drop:
                content[-1] = content[-1][:-1]
            content.append(before)
            for j, (g, mark) in enumerate(zip(group, atoms, strict=True)):
                if j and atoms[j - 1].space_after and mark.space_before:
                    content.append(" ")  # two URLs a space apart in the source stay apart
                content.append(mark.literal if mark.node is None else Nested(g, []))
            content.append(after)
            e = s + skip
        else:
            inner = _fill(flat, placement, children, runs, k, s, e)
            before, inner, after = hoist_spaces(inner)
            content.extend([before, Nested(k, inner), after])
        position = e
        i += 1
    content.append(text[position:end])
    return [piece for piece in content if piece != ""]


def keep_edge_spaces(flat: FlatText, content: list[str | Nested]) -> None:
    """The whitespace right beside a mark that keeps its edge spaces (Mark.keeps_edge_spaces) moved
    into it, at each edge where its source had whitespace (edge_spaces): an OOXML container, whose
    spaces are its content (a tracked insertion's), or a run whose base look shows on a space (an
    underline), where a space outside took that look (underlined ``2012`` and plain `` €``:
    ``<u>zweitausendzwölf</u> Euro``).  Every other mark's spaces stay outside it.  From the outside
    in: a space taken into a container goes on into the mark at its edge that keeps its spaces too
    (a content control's ``w:sdtContent``, a run that had it in the source).  In place."""
    for at, piece in enumerate(content):
        if isinstance(piece, str):
            continue
        mark = flat.marks[piece.mark]
        # A mark that got no words takes no space either (an empty tracked insertion stays empty),
        # unless its source was spaces alone: a run of a space that takes its space back keeps its look.
        keeps = mark.keeps_edge_spaces and (bool(piece.content) or not flat.text[mark.start:mark.end].strip())
        lead, trail = edge_spaces(flat.text, flat.marks, piece.mark) if keeps else (False, False)
        before, after = content[at - 1] if at else None, content[at + 1] if at + 1 < len(content) else None
        if lead and isinstance(before, str) and before[-1:].isspace():
            content[at - 1] = before.rstrip()
            piece.content.insert(0, before[len(content[at - 1]):])
        if trail and isinstance(after, str) and after[:1].isspace():
            content[at + 1] = after.lstrip()
            piece.content.append(after[:len(after) - len(content[at + 1])])
        keep_edge_spaces(flat, piece.content)
    content[:] = [piece for piece in content if piece != ""]


def part_words_in_place(flat: FlatText, content: list[str | Nested]) -> None:
    """A line break or a tab that had no space beside it in the source takes the place of the
    target's space between the words either side ("results<br/>for", not "results <br/>for";
    "Name:<tab/>John", not "Name:<tab/> John"), wherever that space is: in the break's own run,
    or, where the formatting changes at the break, in the text around that run.  Not where an atom
    that shows text would then touch a word it did not touch in the source (would_glue).  In place."""
    leaves: list[tuple[list[str | Nested], int]] = []  # every text and atom, in document order

    def walk(pieces: list[str | Nested]) -> None:
        for i, piece in enumerate(pieces):
            if isinstance(piece, str) or flat.marks[piece.mark].atom:
                leaves.append((pieces, i))
            else:
                walk(piece.content)

    def text_beside(n: int, step: int) -> str:  # from leaf n outward, up to the next atom
        texts = []
        while 0 <= n < len(leaves) and isinstance(text := leaves[n][0][leaves[n][1]], str):
            texts.append(text)
            n += step
        return "".join(texts[::step])

    walk(content)
    for n, (pieces, i) in enumerate(leaves):
        piece = pieces[i]
        mark = None if isinstance(piece, str) else flat.marks[piece.mark]
        if mark is None or not mark.parts_words:
            continue
        for neighbour, before in ((n - 1, True), (n + 1, False)):
            if 0 <= neighbour < len(leaves) and not (mark.space_before if before else mark.space_after):
                holder, k = leaves[neighbour]
                text = holder[k]
                if not isinstance(text, str) or would_glue(mark, text_beside(neighbour, -1 if before else 1).strip(" "),
                                                           before):
                    continue
                if before and text.endswith(" "):
                    holder[k] = text[:-1]
                elif not before and text.startswith(" "):
                    holder[k] = text[1:]
    for pieces, _ in leaves:
        pieces[:] = [piece for piece in pieces if piece != ""]


def plain(content: Sequence[str | Nested]) -> str:
    """Nested content as text: element markup dropped, literal atoms kept."""
    return "".join(piece if isinstance(piece, str) else plain(piece.content) for piece in content)
