"""Whether the target word that gives a mark's source words the most attention translates them, or another
word far from them (rule 1 of attnmt.documents.spans): so that a mark over words the model dropped goes
nowhere, not onto the translation of some other word.

Every target word gives every source word some attention, so every source word has a target word that gives it the
most (Projector.most_attending), a word the model left out too.  Rule 1 takes that word for the mark alongside the
target words whose attention goes most to its words (the links), as it catches a word whose own attention looked
one word off ("Gruppe" attends most to "of" in "A group of men", and gives "group" the most); but for a dropped
word it was a translation of another: ``A man on a beach building a <u>sand</u> castle.`` -> ``Ein Mann am
<u>Strand</u>.`` ("beach", three words before), ``holding the book open with <i>her hand</i>`` -> ``das ein Buch
<i>hält</i>`` ("reads", six words before).  So that word is not taken where its attention goes mostly elsewhere:
it gives the mark's words less than SHARE of what it gives the source word it attends to most, and that word
stands DISTANCE words or more from them, no neighbour the mark's words could have been read with ("is surfing" ->
"surft", "police officer" -> "Polizist", "the grass" -> "das Gras").  On the first 400 sentences of Multi30k's
validation set, the demo model left 1,511 source words without a link; 273 are so read, most of them words it
dropped ("Two girls sit near a wall and watch a sporting event." -> "... in der Nähe einer Wand und schauen zu.":
"event." and "Wand"), some a word its translation's attention went past ("and" -> "und", "with" -> "mit",
"sitting" -> "sitzt" where "sitzt" attends most to "reading" four words before), whose mark is then lost.  Of 800
lines of those sentences with one or two marks, 37 came back otherwise: 26 marks off a wrong word, 7 off their
right one, 4 as wrong as before.  A mark left with no word goes where rule 2 puts a point; a link over words takes
that word all the same, for something to click (attnmt.documents.links).

A target word whose attention is spread, its strongest source word getting less than SPREAD of it, is linked to no
source word (Projector._links): it was written from the whole sentence, as "am" in ``is <b>shaving</b> while sitting
on the beach`` -> ``rasiert sich am Strand`` is (0.18 to "shaving", 0.17 to "on", 0.15 to "while"), and went into the
mark, ``<b>rasiert sich am</b>``.  It can still go into a mark as the target word that gives the mark's words the
most attention (Projector.most_attending).  On the same 400 sentences, tagged as benchmarks/documents.py tags them,
the marks holding their anchor's word alone went from 481 to 487 of 536 (20 %: 481, 25 %: 482, 35 %: 490, 40 %: 498
but two anchors lost), none lost its anchor, and 11 lines came back otherwise, none for the worse (``<b>springt</b>
<a>durch</a> Wasser``, not ``<a>durch Wasser und hält einen</a>``; ``<b>Kunststück</b>``, not ``<b>Kunststück mit
einem</b>``).
"""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.attention_given import given

SHARE = 0.5  # of the attention the target word gives the source word it attends to most
DISTANCE = 3  # source words between that word and the mark's nearest word, and one
SPREAD = 0.3  # of a target word's attention, the least its strongest source word gets for it to be linked to it


def attends_elsewhere(row: Sequence[float], words: Sequence[int]) -> bool:
    """Whether a target word whose attention over the source words is ``row`` translates a word far from
    ``words`` rather than them (module docstring)."""
    most = max(row, default=0.0)
    if most <= 0 or not words:
        return False
    share = given(row, words)
    own = list(row).index(most)
    return share < SHARE * most and min(abs(own - k) for k in words) >= DISTANCE


def spread(row: Sequence[float]) -> bool:
    """Whether a target word whose attention over the source words is ``row`` gives none of them SPREAD of it: a
    word written from the whole sentence, linked to no source word of its own (module docstring)."""
    return max(row, default=0.0) < SPREAD * sum(row)


def strongest(mass: Sequence[float]) -> int | None:
    """The target word that gives the most attention, by each target word's ``mass`` (None: none gives any):
    Projector.most_attending's choice, which attends_elsewhere then checks."""
    return mass.index(max(mass)) if mass and max(mass) > 0 else None
