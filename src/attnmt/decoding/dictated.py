"""What a search was made to write into a translation, not what the model chose: the prefix it starts
with and the glossary target terms it holds (attnmt.decoding.constraints).  Quality estimation
(attnmt.decoding.quality) reads the model's own choices only: a forced piece is one the model may give
little probability (a name kept as written, a term other than its usual word), and that is the user's
word, not the model's doubt; a name the glossary keeps as written is no source word copied.

    Dictated(prefix, terms) ─ spans(translation) ─┬─ dictated_pieces: which pieces the model did not choose
                                                  └─ undictated: the translation without them, for its words
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Dictated:
    """A sentence's prefix ("" for none) and glossary target terms, each as the target vocabulary
    writes it (the decoded ids the search forced), as they stand in its translation."""

    prefix: str = ""
    terms: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.prefix or self.terms)

    def spans(self, translation: str) -> list[tuple[int, int]]:
        """The (begin, end) characters of ``translation`` that were dictated: the prefix where the
        translation starts with it, and every place a term stands in it."""
        found = [(0, len(self.prefix))] if self.prefix and translation.startswith(self.prefix) else []
        for term in self.terms:
            at = translation.find(term) if term else -1
            while at >= 0:
                found.append((at, at + len(term)))
                at = translation.find(term, at + len(term))
        return found


NOTHING = Dictated()  # a translation the search was free to write whole


def dictated_pieces(pieces: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int]],
                    text: str) -> list[bool]:
    """Whether each piece (its (begin, end) characters in ``text``, the tokenizer's ``target_spans``)
    stands inside one of the dictated ``spans``, the space before it aside ("▁New" spans " New")."""
    def inside(begin: int, end: int) -> bool:
        shown = begin + len(text[begin:end]) - len(text[begin:end].lstrip())
        return any(low <= shown and end <= high for low, high in spans)

    return [bool(spans) and inside(begin, end) for begin, end in pieces]


def undictated(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with each dictated span as spaces: its words are those the model chose."""
    kept = list(text)
    for begin, end in spans:
        kept[begin:end] = " " * (end - begin)
    return "".join(kept)
