"""The limits of a key of attnmt's keys file, as DeepL's API answers them to its clients: DeepL's statuses
(deepl-python retries a 429 with backoff, raises on a 413) and its ``{"message"}`` in its own words, not
LibreTranslate's ("Slowdown: …", whose statuses /translate keeps)."""

from fastapi.testclient import TestClient

from attnmt.server.access import Access, ApiKey
from attnmt.server.app import ServeSettings, create_app

KEY = "0b4e2c1d-5a8f-4d2e-9c1b-7e3f6a9d2b10:fx"
AUTH = {"Authorization": f"DeepL-Auth-Key {KEY}"}
BODY = {"text": ["a dog runs", "a cat sleeps"], "source_lang": "EN", "target_lang": "DE"}  # 22 characters


def keyed_client(served, key: ApiKey) -> TestClient:
    """A server of ``served`` whose one key is ``KEY`` with ``key``'s limits, fresh for each test."""
    return TestClient(create_app([served], ServeSettings(), Access({KEY: key})), raise_server_exceptions=False)


def test_a_deepl_translate_over_its_keys_characters_a_minute_is_429_in_deepls_words(served):
    """22 + 22 characters, of the key's 30 a minute: "Slowdown: 30 characters per 1 minute per key" was
    LibreTranslate's wording."""
    with keyed_client(served, ApiKey(1, None, chars_per_minute=30)) as client:
        assert client.post("/v2/translate", json=BODY, headers=AUTH).status_code == 200
        answer = client.post("/v2/translate", json=BODY, headers=AUTH)
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
    assert answer.json() == {"message": "30 characters per 1 minute per key"}


def test_a_deepl_translate_of_more_characters_than_its_key_has_a_minute_is_413(served):
    """No retry can pass it: 413, as over the text limits, where it was 400, a bad request."""
    with keyed_client(served, ApiKey(1, None, chars_per_minute=20)) as client:
        answer = client.post("/v2/translate", json=BODY, headers=AUTH)
    assert answer.status_code == 413
    assert answer.json() == {"message": "the request has 22 characters; this key may translate at most 20 a minute"}

