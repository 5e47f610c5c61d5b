"""An inline element around a number alone (``<data value="1200">1,200</data>``, ``<span class="price">19.99</span>``,
``<b>42</b>``) whose number the translation lost: it holds its source text again, as written, and the words the
alignment put inside it stand right after it.  The demo model read "1,200 visitors came today." and wrote "Ein
Basketballspieler, die schnell verwäntiert.", and the page showed ``Ein <data value="1200">Basketballspieler</data>``:
the number was gone, and the element, whose ``value`` a script or a search engine reads, labelled a word.

Not where the translation holds the number anywhere, in digits as the target writes them ("1.200": emptied_marks.
number_tokens) or in words ("He has <b>2</b> dogs." as "Er hat zwei Hunde.": verbatim.numbers_in): it would then be
there twice.  A link left empty is emptied_marks' to fill, and an atom or an element kept whole comes back as written
already.  A cross-reference to a caption over its label's translation alone, its number lost ("Ein <Abbildung> zeigt"
for "As <Figure 1> shows": copied_results.label_span), holds the number again after those words: "<Abbildung 1>"."""

from __future__ import annotations

from collections.abc import Iterator

from attnmt.decoding.verbatim import numbers_in
from attnmt.documents.copied_results import is_copied_result, with_lost_number
from attnmt.documents.emptied_marks import holds, is_number, number_tokens, source_pieces, space_around
from attnmt.documents.flat import FlatText
from attnmt.documents.links import is_link
from attnmt.documents.spans import Nested, plain


def keep_lost_numbers(flat: FlatText, translation: str, content: list[str | Nested]) -> None:
    """Each element of ``content`` (``flat``'s ``translation``, nested) over a number alone (numbers) that
    ``translation`` does not hold (Written.lost) written with its source content, what it held after it; each
    cross-reference to a caption that holds words but no copy of its number given it after them.  In place."""
    references = {k for k, mark in enumerate(flat.marks) if is_copied_result(mark)}  # read only where there are
    for pieces, at, piece in _marked(content, references) if references else ():
        if number := with_lost_number(flat.text, flat.marks[piece.mark], plain(piece.content)):
            piece.content.append(number)
            space_after_as_written(flat, pieces, at, piece.mark)
    found = numbers(flat)
    marked = list(_marked(content, set(found))) if found else []
    if not marked:  # the usual case: no element over a number alone, and the translation's numbers are not read
        return
    written = Written(translation)
    lost = [(pieces, at, piece) for pieces, at, piece in marked if written.lost(found[piece.mark])]
    source = source_pieces(flat) if lost else {}
    for pieces, at, piece in reversed(lost):  # from the last: what is put in beside one moves those after it
        held, piece.content[:] = piece.content[:], source[piece.mark].content
        if plain(held).strip():
            first = held[0].lstrip() if isinstance(held[0], str) else held[0]
            pieces[at + 1:at + 1] = [" ", first, *held[1:]]
        space_around(flat, pieces, at, piece.mark)


def space_after_as_written(flat: FlatText, pieces: list[str | Nested], at: int, k: int) -> None:
    """The space right after ``pieces[at]``, a cross-reference (``flat``'s mark ``k``) given its number again, as the
    source has it after the reference: a no-break space between its label and number went to the space after the
    label's translation ("Abbildung\u00a0zeigt", the number's word aligned to "zeigt"); it stays inside, before the
    number."""
    after, written = pieces[at + 1] if at + 1 < len(pieces) else None, flat.text[flat.marks[k].end:][:1]
    if isinstance(after, str) and after[:1].isspace() and written.isspace() and after[:1] != written:
        pieces[at + 1] = written + after[1:]


def numbers(flat: FlatText) -> dict[int, str]:
    """mark -> the number it is over, for each mark of ``flat`` over a number alone (emptied_marks.is_number) that is
    a word of its own, no letter or digit glued on either side (not the ``2`` of ``x<sup>2</sup>y``, whose
    translation is a word that holds it); not a link (emptied_marks refills one), an atom or an element kept whole
    (each written as it came)."""
    found = {}
    for k, mark in enumerate(flat.marks):
        text = flat.text[mark.start:mark.end]
        if mark.atom or mark.kept_whole or not is_number(text) or is_link(mark):
            continue
        if not flat.text[mark.start - 1:mark.start].isalnum() and not flat.text[mark.end:mark.end + 1].isalnum():
            found[k] = text.strip()
    return found


class Written:
    """The numbers a translation writes, read once: their digits (emptied_marks.number_tokens) and their values,
    in digits or in words (verbatim.numbers_in)."""

    def __init__(self, translation: str) -> None:
        self.tokens = number_tokens(translation)
        self.values = {found.value for found in numbers_in(translation)}

    def lost(self, number: str) -> bool:
        """Whether the translation holds ``number`` nowhere: not its digits in a row (emptied_marks.holds), nor
        its values."""
        return not holds(self.tokens, number_tokens(number)) and not {
            found.value for found in numbers_in(number)} <= self.values


def _marked(pieces: list[str | Nested], marks: set[int]) -> Iterator[tuple[list[str | Nested], int, Nested]]:
    """(the pieces that hold it, its place there, itself) of each of ``marks`` in ``pieces``, outermost first."""
    for at, piece in enumerate(pieces):
        if isinstance(piece, Nested):
            if piece.mark in marks:
                yield pieces, at, piece
            yield from _marked(piece.content, marks)
