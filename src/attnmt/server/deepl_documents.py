"""DeepL's document translation (API v2), for deepl-python's ``translate_document`` (deepl-node's
``translateDocument`` sends the same) and the tools built on them::

    POST /v2/document  multipart file, target_lang, source_lang (none: detected from the file's text),
                       filename (where given, the file's name, as DeepL reads it)
                       -> {"document_id": ..., "document_key": ...}
    POST /v2/document/{document_id}  document_key
                       -> {"document_id", "status": "queued", "translating", "done" (with "billed_characters": the
                           characters charged to its key) or "error" (with "error_message" and "message")}
    POST /v2/document/{document_id}/result  document_key -> the translated file (503 until it is done; once
                       failed, 400 or 500 saying why, as its status does), deleted once sent, as DeepL deletes it
                       (a second download is 404)

A file is translated as attnmt's own file jobs translate it (attnmt.server.file_jobs), in the formats
attnmt.documents.files reads, but waits for its turn ("queued") where ``max_file_jobs`` are being translated,
as DeepL queues a document (as many may wait; one more is 503, which deepl-python retries).  Its id is its
job's; its key a keyed hash of that id with a secret the server draws at start, so no key is kept, and a
client without the key learns nothing of the file (404, as for an id that is not there).  Each of the three
requests needs the API key, as every /v2/ route does; the key and its errors are those of
attnmt.server.deepl_api; an ``output_format`` other than the file's own is refused, as no file is written
in another format.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import io
import secrets
from collections.abc import Callable
from functools import partial
from pathlib import PurePath

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from python_multipart.multipart import parse_options_header
from starlette.background import BackgroundTask
from starlette.datastructures import UploadFile

from attnmt.errors import UserError
from attnmt.server.access import log_of
from attnmt.server.api_errors import DeepLError
from attnmt.server.auto_source import detected
from attnmt.server.batcher import Busy
from attnmt.server.context import Server
from attnmt.server.deepl_api import (
    answered,
    checked_options,
    deepl_key,
    deepl_parameters,
    served_source,
    served_target,
)
from attnmt.server.detect import language_name
from attnmt.server.file_charges import charged_file, charger
from attnmt.server.file_forms import checked_name, file_bytes, uploaded
from attnmt.server.file_jobs import IN_TURN, FileJob, FileJobs
from attnmt.server.file_responses import TranslatedFile
from attnmt.server.file_sample import file_sample
from attnmt.server.libre_requests import check_unicode, first_values, multipart_parts
from attnmt.server.libretranslate import model_for
from attnmt.server.models import TooMuch

# DeepL's word for each state of a job (file_jobs.FileJob.state), and for one waiting for its turn
STATUS = {"running": "translating", "done": "done", "failed": "error"}
QUEUED = "queued"  # waiting for its turn (file_jobs.IN_TURN), where a 503's retries ran out in deepl-python
# The extensions DeepL lists as one format ("htm / html", "xlf / xliff"), by the one output_format names them
FORMAT_OF = {"htm": "html", "xlf": "xliff"}


def format_of(name: str) -> str:
    """The format of a file called ``name``, as DeepL's ``output_format`` names it: ``page.htm``'s is html."""
    suffix = PurePath(name).suffix.lower().lstrip(".")
    return FORMAT_OF.get(suffix, suffix)


def unnamed_part(request: Request, body: bytes, field: str) -> bytes | None:
    """The bytes of the multipart ``body``'s part ``field`` as sent (Starlette reads a part without a
    filename as text); None where it has none."""
    boundary = parse_options_header(request.headers.get("content-type"))[1].get(b"boundary", b"")
    for part in multipart_parts(body, boundary) if boundary else []:
        if parse_options_header(part.headers.get(b"content-disposition"))[1].get(b"name") == field.encode():
            return bytes(part.data)
    return None


def named_file(request: Request, body: bytes, file: UploadFile | None, params: dict) -> UploadFile | None:
    """The upload's file, named by DeepL's ``filename`` parameter where one is given, DeepL's alternative to
    the name in the file part's Content-Disposition: a browser's FormData names a Blob "blob", and a part
    without a name reaches Starlette as text.  Either was refused, for a file DeepL translates."""
    name = params.get("filename")
    if not isinstance(name, str) or not name.strip():
        return file
    if file is not None:
        return UploadFile(file.file, filename=name.strip(), headers=file.headers)
    data = unnamed_part(request, body, "file")
    return None if data is None else UploadFile(io.BytesIO(data), filename=name.strip())


async def document_params(server: Server, request: Request) -> tuple[dict, str, bytes]:
    """The upload's fields, its file's checked name and its bytes, once its key is admitted."""
    body = await request.body()  # kept for a file part without a name (named_file)
    try:
        form, file = await uploaded(request)
    except ValueError as error:
        raise DeepLError(400, str(error)) from None
    params = first_values(request.query_params.multi_items(), form.multi_items())
    check_unicode(params)
    server.access.admit(request, deepl_key(request, params))
    file = named_file(request, body, file, params)
    if file is None:
        raise DeepLError(400, "Parameter 'file' not specified.")
    if not params.get("target_lang"):
        raise DeepLError(400, "Parameter 'target_lang' not specified.")
    checked_options(params)  # the formality and glossary it cannot honour refused, as for a text
    try:
        name = checked_name(file, server.settings)
        data = await file_bytes(file, server.settings.max_file_bytes)
    except TooMuch as error:
        raise DeepLError(413, str(error)) from None
    except (UserError, ValueError) as error:
        raise DeepLError(400, str(error)) from None
    wanted = str(params.get("output_format") or "").lower().lstrip(".")
    if wanted and FORMAT_OF.get(wanted, wanted) != format_of(name):
        raise DeepLError(400, f"Value for 'output_format' not supported: {wanted!r}; a file is translated "
                              f"into its own format ({name})")
    return params, name, data


def languages_equal(name: str, target: str, how: str) -> str:
    """DeepL's words for a document in its ``target_lang`` already (``how``: so named, or detected so), which
    its clients match, then attnmt's: not given back as LibreTranslate's /translate_file gives it."""
    return (f"Source and target language are equal: {name} is in {language_name(target)} ({target}) already, the "
            f"target_lang ({how})")


async def source_of(server: Server, params: dict, name: str, data: bytes, target: str) -> str:
    """``source_lang``, else the language of the file's text as it will be read (file_sample).  A ``source_lang``
    equal to ``target_lang`` is refused at once, as DeepL refuses it; a file detected in it is the caller's, as
    DeepL takes it and its status then says why it failed."""
    if not params.get("source_lang"):
        sample = await asyncio.to_thread(file_sample, data, name, server.settings.max_file_bytes)
        [found] = await detected(server, [sample], target)
        return str(found["language"])
    source = served_source(params, server.models.codes())
    if source == target and target in server.models.codes():
        raise DeepLError(400, languages_equal(name, target, "its source_lang"))
    return source


def counting(charge: Callable[[list[str]], None], count: list[int]) -> Callable[[list[str]], None]:
    """``charge``, adding the characters it charged to ``count[0]``: DeepL's billed_characters."""
    def counted(sentences: list[str]) -> None:
        charge(sentences)
        count[0] += sum(map(len, sentences))
    return counted


def add_deepl_document_routes(app: FastAPI, server: Server, jobs: FileJobs) -> None:
    secret = secrets.token_bytes(32)
    billed: dict[str, list[int]] = {}  # the characters charged for each document, by its id

    def key_of(job: FileJob) -> str:
        return hmac.new(secret, job.id.encode(), hashlib.sha256).hexdigest()

    async def job_of(request: Request, document_id: str) -> FileJob:
        params = await deepl_parameters(request)  # a form, as deepl-python sends it, or JSON
        # the key first, as on every /v2/ route: the document_key alone let a client without one poll and fetch;
        # not counted against a rate, as the upload was (Access.identify)
        server.access.identify(request, deepl_key(request, params))
        job = jobs.get(document_id)
        if job is None or not hmac.compare_digest(str(params.get("document_key") or ""), key_of(job)):
            raise DeepLError(404, f"Document {document_id!r} not found: its id or document_key is wrong, or it was "
                                  "downloaded already (deleted then, as DeepL deletes one), or deleted unread "
                                  f"({jobs.deleted_when()}), or the server has restarted since")
        return job

    def given_up(request: Request, name: str, target: str) -> dict:
        """A document detected in ``target`` already: its upload taken, its status the error (DeepL's mock server
        answers so, and clients match its words: deepl-python raises the DocumentTranslationException that holds
        the document's handle, where a 400 at upload was none).  Not charged beyond the upload's own request (no
        charged_file), as DeepL bills no document it refuses."""
        job = jobs.failed(name, target, languages_equal(name, target, "detected from its text"))
        log_of(request)["model"] = None  # no model reads it
        return {"document_id": job.id, "document_key": key_of(job)}

    @app.post("/v2/document", tags=["DeepL"])
    async def upload(request: Request) -> dict:
        """Starts translating the multipart ``file`` into ``target_lang``."""
        async def work() -> dict:
            params, name, data = await document_params(server, request)
            target = served_target(params, server.models.codes())
            source = await source_of(server, params, name, data, target)
            if source == target and target in server.models.codes():  # detected so: taken, failed, as DeepL does
                return given_up(request, name, target)
            served = model_for(server, source, target)
            try:
                jobs.check_room(IN_TURN.wait_for_turn)  # before the file is charged, as /translate_file
                charged_file(server, request, len(data))
                count = [0]
                job = jobs.start(served, data, name, counting(charger(server, request, served), count), IN_TURN,
                                 note=partial(server.note, request, served))
            except Busy as error:
                raise DeepLError(503, str(error), {"Retry-After": "1"}) from None
            for gone in billed.keys() - jobs.jobs.keys():  # deleted with their jobs (FileJobs.sweep)
                del billed[gone]
            billed[job.id] = count
            log_of(request)["model"] = served.name  # the line is written now, the job's sentences still to come
            return {"document_id": job.id, "document_key": key_of(job)}
        return await answered(work)

    @app.post("/v2/document/{document_id}", tags=["DeepL"])
    async def status(document_id: str, request: Request) -> dict:
        """The document's status: queued, translating, done or error (with its ``error_message``)."""
        job = await answered(lambda: job_of(request, document_id))
        answer: dict[str, str | int] = {"document_id": job.id,
                                        "status": QUEUED if job.waiting == "turn" else STATUS[job.state]}
        if job.state == "done":  # what deepl-python's DocumentStatus.billed_characters reads
            answer["billed_characters"] = billed.get(job.id, [0])[0]
        # why it failed in both of DeepL's fields: its OpenAPI schema's error_message (deepl-python's), and the
        # message of its example and of its mock server, kept "for backward compatibility" with older clients
        return answer if job.detail is None else {**answer, "error_message": job.detail, "message": job.detail}

    def forget(job: FileJob) -> None:
        if jobs.jobs.get(job.id) is job:  # two downloads at once: the second finds it gone
            jobs.delete(job)

    @app.post("/v2/document/{document_id}/result", tags=["DeepL"])
    async def result(document_id: str, request: Request) -> FileResponse:
        """The translated file, once its status is done (503 before, as DeepL's "Document not ready")."""
        job = await answered(lambda: job_of(request, document_id))
        # a failed document will never be done, as its status says (error_message): 400, which no DeepL client
        # retries, where the file or its key is at fault (over the key's characters a minute too: the 429 it had
        # was retried by deepl-python five times, for a document already refused), 500 where the server is; DeepL's
        # own 503 for a document not done is retried alike, then read as "Document not ready"
        if job.state == "failed":
            raise DeepLError(400 if job.user_error else 500, f"Document translation failed: {job.detail}")
        if job.state != "done" or job.path is None:
            raise DeepLError(503, "Document not ready: it is being translated", {"Retry-After": "1"})
        # deleted once sent, as DeepL's documentation promises "for privacy reasons": the translation of a
        # confidential file stayed on the server for file_ttl_s after its client had its copy
        return TranslatedFile(str(job.path), filename=job.filename, background=BackgroundTask(forget, job))

