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
                 mark: tuple[int, int]) -> tuple[int, int]:
    """Where a ``mark`` over part or all of the one source ``word`` goes in ``target_word``, the one
    target word aligned to it: an edge strictly inside the word's letters (``H|2|O``) at the same
    offset within it, where the target word is the source word unchanged (its punctuation aside),
    and an edge outside them at the target word's edge; the whole target word where it differs, as
    rule 1 says.  Both edges are measured in the same word, so the mark can neither cross nor mix
    places of two words (a mark from inside one ``H2O`` to inside another, translated as one)."""
    start, end = core(source, *word)
    target_start, target_end = core(target, *target_word)
    if source[start:end] != target[target_start:target_end]:
        return target_word
    shift = target_start - start
    return (mark[0] + shift if start < mark[0] < end else target_word[0],
            mark[1] + shift if start < mark[1] < end else target_word[1])
