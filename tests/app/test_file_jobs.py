"""attnmt's file jobs, in process: submit a file, follow it (status and server-sent events),
download it; their limits, their expiry, and their sentences sharing the batcher with short requests."""

import asyncio
import threading
import time
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from support import PAIRS, post_file, server_events, submit_file, translated_text, wait_until

from attnmt.checkpoint import load_model_dir
from attnmt.documents.files import supported_suffixes
from attnmt.errors import ConfigError, collected_warnings, warn
from attnmt.server import file_jobs, file_translator
from attnmt.server.app import ServedModel, ServeSettings, create_app
from attnmt.server.batcher import Busy
from attnmt.server.file_jobs import BatchedTranslator

SETTINGS = ServeSettings(max_file_bytes=2000, file_chunk=4)
TEXT = "".join(f"{source}\n" for source, _ in PAIRS[:6]).encode()
TRANSLATED = "".join(f"{target}\n" for _, target in PAIRS[:6]).encode()


def served_model(trained_model) -> ServedModel:
    return ServedModel(*load_model_dir(trained_model), "en-de", "en", "de")


@pytest.fixture(scope="module")
def client(trained_model):
    with TestClient(create_app([served_model(trained_model)], SETTINGS), raise_server_exceptions=False) as client:
        yield client


def submit(client, name: str = "pairs.txt", data: bytes = TEXT, **fields):
    return submit_file(client, name, data, **fields)


def test_a_file_is_submitted_followed_and_downloaded(client):
    answer = submit(client)
    assert answer.status_code == 202
    job = answer.json()
    assert job["filename"] == "pairs.de.txt"
    assert job["status_url"] == f"/v1/files/{job['id']}" and job["download_url"].endswith("/download")
    followed = server_events(client, job["events_url"])
    progress = [data for name, data in followed if name == "progress"]
    assert progress[-1] == {"done": 6, "total": 6}
    assert followed[-1] == ("done", {"download_url": job["download_url"]})
    assert client.get(job["status_url"]).json() == {"id": job["id"], "filename": "pairs.de.txt", "state": "done",
                                                    "done": 6, "total": 6}
    download = client.get(job["download_url"])
    assert download.content == TRANSLATED
    assert 'filename="pairs.de.txt"' in download.headers["content-disposition"]


NO_TIMING = b"Hello there\na dog runs\n"  # a block without a timing line: no cue, nothing translated
NO_TIMING_WARNING = ("untimed.srt, line 1: a block without a timing line (00:00:01,000 --> 00:00:02,500) is not a cue, "
                     "so it is left untranslated (if it goes on with the cue before it, take out the blank line)")


@pytest.mark.parametrize("sent", ['filename="a%22b.txt"', r'filename="a\"b.txt"'])
def test_a_file_name_with_a_quote_comes_back_with_it_quoted_as_rfc_5987_writes_it(client, sent):
    # browsers and curl send a name's '"' as %22 (HTML's form encoding): it came back as a literal "%22"
    body = (f'--B\r\nContent-Disposition: form-data; name="file"; {sent}\r\n\r\na dog\r\n--B--\r\n').encode()
    job = client.post("/v1/files", content=body, headers={"Content-Type": "multipart/form-data; boundary=B"}).json()
    assert job["filename"] == 'a"b.de.txt'
    server_events(client, job["events_url"])
    download = client.get(job["download_url"])
    assert download.headers["content-disposition"] == ("attachment; filename=\"a_b.de.txt\"; "
                                                       "filename*=utf-8''a%22b.de.txt")


@pytest.mark.parametrize(("sent", "header"), [
    ("Reisebericht März.txt", "attachment; filename=\"Reisebericht Marz.de.txt\"; "
                              "filename*=utf-8''Reisebericht%20M%C3%A4rz.de.txt"),
    ("报告.txt", "attachment; filename=\"__.de.txt\"; filename*=utf-8''%E6%8A%A5%E5%91%8A.de.txt"),
    ("my notes.txt", 'attachment; filename="my notes.de.txt"'),
])
def test_a_download_names_its_file_in_ascii_too_for_clients_that_read_filename_alone(client, sent, header):
    """Only filename* named a name beyond plain ASCII (a space too): curl -OJ, which reads filename
    alone, saved the download as its URL's last part, "ID.Reisebericht%20M%C3%A4rz.de.txt"."""
    form = {"Content-Type": "multipart/form-data; boundary=B"}
    job = client.post("/v1/files", content=raw_form(sent.encode(), b"a dog"), headers=form).json()
    server_events(client, job["events_url"])
    assert client.get(job["download_url"]).headers["content-disposition"] == header
    answer = client.post("/translate_file", content=raw_form(sent.encode(), b"a dog", source="en", target="de"),
                         headers=form)
    assert client.get(answer.json()["translatedFileUrl"]).headers["content-disposition"] == header


def raw_form(filename: bytes, data: bytes, **fields: str) -> bytes:
    """A multipart body of ``fields`` and the file ``data`` named by ``filename``'s very bytes
    (curl and httpx cannot send a NUL in a name)."""
    parts = [f'--B\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields.items()]
    return b"".join([*parts, b'--B\r\nContent-Disposition: form-data; name="file"; filename="', filename,
                     b'"\r\n\r\n', data, b"\r\n--B--\r\n"])


@pytest.mark.parametrize("sent, named", [(b"a\x00b.txt", "ab.de.txt"), (b"\tnotes\x1b\x7f.txt", "notes.de.txt"),
                                         ("a\u0085b.txt".encode(), "ab.de.txt")])
def test_control_characters_are_dropped_from_a_files_name(client, sent, named):
    r"""C0, DEL and C1 were kept: ``a\x00b.txt`` came back as ``a\x00b.de.txt``, downloaded as
    ``filename*=utf-8''a%00b.de.txt``, and ``a.txt\x00.docx`` was taken for a .docx file."""
    form = {"Content-Type": "multipart/form-data; boundary=B"}
    job = client.post("/v1/files", content=raw_form(sent, b"a dog"), headers=form).json()
    assert job["filename"] == named
    server_events(client, job["events_url"])
    assert client.get(job["download_url"]).headers["content-disposition"] == f'attachment; filename="{named}"'
    answer = client.post("/translate_file", content=raw_form(sent, b"a dog", source="en", target="de"), headers=form)
    assert answer.json()["translatedFileUrl"].endswith("." + named)


@pytest.mark.parametrize("sent, named", [("invoice\u202efdp.exe.txt", "invoicefdp.exe.de.txt"),
                                         ("a\u2066b\u2069\u200e\u200f\u061c.txt", "ab.de.txt"),
                                         ("\ufeffa\u200bb\u00ad.txt", "ab.de.txt"),
                                         ("\u0646\u0627\u0645\u0647\u200c\u0647\u0627.txt",  # Persian "letters"
                                          "\u0646\u0627\u0645\u0647\u200c\u0647\u0627.de.txt"),
                                         ("\U0001f468\u200d\U0001f4bb.txt", "\U0001f468\u200d\U0001f4bb.de.txt")])
def test_format_characters_are_dropped_from_a_files_name_but_zwnj_and_zwj(client, sent, named):
    r"""Invisible format characters (Unicode's Cf) were kept: a RIGHT-TO-LEFT OVERRIDE, which makes
    a name read otherwise than it is (``\u202efdp.exe`` shows as ``exe.pdf``), came back in the
    translated name and the job list.  ZWNJ and ZWJ stay: Persian words and emoji need them."""
    form = {"Content-Type": "multipart/form-data; boundary=B"}
    job = client.post("/v1/files", content=raw_form(sent.encode(), b"a dog"), headers=form).json()
    server_events(client, job["events_url"])
    assert job["filename"] == named
    answer = client.post("/translate_file", content=raw_form(sent.encode(), b"a dog", source="en", target="de"),
                         headers=form)
    assert answer.json()["translatedFileUrl"].endswith("." + quote(named, safe=""))


@pytest.mark.parametrize("sent", [b"\x01\x02.txt", b".txt", b"..txt", b" . .txt"])
def test_a_name_with_no_stem_left_is_file_and_its_extension(client, sent):
    r"""``\x01\x02.txt`` without its control characters is ``.txt``, read as a dot-file with no
    extension: 422 ".txt: no extension is not a format attnmt translates; the formats are .txt, …";
    ``..txt`` came back as ``..de.txt``."""
    form = {"Content-Type": "multipart/form-data; boundary=B"}
    job = client.post("/v1/files", content=raw_form(sent, b"a dog"), headers=form).json()
    assert job["filename"] == "file.de.txt"
    server_events(client, job["events_url"])
    assert client.get(job["download_url"]).headers["content-disposition"] == 'attachment; filename="file.de.txt"'
    answer = client.post("/translate_file", content=raw_form(sent, b"a dog", source="en", target="de"), headers=form)
    assert answer.json()["translatedFileUrl"].endswith(".file.de.txt")


@pytest.mark.parametrize("sent", [b"\x01", b"   ", b"..."])
def test_a_name_of_dots_and_spaces_alone_is_no_name(client, sent):
    # "   : no extension is not a format attnmt translates; …", a name no one could read in the message;
    # LibreTranslate's answer stays its own: "empty file" only where no name was sent at all
    form = {"Content-Type": "multipart/form-data; boundary=B"}
    answer = client.post("/v1/files", content=raw_form(sent, b"a dog"), headers=form)
    assert answer.status_code == 422
    assert answer.json()["detail"] == "the file has no name: its extension says its format"
    answer = client.post("/translate_file", content=raw_form(sent, b"a dog", source="en", target="de"), headers=form)
    assert answer.status_code == 400 and answer.json() == {
        "error": "Invalid request: file format not supported: the file has no name: its extension says its format"}


def test_a_files_progress_goes_on_after_each_chunk_the_batcher_translates(trained_model, monkeypatch):
    # progress came every 32 sentences: a file of 20 showed 0 of 20 until it was done
    told, progressed = [], file_jobs.FileJob.progressed
    monkeypatch.setattr(file_jobs.FileJob, "progressed", lambda job, *counts: told.append(counts) or
                        progressed(job, *counts))
    text = "".join(f"{source}\n" for source, _ in PAIRS).encode()
    with TestClient(create_app([served_model(trained_model)], ServeSettings(file_chunk=4))) as client:
        server_events(client, submit(client, data=text).json()["events_url"])
    assert told == [(0, 20), (4, 20), (8, 20), (12, 20), (16, 20), (20, 20)]


def test_what_the_reader_warned_of_is_in_the_status_and_the_done_event_each_time(client):
    """It reached only the server's stderr: the client saw its file come back unchanged, done 0 of 0.
    The second job of the same file hears it too (Python shows a warning once per place)."""
    for _ in range(2):
        job = submit(client, "untimed.srt", NO_TIMING).json()
        assert server_events(client, job["events_url"])[-1] == (
            "done", {"download_url": job["download_url"], "warnings": [NO_TIMING_WARNING]})
        assert client.get(job["status_url"]).json()["warnings"] == [NO_TIMING_WARNING]


def test_jobs_in_threads_side_by_side_hear_their_own_warnings():
    """warnings.catch_warnings is the whole process's: one job's would reach the other's list."""
    both = threading.Barrier(2)
    heard = {}

    def job(name: str) -> None:
        with collected_warnings() as collected:
            both.wait()
            warn(f"{name}: a warning")
            both.wait()
        heard[name] = [str(warning) for warning in collected]

    threads = [threading.Thread(target=job, args=(name,)) for name in ("a.srt", "b.srt")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert heard == {"a.srt": ["a.srt: a warning"], "b.srt": ["b.srt: a warning"]}


def test_an_html_file_is_translated_as_html_text_is_with_its_tags_placed_by_alignment(client):
    page = "<p>a dog <b>runs</b></p>"
    job = submit(client, "page.html", page.encode()).json()
    assert server_events(client, job["events_url"])[-1][0] == "done"
    as_text = client.post("/translate", json={"q": page, "source": "en", "target": "de", "format": "html"}).json()
    assert client.get(job["download_url"]).text == as_text["translatedText"]
    assert as_text["translatedText"].count("<b>") == 1


def test_a_xlf_file_that_is_no_xliff_fails_saying_what_a_client_can_do(client):
    """It said "--input-format xml translates it as plain XML", a flag of the command line."""
    job = submit(client, "app.xlf", b'<?xml version="1.0"?>\n<resources><string>A dog.</string></resources>\n').json()
    detail = ("app.xlf: not an XLIFF file: it holds <resources> where XLIFF has one <xliff>; sent with a name ending "
              ".xml, it is translated as plain XML")
    assert server_events(client, job["events_url"])[-1] == ("error", {"detail": detail})
    assert client.get(job["status_url"]).json()["detail"] == detail


def test_a_xlf_file_that_is_not_well_formed_fails_naming_its_line_and_column(client):
    """It was translated with the & deleted from its source, as a warning."""
    job = submit(client, "bad.xlf", b'<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en">'
                                    b"<body><trans-unit id='1'><source>A dog & cat.</source></trans-unit></body>"
                                    b"</file></xliff>\n").json()
    detail = ("bad.xlf is not well-formed XML at line 2, column 89: a & that starts no entity reference (write & as "
              "&amp;)")
    assert server_events(client, job["events_url"])[-1] == ("error", {"detail": detail})
    assert client.get(job["status_url"]).json()["state"] == "failed"


def test_a_file_that_cannot_be_read_fails_with_its_reason(client):
    job = submit(client, "latin.txt", b"caf\xe9").json()
    detail = ("latin.txt, line 1: the text is not UTF-8 (byte 0xe9); convert it to UTF-8 first, e.g. with iconv "
              "-f WINDOWS-1252 -t UTF-8 for Western European text")
    assert server_events(client, job["events_url"])[-1] == ("error", {"detail": detail})
    assert client.get(job["status_url"]).json()["state"] == "failed"
    download = client.get(job["download_url"])
    assert download.status_code == 409 and download.json() == {"detail": f"the file is not translated: the job is "
                                                                         f"failed ({detail})"}


@pytest.mark.parametrize("name, data, detail", [
    ("latin.vtt", b"WEBVTT\n\n00:01.000 --> 00:02.500\nCaf\xe9.\n",
     "latin.vtt, line 4: the text is not UTF-8 (byte 0xe9); convert it to UTF-8 first, e.g. with iconv -f "
     "WINDOWS-1252 -t UTF-8 for Western European text"),
    ("u16.vtt", "WEBVTT\n\n00:01.000 --> 00:02.500\nA man.\n".encode("utf-16-le"),
     "u16.vtt: the text is UTF-16LE, not UTF-8 (every other byte is 0); convert it to UTF-8 first, e.g. with "
     "iconv -f UTF-16LE -t UTF-8"),
])
def test_a_file_in_another_encoding_than_utf8_is_told_one_fix_whichever(client, name, data, detail):
    """Latin-1 was told "save the file as UTF-8 and send it again", UTF-16 "convert it to UTF-8
    first, e.g. with iconv …": two fixes for one fault."""
    job = submit(client, name, data).json()
    assert server_events(client, job["events_url"])[-1] == ("error", {"detail": detail})


def test_a_file_the_model_fails_on_fails_naming_it_through_either_api(trained_model, failing_on_the_boy):
    """Both said "translation failed: SentencesFailed: the model failed on 1 sentence(s), the first on
    sentence 2": no file named, and a sentence counted among the file's distinct sentences."""
    detail = ("notes.txt: not translated, the model failed on 1 of its sentences (the first: RuntimeError: boom); "
              "nothing was written")
    with TestClient(create_app([served_model(trained_model)], SETTINGS), raise_server_exceptions=False) as client:
        text = f"a dog runs\n{failing_on_the_boy}\na dog runs\n".encode()
        job = submit(client, "notes.txt", text).json()
        assert server_events(client, job["events_url"])[-1] == ("error", {"detail": detail})
        assert client.get(job["status_url"]).json()["detail"] == detail
        answer = post_file(client, "/translate_file", "notes.txt", text, source="en", target="de")
        assert answer.status_code == 500 and answer.json() == {"error": detail}  # the server's fault, not the file's


@pytest.mark.parametrize("name, data, status, detail", [
    ("program.exe", b"MZ", 422, "program.exe: the extension .exe is not a format attnmt translates; the formats are "
                               f"{', '.join(supported_suffixes(macros=False))}"),  # .txt, .html, ..., .docx, ...
    ("big.txt", b"a" * 2001, 413, "big.txt: the file is over 2,000 bytes, the most this server translates"),
    ("scan.pdf", b"%PDF-1.7\n", 422, "scan.pdf is a PDF, not text, and attnmt does not translate it: convert it to "
                                     ".docx or .odt first (e.g. with LibreOffice: soffice --headless "
                                     "--infilter=writer_pdf_import --convert-to docx scan.pdf) and translate that"),
])
def test_a_file_refused_at_once_says_why(client, name, data, status, detail):
    answer = submit(client, name, data)
    assert answer.status_code == status and answer.json() == {"detail": detail}


@pytest.mark.parametrize("streamed", [False, True])
def test_a_body_far_over_the_file_limit_is_413_naming_the_limit(client, streamed):
    """Past the file limit and the form's room (64 KiB): refused before it is read (declared) or
    as it arrives (streamed), in this API's shape, with the limit a file just over it gets."""
    answer = post_file(client, "/v1/files", "huge.txt", b"a" * 200_000, streamed)
    assert answer.status_code == 413
    assert answer.json() == {"detail": "the file is over 2,000 bytes, the most this server translates"}


@pytest.mark.parametrize("fields, detail", [
    ({"reveiw": "true"}, "unknown field 'reveiw': the fields are file, model, review, min_quality, api_key"),
    ({"review": "true", "reveiw": "true", "min_qualty": "0.9"},
     "unknown fields 'reveiw', 'min_qualty': the fields are file, model, review, min_quality, api_key"),
])
def test_a_field_this_api_does_not_take_is_422_naming_it(client, fields, detail):
    """As /v1/translate refuses one: a misspelt review would be a job without the review asked for."""
    jobs = dict(client.app.state.file_jobs.jobs)
    answer = submit(client, **fields)
    assert answer.status_code == 422 and answer.json() == {"detail": detail}
    assert client.app.state.file_jobs.jobs == jobs  # no job started


def test_a_form_without_a_file_is_422(client):
    answer = client.post("/v1/files", data={"model": "en-de"})
    assert answer.status_code == 422 and "send the file to translate as the field \"file\"" in answer.json()["detail"]


def test_a_form_with_two_files_is_422_saying_to_send_one(client):
    """Was "the body is not a multipart form with a file (400: Too many files. ...)", starlette's words."""
    answer = client.post("/v1/files", files=[("file", ("a.txt", b"a dog", "text/plain")),
                                             ("file", ("b.html", b"<p>x</p>", "text/html"))])
    assert answer.status_code == 422 and answer.json() == {
        "detail": 'the form has more than one file: send one file, as the field "file"'}


@pytest.mark.parametrize("after", ["", "/download"])
def test_an_unknown_job_is_404_saying_jobs_do_not_survive_a_restart(client, after):
    answer = client.get(f"/v1/files/AAAAAAAAAAAAAAAAAAAAAA{after}")
    assert answer.status_code == 404 and answer.json() == {"detail": (
        "no file job 'AAAAAAAAAAAAAAAAAAAAAA': its id is wrong, or its translation was deleted (3600 s after it was "
        "done, or sooner once more than 64 translated files were waiting, or by DELETE), or the server has restarted "
        "since it was sent (jobs do not survive a restart)")}


def test_a_translated_file_is_deleted_once_its_time_is_up(trained_model):
    app = create_app([served_model(trained_model)], ServeSettings(file_ttl_s=60))
    now = [0.0]
    app.state.file_jobs.clock = lambda: now[0]
    with TestClient(app) as client:
        job = submit(client).json()
        server_events(client, job["events_url"])
        path = app.state.file_jobs.jobs[job["id"]].path
        assert path.read_bytes() == TRANSLATED
        now[0] = 60.0
        assert client.get(job["status_url"]).status_code == 200
        now[0] = 60.5
        assert client.get(job["download_url"]).status_code == 404
        assert not path.exists()


def test_beyond_max_file_results_the_oldest_translation_goes_first(trained_model):
    with TestClient(create_app([served_model(trained_model)], ServeSettings(max_file_results=2))) as client:
        jobs = []
        for source, _ in PAIRS[:3]:
            jobs.append(submit(client, data=f"{source}\n".encode()).json())
            server_events(client, jobs[-1]["events_url"])
        submit(client)  # a new job sweeps
        assert [client.get(job["status_url"]).status_code for job in jobs] == [404, 200, 200]


def test_failed_jobs_do_not_push_out_translations_waiting_for_their_download(trained_model):
    """Failed jobs counted toward max_file_results: 64 files that were not UTF-8 deleted a translation
    nobody had downloaded.  Failed jobs are kept to as many of their own, the oldest going first."""
    with TestClient(create_app([served_model(trained_model)], ServeSettings(max_file_results=2))) as client:
        done = submit(client).json()
        server_events(client, done["events_url"])
        failed = []
        for _ in range(3):
            failed.append(submit(client, "latin.txt", b"caf\xe9").json())
            assert server_events(client, failed[-1]["events_url"])[-1][0] == "error"
        submit(client)  # a new job sweeps
        assert [client.get(job["status_url"]).status_code for job in failed] == [404, 200, 200]
        download = client.get(done["download_url"])
        assert download.status_code == 200 and download.content == TRANSLATED


@pytest.fixture
def held(trained_model):
    """A served model whose first file chunk waits in the model thread until ``release`` is set;
    ``order``: each batch's format, in the order they ran."""
    served = served_model(trained_model)
    run_batch, order, release = served.run_batch, [], threading.Event()

    def held_batch(texts, options):
        order.append(options.format)
        if order.count("sentences") == 1 and options.format == "sentences":
            release.wait(60)
        return run_batch(texts, options)

    served.run_batch = held_batch
    served.order, served.release = order, release
    return served


def test_a_short_request_runs_between_the_chunks_of_a_file(held):
    lines = "".join(f"{source}\n" for source, _ in PAIRS).encode()  # 20 sentences: 5 chunks of 4
    with TestClient(create_app([held], ServeSettings(file_chunk=4, batch_window_ms=0))) as client:
        job = submit(client, data=lines).json()
        wait_until(lambda: held.order)  # the file's first chunk is in the model
        answers = []
        short = threading.Thread(target=lambda: answers.append(
            client.post("/translate", json={"q": "a dog runs", "source": "en", "target": "de"}).json()))
        short.start()
        wait_until(lambda: any(waiting.options.format == "text" for waiting in held.batcher.pending))
        held.release.set()
        short.join(60)
        server_events(client, job["events_url"])
    assert [translated_text(answer) for answer in answers] == [{"translatedText": "ein hund rennt"}]
    assert held.order == ["sentences", "text", "sentences", "sentences", "sentences", "sentences"]


def test_one_more_file_than_max_file_jobs_is_503(held):
    with TestClient(create_app([held], ServeSettings(max_file_jobs=1))) as client:
        first = submit(client).json()
        wait_until(lambda: held.order)
        answer = submit(client)
        assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
        assert answer.json() == {"detail": "1 file is being translated (at most 1 at once); retry shortly"}
        held.release.set()
        assert server_events(client, first["events_url"])[-1][0] == "done"
        assert submit(client).status_code == 202


def test_libretranslates_translate_file_sent_while_others_are_translated_waits_for_its_turn(held):
    """It was 503 at once, an answer LibreTranslate never gives (it takes the file), and its page showed it as the
    file's failure; attnmt's own /v1/files, whose clients are told to retry, is still 503 meanwhile."""
    with TestClient(create_app([held], ServeSettings(max_file_jobs=1))) as client:
        first = submit(client).json()
        wait_until(lambda: held.order)  # the one place is taken
        answers = []
        waiting = threading.Thread(target=lambda: answers.append(
            post_file(client, "/translate_file", "notes.txt", b"a dog runs\n", source="en", target="de")))
        waiting.start()
        jobs = client.app.state.file_jobs
        wait_until(lambda: answers or any(job.waiting == "turn" for job in jobs.jobs.values()))
        assert submit(client).status_code == 503
        held.release.set()
        waiting.join(60)
        assert server_events(client, first["events_url"])[-1][0] == "done"
    assert answers[0].status_code == 200 and "translatedFileUrl" in answers[0].json()


def test_a_server_that_stops_stops_its_files_at_the_next_chunk(held):
    client = TestClient(create_app([held], ServeSettings(file_chunk=4)))
    client.__enter__()
    jobs = client.app.state.file_jobs
    submit(client, data="".join(f"{source}\n" for source, _ in PAIRS).encode())
    wait_until(lambda: held.order)  # the first of 5 chunks is in the model
    stopping = threading.Thread(target=client.__exit__, args=(None, None, None))
    stopping.start()
    wait_until(jobs.stopping.is_set)
    held.release.set()
    stopping.join(60)
    assert not stopping.is_alive() and held.order == ["sentences"]
    assert not jobs.folder.exists()


def test_libretranslates_translate_file_in_flight_when_a_stop_is_asked_for_is_503_not_a_dead_link(held):
    """The signal handler sets ``stopping`` at once (attnmt.server.running.run_until_stopped's
    on_stop), before uvicorn drains the requests in flight: the file stops at its next chunk."""
    lines = "".join(f"{source}\n" for source, _ in PAIRS).encode()  # 20 sentences: 5 chunks of 4
    with TestClient(create_app([held], ServeSettings(file_chunk=4))) as client:
        answers = []
        request = threading.Thread(target=lambda: answers.append(client.post(
            "/translate_file", data={"source": "en", "target": "de"}, files={"file": ("a.txt", lines, "text/plain")})))
        request.start()
        wait_until(lambda: held.order)  # the first chunk is in the model
        client.app.state.file_jobs.stopping.set()
        held.release.set()
        request.join(60)
    [answer] = answers
    assert answer.status_code == 503 and answer.json() == {"error": "the server is shutting down"}
    assert held.order == ["sentences"]


def test_a_running_job_deleted_stops_before_its_next_chunk_and_is_gone(held):
    lines = "".join(f"{source}\n" for source, _ in PAIRS).encode()  # 20 sentences: 5 chunks of 4
    with TestClient(create_app([held], ServeSettings(file_chunk=4))) as client:
        jobs = client.app.state.file_jobs
        job = submit(client, data=lines).json()
        wait_until(lambda: held.order)  # the first chunk is in the model
        running = jobs.jobs[job["id"]]
        assert client.delete(job["status_url"]).status_code == 204
        assert running.detail == "the job was deleted before its file was translated"
        for url in (job["status_url"], job["download_url"], job["events_url"]):
            assert client.get(url).status_code == 404
        held.release.set()
        wait_until(lambda: jobs.running == 0)
        assert held.order == ["sentences"] and list(jobs.folder.iterdir()) == []


def test_a_job_deleted_during_its_last_chunk_never_writes_its_translation(held):
    with TestClient(create_app([held], ServeSettings(file_chunk=8))) as client:
        jobs = client.app.state.file_jobs
        job = submit(client).json()  # 6 sentences: one chunk
        wait_until(lambda: held.order)
        assert client.delete(job["status_url"]).status_code == 204
        held.release.set()
        wait_until(lambda: jobs.running == 0)
        assert held.order == ["sentences"] and list(jobs.folder.iterdir()) == []
        assert client.get(job["download_url"]).status_code == 404


# each line read; its symbols looked through and its sentences split (a 2.8 MB text file: seconds); its marks placed
@pytest.mark.parametrize("slowed", ["flat_line", "take_out_symbols", "sentence_spans", "nest"])
def test_a_job_deleted_while_its_file_is_read_or_written_frees_its_place_at_the_next_block(
        trained_model, monkeypatch, slowed):
    """A deleted job stopped only before its next chunk: one deleted while its file was read (a
    20,000-paragraph .docx: half a minute) or written kept its place until that was done, and the
    next file was refused as busy.  Here each block takes 50 ms, 200 blocks 10 s; it stops at the next."""
    from attnmt.documents import pipeline

    begun, slow = threading.Event(), getattr(pipeline, slowed)

    def slowly(*args, **kwargs):
        begun.set()
        time.sleep(0.05)
        return slow(*args, **kwargs)

    monkeypatch.setattr(pipeline, slowed, slowly)
    with TestClient(create_app([served_model(trained_model)], ServeSettings(max_file_jobs=1))) as client:
        jobs = client.app.state.file_jobs
        job = submit(client, data=b"a dog\n" * 200).json()  # 200 lines, one sentence: a chunk
        assert begun.wait(60)
        assert client.delete(job["status_url"]).status_code == 204
        wait_until(lambda: jobs.running == 0, timeout=2)
        assert submit(client).status_code == 202
        assert job["id"] not in {path.name for path in jobs.folder.iterdir()}


def test_a_finished_job_deleted_takes_its_translation_with_it(client):
    job = submit(client).json()
    server_events(client, job["events_url"])
    path = client.app.state.file_jobs.jobs[job["id"]].path
    assert path.read_bytes() == TRANSLATED
    assert client.delete(job["status_url"]).status_code == 204
    assert not path.exists() and client.get(job["download_url"]).status_code == 404
    answer = client.delete(job["status_url"])
    assert answer.status_code == 404 and answer.json()["detail"].startswith(f"no file job {job['id']!r}")


def test_deleting_an_unknown_job_is_404(client):
    assert client.delete("/v1/files/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404


class FullOnce:
    """A batcher whose queue is full at the first request, then translates by upper-casing."""

    def __init__(self) -> None:
        self.calls = 0

    async def translate(self, texts, options):
        self.calls += 1
        if self.calls == 1:
            raise Busy("the server has 1024 texts waiting (at most 1024); retry shortly")
        return [(text.upper(), None) for text in texts]


def batched(batcher, stopping: threading.Event) -> tuple[list[str], list]:
    """``BatchedTranslator.translate(["a dog", "a cat"])`` in a thread of its own, as a job runs it."""
    async def run():
        translator = BatchedTranslator(batcher, asyncio.get_running_loop(), 4, lambda sentences: None, stopping,
                                       waiting=waits.append)
        return await asyncio.to_thread(translator.translate, ["a dog", "a cat"], [False, False])

    waits = batcher.waits = []
    return asyncio.run(run())


def test_a_files_chunk_waits_for_room_where_the_queue_is_full(monkeypatch):
    monkeypatch.setattr(file_translator, "RETRY_WAIT_S", 0)
    batcher = FullOnce()
    assert batched(batcher, threading.Event()) == (["A DOG", "A CAT"], [None, None])
    assert batcher.calls == 2
    assert batcher.waits == ["queue", None]  # the job's status says so while it waits (FileJob.wait)


def test_a_server_stopping_while_the_queue_is_full_does_not_wait_for_room(monkeypatch):
    monkeypatch.setattr(file_translator, "RETRY_WAIT_S", 0)
    stopping, batcher = threading.Event(), FullOnce()
    batcher.translate_first = batcher.translate

    async def full_then_stopping(texts, options):
        stopping.set()  # the server stops while the chunk waits for room
        return await batcher.translate_first(texts, options)

    batcher.translate = full_then_stopping
    with pytest.raises(Busy, match="texts waiting"):
        batched(batcher, stopping)
    assert batcher.calls == 1


def test_a_file_chunk_larger_than_the_queue_is_a_config_error():
    with pytest.raises(ConfigError, match=r"file_chunk must be <= max_queued \(4\), got 8"):
        ServeSettings(max_queued=4, file_chunk=8)


def test_the_events_say_when_a_job_starts_waiting_and_its_status_while_it_does():
    from attnmt.server.file_api import job_events
    from attnmt.server.file_jobs import FileJob

    async def run():
        job = FileJob("j", "a.de.txt")
        events = job_events(job, "/download")
        seen = [await anext(events)]  # progress 0 of 0
        job.progressed(1, 3)
        seen.append(await anext(events))
        job.wait("characters")
        seen.append(await anext(events))
        status = job.status()
        job.wait(None)
        job.progressed(3, 3)
        seen.append(await anext(events))
        job.state = "done"
        job.notify()
        seen += [event async for event in events]
        return seen, status, job.status()

    seen, waiting, done = asyncio.run(run())
    assert [e.split("\n")[0] for e in seen] == ["event: progress", "event: progress", "event: waiting",
                                                "event: progress", "event: done"]
    assert seen[2] == 'event: waiting\ndata: {"for": "characters"}\n\n'
    assert waiting["waiting"] == "characters" and "waiting" not in done


def test_a_jobs_events_are_one_line_each_to_str_splitlines():
    """A warning or an error naming a text that holds a U+2028 (a file's sentence) was written raw in
    its ``data:`` line, cut in two there for a reader splitting where str.splitlines does."""
    from attnmt.server.file_api import job_events
    from attnmt.server.file_jobs import FileJob

    async def run(state: str) -> list[str]:
        job = FileJob("j", "a.de.txt")
        job.state, job.warnings, job.detail = state, ["a term \u2028 x\x85"], "a text \u2029 y"
        return [event async for event in job_events(job, "/download")]

    [_, done], [_, failed] = asyncio.run(run("done")), asyncio.run(run("failed"))
    assert done == 'event: done\ndata: {"download_url": "/download", "warnings": ["a term \\u2028 x\\u0085"]}\n\n'
    assert failed == 'event: error\ndata: {"detail": "a text \\u2029 y"}\n\n'
