"""Where a word may break: HTML's ``<wbr>`` between two letters of a long word
(``Donau<wbr>dampf<wbr>schiff``, ``super<wbr>cali<wbr>fragilistic``), which shows nothing of its own.

Rule 2 of attnmt.documents.spans put a point inside a word before the translation of the word after
it, so the break went into another word (``SUPERCALIFRAGILISTIC <wbr><wbr>WORD``), where a browser
breaks a line inside that word.  A break belongs to the letters around it: it stays at its offset in
the one target word aligned to its word where that writes the word (in any case: ``SUPER<wbr>CALI``),
and is dropped where the word is no longer there, as a browser needs none where no long word is."""

from __future__ import annotations

from attnmt.documents.flat import Mark
from attnmt.documents.kept_words import core


def is_word_break(mark: Mark) -> bool:
    """Whether ``mark`` is a ``<wbr>`` between two letters or digits of a word."""
    tag = getattr(mark.node, "tag", None)  # an element's (HTML's "wbr", XHTML's "{namespace}wbr"); else no element
    return mark.atom and mark.glued_before and mark.glued_after and isinstance(tag, str) and tag.split("}")[-1] == "wbr"


def break_in_word(source: str, word: tuple[int, int], target: str, aligned: list[tuple[int, int]],
                  position: int) -> int | None:
    """Where a word break at ``position`` in the source ``word`` goes: the same offset in the one target word
    ``aligned`` to it, where that is the word in any case (its punctuation aside); None where it is not."""
    if len(aligned) != 1:
        return None
    (start, end), (target_start, target_end) = core(source, *word), core(target, *aligned[0])
    if not start <= position <= end or source[start:end].casefold() != target[target_start:target_end].casefold():
        return None
    if end - start != target_end - target_start:  # a letter that folds to two ("ß" as "SS"): offsets differ
        return None
    return target_start + position - start
