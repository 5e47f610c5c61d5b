"""POST /translate/stream, in process: the translation as it grows, as server-sent events."""

import asyncio
import json
import threading
from contextlib import nullcontext
from itertools import pairwise
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from support import translated_text

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import DEFAULT, Decoding
from attnmt.documents.pipeline import DEFAULT_OPTIONS
from attnmt.server import streaming
from attnmt.server.app import ServedModel, ServeSettings, create_app
from attnmt.server.streaming import Gone, events, run_stream

SENTENCES = ["a man rides a bike", "two dogs run", "the boy laughs", "a cat sleeps"]


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


def test_the_greedy_translation_grows_a_token_at_a_time_then_is_done(client):
    events = stream(client, {"q": "a man rides a bike", "source": "en", "target": "de", "beam": 1})
    partials = [data["translatedText"] for name, data in events if name == "partial"]
    name, done = events[-1]
    assert name == "done" and translated_text(done) == {"translatedText": "ein mann fährt ein fahrrad"}
    assert partials[-1] == "ein mann fährt ein fahrrad" and len(partials) >= 5  # at least a token a word
    assert all(later.startswith(earlier) for earlier, later in pairwise(partials))  # it only grows


@pytest.mark.parametrize("beam", [1, DEFAULT.beam_size])
def test_the_streams_end_is_what_translate_answers(client, beam):
    for text in SENTENCES:
        events = stream(client, {"q": text, "source": "en", "target": "de", "beam": beam})
        [done] = [data["translatedText"] for name, data in events if name == "done"]
        assert done == client.post("/v1/translate", json={"text": text, "beam": beam}).json()["translations"][0]
        if beam == DEFAULT.beam_size:  # LibreTranslate's /translate searches with it, as a stream without beam
            assert translated_text(stream(client, {"q": text, "source": "en", "target": "de"})[-1][1]) == {
                "translatedText": done}
            assert done == client.post("/translate", json={"q": text, "source": "en", "target": "de"}).json()[
                "translatedText"]


def test_a_sentence_longer_than_the_model_reads_streams_in_parts_as_translate_parts_it(client, trained_model):
    """It was searched whole, cut at the model's longest input: the stream ended with the first part's
    translation alone, where /translate and /v1/translate translate every part."""
    text = "a man rides a bike " * 6  # one sentence, no stop
    model, tokenizer = load_model_dir(trained_model)
    assert len(tokenizer.encode(text)) > model.config.longest_input
    [done] = [data["translatedText"] for name, data in stream(client, {"q": text}) if name == "done"]
    assert done == client.post("/v1/translate", json={"text": text}).json()["translations"][0]
    assert done.count("ein mann fährt ein fahrrad") >= 2


def test_each_event_holds_the_whole_text_so_far_and_the_last_is_the_translation(client):
    for text in SENTENCES:
        events = stream(client, {"q": text, "source": "en", "target": "de", "beam": 4})
        partials = [data["translatedText"] for name, data in events if name == "partial"]
        assert [name for name, _ in events] == ["partial"] * len(partials) + ["done"]
        assert all(partials) and all(a != b for a, b in pairwise(partials))  # sent when the text changes
        assert partials[-1] == events[-1][1]["translatedText"]


def test_a_stream_whose_client_left_stops_at_the_next_step(trained_model):
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    gone, sent = threading.Event(), []

    def send(partial: str) -> None:  # the first event, then the client is gone
        sent.append(partial)
        gone.set()

    with pytest.raises(Gone):
        run_stream(served, "a man rides a bike", Decoding(beam_size=4), send, gone)
    assert sent == ["ein"]


class OnePartial:
    """A stand-in for a model's batcher: its stream sends one partial, then searches until its client is gone."""

    async def call(self, run, served, text, decoding, send, gone, done, as_read):
        def search() -> str:
            send("ein")
            gone.wait(10)
            raise Gone

        return await asyncio.to_thread(search)


def test_a_client_that_hangs_up_while_its_stream_waits_leaves_no_task_pending():
    async def hang_up_after_the_first_event() -> set[asyncio.Task]:
        stream = events(SimpleNamespace(batcher=OnePartial()), "a man rides a bike", Decoding())
        assert await anext(stream) == 'event: partial\ndata: {"translatedText": "ein"}\n\n'

        async def next_event() -> str:
            return await anext(stream)

        waiting = asyncio.create_task(next_event())
        deadline = asyncio.get_running_loop().time() + 5
        while not any(task.get_coro().__qualname__ == "Queue.get" for task in asyncio.all_tasks()):
            assert asyncio.get_running_loop().time() < deadline, "the stream never waited for its next partial"
            await asyncio.sleep(0)  # until it waits for the next partial
        started = asyncio.all_tasks() - {asyncio.current_task()}
        waiting.cancel()  # as starlette cancels a stream whose client hung up
        _, pending = await asyncio.wait(started, timeout=5)
        return pending

    assert asyncio.run(hang_up_after_the_first_event()) == set()  # was: its wait for the next partial


class BrokenLines:
    """A stand-in for a model's batcher: its stream sends one partial and ends, each text holding the
    line breaks JSON leaves raw (U+2028, U+0085, U+2029)."""

    async def call(self, run, served, text, decoding, send, gone, done, as_read):
        send("ein\u2028hund")
        return "ein\u2028hund\x85rennt\u2029"


def test_an_events_data_is_one_line_to_str_splitlines_whatever_line_breaks_its_text_holds():
    """Written raw, a U+2028 in a translation cut the event's ``data:`` line in two for a proxy or
    logger splitting where str.splitlines does; written as its escape, as JSONL output writes it, it
    reads back as the same text."""
    async def every_event() -> list[str]:
        return [each async for each in events(SimpleNamespace(batcher=BrokenLines()), "a dog runs", Decoding())]

    partial, done = asyncio.run(every_event())
    assert partial == 'event: partial\ndata: {"translatedText": "ein\\u2028hund"}\n\n'
    assert done == 'event: done\ndata: {"translatedText": "ein\\u2028hund\\u0085rennt\\u2029"}\n\n'
    assert json.loads(done.splitlines()[1].removeprefix("data: ")) == {"translatedText": "ein\u2028hund\x85rennt\u2029"}


def test_without_languages_the_first_model_streams_and_auto_detects(client):
    assert translated_text(stream(client, {"q": "a dog runs"})[-1][1]) == {"translatedText": "ein hund rennt"}
    assert stream(client, {"q": "a dog runs", "source": "auto", "target": "de"})[-1][1]["translatedText"] == (
        "ein hund rennt")


def test_the_done_event_of_an_auto_source_says_the_detected_language_as_translate_does(client):
    body = {"q": "a dog runs", "source": "auto", "target": "de"}
    name, done = stream(client, body)[-1]
    answer = client.post("/translate", json=body).json()
    assert name == "done" and done["detectedLanguage"] == answer["detectedLanguage"]
    assert done["detectedLanguage"]["language"] == "en"
    assert "detectedLanguage" not in stream(client, {**body, "source": "en"})[-1][1]


GERMAN = "Der Hund läuft mit den Kindern durch den großen Park."


@pytest.mark.parametrize("source", ["auto", "de"])
def test_a_text_already_in_the_target_language_streams_as_it_is_as_translate_answers_it(client, source):
    """It was 400 "German (de) is not available as a target language from German (de)", where /translate
    gives the text back (attnmt.server.auto_source)."""
    body = {"q": GERMAN, "source": source, "target": "de"}
    [(name, done)] = stream(client, body)
    assert name == "done" and done == client.post("/translate", json=body).json()
    assert done["translatedText"] == GERMAN and (source == "de" or done["detectedLanguage"]["language"] == "de")


@pytest.mark.parametrize("body, status, message", [
    ({"source": "en", "target": "de"}, 400, "Invalid request: missing q parameter"),
    ({"q": ["a dog runs"], "source": "en", "target": "de"}, 400, "Invalid request: a stream translates one text"),
    ({"q": "a dog runs", "source": "en", "target": "fr"}, 400, "fr is not supported"),
    ({"q": "a dog runs", "source": "en"}, 400, "Invalid request: missing target parameter"),
    ({"q": "a dog runs", "source": "auto"}, 400, "Invalid request: missing target parameter"),
    ({"q": "a dog runs", "target": "de"}, 400, "Invalid request: missing source parameter"),
    ({"q": "a dog runs", "beam": 0}, 400, "Invalid request: beam must be a whole number from 1 to 16"),
    ({"q": "a dog runs", "beam": "4.5"}, 400, "Invalid request: beam must be a whole number from 1 to 16"),
    ({"q": "a dog runs", "beam": "²"}, 400, "Invalid request: beam must be a whole number from 1 to 16"),  # was 500
    ({"q": "a dog runs", "beam": "٣"}, 400, "Invalid request: beam must be a whole number from 1 to 16"),
    ({"q": "<p>a dog runs</p>", "format": "html"}, 400, "html format is not supported by /translate/stream"),
    ({"q": "a dog runs", "format": "pdf"}, 400, "pdf format is not supported"),  # were streamed as text
    ({"q": "a dog runs", "alternatives": 2}, 400, "Invalid request: /translate/stream sends one translation"),
    ({"q": "a dog runs", "alternatives": "two"}, 400, "Invalid request: alternatives parameter is not a number"),
])
def test_a_bad_stream_request_is_refused_before_streaming(client, body, status, message):
    answer = client.post("/translate/stream", json=body)
    assert answer.status_code == status and answer.json()["error"].startswith(message)


@pytest.mark.parametrize("beam", ["²", "٣", " 2", "+2"])
def test_a_forms_beam_of_other_than_ascii_digits_is_refused(client, beam):
    """A superscript "²" is a digit to str.isdigit, which int() refuses: it was a 500 and a traceback."""
    answer = client.post("/translate/stream", data={"q": "a dog runs", "beam": beam})
    assert answer.status_code == 400
    assert answer.json() == {"error": "Invalid request: beam must be a whole number from 1 to 16"}


def test_a_forms_beam_of_digits_streams(client):
    answer = client.post("/translate/stream", data={"q": "a man rides a bike", "beam": "2"})
    assert answer.status_code == 200 and "event: done" in answer.text


@pytest.mark.parametrize("alternatives", [0, "0", ""])
def test_no_alternatives_streams_as_a_request_without_them_does(client, alternatives):
    body = {"q": "a dog runs", "source": "en", "target": "de"}
    assert stream(client, {**body, "alternatives": alternatives}) == stream(client, body)


def test_format_text_streams_as_a_request_without_format_does(client):
    body = {"q": "a dog runs", "source": "en", "target": "de"}
    assert stream(client, {**body, "format": "text"}) == stream(client, body)


def test_the_done_event_carries_quality_where_the_server_says_so(trained_model):
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    with TestClient(create_app([served], ServeSettings(quality=True))) as client:
        name, done = stream(client, {"q": "a man rides a bike", "source": "en", "target": "de", "beam": 1})[-1]
    assert name == "done" and translated_text(done) == {"translatedText": "ein mann fährt ein fahrrad"}
    assert done["flags"] == [] and 0.8 < done["quality"] <= 1 and done["calibrated"] is False


@pytest.mark.parametrize("text", ["12345 !!!", "https://example.com/docs/page", "\u200e", "\u200b", "  "])
def test_the_done_event_of_a_text_with_nothing_to_translate_carries_quality_one(trained_model, text):
    """As POST /translate gives it: the text passed through is its own reference.  The done event
    had no quality at all: only the sentences searched were assessed, and there were none.  A
    direction mark, a zero-width space or spaces alone were refused with 400 "q has nothing to translate"."""
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    with TestClient(create_app([served], ServeSettings(quality=True))) as client:
        name, done = stream(client, {"q": text, "source": "en", "target": "de"})[-1]
    assert name == "done" and done == {"translatedText": text, "quality": 1.0, "flags": [], "calibrated": False}


STAND_IN = {"A dog runs.": "Ein Hund rennt.", "A cat sleeps.": "Eine Katze schläft.",
            "A man visits in the park.": "Ein Mann besucht im Park."}


def stand_in_stream(monkeypatch, text: str) -> list[str]:
    """``run_stream`` at beam 1 with a stand-in for the search: each sentence's translation in
    STAND_IN grows a word a step.  The texts it sends, then the translation."""
    def search(model, sentence, decoding, on_step):
        words = STAND_IN[sentence].split()
        for n in range(1, len(words) + 1):
            on_step({0: SimpleNamespace(tokens=words[:n])})
        return [[SimpleNamespace(tokens=words)]]

    monkeypatch.setattr(streaming, "padded_sources", lambda model, tokenizer, sentences, **_: [(0, sentences[0])])
    monkeypatch.setattr(streaming, "beam_search", search)
    monkeypatch.setattr(streaming, "evaluating", lambda model: nullcontext())
    served = SimpleNamespace(model=None, tokenizer=SimpleNamespace(decode=" ".join), document_options=DEFAULT_OPTIONS,
                             fits=None, writes=None, plausibility=None)  # no limit, no vocabulary, no judge: each
    # sentence whole, to the search
    sent = []
    translation = run_stream(served, text, Decoding(beam_size=1), sent.append, threading.Event())
    return [*sent, translation]


def test_a_repeated_sentence_streams_once_searched_never_ahead_of_the_search(monkeypatch):
    assert stand_in_stream(monkeypatch, "A dog runs. A cat sleeps. A dog runs.") == [
        "Ein", "Ein Hund", "Ein Hund rennt.",
        "Ein Hund rennt. Eine", "Ein Hund rennt. Eine Katze", "Ein Hund rennt. Eine Katze schläft.",
        "Ein Hund rennt. Eine Katze schläft. Ein Hund rennt."]  # before: "Ein   Ein", "Ein Hund   Ein Hund", …


def test_a_line_without_letters_streams_once_the_search_is_past_it(monkeypatch):
    assert stand_in_stream(monkeypatch, "A dog runs.\n2024 — 2025\nA cat sleeps.") == [
        "Ein", "Ein Hund", "Ein Hund rennt.",  # before: "Ein\n2024 — 2025" first
        "Ein Hund rennt.\n2024 — 2025\nEine", "Ein Hund rennt.\n2024 — 2025\nEine Katze",
        "Ein Hund rennt.\n2024 — 2025\nEine Katze schläft.", "Ein Hund rennt.\n2024 — 2025\nEine Katze schläft."]


def test_a_url_inside_a_sentence_waits_for_the_end_of_its_search(monkeypatch):
    """Its place comes from the word weights of the whole translation, read once at the end: the
    partials, whose translations have no weights, showed it placed by their words' order, moving
    as words came ("http://example.com/page Ein", then "Ein http://example.com/page Mann")."""
    monkeypatch.setattr(streaming, "traced_weights", lambda model, tokenizer, sentence, translation: [
        [float(k == t) for k in range(len(sentence.split()))] for t in range(len(translation.split()))])
    assert stand_in_stream(monkeypatch, "A man visits http://example.com/page in the park.") == [
        "Ein", "Ein Mann", "Ein Mann besucht", "Ein Mann besucht im", "Ein Mann besucht im Park.",
        "Ein Mann besucht http://example.com/page im Park."]


def test_a_text_already_in_the_target_language_is_charged_to_its_key_as_translate_charges_it(trained_model, tmp_path):
    """It streamed back free, where POST /translate counts its characters: a key of 60 characters a minute
    sent it twice (53 characters each) without a word."""
    from attnmt.server.access import Access, read_api_keys

    (tmp_path / "keys").write_text("k chars-per-minute=60\n", encoding="utf-8")
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    body = {"q": GERMAN, "source": "auto", "target": "de", "api_key": "k"}
    for path in ("/translate", "/translate/stream"):
        with TestClient(create_app([served], ServeSettings(), Access(read_api_keys(tmp_path / "keys")))) as client:
            assert client.post(path, json=body).status_code == 200
            again = client.post(path, json=body)
            assert again.status_code == 429 and again.json()["error"].startswith("Slowdown: "), path


def test_a_fields_name_the_model_finds_garbled_keeps_its_source_at_the_streams_end(trained_model, monkeypatch):
    """The stream's end took the model's translation of a field's name alone (the demo model's "BENEFITS" ->
    "EIN DEMA"), where the server's /translate of the same text kept the source (its plausibility under 0.3); a
    plausible one whose translation opens with an article it lacks (the tiny model's "ein ...") keeps it too."""
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    monkeypatch.setattr(ServedModel, "plausibility",
                        lambda self, sentences, translations: [0.05 if s == "INGREDIENTS" else 0.9 for s in sentences])
    done = run_stream(served, "INGREDIENTS: a man rides a bike\nSide Effects: a dog runs.", DEFAULT,
                      lambda _: None, threading.Event())
    first, second = done.split("\n")
    assert first.startswith("INGREDIENTS: ") and not first.endswith("a man rides a bike")
    assert second == "Side Effects: ein hund rennt"
