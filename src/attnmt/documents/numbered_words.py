"""Where a number kept whole that ends a sentence after the word it numbers goes (rule 2 of attnmt.documents.spans).

A page's or a note's number that a Word field computes (``PAGEREF``, ``NOTEREF``, a ``REF`` to a numbered item) is
kept whole, and the model reads its sentence without it: "The results are shown on page <4>." reads "The results are
shown on page .".  The rule for atoms before a sentence's stop
(attnmt.documents.final_stops) put it at the translation's end, after the verb German writes last: "Die Ergebnisse
sind auf Seite dargestellt 4.".  The number belongs to the word before it ("page 4", "note 2", "Figure 3"), and goes
right after that word's translation instead: "Die Ergebnisse sind auf Seite 4 dargestellt."  Not after a function
word ("printed in <2024>.": German writes "im Jahr 2024" or no word for "in"), nor where no one target word translates
the word before alone (aligned to it, and to no other source word, an article beside it aside: the demo model wrote
"Sechs Karate." for "See page .", "page" and the stop both aligned to "Sechs"), nor a number a page keeps that no
field computes (``Dial <span translate="no">112</span>.``: "Wählen Sie 112."), which leave it to the rule for atoms
before a stop.  (An OpenDocument page reference, ``text:bookmark-ref``, which the model reads "on page." with no
space before the stop, goes after that word's translation already: attnmt.documents.glued_points.)"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence

from lxml import etree

from attnmt.documents.final_stops import before_final_stop
from attnmt.documents.flat import FlatText, Mark, atom_text
from attnmt.documents.glued_points import letters_end
from attnmt.documents.wordml import w
from attnmt.text.function_words import is_function_word

FIELD_PARTS = (w("fldChar"), w("fldSimple"))  # what a Word field kept whole holds: its number is a field's
NUMBER = re.compile(r"\d+(?:[.,:\-\u2013]\d+)*")  # "4", "12", "2.1", "4-6": a page's, a note's, a heading's number


def numbered_point(flat: FlatText, atoms_at: Mapping[int, Sequence[Mark]], words: Sequence[tuple[int, int]],
                   sentence_end: int, target: str, target_span: tuple[int, int],
                   target_words: Sequence[tuple[int, int]], aligned: Callable[[Sequence[int]], list[int]],
                   position: int) -> int | None:
    """Where the atoms at ``position`` of ``flat.text`` go in ``target`` where they show a number alone, a Word
    field's (FIELD_PARTS), a space after a word of ``words`` (their sentence's, which ends at ``sentence_end``;
    ``target_span``: its translation in ``target``, ``target_words`` the translation's words, ``aligned`` the target
    words aligned to source words) that is no function word, with only the sentence's stop after them: after the
    letters of the one target word that translates that word alone (the module docstring).  None for other atoms,
    and where no one target word translates that word alone."""
    atoms = atoms_at.get(position, [])
    if not atoms or atoms[0].glued_before or not NUMBER.fullmatch("".join(map(atom_text, atoms)).strip()):
        return None
    if not any(isinstance(atom.node, etree._Element) and atom.node.tag in FIELD_PARTS for atom in atoms):
        return None  # a number a page keeps after a verb, "Dial <112>.": "Wählen Sie 112.", not "Wählen 112 Sie."
    if before_final_stop(flat.text, position, sentence_end, target, target_span) is None:
        return None
    k = bisect_left(words, position, key=lambda word: word[0]) - 1
    if k < 0 or flat.text[words[k][1]:position].strip() or words[k][1] == position:
        return None
    word = flat.text[words[k][0]:words[k][1]]
    if is_function_word(word) or not any(character.isalpha() for character in word):
        return None
    targets = [t for t in aligned([k]) if not is_function_word(target[slice(*target_words[t])])]  # "der Seite"
    if len(targets) != 1 or any(targets[0] in aligned([j]) for j in range(len(words)) if j != k):
        return None  # no one word that translates it alone ("page" and the stop both aligned to "Sechs")
    return letters_end(target, [target_words[targets[0]]])
