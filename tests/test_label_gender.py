"""A German label's noun phrase is in the nominative, its article and adjectives of one gender, its noun's where the
noun's ending or a person's sex shows it (attnmt.decoding.label_gender): "Ein kleine Hund", "Der Frau", "Den Hund"
are no label's."""

import pytest

from attnmt.decoding.label_gender import no_label_phrase, noun_gender, phrase, readings
from attnmt.decoding.label_phrases import misread, words_of


@pytest.mark.parametrize("translation", [
    "Ein kleine Hund",  # "ein" takes "-er" or "-es" after it, never "-e"
    "Eine kleiner Katze",
    "Der großes Haus",  # "-es" after "der"
    "EIN KLEINE HUND",  # in capitals too
    "Ein kleinen Hund",  # "-en" after "ein": an oblique case
])
def test_an_article_and_adjective_of_no_one_gender_are_no_labels(translation):
    assert no_label_phrase(words_of(translation))


@pytest.mark.parametrize("translation", [
    "Den Hund", "Einen Hund", "Dem Mann", "Einem kleinen Hund", "Eines Hauses",
    "Alten Mann",  # no article, an adjective's oblique ending
    "Roten Schuhen",
])
def test_a_label_in_another_case_than_the_nominative_is_no_labels(translation):
    assert no_label_phrase(words_of(translation))


@pytest.mark.parametrize("translation", [
    "Der Frau", "DER FRAU",  # a woman's noun
    "Das Zeitung", "Ein großes Zeitung",  # "-ung": feminine
    "Der Mädchen",  # "-chen": neuter
    "Eine Schmetterling",  # "-ling": masculine
    "Das Feuerwehrmann",  # a compound's gender is its last part's
    "Der Kellnerin",
    "Die Mann",  # "die" is a plural's too, but "Mann" no plural
])
def test_an_article_of_another_gender_than_its_nouns_form_shows_is_no_labels(translation):
    assert no_label_phrase(words_of(translation))


@pytest.mark.parametrize("translation", [
    "Die Frau", "Ein kleiner Hund", "Ein kleines Haus", "Eine kleine Katze", "EIN ALTER MANN", "Die Mädchen",
    "Die alten Bücher", "Meine Bestellungen", "Ihr Konto", "Unser Team", "Dieser Artikel", "Rote Schuhe",
    "Große Auswahl", "Neue Nachrichten", "Der Moment",  # "-ment" is neuter, but "Moment"
    "Der Papagei", "Die Polizei", "Das Knie",  # "-ei", "-ie": feminine in a longer word
    "Der Kuchen", "Der Champion", "Ein großer Sprung",
    "Ein großer Haus",  # a noun whose form shows no gender is taken with any
    "Neuen Ordner erstellen",  # a verb's object: not a label's subject
    "Den Warenkorb anzeigen", "Mit dem Hund", "Zwei Hunde", "Häufig gestellte Fragen",
    "Jeden Tag", "Diesen Monat",  # a time's accusative: "every day", "this month"
])
def test_a_nominative_of_one_gender_its_nouns_is_a_labels(translation):
    assert not no_label_phrase(words_of(translation))


def test_the_noun_phrase_is_its_determiner_adjectives_and_noun():
    assert phrase(words_of("Eine kleine Katze")) == ("eine", ["kleine"], "katze")
    assert phrase(words_of("Rote Schuhe")) == (None, ["rote"], "schuhe")
    assert phrase(words_of("Der Mann mit dem Hut")) == ("der", [], "mann")
    assert phrase(words_of("Schuhe Rote")) is None  # no adjective first


def test_an_article_and_its_adjectives_read_as_the_genders_they_can_name():
    assert readings("ein", ["kleiner"]) == {"m"} and readings("ein", ["kleines"]) == {"n"}
    assert readings("die", ["alten"]) == {"pl"} and readings("die", []) == {"f", "pl"}
    assert readings(None, ["rote"]) == {"f", "pl"} and readings("den", []) == set()


@pytest.mark.parametrize(("noun", "gender"), [
    ("zeitung", "f"), ("fußballmannschaft", "f"), ("universität", "f"), ("musik", "f"), ("familie", "f"),
    ("bäckerei", "f"), ("lehrerin", "f"), ("hausfrau", "f"),
    ("mädchen", "n"), ("büchlein", "n"), ("dokument", "n"), ("museum", "n"), ("zentrum", "n"),
    ("schmetterling", "m"), ("tourismus", "m"), ("friseur", "m"), ("traktor", "m"), ("feuerwehrmann", "m"),
    ("hund", None), ("boot", None), ("moment", None), ("ei", None), ("knie", None),
    ("kuchen", None), ("knochen", None), ("champion", None),  # "-chen" after a vowel, "-ion" after "p": masculine
])
def test_a_nouns_ending_shows_its_gender_or_none(noun, gender):
    assert noun_gender(noun) == gender


def test_a_label_declined_otherwise_is_misread():
    assert misread("A small dog", "Ein kleine Hund") and misread("The woman", "Der Frau")
    assert not misread("A small dog", "Ein kleiner Hund") and not misread("The woman", "Die Frau")
