"""A source of one word given back as its translation ("Snow." for "Snow."): the ``copied`` rule of quality
(attnmt.decoding.quality) reads it beside the copied share, which needs two words of the translation's own (a name
or a word both languages write, "Berlin.", "Taxi.", is given back rightly, and one word alone cannot tell).

The model's two vocabularies tell them apart (or its one, shared by both languages): a word the target language
writes is one piece of the target vocabulary as a sentence starts with it ("Taxi", "Hotel", "Berlin"), and a word
of the source language's own is one piece of the source vocabulary in lower case, as a sentence writes it where
none starts ("snow").  A word of the source language's own that the target language does not write was left in
the source's language.  On the demo
model (Multi30k en-de, one vocabulary for both): "Snow", "Rain", "Music", "Water", "Help" read so; "Taxi", "Hotel",
"Pizza", "Team", "Computer" and the names "Berlin", "Paris", "Smith" do not, nor do "Hello", "Thanks" and
"Welcome", which no caption holds in lower case, or "Dog" and "Car", which its German side writes so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from attnmt.decoding.quality_measures import words_of

EDGES = re.compile(r"^\W+|\W+$")  # the marks around a word as str.split() cuts it ("Snow." is "Snow")


def source_word_kept(source: str, translation: str, common: Callable[[str], bool],
                     written: Callable[[str], bool]) -> bool:
    """Whether ``translation`` is ``source`` word for word (``words_of``: case and marks aside), and one of its
    words, no ``abbreviation``, is one piece of the source vocabulary in lower case (``common``:
    quality_names.common_words) and no piece of the target vocabulary as a sentence starts with it (``written``:
    "Snow", "Taxi"; a vocabulary both languages share holds the source's "snow" too)."""
    words = words_of(translation)
    if not words or words != words_of(source):
        return False
    cores = [EDGES.sub("", word) for word in translation.split()]
    return any(any(ch.isalpha() for ch in core) and not abbreviation(core) and common(core.lower())
               and not written(core[:1].upper() + core[1:]) for core in cores)


def abbreviation(word: str) -> bool:
    """Whether ``word`` writes two letters or more, all capitals ("OK", "USB", "NASA"): kept as written in any
    language, though "ok" may be a common word of the source's."""
    letters = [ch for ch in word if ch.isalpha()]
    return len(letters) > 1 and all(ch.isupper() for ch in letters)


def target_words(spans: Callable[[str], Sequence[tuple[int, int]]]) -> Callable[[str], bool]:
    """Whether a word is one piece of a tokenizer's target vocabulary, its marks aside (``spans``: the characters
    of each piece the target vocabulary cuts a text into, Tokenizer.target_spans)."""
    return lambda word: sum(any(ch.isalnum() for ch in word[b:e]) for b, e in spans(word)) == 1
