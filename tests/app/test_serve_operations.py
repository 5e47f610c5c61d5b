"""The server's operations, in process: API keys, rate limits (429 + Retry-After), CORS, allowed hosts,
/metrics, and the JSON access log that never holds a key (nor texts, unless asked)."""

import asyncio
import json
import logging
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from starlette.responses import PlainTextResponse
from support import translated_text

from attnmt.cli.main import main
from attnmt.errors import ConfigError
from attnmt.server.access import Access, MetricsAccess, log_of, read_api_keys, read_metrics_key
from attnmt.server.app import ServeSettings, address, create_app
from attnmt.server.context import Server
from attnmt.server.guards import AllowedHosts
from attnmt.server.models import Models

ASK = {"q": "a dog runs", "source": "en", "target": "de"}


@pytest.fixture
def keys_file(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("# team keys\nsecret-a 2\nsecret-b   # no limit of its own\n\n", encoding="utf-8")
    return path


def client_for(served, **options) -> TestClient:
    return TestClient(create_app([served], **options), raise_server_exceptions=False)


def test_a_keys_file_is_read_with_each_keys_limit(keys_file):
    keys = read_api_keys(keys_file)
    assert {key: (k.line, k.per_minute) for key, k in keys.items()} == {"secret-a": (2, 2), "secret-b": (3, None)}


def test_a_key_may_have_characters_per_request_and_per_minute(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("a 60 char-limit=500\nb chars-per-minute=9000\nc 5 chars-per-minute=90 char-limit=40\n",
                    encoding="utf-8")
    keys = read_api_keys(path)
    assert {key: (k.per_minute, k.char_limit, k.chars_per_minute) for key, k in keys.items()} == {
        "a": (60, 500, None), "b": (None, None, 9000), "c": (5, 40, 90)}


@pytest.mark.parametrize("text, message", [
    ("key 0\n", r"keys.txt:1: expected 'KEY \[REQUESTS_PER_MINUTE\] \[char-limit=N\] \[chars-per-minute=N\]'"),
    ("key a lot\n", r"keys.txt:1: expected"),
    ("key 5 6\n", r"keys.txt:1: expected"),
    ("key char-limit=0\n", r"keys.txt:1: expected"),
    ("key chars=50\n", r"keys.txt:1: expected"),
    ("key char-limit=5 char-limit=6\n", r"keys.txt:1: expected"),
    ("key char-limit=5 60\n", r"keys.txt:1: expected"),
    ("key \N{SUPERSCRIPT TWO}\n", r"keys.txt:1: expected"),  # a digit to str.isdigit, no number to int()
    ("key char-limit=\N{ARABIC-INDIC DIGIT THREE}\n", r"keys.txt:1: expected"),
    ("one\ntwo\none 5\n", r"keys.txt:3: this key is already on line 1"),
    ("# nothing\n", r"keys.txt: no keys in it"),
])
def test_a_malformed_keys_file_names_the_line(tmp_path, text, message):
    path = tmp_path / "keys.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        read_api_keys(path)


@pytest.mark.parametrize("data, message", [
    (b"\xff\xfekey\n", r"keys.txt:1: not UTF-8 \(byte 0xff\); save the keys file as UTF-8"),
    (b"one\ntwo \xe9\n", r"keys.txt:2: not UTF-8 \(byte 0xe9\)"),
])
def test_a_keys_file_that_is_not_utf8_names_its_line_and_byte(tmp_path, data, message):
    path = tmp_path / "keys.txt"
    path.write_bytes(data)
    with pytest.raises(ConfigError, match=message):
        read_api_keys(path)


def test_a_keys_file_with_a_byte_order_mark_keeps_its_first_key_usable(served, tmp_path):
    """Windows Notepad starts a UTF-8 file with a byte order mark: read as part of the first key,
    that key was refused as invalid, without a word when the server started."""
    path = tmp_path / "keys.txt"
    path.write_bytes("\ufeffk1 50\nk2\n".encode())
    assert {key: (k.line, k.per_minute) for key, k in read_api_keys(path).items()} == {"k1": (1, 50), "k2": (2, None)}
    with client_for(served, access=Access(read_api_keys(path))) as client:
        assert client.post("/detect", data={"q": "a dog runs", "api_key": "k1"}).status_code == 200


def test_keys_are_required_in_both_apis_and_checked(served, keys_file):
    with client_for(served, access=Access(read_api_keys(keys_file))) as client:
        assert translated_text(client.post("/translate", json=ASK).json()) == {
            "error": "Please contact the server operator to get an API key"}
        wrong = client.post("/translate", json={**ASK, "api_key": "guess"})
        assert wrong.status_code == 403 and wrong.json() == {"error": "Invalid API key"}
        assert translated_text(client.post("/translate", json={**ASK, "api_key": "secret-b"}).json()) == {
            "translatedText": "ein hund rennt"}
        assert client.post("/translate", data={**ASK, "api_key": "secret-b"}).status_code == 200
        assert client.post("/v1/translate", json={"text": "a dog runs"}).status_code == 401
        bearer = {"Authorization": "Bearer secret-b"}
        assert client.post("/v1/translate", json={"text": "a dog runs"}, headers=bearer).status_code == 200
        assert client.post("/detect", data={"q": "a dog runs"}).status_code == 400
        settings = client.get("/frontend/settings").json()
        assert settings["apiKeys"] is True and settings["keyRequired"] is True
        assert client.get("/languages").status_code == 200 and client.get("/health").status_code == 200


@pytest.mark.parametrize("key", [5, ["secret-b"], True])
def test_a_key_that_is_not_text_is_an_invalid_key_as_libretranslate_answers_it(served, keys_file, key):
    """It was 400 "Please contact the server operator to get an API key", as if no key was sent."""
    with client_for(served, access=Access(read_api_keys(keys_file))) as client:
        answer = client.post("/translate", json={**ASK, "api_key": key})
    assert answer.status_code == 403 and answer.json() == {"error": "Invalid API key"}


@pytest.mark.parametrize("body_key", [123, "guess"])
def test_a_valid_bearer_key_admits_a_request_whose_api_key_is_wrong(served, keys_file, body_key):
    """A LibreTranslate client's api_key (a placeholder, or a number) beside a gateway's valid
    ``Authorization: Bearer`` key was 403: the body's key was the only one looked at."""
    bearer = {"Authorization": "Bearer secret-b"}
    with client_for(served, access=Access(read_api_keys(keys_file))) as client:
        answer = client.post("/translate", json={**ASK, "api_key": body_key}, headers=bearer)
        assert answer.status_code == 200 and translated_text(answer.json()) == {"translatedText": "ein hund rennt"}
        assert client.post("/detect", data={"q": "a dog runs", "api_key": "guess"}, headers=bearer).status_code == 200
        alone = client.post("/translate", json={**ASK, "api_key": body_key})
        assert alone.status_code == 403 and alone.json() == {"error": "Invalid API key"}


def test_a_key_of_letters_beyond_ascii_is_the_same_key_as_a_bearer_as_in_the_body(served, tmp_path):
    """curl -H 'Authorization: Bearer schlüssel-ключ' sends the key's UTF-8 bytes, which were read
    as Latin-1 ("schlÃ¼ssel..."): 403 for a key the body's api_key is admitted with."""
    (tmp_path / "keys.txt").write_text("schlüssel-ключ\n", encoding="utf-8")
    bearer = {"Authorization": "Bearer schlüssel-ключ".encode()}
    with client_for(served, access=Access(read_api_keys(tmp_path / "keys.txt"))) as client:
        assert client.post("/translate", json={**ASK, "api_key": "schlüssel-ключ"}).status_code == 200
        assert client.post("/translate", json=ASK, headers=bearer).status_code == 200
        assert client.post("/v1/translate", json={"text": "a dog runs"}, headers=bearer).status_code == 200
        wrong = client.post("/translate", json=ASK, headers={"Authorization": b"Bearer \xff-not-utf8"})
        assert wrong.status_code == 403 and wrong.json() == {"error": "Invalid API key"}


def test_of_two_valid_keys_the_bodys_is_the_requests_key(served, keys_file):
    """secret-a (2 requests a minute) in the body, secret-b (no limit) as the bearer: secret-a is counted."""
    bearer = {"Authorization": "Bearer secret-b"}
    with client_for(served, access=Access(read_api_keys(keys_file))) as client:
        answers = [client.post("/translate", json={**ASK, "api_key": "secret-a"}, headers=bearer) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]


def test_a_key_over_its_limit_gets_429_with_retry_after(served, keys_file):
    with client_for(served, access=Access(read_api_keys(keys_file))) as client:
        answers = [client.post("/translate", json={**ASK, "api_key": "secret-a"}) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[2].json() == {"error": "Slowdown: 2 per 1 minute per key"}
        assert 1 <= int(answers[2].headers["Retry-After"]) <= 60
        assert client.post("/translate", json={**ASK, "api_key": "secret-b"}).status_code == 200  # its own count


def test_a_keys_char_limit_replaces_the_servers_for_its_requests(served, tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("small char-limit=15\nlarge char-limit=100\nplain\n", encoding="utf-8")
    twenty = {**ASK, "q": ["a dog runs", "a cat runs"]}  # 20 characters
    with client_for(served, settings=ServeSettings(max_request_chars=12), access=Access(read_api_keys(path))) as client:
        assert client.post("/translate", json={**ASK, "api_key": "small"}).status_code == 200
        small = client.post("/translate", json={**twenty, "api_key": "small"})
        assert small.status_code == 400 and small.json() == {
            "error": "Invalid request: request (20) exceeds character limit (15)"}
        assert translated_text(client.post("/translate", json={**twenty, "api_key": "large"}).json()) == {
            "translatedText": ["ein hund rennt", "eine katze rennt"]}
        assert client.post("/translate", json={**twenty, "api_key": "plain"}).status_code == 400  # the server's 12
        bearer = {"Authorization": "Bearer small"}
        native = client.post("/v1/translate", json={"texts": ["a dog runs", "a cat runs"]}, headers=bearer)
        assert native.status_code == 413 and native.json()["detail"] == "the request has 20 characters; at most 15"
        assert client.post("/v1/translate", json={"texts": ["a dog runs", "a cat runs"]},
                           headers={"Authorization": "Bearer large"}).status_code == 200


def test_a_key_over_its_characters_a_minute_gets_429_and_a_request_over_them_all_is_refused(served, tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("metered chars-per-minute=25\n", encoding="utf-8")
    key = {"api_key": "metered"}
    with client_for(served, access=Access(read_api_keys(path))) as client:
        too_large = client.post("/translate", json={**ASK, **key, "q": "a dog runs and a cat sleeps"})  # 27
        assert too_large.status_code == 400 and too_large.json() == {
            "error": "Invalid request: the request has 27 characters; this key may translate at most 25 a minute"}
        assert client.post("/translate", json={**ASK, **key, "target": "fr"}).status_code == 400  # refused: free
        assert client.post("/translate", json={**ASK, **key}).status_code == 200  # 10 characters
        assert client.post("/translate/stream", json={**ASK, **key}).status_code == 200  # 20
        over = client.post("/translate", json={**ASK, **key})  # 30: over
        assert over.status_code == 429 and over.json() == {"error": "Slowdown: 25 characters per 1 minute per key"}
        assert 1 <= int(over.headers["Retry-After"]) <= 60
        bearer = {"Authorization": "Bearer metered"}
        assert client.post("/translate", json={**ASK, **key, "q": "a dog"}).status_code == 200  # 25: still room
        native = client.post("/v1/translate", json={"text": "a"}, headers=bearer)
        assert native.status_code == 429 and native.json() == {"detail": "25 characters per 1 minute per key"}
        assert client.post("/v1/translate", json={"text": "a dog runs " * 3}, headers=bearer).status_code == 413


def test_an_address_over_the_limit_gets_429_in_both_apis(served):
    with client_for(served, access=Access(per_address=2)) as client:
        assert client.post("/translate", json=ASK).status_code == 200
        assert client.post("/v1/translate", json={"text": "a dog runs"}).status_code == 200
        native = client.post("/v1/translate", json={"text": "a dog runs"})
        assert native.status_code == 429 and native.json() == {"detail": "2 per 1 minute per address"}
        assert "Retry-After" in native.headers
        assert client.post("/translate", json=ASK).status_code == 429


def test_cors_is_off_unless_origins_are_given(served):
    preflight = {"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    with client_for(served) as client:
        answer = client.post("/translate", json=ASK, headers={"Origin": "https://app.example"})
        assert "access-control-allow-origin" not in answer.headers
    with client_for(served, cors_origins=["https://app.example"]) as client:
        answer = client.post("/translate", json=ASK, headers={"Origin": "https://app.example"})
        assert answer.headers["access-control-allow-origin"] == "https://app.example"
        exposed = {name.strip().lower() for name in answer.headers["access-control-expose-headers"].split(",")}
        assert {"retry-after", "content-disposition"} <= exposed  # a page's script may read when to retry, a name
        assert client.options("/translate", headers=preflight).status_code == 200
        other = client.options("/translate", headers={**preflight, "Origin": "https://evil.example"})
        assert other.status_code == 400


def test_a_refused_preflight_is_json_naming_the_origin_and_how_to_let_it_in(served):
    """It was Starlette's text/plain "Disallowed CORS origin", in neither API's shape."""
    preflight = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    with client_for(served, cors_origins=["https://app.example"]) as client:
        answer = client.options("/translate", headers=preflight)
        headers = client.options("/translate", headers={**preflight, "Origin": "https://app.example",
                                                        "Access-Control-Request-Headers": "Content-Type,X-Custom"})
    message = ("Disallowed CORS origin: the page of 'https://evil.example' may not call this server; to let it, "
               "start it with --cors-origins https://evil.example")
    assert answer.status_code == 400 and answer.json() == {"detail": message, "error": message}
    assert headers.status_code == 400 and headers.json()["error"] == (  # it named no header, and no way out
        "Disallowed CORS headers: the page asked to send X-Custom; a page may send only accept, accept-language, "
        "authorization, content-language, content-type (as LibreTranslate's CORS lets them)")
    assert headers.headers["access-control-allow-origin"] == "https://app.example"


def test_a_cors_origin_given_with_its_schemes_default_port_lets_in_the_page_whose_browser_omits_it(served):
    """A browser's Origin never holds the scheme's default port: "https://a.example:443" given
    matched no page.  Any other port still has to be the one the page's Origin names."""
    origins = ["https://a.example:443", "HTTP://B.example:80", "https://c.example:8443"]
    with client_for(served, cors_origins=origins) as client:
        for origin in ("https://a.example", "http://b.example", "https://c.example:8443"):
            answer = client.post("/translate", json=ASK, headers={"Origin": origin})
            assert answer.headers["access-control-allow-origin"] == origin  # the browser's own, to compare
            preflight = {"Origin": origin, "Access-Control-Request-Method": "POST"}
            assert client.options("/translate", headers=preflight).headers["access-control-allow-origin"] == origin
        for origin in ("https://c.example", "https://c.example:443", "https://a.example:8443", "http://a.example",
                       "https://a.example/", "http://[", "https://a.example:99999"):  # the last three: no origin
            answer = client.post("/translate", json=ASK, headers={"Origin": origin})
            assert answer.status_code == 200 and "access-control-allow-origin" not in answer.headers


def test_cors_origins_are_read_as_browsers_send_them_and_an_item_that_is_no_origin_is_refused(monkeypatch, capsys):
    """" https://b.example" (after a comma's space) and "https://b.example/" never matched any page."""
    import attnmt.server.app
    from attnmt.cli.commands import serve as command

    given = []
    monkeypatch.setattr(command, "load_served", lambda *args: None)
    monkeypatch.setattr(attnmt.server.app, "serve", lambda *args: given.append(args[5]))  # the CORS origins
    assert main(["serve", "--model", "m", "--cors-origins", "https://a.example, https://B.example:8443,"]) == 0
    assert given == [["https://a.example", "https://b.example:8443"]]
    assert main(["serve", "--model", "m", "--cors-origins", "https://a.example:443,http://c.example:80"]) == 0
    assert given[-1] == ["https://a.example", "http://c.example"]  # the default port, as a browser leaves it out
    assert main(["serve", "--model", "m", "--cors-origins", "null"]) == 0  # a page opened from a file
    assert given[-1] == ["null"]
    for item in ("https://b.example/", "notaurl", "*", "b.example:8443"):
        with pytest.raises(SystemExit) as stopped:
            main(["serve", "--model", "m", "--cors-origins", f"https://a.example,{item}"])
        assert stopped.value.code == 2
        assert f"argument --cors-origins: {item!r} is not a web origin: give scheme://host[:port]" in \
            capsys.readouterr().err


def test_cors_origins_written_in_capitals_are_origins_as_the_serving_guide_says():
    """HTTP://LOCALHOST:3000 was refused as no web origin: its scheme was compared with urlsplit's lower-cased one."""
    from attnmt.cli.commands.serve import web_origins

    assert web_origins("HTTP://LOCALHOST:3000, HTTPS://App.Example:443") == ["http://localhost:3000",
                                                                             "https://app.example"]


@pytest.mark.parametrize("host, url", [("::1", "http://[::1]:8000/"), ("::", "http://[::]:8000/"),
                                       ("127.0.0.1", "http://127.0.0.1:8000/"), ("localhost", "http://localhost:8000/")])
def test_the_ready_lines_address_brackets_an_ipv6_host(host, url):
    """--host ::1 printed http://::1:8000/, which no browser or curl opens."""
    assert address(host, 8000) == url


def test_the_ready_lines_address_for_every_interface_names_localhost():
    """--host "" (every address of the machine) printed http://:8000/, which no browser or curl opens."""
    assert address("", 8000) == "http://localhost:8000/"


def test_metrics_count_requests_by_status_batches_and_characters(served):
    with client_for(served) as client:
        client.post("/translate", json=ASK)
        client.post("/translate", json={"source": "en"})
        client.get("/nowhere")
        text = client.get("/metrics").text
    assert 'attnmt_requests_total{path="/translate",status="200"} 1.0' in text
    assert 'attnmt_requests_total{path="/translate",status="400"} 1.0' in text
    assert 'attnmt_requests_total{path="other",status="404"} 1.0' in text
    assert 'attnmt_request_seconds_count{path="/translate"} 2.0' in text
    assert 'attnmt_batch_texts_count{model="en-de"} 1.0' in text
    assert 'attnmt_characters_total{model="en-de"} 10.0' in text  # len("a dog runs")
    assert 'attnmt_queued_texts{model="en-de"} 0.0' in text


def test_metrics_label_the_servers_own_routes_by_their_template_and_made_up_paths_as_other(served):
    with client_for(served) as client:
        jobs = [client.post("/v1/files", files={"file": (f"{i}.txt", b"a dog runs\n", "text/plain")}).json()
                for i in range(2)]
        for job in jobs:
            client.get(job["events_url"])
            client.get(job["status_url"])
            client.head(job["download_url"])
        client.get("/v1/files/AAAAAAAAAAAAAAAAAAAAAA")  # a job that is not there: 404, by its route
        client.get("/download_file/AAAAAAAAAAAAAAAAAAAAAA.x.txt")
        client.get("/wp-login.php")
        text = client.get("/metrics").text
    assert 'attnmt_requests_total{path="/v1/files/{job_id}",status="200"} 2.0' in text
    assert 'attnmt_requests_total{path="/v1/files/{job_id}",status="404"} 1.0' in text
    assert 'attnmt_requests_total{path="/v1/files/{job_id}/events",status="200"} 2.0' in text
    assert 'attnmt_requests_total{path="/v1/files/{job_id}/download",status="200"} 2.0' in text
    assert 'attnmt_requests_total{path="/download_file/{filename}",status="404"} 1.0' in text
    assert 'attnmt_requests_total{path="other",status="404"} 1.0' in text  # made up: one label for all
    assert "AAAA" not in text


def test_metrics_answer_anyone_by_default_as_prometheus_expects(served):
    with TestClient(create_app([served]), client=("203.0.113.7", 50000)) as client:
        assert client.get("/metrics").status_code == 200


@pytest.mark.parametrize("address, status", [("127.0.0.1", 200), ("::1", 200), ("203.0.113.7", 403)])
def test_metrics_kept_to_loopback_refuse_other_addresses(served, address, status):
    with TestClient(create_app([served], metrics_access=MetricsAccess(loopback=True)), client=(address, 50000),
                    raise_server_exceptions=False) as client:
        answer = client.get("/metrics")
        assert answer.status_code == status
        assert client.post("/translate", json=ASK).status_code == 200  # only /metrics is kept
    if status == 403:
        assert answer.json() == {"detail": "/metrics answers only clients on this machine (--metrics-access loopback)"}


def test_metrics_with_a_key_need_it_as_a_bearer_token(served, tmp_path):
    path = tmp_path / "metrics.key"
    path.write_text("scrape-token\n", encoding="utf-8")
    with client_for(served, metrics_access=MetricsAccess(key=read_metrics_key(path))) as client:
        missing = client.get("/metrics")
        assert missing.status_code == 401 and missing.headers["WWW-Authenticate"] == "Bearer"
        assert client.get("/metrics", headers={"Authorization": "Bearer guess"}).status_code == 401
        answer = client.get("/metrics", headers={"Authorization": "Bearer scrape-token"})
        assert answer.status_code == 200 and "attnmt_requests_total" in answer.text


@pytest.mark.parametrize("text", ["", "  \n", "two words\n"])
def test_a_metrics_key_file_holds_one_key(tmp_path, text):
    path = tmp_path / "metrics.key"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"metrics.key: expected one key \(no spaces\) for GET /metrics"):
        read_metrics_key(path)


def test_a_metrics_key_file_with_a_byte_order_mark_holds_the_key_after_it(tmp_path):
    path = tmp_path / "metrics.key"
    path.write_bytes("\ufeffscrape-token\r\n".encode())
    assert read_metrics_key(path) == "scrape-token"


def test_a_metrics_key_file_that_is_not_utf8_names_its_byte(tmp_path):
    path = tmp_path / "metrics.key"
    path.write_bytes(b"scrape-\xfftoken\n")
    with pytest.raises(ConfigError, match=r"metrics.key:1: not UTF-8 \(byte 0xff\); save the metrics key as UTF-8"):
        read_metrics_key(path)


def access_lines(caplog) -> list[dict]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.name == "attnmt.access"]


def test_the_access_log_has_a_json_line_per_request_without_keys_or_texts(served, keys_file, caplog):
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_for(served, access=Access(read_api_keys(keys_file))) as client:
        client.post("/translate", json={**ASK, "api_key": "secret-b"})
        client.post("/translate", json={**ASK, "api_key": "guess"})
    first, second = access_lines(caplog)
    assert {k: first[k] for k in ("method", "path", "status", "model", "texts", "characters", "key")} == {
        "method": "POST", "path": "/translate", "status": 200, "model": "en-de", "texts": 1, "characters": 10,
        "key": 3}  # the key's line in the file
    assert second["status"] == 403 and "key" not in second
    logged = caplog.text
    assert "secret-b" not in logged and "guess" not in logged and "a dog runs" not in logged


def test_a_path_holding_a_line_separator_is_one_access_log_line_that_reads_back(served, caplog):
    """The path arrives percent-decoded (U+2028 is %E2%80%A8); json.dumps left it, U+2029 and U+0085
    raw, so str.splitlines, as a log shipper splits, read the record as two lines."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_for(served) as client:
        client.get("/a%E2%80%A8b%E2%80%A9c%C2%85d")
    [record] = [record.getMessage() for record in caplog.records if record.name == "attnmt.access"]
    assert len(record.splitlines()) == 1 and "\\u2028" in record
    assert json.loads(record)["path"] == "/a\u2028b\u2029c\x85d"


def test_log_text_adds_the_texts_and_translations(served, caplog):
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_for(served, log_text=True) as client:
        client.post("/translate", json=ASK)
    [line] = access_lines(caplog)
    assert line["text"] == ["a dog runs"] and line["translation"] == ["ein hund rennt"]


def test_a_translated_files_access_log_line_gives_its_model_sentences_and_characters(served, caplog):
    """They were missing from /translate_file's line (its characters counted in the metrics alone).
    A file of several chunks (2 sentences each here) names its model once, not once a chunk
    ("en-de,en-de,en-de"), and gives every chunk's sentences and translations, in order.
    /v1/files' line is written as its job starts: the model alone."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    five = b"a dog runs\na cat sleeps\na dog sleeps\na cat runs\nthe dog runs\n"
    with client_for(served, settings=ServeSettings(file_chunk=2), log_text=True) as client:
        client.post("/translate_file", data={"source": "en", "target": "de"},
                    files={"file": ("dogs.txt", b"a dog runs\n\na cat sleeps\n", "text/plain")})
        client.post("/translate_file", data={"source": "en", "target": "de"},
                    files={"file": ("five.txt", five, "text/plain")})
        client.post("/v1/files", files={"file": ("dogs.txt", b"a dog runs\n", "text/plain")})
    libre, chunked, native = access_lines(caplog)
    assert {k: libre[k] for k in ("path", "status", "model", "texts", "characters", "text")} == {
        "path": "/translate_file", "status": 200, "model": "en-de", "texts": 2, "characters": 22,
        "text": ["a dog runs", "a cat sleeps"]} and libre["translation"][0] == "ein hund rennt"
    assert {k: chunked[k] for k in ("status", "model", "texts", "characters", "text")} == {
        "status": 200, "model": "en-de", "texts": 5, "characters": 10 + 12 + 12 + 10 + 12,
        "text": five.decode().splitlines()}
    assert len(chunked["translation"]) == 5 and chunked["translation"][0] == "ein hund rennt"
    assert (native["path"], native["status"], native["model"]) == ("/v1/files", 202, "en-de")


def test_the_access_log_line_of_a_translation_the_model_failed_on_names_the_model(served, failing_on_the_boy,
                                                                                   caplog):
    """A 500's line named none: on a server of several models, no telling which one failed."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_for(served) as client:
        client.post("/translate", json={**ASK, "q": failing_on_the_boy})
        client.post("/v2/translate", json={"text": [failing_on_the_boy], "target_lang": "DE", "source_lang": "EN"})
        client.post("/v1/translate", json={"text": failing_on_the_boy})
        client.post("/translate_file", data={"source": "en", "target": "de"},
                    files={"file": ("boy.txt", f"{failing_on_the_boy}\n".encode(), "text/plain")})
    lines = access_lines(caplog)
    assert [(line["path"], line["status"], line.get("model")) for line in lines] == [
        (path, 500, "en-de") for path in ("/translate", "/v2/translate", "/v1/translate", "/translate_file")]


def test_a_model_whose_name_holds_a_comma_is_named_once_however_many_chunks(served, caplog):
    """The names were read back from the line's comma-joined text: "en,de" came out "en,de,en,de"."""
    from starlette.requests import Request

    request = Request({"type": "http", "method": "POST", "path": "/translate_file", "headers": []})
    server = Server(Models([served]))
    named = replace(served, name="en,de")
    for chunk in (["a dog runs"], ["a cat sleeps"], ["a dog sleeps"]):
        server.note(request, named, chunk, ["x"])
    assert (log_of(request)["model"], log_of(request)["texts"]) == ("en,de", 3)


def test_log_text_adds_a_streams_translation_once_it_is_done(served, caplog):
    """It was noted as the stream began, before the search: "translation": []."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    with client_for(served, log_text=True) as client:
        assert client.post("/translate/stream", json=ASK).status_code == 200
    [line] = access_lines(caplog)
    assert (line["path"], line["text"], line["translation"]) == ("/translate/stream", ["a dog runs"],
                                                                 ["ein hund rennt"])


def test_head_is_answered_as_get_without_the_body(served):
    with client_for(served) as client:
        libre = client.post("/translate_file", data={"source": "en", "target": "de"},
                            files={"file": ("dogs.txt", b"a dog runs\n", "text/plain")}).json()
        job = client.post("/v1/files", files={"file": ("dogs.txt", b"a dog runs\n", "text/plain")}).json()
        client.get(job["events_url"])  # until it is done
        paths = ["/health", "/", "/languages", "/frontend/settings", "/metrics", job["status_url"], job["events_url"],
                 job["download_url"], libre["translatedFileUrl"].removeprefix("http://testserver")]
        for path in paths:
            get, head = client.get(path), client.head(path)
            assert (head.status_code, head.content) == (200, b""), path
            assert head.headers["content-type"] == get.headers["content-type"], path
        assert client.head("/translate").status_code == 405  # POST only, as GET


def asgi_status(app, headers: list[tuple[bytes, bytes]]) -> int:
    """The status ``app`` answers a GET /health with exactly ``headers`` (TestClient always sends a Host)."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "http_version": "1.0", "method": "GET", "scheme": "http", "path": "/health",
             "raw_path": b"/health", "root_path": "", "query_string": b"", "headers": headers,
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"]


@pytest.mark.parametrize("headers", [[], [(b"host", b"")], [(b"host", b"localhost:abc")], [(b"host", b"a b")]])
def test_allowed_host_star_lets_in_a_request_whatever_its_host_header(headers):
    """An HTTP/1.0 health check without a Host (HAProxy's httpchk) got 400 with ``--allowed-host '*'``."""
    app = AllowedHosts(PlainTextResponse("ok"), hosts=["*"])
    assert asgi_status(app, headers) == 200
    assert asgi_status(AllowedHosts(PlainTextResponse("ok"), hosts=["localhost"]), headers) == 400


@pytest.mark.parametrize("log_text", [False, True])
def test_a_refusals_log_record_holds_the_clients_text_only_with_log_text(served, caplog, log_text):
    """The record of a request the model refuses for its own fault held its glossary term even
    without --log-text, which the access log beside it leaves out."""
    caplog.set_level(logging.INFO, logger="attnmt.model")
    with client_for(served, log_text=log_text) as client:
        answer = client.post("/translate", json={"text": "a dog runs", "glossary": {"dog": "Xylophon"}})
    assert answer.status_code == 422 and "'Xylophon'" in answer.json()["detail"]
    [record] = [json.loads(record.getMessage()) for record in caplog.records if record.name == "attnmt.model"]
    assert record["event"] == "refused" and record["kind"] == "DataError" and record["model"] == served.name
    assert ("Xylophon" in record["error"]) == log_text
