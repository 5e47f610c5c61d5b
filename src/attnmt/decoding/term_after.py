"""What may follow a term's last piece (attnmt.decoding.constraints): each form of a term has a rule, and a
hypothesis that has just written a form may write next only what its rule allows (``barred``), of the
target pieces that carry a word on (``continuing_pieces``) and SentencePiece's lone "▁" (``lone_space``).

- ``WORD``: the word ends ("Hund", not "Hund" + "e" or "Bank" + "ett"): no piece that carries a word on.
- ``INFLECTED``: a term whose source is in another number, or an adjective, takes an ending ("Hund" + "e",
  "alt" + "e"): of the pieces that carry a word on, only the endings.
- ``FIRST_PART``: a noun whose source term is a compound's first part in English ("dog owner", "car key",
  term_compounds.modifying) may be the first part of a German compound ("Auto" + "schlüssel") or a word alone: any
  piece but an ending, which would make it another word ("Hund" + "e", the plural, for "dog owners").
- ``JOINED``: the same noun with a compound's linking letters ("▁Hunde" for "Hundebesitzer"): no ending may
  follow, and the term is met only once the model goes on with the compound's next part, a piece that carries the
  word on (attnmt.decoding.constraints): "Hunde" alone is the plural, "dogs".  Not forced on: a model that does
  not know the compound wrote "Hundeinnen" for "Dog owners"; nor met at once and taken back: the hypotheses that
  wrote "▁Straßen" took the beam's places of those that had met the term, and worse translations came out.
- ``COMPOUND``: one piece that holds the noun and more ("▁Straßenmusik" for "street musician"): anything.
- ``CASE_ENDING``: a weak masculine noun without its case ending after an article that asks for it ("mit einem
  ▁K ollege"): its ending alone, and nothing else (attnmt.decoding.term_agreement).
"""

from __future__ import annotations

import functools

import torch
from torch import Tensor

WORD, INFLECTED, FIRST_PART, JOINED, COMPOUND, CASE_ENDING = range(6)


@functools.lru_cache(maxsize=4)  # per tokenizer: a server asks for every batch
def continuing_pieces(tokenizer, vocab_size: int) -> Tensor | None:
    """[V] True for the target pieces that carry a word on: no "▁" in front, a letter, a digit or
    a hyphen first (a hyphen glued on makes a compound: "Saint-Louis" + "-" + "Schamaa"); None
    for a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece"):
        return None
    return torch.tensor([piece[:1].isalnum() or piece[:1] in HYPHENS
                         for piece in map(tokenizer.id_to_piece, range(vocab_size))])


@functools.lru_cache(maxsize=4)  # per tokenizer, as continuing_pieces
def lone_space(tokenizer, vocab_size: int) -> int | None:
    """The id of the target piece that is SentencePiece's "▁" alone (a space before pieces that
    carry no "▁" of their own: "▁" "2" "0"); None for a tokenizer that does not name its pieces, or
    has none."""
    if not hasattr(tokenizer, "id_to_piece"):
        return None
    return next((i for i in range(vocab_size) if tokenizer.id_to_piece(i) == "▁"), None)


@functools.lru_cache(maxsize=4)  # per tokenizer, as continuing_pieces
def stop_pieces(tokenizer, vocab_size: int) -> Tensor | None:
    """[V] True for the target pieces that end a sentence: a full stop, "!", "?" or an ellipsis alone, with or
    without SentencePiece's "▁" ("▁." "!" "..."); None for a tokenizer that does not name its pieces."""
    if not hasattr(tokenizer, "id_to_piece"):
        return None
    return torch.tensor([bool(mark) and not mark.strip(STOPS) for mark in
                         (piece.lstrip("▁") for piece in map(tokenizer.id_to_piece, range(vocab_size)))])


def term_pieces(tokenizer, vocab_size: int) -> tuple[Tensor | None, int | None, Tensor | None]:
    """The target pieces the constrained search reads around a term: those that carry a word on
    (``continuing_pieces``), the lone "▁" (``lone_space``) and those that end a sentence (``stop_pieces``)."""
    pieces = tokenizer, vocab_size
    return continuing_pieces(*pieces), lone_space(*pieces), stop_pieces(*pieces)


STOPS = ".!?…。！？"  # the marks that end a sentence, Latin and CJK ones
HYPHENS = "-\u2010\u2011"  # hyphen-minus, hyphen, non-breaking hyphen; not the dashes, which join no compound


def after_space(last: Tensor, space: int) -> Tensor:
    """Whether each of the tokens ``last`` (-1: none) is the lone "▁" piece ``space`` (-1: none; ``lone_space``): a
    term's first piece brings its own "▁", and "Der Junge" "▁" "▁2" "0" came out "Der Junge  20 Dollar"."""
    return (last == space) & (space >= 0)


def after_stop(last: Tensor, stops: Tensor | None) -> Tensor:
    """Whether each of the tokens ``last`` (-1: none) ends a sentence (``stops``, ``stop_pieces``; None: none does)."""
    return (last >= 0) & (stops[last.clamp(min=0)] if stops is not None else False)


def barred(rule: Tensor, continuing: Tensor, ending: Tensor) -> Tensor:
    """Whether each piece is barred right after a form whose rule (module docstring, by its number; -1: none) is
    ``rule``, given whether it carries a word on, ``continuing``, and whether it is one of that form's own endings,
    ``ending`` (term_ids.Term's ``endings``; all three of one shape, or broadcast to one).  The endings are the
    form's own: pooled over a batch, "Polizist" (its ending "en") took the "e" of another sentence's "Hund"."""
    no_ending = (rule == FIRST_PART) | (rule == JOINED)
    word = continuing & ((rule == WORD) | ((rule == INFLECTED) & ~ending) | (no_ending & ending))
    return word | ((rule == CASE_ENDING) & ~ending)


def barred_after(continuing: Tensor) -> Tensor:
    """[2 + CASE_ENDING, V + 1] ``barred`` of each piece, as no ending, after each rule: row r + 1 for rule r, row 0 for
    none; and a last column, no piece's (False).  Constraints.ruled_out takes each hypothesis' row of it and sets its
    term's endings: ``barred`` over the whole vocabulary for every hypothesis a step took a twelfth of a glossary
    job."""
    rules = torch.arange(-1, CASE_ENDING + 1, device=continuing.device)[:, None]
    table = barred(rules, continuing[None, :], torch.zeros_like(continuing)[None, :])
    return torch.cat([table, torch.zeros_like(table[:, :1])], dim=1)


def takes_ending(rule: Tensor, own: Tensor, tokens: Tensor) -> Tensor:
    """Whether each of ``tokens`` [M] is one of the endings ``own`` [M, E] (-1 past them) that the rule ``rule`` [M]
    of the form just written let it take (INFLECTED, CASE_ENDING): the word ends with it, and nothing carries it on
    (term_agreement.ENDING_WRITTEN): after "Patent" + "e" the model was free, and "Drei Patentschammmm" came out."""
    return ((rule == INFLECTED) | (rule == CASE_ENDING)) & (own == tokens[:, None]).any(dim=1)
