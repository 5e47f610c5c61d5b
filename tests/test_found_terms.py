"""A glossary's terms found in a text are read once per text (attnmt.decoding.found_terms), and printable ASCII
is made normal without asking each character (term_forms.normal_pieces): the same places either way."""

import random
import string

from attnmt.decoding import found_terms, glossary, term_forms
from attnmt.decoding.glossary import Glossary


def test_a_text_read_again_gives_the_same_places_without_reading_it_again(monkeypatch):
    terms = Glossary.of({"dog": "Hund", "New York": "New York", "access point": "Zugangspunkt"})
    read = []
    original = glossary.normal_pieces
    monkeypatch.setattr(glossary, "normal_pieces", lambda text, joiners: read.append(text) or original(text, joiners))
    text = "Two dogs near an access point in new  York."
    first = terms.found_in(text)
    assert first == [(4, 8, "Hund"), (17, 29, "Zugangspunkt"), (33, 42, "New York")]
    first.append((0, 0, "changed by the caller"))
    assert terms.found_in(text) == first[:3]
    assert read == [text]
    assert terms.found_in(text + " A dog.") == [*first[:3], (46, 49, "Hund")]
    assert len(read) == 2
    assert Glossary.of({"dog": "Köter"}).found_in(text) == [(4, 8, "Köter")]  # each glossary its own


def test_the_texts_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(found_terms, "KEPT", 5)
    terms = Glossary.of({"dog": "Hund"})
    for n in range(12):
        assert terms.found_in(f"dog {n}") == [(0, 3, "Hund")]
        assert len(terms._found) <= 5


def test_printable_ascii_is_made_normal_as_one_character_at_a_time_would_make_it():
    """The ASCII shortcut against the path every other text takes: the same text with "é" after it."""
    rng = random.Random(5)
    texts = [string.printable.strip(), "A Dog's  DAY-off: 3:1 (OK)!", "", " ", "ABC xyz ~`|\\"]
    texts += ["".join(rng.choice(string.printable[:95]) for _ in range(rng.randrange(1, 40))) for _ in range(200)]
    for text in texts:
        assert text.isascii() and text.isprintable()
        assert term_forms.normal_pieces(text, set()) == term_forms.normal_pieces(text + "é", set())[:-1], text
