"""A sentence of a document as a review's row shows it (attnmt.documents.review): the atoms of its window put back
as plain text where the document gets them, and the elements kept whole (an abbreviation) written as the page shows
them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from attnmt.documents.closing_marks import closes
from attnmt.documents.flat import FlatText, Mark, Placed, shown_atom
from attnmt.documents.nesting import Literal, nest
from attnmt.documents.spans import Nested, Projector, Weights, place


def with_atoms(sentence: Placed, translation: str, weights: Weights | None) -> str:
    """``translation`` of ``sentence`` with the atoms of its window (and the elements kept whole it wrote no copy
    of: kept_as_atom) put back as plain text where the document gets them (attnmt.documents.spans: by
    ``weights``), a URL or an address as it was, inline code as its text, a line break as a space (flat.shown_atom:
    shown_piece), a picture, a note or a comment as nothing; the text
    as it is where the window holds no atom, or where the translation is empty (the model gave
    none: the atoms alone are no translation, and the row's flags say ``empty``).  The source
    itself, with its own words' identity weights, gets its atoms back where they were."""
    low, high = sentence.window
    atoms = [replace(m, start=m.start - low, end=m.end - low, parent=None, opened_by=None)
             for m in sentence.flat.marks if m.atom and low <= m.start < high]
    translation, weights, kept = with_kept_written(sentence, translation, weights)
    atoms = sorted(atoms + kept, key=lambda atom: atom.start)
    if not atoms or not translation.strip():
        return translation
    alone = FlatText(sentence.flat.text[low:high], atoms)
    start, end = sentence.span
    content = nest(alone, place(alone, [(start - low, end - low)], [translation], [weights]))
    return "".join(shown_piece(piece, alone) for piece in content).strip()


def with_kept_written(sentence: Placed, translation: str,
                      weights: Weights | None) -> tuple[str, Weights | None, list[Mark]]:
    """``translation`` with each element kept whole in ``sentence``'s window (an abbreviation) written as the page
    shows it where the document writes it (copied_words.kept_target: over its copy, ``MPH`` as ``mph``, or over the
    form the model wrote for it, ``OMS`` or ``z. B.`` as ``e.g.``: the row showed "WHO OMS"), ``weights`` with a row
    for each of its words then (fitted_rows), and, as atoms at a point (kept_as_atom), those it has no place for, or,
    without weights, that would change how many words it has."""
    low, high = sentence.window
    marks = [m for m in sentence.flat.marks if m.kept_whole and low <= m.start < high]
    if not marks or not translation.strip():
        return translation, weights, [kept_as_atom(m, sentence.flat, low) for m in marks]
    alone = FlatText(sentence.flat.text[low:high], [replace(m, start=m.start - low, end=m.end - low, parent=None)
                                                    for m in marks])
    projector = Projector(alone, [(sentence.span[0] - low, sentence.span[1] - low)], [translation], [weights])
    offset, kept, limit = projector.target_spans[0][0], [], len(translation)
    spans = [(span[0] - offset, span[1] - offset) if (span := projector.span(m)) else (0, 0) for m in alone.marks]
    for (start, end), mark, shifted in sorted(zip(spans, marks, alone.marks, strict=True), key=lambda m: -m[0][0]):
        shown = alone.text[shifted.start:shifted.end]
        if start < end <= limit and (weights is not None or len(translation[start:end].split()) == len(shown.split())):
            weights = None if weights is None else fitted_rows(weights, translation, start, end, len(shown.split()))
            translation, limit = translation[:start] + shown + translation[end:], start  # right to left: all stay put
        else:
            kept.append(kept_as_atom(mark, sentence.flat, low))
    return translation, weights, kept


def fitted_rows(weights: Weights, translation: str, start: int, end: int, words: int) -> list[Sequence[float]]:
    """``weights``, a row for each word of ``translation``, once translation[start:end] is written as ``words`` words
    (``z. B.`` as ``e.g.``, two words as one; ``usw.`` as ``et al.``): the rows of the words it held, the first
    ``words`` of them, the last repeated where it held fewer."""
    first = len(translation[:start].split()) - (0 < start and not translation[start - 1].isspace())  # "(z. B." too
    held = list(weights[first:first + len(translation[start:end].split())])
    return [*weights[:first], *(held + held[-1:] * words)[:words], *weights[first + len(held):]]


def kept_as_atom(mark: Mark, flat: FlatText, low: int) -> Mark:
    """An element kept whole that the translation wrote no copy of (an abbreviation), as the atom at a point the
    document writes it as (attnmt.documents.emptied_marks), ``low`` its window's start: apart from the words beside
    it, whose neighbours in the source the model may have dropped, but before a mark that closes (closes: "US.")."""
    after = flat.text[mark.end:mark.end + 1]
    return replace(mark, start=mark.end - low, end=mark.end - low, parent=None, atom=True, kept_whole=False,
                   shows_text=True, space_before=True, space_after=not (after and closes(after)))


def shown_piece(piece: str | Nested, alone: FlatText) -> str:
    """What a reader sees of a piece of nested content: an atom as flat.shown_atom says, a protected span
    too (a spreadsheet header's ``&P`` shows its page), where it was not dropped; text as it is."""
    if isinstance(piece, Nested) or (isinstance(piece, Literal) and piece):
        return shown_atom(alone.marks[piece.mark])
    return piece
