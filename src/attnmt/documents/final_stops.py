"""Where atoms that end a sentence, only its stop after them, go (rule 2 of attnmt.documents.spans).

An atom taken out of the text leaves the model the sentence's stop alone after it: "It is 12 °C." reads
"It is .".  The rule for other points puts an atom before the target word aligned to the source word after
it, here the stop, which a model's attention seldom gives to the stop it writes: the demo model's went to
its first word, and "It is 12 °C." came back "12 °C Es ist ein Objekt.", the measure moved to the start
(an emoji at a sentence's end did the same).  Such atoms end the translation instead, before the stop it
ends with and the quotes and brackets that close it after that stop.  Atoms glued to the word before them
(``bench<a>[1]</a>.``) or closed up to it (a URL, a code after its label: attnmt.documents.closing_marks)
stay with that word's translation (attnmt.documents.glued_points), and a translation that does not end
with a stop (the model moved it) leaves them to the rule for other points.  Apart from spans.py so that
the placing rules read on their own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attnmt.documents.closing_marks import SENTENCE_ENDS
from attnmt.documents.flat import Mark
from attnmt.text.sentence_ends import closing_length


def final_stop_point(source: str, atoms_at: Mapping[int, Sequence[Mark]], position: int, sentence_end: int,
                     target: str, target_span: tuple[int, int]) -> int | None:
    """Where the atoms at ``position`` of ``source`` go in ``target`` (``target_span``: their sentence's
    translation there) where only the stop of their sentence (it ends at ``sentence_end``) follows them, and
    the quotes and brackets that close it: before the stop that ends the translation, and before as many of
    the quotes and brackets after it as the source has after its stop (module docstring).  None for other
    atoms, for those glued or closed up to the word before them, and where the translation ends with no stop."""
    atoms = atoms_at.get(position, [])
    if not atoms or atoms[0].glued_before or atoms[0].closed_up:
        return None
    return before_final_stop(source, position, sentence_end, target, target_span)


def before_final_stop(source: str, position: int, sentence_end: int, target: str,
                      target_span: tuple[int, int]) -> int | None:
    """Where something at ``position`` of ``source`` with only its sentence's stop after it, and the quotes and
    brackets that close it, goes in ``target``: before the stop that ends the translation (``target_span``), and
    before as many of the quotes and brackets after it as the source has after its stop.  None where more than
    that follows it, and where the translation ends with no stop."""
    rest = source[position:sentence_end].strip()
    closing = closing_length(rest)
    if not rest[:len(rest) - closing] or not all(c in SENTENCE_ENDS for c in rest[:len(rest) - closing]):
        return None
    start, end = target_span
    translation = target[start:end]
    kept = len(translation) - min(closing_length(translation), closing)
    if not translation[:kept].endswith(tuple(SENTENCE_ENDS)):
        return None
    while kept and (translation[kept - 1] in SENTENCE_ENDS or translation[kept - 1].isspace()):
        kept -= 1
    return start + kept


def before_sentence_stop(source: str, position: int, sentence_end: int, target: str,
                         target_span: tuple[int, int]) -> int | None:
    """Where something at ``position`` of ``source`` goes that no target word after it places (rule 2 of
    attnmt.documents.spans): before the stop its sentence's translation ends with where the source's sentence ends
    with one after it, and before as many of the quotes and brackets after that stop as the source has
    (before_final_stop), whether only that stop follows it or words too that the translation gave no place.  The
    translation's end put the second after that stop, in the gap before the next sentence: ``Add <b>1/2 cup</b> of
    milk. Stir.`` came back ``Füge hinzu. <b>1/2 cup</b> Rühre.`` where the model's words gave "of milk." no
    attention.  None where the source's sentence ends with no stop after ``position``, or the translation with
    none."""
    rest = source[position:sentence_end].rstrip()
    closing = closing_length(rest)
    stop = len(rest) - closing
    while stop and rest[stop - 1] in SENTENCE_ENDS:
        stop -= 1
    if stop == len(rest) - closing:
        return None
    return before_final_stop(source, position + stop, sentence_end, target, target_span)
