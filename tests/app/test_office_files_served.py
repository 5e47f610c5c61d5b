"""Office files through the server: a Word file sent to attnmt's file jobs and to LibreTranslate's
/translate_file, read back with python-docx; a presentation, a workbook, an OpenDocument text and an
e-book through /translate_file, each read back with its own library (python-pptx, openpyxl, odfpy, ebooklib)."""

import io
import zipfile
from urllib.parse import quote

import openpyxl
import pptx
import pytest
from fastapi.testclient import TestClient
from lxml import etree
from pptx.util import Inches

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


def slides(title: str, text: str) -> bytes:
    """A title-only slide, its title ``title``, with a text box holding ``text``."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = title
    slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.text = text
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def slide_texts(data: bytes) -> list[str]:
    deck = pptx.Presentation(io.BytesIO(data))
    return [shape.text_frame.text for slide in deck.slides for shape in slide.shapes if shape.has_text_frame]


def workbook(*texts: str) -> bytes:
    """``texts`` down column A, a number beside the first."""
    book = openpyxl.Workbook()
    for row, text in enumerate(texts, start=1):
        book.active.cell(row, 1, text)
    book.active["B1"] = 3
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def cell_values(data: bytes) -> list[object]:
    return [cell.value for row in openpyxl.load_workbook(io.BytesIO(data)).active.iter_rows() for cell in row]


def odf_text(*texts: str) -> bytes:
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    for text in texts:
        document.text.addElement(P(text=text))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def odf_paragraphs(data: bytes) -> list[str]:
    from odf import teletype, text
    from odf.opendocument import load

    return [teletype.extractText(paragraph) for paragraph in load(io.BytesIO(data)).getElementsByType(text.P)]


def book(*texts: str) -> bytes:
    """An EPUB 3 book of one chapter, a paragraph for each of ``texts``."""
    from ebooklib import epub

    written = epub.EpubBook()
    written.set_identifier("id-1")
    written.set_language("en")
    chapter = epub.EpubHtml(title="one", file_name="one.xhtml", lang="en")
    chapter.content = "".join(f"<p>{text}</p>" for text in texts)
    written.add_item(chapter)
    written.add_item(epub.EpubNav())
    written.spine = [chapter]
    out = io.BytesIO()
    epub.write_epub(out, written)
    return out.getvalue()


def book_paragraphs(data: bytes) -> list[str]:
    from ebooklib import epub

    chapter = epub.read_epub(io.BytesIO(data), {"ignore_ncx": True}).get_item_with_href("one.xhtml")
    page = etree.fromstring(chapter.get_content())
    return ["".join(paragraph.itertext()) for paragraph in page.iter("{http://www.w3.org/1999/xhtml}p")]


# Each format LibreTranslate's page offers beside .docx: the file sent, and what its own library reads back
TEXTS, TRANSLATED = ("a dog runs", "a cat sleeps"), ["ein hund rennt", "eine katze schläft"]
SENT_AND_READ = {".pptx": (slides(*TEXTS), slide_texts, TRANSLATED),
                 ".xlsx": (workbook(*TEXTS), cell_values, ["ein hund rennt", 3, "eine katze schläft", None]),
                 ".odt": (odf_text(*TEXTS), odf_paragraphs, TRANSLATED),
                 ".epub": (book(*TEXTS), book_paragraphs, TRANSLATED)}


@pytest.mark.parametrize("suffix", list(SENT_AND_READ))
def test_libretranslates_translate_file_gives_a_file_its_own_library_opens(client, suffix):
    """As LibreTranslate's page sends it (file, source, target, api_key), under a name a person gives it."""
    sent, read, translated = SENT_AND_READ[suffix]
    answer = client.post("/translate_file", data={"source": "en", "target": "de", "api_key": ""},
                         files={"file": (f"Präsentation Q3{suffix}", sent, "application/octet-stream")})
    assert answer.status_code == 200, answer.text
    url = answer.json()["translatedFileUrl"]
    assert url.endswith(quote(f"Präsentation Q3.de{suffix}"))
    download = client.get(url)
    assert download.status_code == 200 and read(download.content) == translated
    assert suffix in client.get("/frontend/settings").json()["supportedFilesFormat"]


@pytest.mark.parametrize(("name", "sent", "message"), [
    ("stock.xlsx", slides(*TEXTS),
     "stock.xlsx: the file is a PowerPoint presentation, not a .xlsx file: give it its own extension (.pptx)"),
    ("novel.epub", odf_text("a dog runs"), "novel.epub: member META-INF/container.xml is missing; this is not an EPUB "
                                           "book; it is a .odt file: give it its own extension and translate it again"),
    ("letter.odt", odf_text("a dog runs")[:200], "letter.odt: not a readable zip archive"),
    ("slides.pptx", b"", "slides.pptx: the file is empty (0 bytes), not a .pptx file")])
def test_translate_file_names_the_file_that_is_not_what_its_name_says(client, name, sent, message):
    answer = client.post("/translate_file", data={"source": "en", "target": "de", "api_key": ""},
                         files={"file": (name, sent, "application/octet-stream")})
    assert answer.status_code == 400 and answer.json()["error"].startswith(message)


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
    # LibreTranslate's words first, as it refuses a format it does not list and its clients match them
    assert libre.status_code == 400
    assert libre.json() == {"error": f"Invalid request: file format not supported: {message}"}
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


def test_a_word_file_sent_from_german_into_german_comes_back_as_it_came(client, reached):
    """Its bytes, unread by any model, as LibreTranslate gives back a file of a language into itself: it was 400,
    "bericht.docx is in German (de) already"."""
    word = word_file("Der Hund läuft.", "Die Katze schläft.")
    answer = client.post("/translate_file", data={"source": "de", "target": "de"},
                         files={"file": ("bericht.docx", word)})
    assert answer.status_code == 200, answer.text
    assert answer.json()["translatedFileUrl"].endswith(".bericht.de.docx")
    assert client.get(answer.json()["translatedFileUrl"]).content == word and reached == []


def test_a_word_file_that_is_no_zip_is_the_same_400_from_german_into_german_as_from_english(client):
    """A file given back is read through first, as its translation would read it: it was 400, "bericht.docx is in
    German (de) already", of a file no reader could open."""
    answers = [client.post("/translate_file", data={"source": source, "target": "de"},
                           files={"file": ("bericht.docx", b"Der Hund l\xc3\xa4uft.\n")}) for source in ("en", "de")]
    assert [answer.status_code for answer in answers] == [400, 400]
    assert answers[1].json() == answers[0].json() and "bericht.docx" in answers[0].json()["error"]
