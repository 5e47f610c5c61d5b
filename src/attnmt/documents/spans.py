"""Marks on a flat text, carried onto its translation by word alignments.

A block of a document becomes one *flat text* (the words a reader sees, markup taken
out: attnmt.documents.flat) and a list of *marks*: each inline element is a span [start, end) of that text,
and each thing kept as it is (a ``<br/>``, inline ``<code>``, a URL) is an *atom* at
one position.  The text is cut into sentences, each sentence is translated, and
each mark is put back on the translation by the rules below (docs/documents.md
gives them with examples):

1. Words.  A mark covers the source words it overlaps (a tag inside a word covers the whole word, unless the translation
   writes that word unchanged: ``H<sub>2</sub>O`` keeps its place in its copy, ``H2O``, and a mark over a word or part
   of one goes on one target word, attnmt.documents.copied_words; one between punctuation inside the word its part of a
   target word with that punctuation, ``[<a>1</a>](y)``, attnmt.documents.kept_words; one inside a word of a script
   written without spaces, ``这是<b>重要</b>的句子``, its proportional place in the word's translation,
   attnmt.documents.unspaced_marks; one over an ordinal's ending, ``XIX<sup>e</sup>``, the ending of the translation's
   ordinal, ``19<sup>th</sup>``, or none, attnmt.documents.ordinal_marks; one over punctuation glued to a word alone
   goes over that punctuation of the target word, else is a point; a drop cap, a block's first letters, goes over as
   many of its translation's first: attnmt.documents.markup_dropcaps).  Its translation runs from the first to the last
   of the target words aligned to those words: each target word whose cross-attention goes most to one of them, and the
   target word that gives them, together, the most attention (the second catches a word whose own attention looked one
   word off; not one that attends mostly to a word far from them, a dropped word's: attnmt.documents.dropped_words;
   nor a first word written looking ahead for the word before them, an article: attnmt.documents.looking_ahead;
   nor articles and prepositions alone that translate none of them, or after them: attnmt.documents.function_marks);
   trailing or leading punctuation of that stretch is left outside unless the marked source text had punctuation
   there too.  A mark over whole sentences covers their whole translations (no alignment needed); a link whose words
   were aligned to nothing, the target word that gives them the most attention (attnmt.documents.links).
2. Points.  An atom, or an element around nothing (or whose words were aligned to nothing), goes before the first
   target word aligned to the source word that followed it (with none, the target word attending most to that word,
   but one that attends mostly to a word far from it: then the next word's);
   atoms glued to a word's end alone (``bench<a>[1]</a>.``), and those only spaces after them, after the letters of
   the last target word aligned to its letters (``Bank<a>[1]</a>.``: attnmt.documents.glued_points); inside a word,
   before its closing quotes and brackets alone, before those of that word's translation (``"yes<b>.</b>" and`` ->
   ``„ja<b>.</b>“ und``), in a word written unchanged at its place; with only a sentence's stop after them, before
   the stop its translation ends with (attnmt.documents.final_stops; a number a space after the word it numbers, after
   that word's translation: attnmt.documents.numbered_words); after the last word of a sentence, at the end of
   its translation (before the quotes and brackets that close it, and its stop, where the source has it before them),
   at its place in the spacing after it (the source's: attnmt.documents.sentence_gaps).  A line break or a tab that
   had no space beside it takes the place of the space between the target words either side.  A range's start and end (a
   comment's anchor, a bookmark) go around the translation of the words between them, as a mark over them does
   (attnmt.documents.range_order.range_points).
3. Nesting.  Marks are placed parents first: a child is cut to its parent's span, and a point at its parent's
   end in the source stays at its end; a sibling is cut so as not to overlap an earlier sibling (keeping the
   free piece that holds its words' translation, by attention, else the longest: siblings.held_piece; left with
   nothing, it goes right after them, empty, but a link around them: attnmt.documents.links, or beside a link that
   holds its word: attnmt.documents.shared_links), and a point inside a sibling moves to that sibling's nearer
   edge.  The end of a range (a comment's anchor, a bookmark, an XLIFF <ept>) that would come before its start
   changes places with it, in whatever elements the two stand
   (attnmt.documents.range_order).  So the output nests properly whatever the alignments say, and every
   element appears exactly once, with its attributes (then written as nested content: attnmt.documents.nesting),
   but one over a sentence end whose words went apart, parted into one per sentence before it is placed
   (attnmt.documents.sentence_marks).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from attnmt.documents.attention_given import given
from attnmt.documents.bidi import controls_between, held
from attnmt.documents.copied_results import copied_span
from attnmt.documents.copied_words import Copies, kept_target, one_target
from attnmt.documents.dropped_words import attends_elsewhere, spread, strongest
from attnmt.documents.final_stops import before_sentence_stop, final_stop_point
from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.function_marks import clicked_word, translating
from attnmt.documents.glued_points import atoms_by_position, glued_point
from attnmt.documents.inner_breaks import inner_break_points, lone_break
from attnmt.documents.kept_words import SameParts, glued_side, in_kept_word, kept_point, on_glued
from attnmt.documents.links import around_held_words, clickable, clicked_words, is_worded_link
from attnmt.documents.looking_ahead import own_targets
from attnmt.documents.no_break_spaces import with_no_break_spaces
from attnmt.documents.numbered_words import numbered_point
from attnmt.documents.ordinal_marks import ending_in, ordinal_number
from attnmt.documents.range_order import keep_ranges_in_order, range_points
from attnmt.documents.running_sums import RunningSums
from attnmt.documents.sentence_gaps import sentence_gap
from attnmt.documents.shared_links import share_word
from attnmt.documents.siblings import SortedSiblings, held_piece
from attnmt.documents.span_geometry import Placement, initial_span, strip_span, trim_punctuation
from attnmt.documents.unspaced_marks import mark_edges, part_in_word
from attnmt.documents.word_breaks import break_in_word, is_word_break
from attnmt.text.sentence_ends import closing_length

WORD = re.compile(r"\S+")

# One sentence's cross-attention between words, [target word][source word] (attnmt.inspect.align.word_weights).
Weights = Sequence[Sequence[float]]


def identity(n: int) -> Weights:
    """The weights of a sentence that is its own translation: each word attends to itself."""
    return [[float(s == t) for s in range(n)] for t in range(n)]


class Projector:
    """Maps one FlatText's marks onto its sentences' translations (rules 1 and 2 of the module)."""

    def __init__(self, flat: FlatText, sentences: Sequence[tuple[int, int]], translations: Sequence[str],
                 alignments: Sequence[Weights | None]) -> None:
        self.flat, self.sentences = flat, list(sentences)
        source = flat.text
        parts, self.target_spans, position = [], [], 0
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
        self.links, self.running = [self._links(w) for w in self.weights], [RunningSums(w) for w in self.weights]
        # Looked up by bisection, so that a mark finds its words without going through every word of the text.
        self.sentence_starts, self.sentence_ends = [s for s, _ in sentences], [e for _, e in sentences]
        self.target_starts, self.target_ends = [s for s, _ in self.target_spans], [e for _, e in self.target_spans]
        self.word_starts = [[start for start, _ in words] for words in self.source_words]
        self.word_ends = [[end for _, end in words] for words in self.source_words]
        self.one_word_best: dict[int, list[int | None]] = {}  # sentence -> most_attending of each word alone
        self.atoms, self.glued = atoms_by_position(flat), mark_edges(flat.marks)
        self.same_parts = SameParts(source, self.target)  # each word's parts found once, for all its marks
        self.copies = Copies(self.target, self.target_words)  # each sentence's words by their letters

    @staticmethod
    def _links(weights: list[list[float]]) -> dict[int, list[int]]:
        """source word -> the target words that attend to it most (their argmax), not those whose attention spreads."""
        links: dict[int, list[int]] = {}
        for t, row in enumerate(weights):
            if row and max(row) > 0 and not spread(row):
                links.setdefault(row.index(max(row)), []).append(t)
        return links

    def most_attending(self, i: int, words: Sequence[int]) -> int | None:
        """The target word of sentence i that gives ``words`` the most attention (None: none gives any)."""
        if len(words) == 1 and words[0] < len(self.source_words[i]):  # most marks: one word's, found for all at once
            if i not in self.one_word_best:  # each word's column of the weights, a short row read as 0 there
                width = len(self.source_words[i])
                columns = zip(*[row + [0] * (width - len(row)) for row in self.weights[i]], strict=True)
                self.one_word_best[i] = [strongest(column) for column in columns] or [None] * width
            return self.one_word_best[i][words[0]]
        return self.running[i].strongest(words)  # given: a truncated row too

    def aligned(self, i: int, words: Sequence[int]) -> list[int]:
        """Sentence i's target words aligned to source ``words``, in order (rule 1)."""
        best = self.most_attending(i, words)
        if best is not None and attends_elsewhere(self.weights[i][best], words):  # a dropped word's: not its own
            best = None
        return sorted({t for k in words for t in self.links[i].get(k, ())} | ({best} if best is not None else set()))

    def words(self, mark: Mark) -> Iterator[tuple[int, list[int]]]:
        """(sentence, the words of it that ``mark`` overlaps) for each sentence it reaches into."""
        for i in range(bisect_right(self.sentence_ends, mark.start), bisect_left(self.sentence_starts, mark.end)):
            yield i, list(range(bisect_right(self.word_ends[i], mark.start),
                                bisect_left(self.word_starts[i], mark.end)))

    def attention(self, mark: Mark) -> list[tuple[int, float]]:
        """(start, attention) of each target word of the sentences ``mark`` reaches into: the attention it gives
        the source words the mark overlaps (none where the sentence needed no alignment)."""
        return [(start, given(row, words))
                for i, words in self.words(mark)  # a sentence without weights has none of its words
                for (start, _), row in zip(self.target_words[i], self.weights[i], strict=False)]

    def span(self, mark: Mark) -> tuple[int, int] | None:
        """Rule 1: the target stretch of a mark over text, or None (no aligned word)."""
        stretches = []  # (start, end, whether a whole sentence's translation)
        for i, words in self.words(mark):
            s, e = self.sentences[i]
            if not words:
                continue
            if len(words) == len(self.source_words[i]) and mark.start <= s and mark.end >= e:
                stretches.append((*self.target_spans[i], True))
                continue
            if mark.kept_whole:  # an abbreviation: over its copy, else at a point (copied_words.kept_target)
                stretches += kept_target(self.copies, i, self.flat.text, (mark.start, mark.end), self.aligned(i, words),
                                         self.most_attending(i, words), self.sentences[i])
                continue
            own = own_targets(self.weights[i], words, self.aligned(i, words), self.target, self.target_words[i])
            targets = translating(self.weights[i], words, own, self.target, self.target_words[i], self.flat.text,
                                  self.source_words[i]) or clicked_word(self.weights[i], words, own, self.target,
                                                                        self.target_words[i])
            word, edges = self.source_words[i][words[0]], (mark.start, mark.end)
            aligned = [self.target_words[i][t] for t in targets]
            if side := glued_side(self.flat.text, word, edges):  # punctuation glued to one word
                return on_glued(self.flat.text, word, side, self.target, aligned, edges)
            if len(words) == 1 and (number := ordinal_number(self.flat.text, word, edges)) is not None:
                ending = ending_in(self.target, self.target_words[i], targets, number)  # "XIX<sup>e</sup>"
                stretches += [] if ending is None else [(*ending, False)]  # none: left empty (ordinal_marks)
                continue
            part = part_in_word(self.flat.text, word, edges, self.target, aligned, self.glued) \
                if len(words) == 1 else None
            one = None if part is not None or len(words) > 1 else one_target(
                self.copies, i, self.flat.text, word, edges, targets, self.most_attending(i, words))
            if part is not None:  # inside a Chinese or Thai word, or one glued from two marks: its proportional place
                stretches.append((*part, False))
            elif one is not None:  # one target word or its part: a copy keeps the mark's place (copied_words)
                stretches.append((*in_kept_word(self.same_parts, word, one, edges), False))
            elif targets:
                stretches.append((*self.over_words(i, words, targets, mark), False))
        if not stretches:  # none of its words reached the translation, or it holds none: controls around an atom
            return (self.point(mark.start), self.point(mark.end)) if controls_between(self.flat.text, mark) else None
        first, last = min(stretches), max(stretches, key=lambda stretch: stretch[1])
        start, end = trim_punctuation(self.flat.text[mark.start:mark.end].strip(), self.target, first[0], last[1])
        # a whole sentence's translation keeps the punctuation the model ended (or began) it with
        return self.held_controls(mark, first[0] if first[2] else start, last[1] if last[2] else end)

    def over_words(self, i: int, words: list[int], targets: list[int], mark: Mark) -> tuple[int, int]:
        """Rule 1 for a mark over several source ``words`` of sentence i: from the first of its ``targets``
        to the last; an edge between letters and punctuation inside the first (last) source word keeps
        to the same part of that word's own one target word where it stands there (SameParts: the link
        of ``[[b c](x)](y)`` over ``[B C](Y)``'s ``B C``, not ``B C](Y``), or, in a word written unchanged, to its
        place in it where the words went to several (``apart``: SameParts.place's ``keeps``)."""
        (start, _), (_, end) = self.target_words[i][targets[0]], self.target_words[i][targets[-1]]
        first, last, apart = self.source_words[i][words[0]], self.source_words[i][words[-1]], len(targets) > 1
        if first[0] < mark.start and self.aligned(i, words[:1]) == targets[:1]:
            placed = self.same_parts.place(first, self.target_words[i][targets[0]], (mark.start, first[1]), apart)
            start = placed[0] if placed else start
        if mark.end < last[1] and self.aligned(i, words[-1:]) == targets[-1:]:
            placed = self.same_parts.place(last, self.target_words[i][targets[-1]], (last[0], mark.end), apart)
            end = placed[1] if placed else end
        return start, end

    def with_atom_spaces(self, mark: Mark, span: tuple[int, int] | None) -> tuple[int, int] | None:
        """``span`` (the mark's, stripped), starting where a sentence's translation does, widened back over
        the whitespace before that sentence that the mark holds after an atom of its own (``<g>{0}  items</g>``):
        whitespace alone goes out of an element, and at a block's edge it was dropped ("{0} items")."""
        i = bisect_left(self.sentence_starts, mark.start)
        if span is None or i == len(self.sentences) or span[0] != self.target_spans[i][0]:
            return span
        s = self.sentences[i][0]
        at = next((k for k in range(mark.start, s) if k in self.atoms), None)
        if at is None or self.flat.text[at:s].strip() or span[0] < s - at \
                or not self.target[span[0] - (s - at):span[0]].isspace():
            return span  # (the gap between two sentences may be written otherwise: sentence_gaps)
        return span[0] - (s - at), span[1]

    def held_controls(self, mark: Mark, start: int, end: int) -> tuple[int, int]:
        """[start, end) widened over the bidirectional controls the mark holds at the edges of the
        sentences whose translations it starts or ends with (attnmt.documents.bidi.held): the
        spacing around a translation is the source's, so they stand there as they did."""
        # Translations are in order, so only those found by bisection can start at ``start`` or end at ``end``;
        # each widening is seen by the next translation, which may start or end where the last one did.
        i = bisect_left(self.target_starts, start)
        while i < len(self.sentences) and self.target_starts[i] <= start:
            if self.target_starts[i] == start:
                s = self.sentences[i][0]
                start -= s - held(self.flat.text, s, max(mark.start, self.sentences[i - 1][1] if i else 0), -1)
            i += 1
        i = bisect_left(self.target_ends, end)
        while i < len(self.sentences) and self.target_ends[i] <= end:
            if self.target_ends[i] == end:
                e = self.sentences[i][1]
                following = self.sentences[i + 1][0] if i + 1 < len(self.sentences) else len(self.flat.text)
                end += held(self.flat.text, e, min(mark.end, following), 1) - e
            i += 1
        return start, end

    def point(self, position: int) -> int:
        """Rule 2: where something at source ``position`` goes in the target."""
        i = bisect_right(self.sentence_ends, position)  # the one sentence that can hold it: found by bisection
        if i == len(self.sentences) or not self.sentences[i][0] < position:
            # in the spacing around sentences, which the translation keeps as it was: its place there
            if i:
                return self.target_spans[i - 1][1] + position - self.sentences[i - 1][1]
            return position  # with no sentence, the target is the source's text
        following = range(bisect_left(self.word_starts[i], position), len(self.source_words[i]))
        closed = self.inside_closing(i, position) if following else None
        inside_word = self.word_holding(i, position)
        if closed is None and inside_word:  # a word the translation writes unchanged keeps it in its place
            closed = kept_point(self.flat.text, self.source_words[i][inside_word[0]], self.target,
                                [self.target_words[i][t] for t in self.aligned(i, inside_word)], position)
        if closed is None:  # a page's number after "page" goes with its translation, not after a verb written last
            closed = numbered_point(self.flat, self.atoms, self.source_words[i], self.sentences[i][1], self.target,
                                    self.target_spans[i], self.target_words[i], lambda words: self.aligned(i, words),
                                    position)
        if closed is None:
            closed = final_stop_point(self.flat.text, self.atoms, position, self.sentences[i][1], self.target,
                                      self.target_spans[i])
        if closed is None:
            closed = glued_point(self.flat, self.atoms, self.source_words[i], self.target, self.target_words[i],
                                 lambda words: self.aligned(i, words), position)
        if closed is not None:
            return closed
        for k in following:
            targets = self.links[i].get(k) or self.aligned(i, [k])
            if targets:
                return self.target_words[i][min(targets)][0]
        return self.before_closing(i, position)

    def inside_closing(self, i: int, position: int) -> int | None:
        """Where something at ``position`` inside a source word of sentence i, with only that word's
        closing quotes and brackets after it (a stop kept in ``said "yes<b>.</b>" and``), goes: before
        as many of those as the target word aligned to that word ends with (``sagte „ja<b>.</b>“
        und``, and before a comma after them: ``„Ja<b>.</b>“, sagte er``), not out of them before the
        next word.  None where it stands in no such word, or no target word aligned to it ends with
        a quote or a bracket."""
        for k in self.word_holding(i, position):
            rest = self.flat.text[position:self.source_words[i][k][1]]
            if closing_length(rest) != len(rest):
                continue
            for t in self.aligned(i, [k]):
                ts, te = self.target_words[i][t]
                te = ts + len(self.target[ts:te].rstrip(",;:"))
                closing = min(closing_length(self.target[ts:te]), len(rest))
                if 0 < closing < te - ts:  # a word of quotes alone ("»«", a URL between them) counts too
                    return te - closing
        return None

    def break_point(self, position: int) -> int | None:
        """Where a word break (``<wbr>``) at ``position`` goes in its word's translation (word_breaks.break_in_word)."""
        i = bisect_right(self.sentence_ends, position)
        inside = self.word_holding(i, position) if i < len(self.sentences) else []
        return break_in_word(self.flat.text, self.source_words[i][inside[0]], self.target,
                             [self.target_words[i][t] for t in self.aligned(i, inside)], position) if inside else None

    def word_holding(self, i: int, position: int) -> list[int]:
        """The source word of sentence i that ``position`` is strictly inside, as a list: [k], or []."""
        k = bisect_right(self.word_ends[i], position)  # words are in order and apart: only this one can
        return [k] if k < len(self.source_words[i]) and self.source_words[i][k][0] < position else []

    def before_closing(self, i: int, position: int) -> int:
        """The end of sentence i's translation, before as many of the quotes and brackets that close
        it as the source has after ``position`` (a stop kept in ``"A dog runs<b>.</b>"`` stays inside
        the quotes: ``"Ein Hund rennt<b>.</b>"``); before the stop it ends with where the source has only its
        stop there, or words no target word places too (final_stops.before_sentence_stop: ``on a white <a>wall</a>.``
        -> ``von einer Frau <a>wall</a>.``, not ``Frau. <a>wall</a>``); the very end where the source has no stop."""
        start, end = self.target_spans[i]
        after = self.flat.text[position:self.sentences[i][1]]
        if closing_length(after) != len(after):  # a link left with no words before the stop: before the model's
            stop = before_sentence_stop(self.flat.text, position, self.sentences[i][1], self.target, (start, end))
            return end if stop is None else stop
        closing = closing_length(self.target[start:end])
        return end - min(closing, len(after)) if after else end


def place(flat: FlatText, sentences: Sequence[tuple[int, int]], translations: Sequence[str],
          alignments: Sequence[Weights | None]) -> Placement:
    """Every mark's span on the joined translation, properly nested (rule 3 of the module).

    sentences: [start, end) of each sentence in flat.text (whitespace between them is kept);
    translations: one per sentence; alignments: one per sentence, None where
    ``needs_alignment`` says none is needed."""
    projector = Projector(flat, sentences, translations, alignments)
    edges = range_points(flat, projector) | inner_break_points(flat, projector)  # a break inside a sentence too
    spans: list[tuple[int, int]] = []
    siblings, wanted = SortedSiblings(spans, flat.marks), {}  # wanted: each mark's target span before siblings cut it
    for j, mark in enumerate(flat.marks):
        if mark.initial:  # a drop cap: the translation's first letters, not the whole of its first word
            raw = initial_span(projector.target, sum(map(str.isalnum, flat.text[mark.start:mark.end])))
        else:
            raw = None if mark.atom or mark.start == mark.end else copied_span(projector, mark)  # rule 1
        worded = not mark.atom and is_worded_link(flat, mark)  # a link keeps words to click (links)
        clicked = raw is None and worded
        raw = wanted[j] = clicked_words(projector, mark) if clicked else raw
        bounds = spans[mark.parent] if mark.parent is not None else (0, len(projector.target))
        p = projector.break_point(mark.end) if is_word_break(mark) else None  # in its word's translation
        if raw is not None:
            pieces, blocking = siblings.free_pieces(mark.parent, (max(raw[0], bounds[0]), min(raw[1], bounds[1])))
            raw = held_piece(pieces, partial(projector.attention, mark))  # read only where it parts
            raw = None if raw is None else projector.with_atom_spaces(mark, strip_span(projector.target, raw))
            raw = raw if raw is None or not worded or clickable(projector.target, raw) else None
            if raw is None and blocking is not None and not clicked:  # emptied by siblings: right after them
                p = blocking
        if raw is None:
            if p is None:  # rule 2; a point at its parent's end (a ruby's <rt> after its base) stays there
                at_end = mark.parent is not None and mark.end == flat.marks[mark.parent].end
                p = bounds[1] if at_end else edges.get(j, projector.point(mark.end))
            p = min(max(p, bounds[0]), bounds[1])
            raw = (p, p)
        spans.append(raw)
        siblings.add(j)  # a point inside a sibling moves out of it
    parents = [mark.parent for mark in flat.marks]
    around_held_words(flat, projector.target, spans, parents, wanted)  # a link with nothing to click (links)
    merged = share_word(projector, spans, parents, wanted)  # two links whose words came back one word (shared_links)
    keep_ranges_in_order(flat.marks, spans, parents)  # the words of a range can come back in another order
    gone = [j for j, mark in enumerate(flat.marks) if lone_break(flat, projector, j)  # a word break goes with its word
            or (is_word_break(mark) and projector.break_point(mark.end) is None)]
    text, spans, starts = with_no_break_spaces(projector, spans)  # a run of them moves what is placed after it
    return Placement(text, spans, parents, frozenset(gone), starts, merged)


@dataclass
class Nested:
    """A placed mark and what it holds: text and further Nested marks, in order."""

    mark: int
    content: list[str | Nested]


def plain(content: Sequence[str | Nested]) -> str:
    """Nested content as text: element markup dropped, literal atoms kept."""
    return "".join(piece if isinstance(piece, str) else plain(piece.content) for piece in content)
