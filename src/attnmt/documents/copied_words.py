"""Which one target word a mark over one source word, or part of one, goes on (rule 1 of attnmt.documents.spans).

A number, a formula, a unit or a name often comes through as written (``E = mc<sup>2</sup>``, ``x<sub>i</sub>``,
``12 m<sup>2</sup>``, ``H<sub>2</sub>O``), yet the alignment may give its word several target words, or others
than the copy: stretched from the first to the last of them, the ``<sup>`` of ``m2`` went over "die alle tragen"
and "Football und ein", and the ``<sub>`` of ``H2O`` over "einem Tooooooo-St".  So such a mark goes on the target
word that writes its word unchanged (its punctuation aside: attnmt.documents.kept_words.is_kept), where its edges
keep their places in it.  A copy the alignment gave the word counts for any word; one it gave to other words only
for a word that reads the same in either language (reads_alike): a plain word ("in", "die", "also") may be
another word of the target language.  Where there is no copy, a mark over part of a word (a script, a bold
letter) goes on one target word, the one that gives the word the most attention: a part of a word holds no
more of the sentence's meaning than the word, and stretched it covered words the source mark never held.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from attnmt.documents.kept_words import core


class Copies:
    """Each sentence's target words by their letters (kept_words.core: ``(H2O).`` is ``H2O``), in order: found
    once for all of a sentence's marks, as a paragraph of thousands of marks each going through all its
    words made placing them quadratic."""

    def __init__(self, target: str, target_words: Sequence[Sequence[tuple[int, int]]]) -> None:
        self.target, self.target_words = target, target_words
        self.by_letters: dict[int, dict[str, list[int]]] = {}  # sentence -> letters -> its target words

    def letters(self, i: int, t: int) -> str:
        """Target word t of sentence i, its punctuation aside."""
        return self.target[slice(*core(self.target, *self.target_words[i][t]))]

    def of(self, i: int, letters: str) -> list[int]:
        """The target words of sentence i that write ``letters``, their punctuation aside, in order."""
        if i not in self.by_letters:
            found: dict[str, list[int]] = {}
            for t in range(len(self.target_words[i])):
                found.setdefault(self.letters(i, t), []).append(t)
            self.by_letters[i] = found
        return self.by_letters[i].get(letters, [])


def one_target(copies: Copies, i: int, source: str, word: tuple[int, int], mark: tuple[int, int],
               targets: Sequence[int], best: int | None) -> int | None:
    """The number of the one target word of sentence i that ``mark``, over the source ``word`` or part of it,
    goes on: its copy (copied_word), else the one word of ``targets`` (the target words aligned to it) or,
    for a mark over part of the word, ``best``, the one that gives it the most attention; None where it
    goes over all of ``targets`` (or nowhere: none)."""
    copy = copied_word(copies, i, source, word, targets, best)
    if copy is not None:
        return copy
    if len(targets) == 1:
        return targets[0]
    return best if targets and is_inside_word(source, word, mark) else None


def copied_word(copies: Copies, i: int, source: str, word: tuple[int, int], targets: Sequence[int],
                best: int | None) -> int | None:
    """The target word of sentence i that writes ``word`` unchanged: one of ``targets`` (aligned to it) where
    one does, else, for a word that reads_alike, any; of several, the one nearest ``best`` (the word attending
    to it most, else the first aligned to it).  None where there is none, or the word is punctuation alone."""
    start, end = core(source, *word)
    letters = source[start:end]
    if not letters:
        return None
    anchor = best if best is not None else (targets[0] if targets else 0)
    near = [t for t in targets if copies.letters(i, t) == letters]
    if not near and reads_alike(letters):
        found = copies.of(i, letters)
        k = bisect_left(found, anchor)  # only the copies either side of the anchor can be the nearest to it
        near = found[max(k - 1, 0):k + 1]
    return min(near, key=lambda t: abs(t - anchor)) if near else None


def reads_alike(word: str) -> bool:
    """Whether ``word`` reads the same in any language, so that a copy of it is it wherever the translation
    puts it: it holds a digit (``m2``, ``12``) or a capital after its first letter (``H2O``, ``iPhone``,
    ``USB``)."""
    return any(character.isdigit() for character in word) or any(character.isupper() for character in word[1:])


def is_inside_word(source: str, word: tuple[int, int], mark: tuple[int, int]) -> bool:
    """Whether an edge of ``mark`` stands inside the letters of ``word`` (``m<sup>2</sup>``, ``<b>Hund</b>e``), not
    at their ends (``<b>word</b>.`` holds the whole word)."""
    start, end = core(source, *word)
    return start < mark[0] < end or start < mark[1] < end
