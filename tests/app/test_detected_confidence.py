"""source=auto's detected language and confidence as /detect answers them for the same text, as LibreTranslate
answers its detectedLanguage (/detect's first entry): a client shows that confidence beside the translation."""

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, ServeSettings, create_app

SETTINGS = ServeSettings(max_texts=8, max_chars=400, max_request_chars=2000)
TEXTS = ["A dog runs.", "Hello", "Two children are playing football on the green grass near the old church.",
         "Where is the station?", "The weather is nice today, isn't it?", "Ein Hund rennt.", "Abbrechen"]


@pytest.fixture(scope="module", params=[("en-de",), ("en-de", "fr-de")], ids=["one-source", "two-sources"])
def client(trained_model, request):
    models = [ServedModel(*load_model_dir(trained_model), pair, pair[:2], pair[3:]) for pair in request.param]
    with TestClient(create_app(models, SETTINGS), raise_server_exceptions=False) as client:
        yield client


def detect(client, q) -> dict[str, float]:
    return {found["language"]: found["confidence"] for found in client.post("/detect", json={"q": q}).json()}


@pytest.mark.parametrize("text", TEXTS)
def test_a_texts_detected_confidence_is_detects_for_its_language(client, text):
    """An English "A dog runs." was 26 % English at /translate on an en-de server, 55 % at /detect."""
    found = client.post("/translate", json={"q": text, "source": "auto", "target": "de"}).json()["detectedLanguage"]
    assert found["confidence"] == detect(client, text)[found["language"]]


@pytest.mark.parametrize("text", ["A dog runs.", "Where is the station?", "Hello"])
def test_an_english_text_is_detected_at_detects_top_entry(client, text):
    ranked = client.post("/detect", json={"q": text}).json()
    found = client.post("/translate", json={"q": text, "source": "auto", "target": "de"}).json()["detectedLanguage"]
    assert ranked[0]["language"] == "en" and found == ranked[0]


def test_html_is_detected_at_detects_confidence_for_its_text(client):
    found = client.post("/translate", json={"q": "<p>A dog <b>runs</b>.</p>", "source": "auto", "target": "de",
                                            "format": "html"}).json()["detectedLanguage"]
    assert found == {"confidence": detect(client, "A dog runs.")["en"], "language": "en"}


def test_a_short_text_in_a_list_takes_the_lists_language_at_detects_confidence_for_the_list(client):
    """Each short text of the list takes the whole's language, and /detect's confidence for the whole list."""
    q = ["A dog runs.", "The boy laughs.", "A woman reads a book."]
    found = client.post("/translate", json={"q": q, "source": "auto", "target": "de"}).json()["detectedLanguage"]
    assert found == [{"confidence": detect(client, q)["en"], "language": "en"}] * 3

