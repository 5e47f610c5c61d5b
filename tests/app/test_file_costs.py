"""What a file costs: requests as LibreTranslate charges a file (one per char-limit bytes, at least
one) in both file APIs, and characters against its key's characters a minute, which a job of
attnmt's API waits for and LibreTranslate's translate_file fails on."""

import json
import logging
import threading
import time

import pytest
from fastapi.testclient import TestClient
from support import server_events, submit_file, wait_until

from attnmt.server import file_translator
from attnmt.server.access import Access, Refused, file_cost, read_api_keys
from attnmt.server.app import ServeSettings, create_app
from attnmt.server.character_windows import WINDOW_S

LINES = b"a dog runs\n" * 41  # 451 bytes: 4 requests at 100 characters a request
KEY = {"Authorization": "Bearer k1"}


def client_with_keys(served, tmp_path, keys: str, **settings) -> TestClient:
    (tmp_path / "keys").write_text(keys, encoding="utf-8")
    return TestClient(create_app([served], ServeSettings(**settings), Access(read_api_keys(tmp_path / "keys"))),
                      raise_server_exceptions=False)


def libre_file(client, data: bytes, name: str = "a.txt", key: str = "k1"):
    return client.post("/translate_file", data={"source": "en", "target": "de", "api_key": key},
                       files={"file": (name, data, "text/plain")})


@pytest.mark.parametrize("size, char_limit, cost", [(0, 100, 1), (199, 100, 1), (200, 100, 2), (451, 100, 4),
                                                    (20_000, 20_000, 1), (50_000, 20_000, 2)])
def test_a_file_costs_one_request_per_char_limit_bytes_and_at_least_one(size, char_limit, cost):
    assert file_cost(size, char_limit) == cost


def test_a_file_costs_requests_by_its_keys_char_limit_in_attnmts_api(served, tmp_path):
    with client_with_keys(served, tmp_path, "k1 10 char-limit=100\n") as client:
        for _ in range(2):  # 4 + 4 of the key's 10 requests a minute
            job = submit_file(client, "a.txt", LINES, api_key="k1").json()
            assert server_events(client, job["events_url"])[-1][0] == "done"
        answer = submit_file(client, "a.txt", LINES, api_key="k1")
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
        assert answer.json() == {"detail": "a file of 451 bytes costs 4 requests (one per 100 bytes: a request's "
                                           "characters): over 10 per 1 minute per key"}
        assert client.post("/v1/translate", json={"text": "a dog runs"}, headers=KEY).status_code == 200  # 9 + 1


def test_a_file_costs_requests_in_libretranslates_api_too(served, tmp_path):
    with client_with_keys(served, tmp_path, "k1 6 char-limit=100\n") as client:
        assert libre_file(client, LINES).status_code == 200
        answer = libre_file(client, LINES)
        assert answer.status_code == 429 and answer.json() == {
            "error": "Slowdown: a file of 451 bytes costs 4 requests (one per 100 bytes: a request's characters): "
                     "over 6 per 1 minute per key"}


def test_a_file_given_back_in_its_own_language_costs_requests_as_one_translated(served, tmp_path):
    """As LibreTranslate charges a file before it reads it, whatever its languages: German into German (given
    back as it came, no model reading it) costs the 4 requests its bytes do, English into German after it too."""
    german = "Der Hund läuft.\n".encode() * 28  # 448 bytes: 4 requests at 100 characters a request
    with client_with_keys(served, tmp_path, "k1 6 char-limit=100\n") as client:
        answer = client.post("/translate_file", data={"source": "de", "target": "de", "api_key": "k1"},
                             files={"file": ("a.txt", german, "text/plain")})
        assert answer.status_code == 200 and client.get(answer.json()["translatedFileUrl"]).content == german
        answer = libre_file(client, LINES)
        assert answer.status_code == 429 and answer.json()["error"].endswith("over 6 per 1 minute per key")


GERMAN = "Der Hund läuft.\n\nDie Katze schläft.\n".encode()  # sentences of 15 and 18 characters: 33


def test_a_file_given_back_in_its_own_language_costs_the_characters_of_its_sentences(served, tmp_path):
    """No model reads a German file sent into German, but its sentences count against the key's characters a
    minute as a translated file's do (and /translate's texts given back): it passed any amount through free."""
    with client_with_keys(served, tmp_path, "k1 chars-per-minute=40\n") as client:
        answer = client.post("/translate_file", data={"source": "de", "target": "de", "api_key": "k1"},
                             files={"file": ("brief.txt", GERMAN, "text/plain")})
        assert answer.status_code == 200 and client.get(answer.json()["translatedFileUrl"]).content == GERMAN
        answer = client.post("/translate", json={"q": "A dog runs.", "source": "en", "target": "de", "api_key": "k1"})
        assert answer.status_code == 429 and answer.json() == {"error": "Slowdown: 40 characters per 1 minute per key"}


def test_a_file_given_back_over_all_the_keys_characters_a_minute_is_refused_naming_it(served, tmp_path):
    with client_with_keys(served, tmp_path, "k1 chars-per-minute=20\n") as client:
        answer = client.post("/translate_file", data={"source": "de", "target": "de", "api_key": "k1"},
                             files={"file": ("brief.txt", GERMAN, "text/plain")})
        assert answer.status_code == 400 and answer.json() == {
            "error": "Invalid request: brief.txt: the request has 33 characters; this key may translate at most 20 a "
                     "minute"}


NOTHING_TO_TRANSLATE = [("empty.txt", b""), ("years.txt", b"2024\n1999\n"),
                        ("music.srt", "1\n00:00:01,000 --> 00:00:02,000\n\u266a\n\n2\n00:00:03,000 --> 00:00:04,000\n"
                                      "\u266a \u266a\n".encode())]


@pytest.mark.parametrize("name, data", NOTHING_TO_TRANSLATE, ids=[name for name, _ in NOTHING_TO_TRANSLATE])
@pytest.mark.parametrize("source, model", [("en", "en-de"), ("de", None)], ids=["translated", "given-back"])
def test_a_file_with_nothing_to_translate_is_logged_with_the_no_characters_it_was_charged(
        served, tmp_path, caplog, name, data, source, model):
    """Its one request (file_cost: at least one) is all it costs: no sentence reaches its key's characters a
    minute, and its access-log line says so, texts 0 and characters 0, whether it was translated or given back
    as it came; translated, the line had neither, where the same file given back had both."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_with_keys(served, tmp_path, "k1 1 chars-per-minute=1\n") as client:
        answer = client.post("/translate_file", data={"source": source, "target": "de", "api_key": "k1"},
                             files={"file": (name, data, "text/plain")})
        assert answer.status_code == 200, answer.text
        assert client.get(answer.json()["translatedFileUrl"]).content == data
    lines = [json.loads(record.message) for record in caplog.records if record.name == "attnmt.access"]
    [line] = [line for line in lines if line["path"] == "/translate_file"]
    assert (line["model"], line["texts"], line["characters"]) == (model, 0, 0)


def test_a_file_the_model_failed_on_half_way_is_logged_with_the_characters_it_was_charged(
        served, tmp_path, caplog, monkeypatch):
    """A chunk's characters are charged as it goes to the model: the one the model failed on counted against the
    key (and in the metrics), 10 + 12 = 22 of its 30 a minute, but its line said texts 1, characters 10."""
    run_batch = served.run_batch

    def failing_on_the_cat(texts, options):
        if any("cat" in text for text in texts):
            raise RuntimeError("the model failed")
        return run_batch(texts, options)

    monkeypatch.setattr(served, "run_batch", failing_on_the_cat)
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_with_keys(served, tmp_path, "k1 chars-per-minute=30\n", file_chunk=1) as client:
        assert libre_file(client, b"a dog runs\na cat sleeps\ntwo dogs run\n").status_code == 500
        answer = client.post("/translate", json={"q": "a dog runs", "source": "en", "target": "de", "api_key": "k1"})
        assert answer.status_code == 429  # 22 + 10 > 30: the chunk that failed was charged
    lines = [json.loads(record.message) for record in caplog.records if record.name == "attnmt.access"]
    [line] = [line for line in lines if line["path"] == "/translate_file"]
    assert (line["status"], line["model"], line["texts"], line["characters"]) == (500, "en-de", 2, 22)


def test_a_file_no_minute_could_admit_is_refused_as_too_large(served, tmp_path):
    with client_with_keys(served, tmp_path, "k1 3 char-limit=100\n") as client:
        message = ("a file of 451 bytes costs 4 requests (one per 100 bytes: a request's characters); at most 3 a "
                   "minute per key")
        answer = submit_file(client, "a.txt", LINES, api_key="k1")
        assert answer.status_code == 413 and answer.json() == {"detail": message}
        answer = libre_file(client, LINES)
        assert answer.status_code == 400 and answer.json() == {"error": f"Invalid request: {message}"}


@pytest.mark.parametrize("api", ["attnmt", "libretranslate"])
def test_a_file_refused_as_busy_costs_no_more_than_a_refused_request(served, tmp_path, monkeypatch, api):
    """A file refused with 503 (every --file-jobs place taken, and as many files waiting for their turn,
    as LibreTranslate's do) was charged its whole price first: a client retrying after Retry-After was
    locked out (429) with nothing translated.  Now the three refused files cost a request each, 3 of the
    key's 10, and the fourth (4 more) passes."""
    release, run_batch = threading.Event(), served.run_batch

    def held(texts, options):
        release.wait(60)
        return run_batch(texts, options)

    def send():  # LINES with the key k1: 4 requests
        return submit_file(client, "a.txt", LINES, api_key="k1") if api == "attnmt" else libre_file(client, LINES)

    monkeypatch.setattr(served, "run_batch", held)
    with client_with_keys(served, tmp_path, "k1 10 char-limit=100\nk2\n", max_file_jobs=1) as client:
        try:
            long_job = submit_file(client, "long.txt", LINES, api_key="k2").json()
            waiting = threading.Thread(target=libre_file, args=(client, LINES, "b.txt", "k2"))
            waiting.start()  # waits for its turn behind it (file_jobs.IN_TURN): no more may wait
            wait_until(lambda: client.app.state.file_jobs.running == 2)
            answers = [send() for _ in range(3)]
        finally:
            release.set()
        waiting.join(60)
        assert [answer.status_code for answer in answers] == [503] * 3
        assert server_events(client, long_job["events_url"])[-1][0] == "done"
        assert send().status_code in (200, 202)


def test_without_a_keys_char_limit_the_servers_prices_a_file_against_the_address_limit(served):
    app = create_app([served], ServeSettings(max_request_chars=100), Access(per_address=5))
    with TestClient(app, raise_server_exceptions=False) as client:
        job = submit_file(client, "a.txt", LINES).json()  # 4 of 5
        assert server_events(client, job["events_url"])[-1][0] == "done"
        answer = submit_file(client, "a.txt", LINES)
        assert answer.status_code == 429 and answer.json()["detail"].endswith("over 5 per 1 minute per address")


def test_a_job_over_its_keys_characters_a_minute_waits_for_room(served, tmp_path, monkeypatch):
    monkeypatch.setattr(file_translator, "RETRY_WAIT_S", 0.01)
    (tmp_path / "keys").write_text("k1 chars-per-minute=25\n", encoding="utf-8")
    access = Access(read_api_keys(tmp_path / "keys"))
    refused = []
    charge = access.charge

    def counted(request, characters):
        try:
            charge(request, characters)
        except Refused:
            refused.append(characters)
            raise

    access.charge = counted
    text = b"a dog runs\na cat sleeps\ntwo dogs run\n"  # chunks of 10, 12 and 12 characters: 34 > 25
    with TestClient(create_app([served], ServeSettings(file_chunk=1), access)) as client:
        job = submit_file(client, "a.txt", text, api_key="k1").json()
        wait_until(lambda: len(refused) >= 3)  # the third chunk asks again and again; the job waits
        status = client.get(job["status_url"]).json()
        assert status["state"] == "running" and status["waiting"] == "characters" and set(refused) == {12}
        # As if the minute had passed: the key's characters are counted in its windows (not the limiter's storage,
        # whose reset left the job waiting out a real minute)
        access.characters.clock = lambda: time.monotonic() + WINDOW_S
        assert server_events(client, job["events_url"])[-1][0] == "done"
        assert "waiting" not in client.get(job["status_url"]).json()
        translated = "ein hund rennt\neine katze schläft\nzwei hunde rennen\n"
        assert client.get(job["download_url"]).text == translated


def test_libretranslates_translate_file_fails_over_the_keys_characters_a_minute(served, tmp_path):
    text = b"a dog runs\na cat sleeps\ntwo dogs run\n"
    with client_with_keys(served, tmp_path, "k1 chars-per-minute=25\n", file_chunk=1) as client:
        answer = libre_file(client, text)  # a rate limit, as LibreTranslate's clients know it: retry later
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
        assert answer.json() == {"error": "Slowdown: a.txt: 25 characters per 1 minute per key"}


def test_a_chunk_over_all_the_keys_characters_a_minute_fails_the_job_at_once(served, tmp_path):
    with client_with_keys(served, tmp_path, "k1 chars-per-minute=5\n") as client:
        job = submit_file(client, "a.txt", b"a dog runs\n", api_key="k1").json()
        assert server_events(client, job["events_url"])[-1] == ("error", {
            "detail": "a.txt: the request has 10 characters; this key may translate at most 5 a minute"})
        answer = libre_file(client, b"a dog runs\n")  # no minute helps: a bad request, as LibreTranslate says it
        assert answer.status_code == 400 and answer.json() == {
            "error": "Invalid request: a.txt: the request has 10 characters; this key may translate at most 5 a minute"}
