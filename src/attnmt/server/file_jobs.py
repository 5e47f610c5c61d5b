"""Files translated as jobs: attnmt's own file API, and what LibreTranslate's ``/translate_file`` runs on.

::

    POST /v1/files                multipart: file, [model] (a name or pair), [api_key]
                                  -> 202 {"id", "filename", "status_url", "events_url", "download_url"}
    GET  /v1/files/{id}           -> {"id", "filename", "state": "running" | "done" | "failed", "done", "total"
                                      [, "detail"]}: the file's sentences translated of its
                                      total
    GET  /v1/files/{id}/events    server-sent events: ``progress`` {"done", "total"} as sentences are done,
                                  then ``done`` {"download_url"} or ``error`` {"detail"}
    GET  /v1/files/{id}/download  -> the translated file (``report.de.docx`` for ``report.docx`` into de)

A job's document work (reading the file, placing its marks, writing it again) runs in a thread
of its own, and its sentences go through the model's batcher (attnmt.server.batcher) with every
other request's, ``file_chunk`` sentences at a time, each chunk handed over once the one before
is done.  A request that arrives meanwhile is older than the job's next chunk, and the batcher
takes the oldest first, so a 200-page file delays a short request by one chunk per running job.

Bounds (ServeSettings): files of at most ``max_file_bytes``; at most ``max_file_jobs`` translated
at once (one more: 503); a translated file is written to a folder of the server's own on disk, not
kept in memory, and deleted ``file_ttl_s`` seconds after it was done, or sooner when more than
``max_file_results`` are waiting (the oldest goes first).  A job's id (128 random bits) is what
lets its holder follow and download it, as LibreTranslate's download URLs do; a path is never
made from what a client sends.  Each chunk's characters count against the API key's characters
a minute as they reach the model.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import CancelledError
from dataclasses import dataclass, field, replace
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.datastructures import UploadFile

from attnmt.decoding import DEFAULT
from attnmt.documents.files import supported_suffixes, translate_file_bytes, translated_name
from attnmt.documents.spans import Weights
from attnmt.errors import UserError
from attnmt.server.access import Refused
from attnmt.server.batcher import Batcher, Busy
from attnmt.server.context import Server
from attnmt.server.models import Options, ServedModel, ServeSettings, TooMuch
from attnmt.server.v1_api import chosen_model, refusal

JOB_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
QUEUE_FULL_WAIT_S = 1.0  # how long a file's chunk waits before it asks the batcher again, its queue full
FORM_ROOM = 64 * 1024  # a file's request body may pass max_file_bytes by this much: the form's other fields
FILE_LOG = logging.getLogger("attnmt.model")
# POST /v1/files's body in the OpenAPI schema (the endpoint reads its form itself).
SUBMIT_BODY = {"requestBody": {"content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"],
    "properties": {"file": {"type": "string", "format": "binary"},
                   "model": {"type": "string", "description": "a served model's name or pair (default: the first)"},
                   "api_key": {"type": "string"}}}}}}}


@dataclass
class FileJob:
    """One file being translated, or translated and waiting for its download."""

    id: str
    filename: str  # the translation's name
    state: str = "running"  # then "done" or "failed"
    done: int = 0  # sentences translated
    total: int = 0  # of the file's (0 until the first are counted)
    detail: str | None = None  # why it failed
    user_error: bool = False  # failed for the file's fault (else the server's)
    path: Path | None = None  # the translation, once done
    finished_at: float | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def notify(self) -> None:
        """Wakes whoever follows the job (its events), for them to read its new state."""
        self.changed.set()
        self.changed = asyncio.Event()

    def progressed(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self.notify()

    def fail(self, detail: str, user_error: bool = False) -> None:
        self.state, self.detail, self.user_error = "failed", detail, user_error

    def status(self) -> dict:
        answer = {"id": self.id, "filename": self.filename, "state": self.state, "done": self.done,
                  "total": self.total}
        return answer if self.detail is None else {**answer, "detail": self.detail}


class BatchedTranslator:
    """A Translator (attnmt.documents.pipeline) for a job's thread: its sentences go through the
    model's batcher, ``chunk`` at a time, each chunk's characters charged first (``charge``);
    once ``stopping`` is set (the server stops), no more."""

    def __init__(self, batcher: Batcher, loop: asyncio.AbstractEventLoop, chunk: int,
                 charge: Callable[[int], None], stopping: threading.Event) -> None:
        self.batcher, self.loop, self.chunk, self.charge, self.stopping = batcher, loop, chunk, charge, stopping

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts: list[str] = []
        weights: list[Weights | None] = []
        for start in range(0, len(sentences), self.chunk):
            if self.stopping.is_set():
                raise Busy("the server is shutting down")
            part = slice(start, start + self.chunk)
            call = asyncio.run_coroutine_threadsafe(self.translated(sentences[part], weighed[part]), self.loop)
            try:
                found = call.result()
            except CancelledError:  # the server is stopping
                raise Busy("the server is shutting down") from None
            texts += [text for text, _ in found]
            weights += [each for _, each in found]
        return texts, weights

    async def translated(self, sentences: list[str], weighed: list[bool]) -> list[tuple[str, Weights | None]]:
        """Each sentence's (translation, word weights where weighed), from the batcher: the
        sentences weighed and the others are two requests of the batcher (their options differ)."""
        self.charge(sum(map(len, sentences)))
        found: list[tuple[str, Weights | None]] = [("", None)] * len(sentences)
        groups = [[i for i, wanted in enumerate(weighed) if wanted == flag] for flag in (False, True)]
        options = [Options(DEFAULT, format="sentences"), Options(DEFAULT, format="weighed")]
        while True:
            try:
                answers = await asyncio.gather(*(self.batcher.translate([sentences[i] for i in group], each)
                                                 for group, each in zip(groups, options, strict=True) if group))
                break
            except Busy:  # the queue is full: a file waits its turn, where a request would be refused
                if self.stopping.is_set():
                    raise
                await asyncio.sleep(QUEUE_FULL_WAIT_S)
        for group, answer in zip([group for group in groups if group], answers, strict=True):
            for i, result in zip(group, answer, strict=True):
                found[i] = result
        return found


class FileJobs:
    """The server's file jobs; ``async with`` it while the server runs (it owns their folder), inside
    the batchers' ``async with``: on leaving, the jobs' threads stop at their next chunk, while the
    batchers still answer the chunks in flight."""

    def __init__(self, settings: ServeSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.jobs: dict[str, FileJob] = {}
        self.tasks: set[asyncio.Task] = set()
        self.folder: Path | None = None
        self.stopping = threading.Event()
        self._folder: tempfile.TemporaryDirectory | None = None

    async def __aenter__(self) -> FileJobs:
        self._folder = tempfile.TemporaryDirectory(prefix="attnmt-files-")
        self.folder = Path(self._folder.name)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.stopping.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self._folder is not None:
            self._folder.cleanup()

    @property
    def running(self) -> int:
        return sum(job.state == "running" for job in self.jobs.values())

    def start(self, served: ServedModel, data: bytes, filename: str, charge: Callable[[int], None]) -> FileJob:
        """A new job translating ``data`` (named ``filename``) with ``served``; Busy when
        ``max_file_jobs`` are running already."""
        self.sweep()
        if self.running >= self.settings.max_file_jobs:
            raise Busy(f"{self.running} files are being translated (at most {self.settings.max_file_jobs} at once); "
                       "retry shortly")
        job = FileJob(secrets.token_urlsafe(16), translated_name(filename, served.target))
        self.jobs[job.id] = job
        task = asyncio.create_task(self.run(job, served, data, filename, charge), name=f"attnmt-file-{job.id[:6]}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    async def run(self, job: FileJob, served: ServedModel, data: bytes, filename: str,
                  charge: Callable[[int], None]) -> None:
        loop = asyncio.get_running_loop()
        translator = BatchedTranslator(served.batcher, loop, self.settings.file_chunk, charge, self.stopping)
        options = replace(served.document_options, target_lang=served.target)

        def progress(done: int, total: int) -> None:  # in the job's thread
            loop.call_soon_threadsafe(job.progressed, done, total)

        try:
            translated = await asyncio.to_thread(translate_file_bytes, data, filename, translator, options, progress,
                                                 self.settings.max_file_bytes)
            del data  # the file is not held while its translation is written
            job.path = self.folder / job.id
            await asyncio.to_thread(job.path.write_bytes, translated)
            job.state = "done"
        except UserError as error:  # the file's fault: its format, its size, its text
            job.fail(str(error), user_error=True)
        except Refused as error:  # its characters, over what its key may translate
            job.fail(f"{filename}: {error}", user_error=True)
        except Busy as error:
            job.fail(str(error))
        except Exception as error:  # noqa: BLE001 - one file's failure must not stop the server
            FILE_LOG.error("translating a file failed", exc_info=error)
            job.fail(f"translation failed: {type(error).__name__}: {error}")
        job.finished_at = self.clock()
        job.notify()

    def sweep(self) -> None:
        """Deletes the jobs done more than ``file_ttl_s`` ago, and the oldest done beyond ``max_file_results``."""
        finished = sorted((job for job in self.jobs.values() if job.finished_at is not None),
                          key=lambda job: job.finished_at)
        expired = [job for job in finished if self.clock() - job.finished_at > self.settings.file_ttl_s]
        expired += [job for job in finished if job not in expired][:max(0, len(finished) - len(expired)
                                                                         - self.settings.max_file_results)]
        for job in expired:
            del self.jobs[job.id]
            if job.path is not None:
                job.path.unlink(missing_ok=True)

    def get(self, job_id: str) -> FileJob | None:
        self.sweep()
        return self.jobs.get(job_id) if JOB_ID.fullmatch(job_id) else None

    async def finished(self, job: FileJob) -> FileJob:
        """``job``, once it is done or has failed."""
        while job.state == "running":
            await job.changed.wait()
        return job


async def uploaded(request: Request) -> tuple[dict[str, str], UploadFile | None]:
    """A multipart form's text fields, and its ``file`` (None where it has none); the form is
    read with at most one file and a few fields.  ValueError for a form that cannot be read."""
    try:
        form = await request.form(max_files=1, max_fields=16)
    except HTTPException:
        raise
    except Exception as error:  # noqa: BLE001 - starlette's parser errors vary by version
        raise ValueError(f"the body is not a multipart form with a file ({error})") from None
    file = form.get("file")
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    return fields, file if isinstance(file, UploadFile) else None


async def file_bytes(file: UploadFile, max_bytes: int) -> bytes:
    """The file's bytes; TooMuch naming the file where it has more than ``max_bytes``."""
    data = await file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooMuch(f"{file.filename}: the file is over {max_bytes:,} bytes, the most this server translates")
    return data


def checked_name(file: UploadFile) -> str:
    """The file's name, its extension one attnmt translates; ValueError naming the formats otherwise."""
    name = file.filename or ""
    if not name:
        raise ValueError("the file has no name: its extension says its format")
    if Path(name).suffix.lower() not in supported_suffixes():
        raise ValueError(f"{name}: its format is not one attnmt translates; the formats are "
                         f"{', '.join(supported_suffixes())}")
    return name


def event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def job_events(job: FileJob, download_url: str) -> AsyncIterator[str]:
    """The job's progress as server-sent events, until it is done or has failed."""
    sent = None
    while True:
        changed = job.changed
        if (job.done, job.total) != sent:
            sent = job.done, job.total
            yield event("progress", {"done": job.done, "total": job.total})
        if job.state == "done":
            yield event("done", {"download_url": download_url})
            return
        if job.state == "failed":
            yield event("error", {"detail": job.detail})
            return
        await changed.wait()


def add_file_routes(app: FastAPI, server: Server, jobs: FileJobs) -> None:
    """attnmt's file API (the module docstring); errors are {"detail": "a sentence"}."""

    def job_of(job_id: str) -> FileJob:
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no file job {job_id!r}: its id is wrong, or its translation was deleted "
                                     f"({server.settings.file_ttl_s:g} s after it was done)")
        return job

    def urls(request: Request, job: FileJob) -> dict[str, str]:
        return {"status_url": request.url_for("file_status", job_id=job.id).path,
                "events_url": request.url_for("file_events", job_id=job.id).path,
                "download_url": request.url_for("file_download", job_id=job.id).path}

    @app.post("/v1/files", status_code=202, tags=["files"], openapi_extra=SUBMIT_BODY)
    async def submit_file(request: Request) -> JSONResponse:
        """Starts translating the multipart ``file`` (its extension names its format) with ``model``
        (a name or pair; default: the first); follow it at status_url or events_url."""
        try:
            fields, file = await uploaded(request)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        admitted_with_key(server, request, fields.get("api_key"))
        if file is None:
            raise HTTPException(422, 'the form has no "file": send the file to translate as the field "file"')
        try:
            name = checked_name(file)
            data = await file_bytes(file, server.settings.max_file_bytes)
        except TooMuch as error:
            raise HTTPException(413, str(error)) from None
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        served = chosen_model(server, fields.get("model"))
        job = jobs.start(served, data, name, charger(server, request, served))
        return JSONResponse({"id": job.id, "filename": job.filename, **urls(request, job)}, status_code=202)

    @app.get("/v1/files/{job_id}", name="file_status", tags=["files"])
    async def file_status(job_id: str) -> dict:
        """The job's state and how much of the file is translated so far."""
        return job_of(job_id).status()

    @app.get("/v1/files/{job_id}/events", name="file_events", tags=["files"])
    async def file_events(job_id: str, request: Request) -> StreamingResponse:
        """The job's progress as server-sent events: progress, then done or error."""
        job = job_of(job_id)
        return StreamingResponse(job_events(job, urls(request, job)["download_url"]), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.get("/v1/files/{job_id}/download", name="file_download", tags=["files"])
    async def file_download(job_id: str) -> FileResponse:
        """The translated file, once the job is done (409 before)."""
        job = job_of(job_id)
        if job.state != "done":
            raise HTTPException(409, f"the file is not translated: the job is {job.state}"
                                     + (f" ({job.detail})" if job.detail else ""))
        return FileResponse(job.path, filename=job.filename)


def admitted_with_key(server: Server, request: Request, body_key: str | None) -> None:
    """As attnmt's API admits a request, with the form's ``api_key`` as well."""
    try:
        server.access.admit(request, body_key)
    except Refused as refused:
        raise refusal(refused) from None


def charger(server: Server, request: Request, served: ServedModel) -> Callable[[int], None]:
    """Counts characters against the admitted ``request``'s key's characters a minute (raises
    Refused), and in the metrics of ``served``."""

    def charge(characters: int) -> None:
        server.access.charge(request, characters)
        if server.metrics is not None:
            server.metrics.characters.labels(served.name).inc(characters)

    return charge
