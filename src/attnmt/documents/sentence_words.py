"""Where the words of a text's sentences stand among the words of the text (split at whitespace, as Pharaoh's
are): the numbers a paragraph's alignment (attnmt.documents.paragraphs.text_pairs) and word probabilities
(``text_words``) are joined by.

A sentence's words are looked for in the text in order, each without the punctuation at its edges
(``word_core``): a sentence's translation is written into its text with the text's own end mark and quotes
(the model's "Er ist in der Wiese." ends "in der Wiese" where its source had no stop, "Wiese!" where it had
"!"), and "Wiese." looked for as the model wrote it was found nowhere, its probability given to the word
before, or in the next sentence, whose words then had none.  A mark written as a word of its own (French "Il court
!", "« Oui »") is all punctuation and has no core: one the text changed ("Il court. Elle marche !") is looked for
before the next sentence alone (``find_mark``)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from attnmt.decoding.quality import Assessment
from attnmt.documents.flat import is_punctuation
from attnmt.documents.spans import WORD
from attnmt.text.invisible import invisible


def text_words(parts: Sequence[Assessment | None], sentences: Sequence[str],
               text: str) -> list[tuple[str, float | None]]:
    """(word, probability) per word of ``text`` (split at whitespace) from its sentences' (each
    part's words: its sentence's, split at whitespace; ``word_numbers`` places them): the product
    of those of the sentence words it holds, None where it holds none the model gave one (a URL,
    which the sentences leave out).  Joined one after the other, the sentences' words were no
    words of ``text`` where sentences touch ("rennt.Eine" was "rennt." and "Eine"), nor where a
    URL was taken out of one."""
    words = text.split()
    found: list[float | None] = [None] * len(words)
    for part, numbers in zip(parts, word_numbers(sentences, text), strict=True):
        for (_, p), k in zip(part.words if part else [], numbers, strict=False):  # a part without words: none
            known = found[k]
            if p is not None:
                found[k] = p if known is None else known * p
    return [(word, None if p is None else round(p, 4)) for word, p in zip(words, found, strict=True)]


def word_numbers(sentences: Sequence[str], text: str) -> list[list[int]]:
    """For each of ``sentences`` (in the order ``text`` holds them), the number of the word of
    ``text`` (split at whitespace) that holds each of its words.  A word is looked for by its
    ``word_core`` where the last one ended, first where a word of ``text`` starts (or past the
    punctuation it starts with) or right there (sentences that touch, past punctuation too),
    so that a URL taken out of a sentence, which ``text`` holds, is not taken for one of its words.
    It is looked for, on both sides, without the characters that show nothing (``unread``): soft
    hyphens, as the sentences were read (attnmt.documents.flat.FlatBuilder.add_text drops them:
    "co\u00adoperative" is "cooperative"), bidirectional controls, zero-width spaces, word joiners
    (attnmt.documents.bidi.edges: those at a sentence's edges are no part of it, "\u2067A" and
    "\u200bA" hold the sentence's "A"; half a pair is left out of a translation), and numbered by
    where it stands in ``text``."""
    starts = [match.start() for match in WORD.finditer(text)]
    places = [k for k, character in enumerate(text) if not invisible(character)] + [len(text)]
    plain = unread(text)
    begins, numbers, position = word_begins(plain), [], 0
    cores = [[word_core(unread(word)) for word in sentence.split()] for sentence in sentences]
    for k, words in enumerate(cores):
        following = next((later[0] for later in cores[k + 1:] if later), None)
        each = []
        for word in words:
            if all(map(is_punctuation, word)):
                at, end = find_mark(plain, word, position, begins, following)
            else:
                at = find_word(plain, word, position, begins)
                end = at + len(word)
            each.append(max(bisect_right(starts, places[position if at < 0 else at]) - 1, 0))
            position = position if at < 0 else end
        numbers.append(each)
    return numbers


def word_core(word: str) -> str:
    """``word`` without the punctuation at its edges ("Wiese." and "„Wiese“" are "Wiese"), which the text a
    sentence is written into may have changed; a word of punctuation alone is itself ("—")."""
    start, end = past_punctuation(word, 0), len(word)
    while end > start and is_punctuation(word[end - 1]):
        end -= 1
    return word[start:end] or word


def word_begins(text: str) -> set[int]:
    """Where each word of ``text`` (split at whitespace) starts, and where it starts past the punctuation it
    opens with ("„Er": 0 and 1)."""
    return {at for match in WORD.finditer(text) for at in (match.start(), past_punctuation(text, match.start()))}


def past_punctuation(text: str, at: int) -> int:
    """The place after the punctuation that ``text`` holds from ``at`` on (``at`` where it holds none)."""
    while at < len(text) and is_punctuation(text[at]):
        at += 1
    return at


def unread(text: str) -> str:
    """``text`` as ``word_numbers`` reads it: without the characters that show nothing and take no room."""
    return "".join(character for character in text if not invisible(character))


def find_word(text: str, word: str, position: int, begins: set[int]) -> int:
    """Where ``word`` is in ``text`` from ``position`` on: the first place that is ``position`` or past only
    punctuation from it ("rennt!Eine": "Eine" after "rennt"), or one of ``begins`` (``word_begins``), else the
    first place at all (-1: nowhere)."""
    near = past_punctuation(text, position)
    first = at = text.find(word, position)
    while at >= 0 and at > near and at not in begins:
        at = text.find(word, at + 1)
    return at if at >= 0 else first


def find_mark(text: str, mark: str, position: int, begins: set[int], following: str | None) -> tuple[int, int]:
    """Where ``mark``, a sentence's word of punctuation alone, is in ``text`` from ``position`` on, and where it ends:
    ``find_word``'s place where that is before the next sentence's first word (``following``: past a URL the sentence
    went without, "Voir https://a.org !"), else the punctuation ``text`` holds there, past spaces (the mark the text
    wrote for it: "court." or "court ?" for "court !"; not the next sentence's "«"), else nowhere (-1, ``position``:
    the text left it out).  Every sentence may end in such a mark, and one the text changed was found as the next
    sentence's."""
    at = find_word(text, mark, position, begins)
    bound = -1 if following is None else find_word(text, following, position, begins)
    if at >= 0 and (bound < 0 or at < bound):
        return at, at + len(mark)
    near = position
    while near < len(text) and text[near].isspace():
        near += 1
    end = past_punctuation(text, near)
    return (near, end) if near < end and (bound < 0 or near < bound) else (-1, position)
