"""The closed spelling a hyphenated source term is found in too (attnmt.decoding.term_spellings)."""

import pytest

from attnmt.decoding.term_spellings import closed_form, closed_spellings


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
    assert closed_spellings(terms, set(terms)) == {}
    assert closed_spellings({"e-book": "E-Book"}, {"e-book"}) == {"ebook": "e-book"}
