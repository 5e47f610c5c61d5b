"""``source: "auto"`` into a served language no model translates into (English on an en-de server): a text surely
in it already comes back as it is, as one sent with ``source`` and ``target`` that language does, and as
LibreTranslate gives it back; one that is not is refused, naming the targets there are."""

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, ServeSettings, create_app
from attnmt.server.auto_source import SURELY_TARGET

ENGLISH = "Two young children are playing with their dog in the garden behind the house."
UNREACHABLE = ("English (en) is not available as a target language from any source language (this server translates "
               "into German (de))")


@pytest.fixture(scope="module")
def client(trained_model):
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    with TestClient(create_app(models, ServeSettings()), raise_server_exceptions=False) as c:
        yield c


def test_an_english_text_into_english_comes_back_as_it_is(client):
    """It was 400, though the same text sent with source en came back as it is."""
    for source in ("en", "auto"):
        answer = client.post("/translate", json={"q": ENGLISH, "source": source, "target": "en"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["translatedText"] == ENGLISH
    detected = answer.json()["detectedLanguage"]
    assert detected["language"] == "en" and detected["confidence"] >= SURELY_TARGET


def test_a_list_of_english_texts_and_one_with_no_letters_comes_back_as_it_is(client):
    texts = [ENGLISH, "Welcome back", "12345"]
    answer = client.post("/translate", json={"q": texts, "source": "auto", "target": "en", "alternatives": 1})
    assert answer.status_code == 200, answer.text
    assert answer.json()["translatedText"] == texts and answer.json()["alternatives"] == [[], [], []]
    assert [each["language"] for each in answer.json()["detectedLanguage"]] == ["en"] * 3


def test_deepl_gives_an_english_text_into_english_back(client):
    answer = client.post("/v2/translate", json={"text": [ENGLISH], "target_lang": "EN-GB"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["translations"] == [{"detected_source_language": "EN", "text": ENGLISH}]


@pytest.mark.parametrize("texts", ["Der Hund schläft heute im Garten hinter dem Haus.", ["a dog runs"],
                                   [ENGLISH, "Der Hund schläft heute im Garten hinter dem Haus."]])
def test_a_text_not_surely_in_english_is_refused_as_before(client, texts):
    """German (no model reads it into English), or English too short to be sure of ("a dog runs": 55 %)."""
    answer = client.post("/translate", json={"q": texts, "source": "auto", "target": "en"})
    assert answer.status_code == 400 and answer.json() == {"error": UNREACHABLE}
