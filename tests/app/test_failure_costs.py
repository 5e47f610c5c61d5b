"""What a request that fails after it was charged costs and logs, and what a document refused costs: a text the
model failed on costs its key no characters, and is logged with the characters it gave the model, in attnmt's,
LibreTranslate's and DeepL's APIs, and counted in the metrics, as a file is (test_file_costs); a DeepL document
found in its target language already is refused unbilled, as DeepL refuses it, and one refused over its key's
characters a minute answers its download as a failed document, not 429."""

import json
import logging
import time

import pytest
from fastapi.testclient import TestClient

from attnmt.server import streaming
from attnmt.server.access import Access, ApiKey
from attnmt.server.app import ServeSettings, create_app

KEY = "0b4e2c1d-5a8f-4d2e-9c1b-7e3f6a9d2b10:fx"
DEEPL_AUTH = {"Authorization": f"DeepL-Auth-Key {KEY}"}
BEARER = {"Authorization": f"Bearer {KEY}"}
TEXTS = ["a dog runs", "a cat sleeps"]  # 10 + 12 = 22 characters
# The same two texts sent to each text endpoint
ASKED = {"/translate": {"q": TEXTS, "source": "en", "target": "de"}, "/v1/translate": {"texts": TEXTS},
         "/v2/translate": {"text": TEXTS, "source_lang": "EN", "target_lang": "DE"}}
# One text of 10 characters to each, and the key as each API's clients send it
ONE = {"/translate": {"q": "a dog runs", "source": "en", "target": "de"}, "/v1/translate": {"text": "a dog runs"},
       "/v2/translate": {"text": ["a dog runs"], "source_lang": "EN", "target_lang": "DE"}}
KEYED = {"/translate": BEARER, "/v1/translate": BEARER, "/v2/translate": DEEPL_AUTH}
BRIEF = "Der Hund läuft mit den Kindern durch den großen Park.\n".encode()  # 56 bytes, in German
EQUAL = ("Source and target language are equal: brief.txt is in German (de) already, the target_lang (detected "
         "from its text)")


@pytest.fixture
def failing_model(served, monkeypatch):
    """The served model, its every batch failing after the texts were charged."""
    def failing(texts, options):
        raise RuntimeError("the model failed")

    monkeypatch.setattr(served, "run_batch", failing)
    return served


def keyed_client(served, key: ApiKey) -> TestClient:
    """A server of ``served`` whose one key is ``KEY`` with ``key``'s limits, fresh for each test: its minute's
    counts are the test's own."""
    return TestClient(create_app([served], ServeSettings(), Access({KEY: key})), raise_server_exceptions=False)


def access_lines(caplog, path: str) -> list[dict]:
    lines = [json.loads(record.getMessage()) for record in caplog.records if record.name == "attnmt.access"]
    return [line for line in lines if line["path"] == path]


@pytest.mark.parametrize("path", ASKED)
def test_a_request_the_model_failed_on_costs_its_key_no_characters_however_often_it_is_sent_again(
        served, monkeypatch, path):
    """deepl-python sends a 500 again five times: its 22 characters were charged each time, so the second try was
    already over the key's 30 a minute (429), and the request after the model recovered too (22 + 10 > 30)."""
    working, failing = served.run_batch, [True]

    def failing_until_mended(texts, options):
        if failing:
            raise RuntimeError("the model failed")
        return working(texts, options)

    monkeypatch.setattr(served, "run_batch", failing_until_mended)
    with keyed_client(served, ApiKey(1, None, chars_per_minute=30)) as client:
        tries = [client.post(path, json=ASKED[path], headers=KEYED[path]).status_code for _ in range(6)]
        failing.clear()
        again = client.post(path, json=ONE[path], headers=KEYED[path])
    assert tries == [500] * 6 and again.status_code == 200


def test_a_translate_the_model_failed_on_is_logged_with_the_texts_and_characters_it_gave_the_model(
        failing_model, caplog):
    """Its 500 line said no texts and no characters."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with keyed_client(failing_model, ApiKey(1, None, chars_per_minute=30)) as client:
        answer = client.post("/translate", json={"q": TEXTS, "source": "en", "target": "de", "api_key": KEY})
        assert answer.status_code == 500
    [line] = access_lines(caplog, "/translate")
    assert (line["status"], line["model"], line["texts"], line["characters"]) == (500, "en-de", 2, 22)


def test_a_deepl_translate_the_model_failed_on_is_logged_with_the_texts_and_characters_it_gave_the_model(
        failing_model, caplog):
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with keyed_client(failing_model, ApiKey(1, None, chars_per_minute=30)) as client:
        answer = client.post("/v2/translate", json={"text": TEXTS, "source_lang": "EN", "target_lang": "DE"},
                             headers=DEEPL_AUTH)
        assert answer.status_code == 500
    [line] = access_lines(caplog, "/v2/translate")
    assert (line["status"], line["model"], line["texts"], line["characters"]) == (500, "en-de", 2, 22)


def test_a_v1_translate_the_model_failed_on_is_logged_with_the_texts_and_characters_it_gave_the_model(
        failing_model, caplog):
    """Its 500 line said model en-de and no texts or characters."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with keyed_client(failing_model, ApiKey(1, None, chars_per_minute=30)) as client:
        answer = client.post("/v1/translate", json={"texts": TEXTS}, headers=BEARER)
        assert answer.status_code == 500
    [line] = access_lines(caplog, "/v1/translate")
    assert (line["status"], line["model"], line["texts"], line["characters"]) == (500, "en-de", 2, 22)


def test_a_v1_translate_done_is_logged_with_its_texts_counted_once(served, caplog):
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with TestClient(create_app([served], ServeSettings(), log_text=True), raise_server_exceptions=False) as client:
        answer = client.post("/v1/translate", json={"texts": TEXTS})
        assert answer.status_code == 200
    [line] = access_lines(caplog, "/v1/translate")
    assert (line["model"], line["texts"], line["characters"], line["text"], line["translation"]) == (
        "en-de", 2, 22, TEXTS, answer.json()["translations"])


@pytest.mark.parametrize("path", ASKED)
def test_the_characters_of_texts_the_model_failed_on_are_counted_in_the_metrics_as_a_files_are(failing_model, path):
    """The metrics count the characters given to a model as they reach it, as a file's chunks are counted (the one
    the model failed on too: test_file_costs); a text endpoint counted them only once translated, none on a 500."""
    with TestClient(create_app([failing_model], ServeSettings()), raise_server_exceptions=False) as client:
        assert client.post(path, json=ASKED[path]).status_code == 500
        metrics = client.get("/metrics").text
    assert 'attnmt_characters_total{model="en-de"} 22.0' in metrics


@pytest.mark.parametrize("path", ASKED)
def test_the_characters_of_texts_translated_are_counted_in_the_metrics_once(served, path):
    with TestClient(create_app([served], ServeSettings()), raise_server_exceptions=False) as client:
        assert client.post(path, json=ASKED[path]).status_code == 200
        metrics = client.get("/metrics").text
    assert 'attnmt_characters_total{model="en-de"} 22.0' in metrics


def test_a_translate_done_is_logged_with_its_texts_counted_once(served, caplog):
    """Counted as charged, before the model read them, and not again once translated."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with TestClient(create_app([served], ServeSettings(), log_text=True), raise_server_exceptions=False) as client:
        answer = client.post("/translate", json={"q": TEXTS, "source": "en", "target": "de"})
        assert answer.status_code == 200
    [line] = access_lines(caplog, "/translate")
    assert (line["model"], line["texts"], line["characters"], line["text"], line["translation"]) == (
        "en-de", 2, 22, TEXTS, answer.json()["translatedText"])


def test_a_document_detected_in_its_target_language_is_refused_without_being_charged(served):
    """Its 56 bytes cost 3 requests at 20 characters a request: charged, with the upload's own one they were the
    key's 3 a minute, and the next request was 429; DeepL bills no document it refuses."""
    with keyed_client(served, ApiKey(1, 3, char_limit=20)) as client:
        handle = client.post("/v2/document", data={"target_lang": "DE"}, files={"file": ("brief.txt", BRIEF)},
                             headers=DEEPL_AUTH)
        assert handle.status_code == 200
        assert status_once_done(client, handle.json())["error_message"] == EQUAL  # the error its client had
        for _ in range(2):  # the key's other 2 requests of its minute
            answer = client.post("/v2/translate", json={"text": ["a dog runs"], "source_lang": "EN",
                                                        "target_lang": "DE"}, headers=DEEPL_AUTH)
            assert answer.status_code == 200


def status_once_done(client, handle: dict) -> dict:
    deadline = time.monotonic() + 30
    while True:
        status = client.post(f"/v2/document/{handle['document_id']}",
                             data={"document_key": handle["document_key"]}, headers=DEEPL_AUTH).json()
        if status["status"] not in ("queued", "translating") or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def test_a_document_refused_over_its_keys_characters_a_minute_is_downloaded_as_a_failed_one_not_429(served):
    """Its status said why (error_message); its result answered 429, which deepl-python sends again five times, and
    no later try could pass: the document was refused already.  400, as for a document failed on its file."""
    with keyed_client(served, ApiKey(1, None, chars_per_minute=30)) as client:
        assert client.post("/v2/translate", json=ASKED["/v2/translate"], headers=DEEPL_AUTH).status_code == 200
        handle = client.post("/v2/document", data={"target_lang": "DE", "source_lang": "EN"}, headers=DEEPL_AUTH,
                             files={"file": ("letter.txt", b"a dog runs\n\na cat sleeps\n")}).json()
        status = status_once_done(client, handle)
        result = client.post(f"/v2/document/{handle['document_id']}/result",
                             data={"document_key": handle["document_key"]}, headers=DEEPL_AUTH)
    why = "letter.txt: 30 characters per 1 minute per key"
    assert (status["status"], status["error_message"]) == ("error", why)
    assert result.status_code == 400 and result.json() == {"message": f"Document translation failed: {why}"}


def test_a_stream_the_model_failed_on_costs_its_key_no_characters(served, monkeypatch):
    """Its 27 characters stayed charged after its error event: the same text streamed again, once the model
    recovered, was over the key's 30 a minute (429)."""
    def broken(*args):
        raise RuntimeError("the search broke")

    body = {"q": "a dog runs and a cat sleeps", "source": "en", "target": "de", "api_key": KEY}
    with keyed_client(served, ApiKey(1, None, chars_per_minute=30)) as client:
        with monkeypatch.context() as patched:
            patched.setattr(streaming, "run_stream", broken)
            failed = client.post("/translate/stream", json=body)
        again = client.post("/translate/stream", json=body)
    assert failed.status_code == 200 and "event: error" in failed.text
    assert again.status_code == 200 and "event: done" in again.text
