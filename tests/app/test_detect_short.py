"""Short texts (a UI's labels, menu items, one-word lines) on a server of one source language, en -> de: told
among the served languages by lingua's high accuracy mode (attnmt.server.detect.TRIGRAMS_LENGTH), where its
trigrams alone, weighed against twenty languages, found "Anmelden" Turkish and "Abonnieren" Dutch."""

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, create_app
from attnmt.server.detect import TRIGRAMS_LENGTH, Detector


@pytest.fixture(scope="module")
def english_german(trained_model, serve_settings):
    """The tiny model served as en-de, its stand-in search answering "en-de: text", so an answer says whether a model
    translated it."""
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    served.run_batch = lambda texts, options: [f"en-de: {text}" for text in texts]
    with TestClient(create_app([served], serve_settings), raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("german, english", [
    ("Anmelden", "Save"), ("Zur Kasse", "Delete"), ("Abonnieren", "Edit profile"), ("Warnung", "New folder"),
    ("Mein Konto", "Open file"), ("Fenster", "Sign out"),
])
def test_auto_gives_a_short_german_label_back_as_it_is_and_translates_an_english_one(english_german, german, english):
    """Each German one was translated by en-de as English: German at 5.4 % ("Anmelden") to 39.6 % ("Fenster")
    among twenty languages.  The English ones, judged German at most at 35.4 % among the two, stay translated."""
    answer = english_german.post("/translate", json={"q": [german, english], "source": "auto", "target": "de"}).json()
    assert answer["translatedText"] == [german, f"en-de: {english}"]
    assert [found["language"] for found in answer["detectedLanguage"]] == ["de", "en"]
    assert answer["detectedLanguage"][0]["confidence"] >= 80


@pytest.mark.parametrize("label", ["Delete", "Undo", "Redo", "File", "Total", "Edit profile"])
def test_detect_ranks_english_first_for_a_short_english_label(english_german, label):
    """/detect put each of these German first."""
    ranked = english_german.post("/detect", json={"q": label}).json()
    assert ranked[0]["language"] == "en" and ranked[0]["confidence"] > 55


@pytest.mark.parametrize("label", ["Abonnieren", "Ja"])
def test_detect_ranks_german_first_for_a_short_german_label(english_german, label):
    ranked = english_german.post("/detect", json={"q": label}).json()
    assert ranked[0]["language"] == "de"


def test_a_text_of_120_characters_or_more_is_weighed_against_twenty_languages_a_shorter_one_among_the_served():
    """Trigrams are sure from 120 characters, and say that French sent to an English model is not English: the
    served languages' confidences add up to what lingua leaves them among the twenty, here almost nothing.  A
    shorter text is told among the served languages alone, whose confidences add up to 100."""
    short = "Le chien court dans le parc et les enfants jouent au ballon sous les arbres."
    longer = f"{short} Leurs parents lisent des livres sur un banc, et il fait beau aujourd'hui."
    assert len(short) < TRIGRAMS_LENGTH <= len(longer)
    detector = Detector(["en"], ["de"])
    assert sum(confidence for _, confidence in detector.rank_served(longer)) < 5
    assert detector.language(longer) is None  # a language no model serves is likelier
    assert sum(confidence for _, confidence in detector.rank_served(short)) == pytest.approx(100, abs=0.1)
