"""What a request refused because the model's queue is full (503) costs: nothing.  No model read its texts, so its
key's characters a minute are given back, the metrics count none of its characters (its 503 is counted among the
requests), and its access-log line counts none as charged, in attnmt's, LibreTranslate's and DeepL's text APIs; a
500 gives back its characters too (test_failure_costs).  A request whose texts go to two models is refused whole
where the second has no room, and given back whole, as its client sends it again.  A file is refused for want of
room before it is charged (test_file_costs)."""

import json
import logging

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.access import Access, ApiKey
from attnmt.server.app import ServedModel, ServeSettings, create_app

KEY = "0b4e2c1d-5a8f-4d2e-9c1b-7e3f6a9d2b10:fx"
HEADERS = {"/translate": {}, "/v1/translate": {"Authorization": f"Bearer {KEY}"},
           "/v2/translate": {"Authorization": f"DeepL-Auth-Key {KEY}"}}
TEXTS = ["a dog runs", "a cat sleeps"]  # 10 + 12 = 22 characters: 2 texts, more than the queue's 1
FRENCH = "Le chien court dans le parc avec les enfants et le chat."  # 56 characters, over 40: each detected alone
ENGLISH = "A dog runs in the park with the children and the cat."  # 53
LADDER = "A man in a blue shirt is standing on a ladder cleaning windows."  # 63


def asked(path: str, texts: list[str]) -> dict:
    """``texts`` as ``path`` takes them, into German (LibreTranslate's with the key in its body)."""
    return {"/translate": {"q": texts, "source": "en", "target": "de", "api_key": KEY},
            "/v1/translate": {"texts": texts},
            "/v2/translate": {"text": texts, "source_lang": "EN", "target_lang": "DE"}}[path]


def full_queue_client(served, keys: Access | None = None) -> TestClient:
    """A server of ``served`` whose queue holds 1 text: a request of 2 is refused as the queue full (503)."""
    return TestClient(create_app([served], ServeSettings(max_queued=1, file_chunk=1), keys or Access()),
                      raise_server_exceptions=False)


@pytest.mark.parametrize("path", HEADERS)
def test_a_request_refused_for_a_full_queue_costs_its_key_no_characters(served, path):
    """Its 22 characters were charged: the next 10 were over the key's 30 a minute (429)."""
    with full_queue_client(served, Access({KEY: ApiKey(1, None, chars_per_minute=30)})) as client:
        refused = client.post(path, json=asked(path, TEXTS), headers=HEADERS[path])
        assert refused.status_code == 503
        again = client.post(path, json=asked(path, ["a dog runs"]), headers=HEADERS[path])
        assert again.status_code == 200


@pytest.mark.parametrize("path", HEADERS)
def test_a_request_refused_for_a_full_queue_counts_no_characters_in_the_metrics(served, path):
    """Counted as characters the model read (22), which none did."""
    with full_queue_client(served) as client:
        assert client.post(path, json=asked(path, TEXTS), headers=HEADERS[path]).status_code == 503
        metrics = client.get("/metrics").text
    assert f'attnmt_requests_total{{path="{path}",status="503"}} 1.0' in metrics
    assert 'attnmt_characters_total{model="en-de"}' not in metrics


@pytest.mark.parametrize("path", HEADERS)
def test_a_request_refused_for_a_full_queue_is_logged_without_characters_charged(served, path, caplog):
    """Its line said texts 2, characters 22: what a key is charged for, which its key was not."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with full_queue_client(served) as client:
        assert client.post(path, json=asked(path, TEXTS), headers=HEADERS[path]).status_code == 503
    [line] = [json.loads(record.getMessage()) for record in caplog.records
              if record.name == "attnmt.access" and json.loads(record.getMessage())["path"] == path]
    assert line["status"] == 503 and "texts" not in line and "characters" not in line


def test_a_request_refused_at_its_second_models_queue_costs_nothing_though_its_first_model_translated(
        trained_model):
    """fr-de translates the French text, then en-de's queue has no room for the two English ones: the client has a
    503 and no translation, and sends the whole request again, so the whole of it is given back.  Were the French
    text's 56 characters kept, the next request's 119 would be over the key's 172 a minute (56 + 119)."""
    models = [ServedModel(*load_model_dir(trained_model), pair, pair[:2], "de") for pair in ("fr-de", "en-de")]
    key = ApiKey(1, None, chars_per_minute=len(FRENCH + ENGLISH + LADDER))
    with TestClient(create_app(models, ServeSettings(max_queued=1, file_chunk=1), Access({KEY: key})),
                    raise_server_exceptions=False) as client:
        refused = client.post("/translate", json={"q": [FRENCH, ENGLISH, LADDER], "source": "auto", "target": "de",
                                                  "api_key": KEY})
        assert 'attnmt_characters_total{model="fr-de"} 56.0' in client.get("/metrics").text  # fr-de read its text
        again = client.post("/translate", json={"q": [FRENCH, LADDER], "source": "auto", "target": "de",
                                                "api_key": KEY})
    assert refused.status_code == 503 and "translatedText" not in refused.json()
    assert again.status_code == 200 and len(again.json()["translatedText"]) == 2
