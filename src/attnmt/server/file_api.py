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
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.background import BackgroundTask
from starlette.datastructures import FormData, UploadFile
from starlette.requests import ClientDisconnect
from starlette.responses import MalformedRangeHeader

from attnmt.documents.charsets import page_charset, unicode_marked
from attnmt.documents.files import MARKUP_KINDS, TEXT_SUFFIXES, suffix_of, supported_suffixes
from attnmt.documents.review import UNCALIBRATED
from attnmt.errors import UserError, value_shown
from attnmt.server.access import Refused, log_of
from attnmt.server.context import Server
from attnmt.server.file_jobs import MACROS_HINT, FileJob, FileJobs, JobOptions
from attnmt.server.models import ServedModel, ServeSettings, TooMuch
from attnmt.server.sent_events import event
from attnmt.server.v1_api import chosen_model, refusal
from attnmt.text.invisible import unaccented

FORM_ROOM = 64 * 1024  # a file's request body may pass max_file_bytes by this much: the form's other fields
HIDDEN = ("Cc", "Cf")  # controls (C0, DEL, C1) and invisible format characters: dropped from a sent file's name
# How much of a translated page is read for the charset it declares (as attnmt translate reads a page's).
DECLARATION_BYTES = 64 * 1024
JOINERS = "\u200c\u200d"  # ZWNJ and ZWJ, the format characters kept: Persian, Indic and emoji names need them
# Media types of translated files that their names are guessed wrongly by (Python's mimetypes: .ass is AAC audio).
TEXT_TYPES = {".ass": "text/x-ssa", ".ssa": "text/x-ssa", ".mdx": "text/markdown", ".webvtt": "text/vtt"}
# POST /v1/files's fields, the only ones it takes; its body in the OpenAPI schema (the endpoint reads its form itself).
SUBMIT_FIELDS = {"file": {"type": "string", "format": "binary"},
                 "model": {"type": "string", "description": "a served model's name or pair (default: the first)"},
                 "review": {"type": "boolean", "description": "list the sentences that need review"},
                 "min_quality": {"type": "number", "minimum": 0, "maximum": 1,
                                 "description": "the review's threshold (default: the calibration's)"},
                 "api_key": {"type": "string"}}
SUBMIT_BODY = {"requestBody": {"content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"], "properties": SUBMIT_FIELDS}}}}}


async def uploaded(request: Request) -> tuple[FormData, UploadFile | None]:
    """A multipart form, and its ``file`` (None where it has none); the form is read with at most
    one file and a few fields, each API reading a field given twice as its clients expect.
    ValueError for a form that cannot be read; ClientDisconnect (499, as for a JSON body) for a
    client that hangs up before the form's end."""
    try:
        form = await request.form(max_files=1, max_fields=16)
    except (HTTPException, ClientDisconnect):  # a body over its limit or too slow (BodyRefused), or no client
        raise
    except Exception as error:  # noqa: BLE001 - starlette's parser errors vary by version
        if "too many files" in str(error).lower():  # starlette's words for a second file (max_files=1)
            raise ValueError('the form has more than one file: send one file, as the field "file"') from None
        raise ValueError(f"the body is not a multipart form with a file ({error})") from None
    file = form.get("file")
    return form, file if isinstance(file, UploadFile) else None


async def file_bytes(file: UploadFile, max_bytes: int) -> bytes:
    """The file's bytes; TooMuch naming the file where it has more than ``max_bytes``."""
    data = await file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooMuch(f"{sent_name(file)}: the file is over {max_bytes:,} bytes, the most this server translates")
    return data


def served_suffixes(settings: ServeSettings) -> list[str]:
    """The extensions of the files this server takes: those of office files with macros only
    where its operator allows them (``settings.allow_macros``)."""
    return supported_suffixes(macros=settings.allow_macros)


def sent_name(file: UploadFile) -> str:
    r"""The file's name as its sender named it.  Browsers and curl (7.81 on) write a ``"`` in a form's
    file name as ``%22`` (HTML's form encoding; ``%`` itself goes as it is), which the multipart parser
    keeps: ``a"b.txt`` arrived as ``a%22b.txt``, and its translation came back named so.  The line
    breaks that encoding writes as ``%0A`` and ``%0D`` are left escaped: a name is one line of a log
    or an error.  Control characters a client sent as they are (C0, DEL and C1: no file name a
    person sees has one) are dropped, and the format is read from what is left: ``a\x00b.txt`` came
    back as ``a\x00b.de.txt``, and ``a.txt\x00.docx``, which a C library reads as ``a.txt``, is
    ``a.txt.docx``.  So are the invisible format characters (Unicode's Cf, but ZWNJ and ZWJ): a
    bidi control makes a name read otherwise than it is (``\u202efdp.exe.txt``, RIGHT-TO-LEFT
    OVERRIDE first, shows as ``txt.exe.pdf``), and a ZERO WIDTH SPACE or BOM hides in it.  What is
    left gets a stem where it has none (with_stem)."""
    name = (file.filename or "").replace("%22", '"')
    return with_stem("".join(c for c in name if unicodedata.category(c) not in HIDDEN or c in JOINERS))


def with_stem(name: str) -> str:
    r"""``name``, or ``file`` and its extension where nothing but dots and spaces comes before that:
    ``.txt`` (also what is left of ``\x01\x02.txt``) reads as a dot-file with no extension, and was
    refused as a format attnmt does not translate, ``.txt`` among those it does; ``..txt`` came back
    as ``..de.txt``.  A name of dots and spaces alone is no name (""): its format cannot be read."""
    base = name.replace("\\", "/").rpartition("/")[2]  # the name alone, as translated_name reads it
    stem, dot, extension = base.rpartition(".")
    if not base.strip(". "):
        return ""
    return f"file.{extension}" if dot and not stem.strip(". ") else name


def checked_name(file: UploadFile, settings: ServeSettings) -> str:
    """The file's name, its extension one this server translates; ValueError naming the formats
    otherwise, DataError (a ValueError) for an office file with macros the server does not take."""
    from attnmt.documents.office import MACRO_SUFFIXES, macros_refused

    name = sent_name(file)
    if not name:
        raise ValueError("the file has no name: its extension says its format")
    suffix = Path(name).suffix.lower()
    if suffix in MACRO_SUFFIXES and not settings.allow_macros:
        raise macros_refused(name, f"a {suffix} file", MACROS_HINT)
    try:  # one line for a PDF, or naming the formats served: a ValueError, which LibreTranslate's
        suffix_of(name, macros=settings.allow_macros)  # /translate_file answers in its own words
    except UserError as error:
        raise ValueError(str(error)) from None
    return name


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


def charged_file(server: Server, request: Request, size: int) -> None:
    """Counts a file of ``size`` bytes against the admitted ``request``'s limits (access.file_cost,
    at its key's characters per request); raises Refused."""
    server.access.charge_file(request, size, server.settings_for(request).max_request_chars)


def charger(server: Server, request: Request, served: ServedModel) -> Callable[[list[str]], None]:
    """Counts a chunk's sentences' characters against the admitted ``request``'s key's characters a minute
    (raises Refused), and in the metrics of ``served``."""

    def charge(sentences: list[str]) -> None:
        server.access.charge(request, sum(map(len, sentences)))
        server.count_characters(served, sentences)
    return charge


def logged_charger(server: Server, request: Request, served: ServedModel) -> Callable[[list[str]], None]:
    """``charger``, each chunk charged then counted on ``request``'s access-log line (Server.count_texts)."""
    charge = charger(server, request, served)

    def charged(sentences: list[str]) -> None:
        charge(sentences)
        server.count_texts(request, served, sentences)
    return charged


def given_back_charger(server: Server, request: Request) -> Callable[[list[str]], None]:
    """Counts the sentences of a file given back as it came (FileJobs.given_back) against the admitted
    ``request``'s key's characters a minute (raises Refused), as a translated file's chunks count, and notes
    them for its access-log line as /translate notes its texts given back: ``model`` null, ``given_back`` all."""

    def charge(sentences: list[str]) -> None:
        server.access.charge(request, sum(map(len, sentences)))
        server.note_whole(request, sentences, sentences, len(sentences))

    return charge


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


def own_charset(path: str, filename: str) -> str | None:
    """The charset a translated text file is written in where it is not UTF-8: the UTF-16 or UTF-32 its byte
    order mark says (Subtitle Edit's "Unicode"), or the one a page declares (a <meta charset="windows-1252">),
    which browsers would read as the HTTP header's utf-8 instead; None for UTF-8 and any other file."""
    kind = TEXT_SUFFIXES.get(Path(filename).suffix.lower())
    if kind is None:
        return None
    with open(path, "rb") as f:
        head = f.read(DECLARATION_BYTES)
    if (marked := unicode_marked(head)) is not None:
        return marked[:6]  # "utf-16", "utf-32": the mark says the byte order
    return page_charset(head, filename, kind == "html") if kind in MARKUP_KINDS else None


class TranslatedFile(FileResponse):
    """A translated file, whole when its request's Range header cannot be read: a unit other than
    bytes, or a range that is no range (RFC 9110 14.2: such a header may be ignored, one of an
    unknown unit must be). Starlette answered those with a plain-text 400, in neither API's shape;
    an unsatisfiable range (past the file's end) is still 416, with the file's size.  An ASS/SSA
    file is text/x-ssa (TEXT_TYPES): guessed from its name, a .ass was audio/aac (ADTS audio); an MDX page
    text/markdown, as a .md is (Python guesses nothing for .mdx), and a .webvtt text/vtt, as a .vtt is.  A text
    file's charset is its own (``own_charset``), where Starlette said utf-8 of every one."""

    def __init__(self, path: str, filename: str, background: BackgroundTask | None = None) -> None:
        super().__init__(path, filename=filename, media_type=TEXT_TYPES.get(Path(filename).suffix.lower()),
                         background=background)
        self.headers["content-disposition"] = attachment(filename)  # with an ASCII stand-in (attachment)
        charset = own_charset(path, filename)
        kind = self.headers.get("content-type", "")
        if charset is not None and kind.startswith("text/"):
            self.headers["content-type"] = f"{kind.split(';')[0]}; charset={charset}"

    @classmethod
    def _parse_range_header(cls, http_range: str, file_size: int) -> list[tuple[int, int]]:
        try:
            return super()._parse_range_header(http_range, file_size)
        except MalformedRangeHeader:
            return []  # no ranges: the whole file


def attachment(filename: str) -> str:
    """A Content-Disposition naming ``filename`` (RFC 6266): a name beyond plain ASCII also as RFC 5987
    writes it, after an ASCII stand-in for the clients that read ``filename`` alone (``Bericht März.de.txt``:
    ``filename="Bericht Marz.de.txt"``), as Flask's send_file, LibreTranslate's, writes it; with
    ``filename*`` alone, ``curl -OJ`` saved a download under its URL's last part, the job's id and %-escapes."""
    plain = ascii_name(filename)
    return f'attachment; filename="{plain}"' + ("" if plain == filename else f"; filename*=utf-8''{quote(filename)}")


def ascii_name(filename: str) -> str:
    """``filename`` in printable ASCII: accents dropped (NFKD), any other character, a quote or a
    backslash (which a quoted header value would have to escape) made "_"."""
    return "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in unaccented(filename))


def admitted_with_key(server: Server, request: Request, body_key: str | None) -> None:
    """As attnmt's API admits a request, with the form's ``api_key`` as well."""
    try:
        server.access.admit(request, body_key)
    except Refused as refused:
        raise refusal(refused) from None

