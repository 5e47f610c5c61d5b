"""LibreTranslate's file API, so that its clients (its page, ``libretranslatepy``) can have files translated::

    POST /translate_file  multipart file, source (a code or "auto"), target, api_key
                     -> {"translatedFileUrl": ".../download_file/ID.NAME"} once the file is translated (one
                        in the target language already, detected so or so named: as it came, as a text is)
    GET  /download_file/ID.NAME  -> the translated file (deleted file_ttl_s seconds after it was done, or
                                    sooner once more than max_file_results wait: FileJobs.sweep)

A file is translated as attnmt's own file jobs translate it (attnmt.server.file_jobs: its sentences
share the model's batcher with every other request), in the formats attnmt.documents.files reads;
the request waits for the whole file, as LibreTranslate's does.  It costs requests as
LibreTranslate's does, one per ``char-limit`` bytes (attnmt.server.access.file_cost); its
characters count against its API key's characters a minute, and a file over them fails.
Its errors are LibreTranslate's, as its text API's (attnmt.server.libretranslate).
"""

from __future__ import annotations

import asyncio
from functools import partial
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from starlette.requests import ClientDisconnect

from attnmt.errors import UserError
from attnmt.server.access import Refused
from attnmt.server.api_errors import LibreError
from attnmt.server.auto_source import detected
from attnmt.server.batcher import SHUTTING_DOWN, Busy
from attnmt.server.context import Server
from attnmt.server.file_charges import charged_file, given_back_charger, logged_charger
from attnmt.server.file_forms import checked_name, file_bytes, uploaded
from attnmt.server.file_jobs import IN_TURN, JOB_ID, FileJob, FileJobs
from attnmt.server.file_responses import TranslatedFile
from attnmt.server.file_sample import file_sample
from attnmt.server.guards import while_connected
from attnmt.server.libre_requests import (
    FILE_BODY,
    check_charset,
    check_unicode,
    first_values,
    language_of,
    missing,
    refusal,
)
from attnmt.server.libretranslate import admit, model_for
from attnmt.server.models import TooMuch


async def translate_file(server: Server, jobs: FileJobs, request: Request) -> dict:
    """LibreTranslate's translate_file: the multipart ``file`` translated, its download URL."""
    try:
        form, file = await uploaded(request)
    except ValueError as error:
        raise LibreError(400, f"Invalid request: {error}") from None
    check_charset(request.scope["query_string"], "query")
    params = first_values(request.query_params.multi_items(), form.multi_items())  # as /translate reads them
    check_unicode(params)
    admit(server, request, params)
    if file is None:
        raise missing("file")
    source, target = (language_of(params, name, server.models.codes()) for name in ("source", "target"))
    try:
        name = checked_name(file, server.settings)
    except ValueError as error:
        # LibreTranslate's words first, as clients match them (its own server answers them to a .docm too), then
        # the file's name and the formats served or why not macros; "empty file" only where no name was sent, as
        # its own server says it
        raise LibreError(400, f"Invalid request: file format not supported: {error}" if file.filename else
                              "Invalid request: empty file") from None
    try:
        data = await file_bytes(file, server.settings.max_file_bytes)
    except TooMuch as error:
        raise LibreError(400, f"Invalid request: {error}") from None
    if source == "auto":  # from its texts, as it will be read: a page's, a subtitle's cues (file_sample)
        sample = await asyncio.to_thread(file_sample, data, name, server.settings.max_file_bytes)
        [found] = await detected(server, [sample], target)
        source = found["language"]
    if source == target and target in server.models.codes():  # as /translate gives back a text (auto_source)
        return download_of(request, await given_back_file(server, jobs, request, data, name, target))
    served = model_for(server, source, target)
    try:
        jobs.check_room(IN_TURN.wait_for_turn)  # before the file is charged; nothing is awaited until it starts
        charged_file(server, request, len(data))
        # the access-log line, written once the file is translated, counts its sentences as its key is charged for
        # them, from none: a file with nothing to translate says texts 0, characters 0, as it does given back
        server.count_texts(request, served, [])
        # where others are translated it waits for its turn, as LibreTranslate takes it: 503 at once was no
        # answer of LibreTranslate's, and its page showed it as the file's failure
        job = jobs.start(served, data, name, logged_charger(server, request, served), IN_TURN,
                         note=partial(server.note_texts, request))
    except Busy as error:
        raise LibreError(503, str(error), {"Retry-After": "1"}) from None
    except Refused as refused:
        raise refusal(refused) from None
    del data  # the job holds the file while it needs it
    try:
        await while_connected(request, jobs.finished(job))
    except ClientDisconnect:  # no one will download it: it stops at its next chunk, its slot free
        jobs.delete(job)
        raise
    if job.state == "failed" and job.refused is not None:  # over its key's characters: 429 where a minute helps
        raise refusal(Refused(job.refused.reason, job.detail or str(job.refused), job.refused.retry_after))
    # the server is going away: stopped at a chunk, or done as the stop was asked for, its link one the
    # stopped server would never serve (a file's own fault still says so: a retry would fail alike)
    if jobs.stopping.is_set() and not job.user_error:
        raise LibreError(503, job.detail or SHUTTING_DOWN, {"Retry-After": "1"})
    if job.state == "failed":
        raise LibreError(400 if job.user_error else 500, job.detail or "Cannot translate file")
    # nothing translated, because parts were left untranslated: its answer has no place for warnings (a
    # file with nothing to translate, whatever else it was warned of, comes back as it is); the warnings,
    # each without a stop of its own, parted by "; " (/v1/files lists them)
    if job.total == 0 and job.left_untranslated:
        jobs.delete(job)
        raise LibreError(400, f"Nothing in the file was translated: {'; '.join(job.left_untranslated)}")
    return download_of(request, job)


async def given_back_file(server: Server, jobs: FileJobs, request: Request, data: bytes, name: str,
                          target: str) -> FileJob:
    """The file ``data``, in ``target`` already, given back as it came, as LibreTranslate's identity translation
    gives it (FileJobs.given_back: 400 where its translation would have failed on the file), charged to its key
    as a file translated is: its requests (access.file_cost), then its sentences' characters."""
    try:
        charged_file(server, request, len(data))
        return await jobs.given_back(data, name, target, given_back_charger(server, request))
    except Refused as refused:
        raise refusal(refused) from None
    except UserError as error:
        raise LibreError(400, str(error)) from None


def download_of(request: Request, job: FileJob) -> dict:
    """LibreTranslate's answer for a file done: the URL of its download, percent-encoded (a name with a space,
    "#" or "ü" is a path of a valid URL; the route gets it decoded)."""
    name = quote(f"{job.id}.{job.filename}", safe="")
    return {"translatedFileUrl": str(request.url_for("download_file", filename=name))}


def download_file(jobs: FileJobs, filename: str) -> FileResponse:
    """A translated file by the name translate_file gave it (its job's id, a dot, its name)."""
    job_id = filename.partition(".")[0]
    if not JOB_ID.fullmatch(job_id):
        raise LibreError(400, "Invalid filename")
    job = jobs.get(job_id)
    if job is None or job.state != "done":
        raise LibreError(404, f"File not found: its translation was deleted ({jobs.deleted_when()}), or never "
                              "made, or the server has restarted since it was sent (translated files do not survive "
                              "a restart)")
    return TranslatedFile(str(job.path), filename=job.filename)


def add_libre_file_routes(app: FastAPI, server: Server, jobs: FileJobs) -> None:
    @app.post("/translate_file", tags=["LibreTranslate"], openapi_extra=FILE_BODY)
    async def translate_file_route(request: Request) -> dict:
        """LibreTranslate's translate_file (multipart: file, source, target, api_key): the file
        translated, and where to download it."""
        return await translate_file(server, jobs, request)

    @app.get("/download_file/{filename}", name="download_file", tags=["LibreTranslate"])
    async def download_file_route(filename: str) -> FileResponse:
        """A file translate_file translated."""
        return download_file(jobs, filename)
