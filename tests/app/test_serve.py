"""The translation server, in process: every endpoint, every limit and error (the batching underneath: test_batcher)."""

import asyncio
import gzip
import json
import logging
import math
import re
import threading

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from support import PAIRS

from attnmt.checkpoint import load_model_dir
from attnmt.errors import ConfigError
from attnmt.fast import prepare
from attnmt.server import models as served
from attnmt.server.app import ServedModel, ServeSettings, create_app


@pytest.fixture(scope="module")
def client(trained_model, serve_settings):
    model, tokenizer = load_model_dir(trained_model)
    app = create_app([ServedModel(model, tokenizer, "tiny-en-de", "en", "de")], serve_settings)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def post_raw(client, body: bytes, content_type: str = "application/json", path: str = "/v1/translate"):
    return client.post(path, content=body, headers={"content-type": content_type})


# --- POST /translate ---------------------------------------------------------------


def test_one_text_is_translated(client):
    answer = client.post("/translate", json={"text": "a dog runs"})
    assert answer.status_code == 200
    assert answer.json() == {"translations": ["ein hund rennt"]}


def test_several_texts_come_back_in_order(client):
    sources, targets = zip(*PAIRS[:4], strict=True)
    answer = client.post("/translate", json={"texts": list(sources), "beam": 1})
    assert answer.json()["translations"] == list(targets)


def test_max_length_cuts_the_output_to_that_many_subword_tokens(client, trained_model):
    _, tokenizer = load_model_dir(trained_model)
    first_two = tokenizer.decode(tokenizer.encode("ein mann fährt ein fahrrad")[:2])
    # Greedy: beam search charges a cut hypothesis its forced EOS, so a model sure of the whole
    # sentence may rank the empty output above "ein man" + EOS (which of the two wins is rounding).
    answer = client.post("/translate", json={"text": "a man rides a bike", "max_length": 2, "beam": 1})
    assert answer.json()["translations"] == [first_two]


def test_return_attention_gives_tokens_and_row_stochastic_matrices(client):
    answer = client.post("/translate", json={"text": "a dog runs", "return_attention": True}).json()
    [[data]] = answer["attention"]  # one text of one sentence
    assert data["translation"] == answer["translations"][0] == "ein hund rennt"
    cross = data["kinds"]["cross"]
    assert cross["cols"][-1] == "</s>"  # the source as the encoder reads it: its pieces, then </s>
    assert "".join(cross["cols"][:-1]).replace("▁", " ").strip() == "a dog runs"
    assert cross["rows"][-1] == "</s>"  # the target pieces, then the end of sentence
    assert set(data["kinds"]) == {"cross", "encoder", "decoder_self"}
    weights = cross["weights"]  # [layer][head][row][col]: 2 layers, 4 heads in the tiny model
    assert (len(weights), len(weights[0]), len(weights[0][0]), len(weights[0][0][0])) == (
        2, 4, len(cross["rows"]), len(cross["cols"]))
    for row in weights[1][3]:
        assert sum(row) == pytest.approx(1.0, abs=0.01)


def test_return_attention_over_the_weights_limit_is_413_before_any_model_work(client):
    # The tiny model: 2 + 2 layers, 4 heads; "a dog runs" is S = 6 source pieces (</s> included). With
    # max_length 60 the output may be T = 61 rows: 4 * (2 * 6 * 6 + 2 * 61 * (61 + 6)) = 32,984 weights.
    batches = client.get("/health").json()["batches"]
    answer = client.post("/v1/translate", json={"text": "a dog runs", "return_attention": True, "max_length": 60})
    assert answer.status_code == 413
    assert answer.json()["detail"] == ("return_attention could send 32,984 attention weights (layers x heads x output "
                                       "x input pieces; text: 32,984); at most 10,000 a request: send fewer or "
                                       "shorter texts, or a lower max_length")
    assert client.get("/health").json()["batches"] == batches


def test_return_attention_within_the_weights_limit_is_answered(client):
    # max_length 20: 4 * (2 * 6 * 6 + 2 * 21 * (21 + 6)) = 4,824 weights a text, 9,648 for two.
    answer = client.post("/v1/translate", json={"texts": ["a dog runs"] * 2, "return_attention": True,
                                                "max_length": 20})
    assert answer.status_code == 200
    # one list a text, one viewer object a sentence
    assert [[each["translation"] for each in text] for text in answer.json()["attention"]] == [["ein hund rennt"]] * 2


def test_return_attention_counts_a_paragraph_sentence_by_sentence(client):
    # Each sentence is traced alone, so the weights add up per sentence: 8 x "a dog runs." at
    # max_length 2 is 8 * 4 * (2 * 7 * 7 + 2 * 3 * (3 + 7)) = 5,056 weights, within 10,000; sized
    # as one text of 8 * 6 + 1 = 49 pieces it was 4 * (2 * 49 * 49 + 2 * 3 * (3 + 49)) = 20,456: a 413.
    answer = client.post("/v1/translate", json={"text": "a dog runs. " * 8, "return_attention": True,
                                                "max_length": 2, "beam": 1})
    assert answer.status_code == 200, answer.json()
    [sentences] = answer.json()["attention"]
    assert len(sentences) == 8  # one viewer object a sentence


def test_attention_is_left_out_unless_asked_for(client):
    assert "attention" not in client.post("/translate", json={"text": "a dog runs"}).json()


# --- GET /health, /, /docs -------------------------------------------------------------


def test_health_names_the_model_vocabulary_and_device(client):
    health = client.get("/health").json()
    assert health["status"] == "ok" and health["model"] == "tiny-en-de"
    assert health["vocab_size"] == 81 and health["device"] == "cpu"
    assert health["max_input_tokens"] == 62  # max_positions 64, less BOS and EOS
    assert health["limits"]["max_texts"] == 4
    assert health["limits"]["quality"] is False  # a switch reads as one, not as 0


def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/openapi.json").json()
    assert {"/translate", "/v1/translate", "/health", "/languages", "/detect"} <= set(schema["paths"])
    assert "TranslateRequest" in schema["components"]["schemas"]
    assert client.get("/docs").status_code == 200


def test_the_schema_is_at_spec_too_where_libretranslates_clients_read_its_swagger_json(client):
    """GET /spec was 404."""
    answer = client.get("/spec")
    assert answer.status_code == 200 and answer.json() == client.get("/openapi.json").json()


def test_page_has_text_box_button_and_the_viewer_without_network_resources(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    for part in ('<textarea id="source"', '<button id="translate"', 'id="translation"', 'id="kind"',
                 'id="layer"', 'id="head"', '<svg id="view"', "function showAttention("):
        assert part in html
    assert set(re.findall(r"https?://[^\s\"'<>]*", html)) <= {"http://www.w3.org/2000/svg"}
    assert re.findall(r"<link[^>]*>", html) == ['<link rel="icon" href="data:,">']  # no /favicon.ico to ask for
    assert not re.search(r"<script[^>]*\bsrc=", html)


# --- errors: what the client did wrong, in a sentence ---------------------------------------


@pytest.mark.parametrize("body, message", [
    ({"text": ""}, "text is empty"),
    ({"text": " \n\t"}, "text is empty"),
    ({"texts": []}, '"texts" is empty'),
    ({"texts": ["a dog runs", " "]}, r"texts\[1\] is empty"),
    ({}, 'give either "text"'),
    ({"text": "a", "texts": ["b"]}, 'give either "text"'),
    ({"text": "a dog runs", "beam": 0}, "beam: Input should be greater than or equal to 1"),
    ({"text": "a dog runs", "beam": "4"}, "beam: Input should be a valid integer"),
    ({"text": "a dog runs", "max_length": 0}, "max_length: Input should be greater than or equal to 1"),
    ({"text": "a dog runs", "return_attention": "yes"}, "return_attention: Input should be a valid boolean"),
    ({"text": 5}, "text: Input should be a valid string"),
    ({"texts": "a dog runs"}, "texts: Input should be a valid list"),
    ({"text": "a dog runs", "beam_size": 2}, "unknown field 'beam_size'"),
])
def test_invalid_requests_are_422_with_a_message(client, body, message):
    answer = client.post("/v1/translate", json=body)
    assert answer.status_code == 422
    assert re.search(message, answer.json()["detail"]), answer.json()


@pytest.mark.parametrize("body, message", [
    (b'{"text": "a dog', "not valid JSON"),
    (b"", "must be a JSON object"),
    (b'["a dog runs"]', "must be a JSON object"),
    (b"null", "must be a JSON object"),
    (b'{"text": "\\ud800"}', "not valid Unicode"),  # a lone surrogate: valid JSON, not encodable text
    (b'{"text": "caf\xe9"}', "not valid JSON (not UTF-8: byte 0xe9 at character 13)"),
    (b"[" * 5000 + b"]" * 5000, "not valid JSON (nested too deeply)"),
    # int() reads no more digits: a ValueError, which FastAPI answered with 400 "There was an error parsing the body"
    (b'{"texts": ["x"], "seed": 1' + b"0" * 5000 + b"}", "not valid JSON (a number too long: 5001 digits"),
])
def test_malformed_bodies_are_422_with_a_message(client, body, message):
    answer = post_raw(client, body)
    assert answer.status_code == 422
    assert message in answer.json()["detail"]


def test_a_json_body_with_a_byte_order_mark_is_read_as_translate_reads_it(client):
    """Was 422 "the body is not valid JSON (Unexpected UTF-8 BOM ...)", where /translate took it."""
    answer = post_raw(client, b'\xef\xbb\xbf{"text": "a dog runs"}')
    assert answer.status_code == 200 and answer.json()["translations"] == ["ein hund rennt"]


def test_a_byte_that_is_not_utf8_after_a_byte_order_mark_is_named_at_its_place_in_the_body(client):
    answer = post_raw(client, b'\xef\xbb\xbf{"text": "caf\xe9"}')
    assert answer.status_code == 422
    assert "not valid JSON (not UTF-8: byte 0xe9 at character 16)" in answer.json()["detail"]


@pytest.mark.parametrize("content_type, came", [("application/x-www-form-urlencoded",  # curl -d
                                                  "as application/x-www-form-urlencoded"),
                                                 ("text/plain; charset=utf-8", "as text/plain"), ("", "without one")])
def test_json_sent_without_a_json_content_type_is_422_saying_to_send_one(client, content_type, came):
    answer = post_raw(client, b'{"text": "a dog runs"}', content_type)
    assert answer.status_code == 422 and answer.json()["detail"].startswith(
        f"the body must be JSON sent with Content-Type: application/json (it came {came};")


@pytest.mark.parametrize("body, message", [
    ({"texts": ["a dog runs"] * 5}, "5 texts in one request; at most 4"),
    ({"text": "a" * 121}, "text has 121 characters; at most 120"),
    ({"texts": ["a dog runs"] * 3, "return_attention": True}, "return_attention is for at most 2 texts"),
    ({"text": "a dog runs", "glossary": {"a": "ein", "dog": "hund", "runs": "rennt", "cat": "katze"}},
     "the glossary has 4 terms; at most 3 a request"),
])
def test_too_much_is_413_with_a_message(client, body, message):
    answer = client.post("/v1/translate", json=body)
    assert answer.status_code == 413
    assert re.search(message, answer.json()["detail"])


def test_a_sentence_longer_than_the_model_reads_is_translated_in_parts_not_refused(client):
    """It was 413, "texts[1] has a sentence 101 subword tokens long": it is parted into sentences that fit."""
    answer = client.post("/v1/translate", json={"texts": ["a dog runs", "x y " * 25]})
    assert answer.status_code == 200 and len(answer.json()["translations"]) == 2


def test_a_letterless_sentence_with_a_glossary_term_longer_than_the_model_reads_takes_its_term(client):
    """A sentence without letters never reaches the model, so no input limit holds it (it was refused
    413 while such a sentence went to the model): its terms are replaced, all else kept."""
    text = "1 " * 55 + "2012"
    answer = client.post("/v1/translate", json={"text": text, "glossary": {"2012": "katze"}})
    assert answer.status_code == 200 and answer.json()["translations"] == ["1 " * 55 + "katze"]
    assert client.post("/v1/translate", json={"text": text}).json()["translations"] == [text]  # no term: passes


def test_body_over_the_byte_limit_is_413_declared_or_streamed(client):
    big = b'{"text": "' + b"a" * 20_000 + b'"}'
    message = "the request body is over 10000 bytes"  # in both APIs' error shapes
    assert post_raw(client, big).json() == {"detail": message, "error": message}

    def chunks():  # no Content-Length: counted while read
        for start in range(0, len(big), 1000):
            yield big[start:start + 1000]

    answer = post_raw(client, chunks())
    assert answer.status_code == 413 and answer.json() == {"detail": message, "error": message}


@pytest.mark.parametrize("path, shape", [("/v1/translate", ["detail"]), ("/translate", ["error"]),
                                         ("/translate_file", ["error"]), ("/v1/files", ["detail"])])
@pytest.mark.parametrize("coding", ["gzip", "deflate, gzip", "br", "X-GZIP"])
def test_a_compressed_body_is_415_naming_its_content_encoding(client, path, shape, coding):
    """It was read as it came: gzip's JSON was "not UTF-8: byte 0x8b", a gzipped form "missing q parameter"."""
    body = gzip.compress(b'{"text": "a dog runs", "q": "a dog runs", "source": "en", "target": "de"}')
    answer = client.post(path, content=body, headers={"content-type": "application/json", "content-encoding": coding})
    message = (f"the request body's Content-Encoding {coding!r} is not supported: send it uncompressed "
               "(no Content-Encoding, or identity)")
    assert answer.status_code == 415 and answer.json() == dict.fromkeys(shape, message)
    assert answer.headers["accept-encoding"] == "identity"


@pytest.mark.parametrize("coding", ["identity", "Identity", "", "utf-8"])
def test_a_content_encoding_that_compresses_nothing_is_read_as_none(client, coding):
    """utf-8: a charset some clients write there, which LibreTranslate ignores; such clients keep working."""
    answer = client.post("/v1/translate", json={"text": "a dog runs"}, headers={"content-encoding": coding})
    assert answer.status_code == 200 and answer.json()["translations"] == ["ein hund rennt"]


def test_hostile_bodies_never_get_a_server_error(client):
    bodies = [b"[" * 5000 + b"]" * 5000, b'{"text": "a", "beam": ' + b"9" * 5000 + b"}",
              b'{"text": NaN}', b'{"text": "a", "beam": 1e400}', b"\xff\xfe", b'{"text": "\\u0000"}',
              b'{"text": "a dog runs", "text": ""}', b'{"texts": [' + b'"a",' * 100 + b'"a"]}',
              b'{"texts": ["\\u0001", "\\ufeff"], "return_attention": true}', '{"text": "🙂"}'.encode()]
    for body in bodies:
        assert 200 <= post_raw(client, body).status_code < 500, body[:40]
    assert client.get("/health").status_code == 200


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=10)
FIELDS = st.sampled_from(["text", "texts", "beam", "max_length", "return_attention", "other"])


@settings(max_examples=60, deadline=None)
@given(body=JSON | st.dictionaries(FIELDS, JSON | st.lists(st.text(max_size=30), max_size=5), max_size=4))
def test_no_json_body_gets_a_server_error(client, body):
    answer = client.post("/v1/translate", json=body)
    assert answer.status_code in (200, 413, 422), (body, answer.text)


@settings(max_examples=40, deadline=None)
@given(body=st.fixed_dictionaries(
    {"text": st.text(min_size=1, max_size=40)},
    optional={"beam": st.integers(1, 3), "max_length": st.integers(1, 8), "return_attention": st.booleans()}))
def test_any_text_is_translated_or_refused_never_a_server_error(client, body):
    answer = client.post("/v1/translate", json=body)
    assert answer.status_code in (200, 413, 422), (body, answer.text)


@pytest.mark.parametrize(("body", "message"), [
    (b'{"text": "a dog runs", "prefix": "ein \\ud800"}', "prefix is not valid Unicode (it has an unpaired surrogate)"),
    (b'{"text": "a dog runs", "glossary": {"dog": "\\udfff"}}', "glossary term 'dog' is not valid Unicode"),
    (b'{"text": "a dog runs", "beam": 1, "sampling_topk": 0, "seed": 1208925819614629174706176}',
     "seed: Input should be less than or equal to 18446744073709551615"),
    (b'{"text": "a dog runs", "beam": 1, "sampling_topk": 0, "sampling_temperature": 1e39}',
     "sampling_temperature: expected more than 0 and at most 3.403e+38 (float32's largest number)"),
])
def test_lone_surrogates_and_huge_seeds_and_temperatures_are_422_with_a_message(client, body, message):
    answer = post_raw(client, body)
    assert answer.status_code == 422 and message in answer.json()["detail"]


def test_a_lone_surrogate_in_the_old_translate_shape_is_422_as_not_json(client):
    answer = post_raw(client, b'{"text": "a \\ud800 dog"}', path="/translate")
    detail = answer.json()["detail"]  # pydantic's parser names the place itself ("at line 1 column 19")
    assert answer.status_code == 422 and detail.startswith("the body is not valid JSON (") and "character" not in detail


HALF_A_FILE = (b"multipart/form-data; boundary=B",
               b'--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\na dog')


@pytest.mark.parametrize(("path", "content_type", "half"), [
    *[pytest.param(path, b"application/json", b'{"q": "a do', id=path) for path in ("/translate", "/v1/translate",
                                                                                    "/detect", "/translate/stream")],
    *[pytest.param(path, *HALF_A_FILE, id=path) for path in ("/translate_file", "/v1/files")],
])
def test_a_client_gone_half_way_through_its_body_is_logged_as_499_not_as_a_failure(client, path, content_type, half,
                                                                                    caplog):
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
             "headers": [(b"host", b"testserver"), (b"content-type", content_type), (b"content-length", b"400")],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    messages = [{"type": "http.request", "body": half, "more_body": True}]

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        pass

    with caplog.at_level(logging.INFO, logger="attnmt.access"):
        asyncio.run(client.app(scope, receive, send))  # no exception: nothing for the server to log as its failure
    [line] = [json.loads(record.message) for record in caplog.records if record.name == "attnmt.access"]
    assert line["status"] == 499


def test_a_content_length_of_a_superscript_digit_is_no_length_and_the_body_is_counted(client):
    """Headers are Latin-1: byte 0xb2 is "²", a digit to str.isdigit but no number to int(), which
    raised in the body limit's check, before any route."""
    body = json.dumps({"q": "a dog runs"}).encode()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/detect", "raw_path": b"/detect", "root_path": "", "query_string": b"",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"content-length", b"\xb2")],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(client.app(scope, receive, send))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200


def test_wrong_method_and_unknown_path(client):
    assert client.get("/translate").status_code == 405 and client.get("/v1/translate").status_code == 405
    assert client.get("/nothing-here").status_code == 404


def test_a_failing_model_answers_500_and_the_server_goes_on(client, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(served, "translate_texts", broken)
    answer = client.post("/translate", json={"text": "a dog runs"})
    assert answer.status_code == 500
    assert answer.json()["detail"] == "translation failed: RuntimeError: out of memory"
    monkeypatch.undo()
    assert client.post("/translate", json={"text": "a dog runs"}).json()["translations"] == ["ein hund rennt"]


def test_concurrent_requests_share_batches(trained_model):
    model, tokenizer = load_model_dir(trained_model)
    sources, targets = zip(*PAIRS[:8], strict=True)
    app = create_app([ServedModel(model, tokenizer)], ServeSettings(max_batch=8, batch_window_ms=200))
    with TestClient(app) as client:
        answers = [None] * 8

        def ask(i):
            answers[i] = client.post("/translate", json={"text": sources[i], "beam": 2}).json()

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        health = client.get("/health").json()
    assert [answer["translations"][0] for answer in answers] == list(targets)
    assert health["translated"] == 8 and health["batches"] < 8, health  # fewer model calls than requests


def test_the_int8_copy_serves_the_memorised_pairs(trained_model):
    # What `attnmt serve --int8` serves: the same fast copy as `attnmt translate --int8`.
    model, tokenizer = load_model_dir(trained_model)
    served_copy = ServedModel(prepare(model, int8=True), tokenizer, parameters=model.num_parameters())
    with TestClient(create_app([served_copy])) as client:
        sources, targets = zip(*PAIRS, strict=True)
        answer = client.post("/translate", json={"texts": list(sources)}).json()
        health = client.get("/health").json()
    assert answer["translations"] == list(targets)
    assert health["parameters"] == model.num_parameters()


@pytest.mark.parametrize("setting, value", [("max_batch", 0), ("body_timeout_s", math.nan),
                                            ("shutdown_timeout_s", math.inf), ("batch_window_ms", -1.0)])
def test_settings_are_checked(setting, value):
    """nan too, which is neither below the least nor at or above it."""
    least = 0 if setting == "batch_window_ms" else 1
    with pytest.raises(ConfigError, match=f"{setting} must be a finite number >= {least}, got {value}"):
        ServeSettings(**{setting: value})


@pytest.mark.parametrize("setting, value, kind", [
    ("file_chunk", 1.5, "a whole number"), ("max_texts", True, "a whole number"), ("max_batch", "8", "a whole number"),
    ("batch_window_ms", "5", "a number"), ("quality", "no", "true or false"), ("allow_macros", 1, "true or false")])
def test_a_setting_of_the_wrong_type_is_named(setting, value, kind):
    """file_chunk=1.5 was taken, and failed the first file sent; quality="no" was true; "5" a TypeError."""
    with pytest.raises(ConfigError, match=rf"^serve setting {setting} must be {kind}, got {re.escape(repr(value))}$"):
        ServeSettings(**{setting: value})


def test_whole_settings_of_another_numeric_type_are_taken_as_ints():
    import numpy as np

    settings = ServeSettings(file_chunk=4.0, max_batch=np.int64(16), batch_window_ms=np.float32(2))
    assert (settings.file_chunk, settings.max_batch, settings.batch_window_ms) == (4, 16, 2.0)
    assert type(settings.file_chunk) is type(settings.max_batch) is int


def test_n_best_hypotheses_with_scores_alignments_and_confidence(client):
    answer = client.post("/translate", json={"texts": ["a dog runs", "two men walk"], "beam": 3, "n_best": 2,
                                             "return_alignments": True, "return_confidence": True})
    assert answer.status_code == 200
    body = answer.json()
    assert body["translations"] == ["ein hund rennt", "zwei männer gehen"]
    first, second = body["hypotheses"]
    assert len(first) == len(second) == 2 and first[0]["text"] == "ein hund rennt"
    assert first[0]["score"] >= first[1]["score"]  # best first
    assert first[0]["log_prob"] > -0.2  # a memorised pair (support.KNOWS_THE_PAIRS)
    assert first[0]["alignment"] and all(0.8 < p <= 1.0 for _, p in first[0]["confidence"])
    assert client.post("/translate", json={"text": "a dog runs"}).json() == {"translations": ["ein hund rennt"]}


def test_more_hypotheses_than_the_beam_is_a_422(client):
    answer = client.post("/translate", json={"text": "a dog runs", "beam": 2, "n_best": 3})
    assert answer.status_code == 422 and '"n_best" 3 needs "beam" 3 or more' in answer.json()["detail"]


def test_detect_with_one_source_language_names_german_text_german(client):
    """It answered ``[{"language": "en", "confidence": 0.0}]`` for German sent to an en-de server, and a
    client that takes the first entry (Nextcloud's) translated the German as English; LibreTranslate
    ranks every language it lists, so the target's too."""
    german = client.post("/detect", json={"q": "Der Hund läuft über die Straße"}).json()
    english = client.post("/detect", json={"q": "a woman reads a book"}).json()
    assert [each["language"] for each in german] == ["de", "en"] and german[0]["confidence"] > 50
    assert [each["language"] for each in english] == ["en", "de"] and english[0]["confidence"] > 50
    # told between the two alone, as a text under 120 characters is (detect.TRIGRAMS_LENGTH)
    assert german[0]["confidence"] > 95 and english[0]["confidence"] > 70
