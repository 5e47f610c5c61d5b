"""A source of one word given back as its translation (attnmt.decoding.quality_copy): flagged ``copied`` where the
word is the source language's own (one source piece in lower case) and the target language does not write it (more
than one target piece); a name, an abbreviation or a word both languages write is given back rightly."""

from dataclasses import replace

import pytest

from attnmt.decoding.quality_copy import source_word_kept, target_words
from attnmt.decoding.quality_features import Features, rules_broken

# A stand-in for the demo model's vocabularies (Multi30k en-de, one for both languages): the source's words in lower
# case, and the words German writes, as a sentence starts with them.
SOURCE_WORDS = {"snow", "rain", "water", "taxi", "hotel", "pizza", "ok", "help", "fire"}
TARGET_WORDS = {"Taxi", "Hotel", "Pizza", "Berlin", "Schnee", "Feuer"}


def common(word: str) -> bool:
    return word in SOURCE_WORDS


def written(word: str) -> bool:
    return word in TARGET_WORDS


@pytest.mark.parametrize("source, translation", [("Snow.", "Snow."), ("Rain!", "Rain!"), ("water", "Water."),
                                                 ("Help!", "help!"), ("snow", "snow"), ("Fire!", "Fire!")])
def test_a_word_of_the_sources_language_given_back_is_kept(source, translation):
    assert source_word_kept(source, translation, common, written)


@pytest.mark.parametrize("source, translation", [
    ("Taxi.", "Taxi."), ("Hotel!", "Hotel!"), ("Pizza.", "Pizza."),  # a word German writes too
    ("Berlin.", "Berlin."), ("Obama.", "Obama."),  # a name: no common word of the source's
    ("OK.", "OK."), ("42.", "42."),  # an abbreviation, a number
    ("Snow.", "Schnee."), ("Fire!", "Feuer!"),  # translated
])
def test_a_name_a_number_a_shared_word_or_a_translation_is_not(source, translation):
    assert not source_word_kept(source, translation, common, written)


def test_a_translation_that_is_not_the_source_word_for_word_is_not():
    assert not source_word_kept("Snow falls.", "Snow.", common, written)
    assert not source_word_kept("Snow.", "Snow rain.", common, written)


def test_a_source_word_kept_breaks_the_copied_rule():
    f = Features(mean_log_prob=-1.0, min_log_prob=-2.0, eos_log_prob=-0.1, unread=0.0, repeated=0.0, copied=1.0,
                 length_ratio=1.0, words=1)
    assert not rules_broken(f, (0.4, 2.5))["copied"]  # one word: too few for the copied share
    assert rules_broken(replace(f, source_word_kept=True), (0.4, 2.5))["copied"]


def test_a_target_word_is_one_piece_of_the_target_vocabulary_its_marks_aside():
    def spans(text: str) -> list[tuple[int, int]]:  # "▁Taxi" and "!" one piece each, any other word a letter a piece
        return [(0, 4), (4, 5)] if text.startswith("Taxi") else [(k, k + 1) for k in range(len(text))]

    assert target_words(spans)("Taxi") and target_words(spans)("Taxi!")
    assert not target_words(spans)("Snow")
