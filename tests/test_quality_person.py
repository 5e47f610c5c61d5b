"""The person rule (attnmt.decoding.quality_person): a translation whose pronouns speak of another person than
the source's is flagged ``person``, only where both languages are known and it is clear."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_language import Languages
from attnmt.decoding.quality_person import person_differs

EN_DE = Languages("en", "de")


@pytest.mark.parametrize(("source", "translation"), [
    ("My suitcase is lost.", "Dein Koffer ist verloren."),
    ("We arrive at 9.", "Sie kommen um 9 an."),
    ("Our flight was cancelled because of the fog.", "Ihr Flug wurde wegen des Nebels gestrichen."),
    ("Can you help me, please?", "Können Sie ihm bitte helfen?"),
    ("Enter your e-mail address and your password.", "Geben Sie seine E-Mail-Adresse und sein Passwort ein."),
    ("Check the spelling.", "Überprüfe deine Rechtschreibung."),
])
def test_another_person_is_flagged(source, translation):
    assert person_differs(source, translation, EN_DE)


@pytest.mark.parametrize(("source", "translation"), [
    ("My suitcase is lost.", "Mein Koffer ist verloren gegangen."),
    ("We arrive at 9.", "Wir kommen um 9 an."),
    ("You can change the language in the settings.", "Sie können die Sprache in den Einstellungen ändern."),
    ("Restart the computer to save the changes.", "Starten Sie den Computer neu, um Ihre Änderungen zu speichern."),
    ("Thank you for your order.", "Vielen Dank für Ihre Bestellung."),
    ("Excuse me, where is the station?", "Entschuldigung, wo ist der Bahnhof?"),
    ("You can see the lake from the hotel.", "Vom Hotel aus sieht man den See."),
    ("The hotel is near the US border.", "Das Hotel liegt nahe der Grenze zu den USA."),
    ("A man is checking his I-Pod.", "Ein Mann schaut auf seinen iPod."),
    ('A boy in a "I love NY" shirt waves.', "Ein Junge in einem „I love NY“-Hemd winkt."),
    ("A performer of the Cirque du Soleil bows.", "Ein Artist des Cirque du Soleil verbeugt sich."),
])
def test_the_same_person_or_one_german_may_mean_is_not_flagged(source, translation):
    assert not person_differs(source, translation, EN_DE)


@pytest.mark.parametrize(("source", "translation"), [
    ("I'm hungry.", "Ich habe Hunger."),
    ("I'm sorry.", "Es tut mir leid."),
    ("I'd like a coffee, please.", "Ich hätte gern einen Kaffee, bitte."),
    ("We're almost there.", "Wir sind fast da."),
    ("We've arrived.", "Wir sind angekommen."),
    ("We'll see.", "Mal sehen."),
    ("Let's go!", "Los geht's!"),
    ("Let's start.", "Fangen wir an."),
])
def test_an_english_contraction_says_its_pronoun_s_person(source, translation):
    """"I'm hungry." as "Ich habe Hunger." was flagged: "I'm" was read as no pronoun, and "ich" as a person the
    source did not say; "Let's go!" as "Los geht's!" was, "let's" a "we" for certain."""
    assert not person_differs(source, translation, EN_DE)


@pytest.mark.parametrize(("source", "translation"), [
    ("I'm tired.", "Er ist müde."),
    ("I've finished the report.", "Sie hat den Bericht fertig."),
    ("We're on our way.", "Sie sind unterwegs."),
])
def test_an_english_contraction_s_person_changed_is_flagged(source, translation):
    assert person_differs(source, translation, EN_DE)


def test_german_source_reads_the_same_way():
    assert person_differs("Mein Koffer ist verloren.", "Your suitcase is lost.", Languages("de", "en"))
    assert not person_differs("Ihr Koffer ist verloren.", "Her suitcase is lost.", Languages("de", "en"))


@pytest.mark.parametrize("languages", [Languages("en", None), Languages(), Languages("en", "fr")])
def test_a_language_not_known_or_without_pronouns_is_not_judged(languages):
    assert not person_differs("My suitcase is lost.", "Dein Koffer ist verloren.", languages)


def test_a_side_in_another_language_is_not_read_for_persons():
    """French's article "du" is no German "du": a French text given as German is the language rule's to flag."""
    assert not person_differs("The neighbour's dog sleeps in the garden.", "Le chien du voisin dort dans le jardin.",
                              EN_DE)


def test_assess_flags_another_person(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    changed, kept = assess(model, tokenizer, ["my dog sleeps"] * 2, ["dein hund schläft", "mein hund schläft"],
                           languages=EN_DE)
    assert "person" in changed.flags and "person" not in kept.flags
