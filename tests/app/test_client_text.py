"""What the server writes of a client's text where it was not asked to (attnmt.server.client_text):
``without_text`` itself, and the answers and log lines of a model that fails on a request, quoting
its text, on every path (LibreTranslate's /translate, its q lists, /translate_file, the stream,
attnmt's /v1/translate and /v1/files)."""

import asyncio
import json
import logging
import time

import pytest
from fastapi.testclient import TestClient
from support import post_file, server_events, submit_file

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.failed_sentences import SentencesFailed
from attnmt.server import streaming
from attnmt.server.app import ServedModel, create_app
from attnmt.server.batcher import Batcher
from attnmt.server.client_text import traceback_without_text, without_text

SECRET = "Geheimprojekt Käse läuft"  # what no log line or error answer may hold without --log-text
LINES = "Erste Zeile des Plans\n  Zweite Zeile des Plans  \n"


@pytest.mark.parametrize(("message", "texts", "written"), [
    (f"the search broke on {SECRET} here", [SECRET], "the search broke on <24 characters> here"),
    (f"the search broke on '{SECRET}'", [SECRET], "the search broke on <24 characters>"),
    (f'the search broke on ["{SECRET}"]', [SECRET], "the search broke on [<24 characters>]"),
    (f"{SECRET}, then {SECRET}!{SECRET}", [SECRET, SECRET],
     "<24 characters>, then <24 characters>!<24 characters>"),
    (f"failed: {LINES} and again: Zweite Zeile des Plans.", [LINES],
     "failed: <49 characters> and again: <22 characters>."),
])
def test_without_text_hides_every_occurrence_of_each_text_quoted_or_not(message, texts, written):
    """Only quoted texts were hidden: a message holding the text bare kept it.  A text's lines
    (stripped, as the model is handed them) are hidden too."""
    assert without_text(message, texts) == written


def test_without_text_hides_a_multiline_text_repr_wrote_with_its_escapes():
    written = without_text(f"failed on {LINES!r}: {LINES.upper()}", [LINES])
    assert "Zeile" not in written and "Plans" not in written and written.startswith("failed on <")


def test_without_text_hides_a_longer_text_whole_and_joins_overlapping_ones():
    """A text inside a longer one leaves nothing of the longer; overlapping texts are one stretch."""
    assert without_text("on a dog runs fast, dog runs", ["dog runs", "a dog runs fast"]) == (
        "on <15 characters>, <8 characters>")
    assert without_text("on a dog runs fast", ["a dog runs", "runs fast"]) == "on <15 characters>"


def test_without_text_hides_a_text_where_it_stands_as_whole_words():
    """A text "a" hid every "a" of the message: "CUDA out of memory" came out "CUD<1 character> out of memory"."""
    message = "CUDA out of memory. Tried to allocate a tensor for 'a'"
    assert without_text(message, ["a", "memory"]) == "CUDA out of <6 characters>. Tried to allocate <1 character> " \
                                                     "tensor for <1 character>"


def test_without_text_leaves_a_message_alone_for_a_blank_text():
    assert without_text("out of memory", ["", "   ", "\n"]) == "out of memory"


def test_without_text_hides_what_follows_a_quote_never_closed():
    """It was kept whole: the text may be cut short, its closing quote with it."""
    assert without_text(f"failed on '{SECRET[:10]}") == "failed on <text>"


@pytest.mark.parametrize("message, texts", [
    ("'" + "\\'" * 200_000, []),  # quotes never closed: each one searched to the message's end was quadratic
    ("a " * 100_000, ["a " * 50_000 + "b", "a " * 30_000 + "c"]),  # long texts that almost occur everywhere
    ("ab " * 100_000, [f"ab x{i}" for i in range(20_000)]),  # many texts
])
def test_without_text_takes_time_in_proportion_to_its_input(message, texts):
    start = time.perf_counter()
    without_text(message, texts)
    assert time.perf_counter() - start < 10


def test_a_traceback_without_text_keeps_its_code_and_chain_and_hides_the_texts():
    try:
        try:
            raise KeyError(SECRET)
        except KeyError as error:
            raise RuntimeError(f"the search broke on {SECRET}") from error
    except RuntimeError as error:
        written = traceback_without_text(error, [SECRET])
    assert SECRET not in written and "Käse" not in written
    assert written.startswith("Traceback (most recent call last):\n") and "raise KeyError(SECRET)" in written
    assert "KeyError: <24 characters>\n\nThe above exception was the direct cause" in written
    assert written.endswith("RuntimeError: the search broke on <24 characters>")


def quoting(texts, options):
    """A model that fails on every request, its error quoting the texts it was given, bare and as repr."""
    raise RuntimeError(f"the search broke on {texts!r}: {' | '.join(texts)}")


@pytest.fixture
def served(trained_model, monkeypatch):
    model = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    monkeypatch.setattr(model, "run_batch", quoting)
    return model


def failing(served, log_text: bool, caplog, ask) -> tuple[dict, str]:
    """The error answer ``ask(client)`` gets, and what the server logged meanwhile."""
    caplog.set_level(logging.INFO)
    with TestClient(create_app([served], log_text=log_text), raise_server_exceptions=False) as client:
        answer = ask(client)
    return answer, caplog.text


def posted_file(client):
    return post_file(client, "/translate_file", "plan.txt", f"{SECRET}\n".encode(), source="en", target="de")


def file_job(client):
    job = submit_file(client, "plan.txt", f"{SECRET}\n".encode()).json()
    return server_events(client, job["events_url"])[-1]


@pytest.mark.parametrize("log_text", [False, True])
@pytest.mark.parametrize("ask, status, said", [
    (lambda client: client.post("/translate", json={"q": SECRET, "source": "en", "target": "de"}), 500,
     {"error": "Cannot translate text: RuntimeError: the search broke on [<24 characters>]: <24 characters>"}),
    (lambda client: client.post("/translate", json={"q": ["a dog runs", SECRET], "source": "en", "target": "de"}),
     500, {"error": "Cannot translate text: RuntimeError: the search broke on [<10 characters>, <24 characters>]: "
                    "<10 characters> | <24 characters>"}),
    (lambda client: client.post("/v1/translate", json={"texts": [SECRET]}), 500,
     {"detail": "translation failed: RuntimeError: the search broke on [<24 characters>]: <24 characters>"}),
    (posted_file, 500,
     {"error": "translation failed: RuntimeError: the search broke on [<24 characters>]: <24 characters>"}),
])
def test_a_model_failure_answers_what_failed_without_the_clients_text(served, caplog, ask, status, said, log_text):
    """The 500 said "RuntimeError: the search broke on ['Geheimprojekt Käse läuft']: Geheimprojekt Käse
    läuft", and the log's line and traceback said it too, without --log-text; now only the log of a
    server with --log-text holds the text."""
    answer, logged = failing(served, log_text, caplog, ask)
    assert (answer.status_code, answer.json()) == (status, said)
    assert "the model failed on a request of" in logged
    assert ("Käse" in logged) == log_text


@pytest.mark.parametrize("log_text", [False, True])
def test_a_file_job_the_model_fails_on_says_so_without_the_files_text(served, caplog, log_text):
    (name, data), logged = failing(served, log_text, caplog, file_job)
    assert (name, data) == ("error", {"detail": "translation failed: RuntimeError: the search broke on "
                                                "[<24 characters>]: <24 characters>"})
    assert "translating a file failed" in logged and ("Käse" in logged) == log_text


@pytest.mark.parametrize("log_text", [False, True])
def test_a_file_whose_sentence_fails_is_named_without_the_sentence(served, caplog, monkeypatch, log_text):
    """A sentence the search fails on (SentencesFailed), as translation raises it: the file fails whole
    (FileFailed), its message quoting the error on that sentence."""
    def failing_sentences(texts, options):
        raise SentencesFailed({0: RuntimeError(f"no room for {texts[0]}")})

    monkeypatch.setattr(served, "run_batch", failing_sentences)
    answer, logged = failing(served, log_text, caplog, posted_file)
    assert (answer.status_code, answer.json()) == (500, {
        "error": "plan.txt: not translated, the model failed on 1 of its sentences (the first: RuntimeError: no room "
                 "for <24 characters>); nothing was written"})
    assert ("Käse" in logged) == log_text


def test_a_stream_the_model_fails_on_ends_with_an_error_without_the_text(served, caplog, monkeypatch):
    def broken(served, text, *args):
        raise RuntimeError(f"the search broke on {text}")

    monkeypatch.setattr(streaming, "run_stream", broken)
    with TestClient(create_app([served]), raise_server_exceptions=False) as client:
        answer = client.post("/translate/stream", json={"q": SECRET, "source": "en", "target": "de"})
    [(name, data)] = [block.split("\n") for block in answer.text.split("\n\n") if block.strip()]
    assert (name, json.loads(data.removeprefix("data: "))) == (
        "event: error", {"error": "Cannot translate text: RuntimeError: the search broke on <24 characters>"})


def test_a_failed_batchs_warning_holds_none_of_its_texts(caplog):
    """The batch of several requests the model failed on was logged with its error's message whole."""
    async def main():
        async with Batcher(quoting, max_batch=32, window=0.05) as batcher:
            return await asyncio.gather(batcher.translate([SECRET], ""), batcher.translate(["a dog runs"], ""),
                                        return_exceptions=True)

    with caplog.at_level(logging.INFO, logger="attnmt.model"):
        asyncio.run(asyncio.wait_for(main(), timeout=30))
    assert "the model failed on a batch of 2 requests (RuntimeError: the search broke on" in caplog.text
    assert "Käse" not in caplog.text and "a dog runs" not in caplog.text
