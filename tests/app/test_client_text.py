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
from attnmt.documents.translators import ModelTranslator
from attnmt.server import streaming, v1_api
from attnmt.server.app import ServedModel, create_app
from attnmt.server.batcher import Batcher
from attnmt.server.client_text import traceback_without_text, without_text

SECRET = "Geheimprojekt Käse läuft"  # what no log line or error answer may hold without --log-text
LINES = "Erste Zeile des Plans\n  Zweite Zeile des Plans  \n"
SENTENCES = "Geheimprojekt Käse läuft. Niemand weiß davon."


@pytest.mark.parametrize(("message", "texts", "written"), [
    (f"the search broke on {SECRET} here", [SECRET], "the search broke on <24 characters> here"),
    (f"the search broke on '{SECRET}'", [SECRET], "the search broke on <24 characters>"),
    (f'the search broke on ["{SECRET}"]', [SECRET], "the search broke on [<24 characters>]"),
    (f"{SECRET}, then {SECRET}!{SECRET}", [SECRET, SECRET],
     "<24 characters>, then <24 characters>!<24 characters>"),
    (f"failed: {LINES} and again: Zweite Zeile des Plans.", [LINES],
     "failed: <46 characters>  \n and again: <22 characters>."),
])
def test_without_text_hides_every_occurrence_of_each_text_quoted_or_not(message, texts, written):
    """Only quoted texts were hidden: a message holding the text bare kept it.  A text's lines
    (as the model is handed them) are hidden too, the spaces around them kept."""
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
    """A text "a" hid every "a" of the message: "CUDA out of memory" came out "CUD<1 character> out of memory".
    A word shorter than 3 characters alone is hidden only where it is quoted whole."""
    message = "CUDA out of memory. Tried to allocate a tensor for 'a'"
    assert without_text(message, ["a", "memory"]) == "CUDA out of <6 characters>. Tried to allocate a " \
                                                     "tensor for <1 character>"


@pytest.mark.parametrize("message, texts", [
    ("failed: Niemand weiß davon.", [SENTENCES]),  # a sentence of a text, as the model is handed it
    ("failed: Niemand weiß", [SENTENCES]),  # cut short
    ("failed: Geheimprojekt Käse", ["Geheimprojekt  Käse"]),
    ("failed: Geheimprojekt Käse", ["Geheimprojekt\tKäse"]),
    ("failed: Geheimprojekt Käse", ["Geheimprojekt\u00a0Käse"]),
    ("failed: Geheimprojekt Ka\u0308se", ["Geheimprojekt Käse"]),  # NFD in the message, NFC in the text
    ("failed: Geheimprojekt Käse", ["<p>Geheimprojekt <b>K</b>äse</p>"]),  # an HTML text's extracted words
    ("failed: Geheimprojekt.", ["Hallo. Geheimprojekt. Ende"]),  # a sentence of one word
])
def test_without_text_hides_what_the_model_was_handed_of_a_text(message, texts):
    """The model is handed a text's sentences (an HTML text's words), and spaces, tabs and NBSP are one
    to it: an exception quoting one sentence, or the text spaced otherwise, was written whole."""
    assert without_text(message, texts).startswith("failed: <")
    assert not {"Niemand", "weiß", "Geheimprojekt", "Käse", "Ka\u0308se"} & set(without_text(message, texts).split())


@pytest.mark.parametrize("texts", [["'"], ["\\"], ['"'], ["'", "Käse"], ["\\", "Käse"]])
def test_without_text_finds_quoted_texts_whatever_the_texts_punctuation(texts):
    """A text of punctuation alone rewrote the quotes the quoted pass relies on: 'Käse ist gut' was
    written <1 character>Käse ist gut<1 character>, and a text both passes hid came out <22 characters>."""
    assert without_text("bad 'Käse ist gut'", [*texts, "ist"]) == "bad <12 characters>"


@pytest.mark.parametrize("message, texts", [
    ("'NoneType' object has no attribute 'encode'", ["Hallo Welt"]),
    ("No module named 'lxml'", ["Hallo Welt"]),
    ("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.35 GiB total capacity)", ["1", "2", ".", "'"]),
    ("index 5 is out of bounds for dimension 0 with size 5", ["5", "0", "of"]),
])
def test_without_text_keeps_what_failed_where_it_holds_no_text(message, texts):
    """Every quoted identifier was hidden (<8 characters> object has no attribute <6 characters>), and a text
    "1" or "of" hid every such word of the message: an operator could not tell what failed."""
    assert without_text(message, texts) == message


def test_without_text_hides_a_short_text_where_it_is_quoted_whole():
    assert without_text("bad token '1' in 1 of 2", ["1"]) == "bad token <1 character> in 1 of 2"


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
    assert "the model en-de failed on a request of" in logged
    assert ("Käse" in logged) == log_text


@pytest.mark.parametrize("log_text", [False, True])
def test_a_file_job_the_model_fails_on_says_so_without_the_files_text(served, caplog, log_text):
    (name, data), logged = failing(served, log_text, caplog, file_job)
    assert (name, data) == ("error", {"detail": "translation failed: RuntimeError: the search broke on "
                                                "[<24 characters>]: <24 characters>"})
    assert "the model en-de failed translating a file" in logged and ("Käse" in logged) == log_text


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


@pytest.mark.parametrize("log_text", [False, True])
def test_a_stream_the_model_fails_on_is_logged_with_its_traceback(served, caplog, monkeypatch, log_text):
    """A stream's failure went only to its client, as an error event: the server's log had no line of it."""
    def broken(served, text, *args):
        raise RuntimeError(f"the search broke on {text}")

    monkeypatch.setattr(streaming, "run_stream", broken)
    answer, logged = failing(served, log_text, caplog, lambda client: client.post(
        "/translate/stream", json={"q": SECRET, "source": "en", "target": "de"}))
    assert "event: error" in answer.text
    assert "the model en-de failed on a stream of 1 text\nTraceback (most recent call last)" in logged
    assert "RuntimeError: the search broke on" in logged and ("Käse" in logged) == log_text


@pytest.mark.parametrize("log_text", [False, True])
def test_a_v1_request_whose_hypotheses_fail_to_be_described_is_logged_once(trained_model, caplog, monkeypatch,
                                                                            log_text):
    """The search succeeded and describing its hypotheses (scores, alignments, attention) failed: the
    client had its 500, and the log nothing, as the batcher logs only the search's own failures."""
    def broken(served, paragraph, request):
        raise RuntimeError(f"no trace for {paragraph.hypotheses[0].text!r} of {SECRET}")

    monkeypatch.setattr(v1_api, "describe", broken)
    model = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    answer, logged = failing(model, log_text, caplog, lambda client: client.post(
        "/v1/translate", json={"texts": [SECRET], "return_scores": True}))
    assert answer.status_code == 500
    assert answer.json()["detail"].startswith("translation failed: RuntimeError: no trace")
    assert logged.count("the model en-de failed describing the hypotheses of 1 text(s)") == 1
    assert "Traceback (most recent call last)" in logged and "RuntimeError: no trace for" in logged
    assert "failed on a request" not in logged and ("Käse" in logged) == log_text


def test_a_stream_whose_error_quotes_one_sentence_holds_none_of_it(served, monkeypatch):
    def broken(served, text, *args):
        raise RuntimeError(f"the search broke on {text.split('. ')[1]}")

    monkeypatch.setattr(streaming, "run_stream", broken)
    with TestClient(create_app([served]), raise_server_exceptions=False) as client:
        answer = client.post("/translate/stream", json={"q": SENTENCES, "source": "en", "target": "de"})
    assert "RuntimeError: the search broke on <18 characters>." in answer.text and "Niemand" not in answer.text


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


def test_a_file_failures_own_words_stay_though_its_text_holds_them(served, caplog, monkeypatch):
    """The file's line ("plan.txt: not translated, the model failed on …") went through without_text
    with the rest: a file whose text held those words had its own line hidden."""
    def failing_sentences(texts, options):
        raise SentencesFailed({0: RuntimeError(f"no room for {texts[0]}")})

    monkeypatch.setattr(served, "run_batch", failing_sentences)
    with TestClient(create_app([served]), raise_server_exceptions=False) as client:
        answer = post_file(client, "/translate_file", "plan.txt", b"the model failed on 1 of its sentences\n",
                           source="en", target="de")
    assert answer.json() == {"error": "plan.txt: not translated, the model failed on 1 of its sentences (the first: "
                                      "RuntimeError: no room for <38 characters>); nothing was written"}


SENTENCE_ASKS = {
    "text": lambda client: client.post("/translate", json={"q": SENTENCES, "source": "en", "target": "de"}),
    "list": lambda client: client.post("/translate", json={"q": ["a dog runs", SENTENCES], "source": "en",
                                                           "target": "de"}),
    "html": lambda client: client.post("/translate", json={"q": "<p>Geheimprojekt <b>Käse</b> läuft. Niemand weiß "
                                                                "davon.</p>", "source": "en", "target": "de",
                                                           "format": "html"}),
    "v1": lambda client: client.post("/v1/translate", json={"texts": [SENTENCES]}),
    "file": lambda client: post_file(client, "/translate_file", "plan.txt", f"{SENTENCES}\n".encode(),
                                     source="en", target="de"),
}


@pytest.mark.parametrize("ask", list(SENTENCE_ASKS))
def test_an_error_quoting_one_sentence_of_a_text_holds_none_of_it(trained_model, caplog, monkeypatch, ask):
    """The model is handed a text's sentences, and an error quoting one of them was no occurrence of the
    text: the answer and the log held "Niemand weiß davon." whole."""
    def broken(self, sentences, weighed):
        raise RuntimeError(f"cannot translate {sentences[-1]}")

    monkeypatch.setattr(ModelTranslator, "translate", broken)
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    answer, logged = failing(served, False, caplog, SENTENCE_ASKS[ask])
    assert "RuntimeError: cannot translate <" in answer.text
    assert not [word for word in ("Geheimprojekt", "Käse", "Niemand", "davon") if word in answer.text + logged]


def test_a_traceback_without_text_holds_an_exception_groups_own_without_text():
    """An ExceptionGroup's sub-exceptions were left out of the log: what failed, unseen."""
    try:
        raise ExceptionGroup("two failed", [RuntimeError(f"broke on {SECRET}"), ValueError("out of memory")])
    except ExceptionGroup as error:
        written = traceback_without_text(error, [SECRET])
    assert "RuntimeError: broke on <24 characters>" in written and "ValueError: out of memory" in written
    assert "Käse" not in written
