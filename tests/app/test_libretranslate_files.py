"""LibreTranslate's file API, in process, with the multipart requests its page and clients send:
POST /translate_file, GET /download_file/NAME, and what /frontend/settings says of files."""

import pytest
import srt
from fastapi.testclient import TestClient
from support import post_file, run_cli

from attnmt.checkpoint import load_model_dir
from attnmt.documents.files import supported_suffixes
from attnmt.documents.translators import ModelTranslator
from attnmt.server.app import ServedModel, ServeSettings, create_app

SETTINGS = ServeSettings(max_file_bytes=1000)
NOT_XLIFF = b'<?xml version="1.0"?>\n<resources><string>A dog.</string></resources>\n'
NOT_WELL_FORMED = (b'<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en"><body><trans-unit id="1">'
                   b"<source>A dog & cat.</source></trans-unit></body></file></xliff>\n")
# Not "--input-format xml translates it as plain XML": a flag no client of the server can give.
SENT_AS_XML = "sent with a name ending .xml, it is translated as plain XML"
FORMATS = ", ".join(supported_suffixes(macros=False))  # a server takes .docm and the like only with --allow-macros


@pytest.fixture(scope="module")
def client(trained_model):
    with TestClient(create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")], SETTINGS),
                    raise_server_exceptions=False) as client:
        yield client


def send(client, name: str, data: bytes, **fields):
    """What LibreTranslate's page sends: a FormData of file, source, target and api_key ("" without one)."""
    return client.post("/translate_file", data={"source": "en", "target": "de", "api_key": "", **fields},
                       files={"file": (name, data, "text/plain")})


def test_a_text_file_is_translated_and_downloaded_by_its_url(client):
    answer = send(client, "notes.txt", b"a dog runs\n\na cat sleeps\n")
    assert answer.status_code == 200, answer.text
    url = answer.json()["translatedFileUrl"]
    assert url.startswith("http://testserver/download_file/") and url.endswith(".notes.de.txt")
    download = client.get(url)
    assert download.status_code == 200 and download.content == b"ein hund rennt\n\neine katze schl\xc3\xa4ft\n"
    assert 'filename="notes.de.txt"' in download.headers["content-disposition"]


def test_a_page_keeps_a_short_label_the_model_garbled_as_the_command_line_does(client, trained_model, tmp_path,
                                                                               capsys, monkeypatch):
    """The server's file translator judged no label (it had no plausibility): alt="logo" came back the model's
    caption, "zwei mäner gehen", where ``attnmt translate`` kept "logo".  The tiny model is sure of all it writes,
    so its judgement is told here: "logo" garbled, the rest plausible."""
    judged = []

    def plausibility(self, sentences, translations):
        judged.extend(sentences)
        return [0.1 if sentence == "logo" else 0.9 for sentence in sentences]

    monkeypatch.setattr(ModelTranslator, "plausibility", plausibility)
    page = '<p>a dog runs <img src="l.png" alt="logo"> <img src="b.png" alt="a bird"></p>\n'
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    code, _, err = run_cli(["translate", "--model", trained_model, "--target-lang", "de", tmp_path / "page.html",
                            tmp_path / "out.html"], capsys)
    assert code == 0, err
    answer = send(client, "page.html", page.encode())
    assert answer.status_code == 200, answer.text
    served = client.get(answer.json()["translatedFileUrl"]).content
    assert served == (tmp_path / "out.html").read_bytes()
    assert b'alt="logo"' in served and b'alt="ein vogel singt"' in served
    # once by the command line, once by the server: the attributes, then the paragraph, a short label alone
    assert judged == ["logo", "a bird", "a dog runs"] * 2


def test_a_text_files_hard_wrapped_paragraph_reaches_the_model_whole(client, reached):
    """Each half of a sentence that a line break cut was translated alone (attnmt.documents.hard_wrap)."""
    half = "A dog runs in the park while a cat sleeps on the sofa and two dogs"
    answer = send(client, "mail.txt", f"Hi,\n\n{half}\nrun away. A cat sleeps.\n".encode())
    assert answer.status_code == 200, answer.text
    assert f"{half} run away." in reached and half not in reached and "run away." not in reached
    lines = client.get(answer.json()["translatedFileUrl"]).content.decode().split("\n")
    assert lines[1] == "" and all(len(line) <= len(half) for line in lines)


@pytest.mark.parametrize("name", ["my notes.txt", "Übersicht #2?.txt"])
def test_the_url_of_a_file_whose_name_needs_quoting_is_a_valid_url(client, name):
    """Percent-encoded, so that curl and urllib fetch it as it is (a space, "#", "?" or "ü" in the name)."""
    from urllib.parse import unquote, urlsplit

    url = send(client, name, b"a dog runs\n").json()["translatedFileUrl"]
    parts = urlsplit(url)
    assert url.isascii() and " " not in url and not parts.query and not parts.fragment
    assert unquote(parts.path).endswith("." + name.replace(".txt", ".de.txt"))
    download = client.get(url)
    assert download.status_code == 200 and download.content == b"ein hund rennt\n"


def test_a_subtitle_file_keeps_its_timings(client):
    srt = b"1\n00:00:01,000 --> 00:00:02,000\na bird sings\n"
    url = send(client, "film.srt", srt).json()["translatedFileUrl"]
    assert client.get(url).content == b"1\n00:00:01,000 --> 00:00:02,000\nein vogel singt\n"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_subtitle_file_comes_back_in_utf16_with_its_mark_and_crlf(client, encoding):
    """Subtitle Edit's "Unicode": it was 400, "the text is UTF-16, not UTF-8", with iconv's advice.  Its download
    says its charset (it said utf-8, and a client reading it by its Content-Type got mojibake)."""
    srt_text = "\ufeff1\r\n00:00:01,000 --> 00:00:02,000\r\na bird sings\r\n"
    answer = send(client, "film.srt", srt_text.encode(encoding))
    assert answer.status_code == 200, answer.text
    download = client.get(answer.json()["translatedFileUrl"])
    assert download.headers["content-type"].endswith("; charset=utf-16")
    back = download.content
    assert back.decode(encoding) == srt_text.replace("a bird sings", "ein vogel singt")
    assert [cue.content for cue in srt.parse(back.decode("utf-16"))] == ["ein vogel singt"]


def test_a_page_in_windows_1252_is_downloaded_saying_its_charset(client):
    """Its HTTP charset said utf-8, which browsers take over the page's own <meta>: "café" showed as "caf�"."""
    page = b'<html><head><meta charset="windows-1252"></head><body><p>a bird sings</p><!-- caf\xe9 --></body></html>'
    answer = send(client, "page.html", page)
    assert answer.status_code == 200, answer.text
    download = client.get(answer.json()["translatedFileUrl"])
    assert download.headers["content-type"] == "text/html; charset=cp1252"
    assert b"caf\xe9" in download.content


@pytest.mark.parametrize("name", ["film.ass", "film.ssa"])
def test_an_ass_file_keeps_its_styles_timings_and_comments(client, name):
    """Refused by name before ("not a format attnmt translates")."""
    ass = (b"\xef\xbb\xbf[Script Info]\r\nScriptType: v4.00+\r\n\r\n[Events]\r\n"
           b"Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n"
           b"Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,a bird sings\r\n"
           b"Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,a bird sings\r\n")
    answer = send(client, name, ass)
    assert answer.status_code == 200, answer.text
    dialogue = b"Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,"
    download = client.get(answer.json()["translatedFileUrl"])
    assert download.content == ass.replace(dialogue + b"a bird sings", dialogue + b"ein vogel singt")
    assert download.headers["content-type"] == "text/x-ssa; charset=utf-8"  # guessed from .ass, it was audio/aac


def test_an_mdx_page_is_translated_as_markdown_its_imports_and_components_kept(client):
    """Refused by name ("not a format attnmt translates"), though the Markdown reader keeps MDX's
    imports, comments and components: a Docusaurus page is .mdx."""
    page = (b"import Tabs from '@theme/Tabs';\n\n{/* for editors */}\n\n# a bird sings\n\n"
            b"<Highlight>a bird sings</Highlight>\n")
    answer = send(client, "intro.mdx", page)
    assert answer.status_code == 200, answer.text
    assert answer.json()["translatedFileUrl"].endswith(".mdx")
    download = client.get(answer.json()["translatedFileUrl"])
    assert download.content == (b"import Tabs from '@theme/Tabs';\n\n{/* for editors */}\n\n# ein vogel singt\n\n"
                                b"<Highlight>ein vogel singt</Highlight>\n")
    assert download.headers["content-type"] == "text/markdown; charset=utf-8"  # Python guesses nothing for .mdx


def test_a_webvtt_file_is_translated_as_webvtt_and_sent_back_as_text_vtt(client):
    """Refused by name ("not a format attnmt translates"): some players and tools save WebVTT as .webvtt."""
    vtt = b"WEBVTT\n\nNOTE a bird sings\n\n00:01.000 --> 00:02.000 align:start\na bird sings\n"
    answer = send(client, "talk.webvtt", vtt)
    assert answer.status_code == 200, answer.text
    download = client.get(answer.json()["translatedFileUrl"])
    assert download.content == vtt.replace(b"start\na bird sings", b"start\nein vogel singt")
    assert download.headers["content-type"] == "text/vtt; charset=utf-8"  # Python guesses nothing for .webvtt


def test_a_file_named_in_capitals_is_read_as_its_format(client):
    """FILM.SRT, as Windows names files: its timings are kept, not translated as words."""
    srt = b"1\n00:00:01,000 --> 00:00:02,000\na bird sings\n"
    answer = send(client, "FILM.SRT", srt)
    assert answer.status_code == 200, answer.text
    url = answer.json()["translatedFileUrl"]
    assert url.endswith(".FILM.de.SRT")
    assert client.get(url).content == b"1\n00:00:01,000 --> 00:00:02,000\nein vogel singt\n"


def test_auto_detects_the_source_of_a_text_file(client):
    answer = send(client, "a.txt", b"a dog runs", source="auto")
    assert answer.status_code == 200 and client.get(answer.json()["translatedFileUrl"]).content == b"ein hund rennt"


@pytest.mark.parametrize("code", ["de", "DE", "de-DE"])
def test_a_file_sent_from_a_language_into_itself_comes_back_as_it_came(client, reached, code):
    """As /translate gives back a text, and LibreTranslate a file (its identity translation), where /languages
    lists German among German's targets: it was 400, "brief.txt is in German (de) already, the language to
    translate it into (its source): nothing to translate"."""
    letter = "Der Hund läuft.\r\n\r\nDie Katze schläft.\r\n".encode()
    answer = send(client, "brief.txt", letter, source=code, target="de")
    assert answer.status_code == 200, answer.text
    url = answer.json()["translatedFileUrl"]
    assert url.startswith("http://testserver/download_file/") and url.endswith(".brief.de.txt")
    download = client.get(url)
    assert download.status_code == 200 and download.content == letter
    assert 'filename="brief.de.txt"' in download.headers["content-disposition"]
    assert reached == []  # no model read it


def test_auto_on_a_file_already_in_the_target_language_gives_it_back_as_it_came(client, reached):
    """It was 400, "brief.txt is in German (de) already, the language to translate it into (detected at 100.0 %):
    nothing to translate"; before that, it went to en-de, which garbled it."""
    letter = "Der Hund läuft mit den Kindern durch den großen Park.\n".encode()
    answer = send(client, "brief.txt", letter, source="auto")
    assert answer.status_code == 200, answer.text
    assert client.get(answer.json()["translatedFileUrl"]).content == letter and reached == []


def test_a_page_given_back_keeps_its_bytes_where_a_translation_repairs_its_markup(client):
    """Its bytes, not the page as attnmt writes it again: the stray </b> a translation takes out is still there."""
    page = '<p>Der Hund läuft.</b></p>\n'.encode()
    answer = send(client, "seite.html", page, source="de", target="de")
    assert answer.status_code == 200, answer.text
    assert client.get(answer.json()["translatedFileUrl"]).content == page


def test_a_file_given_back_is_deleted_as_translations_are_pushed_out_by_newer_ones(trained_model):
    app = create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")],
                     ServeSettings(max_file_results=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        first = send(client, "a.txt", b"Ein Hund.", source="de", target="de").json()["translatedFileUrl"]
        second = send(client, "b.txt", b"a dog runs").json()["translatedFileUrl"]
        assert client.get(first).status_code == 404 and client.get(second).content == b"ein hund rennt"


OLE = bytes.fromhex("d0cf11e0a1b11ae1")  # how an Office 97-2003 file begins: a compound file


@pytest.mark.parametrize("name, data, fields, status, message", [
    ("program.exe", b"MZ", {}, 400, "Invalid request: file format not supported: program.exe: the extension .exe "
                                    f"is not a format attnmt translates; the formats are {FORMATS}"),
    ("report.pdf", b"%PDF-1.7", {}, 400, "Invalid request: file format not supported: report.pdf is a PDF, not "
                                         "text, and attnmt does not translate it: convert it to .docx or .odt first "
                                         "(e.g. with LibreOffice: soffice --headless --infilter=writer_pdf_import "
                                         "--convert-to docx report.pdf) and translate that"),
    ("budget.xls", OLE + bytes(100), {}, 400, "Invalid request: file format not supported: budget.xls: .xls is "
                                               "Excel 97-2003's binary format, which attnmt does not translate: save "
                                               "it as .xlsx (File > Save As in Excel, or soffice --headless "
                                               "--convert-to xlsx budget.xls) and translate that"),
    ("a.txt", b"a dog runs", {"target": ""}, 400, "Invalid request: missing target parameter"),
    ("a.txt", b"a dog runs", {"target": "zz"}, 400, "zz is not supported"),
    ("a.txt", b"caf\xe9", {}, 400, "a.txt, line 1: the text is not UTF-8 (byte 0xe9); convert it to UTF-8 first, "
                                   "e.g. with iconv -f WINDOWS-1252 -t UTF-8 for Western European text"),
    ("app.xlf", NOT_XLIFF, {}, 400, f"app.xlf: not an XLIFF file: it holds <resources> where XLIFF has one <xliff>; "
                                   f"{SENT_AS_XML}"),
    ("big.txt", b"a" * 1001, {}, 400, "Invalid request: big.txt: the file is over 1,000 bytes, the most this "
                                      "server translates"),
    ("bad.xlf", NOT_WELL_FORMED, {}, 400, "bad.xlf is not well-formed XML at line 2, column 89: a & that starts no "
                                          "entity reference (write & as &amp;)"),
])
@pytest.mark.parametrize("source", ["en", "de"])
def test_bad_files_are_one_error_in_libretranslates_shape(client, name, data, fields, status, message, source):
    """The same error from a file sent into its own language, which is given back as it came: it was "a.txt is in
    German (de) already" for a text not in UTF-8, and for an XLIFF file that is none or is not well-formed."""
    answer = send(client, name, data, **{"source": source, **fields})
    assert answer.status_code == status and answer.json() == {"error": message}


def test_a_form_without_a_file_is_400(client):
    answer = client.post("/translate_file", data={"source": "en", "target": "de"},
                         files={"other": ("x.txt", b"x", "text/plain")})
    assert answer.status_code == 400 and answer.json() == {"error": "Invalid request: missing file parameter"}


def test_a_form_with_two_files_is_400_saying_to_send_one(client):
    """Was "the body is not a multipart form with a file (400: Too many files. ...)", starlette's words."""
    answer = client.post("/translate_file", data={"source": "en", "target": "de"},
                         files=[("file", ("a.txt", b"a dog", "text/plain")),
                                ("file", ("b.html", b"<p>x</p>", "text/html"))])
    assert answer.status_code == 400 and answer.json() == {
        "error": 'Invalid request: the form has more than one file: send one file, as the field "file"'}


@pytest.mark.parametrize("name, status", [("%2E%2E", 400), ("..%2F..%2Fetc%2Fpasswd", 404), ("not-an-id.txt", 400),
                                          ("AAAAAAAAAAAAAAAAAAAAAA.txt", 404)])
def test_a_download_name_never_reaches_outside_the_translated_files(client, name, status):
    answer = client.get(f"/download_file/{name}")  # %2E%2E: as sent, not a client's "/download_file/.." made "/"
    assert answer.status_code == status
    assert status == 404 or answer.json() == {"error": "Invalid filename"}


def test_an_unknown_download_is_404_saying_files_do_not_survive_a_restart(client):
    """A client asking again after the server restarted was told only "deleted, or never made"."""
    answer = client.get("/download_file/AAAAAAAAAAAAAAAAAAAAAA.notes.de.txt")
    assert answer.status_code == 404 and answer.json() == {"error": (
        "File not found: its translation was deleted (3600 s after it was done, or sooner once more than 64 translated "
        "files were waiting), or never made, or the server has restarted since it was sent (translated files do not "
        "survive a restart)")}


def test_a_download_pushed_out_by_newer_files_is_404_saying_so(trained_model):
    """a.txt, pushed out by c.txt at once, was "deleted (3600 s after it was done)": untrue."""
    app = create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")],
                     ServeSettings(max_file_results=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        urls = [send(client, name, b"a dog runs").json()["translatedFileUrl"] for name in ("a.txt", "b.txt", "c.txt")]
        answer = client.get(urls[0])
        assert answer.status_code == 404
        assert "(3600 s after it was done, or sooner once more than 1 translated files were waiting)" in (
            answer.json()["error"])
        assert client.get(urls[2]).status_code == 200


def test_frontend_settings_lists_the_file_formats(client):
    settings = client.get("/frontend/settings").json()
    assert settings["filesTranslation"] is True
    assert settings["supportedFilesFormat"][:20] == [".txt", ".html", ".htm", ".xhtml", ".xml", ".xlf", ".xliff",
                                                     ".sdlxliff", ".mqxliff", ".mxliff", ".srt", ".vtt", ".webvtt",
                                                     ".ass", ".ssa", ".md", ".markdown", ".mdx", ".resx", ".ts"]


def test_a_qt_linguist_ts_and_a_resx_are_translated_by_their_names_and_typescript_refused(client):
    """Both were refused by name ("not a format attnmt translates"): .resx is XML, .ts XML whose root is <TS>."""
    ts = (b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="de">\n<context>\n'
          b"<name>Main</name>\n<message>\n<source>a dog runs</source>\n"
          b'<translation type="unfinished"></translation>\n</message>\n</context>\n</TS>\n')
    resx = b'<?xml version="1.0" encoding="utf-8"?>\n<root>\n<data name="a"><value>a dog runs</value></data>\n</root>\n'
    for name, data in (("app_de.ts", ts), ("Resources.resx", resx)):
        answer = send(client, name, data)
        assert answer.status_code == 200, answer.text
        assert b"ein hund rennt</" in client.get(answer.json()["translatedFileUrl"]).content
    answer = send(client, "main.ts", b"export const a: number = 1;\n")
    assert answer.status_code == 400 and answer.json() == {"error": (
        "main.ts looks like TypeScript source, not a Qt Linguist file (XML whose root is <TS>), and is not a format "
        "attnmt translates")}


@pytest.mark.parametrize("streamed", [False, True])
def test_a_body_far_over_the_file_limit_is_refused_as_a_file_too_large_in_libretranslates_shape(client, streamed):
    """Past the file limit and the form's room (64 KiB) the body is refused before it is read
    (declared) or as it arrives (streamed): with the 400 and the limit a file just over it gets."""
    answer = post_file(client, "/translate_file", "huge.txt", b"a" * 200_000, streamed, source="en", target="de")
    assert answer.status_code == 400
    assert answer.json() == {"error": "Invalid request: the file is over 1,000 bytes, the most this server translates"}


def test_a_key_without_characters_left_fails_the_file(trained_model, tmp_path):
    from attnmt.server.access import Access, read_api_keys

    (tmp_path / "keys").write_text("k1 chars-per-minute=5\n")
    app = create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")], SETTINGS,
                     Access(read_api_keys(tmp_path / "keys")))
    with TestClient(app, raise_server_exceptions=False) as client:
        assert send(client, "a.txt", b"a dog runs").json() == {
            "error": "Please contact the server operator to get an API key"}
        answer = send(client, "a.txt", b"a dog runs", api_key="k1")
        assert answer.status_code == 400
        assert answer.json() == {"error": "Invalid request: a.txt: the request has 10 characters; this key may "
                                          "translate at most 5 a minute"}


def test_a_file_with_nothing_translated_and_a_warning_is_400_naming_it(client):
    """It came back unchanged, 200, the warning on the server's stderr alone."""
    answer = send(client, "untimed.srt", b"Hello there\na dog runs\n")
    assert answer.status_code == 400 and answer.json() == {"error": (
        "Nothing in the file was translated: untimed.srt, line 1: a block without a timing line "
        "(00:00:01,000 --> 00:00:02,500) is not a cue, so it is left untranslated (if it goes on with the cue "
        "before it, take out the blank line)")}


def test_the_warnings_of_a_file_with_nothing_translated_are_parted_by_semicolons(client):
    """They ran together, a space between them: "… take out the blank line untimed.srt, line 3: …";
    then the warning's own "; " cut each in two for a client splitting at "; "."""
    answer = send(client, "untimed.srt", b"Hello there\n\nA dog runs.\n")
    warning = ("untimed.srt, line {}: a block without a timing line (00:00:01,000 --> 00:00:02,500) is not a cue, so "
               "it is left untranslated (if it goes on with the cue before it, take out the blank line)")
    assert answer.status_code == 400
    assert answer.json()["error"].removeprefix("Nothing in the file was translated: ").split("; ") == [
        warning.format(1), warning.format(3)]


def test_a_file_translated_despite_a_warning_comes_back_as_before(client):
    answer = send(client, "loose.srt", b"1\n00:00:01,000 to 00:00:02,000\na dog runs\n")
    assert answer.status_code == 200
    download = client.get(answer.json()["translatedFileUrl"]).content
    assert download == b"1\n00:00:01,000 to 00:00:02,000\nein hund rennt\n"


HEART = b"1\n00:00:01,000 --> 00:00:02,000\n<3\n\n2\n00:00:03,000 --> 00:00:04,000\n2024\n"


@pytest.mark.parametrize("name, data, back", [("heart.srt", HEART, HEART),
                                              ("year.html", b"<p>2024</b></p>\n", b"<p>2024</p>\n")],
                         ids=["srt", "html"])
def test_a_file_with_nothing_to_translate_comes_back_whatever_else_it_was_warned_of(client, name, data, back):
    """A '<' kept as text, markup repaired (the stray end tag taken out): it was 400 "Nothing in the
    file was translated", as for a file whose blocks were left untranslated (without a timing line)."""
    answer = send(client, name, data)
    assert answer.status_code == 200, answer.text
    assert client.get(answer.json()["translatedFileUrl"]).content == back


def test_a_field_given_twice_is_its_first_value_the_querys_before_the_forms(client):
    """As /translate reads its parameters (attnmt.server.libre_requests.first_values)."""
    twice = client.post("/translate_file", data={"source": "en", "target": ["xx", "de"]},
                        files={"file": ("a.txt", b"a dog runs\n", "text/plain")})
    assert twice.status_code == 400 and twice.json() == {"error": "xx is not supported"}
    query_first = client.post("/translate_file?target=de", data={"source": "en", "target": "xx"},
                              files={"file": ("a.txt", b"a dog runs\n", "text/plain")})
    assert query_first.status_code == 200, query_first.text


def test_the_querys_api_key_comes_before_the_forms(trained_model, tmp_path):
    from attnmt.server.access import Access, read_api_keys

    (tmp_path / "keys").write_text("k1\n")
    app = create_app([ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")], SETTINGS,
                     Access(read_api_keys(tmp_path / "keys")))
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post("/translate_file?api_key=k1", data={"source": "en", "target": "de", "api_key": "wrong"},
                             files={"file": ("a.txt", b"a dog runs\n", "text/plain")})
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("source", ["auto", "en"])
def test_an_xliff_file_in_another_source_language_is_refused_naming_the_models(client, source):
    """With source=auto it said "the source language asked for en": the client asked for none; the
    server's model (one from en, whichever the client asked for) is what reads the file."""
    french = (b'<?xml version="1.0"?>\n<xliff version="1.2"><file original="x" source-language="fr" '
              b'target-language="de"><body><trans-unit id="1"><source>Un chien court.</source></trans-unit>'
              b"</body></file></xliff>\n")
    answer = send(client, "fr.xlf", french, source=source)
    assert answer.status_code == 400 and answer.json() == {"error": (
        "fr.xlf: the file's source-language is fr, the model translates from en: translate it with a model from "
        "fr, or take a file in en")}


@pytest.mark.parametrize("header", ["bytes", "items=0-3", "bytes=a-b", "bytes=5-2", "bytes=-"])
def test_a_range_header_the_server_cannot_read_gets_the_whole_file(client, header):
    """RFC 9110 14.2: a range unit it does not know is ignored, an invalid range may be; Starlette
    answered a plain-text 400 ("Malformed range header.") that no LibreTranslate client reads."""
    url = send(client, "notes.txt", b"a dog runs\n").json()["translatedFileUrl"]
    download = client.get(url, headers={"Range": header})
    assert download.status_code == 200 and download.content == b"ein hund rennt\n"


def test_a_range_it_can_read_is_still_served_alone(client):
    url = send(client, "notes.txt", b"a dog runs\n").json()["translatedFileUrl"]
    download = client.get(url, headers={"Range": "bytes=4-8"})
    assert download.status_code == 206 and download.content == b"hund "
