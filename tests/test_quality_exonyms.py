"""The names German writes its own way (attnmt.decoding.quality_exonyms), which the name rule reads as kept."""

from attnmt.decoding.quality_exonyms import EXONYMS
from attnmt.decoding.quality_names import spelled


def test_each_word_is_one_the_rules_first_letters_miss():
    """A word whose translation starts with its first three letters ("Cologne" as "Köln") needs no entry."""
    read = [(word, stem) for word, stems in EXONYMS["de"].items() for stem in stems
            if spelled(stem)[:3] == spelled(word)[:3]]
    assert not read


def test_each_stem_has_four_letters_at_least():
    """A shorter stem ("Rom") is part of other words ("Strom") and would keep a name a translation left out."""
    assert min(len(stem) for stems in EXONYMS["de"].values() for stem in stems) >= 4


def test_each_word_is_in_lower_case_as_the_rule_looks_it_up():
    assert all(word == word.casefold() for word in EXONYMS["de"])
    assert EXONYMS["de"]["vienna"] == ("wien",) and EXONYMS["de"]["germans"] == ("deutsch",)
