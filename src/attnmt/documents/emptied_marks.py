"""A mark over a number that the translation left empty gets its number back.

The model drops digits now and then ("See page <1> for details." -> "Siehe Seite für Details."),
and a mark over them alone (a link to a note, a phone number, "+1 555 0100") was then written
around nothing: an empty ``<w:hyperlink/>`` or ``<text:a/>``, the number gone from the page.  A
number reads the same in either language, so such a mark holds its source text again, with the
marks inside it as they stood there, at the place the translation gave it, a space either side
where the source had one.  Not where the number came back elsewhere in the block's translation
(the model wrote it, the alignment put it outside the mark): it would then be there twice.
"""

from __future__ import annotations

from attnmt.documents.flat import FlatText, has_words
from attnmt.documents.spans import Nested, Placement, nest, plain


def is_number(text: str) -> bool:
    """Whether ``text`` is digits and symbols alone ("12", "[1]", "+1 555 0100"): a digit, no letter."""
    return any(character.isdigit() for character in text) and not has_words(text)


def refill_emptied(flat: FlatText, translation: str, content: list[str | Nested]) -> None:
    """Each outermost mark of ``content`` (``flat``'s ``translation``, nested: spans.nest) over a
    number (is_number) that holds no text, its number missing from the translation, filled with
    its source content.  In place."""
    numbers = {k: flat.text[mark.start:mark.end].strip() for k, mark in enumerate(flat.marks) if not mark.atom}
    emptied = {k for k, number in numbers.items() if is_number(number) and number not in translation}
    if emptied:
        _refill(flat, content, _source_pieces(flat), emptied)


def _refill(flat: FlatText, pieces: list[str | Nested], source: dict[int, Nested], emptied: set[int]) -> None:
    for at, piece in enumerate(pieces):
        if isinstance(piece, str):
            continue
        if piece.mark in emptied and not plain(piece.content).strip():
            piece.content[:] = source[piece.mark].content
            _space_around(flat, pieces, at, piece.mark)
        else:
            _refill(flat, piece.content, source, emptied)


def _source_pieces(flat: FlatText) -> dict[int, Nested]:
    """Every mark of ``flat`` as it stands in the source: its text and the marks inside it."""
    found: dict[int, Nested] = {}

    def walk(pieces: list[str | Nested]) -> None:
        for piece in pieces:
            if isinstance(piece, Nested):
                found[piece.mark] = piece
                walk(piece.content)

    spans = [(mark.start, mark.end) for mark in flat.marks]
    walk(nest(flat, Placement(flat.text, spans, [mark.parent for mark in flat.marks])))
    return found


def _space_around(flat: FlatText, pieces: list[str | Nested], at: int, k: int) -> None:
    """A space between the refilled mark ``pieces[at]`` (``flat``'s mark ``k``) and the text beside
    it, at each side where the source had whitespace: the translation's one space between the words
    either side stood at one side of the empty mark ("Seite <1>für")."""
    mark = flat.marks[k]
    before, after = pieces[at - 1] if at else None, pieces[at + 1] if at + 1 < len(pieces) else None
    if isinstance(before, str) and flat.text[:mark.start][-1:].isspace() and not before[-1:].isspace():
        pieces[at - 1] = before + " "
    if isinstance(after, str) and flat.text[mark.end:][:1].isspace() and not after[:1].isspace():
        pieces[at + 1] = " " + after
