"""A weak masculine noun and the article right before it (attnmt.decoding.constraints): the term takes its case
ending ("Kunden", term_weak) where the article asks for it and not where the article says nominative singular.

A weak noun's article tells its case: "ein", "kein", "sein" (``NOMINATIVE``) stand before it only in the nominative
singular ("Ein Kunde wartet"), where it has no ending; "einen", "dem", "des", "zum", "seinem", "zwei", "die"
(``OBLIQUE``) only in another case or the plural ("einen Kunden", "mit seinem Kollegen", "die Kunden").  The search
let the model write either form after either, and "Ein Kunden wartet", "mit einem Student" came out.  Which side is
wrong is the model's to say: the search keeps the article the model wrote and writes the form that agrees with it,
and the beam keeps the hypotheses that wrote the other article ("Er sieht einen Kunden" beside "ein Kunde").  An
article of two cases ("der": "der Kunde", and the genitive plural "der Kunden"; "dieser") binds neither form.
"eine" (``FEMININE``) stands before neither form, but before one that begins a feminine compound ("eine Kundenkarte").
An adjective between whose ending agrees with an oblique or plural article ("einem alten", "zwei alte") carries its
case on to a form that may take the ending as a piece ("einem alten Kollege" + "n"), and rules out no form: "mit
einem jungen Präsident" came out; where the vocabulary writes the case form in a piece of its own ("▁Löwen"), the model
that had not learnt it wrote a word of its own rather ("Drei kleine Sechs Löwe").

The articles and adjectives are read from the pieces the model writes, one word at a time (``Articles``: "▁eine"
"m" is "einem", "▁eine" "m" "▁alten" an adjective after it).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.decoding.term_after import CASE_ENDING, FIRST_PART, INFLECTED, WORD

NONE, NOMINATIVE, OBLIQUE, FEMININE = range(4)  # what the word before a weak noun says of its case
# What an adjective that agrees with an oblique or plural article says ("einem alten", "zwei alte"): the case ending
# a form that may take it takes (``agreed_rule``), but no form is ruled out (``disagrees``): held to "▁Löwen", a piece
# of its own, after "einem hohen", the model wrote "Drei kleine Sechs Löwe", "Die Präsidenten sitzt neben einem hohen
# Tag".  Not after "ein alter": kept from its ending there, the model wrote "Ein kleiner Junge läuft Nachbar".
ADJECTIVE_OBLIQUE = 4
# Not an article: the form's ending has just been written (term_after.takes_ending), and its word ends there.
ENDING_WRITTEN = 5
BARE, CASED = 1, 2  # a weak noun's form without its case ending ("Kunde") and with it ("Kunden"); 0: no such noun
# A weak noun's form in the other number than its source's, never written (term_weak.numbered): "Kollegen" for a
# singular subject ("Colleague is waiting.").
WRONG_NUMBER = 3

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
# The plural's words of no article's ending, after which an adjective has the strong plural's "-e" ("zwei alte
# Kunden"), or its "-en" ("vielen alten Kunden").
QUANTIFIERS = ("zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf", "viele",
               "vielen", "einige", "einigen", "mehrere", "mehreren", "wenige", "wenigen")
# An adjective after an article, as the automaton's state: ADJECTIVE and how the word ends so far (TAILS), "+en" for
# "alten", beside its article's group (GROUPS: O, an oblique or plural one's; Q, a quantifier's): a weak noun after it
# agrees with its article where its ending does (``adjective_kind``); "mit einem jungen Präsident" came out.
ADJECTIVE, GROUPS, TAILS = "+", "OQ", ("en", "er", "e", "x")
# A word with a capital of fewer than NO_NOUN letters right after an article, as the automaton's word (SHORT and its
# letters), beside the article's kind as its group: no German noun the article is of ("Ei" and "Öl" take no weak noun
# after them), but a detour round the article, which the word keeps what it says of a weak noun after it: the model
# that could not write "Kollege" before a verb wrote "Ein L Kollegen wartet".  A noun of its own may stand between
# ("Eine Gruppe Studenten", a partitive).
SHORT, NO_NOUN = "^", 3
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
    first word), and of the adjectives after them; None for a tokenizer that does not name its pieces.  A state is
    a word so far (an article's first pieces, or ``ADJECTIVE`` and how an adjective ends, ``TAILS``) and the group
    of the article before it (``GROUPS``; "" for none); a piece no article holds has the column of the pieces that
    read as it does (``signature``)."""
    if not hasattr(tokenizer, "id_to_piece"):
        return None
    lists = (NOMINATIVE, NOMINATIVE_WORDS), (OBLIQUE, OBLIQUE_WORDS), (FEMININE, FEMININE_WORDS)
    kinds = {f"▁{case(word)}": kind for kind, words in lists for word in words for case in (str, str.capitalize)}
    prefixes = sorted({word[:k] for word in kinds for k in range(2, len(word) + 1)})
    adjectives = [ADJECTIVE + tail for tail in TAILS]
    # an article's first pieces after an article may begin an adjective (small letters), never a capital's word
    states = [("", ""), *(("", word) for word in prefixes),
              *((group, word) for group in GROUPS for word in prefixes if word[1:2].islower()),
              *((group, word) for group in GROUPS for word in adjectives),
              *((str(kind), SHORT + str(n)) for kind in (NOMINATIVE, OBLIQUE, FEMININE) for n in range(1, NO_NOUN))]
    number = {state: s for s, state in enumerate(states)}
    inside = {word[i:k] for word in kinds for i in range(1, len(word)) for k in range(i + 1, len(word) + 1)}
    pieces = [tokenizer.id_to_piece(i) for i in range(tokenizer.vocab_size)]
    starts = set(prefixes)
    held = {piece: piece for piece in dict.fromkeys(pieces) if piece in starts or piece in inside}
    signatures = {piece: signature(piece) for piece in dict.fromkeys(pieces) if piece not in held}
    alike = {key: piece for piece, key in signatures.items()}
    column = {key: c for c, key in enumerate([*held, *alike])}
    shown = [*held.values(), *alike.values()]
    carried = [carried_group(state, kinds) for state in states]
    steps = torch.tensor([[number.get(state_after(state, piece, group, starts,
                                                  kinds.get(state[1], NONE)), 0) for piece in shown]
                          for state, group in zip(states, carried, strict=True)])
    classes = torch.tensor([column[piece if piece in held else signatures[piece]] for piece in pieces])
    return Articles(classes, steps, torch.tensor([int(group) if word.startswith(SHORT) else
                                                  kinds.get(word, adjective_kind(group, word))
                                                  for group, word in states]))


def state_after(state: tuple[str, str], piece: str, carried: str, prefixes: set[str],
                article: int = NONE) -> tuple[str, str]:
    """The state after ``state`` (the group of the article before the word so far, the word: ``articles``) and
    ``piece``, ``carried`` being the group ``state`` carries on (``carried_group``), ``prefixes`` the articles'
    first pieces, ``article`` what ``state``'s word says as a whole article (NONE for another): a piece with "▁"
    starts a word, an article's, or after an article or an adjective that agrees with it, one in small letters, an
    adjective's ("einem" "alten"), or right after an article, a capital's word of fewer than NO_NOUN letters, which
    keeps what the article says (``SHORT``); one without carries the word on, an article's first pieces into an
    adjective's ("einem" "▁al" "ten": "▁al" begins "alle") where an article is before it."""
    group, word = state
    if piece.startswith("▁"):
        if article != NONE and piece[1:2].isupper():  # "Ein" "▁L", "Ein" "▁Z" "e" ("▁Z" begins "Zwei")
            return short(str(article), len(piece) - 1)
        if piece in prefixes:  # an article's first piece; in small letters, an adjective's perhaps ("▁al" "ten")
            return carried if piece[1:2].islower() else "", piece
        return (carried, ADJECTIVE + tail("", piece)) if carried and piece[1:2].islower() else ("", "")
    if word.startswith(SHORT):  # "Ein" "▁L" "e"
        return short(group, int(word[1:]) + len(piece))
    if word.startswith(ADJECTIVE):
        return group, ADJECTIVE + tail(word[1:], piece)
    if word and word + piece in prefixes:
        return group, word + piece
    return (group, ADJECTIVE + tail("", word + piece)) if group and word[1:2].islower() else ("", "")


def short(group: str, letters: int) -> tuple[str, str]:
    """The state of a capital's word of ``letters`` letters so far after an article of ``group`` (its kind): SHORT
    and the letters, where they are fewer than NO_NOUN, else no state's ("Ein" "▁Mann")."""
    return (group, SHORT + str(letters)) if letters < NO_NOUN else ("", "")


def carried_group(state: tuple[str, str], kinds: dict[str, int]) -> str:
    """The group (``GROUPS``) that a word after ``state`` carries on to a weak noun, where ``state`` is a whole
    article's or an adjective's that agrees with its article; "" for another word."""
    group, word = state
    if word.startswith(ADJECTIVE):
        return group if adjective_kind(group, word) != NONE else ""
    plain = word.removeprefix("▁").lower()
    if word not in kinds:
        return ""
    return "Q" if plain in QUANTIFIERS else "O" if plain in OBLIQUE_WORDS else ""


def tail(before: str, piece: str) -> str:
    """How a word ends (``TAILS``) after ``piece``, the word having ended as ``before`` (a tail, or "" for none)."""
    text = ("e" if before == "e" else "") + piece.removeprefix("▁")
    return "en" if text.endswith(("en", "em")) else "er" if text.endswith("er") else "e" if text.endswith("e") else "x"


def adjective_kind(group: str, word: str) -> int:
    """What an adjective ``word`` (``ADJECTIVE`` and how it ends) after an article of ``group`` says of a weak noun
    after it: ADJECTIVE_OBLIQUE where its ending agrees with its article ("einem alten", "zwei alte"); else NONE, the
    form left to the model ("die kleine": a feminine singular, where the article said a plural too)."""
    if not word.startswith(ADJECTIVE):
        return NONE
    return {"Oen": ADJECTIVE_OBLIQUE, "Qen": ADJECTIVE_OBLIQUE, "Qe": ADJECTIVE_OBLIQUE}.get(group + word[1:], NONE)


def signature(piece: str) -> tuple[bool, bool, bool, int, str, str]:
    """What a piece no article holds does to a state (``state_after``): whether it starts a word, in small letters,
    with a capital (not a digit: "▁2"), its letters up to NO_NOUN, and how the word ends after it."""
    letters = min(len(piece.removeprefix("▁")), NO_NOUN)
    return piece.startswith("▁"), piece[1:2].islower(), piece[1:2].isupper(), letters, tail("", piece), tail("e", piece)


def weak_cases(tokenizer, written: Sequence[Sequence[int]], case: str) -> list[int]:
    """Each of a weak masculine noun's forms ``written`` as CASED where it ends in its case ending ``case`` ("n",
    "en"), else BARE."""
    return [CASED if tokenizer.decode(form).endswith(case) else BARE for form in written]


def agreed_rule(rule: Tensor, case: Tensor, before: Tensor) -> Tensor:
    """The rule (term_after) of a form just written, ``rule``, as the article ``before`` it (NONE, NOMINATIVE,
    OBLIQUE, or ADJECTIVE_OBLIQUE, an adjective that agrees with an oblique one) makes it, the form's ``case`` being
    BARE, CASED or 0 (all of one shape): a BARE form that may take its ending ("▁K" "ollege" + "n") must not after
    "ein" ("Ein Kollege", WORD) and must after "einem" or "einem jungen" ("mit einem Kollegen": CASE_ENDING, the
    ending alone); after ENDING_WRITTEN, any form's word has ended (WORD)."""
    rule = torch.where(before == ENDING_WRITTEN, WORD, rule)  # "Patent" + "e": "Patente", not "Patente" + "s"
    takes = (rule == INFLECTED) & (case == BARE)
    rule = torch.where(takes & (before == NOMINATIVE), WORD, rule)
    return torch.where(takes & ((before == OBLIQUE) | (before == ADJECTIVE_OBLIQUE)), CASE_ENDING, rule)


def disagrees(rule: Tensor, case: Tensor, before: Tensor) -> Tensor:
    """Whether a form just written (its ``rule``, ``case``) disagrees with the article ``before`` it, whatever
    follows (all of one shape): a CASED form after a NOMINATIVE article ("Ein Kunden"), but one that may begin a
    compound ("ein Kundenkonto": FIRST_PART; held to one, the model wrote "Ein Patientener sitzt", "A patient sits"
    read as a compound, term_compounds.modifying); a BARE one that takes no ending
    after an OBLIQUE one ("dem Präsident", the vocabulary writing "Präsidenten" in other pieces); any after a
    FEMININE one ("eine Kunde", "eine Kunden"), but a CASED one that may begin a compound ("eine Kundenkarte"); a
    form of the WRONG_NUMBER after any, but one that may begin a compound."""
    nominative = ((before == NOMINATIVE) & (case == CASED) | (case == WRONG_NUMBER)) & (rule != FIRST_PART)
    feminine = (before == FEMININE) & (case > 0) & ~((case == CASED) & (rule == FIRST_PART))
    return nominative | feminine | ((before == OBLIQUE) & (case == BARE) & (rule == WORD))
