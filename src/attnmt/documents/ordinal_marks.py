"""An ordinal's raised ending (rule 1 of attnmt.documents.spans): ``21<sup>st</sup>``, as Word raises "1st" while
one types it, and French's ``1<sup>er</sup> mai``, ``2<sup>e</sup> étage``, ``XIX<sup>e</sup> siècle``, which its
typography raises.

Stretched over the target word aligned to its word, as any mark inside a word is, the superscript raised the whole
translated ordinal ("<sup>19th</sup>", German's "<sup>19.</sup>" too); read as its word's letters with its look left
out, it was lost where the translation keeps an ending ("XIXe" in a French document, "1er" for "1st").  So the mark
goes on the ending of the translation's ordinal of the same number (``19<sup>th</sup> century`` for ``XIX<sup>e</sup>
siècle``: Roman numerals are read as their value), else on that of the ordinal aligned to its word; where the
translation writes no ordinal with an ending there (German's "19. Jahrhundert", "am ersten Mai"), it is left empty,
as a bold number the model wrote in words is (attnmt.documents.emptied_marks): no translated word is raised.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from attnmt.documents.kept_words import core

Span = tuple[int, int]
# An ordinal: its number in digits and an ending that languages raise, in any case (a translation may write it in
# capitals): English's (1st, 2nd, 3rd, 4th), French's (1er, 1re, 1ère, 2e, 2ème, 2d, 2nd, 2nde; their plurals, 1ers,
# 2es), Spanish's, Italian's and Portuguese's (1o, 1a: "1º", "1ª" where not raised), Dutch's (1e, 2de, 8ste) and
# Catalan's (1r, 2n, 4t); or its number in Roman numerals, as French writes centuries and monarchs ("XIXe", "Ier"),
# and French's ending in small letters (in capitals, "IN" and "ME" are words).
ORDINAL = re.compile(r"(\d+)((?i:st|nd|rd|th|[eè]re|[eè]me|nde|ste|er|re|de|e|d|o|a|r|n|t)(?i:s)?)"
                     r"|([IVXLCDM]+)((?:[eè]re|[eè]me|er|re|e)s?)")
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def ordinal_number(text: str, word: Span, mark: Span) -> int | None:
    """The number of the ordinal ``word`` of ``text`` (its punctuation aside) where ``mark`` covers its ending
    exactly (``XIX<sup>e</sup>``: 19); None for any other mark (one over its number too, or over a word that is
    no ordinal: ``n<sup>th</sup>``, ``1<sup>st</sup>s``)."""
    found = ORDINAL.fullmatch(text, *core(text, *word))
    return value(number_of(found)) if found is not None and ending_of(found) == mark else None


def value(number: str) -> int:
    """The value of an ordinal's number, in digits or in Roman numerals ("XIX": 19, "IV": 4)."""
    if number.isdigit():
        return int(number)
    digits = [ROMAN[letter] for letter in number]
    return sum(-d if d < following else d for d, following in zip(digits, [*digits[1:], 0], strict=True))


def ending_in(target: str, words: Sequence[Span], aligned: Sequence[int], number: int) -> Span | None:
    """The span of the ending of the target ordinal that an ending of ``number``'s goes on: the first of
    ``words`` (a sentence's target words) that writes ``number`` as an ordinal, else the first of those
    ``aligned`` (their indices) that is an ordinal; None where neither is one."""
    ordinals = {t: found for t, word in enumerate(words) if (found := ORDINAL.fullmatch(target, *core(target, *word)))}
    same = [t for t, found in ordinals.items() if value(number_of(found)) == number]
    chosen = same[:1] or [t for t in aligned if t in ordinals][:1]
    return ending_of(ordinals[chosen[0]]) if chosen else None


def number_of(ordinal: re.Match[str]) -> str:
    """An ORDINAL's number, as written: its digits or its Roman numerals."""
    return ordinal.group(1) or ordinal.group(3)


def ending_of(ordinal: re.Match[str]) -> Span:
    """The span of an ORDINAL's ending."""
    return ordinal.span(2) if ordinal.group(1) else ordinal.span(4)
