"""A chosen item's translation written as a part of its sentence (attnmt.documents.chosen_items): lowered where its
source item is and the target language writes that first word so."""

import pytest

from attnmt.documents.chosen_items import as_written


@pytest.mark.parametrize(("source", "translation", "language", "written"), [
    ("a red car", "Ein rotes Auto", "de", "ein rotes Auto"),  # an article
    ("in the park", "Im Park", "de-AT", "im Park"),  # a preposition and article in one
    ("three black dogs", "Drei schwarze Hunde", None, "drei schwarze Hunde"),  # a number in words
    ("big dogs", "Große Hunde", "de", "große Hunde"),  # an adjective before its noun
    ("a red car", "Une voiture rouge", "fr", "une voiture rouge"),  # any word where no noun takes a capital
    ("red wine", "Vino tinto", "es_ES", "vino tinto"),
    ("'a red car'", "„Ein rotes Auto“", "de", "„ein rotes Auto“"),  # quotes before it
])
def test_a_first_word_the_target_writes_in_lower_case_is_lowered(source, translation, language, written):
    assert as_written(source, translation, language) == written


@pytest.mark.parametrize(("source", "translation", "language", "written"), [
    ("very tired", "Sehr müde", "de", "sehr müde"),  # an adverb
    ("tired", "Müde", "de", "müde"),  # a predicate adjective
    ("happy", "Glücklich", None, "glücklich"),  # an adjective's ending, a language not known
    ("sad and hungry", "Traurig und hungrig", "de-CH", "traurig und hungrig"),
    ("outside", "Draußen", "lb", "draußen"),  # an adverb, Luxembourg's German
    ("quite slowly", "Ziemlich langsam", "de", "ziemlich langsam"),
    ("visible", "Sichtbar", "de", "sichtbar"),
    ("often", "Oft.", "de", "oft."),
    ("red", "Rot", "de", "rot"),  # a colour after "is"
])
def test_a_german_adverb_or_adjective_that_is_no_noun_is_lowered(source, translation, language, written):
    """German writes only its nouns with a capital inside a sentence: "Der Hund ist Sehr müde." kept the capital its
    translation alone began with."""
    assert as_written(source, translation, language) == written


@pytest.mark.parametrize(("source", "translation", "language"), [
    ("cars and boats", "Autos und Boote", "de"),  # a German noun
    ("dogs", "Hunde", None),  # a noun where the language is not known
    ("Rex and Bella", "Rex und Bella", "fr"),  # the source item's capital
    ("a red car", "EIN ROTES AUTO", "de"),  # in capitals
    ("a USB stick", "USB-Stick", "fr"),  # an acronym
    ("the iPhone", "IPhone-Hülle", "fr"),  # a capital inside the word
    ("an arm", "Arm", "de"),  # a noun that is an adjective too ("arm"): may be the noun, kept
    ("a desk", "Schreibtisch", "de"),  # a noun with an adjective's ending ("-isch")
    ("a sidewalk", "Bürgersteig", None),  # ... "-ig"
    ("the team", "Mannschaft", "de"),  # ... "-haft"
    ("a king", "König", "de"),  # a noun in -ig
    ("2 dogs", "2 Hunde", "de"),  # no letter before the noun
])
def test_a_word_the_target_writes_with_a_capital_keeps_it(source, translation, language):
    assert as_written(source, translation, language) == translation
