"""Office files through the server: a Word file sent to attnmt's file jobs and to LibreTranslate's
/translate_file, read back with python-docx."""

import io
import zipfile

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


MACRO_SUFFIXES = {".docm", ".pptm", ".xlsm"}
REFUSED = "this server does not translate them; its operator can allow them with attnmt serve --allow-macros"


@pytest.fixture(scope="module")
def macro_client(trained_model):
    """A server whose operator allows files with macros (attnmt serve --allow-macros)."""
    served = ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")
    with TestClient(create_app([served], ServeSettings(allow_macros=True)), raise_server_exceptions=False) as client:
        yield client


def with_macros(data: bytes) -> bytes:
    """The file with a VBA project, as Word saves a .docm (the member that holds the macros)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for member in source.infolist():
            copy.writestr(member, source.read(member))
        copy.writestr("word/vbaProject.bin", b"\xd0\xcf\x11\xe0 a VBA project")
    return out.getvalue()


def test_files_with_macros_are_offered_only_where_the_operator_allows_them(client, macro_client):
    """LibreTranslate's page and clients offer what supportedFilesFormat lists; attnmt's page, its accept."""
    assert not MACRO_SUFFIXES & set(client.get("/frontend/settings").json()["supportedFilesFormat"])
    assert MACRO_SUFFIXES <= set(macro_client.get("/frontend/settings").json()["supportedFilesFormat"])
    assert ".docm" not in client.get("/").text and ".docm" in macro_client.get("/").text
    unknown = client.post("/v1/files", files={"file": ("program.exe", b"MZ")}).json()["detail"]
    assert "the formats are .txt" in unknown and ".docx" in unknown and ".docm" not in unknown


def test_a_file_with_macros_is_refused_at_once_in_the_servers_words(client):
    message = f"budget.docm: the file holds macros (a .docm file); {REFUSED}"
    libre = client.post("/translate_file", data={"source": "en", "target": "de"},
                        files={"file": ("budget.docm", with_macros(word_file("a dog runs")))})
    assert libre.status_code == 400 and libre.json() == {"error": message}
    own = client.post("/v1/files", files={"file": ("budget.docm", with_macros(word_file("a dog runs")))})
    assert own.status_code == 422 and own.json() == {"detail": message}


def test_a_docx_holding_macros_fails_in_the_servers_words(client):
    message = f"report.docx: the file holds macros (member word/vbaProject.bin); {REFUSED}"
    data = with_macros(word_file("a dog runs"))
    libre = client.post("/translate_file", data={"source": "en", "target": "de"},
                        files={"file": ("report.docx", data)})
    assert libre.status_code == 400 and libre.json() == {"error": message}
    job = client.post("/v1/files", files={"file": ("report.docx", data)}).json()
    with client.stream("GET", job["events_url"]) as events:
        assert "event: error" in events.read().decode()
    assert client.get(job["status_url"]).json()["detail"] == message


def test_a_server_that_allows_macros_translates_the_file_and_keeps_them(macro_client):
    answer = macro_client.post("/translate_file", data={"source": "en", "target": "de"},
                               files={"file": ("budget.docm", with_macros(word_file("a dog runs")))})
    assert answer.status_code == 200, answer.text
    translated = macro_client.get(answer.json()["translatedFileUrl"]).content
    assert paragraphs(translated) == ["ein hund rennt"]
    assert zipfile.ZipFile(io.BytesIO(translated)).read("word/vbaProject.bin") == b"\xd0\xcf\x11\xe0 a VBA project"


def test_attnmt_serve_allows_macros_only_when_its_operator_says_so(monkeypatch):
    import attnmt.server.app
    from attnmt.cli.commands import serve as command
    from attnmt.cli.main import main

    served = []
    monkeypatch.setattr(command, "load_served", lambda pair, folder, args: None)
    monkeypatch.setattr(attnmt.server.app, "serve", lambda *args, **options: served.append(args[3]))  # settings
    assert main(["serve", "--model", "m"]) == 0 and main(["serve", "--model", "m", "--allow-macros"]) == 0
    assert [settings.allow_macros for settings in served] == [False, True]
