"""The names German, French and Spanish write their own way (attnmt.decoding.quality_exonyms), which the name rule
reads as kept."""

from attnmt.decoding.quality_exonyms import EXONYMS
from attnmt.decoding.quality_names import spelled

STEMS = [(language, word, stem) for language, table in EXONYMS.items() for word, stems in table.items()
         for stem in stems]


def test_each_word_is_one_the_rules_first_letters_miss():
    """A word whose translation starts with its first three letters ("Cologne" as "Köln") needs no entry."""
    assert not [entry for entry in STEMS if spelled(entry[2])[:3] == spelled(entry[1])[:3]]


def test_each_stem_has_four_letters_at_least():
    """A shorter stem ("Rom") is part of other words ("Strom") and would keep a name a translation left out."""
    assert not [entry for entry in STEMS if len(entry[2]) < 4]


def test_each_word_is_in_lower_case_as_the_rule_looks_it_up():
    assert {language for language, word, _ in STEMS if word != word.casefold()} == set()
    assert EXONYMS["de"]["vienna"] == ("wien",) and EXONYMS["de"]["germans"] == ("deutsch",)
    assert EXONYMS["fr"]["english"] == ("angl",) and EXONYMS["es"]["christmas"] == ("navidad",)
