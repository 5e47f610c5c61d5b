"""What the atoms of a flat text show of its sentences' ends: a stop kept whole in markup
(``beach<b>.</b> A cat``) ends a sentence the flat text, without the atom's text, would run on
(``kept_stops``), and a translation of a sentence whose stop such atoms show loses the stop the
model added (``without_added_end``), so that the stop is not written twice; so does one of a sentence that
ends in no mark at all (``without_added_stop``): a title, a list's item, a table's cell, a button."""

from __future__ import annotations

from bisect import bisect_left

from attnmt.documents.flat import SENTENCE_ENDS, FlatText, atom_text, is_stop
from attnmt.documents.markers import RAISED_NUMBERS
from attnmt.text.sentence_ends import closing_length, ended_as_source


class EndAtoms:
    """The atoms of a flat text that can show a sentence's end (all but a note's reference:
    Mark.reference), by place: each sentence finds those after its words by bisection, not by going
    through every mark of the text (a paragraph of thousands of sentences and images)."""

    def __init__(self, flat: FlatText) -> None:
        atoms = sorted((m.start, j) for j, m in enumerate(flat.marks) if m.atom and not m.reference)
        self.flat, self.starts, self.marks = flat, [start for start, _ in atoms], [j for _, j in atoms]

    def shown_after(self, words_end: int) -> str:
        """What the atoms at ``words_end`` or after it show, in the marks' order, those with only
        closing quotes and brackets (spaces among them) between ``words_end`` and them."""
        text, found, scanned = self.flat.text, [], words_end
        for k in range(bisect_left(self.starts, words_end), len(self.starts)):
            while scanned < self.starts[k] and closing_length(text[scanned]) == 1:
                scanned += 1
            if scanned < self.starts[k]:  # another character before it: before every later atom too
                break
            found.append(self.marks[k])
        return "".join(atom_text(self.flat.marks[j]) for j in sorted(found))


def without_added_end(atoms: EndAtoms, sentence: tuple[int, int], translation: str) -> str:
    """The translation without the full stop (or "!", "?", ...) the model ended it with, where the
    source sentence (in the flat text of ``atoms``) has none because atoms right after it show its end
    (``in his <b>hands</b><i>.</i>``: the <i> is kept whole, attnmt.documents.elements.is_marker), or
    after its last words, before the quotes and brackets that close it (``"A dog runs<b>.</b>"``: the
    model reads "A dog runs" in quotes): their stop ends the translation, once, not after the model's
    own, wherever the model put that (``"Ein Hund rennt."``, ``"Ein Hund rennt".``).  A note's reference
    among those atoms shows no part of the end (``runs<b>.</b>"<sup>1</sup>``: Mark.reference).  Where none
    does, the sentence ends as its source does (attnmt.text.sentence_ends.ended_as_source)."""
    start, end = sentence
    text = atoms.flat.text
    source = text[start:end].rstrip()
    words_end = start + len(source) - closing_length(source)  # where the quotes and brackets that close it start
    if text[start:words_end].rstrip()[-1:] in SENTENCE_ENDS or not is_stop(atoms.shown_after(words_end)):
        return ended_as_source(source, translation)
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
