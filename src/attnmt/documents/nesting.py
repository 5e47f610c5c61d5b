"""The placed marks of a translation (attnmt.documents.spans.place) as nested content, ready to become
markup again (``nest``): text and Nested marks, each holding what its span covers, with the spaces at
their edges settled: an atom's as they were around it in the source, a mark's outside it unless it keeps
them (``keep_edge_spaces``), and a line break's or a tab's where the source had none beside it
(``part_words_in_place``)."""

from __future__ import annotations

from typing import TypeGuard

from attnmt.documents.atom_no_breaks import holds_no_break
from attnmt.documents.atom_spacing import AtomRuns, moved_to_open, space_between, would_glue
from attnmt.documents.flat import FlatText, shown_atom
from attnmt.documents.range_order import children_of, written_order
from attnmt.documents.span_geometry import Placement, edge_spaces
from attnmt.documents.spans import Nested


class Literal(str):
    """A protected span's text (Mark.literal: a URL, Android's ``\\n``) where nest writes it, knowing
    its atom (``mark``), so that part_words_in_place finds an escaped line break as it finds a ``<br/>``."""

    mark: int

    def __new__(cls, text: str, mark: int) -> Literal:
        literal = super().__new__(cls, text)
        literal.mark = mark
        return literal

    def __getnewargs__(self) -> tuple[str, int]:  # type: ignore[override]
        """Copied and pickled with its mark (str's gives its text alone, and __new__ wants both)."""
        return str(self), self.mark


def nest(flat: FlatText, placement: Placement) -> list[str | Nested]:
    """The translation as text and Nested marks, ready to become markup again; atoms come with
    the spaces they had around them in the source, and a mark's edge spaces go outside it
    (hoist_spaces) unless it keeps them (keep_edge_spaces)."""
    children = children_of(placement.parents)
    runs = AtomRuns(flat.marks, placement, flat.text)
    content = _fill(flat, placement, children, runs, None, 0, len(placement.text))
    part_words_in_place(flat, content)
    no_breaks_in_place(flat, placement, content)
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
                if j:
                    content.append(space_between(atoms[j - 1], mark))
                if g in placement.dropped:  # a word break whose word is gone: written as nothing
                    content.append(Literal("", g))
                else:
                    content.append(Literal(mark.literal, g) if mark.node is None else Nested(g, []))
            content.append(after)
            e = s + skip
        else:
            inner = _fill(flat, placement, children, runs, k, s, e)
            before, inner, after = hoist_spaces(inner)
            content.extend([before, Nested(k, inner), after])
            e = runs.past(e)  # past the space its last atoms took before them
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
    (a content control's ``w:sdtContent``, a run that had it in the source).  Not an atom's Literal (spaces kept by
    ``white-space: pre-wrap`` before a ``<b>``: taken in, they went into the bold).  In place."""
    for at, piece in enumerate(content):
        if isinstance(piece, str):
            continue
        mark = flat.marks[piece.mark]
        # A mark that got no words takes no space either (an empty tracked insertion stays empty),
        # unless its source was spaces alone: a run of a space that takes its space back keeps its look.
        keeps = mark.keeps_edge_spaces and (bool(piece.content) or not flat.text[mark.start:mark.end].strip())
        lead, trail = edge_spaces(flat.text, flat.marks, piece.mark) if keeps else (False, False)
        before, after = content[at - 1] if at else None, content[at + 1] if at + 1 < len(content) else None
        if lead and isinstance(before, str) and is_text(before) and before[-1:].isspace():
            content[at - 1] = before.rstrip()
            piece.content.insert(0, before[len(content[at - 1]):])
        if trail and isinstance(after, str) and is_text(after) and after[:1].isspace():
            content[at + 1] = after.lstrip()
            piece.content.append(after[:len(after) - len(content[at + 1])])
        keep_edge_spaces(flat, piece.content)
    content[:] = [piece for piece in content if piece != ""]


def part_words_in_place(flat: FlatText, content: list[str | Nested]) -> None:
    """A line break or a tab that had no space beside it in the source takes the place of the
    target's space between the words either side ("results<br/>for", not "results <br/>for";
    "Name:<tab/>John", not "Name:<tab/> John"), wherever that space is: in the break's own run,
    or, where the formatting changes at the break, in the text around that run.  Not where an atom
    that shows text would then touch a word, or an atom that shows text, it did not touch in the source
    (would_glue).  In place."""
    leaves = leaves_of(flat, content)

    def text_beside(n: int, step: int) -> str:  # from leaf n outward, up to the next atom and what it shows
        texts = []
        while 0 <= n < len(leaves) and is_text(text := leaves[n][0][leaves[n][1]]):
            texts.append(text)
            n += step
        if 0 <= n < len(leaves):  # ``<var>h</var> <var>w</var>``: the space out, they read "hw"
            texts.append(shown_atom(flat.marks[leaves[n][0][leaves[n][1]].mark]))
        return "".join(texts[::step])

    for n, (pieces, i) in enumerate(leaves):
        piece = pieces[i]
        mark = flat.marks[piece.mark] if isinstance(piece, Literal | Nested) else None
        if mark is None or not mark.parts_words:
            continue
        for neighbour, before in ((n - 1, True), (n + 1, False)):
            if 0 <= neighbour < len(leaves) and not (mark.space_before if before else mark.space_after):
                holder, k = leaves[neighbour]
                text = holder[k]
                if not is_text(text) or would_glue(mark, text_beside(neighbour, -1 if before else 1).strip(" "),
                                                           before):
                    continue
                if before and text.endswith(" "):
                    holder[k] = text[:-1]
                elif not before and text.startswith(" "):
                    holder[k] = text[1:]
    without_empty(leaves)


def no_breaks_in_place(flat: FlatText, placement: Placement, content: list[str | Nested]) -> None:
    """The spacing that held a no-break space before atoms in the source (Mark.space_before_as: atom_no_breaks,
    run_spaces.no_breaks_before) in place of the target's plain space before them, where their run could not write
    it (AtomRuns): that space stood outside the element they fill (``Go to&nbsp;<b>https://a.example</b> now``,
    ``Pay&nbsp;<b>5 €</b> now`` came back with a plain one).  Where the translation of their sentence puts them
    before all of its words (atom_spacing.moved_to_open), in place of its plain space after them, before its next
    words: a space at the block's start would show as an indent, and the one before a later sentence is the gap
    between the two (``Done. Go to&nbsp;URL now.`` came back ``DONE.&nbsp;URL NOW. TO GO``).  Not where the atoms
    wrote spacing of their own there.  In place."""
    leaves = leaves_of(flat, content)
    for n, (pieces, i) in enumerate(leaves):
        piece = pieces[i]
        mark = flat.marks[piece.mark] if isinstance(piece, Literal | Nested) else None
        if mark is None or not mark.space_before or not holds_no_break(mark.space_before_as):
            continue
        if not moved_to_open(placement, flat.text, mark, placement.spans[piece.mark][0]):
            spaced_leaf(leaves, n - 1, mark.space_before_as, at_end=True)
            continue
        words = next((m for m in range(n + 1, len(leaves)) if has_words(leaves[m])), len(leaves))  # the next words
        if words < len(leaves) and not spaced_leaf(leaves, words - 1, mark.space_before_as, at_end=True):
            spaced_leaf(leaves, words, mark.space_before_as, at_end=False)
    without_empty(leaves)


def has_words(leaf: tuple[list[str | Nested], int]) -> bool:
    piece = leaf[0][leaf[1]]
    return is_text(piece) and bool(piece.strip())


def spaced_leaf(leaves: list[tuple[list[str | Nested], int]], n: int, spacing: str, at_end: bool) -> bool:
    """Whether leaf n is text with the target's plain space at its end (``at_end``) or its start, and not
    ``spacing`` already: that space is then ``spacing``, in place."""
    holder, k = leaves[n]
    text = holder[k]
    if not is_text(text) or (text.endswith(spacing) if at_end else text.startswith(spacing)):
        return False
    if at_end and text.endswith(" "):
        holder[k] = text[:-1] + spacing
    elif not at_end and text.startswith(" "):
        holder[k] = spacing + text[1:]
    else:
        return False
    return True


def leaves_of(flat: FlatText, content: list[str | Nested]) -> list[tuple[list[str | Nested], int]]:
    """Every text and atom of ``content``, in document order, as (the list that holds it, its index there)."""
    leaves: list[tuple[list[str | Nested], int]] = []

    def walk(pieces: list[str | Nested]) -> None:
        for i, piece in enumerate(pieces):
            if isinstance(piece, str) or flat.marks[piece.mark].atom:  # a Literal is an atom's
                leaves.append((pieces, i))
            else:
                walk(piece.content)

    walk(content)
    return leaves


def without_empty(leaves: list[tuple[list[str | Nested], int]]) -> None:
    """The empty texts left among ``leaves`` taken out of the lists that hold them."""
    holders = {id(pieces): pieces for pieces, _ in leaves}  # each list once: a leaf at a time was quadratic
    for pieces in holders.values():
        pieces[:] = [piece for piece in pieces if piece != ""]


def hoist_spaces(content: list[str | Nested]) -> tuple[str, list[str | Nested], str]:
    """Whitespace at either end of an element's content (an atom's padding) moved outside it (``content``: its
    text and its children).  Not an atom's own (a line break kept by ``<span style="white-space: pre">``, which
    is its Literal): moved out, it showed as a space where the style no longer held, or was lost at the block's
    start."""
    before = after = ""
    if content and is_text(content[0]):
        stripped = content[0].lstrip()
        before, content = content[0][: len(content[0]) - len(stripped)], [stripped, *content[1:]]
    if content and is_text(content[-1]):
        stripped = content[-1].rstrip()
        after, content = content[-1][len(stripped):], [*content[:-1], stripped]
    return before, [piece for piece in content if piece != ""], after


def is_text(piece: str | Nested) -> TypeGuard[str]:
    """Whether ``piece`` of nested content is text: a str that is no atom's Literal."""
    return isinstance(piece, str) and not isinstance(piece, Literal)
