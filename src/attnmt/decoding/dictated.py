"""What a search was made to write into a translation, not what the model chose: the prefix it starts
with, the glossary target terms it holds (attnmt.decoding.constraints) and the numbers in digits a search again
required where the first translation dropped them (attnmt.decoding.numbers_kept).  The model may give a forced
piece little probability (a name kept as written, a term other than its usual word), and that is the
user's word, not the model's doubt: quality estimation (attnmt.decoding.quality_features.features_of)
counts its log-prob as at least the mean of the pieces the model chose, a name the glossary keeps as
written as no source word copied, and a number a term brings as no verbatim fault.

    Dictated(prefix, terms) ─ spans(translation) ─┬─ dictated_pieces: which pieces the model did not choose
                                                  └─ undictated: the translation without them, for its words
    Dictated.source_spans(sentence) ─ undictated: the sentence without its terms ─ verbatim_differs
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.verbatim import differs


@dataclass(frozen=True)
class Dictated:
    """A sentence's prefix ("" for none) and glossary target terms (with the numbers a retry required, in each form
    it may take), each as the target vocabulary writes it (the decoded ids the search forced), as they stand in its
    translation, and its source terms as they stand in it (Glossary.found_in)."""

    prefix: str = ""
    terms: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.prefix or self.terms)

    def spans(self, translation: str) -> list[tuple[int, int]]:
        """The (begin, end) characters of ``translation`` that were dictated: the prefix where the
        translation starts with it, and every place a term stands in it."""
        found = [(0, len(self.prefix))] if self.prefix and translation.startswith(self.prefix) else []
        return found + places(translation, self.terms)

    def source_spans(self, source: str) -> list[tuple[int, int]]:
        """Every place one of the source terms stands in ``source``."""
        return places(source, self.sources)


def places(text: str, strings: Sequence[str]) -> list[tuple[int, int]]:
    """The (begin, end) characters of every place one of ``strings`` stands in ``text``."""
    found = []
    for string in filter(None, strings):
        at = text.find(string)
        while at >= 0:
            found.append((at, at + len(string)))
            at = text.find(string, at + len(string))
    return found


def joined_dictated(parts: Sequence[Dictated]) -> Dictated:
    """What was dictated into a text translated sentence by sentence (``parts``, its sentences'):
    every term, each prefix among them (it may stand anywhere in the text)."""
    return Dictated("", tuple(term for d in parts for term in (d.prefix, *d.terms) if term),
                    tuple(source for d in parts for source in d.sources))


NOTHING = Dictated()  # a translation the search was free to write whole


def by_glossary(glossary: Glossary | None, sentence: str, written: Callable[[str], str]) -> Dictated:
    """What a search with ``glossary`` makes a translation of ``sentence`` hold, where no search says it
    (``attnmt score --glossary``, a translation written with the terms): the target terms it needs as
    the target vocabulary writes them (``written``), and its source terms as they stand in it."""
    if not glossary:
        return NOTHING
    return Dictated("", tuple(dict.fromkeys(map(written, glossary.matches(sentence)))),
                    tuple(sentence[begin:end] for begin, end, _ in glossary.found_in(sentence)))


def dictated_pieces(pieces: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int]],
                    text: str) -> list[bool]:
    """Whether each piece (its (begin, end) characters in ``text``, the tokenizer's ``target_spans``)
    stands inside one of the dictated ``spans``, the space before it aside ("▁New" spans " New")."""
    def inside(begin: int, end: int) -> bool:
        shown = begin + len(text[begin:end]) - len(text[begin:end].lstrip())
        return any(low <= shown and end <= high for low, high in spans)

    return [bool(spans) and inside(begin, end) for begin, end in pieces]


def counted_log_probs(log_probs: Sequence[float], dictated: Sequence[bool]) -> list[float]:
    """``log_probs`` (each translation piece's, then EOS's) as quality reads them: a piece the search
    was made to write (``dictated``) counts as at least the mean log-prob of the pieces the model chose,
    EOS included.  It is the user's word, not the model's doubt, and must not lower the quality ("New
    York City" kept as written: quality 0.036 for a right translation); where the model would have
    written it anyway, its log-prob is what it always was, so a prefix the model agrees with changes
    nothing, where leaving such pieces out would lower the mean."""
    forced = [k < len(dictated) and dictated[k] for k in range(len(log_probs) - 1)] + [False]  # EOS: the model's
    chosen = [p for p, was_forced in zip(log_probs, forced, strict=True) if not was_forced]
    floor = sum(chosen) / len(chosen)
    return [max(p, floor) if was_forced else p for p, was_forced in zip(log_probs, forced, strict=True)]


def undictated(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with each dictated span as spaces: a translation's words are then those the model chose,
    a sentence's those the glossary left to it."""
    kept = list(text)
    for begin, end in spans:
        kept[begin:end] = " " * (end - begin)
    return "".join(kept)


def verbatim_differs(source: str, translation: str, dictated: Dictated = NOTHING, target: str | None = None,
                     source_language: str | None = None) -> bool:
    """Whether ``translation`` breaks the verbatim rule (verbatim.differs) as written and, where
    ``dictated`` words, without them and the source terms they translate as well: "Formula One" ->
    "Formel 1" brings a number the source writes in words, and a prefix "Kapitel 3:" for "Chapter 3:"
    keeps the source's number.  ``target`` and ``source_language``: the translation's and the source's
    languages, where known (verbatim.differs)."""
    if not differs(source, translation, target, source_language):
        return False
    return not dictated or differs(*undictated_pair(source, translation, dictated), target, source_language)


def undictated_pair(source: str, translation: str, dictated: Dictated) -> tuple[str, str]:
    """``source`` without its glossary's source terms and ``translation`` without what was dictated (``undictated``):
    what the model translated and what it wrote of its own."""
    return undictated(source, dictated.source_spans(source)), undictated(translation, dictated.spans(translation))


def source_terms(glossary: Glossary | None, sentence: str) -> tuple[str, ...]:
    """``glossary``'s source terms as they stand in ``sentence`` (Dictated.sources)."""
    return tuple(sentence[begin:end] for begin, end, _ in glossary.found_in(sentence)) if glossary else ()
