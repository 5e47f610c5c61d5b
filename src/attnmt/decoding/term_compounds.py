"""A glossary's target noun written as the head of a German compound (attnmt.decoding.term_ids.with_other_forms):
"construction workers" with worker -> Arbeiter is "Bauarbeiter", and the search, which knew the term only as the
word "▁Arbeiter", wrote it again beside the compound: "Drei Bauarbeiter … Arbeiter".  Where the source term has a
word of its own before it (``modified``: English writes the compound's first part as a word, "construction",
"police"), the pieces of the target vocabulary that write the term as a compound's head (``compound_heads``) meet it
too, when the model writes them: the search never offers them, so a sentence it translates with the plain word is
translated as before.

A noun written as a compound's FIRST part: "Dog owners walk" with dog -> Hund came out "Hundebesitzer … Hund", the
term written again.  Where the source term is followed by a word of its own that is no function word (``modifying``:
English writes a compound's parts as words, "dog owners", "car key"), the term is met too by the forms that begin a
compound with it (``first_parts``): the term with a linking "e", "s", "en" … ("▁Hunde" of "Hundebesitzer"), which
must be carried on by the compound's next part (term_after.JOINED, so "Hunde" alone, the plural, is no such form),
and a piece that holds the term and a word more ("▁Straßenmusik").  The term's own form may go on as a compound too
("▁Auto" "schlüssel", term_after.FIRST_PART).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from attnmt.decoding.term_after import COMPOUND, JOINED

# The words before a noun that are no first part of a compound: articles, determiners, numbers, possessives.
DETERMINERS = frozenset(
    "a an the this that these those some any many several few each every other another no all both my your his her "
    "its our their one two three four five six seven eight nine ten twelve".split())
# How long a compound's first part is at least: "S" + "hut" ("Shut") is no compound of "Hut".
FIRST_PART = 3


def modified(sentence: str, found: Iterable[tuple[int, int, str]]) -> set[str]:
    """The target terms (Glossary.found_in's (start, end, target term) in ``sentence``) whose source term follows
    a word of letters that is no determiner (``DETERMINERS``): "construction workers", "police dog"."""
    kept = set()
    for start, _, target in found:
        before = re.search(r"([^\W\d_]+)\s+$", sentence[:start])
        if before and before.group(1).casefold() not in DETERMINERS:
            kept.add(target)
    return kept


# The words after a noun that are no compound's next part: verbs' helpers, prepositions, conjunctions, pronouns.
NO_HEADS = frozenset(
    "and or but nor of in on at by to for from with without into onto over under near behind beside between through "
    "across along around up down out off is are was were be been being has have had do does did can could will would "
    "shall should may might must as than that which who whom whose while when where there here it its they them he "
    "she him her we us you i me this these those".split())
# The letters German puts between a compound's parts ("Hund-e-besitzer", "Arbeit-s-platz", "Katze-n-futter").
LINKS = ("e", "s", "es", "n", "en", "er", "ns", "ens")
# How long a compound's next part is at least, in one piece with the term: "Hundert" is no compound of "Hund".
NEXT_PART = 4


def modifying(sentence: str, found: Iterable[tuple[int, int, str]]) -> set[str]:
    """The target terms (Glossary.found_in's (start, end, target term) in ``sentence``) whose source term is followed
    by a word of letters that is no function word (``NO_HEADS``): "dog owners", "car key", a compound's first part."""
    kept = set()
    for _, end, target in found:
        after = re.match(r"\s+([^\W\d_]+)", sentence[end:])
        if after and after.group(1).casefold() not in NO_HEADS:
            kept.add(target)
    return kept


def first_parts(tokenizer, target: str) -> list[tuple[list[int], int]]:
    """The forms that write a one-word noun ``target`` ("Hund") as a compound's first part, each with its rule
    (attnmt.decoding.term_after): the term and each of the LINKS, where the vocabulary writes them exactly and not
    beginning with the term's own pieces ("▁Hunde"; "▁Auto" "s" is the term carried on, as FIRST_PART lets it be),
    JOINED; and each target piece that is "▁", the term and ``NEXT_PART`` letters more ("▁Straßenmusik"),
    COMPOUND.  None for another term, or a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece") or not (target.isalpha() and target[:1].isupper()):
        return []
    own = tokenizer.encode_target(target)
    kept = []
    for link in LINKS:
        ids = tokenizer.encode_target(target + link)
        if tokenizer.decode(ids) == target + link and ids[: len(own)] != own:
            kept.append((ids, JOINED))
    for i, piece in enumerate(named_pieces(tokenizer)):
        rest = piece[len(target) + 1:]
        if piece.startswith("▁" + target) and len(rest) >= NEXT_PART and rest.isalpha() and rest.islower():
            kept.append(([i], COMPOUND))
    return kept


@functools.lru_cache(maxsize=4096)  # per tokenizer and term
def compound_heads(tokenizer, target: str) -> tuple[tuple[int, ...], ...]:
    """The forms that write a one-word noun ``target`` (a capital first, letters alone: "Arbeiter") as a compound's
    head: each target piece that is a word of a first part (``FIRST_PART`` letters or more) and the term in small
    letters ("▁Bauarbeiter", "▁Schäferhund"), and the piece of the term in small letters that carries a word on
    ("hund" of "▁Polizei" "hund"); none for another term, or a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece") or not (target.isalpha() and target[:1].isupper()):
        return ()
    head = target[0].lower() + target[1:]
    kept = []
    for i, piece in enumerate(named_pieces(tokenizer)):
        word = piece.removeprefix("▁")
        whole = piece != word and word[:1].isupper() and len(word) >= len(head) + FIRST_PART
        if piece == head or (whole and word.endswith(head) and word[: -len(head)].isalpha()):
            kept.append((i,))
    return tuple(kept)


@functools.lru_cache(maxsize=4)  # per tokenizer: naming each piece cost 30 ms a term
def named_pieces(tokenizer) -> tuple[str, ...]:
    """The target vocabulary's pieces, by id."""
    return tuple(map(tokenizer.id_to_piece, range(tokenizer.vocab_size)))
