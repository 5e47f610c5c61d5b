"""POST /translate/stream, in process: the greedy translation as it grows, as server-sent events."""

import json
from itertools import pairwise

import pytest
from fastapi.testclient import TestClient

from attnmt.app.serve import ServedModel, create_app
from attnmt.checkpoint import load_model_dir


@pytest.fixture(scope="module")
def client(trained_model):
    with TestClient(create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]),
                    raise_server_exceptions=False) as client:
        yield client


def stream(client, body: dict) -> list[tuple[str, dict]]:
    """The (event, data) pairs of one streamed answer."""
    with client.stream("POST", "/translate/stream", json=body) as answer:
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
        blocks = "".join(answer.iter_text()).strip().split("\n\n")
    return [(block.split("\n")[0].removeprefix("event: "), json.loads(block.split("\n")[1].removeprefix("data: ")))
            for block in blocks]


def test_the_translation_grows_a_token_at_a_time_then_is_done(client):
    events = stream(client, {"q": "a man rides a bike", "source": "en", "target": "de"})
    partials = [data["translatedText"] for name, data in events if name == "partial"]
    assert events[-1] == ("done", {"translatedText": "ein mann fährt ein fahrrad"})
    assert partials[-1] == "ein mann fährt ein fahrrad" and len(partials) >= 5  # at least a token a word
    assert all(later.startswith(earlier) for earlier, later in pairwise(partials))  # it only grows


def test_without_languages_the_first_model_streams_and_auto_detects(client):
    assert stream(client, {"q": "a dog runs"})[-1] == ("done", {"translatedText": "ein hund rennt"})
    assert stream(client, {"q": "a dog runs", "source": "auto", "target": "de"})[-1][1] == {
        "translatedText": "ein hund rennt"}


@pytest.mark.parametrize("body, status, message", [
    ({"source": "en", "target": "de"}, 400, "Invalid request: missing q parameter"),
    ({"q": ["a dog runs"], "source": "en", "target": "de"}, 400, "Invalid request: a stream translates one text"),
    ({"q": "a dog runs", "source": "en", "target": "fr"}, 400, "fr is not supported"),
    ({"q": "\u200b"}, 400, "Invalid request: q has nothing to translate"),
])
def test_a_bad_stream_request_is_refused_before_streaming(client, body, status, message):
    answer = client.post("/translate/stream", json=body)
    assert answer.status_code == status and answer.json()["error"].startswith(message)
