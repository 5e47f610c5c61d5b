"""A glossary's target noun written as the head of a German compound (attnmt.decoding.term_ids.with_other_forms):
"construction workers" with worker -> Arbeiter is "Bauarbeiter", and the search, which knew the term only as the
word "▁Arbeiter", wrote it again beside the compound: "Drei Bauarbeiter … Arbeiter".  Where the source term has a
word of its own before it (``modified``: English writes the compound's first part as a word, "construction",
"police"), the pieces of the target vocabulary that write the term as a compound's head (``compound_heads``) meet it
too, when the model writes them: the search never offers them, so a sentence it translates with the plain word is
translated as before."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

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
