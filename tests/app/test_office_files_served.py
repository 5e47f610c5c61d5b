"""Office files through the server: a Word file sent to attnmt's file jobs and to LibreTranslate's
/translate_file, read back with python-docx."""

import io

import pytest
from fastapi.testclient import TestClient

from attnmt.checkpoint import load_model_dir
from attnmt.server.app import ServedModel, ServeSettings, create_app

docx = pytest.importorskip("docx", reason="python-docx reads the Word files back (.[dev])")


@pytest.fixture(scope="module")
def client(trained_model):
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    with TestClient(create_app([served], ServeSettings()), raise_server_exceptions=False) as client:
        yield client


def word_file(*paragraphs: str) -> bytes:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def paragraphs(data: bytes) -> list[str]:
    return [paragraph.text for paragraph in docx.Document(io.BytesIO(data)).paragraphs]


def test_a_word_file_goes_through_a_file_job(client):
    answer = client.post("/v1/files", files={"file": ("report.docx", word_file("a dog runs", "a cat sleeps"))})
    assert answer.status_code == 202, answer.text
    job = answer.json()
    with client.stream("GET", job["events_url"]) as events:
        assert "event: done" in events.read().decode()
    assert job["filename"] == "report.de.docx"
    assert paragraphs(client.get(job["download_url"]).content) == ["ein hund rennt", "eine katze schläft"]


def test_a_word_file_goes_through_libretranslates_translate_file(client):
    answer = client.post("/translate_file", data={"source": "en", "target": "de"},
                         files={"file": ("report.docx", word_file("two dogs run"))})
    assert answer.status_code == 200, answer.text
    assert paragraphs(client.get(answer.json()["translatedFileUrl"]).content) == ["zwei hunde rennen"]
    assert ".docx" in client.get("/frontend/settings").json()["supportedFilesFormat"]


def test_a_corrupt_word_file_fails_its_job_with_one_line(client):
    job = client.post("/v1/files", files={"file": ("broken.docx", b"PK\x03\x04 not a zip")}).json()
    with client.stream("GET", job["events_url"]) as events:
        assert "event: error" in events.read().decode()
    status = client.get(job["status_url"]).json()
    assert status["state"] == "failed" and "\n" not in status["detail"] and status["detail"]
