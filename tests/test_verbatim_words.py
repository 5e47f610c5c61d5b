"""A number in words read in the language of its text (verbatim_words.counted_word)."""

import pytest

from attnmt.decoding.verbatim import differs


@pytest.mark.parametrize(("source", "translation", "languages"), [
    ("Dos perros juegan en el parque.", "Dogs play in the park.", ("es", "en")),
    ("Llegaron once personas.", "People arrived.", ("es", "en")),
    ("Quince niños cantan.", "Kinder singen.", ("es", "de")),
    ("Sept hommes marchent.", "Männer gehen.", ("fr", "de")),
    ("Seize joueurs attendent.", "Spieler warten.", ("fr", "de")),
    ("Elf Spieler stehen auf dem Platz.", "Players stand on the pitch.", ("de", "en")),
    ("Dogs play.", "Dos perros juegan.", ("en", "es")),  # added
])
def test_a_number_that_is_another_word_in_another_language_counts_in_its_own(source, translation, languages):
    """"dos", "once", "quince", "sept", "seize" and "elf" are words of English too, so none was read in any
    language: Spanish's "Dos perros" as "Dogs" raised no flag."""
    assert differs(source, translation, languages[1], languages[0])


@pytest.mark.parametrize(("source", "translation", "languages"), [
    ("Onze kinderen spelen buiten.", "Unsere Kinder spielen draußen.", ("nl", "de")),  # Dutch's "our"
    ("Onze kinderen spelen buiten.", "Unsere Kinder spielen draußen.", (None, "de")),
    ("Onze kinderen.", "Nos enfants.", ("nl", "fr")),
    ("Il a acheté un livre neuf.", "Er hat ein neues Buch gekauft.", ("fr", "de")),  # French's "new"
])
def test_a_word_that_is_no_number_in_its_language_is_not_dropped(source, translation, languages):
    """French's "onze" (11) was read in Dutch's "onze kinderen" (our children): flagged ``verbatim``."""
    assert not differs(source, translation, languages[1], languages[0])
