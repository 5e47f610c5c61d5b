"""Word's non-breaking hyphens (``w:noBreakHyphen``) in a paragraph's text
(attnmt.documents.ooxml, rule 3).

The model reads one inside a word as the "-" it knows (U+2011, which NFKC makes U+2010, would
be a piece it has never seen), so the translation's hyphens are plain.  In a word the
translation keeps ("555-0100", "Jean-Paul", in any case) the hyphens that were non-breaking are
made so again, and the word stays whole at a line's end as it did; a word the translation
changed keeps the translation's plain hyphens, which are its own.  A word is read across the
marks in it (``no_break_content``): a bookmark's start between "self-" and "made" is no word's end.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from attnmt.documents.spans import Nested

NO_BREAK_HYPHEN = "\u2011"
HYPHENATED = re.compile(r"[\w-]+")  # a word with the hyphens in it: "self-made", "555-0100"


def in_word(text: str, at: int) -> bool:
    """Whether text[at] stands between two letters or digits ("self-made", "555-0100"), a letter's
    combining mark one of its letter's: "Café" with a combining accent (NFD, as a Mac may write it), a
    Hindi vowel sign ("हिंदी-भाषी"), which str.isalnum counts no letter, so the hyphen after it was
    kept as an atom, the model read "CaféBar", and the glossary's "Café-Bar" matched nothing."""
    return 0 < at < len(text) - 1 and of_word(text[at - 1]) and of_word(text[at + 1])


def of_word(character: str) -> bool:
    """Whether ``character`` is a letter, a digit or a combining mark (Unicode's M*, part of its letter)."""
    return character.isalnum() or unicodedata.category(character).startswith("M")


def hyphenated_words(text: str, hyphens: Sequence[int]) -> dict[str, tuple[int, ...]]:
    """Each word of ``text`` (letters, digits and hyphens) with a non-breaking hyphen in it (at
    ``hyphens``: "-" in ``text``), lower-cased -> where in it those hyphens are."""
    words: dict[str, tuple[int, ...]] = {}
    for match in HYPHENATED.finditer(text) if hyphens else ():
        inside = tuple(h - match.start() for h in hyphens if match.start() <= h < match.end())
        if inside:
            words[match.group().lower()] = inside
    return words


def no_break_hyphens(text: str, words: dict[str, tuple[int, ...]]) -> str:
    """``text`` with the hyphens of each word of ``words`` (``hyphenated_words``) that it keeps, in
    any case, non-breaking again (U+2011): "555-0100" stays unbroken; a word the translation
    changed has plain hyphens, for its hyphens are the translation's."""

    def restore(match: re.Match[str]) -> str:
        word = list(match.group())
        for offset in words.get(match.group().lower(), ()):
            if offset < len(word) and word[offset] == "-":
                word[offset] = NO_BREAK_HYPHEN
        return "".join(word)

    return HYPHENATED.sub(restore, text) if words else text


def no_break_content(content: Sequence[str | Nested], words: dict[str, tuple[int, ...]],
                     parts_words: Callable[[int], bool]) -> list[str | Nested]:
    """A paragraph's translated ``content`` with ``no_break_hyphens`` made in its text read whole,
    across its marks: written piece by piece, a bookmark's start or end between "self-" and "made"
    left neither piece the word "self-made", and its hyphen came back plain.  A mark that parts
    the words beside it (``parts_words(mark)``: a tab, a line break) reads as a space."""
    pieces: list[str] = []

    def read(items: Sequence[str | Nested]) -> None:
        for piece in items:
            if isinstance(piece, str):
                pieces.append(piece)
            else:
                pieces.append(" " if parts_words(piece.mark) else "")
                read(piece.content)

    read(content)
    text = no_break_hyphens("".join(pieces), words)  # one character for one: each piece's place stays
    at = 0

    def rebuilt(items: Sequence[str | Nested]) -> list[str | Nested]:
        nonlocal at
        out: list[str | Nested] = []
        for piece in items:
            if isinstance(piece, str):
                out.append(text[at:at + len(piece)])
                at += len(piece)
            else:
                at += parts_words(piece.mark)
                out.append(Nested(piece.mark, rebuilt(piece.content)))
        return out

    return rebuilt(content) if words else list(content)
