"""What the atoms of a flat text show of its sentences' ends: a stop kept whole in markup
(``beach<b>.</b> A cat``) ends a sentence the flat text, without the atom's text, would run on
(``kept_stops``), and a translation of a sentence whose stop such atoms show loses the stop the
model added (``without_added_end``), so that the stop is not written twice."""

from __future__ import annotations

from attnmt.documents.flat import SENTENCE_ENDS, FlatText, atom_text, closing_length, is_stop
from attnmt.documents.markers import RAISED_NUMBERS


def without_added_end(flat: FlatText, sentence: tuple[int, int], translation: str) -> str:
    """The translation without the full stop (or "!", "?", ...) the model ended it with, where the
    source sentence has none because atoms right after it show its end (``in his <b>hands</b><i>.</i>``:
    the <i> is kept whole, attnmt.documents.elements.is_marker), or after its last words, before the
    quotes and brackets that close it (``"A dog runs<b>.</b>"``: the model reads "A dog runs" in
    quotes): their stop ends the translation, once, not after the model's own, wherever the model
    put that (``"Ein Hund rennt."``, ``"Ein Hund rennt".``).  A note's reference among those atoms
    shows no part of the end (``runs<b>.</b>"<sup>1</sup>``: Mark.reference)."""
    start, end = sentence
    source = flat.text[start:end].rstrip()
    words_end = start + len(source) - closing_length(source)  # where the quotes and brackets that close it start
    if flat.text[start:words_end].rstrip()[-1:] in SENTENCE_ENDS:
        return translation
    after = [m for m in flat.marks if m.atom and not m.reference and m.start >= words_end
             and closing_length(gap := flat.text[words_end:m.start].rstrip()) == len(gap)]
    shown = "".join(map(atom_text, after))
    if not is_stop(shown):
        return translation
    kept = translation.rstrip()
    without = kept.rstrip(SENTENCE_ENDS).rstrip()
    closing = closing_length(without)
    words = without[:len(without) - closing].rstrip(SENTENCE_ENDS).rstrip()
    shorter = words + without[len(without) - closing:] if closing else without
    return shorter + translation[len(kept):] if words else translation  # a translation of stops alone stays


def kept_stops(flat: FlatText) -> list[tuple[int, str]]:
    """(position, stop) of each atom that shows a sentence's stop alone (``beach<b>.</b> A cat``):
    the reader sees a sentence end there, which the flat text, without the atom's text, hides.  One
    glued to a letter or digit on both sides ends none: it is a decimal point or a dot inside a
    name (``19<span>.</span>99``, ``Version 2<b>.</b>0``, ``example<b>.</b>com``).  Superscript digits
    after it are a note's number, not a number's decimals (``park<b>.</b>¹² A man``): the stop ends its
    sentence, where, read as a decimal point, it ran on into the next and the model lost both."""
    shown = [(m.start, atom_text(m).strip()) for m in flat.marks
             if m.atom and not (m.glued_before and m.glued_after and not RAISED_NUMBERS.match(flat.text, m.start))]
    return [(position, stop) for position, stop in shown if is_stop(stop)]
