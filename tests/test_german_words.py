"""Which German words are surely no nouns, so that a list's item chosen into a sentence is written in lower case
(attnmt.text.german_words)."""

import pytest

from attnmt.text.german_words import is_no_noun


@pytest.mark.parametrize("word", ["Sehr", "müde", "Draußen", "GESTERN", "Glücklich", "ruhig", "Typisch", "Sichtbar",
                                  "Seltsam", "Endlos", "Lebhaft", "Möglicherweise", "Rückwärts", "Schwarz"])
def test_an_adverb_or_adjective_is_no_noun(word):
    assert is_no_noun(word)


@pytest.mark.parametrize("word", ["Hund", "Arm", "Weg", "Morgen", "Bürgersteig", "Teig", "Mannschaft", "Tisch",
                                  "Schreibtisch", "Fisch", "Fleisch", "König", "Käfig", "Ig", "Los", "Bar"])
def test_a_noun_or_a_word_that_may_be_one_is_not_taken_for_no_noun(word):
    assert not is_no_noun(word)
