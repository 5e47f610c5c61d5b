"""Marks that a sentence end cuts, parted where their translations lie apart.

A mark over the end of one sentence and the start of the next (``<b>runs.<br>A cat</b>``: a line
break ends its sentence, wrapped_lines.ended_lines) is placed as one span, from the first target word
aligned to its words to the last (attnmt.documents.spans, rule 1).  That is right where its words'
translations meet at the edge between the two translations (``<b>rennt.<br>Eine Katze</b>``).  Where
the model put them elsewhere in their sentences, the one span covered every word between, the whole
of both sentences at worst (``<b>RUNS. DOG THE<br>SLEEPS. CAT A</b>``).  There the mark is parted:
one mark per sentence, over that sentence's share of its words, each placed by alignment as any
mark is (``<b>RUNS.</b> DOG THE<br>SLEEPS. <b>CAT A</b>``), so its element is written once in each
sentence and the markup stays well nested.  What it held between the sentences (the ``<br>``) goes
to the element around it; a mark inside it over that sentence end is parted with it.

An element that names itself (``identified``: HTML's ``id`` and an anchor's ``name``, a link's target;
``xml:id``; Word's ``w:id`` of a tracked change, of a content control or in a run's properties, a tracked
formatting change; OpenDocument's ``text:id``) is never parted:
written once in each sentence, two elements had the one name.  It keeps the one span, and so do the
marks around it and in it over that sentence end (``kept_whole``), so that it stays well nested."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Container, Sequence
from dataclasses import dataclass, field, replace

from lxml import etree

from attnmt.documents.flat import FlatText, Mark, is_punctuation
from attnmt.documents.links import is_link
from attnmt.documents.nesting import Literal
from attnmt.documents.spans import WORD, Nested, Projector, Weights
from attnmt.documents.white_space import styled
from attnmt.documents.wordml import RELATIONSHIP_ID, w

# A relationship's id (``r:id`` of a Word hyperlink) names the part or address it points to, not the element:
# two links may share one.


@dataclass
class Parted:
    """``flat`` with each mark that must be parted replaced by its parts, one per sentence (placed
    and nested as any marks are); ``origin[k]``: the index in the source flat text of the mark
    that its mark k is (a part of); ``wrapped[k]``: for an atom k between the sentences that a parted
    element's style keeps (``kept_inside``), the source marks it is written inside again, outermost first."""

    flat: FlatText
    origin: list[int]
    wrapped: dict[int, list[int]] = field(default_factory=dict)
    links: frozenset[int] = frozenset()  # of the source marks ``wrapped`` names, those of links (links.is_link)

    def renumber(self, content: list[str | Nested]) -> list[str | Nested]:
        """``content`` nested from ``flat``, its marks numbered as in the source flat text again, so
        that each part is written as the element it came from, and each ``wrapped`` atom in copies of
        its elements: joined to a part of that element right beside it (``<span>\n</span><span>SMITH</span>``
        is ``<span>\nSMITH</span>``); where none is, in copies of those that are no link, as a link's copy
        holding a break alone was one more link for a reader to tab to.  In place; returns ``content``."""
        copies = []
        for at, piece in enumerate(content):
            if isinstance(piece, Nested):
                piece.mark = self.origin[piece.mark]
                self.renumber(piece.content)
            elif isinstance(piece, Literal) and piece and piece.mark in self.wrapped:
                copies.append(at)
                for mark in reversed(self.wrapped[piece.mark]):
                    content[at] = Nested(mark, [content[at]])
        for at in reversed(copies):
            self.join_copy(content, at)
        return content

    def join_copy(self, content: list[str | Nested], at: int) -> None:
        """The copy ``content[at]`` joined to the part of its element right after or before it, else written in
        copies of the elements of its chain that are no link (none: the atom alone).  In place."""
        copy = content[at]
        assert isinstance(copy, Nested)
        for other in (at + 1, at - 1):
            beside = content[other] if 0 <= other < len(content) else None
            if isinstance(beside, Nested) and beside.mark == copy.mark:
                first, second = (copy, beside) if other > at else (beside, copy)
                content[min(at, other):max(at, other) + 1] = [joined(first, second)]
                return
        chain: list[int] = []
        while isinstance(copy, Nested):
            chain.append(copy.mark)
            (copy,) = copy.content
        for mark in reversed([mark for mark in chain if mark not in self.links]):
            copy = Nested(mark, [copy])
        content[at] = copy


def joined(first: Nested, second: Nested) -> Nested:
    """Two pieces of one element side by side as one, and so the pieces where they meet where those are
    of one element too (a ``<b>`` inside it)."""
    content, meet = [*first.content, *second.content], len(first.content)
    before, after = content[meet - 1] if meet else None, content[meet] if meet < len(content) else None
    if isinstance(before, Nested) and isinstance(after, Nested) and before.mark == after.mark:
        content[meet - 1:meet + 1] = [joined(before, after)]
    return Nested(first.mark, content)


def sentences_of(flat: FlatText, sentences: Sequence[tuple[int, int]]) -> list[list[int]]:
    """For each mark of ``flat``, the sentences (their indices) that hold some of the words under it;
    none for an atom.  Each sentence's words are found once and looked up by bisection, so that a
    paragraph of many marks and many words costs no more than its marks times a logarithm."""
    starts, ends = [s for s, _ in sentences], [e for _, e in sentences]
    words = [[(s + m.start(), s + m.end()) for m in WORD.finditer(flat.text[s:e])] for s, e in sentences]
    word_ends = [[end for _, end in each] for each in words]

    def holds_some(i: int, mark: Mark) -> bool:
        # The sentence's first word ending after the mark's start is the one that may start before its end.
        k = bisect_right(word_ends[i], mark.start)
        return k < len(words[i]) and words[i][k][0] < mark.end

    return [[] if mark.atom or mark.initial else
            [i for i in range(bisect_right(ends, mark.start), bisect_left(starts, mark.end)) if holds_some(i, mark)]
            for mark in flat.marks]


def apart(projector: Projector, mark: Mark, touched: Sequence[int]) -> bool:
    """Whether ``mark``'s share of one of the ``touched`` sentences (two or more) is placed away
    from the edge it shares with the next or the previous (anything but punctuation between them
    and that sentence's translation's end or start): one span over them would cover those words.

    Only the first and the last can be: a sentence between them is under the mark whole, and a whole
    sentence's share is its whole translation (Projector.span), edges and all.  Reading those too
    cost marks nested n deep n * n spans."""
    target = projector.target
    for n, i in ((0, touched[0]), (len(touched) - 1, touched[-1])):
        s, e = projector.sentences[i]
        span = projector.span(replace(mark, start=max(mark.start, s), end=min(mark.end, e)))
        if span is None:  # aligned to nothing: it leaves the rest where one span puts them
            continue
        start, end = projector.target_spans[i]
        if n + 1 < len(touched) and not only_punctuation(target[span[1]:end]):
            return True
        if n and not only_punctuation(target[start:span[0]]):
            return True
    return False


def identified(node: object) -> bool:
    """Whether ``node`` is an element with a name no other element may have: ``names_itself``, an HTML anchor's
    ``name`` (``<a name="n1">``, a link's target as an ``id`` is), or an element in its own properties that names
    itself: Word's ``w:id`` of a content control (``<w:sdtPr><w:id w:val="42"/>``) or of a tracked formatting
    change (``<w:rPr><w:rPrChange w:id="9">``), which a part in each sentence would write twice."""
    if not isinstance(node, etree._Element) or not isinstance(node.tag, str):  # a comment, an entity
        return False
    if names_itself(node) or (bare(node.tag).lower() == "a" and node.get("name") is not None):
        return True
    return any(isinstance(inner.tag, str) and (names_itself(inner) or inner.tag == w("id"))
               for child in node if isinstance(child.tag, str) and bare(child.tag).endswith("Pr")
               for inner in child.iter())


def names_itself(element: etree._Element) -> bool:
    """Whether ``element`` has an attribute named ``id`` in any namespace (``id``, ``xml:id``, ``w:id``,
    ``text:id``), a relationship's ``r:id`` aside."""
    return any(bare(name) == "id" and name != RELATIONSHIP_ID for name in element.attrib)


def bare(name: str) -> str:
    """A name's local part: after its namespace in lxml's form, or after its prefix where HTML's parser kept
    it.  An element's properties are named so in Office's formats: ``w:rPr``, ``w:pPr``, ``w:sdtPr``."""
    return name.rpartition("}")[2].rpartition(":")[2]


def kept_whole(flat: FlatText, touched: Sequence[Sequence[int]]) -> set[int]:
    """The marks that stay one span whatever their words' translations do: each over a sentence end that is
    ``identified``, every mark inside it (a Word control's ``w:sdtContent`` parted would stand twice in it),
    and every mark around it (the parts of one would each have to hold it)."""
    inside: set[int] = set()
    for j, mark in enumerate(flat.marks):  # parents before children
        if mark.parent in inside or (len(touched[j]) > 1 and identified(mark.node)):
            inside.add(j)
    whole = set(inside)
    for j in inside:
        parent = flat.marks[j].parent
        while parent is not None and parent not in whole:
            whole.add(parent)
            parent = flat.marks[parent].parent
    return whole


def kept_inside(flat: FlatText, parts: Container[int], mark: Mark) -> list[int]:
    """The parted marks (``parts``) that ``mark``, a point between the sentences, is written inside again,
    outermost first: where it is whitespace (kept spacing, white_space.add_kept_spacing) whose nearest
    ``white-space`` style is a parted mark's, that mark and those between it and ``mark``; none where the
    element around the parted ones shows it alike (a ``<br>``; spacing that element's own style keeps)."""
    if mark.node is not None or not mark.literal or mark.literal.strip():
        return []
    chain: list[int] = []
    parent = mark.parent
    while parent is not None and parent in parts:
        chain.append(parent)
        node = flat.marks[parent].node
        says = styled(node) if isinstance(node, etree._Element) else None
        if says is not None:
            return chain[::-1] if says.lines else []
        parent = flat.marks[parent].parent
    return []


def only_punctuation(text: str) -> bool:
    return all(is_punctuation(character) or character.isspace() for character in text)


def part_at_sentences(flat: FlatText, sentences: Sequence[tuple[int, int]], translations: Sequence[str],
                      alignments: Sequence[Weights | None]) -> Parted:
    """``flat`` with each mark over a sentence end whose shares of the sentences are placed apart
    (``apart``), or whose parent was parted, parted into one mark per sentence, but those ``kept_whole``; the
    rest as they are, each in the part of its parent that holds it (a point between the sentences, in its
    grandparent)."""
    touched = sentences_of(flat, sentences)
    if all(len(each) < 2 for each in touched):  # the usual case: no mark runs over a sentence end
        return Parted(flat, list(range(len(flat.marks))))
    projector = Projector(flat, sentences, translations, alignments)
    whole = kept_whole(flat, touched)
    marks: list[Mark] = []
    origin: list[int] = []
    wrapped: dict[int, list[int]] = {}
    new: dict[int, int] = {}  # a mark kept whole: its index among ``marks``
    parts: dict[int, dict[int, int]] = {}  # a parted mark: its sentences, each with its part's index

    def holder(parent: int | None, sentence: int | None) -> int | None:
        while parent in parts and sentence not in parts[parent]:
            parent = flat.marks[parent].parent  # between the parent's sentences: in the element around it
        if parent is None:
            return None
        return parts[parent][sentence] if sentence is not None and parent in parts else new[parent]

    for j, mark in enumerate(flat.marks):
        opened_by = mark.opened_by  # a range's end: its start, before it (a part: the first)
        if opened_by is not None:
            opened_by = new[opened_by] if opened_by in new else min(parts[opened_by].values())
        if len(touched[j]) > 1 and j not in whole and (mark.parent in parts or apart(projector, mark, touched[j])):
            parts[j] = {}
            for i in touched[j]:
                s, e = sentences[i]
                parts[j][i] = len(marks)
                marks.append(replace(mark, start=max(mark.start, s), end=min(mark.end, e),
                                     parent=holder(mark.parent, i), opened_by=opened_by))
                origin.append(j)
            continue
        sentence = touched[j][0] if touched[j] else next(
            (i for i, (s, e) in enumerate(sentences) if s < mark.start < e), None)
        new[j] = len(marks)
        if sentence is None and (inside := kept_inside(flat, parts, mark)):
            wrapped[new[j]] = inside
        marks.append(replace(mark, parent=holder(mark.parent, sentence), opened_by=opened_by))
        origin.append(j)
    links = frozenset(k for chain in wrapped.values() for k in chain if is_link(flat.marks[k]))
    return Parted(replace(flat, marks=marks), origin, wrapped, links)
