"""A weak masculine noun and the article right before it (attnmt.decoding.constraints): the term takes its case
ending ("Kunden", term_weak) where the article asks for it and not where the article says nominative singular.

A weak noun's article tells its case: "ein", "kein", "sein" (``NOMINATIVE``) stand before it only in the nominative
singular ("Ein Kunde wartet"), where it has no ending; "einen", "dem", "des", "zum", "seinem", "zwei", "die"
(``OBLIQUE``) only in another case or the plural ("einen Kunden", "mit seinem Kollegen", "die Kunden").  The search
let the model write either form after either, and "Ein Kunden wartet", "mit einem Student" came out.  Which side is
wrong is the model's to say: the search keeps the article the model wrote and writes the form that agrees with it,
and the beam keeps the hypotheses that wrote the other article ("Er sieht einen Kunden" beside "ein Kunde").  An
article of two cases ("der": "der Kunde", and the genitive plural "der Kunden"; "dieser") binds neither form, nor
does an article with an adjective between ("einem alten Kunden": ``Articles`` reads the word right before the term).
"eine" (``FEMININE``) stands before neither form, but before one that begins a feminine compound ("eine Kundenkarte").

The articles are read from the pieces the model writes, one word at a time (``Articles``: "▁eine" "m" is "einem").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.decoding.term_after import CASE_ENDING, FIRST_PART, INFLECTED, WORD

NONE, NOMINATIVE, OBLIQUE, FEMININE = range(4)  # what the word before a weak noun says of its case
BARE, CASED = 1, 2  # a weak noun's form without its case ending ("Kunde") and with it ("Kunden"); 0: no such noun

POSSESSIVES = ("mein", "dein", "sein", "ihr", "unser", "eur")
NOMINATIVE_WORDS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer")
# The oblique cases' articles, the contractions of a preposition and "dem", and the plural's words ("zwei", "alle",
# "seine": a weak noun in the plural has its ending too); not "der" nor "dieser", which are nominative too.
OBLIQUE_WORDS = (
    "den", "dem", "des", "einen", "einem", "eines", "zum", "vom", "beim", "im", "am", "die", "diese", "jene", "alle",
    "beide", "beiden", "keine", "viele", "vielen", "einige", "einigen", "mehrere", "mehreren", "wenige", "wenigen",
    "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
    *(stem + ending for stem in ("kein", "dies", "jen", "jed", "welch", "all", *POSSESSIVES)
      for ending in ("en", "em", "es")),
    *(stem + "e" for stem in POSSESSIVES))
# A feminine singular's article, before which a weak masculine noun is wrong in either form ("Eine Kunden wartet"
# came out, the search holding "Ein" to "Kunde"), but as a feminine compound's first part ("eine Kundenkarte").
FEMININE_WORDS = ("eine",)


@dataclass(frozen=True)
class Articles:
    """The articles of a target vocabulary, read a piece at a time: a hypothesis' state is the article its last
    word is so far ("▁eine", then "▁einem" after "m"), 0 where it is none.

    classes: [V] each piece's column in ``steps``: 0 for the pieces no article holds
    steps:   [S, P] the state after each state and each column's piece
    kinds:   [S] what each state's word says of a weak noun after it (NONE, NOMINATIVE, OBLIQUE)
    """

    classes: Tensor
    steps: Tensor
    kinds: Tensor

    def step(self, state: Tensor, tokens: Tensor) -> Tensor:
        """The states after hypotheses in ``state`` write ``tokens`` (both of one shape)."""
        return self.steps[state, self.classes[tokens]]

    def to(self, device: torch.device) -> Articles:
        return Articles(self.classes.to(device), self.steps.to(device), self.kinds.to(device))


@functools.lru_cache(maxsize=4)  # per tokenizer: a look at each of its pieces
def articles(tokenizer) -> Articles | None:
    """The ``Articles`` of ``tokenizer``'s target pieces, in small letters and with a capital first (a sentence's
    first word); None for a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece"):
        return None
    lists = (NOMINATIVE, NOMINATIVE_WORDS), (OBLIQUE, OBLIQUE_WORDS), (FEMININE, FEMININE_WORDS)
    kinds = {f"▁{case(word)}": kind for kind, words in lists for word in words for case in (str, str.capitalize)}
    states = ["", *sorted({word[:k] for word in kinds for k in range(2, len(word) + 1)})]
    number = {state: s for s, state in enumerate(states)}
    inside = {word[i:k] for word in kinds for i in range(1, len(word)) for k in range(i + 1, len(word) + 1)}
    pieces = [tokenizer.id_to_piece(i) for i in range(tokenizer.vocab_size)]
    held = [piece for piece in dict.fromkeys(pieces) if piece in number or piece in inside]
    column = {piece: c for c, piece in enumerate(held, start=1)}
    steps = torch.zeros(len(states), len(held) + 1, dtype=torch.long)
    for piece, c in column.items():
        steps[:, c] = torch.tensor([number.get(word_after(state, piece), 0) for state in states])
    classes = torch.tensor([column.get(piece, 0) for piece in pieces])
    return Articles(classes, steps, torch.tensor([kinds.get(state, NONE) for state in states]))


def word_after(state: str, piece: str) -> str:
    """The word so far after a word ``state`` (as an article's pieces begin it; "" for none) and ``piece``: a piece
    with "▁" starts a word, one without carries the state's on, and none's stays none."""
    return piece if piece.startswith("▁") else state + piece if state else ""


def weak_cases(tokenizer, written: Sequence[Sequence[int]], case: str) -> list[int]:
    """Each of a weak masculine noun's forms ``written`` as CASED where it ends in its case ending ``case`` ("n",
    "en"), else BARE."""
    return [CASED if tokenizer.decode(form).endswith(case) else BARE for form in written]


def agreed_rule(rule: Tensor, case: Tensor, before: Tensor) -> Tensor:
    """The rule (term_after) of a form just written, ``rule``, as the article ``before`` it (NONE, NOMINATIVE,
    OBLIQUE) makes it, the form's ``case`` being BARE, CASED or 0 (all of one shape): a BARE form that may take its
    ending ("▁K" "ollege" + "n") must not after "ein" ("Ein Kollege", WORD) and must after "einem" ("mit einem
    Kollegen": CASE_ENDING, the ending alone)."""
    takes = (rule == INFLECTED) & (case == BARE)
    rule = torch.where(takes & (before == NOMINATIVE), WORD, rule)
    return torch.where(takes & (before == OBLIQUE), CASE_ENDING, rule)


def disagrees(rule: Tensor, case: Tensor, before: Tensor) -> Tensor:
    """Whether a form just written (its ``rule``, ``case``) disagrees with the article ``before`` it, whatever
    follows (all of one shape): a CASED form after a NOMINATIVE article ("Ein Kunden"), but one that may begin a
    compound ("ein Kundenkonto": FIRST_PART; held to one, the model wrote "Ein Patientener sitzt", "A patient sits"
    read as a compound, term_compounds.modifying); a BARE one that takes no ending
    after an OBLIQUE one ("dem Präsident", the vocabulary writing "Präsidenten" in other pieces); any after a
    FEMININE one ("eine Kunde", "eine Kunden"), but a CASED one that may begin a compound ("eine Kundenkarte")."""
    nominative = (before == NOMINATIVE) & (case == CASED) & (rule != FIRST_PART)
    feminine = (before == FEMININE) & (case > 0) & ~((case == CASED) & (rule == FIRST_PART))
    return nominative | feminine | ((before == OBLIQUE) & (case == BARE) & (rule == WORD))
