"""attnmt's own file API: a file translated as a job (attnmt.server.file_jobs), followed while it is.

::

    POST   /v1/files                multipart: file, [model] (a name or pair), [review] (true: list the
                                    sentences that need review), [min_quality] (its threshold), [api_key]
                                    -> 202 {"id", "filename", "status_url", "events_url", "download_url"
                                            [, "review_url"]}
    GET    /v1/files/{id}           -> {"id", "filename", "state": "running" | "done" | "failed", "done", "total"
                                        [, "waiting": "characters" | "queue"] [, "detail"]}: the file's
                                        sentences translated of its total, and what a running job
                                        waits for
    GET    /v1/files/{id}/events    server-sent events: ``progress`` {"done", "total"} as sentences are done,
                                    ``waiting`` {"for"} when a chunk starts waiting (FileJob.waiting),
                                    then ``done`` {"download_url"} or ``error`` {"detail"}
    GET    /v1/files/{id}/download  -> the translated file (``report.de.docx`` for ``report.docx`` into de)
    GET    /v1/files/{id}/review    -> the sentences that need review (``review_json``), or with
                                       ``?format=tsv`` the table ``attnmt translate --review`` writes
    DELETE /v1/files/{id}           -> 204: a running job stops before its next chunk (its translation is
                                       never served), a finished one's translation is deleted

A file costs requests as LibreTranslate charges them (attnmt.server.access.file_cost), refused with
429 (413 where no minute could hold it); its characters count against the API key's characters
a minute as they reach the model, and a job over them waits for the window to have room.  A
job's id (128 random bits) is what lets its holder follow, download and delete it, as
LibreTranslate's download URLs do; a path is never made from what a client sends.

A file sent is read by attnmt.server.file_forms, charged by attnmt.server.file_charges, and sent back
translated by attnmt.server.file_responses, which LibreTranslate's and DeepL's file APIs share.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Literal

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse

from attnmt.documents.review import UNCALIBRATED
from attnmt.errors import value_shown
from attnmt.server.access import Refused, log_of
from attnmt.server.context import Server
from attnmt.server.file_charges import charged_file, charger
from attnmt.server.file_forms import checked_name, file_bytes, uploaded
from attnmt.server.file_jobs import FileJob, FileJobs, JobOptions
from attnmt.server.file_responses import TranslatedFile, attachment
from attnmt.server.models import TooMuch
from attnmt.server.sent_events import event
from attnmt.server.v1_api import chosen_model, refusal

# POST /v1/files's fields, the only ones it takes; its body in the OpenAPI schema (the endpoint reads its form itself).
SUBMIT_FIELDS = {"file": {"type": "string", "format": "binary"},
                 "model": {"type": "string", "description": "a served model's name or pair (default: the first)"},
                 "review": {"type": "boolean", "description": "list the sentences that need review"},
                 "min_quality": {"type": "number", "minimum": 0, "maximum": 1,
                                 "description": "the review's threshold (default: the calibration's)"},
                 "api_key": {"type": "string"}}
SUBMIT_BODY = {"requestBody": {"content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"], "properties": SUBMIT_FIELDS}}}}}


def job_options(fields: dict[str, str]) -> JobOptions:
    """The form's ``review`` and ``min_quality`` (which asks for a review too); ValueError naming a
    bad one, or a field this API does not know (a misspelt ``reveiw`` would otherwise go unread,
    and the review asked for be missing, as /v1/translate refuses an unknown field)."""
    unknown = [name for name in fields if name not in SUBMIT_FIELDS]
    if unknown:
        raise ValueError(f"unknown field{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))}: the fields are "
                         f"{', '.join(SUBMIT_FIELDS)}")
    review = fields.get("review", "false").lower()
    if review not in ("true", "false", "1", "0"):
        raise ValueError(f"review: expected true or false, got {value_shown(fields['review'])}")
    min_quality = fields.get("min_quality")
    if min_quality is not None:
        try:
            threshold = float(min_quality)
        except ValueError:
            threshold = math.nan
        if not 0 <= threshold <= 1:
            raise ValueError(f"min_quality: expected a number from 0 to 1, got {value_shown(min_quality)}")
    return JobOptions(review in ("true", "1") or min_quality is not None,
                      None if min_quality is None else threshold, wait_for_characters=True)




async def job_events(job: FileJob, download_url: str) -> AsyncIterator[str]:
    """The job's progress as server-sent events, until it is done or has failed; ``waiting``
    {"for": "characters" | "queue"} each time a running job starts waiting."""
    sent, waited = None, None
    while True:
        changed = job.changed
        if (job.done, job.total) != sent:
            sent = job.done, job.total
            yield event("progress", {"done": job.done, "total": job.total})
        if job.waiting != waited:
            waited = job.waiting
            if waited is not None:
                yield event("waiting", {"for": waited})
        if job.state == "done":
            yield event("done", {"download_url": download_url, **({"warnings": job.warnings} if job.warnings else {})})
            return
        if job.state == "failed":
            yield event("error", {"detail": job.detail})
            return
        await changed.wait()


def review_json(job: FileJob) -> dict:
    """A done job's review: its threshold, whether its quality is calibrated (with a note where
    not), the sentences assessed, and a row a sentence that needs review (under the threshold, empty, or
    flagged by a rule: attnmt.documents.review.needs_review), as the TSV's."""
    review = job.review
    answer = {"id": job.id, "filename": job.filename, "threshold": review.threshold, "calibrated": job.calibrated,
              "sentences": review.sentences, "rows": review.rows()}
    return answer if job.calibrated else {**answer, "note": UNCALIBRATED}


def add_file_routes(app: FastAPI, server: Server, jobs: FileJobs) -> None:
    """attnmt's file API (the module docstring); errors are {"detail": "a sentence"}."""

    def job_of(job_id: str) -> FileJob:
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no file job {job_id!r}: its id is wrong, or its translation was deleted "
                                     f"({jobs.deleted_when()}, or by DELETE), or the server has restarted since "
                                     "it was sent (jobs do not survive a restart)")
        return job

    def done_job(job_id: str) -> FileJob:
        job = job_of(job_id)
        if job.state != "done":
            raise HTTPException(409, f"the file is not translated: the job is {job.state}"
                                     + (f" ({job.detail})" if job.detail else ""))
        return job

    def urls(request: Request, job: FileJob, review: bool = False) -> dict[str, str]:
        names = ["status", "events", "download", *(["review"] if review else [])]
        return {f"{name}_url": request.url_for(f"file_{name}", job_id=job.id).path for name in names}

    @app.post("/v1/files", status_code=202, tags=["files"], openapi_extra=SUBMIT_BODY)
    async def submit_file(request: Request) -> JSONResponse:
        """Starts translating the multipart ``file`` (its extension names its format) with ``model``
        (a name or pair; default: the first); follow it at status_url or events_url."""
        try:
            form, file = await uploaded(request)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        fields = {key: value for key, value in form.items() if isinstance(value, str)}
        admitted_with_key(server, request, fields.get("api_key"))
        if file is None:
            raise HTTPException(422, 'the form has no "file": send the file to translate as the field "file"')
        try:
            name = checked_name(file, server.settings)
            options = job_options(fields)
            data = await file_bytes(file, server.settings.max_file_bytes)
        except TooMuch as error:
            raise HTTPException(413, str(error)) from None
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        served = chosen_model(server, fields.get("model"))
        jobs.check_room()  # Busy (503) before the file is charged; nothing is awaited until the job starts
        try:
            charged_file(server, request, len(data))
        except Refused as refused:
            raise refusal(refused) from None
        job = jobs.start(served, data, name, charger(server, request, served), options)
        log_of(request)["model"] = served.name  # the line is written now: the sentences are the job's, still to come
        return JSONResponse({"id": job.id, "filename": job.filename, **urls(request, job, options.review)},
                            status_code=202)

    @app.get("/v1/files/{job_id}", name="file_status", tags=["files"])
    async def file_status(job_id: str) -> dict:
        """The job's state and how much of the file is translated so far."""
        return job_of(job_id).status()

    @app.delete("/v1/files/{job_id}", status_code=204, tags=["files"])
    async def delete_file(job_id: str) -> Response:
        """Stops a running job before its next chunk (its translation is never served), or deletes
        a finished one's translation; either way the job is gone."""
        jobs.delete(job_of(job_id))
        return Response(status_code=204)

    @app.get("/v1/files/{job_id}/events", name="file_events", tags=["files"])
    async def file_events(job_id: str, request: Request) -> StreamingResponse:
        """The job's progress as server-sent events: progress, then done or error."""
        job = job_of(job_id)
        return StreamingResponse(job_events(job, urls(request, job)["download_url"]), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.get("/v1/files/{job_id}/download", name="file_download", tags=["files"])
    async def file_download(job_id: str) -> FileResponse:
        """The translated file, once the job is done (409 before)."""
        job = done_job(job_id)
        return TranslatedFile(job.path, filename=job.filename)

    @app.get("/v1/files/{job_id}/review", name="file_review", tags=["files"])
    async def file_review(job_id: str, table: Literal["json", "tsv"] = Query("json", alias="format")) -> Response:
        """The sentences that need review (under the quality threshold, empty, or flagged by a rule), once
        the job is done (409 before, or for a
        file sent without ``review``): JSON, or the TSV of ``attnmt translate --review``."""
        job = done_job(job_id)
        if job.review is None:
            raise HTTPException(409, "the file was translated without a review: send it with review=true")
        if table == "json":
            return JSONResponse(review_json(job))
        return Response(job.review.table(), media_type="text/tab-separated-values; charset=utf-8",
                        headers={"Content-Disposition": attachment(f"{Path(job.filename).stem}.review.tsv")})



def admitted_with_key(server: Server, request: Request, body_key: str | None) -> None:
    """As attnmt's API admits a request, with the form's ``api_key`` as well."""
    try:
        server.access.admit(request, body_key)
    except Refused as refused:
        raise refusal(refused) from None

