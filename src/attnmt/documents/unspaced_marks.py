"""A mark over part of a word of a script written without spaces (Chinese, Japanese, Thai): where it
goes in the translation.

Rule 1 of attnmt.documents.spans aligns whitespace words, and a Chinese sentence has none: "这是重要的
句子。" is one word, every target word is aligned to it, and a bold "重要" went over the whole
translation, which came back all bold.  Nothing finer is known of the alignment inside such a word,
so the mark keeps its proportional place: the stretch of the word's translation (its aligned target
words, first to last) at the same fraction of its characters, in whole target words where the
translation is spaced (English), in characters where it is not (Japanese).  Latin, Greek or Cyrillic
words are not touched: a tag inside one covers the whole target word, as rule 1 says; but for a word
glued from two marks (``**one**_two_``, ``<b>man</b><i>is</i>``: the model reads ``onetwo``) that went
to several target words, where the whole of them went to the first mark and the second was left
empty (gone in Markdown, which cannot write empty emphasis), each mark keeps its proportional share
of them (glued_part)."""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.decoding.word_edges import beside_unspaced, unspaced
from attnmt.documents.flat import Mark
from attnmt.documents.kept_words import core, is_kept


def unspaced_part(source: str, word: tuple[int, int], mark: tuple[int, int], target: str,
                  aligned: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """The span in ``target`` of the part of source ``word`` that ``mark`` covers, at its proportional
    place among the ``aligned`` target words (module docstring): the units whose middles lie strictly
    inside it, else the one whose middle is nearest its own; None where the mark covers the whole
    word, an edge of it inside the word has no letter of a script without spaces beside it, or no
    target word is aligned; None too where the one target word aligned writes the word unchanged, in which
    kept_words.in_kept_word keeps the mark's exact place."""
    start, end = max(mark[0], word[0]), min(mark[1], word[1])
    inner = [edge for edge in (start, end) if word[0] < edge < word[1]]
    if not aligned or not inner or not all(beside_unspaced(source, edge) for edge in inner):
        return None
    if len(aligned) == 1 and is_kept(source, word, target, aligned[0]):
        return None
    length = word[1] - word[0]
    first, last = aligned[0][0], aligned[-1][1]
    low = first + (start - word[0]) / length * (last - first)
    high = first + (end - word[0]) / length * (last - first)
    units = [unit for span in aligned for unit in _units(target, span)]
    chosen = [unit for unit in units if low < (unit[0] + unit[1]) / 2 < high]
    if not chosen:  # a part narrower than any unit: the one nearest its middle
        middle = (low + high) / 2
        chosen = [min(units, key=lambda unit: abs((unit[0] + unit[1]) / 2 - middle))]
    return chosen[0][0], chosen[-1][1]


def part_in_word(source: str, word: tuple[int, int], mark: tuple[int, int], target: str,
                 aligned: Sequence[tuple[int, int]], edges: tuple[frozenset[int], frozenset[int]]
                 ) -> tuple[int, int] | None:
    """The span in ``target`` of a mark over part of ``word`` that keeps a proportional place in its
    translation (unspaced_part, glued_part); None where rule 1 places it."""
    return unspaced_part(source, word, mark, target, aligned) or glued_part(source, word, mark, target, aligned, edges)


def mark_edges(marks: Sequence[Mark]) -> tuple[frozenset[int], frozenset[int]]:
    """Where the marks over text start, and where they end: a word glued from two has one's end
    where the other starts (glued_part)."""
    over = [mark for mark in marks if not mark.atom and mark.start < mark.end]
    return frozenset(mark.start for mark in over), frozenset(mark.end for mark in over)


def glued_part(source: str, word: tuple[int, int], mark: tuple[int, int], target: str,
               aligned: Sequence[tuple[int, int]], edges: tuple[frozenset[int], frozenset[int]]
               ) -> tuple[int, int] | None:
    """The whole target words of the part of source ``word`` that ``mark`` covers, at its proportional
    place among the several ``aligned`` ones, where its start inside the word is another mark's end
    and its end there another's start (``edges``: mark_edges), each between two letters; None otherwise,
    or where that share is no word.  Where the word went to one target word written otherwise
    (``manis`` -> ``Mann``), its letters are shared the same way (glued_letters)."""
    start, end = max(mark[0], word[0]), min(mark[1], word[1])
    starts, ends = edges
    inner = [(edge, edge in (ends if edge == start else starts)) for edge in (start, end) if word[0] < edge < word[1]]
    if not aligned or not inner or not all(
            glued and source[edge - 1].isalpha() and source[edge].isalpha() for edge, glued in inner):
        return None
    if len(aligned) == 1:
        return None if is_kept(source, word, target, aligned[0]) else glued_letters(source, word, (start, end),
                                                                                     target, aligned[0])
    length, count = word[1] - word[0], len(aligned)
    first, last = round((start - word[0]) / length * count), round((end - word[0]) / length * count)
    return (aligned[first][0], aligned[last - 1][1]) if first < last else None


def glued_letters(source: str, word: tuple[int, int], part: tuple[int, int], target: str,
                  target_word: tuple[int, int]) -> tuple[int, int] | None:
    """The letters of ``target_word`` at the place of ``part`` in source ``word`` (their punctuation at
    either end aside), each edge inside the word keeping at least one letter on each side of it: the
    marks glued in the word each keep a share of its one translation, where the whole of it went to
    the first and the others, left over nothing, were dropped (``**Ma**_nn_``, not ``**Mann**``).
    None where the target word has fewer than two letters to share."""
    (low, high), (first, last) = core(source, *word), core(target, *target_word)
    letters, length = last - first, high - low
    if letters < 2 or length < 2:
        return None

    def at(edge: int) -> int:
        if edge <= low or edge >= high:
            return first if edge <= low else last
        return first + min(max(round((edge - low) / length * letters), 1), letters - 1)

    return at(part[0]), at(part[1])


def _units(target: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """A target word as the units a mark may cover: each of its characters where it holds a letter of a
    script written without spaces, else the whole word."""
    start, end = span
    if not any(unspaced(character) for character in target[start:end]):
        return [span]
    return [(at, at + 1) for at in range(start, end)]
