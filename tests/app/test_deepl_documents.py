"""DeepL's document translation, replayed as deepl-python's translate_document sends it: the upload
as a multipart form (its options as fields, the file as "file"), then the status and the result,
each a form with the document_key, the key in ``Authorization: DeepL-Auth-Key``."""

import json
import logging
import threading
import time

import pytest
from fastapi.testclient import TestClient
from support import wait_until

from attnmt.checkpoint import load_model_dir
from attnmt.server.access import Access, ApiKey
from attnmt.server.app import ServedModel, ServeSettings, create_app

KEY = "0b4e2c1d-5a8f-4d2e-9c1b-7e3f6a9d2b10:fx"
AUTH = {"Authorization": f"DeepL-Auth-Key {KEY}"}
LETTER = b"a dog runs\n\na cat sleeps\n"


@pytest.fixture(scope="module")
def client(trained_model):
    """The tiny model served as en-de, with one API key; a file may be larger than a request's body."""
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    settings = ServeSettings(max_body_bytes=10_000, max_file_bytes=30_000)
    with TestClient(create_app(models, settings, Access({KEY: ApiKey(1, None)})),
                    raise_server_exceptions=False) as client:
        yield client


def upload(client, data=None, name="letter.txt", content=LETTER):
    """The upload's bytes as deepl-python's requests writes them: each field, then the open file by
    its name's last part, no part with a Content-Type."""
    boundary = "3f1c0e7b9a2d4c58b6e1f0a9d8c7b6a5"
    fields = {"target_lang": "DE", **(data or {})}
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
             for key, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n\r\n'.encode()
                 + content + f"\r\n--{boundary}--\r\n".encode())
    return client.post("/v2/document", content=b"".join(parts),
                       headers={**AUTH, "Content-Type": f"multipart/form-data; boundary={boundary}"})


def finished(client, handle: dict) -> dict:
    """The document's status once it is no longer queued or translating, polled as deepl-python polls it."""
    deadline = time.monotonic() + 30
    while True:
        status = client.post(f"/v2/document/{handle['document_id']}",
                             data={"document_key": handle["document_key"]}, headers=AUTH).json()
        if status["status"] not in ("queued", "translating") or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def test_deepl_pythons_upload_status_and_result_give_the_translated_file(client):
    handle = upload(client, {"source_lang": "EN"}).json()
    assert set(handle) == {"document_id", "document_key"}
    assert finished(client, handle) == {"document_id": handle["document_id"], "status": "done",
                                        "billed_characters": len("a dog runs") + len("a cat sleeps")}
    result = client.post(f"/v2/document/{handle['document_id']}/result",
                         data={"document_key": handle["document_key"]}, headers=AUTH)
    assert result.status_code == 200
    assert result.content.decode() == "ein hund rennt\n\neine katze schläft\n"


def test_a_document_is_deleted_once_downloaded_as_deepl_deletes_it(client):
    """DeepL's documentation: removed "for privacy reasons" once downloaded; it stayed here for file_ttl_s."""
    handle = upload(client, {"source_lang": "EN"}).json()
    assert finished(client, handle)["status"] == "done"
    path = f"/v2/document/{handle['document_id']}/result"
    assert client.post(path, data={"document_key": handle["document_key"]}, headers=AUTH).status_code == 200
    again = client.post(path, data={"document_key": handle["document_key"]}, headers=AUTH)
    assert again.status_code == 404 and "downloaded already" in again.json()["message"]


def test_a_source_lang_with_a_region_is_400_as_deepl_answers_it(client):
    """Read as en here, as DeepL refuses it: a source language names no region."""
    answer = upload(client, {"source_lang": "EN-GB"})
    assert answer.status_code == 400
    assert answer.json()["message"].startswith("Value for 'source_lang' not supported: 'EN-GB'; a source language")


def test_a_target_lang_with_a_region_deepl_has_no_variant_for_is_400_as_deepl_answers_it(client):
    answer = upload(client, {"target_lang": "DE-DE"})
    assert answer.status_code == 400
    assert answer.json()["message"].startswith("Value for 'target_lang' not supported: 'DE-DE'; DeepL's target")


def test_without_source_lang_the_files_language_is_detected(client):
    handle = upload(client).json()
    assert finished(client, handle)["status"] == "done"


def test_a_wrong_document_key_is_404_and_gives_nothing_away(client):
    handle = upload(client, {"source_lang": "EN"}).json()
    for path in (f"/v2/document/{handle['document_id']}", f"/v2/document/{handle['document_id']}/result"):
        answer = client.post(path, data={"document_key": "0" * 64}, headers=AUTH)
        assert answer.status_code == 404 and answer.json()["message"].startswith("Document")


@pytest.mark.parametrize(("fields", "name", "status", "message"), [
    ({"output_format": "docx"}, "letter.txt", 400, "Value for 'output_format' not supported: 'docx'"),
    ({"formality": "more"}, "letter.txt", 400, "'formality' 'more' is not supported"),
    ({"glossary_ids": "def3a26b-3e84,9c1b-7e3f"}, "letter.txt", 400, "Parameter 'glossary_ids' is not supported"),
    ({"target_lang": "FR"}, "letter.txt", 400, "Value for 'target_lang' not supported: 'FR'"),
    ({}, "letter.exe", 400, "letter.exe"),
])
def test_what_it_cannot_do_is_refused_in_deepls_shape(client, fields, name, status, message):
    answer = upload(client, fields, name)
    assert answer.status_code == status and message in answer.json()["message"]


def test_an_upload_without_a_key_is_403(client):
    answer = client.post("/v2/document", data={"target_lang": "DE"}, files={"file": ("letter.txt", LETTER)})
    assert answer.status_code == 403 and set(answer.json()) == {"message"}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "DeepL-Auth-Key wrong"}])
def test_status_and_result_without_the_api_key_are_403_though_the_document_key_is_right(client, headers):
    """Only the document_key was checked: a client without an API key polled and fetched the file."""
    handle = upload(client, {"source_lang": "EN"}).json()
    finished(client, handle)
    for path in (f"/v2/document/{handle['document_id']}", f"/v2/document/{handle['document_id']}/result"):
        answer = client.post(path, data={"document_key": handle["document_key"]}, headers=headers)
        assert answer.status_code == 403 and set(answer.json()) == {"message"}


def test_polling_a_document_counts_against_no_rate_limit(trained_model):
    """deepl-python asks for the status every 5 seconds: counted as requests, a key of 2 a minute
    was refused (429) on its second poll, and its document lost to the client."""
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    app = create_app(models, ServeSettings(), Access({KEY: ApiKey(1, 2)}))
    with TestClient(app, raise_server_exceptions=False) as limited:
        handle = upload(limited, {"source_lang": "EN"}).json()
        for _ in range(3):
            assert limited.post(f"/v2/document/{handle['document_id']}", headers=AUTH,
                                data={"document_key": handle["document_key"]}).status_code == 200
        assert finished(limited, handle)["status"] == "done"
        assert limited.post(f"/v2/document/{handle['document_id']}/result", headers=AUTH,
                            data={"document_key": handle["document_key"]}).status_code == 200


def test_an_uploads_access_log_line_names_the_model_it_went_to(client, caplog):
    """It named none, where /v1/files' line names its job's model: no telling which model a document used."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    upload(client, {"source_lang": "EN"})
    [line] = [json.loads(record.getMessage()) for record in caplog.records if record.name == "attnmt.access"]
    assert (line["path"], line["status"], line["model"]) == ("/v2/document", 200, "en-de")


def test_a_file_larger_than_a_requests_body_may_be_is_taken_up_to_the_file_limit(client):
    """It was refused as any request body over max_body_bytes, in no DeepL shape."""
    assert set(upload(client, {"source_lang": "EN"}, content=LETTER + b" " * 20_000).json()) == {
        "document_id", "document_key"}
    answer = upload(client, {"source_lang": "EN"}, content=LETTER + b" " * 100_000)
    assert answer.status_code == 413 and "over 30,000 bytes" in answer.json()["message"]


@pytest.mark.parametrize("disposition", ['name="file"; filename="blob"', 'name="file"'])
def test_the_filename_parameter_names_a_file_its_part_does_not(trained_model, disposition):
    """DeepL's alternative to the part's name: a browser's FormData sends a Blob as "blob", and a part
    may have no filename; either was 400, "no extension" or "Parameter 'file' not specified".  A server
    of its own: the module's still translates the files of the tests before."""
    models = [ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")]
    with TestClient(create_app(models, access=Access({KEY: ApiKey(1, None)}))) as client:
        assert_named_by_the_parameter(client, disposition)


def assert_named_by_the_parameter(client, disposition):
    boundary = "9d8c7b6a5f4e3d2c1b0a"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="target_lang"\r\n\r\nDE\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\nletter.txt\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; {disposition}\r\n\r\n').encode() + LETTER + (
            f'\r\n--{boundary}--\r\n').encode()
    answer = client.post("/v2/document", content=body,
                         headers={**AUTH, "Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert answer.status_code == 200, answer.text
    handle = answer.json()
    assert finished(client, handle)["status"] == "done"
    result = client.post(f"/v2/document/{handle['document_id']}/result",
                         data={"document_key": handle["document_key"]}, headers=AUTH)
    assert 'filename="letter.de.txt"' in result.headers["content-disposition"]
    assert result.text == "ein hund rennt\n\neine katze schläft\n"


@pytest.mark.parametrize(("name", "output_format"), [("page.htm", "html"), ("page.html", "HTM"), ("app.xlf", "xliff")])
def test_an_output_format_deepl_lists_as_the_files_own_is_taken(client, name, output_format):
    """DeepL lists htm and html, xlf and xliff, as one format each: asking for html was 400 for a .htm file."""
    answer = upload(client, {"output_format": output_format}, name=name, content=b"<p>a dog runs</p>")
    # taken: uploaded (200), or past its checks to the file jobs, full of the tests' before (503)
    assert answer.status_code in (200, 503) and "output_format" not in answer.text, answer.text


def test_a_failed_documents_status_says_why_in_error_message_and_message(client):
    """deepl-python reads error_message; DeepL's OpenAPI example and its mock server answer message too,
    which older clients read: they found no reason in the answer."""
    deadline = time.monotonic() + 30
    # the earlier tests' files may still be translated and waiting, two of each: 503, retried as deepl-python does
    while (sent := upload(client, {"source_lang": "EN"}, "report.docx", b"not a zip")).status_code == 503:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    status = finished(client, sent.json())
    assert status["status"] == "error" and "report.docx" in status["error_message"]
    assert status["message"] == status["error_message"]


@pytest.fixture
def held(trained_model):
    """The tiny model served as en-de, its first batch held in the model thread until ``release`` is set."""
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    run_batch, served.release, served.batches = served.run_batch, threading.Event(), []

    def held_batch(texts, options):
        served.batches.append(texts)
        if len(served.batches) == 1:
            served.release.wait(60)
        return run_batch(texts, options)

    served.run_batch = held_batch
    return served


def test_a_document_uploaded_while_others_are_translated_waits_queued_as_deepl_queues_it(held):
    """It was 503 at once: deepl-python's retries of it (about 16 s) ran out while a long file held the place."""
    access = Access({KEY: ApiKey(1, None)})
    with TestClient(create_app([held], ServeSettings(max_file_jobs=1), access)) as client:
        first = upload(client, {"source_lang": "EN"}).json()
        wait_until(lambda: held.batches)  # its sentences are in the model: the one place is taken
        second = upload(client, {"source_lang": "EN"})
        assert second.status_code == 200
        status = client.post(f"/v2/document/{second.json()['document_id']}",
                             data={"document_key": second.json()["document_key"]}, headers=AUTH).json()
        assert status == {"document_id": second.json()["document_id"], "status": "queued"}
        third = upload(client, {"source_lang": "EN"})  # as many wait as are translated: its file is not held
        assert third.status_code == 503 and third.headers["retry-after"] == "1"
        assert third.json()["message"] == ("2 files are being translated or waiting for their turn (at most 1 at "
                                           "once, as many waiting); retry shortly")
        held.release.set()
        assert [finished(client, handle)["status"] for handle in (first, second.json())] == ["done", "done"]
        result = client.post(f"/v2/document/{second.json()['document_id']}/result",
                             data={"document_key": second.json()["document_key"]}, headers=AUTH)
        assert result.content.decode() == "ein hund rennt\n\neine katze schläft\n"


BRIEF = "Der Hund läuft mit den Kindern durch den großen Park.\n".encode()


def test_a_file_sent_with_the_target_language_as_its_source_is_refused_in_deepls_words(client):
    """DeepL answers "Source and target language are equal." (its mock server too), where LibreTranslate's
    /translate_file gives such a file back: the words were attnmt's alone, "brief.txt is in German (de) already,
    the target_lang"."""
    answer = upload(client, {"source_lang": "DE"}, name="brief.txt", content=BRIEF)
    assert answer.status_code == 400 and answer.json() == {"message": (
        "Source and target language are equal: brief.txt is in German (de) already, the target_lang (its "
        "source_lang)")}


def test_a_file_detected_in_the_target_language_is_taken_and_its_status_says_so(client, caplog):
    """As DeepL and its mock server answer it: the upload is taken, then its status is an error in the same words,
    which clients match (deepl-python raises its DocumentTranslationException, with the document's handle); a 400
    at upload was a DeepLException of another kind, before any handle.  No model reads it: its line says so."""
    caplog.set_level(logging.INFO, logger="attnmt.access")
    handle = upload(client, name="brief.txt", content=BRIEF)
    assert handle.status_code == 200 and set(handle.json()) == {"document_id", "document_key"}
    [line] = [json.loads(record.getMessage()) for record in caplog.records if record.name == "attnmt.access"]
    assert (line["path"], line["model"]) == ("/v2/document", None)
    message = ("Source and target language are equal: brief.txt is in German (de) already, the target_lang "
               "(detected from its text)")
    assert finished(client, handle.json()) == {"document_id": handle.json()["document_id"], "status": "error",
                                               "error_message": message, "message": message}
    result = client.post(f"/v2/document/{handle.json()['document_id']}/result",
                         data={"document_key": handle.json()["document_key"]}, headers=AUTH)
    assert result.status_code == 400 and result.json() == {"message": f"Document translation failed: {message}"}
