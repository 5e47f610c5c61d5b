"""LibreTranslate's real Python clients against `attnmt serve --model en-de=DIR --api-keys FILE` on
loopback: deep-translator's LibreTranslator and libretranslatepy's LibreTranslateAPI."""

import json
import time
import urllib.error
import urllib.request

import pytest
from support import running_server, translated_text

deep_translator = pytest.importorskip("deep_translator", reason="deep-translator is a test dependency (.[dev])")
libretranslatepy = pytest.importorskip("libretranslatepy", reason="libretranslatepy is a test dependency (.[dev])")
from deep_translator.exceptions import AuthorizationException, ServerException  # noqa: E402

KEY = "k-3f9c2e"


@pytest.fixture(scope="module")
def server(trained_model, tmp_path_factory):
    keys = tmp_path_factory.mktemp("keys") / "keys.txt"
    keys.write_text(f"{KEY}\n", encoding="utf-8")
    # --quality: the answers carry attnmt's extra fields, which the clients must read past
    with running_server(trained_model, "--api-keys", str(keys), "--char-limit", "300", "--quality",
                        pair="en-de") as started:
        yield started


def test_deep_translator_translates_a_text_and_a_list(server):
    _, url, _ = server
    translator = deep_translator.LibreTranslator(source="en", target="de", api_key=KEY, custom_url=url)
    assert translator.translate("a dog runs") == "ein hund rennt"
    assert translator.translate_batch(["a cat sleeps", "two men walk"]) == ["eine katze schläft", "zwei männer gehen"]
    detecting = deep_translator.LibreTranslator(source="auto", target="de", api_key=KEY, custom_url=url)
    assert detecting.translate("the boy laughs") == "der junge lacht"


def test_deep_translator_surfaces_a_wrong_key_and_a_bad_request(server):
    _, url, _ = server
    with pytest.raises(AuthorizationException):
        deep_translator.LibreTranslator(source="en", target="de", api_key="wrong", custom_url=url).translate("a dog")
    with pytest.raises(ServerException):  # the server has no en-fr model: 400
        deep_translator.LibreTranslator(source="en", target="fr", api_key=KEY, custom_url=url).translate("a dog")


def test_libretranslatepy_translates_detects_and_lists_languages(server):
    _, url, _ = server
    api = libretranslatepy.LibreTranslateAPI(url, api_key=KEY)
    assert api.translate("a man rides a bike", "en", "de") == "ein mann fährt ein fahrrad"
    assert api.translate("a bird sings", "auto", "de") == "ein vogel singt"
    detected, target = api.detect("a bird sings")  # the only source weighed against twenty other languages
    assert detected["language"] == "en" and 50 < detected["confidence"] < 100 and target["language"] == "de"
    assert api.detect("Der Vogel singt im Garten")[0]["language"] == "de"  # not English at 0 %
    assert api.languages() == [{"code": "en", "name": "English", "targets": ["de", "en"]},
                               {"code": "de", "name": "German", "targets": ["de"]}]
    assert api.translate("Ein Vogel singt.", "de", "de") == "Ein Vogel singt."  # a target listed: as it is


def test_libretranslatepy_surfaces_errors_as_http_errors(server):
    _, url, _ = server
    with pytest.raises(urllib.error.HTTPError) as refused:
        libretranslatepy.LibreTranslateAPI(url).translate("a dog runs", "en", "de")  # no key
    assert refused.value.code == 400
    assert json.load(refused.value) == {"error": "Please contact the server operator to get an API key"}
    with pytest.raises(urllib.error.HTTPError) as too_long:
        libretranslatepy.LibreTranslateAPI(url, api_key=KEY).translate("a dog runs " * 40, "en", "de")
    assert too_long.value.code == 400 and "exceeds" in json.load(too_long.value)["error"]


def test_libretranslatepy_reads_the_answer_to_a_body_over_the_limit(server):
    """The connection was closed on the body unread: urllib, which sends its whole body before it reads, mostly
    failed with "Broken pipe" (a URLError, no answer) and never read the 413."""
    _, url, _ = server
    api = libretranslatepy.LibreTranslateAPI(url, api_key=KEY)
    for _ in range(3):  # as it was, a race that the server mostly won
        with pytest.raises(urllib.error.HTTPError) as refused:
            api.translate("a" * 8_000_000, "en", "de")
        assert refused.value.code == 413
        assert json.load(refused.value)["error"] == "the request body is over 1000000 bytes"
    assert api.translate("a dog runs", "en", "de") == "ein hund rennt"


def test_the_access_log_names_no_key_and_no_text(server):
    _, url, process = server
    request = urllib.request.Request(url + "translate", json.dumps({"q": "a girl swims", "source": "en",
                                                                    "target": "de", "api_key": KEY}).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert translated_text(json.load(answer)) == {"translatedText": "ein mädchen schwimmt"}
    # The line is written once the answer has gone out: wait for it.
    deadline = time.monotonic() + 10
    while True:
        process.stderr.seek(0)
        lines = [json.loads(line) for line in process.stderr.read().splitlines() if line.startswith("{")]
        mine = [line for line in lines if line["path"] == "/translate" and line.get("characters") == 12]  # the text
        if mine or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert mine and mine[-1]["status"] == 200 and mine[-1]["key"] == 1
    assert all(KEY not in json.dumps(line) and "a girl swims" not in json.dumps(line) for line in lines)


def test_a_file_sent_as_libretranslates_page_sends_it_comes_back_from_its_url(server):
    requests = pytest.importorskip("requests", reason="requests comes with deep-translator (.[dev])")
    _, url, _ = server
    form, file = {"source": "en", "target": "de", "api_key": KEY}, {"file": ("notes.txt", b"a dog runs\n")}
    answer = requests.post(url + "translate_file", data=form, files=file, timeout=60)
    assert answer.status_code == 200, answer.text
    file_url = answer.json()["translatedFileUrl"]
    assert file_url.startswith(url + "download_file/")  # a URL the client can open as it is
    download = requests.get(file_url, timeout=30)
    assert download.content == b"ein hund rennt\n"
    assert 'filename="notes.de.txt"' in download.headers["content-disposition"]
    refused = requests.post(url + "translate_file", data={**form, "api_key": "wrong"}, files=file, timeout=60)
    assert refused.status_code == 403 and refused.json() == {"error": "Invalid API key"}


def test_a_file_sent_from_german_into_german_as_languages_offers_it_comes_back_as_it_came(server):
    """/languages lists German among German's targets, so LibreTranslate's page offers German into German; a file
    sent so was 400 ("brief.txt is in German (de) already"), where a text came back as it is.  libretranslatepy
    (2.1.4) sends no files: this is the page's form."""
    requests = pytest.importorskip("requests", reason="requests comes with deep-translator (.[dev])")
    _, url, _ = server
    letter = "Der Vogel singt über dem Garten.\r\n".encode()
    answer = requests.post(url + "translate_file", data={"source": "de", "target": "de", "api_key": KEY},
                           files={"file": ("brief.txt", letter)}, timeout=60)
    assert answer.status_code == 200, answer.text
    download = requests.get(answer.json()["translatedFileUrl"], timeout=30)
    assert download.content == letter and 'filename="brief.de.txt"' in download.headers["content-disposition"]
