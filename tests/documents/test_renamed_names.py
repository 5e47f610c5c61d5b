"""A kept name of several words the model wrote otherwise (attnmt.documents.copied_words.renamed_name): the page's
name goes over the words aligned to it only where they respell it (``Blaue Lagune`` for ``Blue Lagoon``), not over
another word the alignment gave it, which in German has a capital as a name does (``Wasser``).  Fixed (conftest):
one translation and alignment, source word to target word, for every sentence."""

import pytest

from attnmt.documents.copied_words import respells
from attnmt.documents.markup import translate_markup

KEPT = '<span translate="no">Blue Lagoon</span>'
PAGE = f"<p>The {KEPT} has warm water.</p>"  # The(0) Blue(1) Lagoon(2) has(3) warm(4) water.(5)


@pytest.mark.parametrize("translation, alignment", [
    ("Das Wasser ist warm.", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (5, 1)]),
    ("Das Wasser ist warm.", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (5, 3)]),
    ("Warmes Wasser hat die Lagune.", [(0, 3), (1, 1), (2, 1), (3, 2), (4, 0), (5, 1)]),
    ("Die Lagune hat warmes Wasser.", [(0, 0), (1, 4), (2, 4), (3, 2), (4, 3), (5, 4)]),
])
def test_a_german_noun_aligned_to_a_kept_name_stays_in_the_translation(fixed, translation, alignment):
    """The name aligned to "Wasser", a noun with its capital, went over it: "Das Blue Lagoon ist warm."."""
    out = translate_markup([PAGE], fixed(translation, alignment))[0]
    assert "Wasser" in out and out.count(KEPT) == 1
    assert out.replace(f" {KEPT}", "") == f"<p>{translation}</p>"


@pytest.mark.parametrize("translation, alignment", [
    ("Die Blaue Lagune hat warmes Wasser.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]),
    ("Die Lagune hat warmes Wasser.", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (5, 4)]),
])
def test_a_kept_name_goes_over_the_words_that_respell_it(fixed, translation, alignment):
    out = translate_markup([PAGE], fixed(translation, alignment))[0]
    assert out == f"<p>Die {KEPT} hat warmes Wasser.</p>"


def test_a_kept_name_whose_words_the_model_turned_around_goes_over_them_all(fixed):
    """Read as the keys "Blue Lagoon" cut short (copied_words.keys_dropped), "Lagoon" alone took the name, and the
    page showed "Die <span>Blue Lagoon</span> Blue hat ..."."""
    out = translate_markup([PAGE], fixed("Die Lagoon Blue hat warmes Wasser.", [(0, 0), (1, 2), (2, 1), (3, 3),
                                                                                 (4, 4), (5, 5)]))[0]
    assert out == f"<p>Die {KEPT} hat warmes Wasser.</p>"


@pytest.mark.parametrize("written, alike", [
    ("Akme", True), ("Widgett", True), ("Korp", True), ("Acme-Widget-Corp", True), ("Ácme", True),
    ("Wasser", False), ("Messe", False), ("Firma", False),
])
def test_a_word_respells_a_name_where_half_its_letters_and_the_names_are_alike(written, alike):
    """difflib's ratio, twice the letters in common in order over all of both: Akme and Acme 2 * 3 / 8 = 0.75."""
    assert respells(written, ["Acme", "Widget", "Corp"]) is alike
