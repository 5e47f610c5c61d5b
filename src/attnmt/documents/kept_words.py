"""A mark's edge inside a word that the translation writes exactly as the source does.

Rule 1 of attnmt.documents.spans stretches a tag inside a word over the whole word, since a
translated word has no letter that answers to the source's (``<b>Hund</b>e`` -> ``<b>dogs</b>``).
A number, a formula, a name or a unit often comes through unchanged (``H<sub>2</sub>O``, ``m<sup>2</sup>``,
``CO<sub>2</sub>``), and there the tag can keep its place: the same offset within the same word.
Apart from spans.py so that the placing rules read on their own."""

from __future__ import annotations

from attnmt.documents.flat import is_punctuation


def core(text: str, start: int, end: int) -> tuple[int, int]:
    """The word text[start:end] without the punctuation at its ends (``(H2O).`` -> ``H2O``): a
    translation may move a stop or a bracket and still keep the word itself."""
    while start < end and is_punctuation(text[start]):
        start += 1
    while end > start and is_punctuation(text[end - 1]):
        end -= 1
    return start, end


def in_kept_word(source: str, word: tuple[int, int], target: str, target_word: tuple[int, int],
                 edge: int) -> int | None:
    """Where a mark's ``edge``, strictly inside the letters of source ``word`` (``H|2|O``), goes in
    ``target_word``: at the same offset within the word, where the target word is the source word
    unchanged (its punctuation aside).  None where the edge is not inside those letters or the
    target word differs: the mark covers the whole target word then, as rule 1 says."""
    start, end = core(source, *word)
    target_start, target_end = core(target, *target_word)
    if not start < edge < end or source[start:end] != target[target_start:target_end]:
        return None
    return target_start + edge - start
