"""The closed spelling a hyphenated source term is found in too (attnmt.decoding.term_spellings)."""

import pytest

from attnmt.decoding.term_spellings import closed_form, closed_spellings, spaced_forms


@pytest.mark.parametrize(("key", "form"), [
    ("e-mail", "email"), ("e-mail address", "email address"), ("x-ray", "xray"), ("log-in", "login"),
    ("set-up wizard", "setup wizard"), ("add-on", "addon"), ("e-mail log-in", "email login")])
def test_a_hyphen_after_one_letter_or_before_a_particle_is_dropped(key, form):
    assert closed_form(key) == form


@pytest.mark.parametrize("key", ["re-sign", "co-op", "state-of-the-art", "wi-fi", "4g-ready", "e-", "email"])
def test_a_hyphen_between_words_of_their_own_is_kept(key):
    """"re-sign" is no "resign"."""
    assert closed_form(key) is None


def test_a_closed_spelling_that_is_a_term_or_of_two_terms_is_left_out():
    """"email" is a term of its own; "setup" the closed spelling of "set-up" and of "s-etup"."""
    terms = {"e-mail": "E-Mail", "email": "Mail", "set-up": "Einrichtung", "s-etup": "Aufbau"}
    assert closed_spellings(terms, set(terms)) == {"e mail": "e-mail", "set up": "set-up", "s etup": "s-etup"}
    assert closed_spellings({"e-book": "E-Book"}, {"e-book"}) == {"ebook": "e-book", "e book": "e-book"}


@pytest.mark.parametrize(("key", "forms"), [
    ("ice-cream vendor", ["ice cream vendor", "ice-cream-vendor"]), ("fire truck", ["fire-truck"]),
    ("wi-fi 6", ["wi fi 6"]), ("4g-ready", []), ("mp3 player", []), ("dog", [])])
def test_a_terms_words_are_spaced_or_hyphenated_between_words_of_letters_alone(key, forms):
    assert spaced_forms(key) == forms


def test_another_spelling_that_is_a_term_of_its_own_is_left_out():
    """"fire-truck" beside "fire truck" keeps its own target."""
    terms = {"fire truck": "Feuerwehrauto", "fire-truck": "Löschfahrzeug"}
    assert closed_spellings(terms, set(terms)) == {}
