"""A translation server: HTTP APIs and a web page over one or more loaded models (FastAPI on uvicorn).

::

    POST /translate       LibreTranslate's API (attnmt.server.libretranslate), with /languages, /detect and
                          /frontend/settings, so LibreTranslate's clients work unchanged
    POST /translate/stream  one text's translation as it grows, as server-sent events (attnmt.server.streaming)
    POST /translate_file  LibreTranslate's file API, with GET /download_file/NAME (attnmt.server.libre_files)
    POST /v1/files        a file translated as a job: its progress, then its download (attnmt.server.file_api)
    POST /v1/translate    attnmt's own (attnmt.server.v1_api): {"text": "A dog runs."} or {"texts": [...]},
                          options beam, max_length, n_best, scores, alignments, confidence, attention
    GET  /health          -> every model: name, languages, vocabulary, device, memory, batches; limits
    GET  /metrics         -> Prometheus metrics (attnmt.server.metrics)
    GET  /                -> the page: a text box, Translate, the output and its attention (attnmt.server.page)
    GET  /docs            -> OpenAPI documentation (/openapi.json: the schema; /spec: the same, where
                          LibreTranslate serves its own)

Each model is translated in a thread of its own (``attnmt.server.batcher``), where
concurrent requests are batched together, so the event loop stays free to accept
and answer.  Every limit is checked before any model work.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import asdict, dataclass

import python_multipart  # noqa: F401  forms: Starlette looks for it only inside a request, a 500 there
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel, Field
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from attnmt.config_ranges import written_whole_number
from attnmt.server.access import Access, MetricsAccess, WebOrigins, is_loopback
from attnmt.server.api_errors import ApiError, api_error
from attnmt.server.batcher import MODEL_LOG, Batcher
from attnmt.server.context import Server
from attnmt.server.deepl_api import add_deepl_routes
from attnmt.server.deepl_documents import add_deepl_document_routes
from attnmt.server.file_api import add_file_routes
from attnmt.server.file_forms import FORM_ROOM, served_suffixes
from attnmt.server.file_jobs import FileJobs
from attnmt.server.guards import (
    LOOPBACK_NAMES,
    AllowedHosts,
    BodyDeadline,
    BodyRefused,
    HTTPMiddleware,
    PlainBodies,
    SecurityHeaders,
    StrictJSONRoute,
    body_refused,
    body_refused_on,
    client_gone,
    content_policy,
    http_error,
)
from attnmt.server.libre_files import add_libre_file_routes
from attnmt.server.libretranslate import add_libretranslate_routes
from attnmt.server.metrics import ACCESS_LOG, Metrics, Observed
from attnmt.server.models import Models, ServedModel, ServeSettings
from attnmt.server.page import page_html
from attnmt.server.running import run_until_stopped
from attnmt.server.streaming import add_streaming_route
from attnmt.server.v1_api import add_native_routes
from attnmt.threads import LOG as THREADS_LOG

__all__ = ["ServeSettings", "ServedModel", "create_app", "serve"]

PATHS = {"/translate", "/translate/stream", "/v1/translate", "/detect", "/languages", "/frontend/settings", "/health",
         "/metrics", "/", "/translate_file", "/v1/files", "/suggest", "/spec",
         "/v2/translate", "/v2/languages", "/v2/usage", "/v2/glossary-language-pairs"}


# How much of a request body over its limit is read, and dropped, before it is refused: uvicorn closed the
# connection under it unread, so a client that sends its whole body before it reads the answer, as Python's urllib
# (libretranslatepy) does, failed with "Broken pipe" and never read the 413; a body larger than this still does.
DRAINED_BYTES = 64 * 1024 * 1024


class Health(BaseModel):
    status: str
    model: str = Field(description="the first model's name (each model: under models)")
    vocab_size: int
    device: str
    parameters: int
    max_input_tokens: int
    limits: dict[str, bool | int | float]
    batches: int = Field(description="model batches run since the start, all models")
    translated: int = Field(description="texts translated since the start (batches / translated: mean batch size)")
    models: list[dict] = Field(description="per model: name, source, target, vocab_size, parameters, device, "
                                           "max_input_tokens, loaded_bytes (resident memory it added), batches, "
                                           "translated, queued")


@dataclass(frozen=True)
class FileLimit:
    """A path whose request body holds a file of at most ``max_bytes``, and how its API refuses a
    larger one: with ``status``, the message under ``key``, after ``prefix``.  The body may pass
    ``max_bytes`` by FORM_ROOM (the form's other fields); past that, the file is surely too large,
    though its name is not known yet (it is in the body not read)."""

    max_bytes: int
    status: int
    key: str
    prefix: str = ""

    @property
    def body_bytes(self) -> int:
        return self.max_bytes + FORM_ROOM

    def refused(self) -> BodyRefused:
        message = f"{self.prefix}the file is over {self.max_bytes:,} bytes, the most this server translates"
        return BodyRefused(self.status, message, {self.key: message})


def file_limits(max_file_bytes: int) -> dict[str, FileLimit]:
    """Where a request body may hold a file: each API's answer to one too large, as it answers a
    file over ``max_file_bytes`` once it has read the body (413, or LibreTranslate's 400)."""
    return {"/translate_file": FileLimit(max_file_bytes, 400, "error", "Invalid request: "),
            "/v1/files": FileLimit(max_file_bytes, 413, "detail"),
            "/v2/document": FileLimit(max_file_bytes, 413, "message")}


class BodyLimit(HTTPMiddleware):
    """413 for a request body over ``max_bytes`` (on the paths of ``files``, over their file's
    limit, answered as that path's API answers a file too large), without reading it into memory
    when it declares its length, else as soon as the bytes read pass the limit.  What is left of
    it is read and dropped first (``drained``), so that a client that sends its whole body before
    it reads the answer reads the answer."""

    def __init__(self, app: ASGIApp, max_bytes: int, files: dict[str, FileLimit] | None = None) -> None:
        super().__init__(app)
        self.max_bytes = max_bytes
        self.files = files or {}

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        file = self.files.get(scope["path"])
        max_bytes = file.body_bytes if file else self.max_bytes
        refused = file.refused() if file else body_refused_on(scope["path"], 413,
                                                              f"the request body is over {max_bytes} bytes")
        declared = written_whole_number(Headers(scope=scope).get("content-length", ""))
        if declared is not None and declared > max_bytes:
            if declared <= DRAINED_BYTES:
                await drained(receive)
            await refused.response()(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > max_bytes:
                if message.get("more_body", False):
                    await drained(receive, DRAINED_BYTES - received)
                raise refused
            return message

        await self.app(scope, counted, send)


async def drained(receive: Receive, most: int = DRAINED_BYTES) -> None:
    """Reads and drops the rest of a refused request body: up to its end, but no more than ``most``
    bytes, nor past a hang-up or BodyDeadline (then the connection closes under the client, as before)."""
    read = 0
    while read <= most:
        try:
            message = await receive()
        except BodyRefused:  # too slow to arrive: refused as too large all the same
            return
        read += len(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


class HeadAsGet(HTTPMiddleware):
    """HEAD answered as GET without the body (RFC 9110 9.3.2; LibreTranslate's Flask does so):
    monitors and link checkers ask with HEAD.  A stream (server-sent events) ends once its
    headers are sent: its client then reads as gone."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        headers_sent = False

        async def until_headers() -> Message:
            return {"type": "http.disconnect"} if headers_sent else await receive()

        async def headers_only(message: Message) -> None:
            nonlocal headers_sent
            if message["type"] == "http.response.start":
                await send(message)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                headers_sent = True

        as_get = {**scope, "method": "GET"}
        try:
            await self.app(as_get, until_headers, headers_only)
        finally:
            if "route" in as_get:  # the route it matched, for the metrics (Metrics.path_label)
                scope["route"] = as_get["route"]


class MergedSlashes(HTTPMiddleware):
    """A path's repeated slashes read as one (``//translate`` is ``/translate``), as LibreTranslate's
    werkzeug routes them: clients such as SearXNG join a base URL ending in "/" and "/translate"."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if "//" in scope["path"]:
            scope = {**scope, "path": re.sub("/{2,}", "/", scope["path"])}
        await self.app(scope, receive, send)


def create_app(models: Sequence[ServedModel], settings: ServeSettings | None = None, access: Access | None = None,
               cors_origins: Sequence[str] = (), log_text: bool = False,
               allowed_hosts: Sequence[str] | None = None, metrics_access: MetricsAccess | None = None) -> FastAPI:
    """The FastAPI application serving ``models`` (the first is attnmt's API's default); each
    model's batcher runs while the app does.  ``cors_origins``: the web origins whose pages may
    call the API (default: none), compared as browsers write them (``https://a.example:443`` is
    ``https://a.example``: attnmt.server.access.WebOrigins).  ``allowed_hosts``: the Host names it
    answers to (None: any; others get 400).  ``metrics_access``: who may read /metrics (default: anyone)."""
    server = Server(Models(models), settings or ServeSettings(), access or Access(), Metrics(PATHS), log_text)
    for served in server.models.all:
        server.metrics.watch(served)
    metrics_access = metrics_access or MetricsAccess()
    jobs = FileJobs(server.settings, log_text=log_text)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        async with AsyncExitStack() as stack:
            for served in server.models.all:
                served.batcher = await stack.enter_async_context(Batcher(
                    served.run_batch, server.settings.max_batch, server.settings.batch_window_ms / 1000,
                    server.settings.max_queued, server.log_text, served.name))
            await stack.enter_async_context(jobs)  # left before the batchers: its jobs stop, then they do
            await asyncio.to_thread(server.detector.warm)  # not the first "auto" request's wait
            yield

    first = server.models.default
    app = FastAPI(title=f"attnmt: {', '.join(m.name for m in server.models.all)}",
                  description=__doc__.split("\n\n")[0], lifespan=lifespan)
    app.router.route_class = StrictJSONRoute
    app.state.file_jobs = jobs

    def give_up() -> None:
        """Answers every translation still in flight with 503 (a stream: an error event), for a
        stopping server whose --shutdown-timeout has run out (files: FileJobs.stop)."""
        jobs.stop()
        for served in server.models.all:
            if served.batcher is not None:
                served.batcher.give_up()

    app.state.give_up = give_up
    app.add_exception_handler(ClientDisconnect, client_gone)
    app.add_exception_handler(BodyRefused, body_refused)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(ApiError, api_error)
    app.add_middleware(HeadAsGet)
    app.add_middleware(BodyLimit, max_bytes=server.settings.max_body_bytes,
                       files=file_limits(server.settings.max_file_bytes))
    app.add_middleware(BodyDeadline, seconds=server.settings.body_timeout_s)
    app.add_middleware(PlainBodies)
    if allowed_hosts is not None:
        app.add_middleware(AllowedHosts, hosts=list(allowed_hosts))
    page_text = page_html(first.name, served_suffixes(server.settings))
    app.add_middleware(SecurityHeaders, policy=content_policy(page_text))
    if cors_origins:
        app.add_middleware(WebOrigins, allow_origins=list(cors_origins), allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type", "Authorization"],
                           # what a page's script may read: when to retry (429, 503), a download's name
                           expose_headers=["Retry-After", "Content-Disposition"])
    app.add_middleware(Observed, metrics=server.metrics)
    app.add_middleware(MergedSlashes)  # outermost: every other middleware and the metrics see the merged path
    add_native_routes(app, server)
    add_libretranslate_routes(app, server)
    add_libre_file_routes(app, server, jobs)
    add_streaming_route(app, server)
    add_file_routes(app, server, jobs)
    add_deepl_routes(app, server)
    add_deepl_document_routes(app, server, jobs)

    @app.get("/health", response_model=Health)
    async def health() -> Health:
        """The models being served and the server's limits."""
        each = [served.health() for served in server.models.all]
        return Health(status="ok", model=first.name, vocab_size=each[0]["vocab_size"], device=each[0]["device"],
                      parameters=first.parameters, max_input_tokens=first.longest_input,
                      limits=asdict(server.settings), batches=sum(m["batches"] for m in each),
                      translated=sum(m["translated"] for m in each), models=each)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        metrics_access.check(request)
        return Response(generate_latest(server.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/spec", include_in_schema=False)
    async def spec() -> JSONResponse:
        """The OpenAPI schema (/openapi.json's), where LibreTranslate serves its Swagger JSON: some clients read it."""
        return JSONResponse(app.openapi())

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> str:
        return page_text

    return app


def address(host: str, port: int) -> str:
    """The URL of the server listening on ``host`` and ``port``: an IPv6 address in brackets
    (``http://[::1]:8000/``), as URLs write it, so that a browser or curl can open it.  ``""``, every
    address of the machine (IPv4 and IPv6: attnmt.server.listening), has no place in a URL: localhost
    reaches it from this machine."""
    host = host or "localhost"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(served: Sequence[ServedModel], host: str = "127.0.0.1", port: int = 8000,
          settings: ServeSettings | None = None, access: Access | None = None, cors_origins: Sequence[str] = (),
          log_text: bool = False, allowed_hosts: Sequence[str] = (), metrics_access: MetricsAccess | None = None,
          ) -> None:
    """Serves ``served`` (inference copies, as ``attnmt serve`` loads them: attnmt.cli.commands.serve)
    until Ctrl-C or SIGTERM, writing the access log to stderr.  On loopback it answers only to
    loopback names and ``allowed_hosts``; elsewhere to any name, unless ``allowed_hosts`` lists some."""
    settings = settings or ServeSettings()
    access = access or Access()
    hosts = [*LOOPBACK_NAMES, host, *allowed_hosts] if is_loopback(host) else (list(allowed_hosts) or None)
    app = create_app(served, settings, access, cors_origins, log_text, hosts, metrics_access)
    handler = logging.StreamHandler(sys.stderr)
    # the model's failures beside the access log's 500s; and the thread count's changes (--verbose has its own)
    for log in (ACCESS_LOG, MODEL_LOG, *([] if THREADS_LOG.handlers else [THREADS_LOG])):
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    interfaces = host or "all interfaces"  # "" listens on every address of the machine
    if not is_loopback(host) and not access.keys_required:
        print(f"attnmt: serving on {interfaces}: anyone who can reach this machine can use the model "
              "(there is no authentication; --api-keys FILE asks for keys)", file=sys.stderr)
    unnamed = [m.name for m in served if m.pair is None]
    if unnamed:
        print(f"attnmt: {', '.join(unnamed)}: no language pair, so LibreTranslate's clients cannot ask for it; "
              "name it: --model en-de=DIR", file=sys.stderr)

    def ready(bound: int) -> None:  # once the server listens: with --port 0, on the port the system chose
        on = "" if host else f"on {interfaces}; "
        print(f"serving {', '.join(m.name for m in served)} at {address(host, bound)} ({on}LibreTranslate API: "
              "POST /translate; attnmt's: POST /v1/translate; docs: /docs); Ctrl-C stops", file=sys.stderr, flush=True)

    # a file being translated fails as soon as a stop is asked for, read, translated or written: its
    # client gets 503 at once, not, once its translation is done, a link the stopping server will never serve
    run_until_stopped(app, host, port, settings.header_timeout_s, settings.shutdown_timeout_s, ready,
                      on_stop=app.state.file_jobs.stop, on_deadline=app.state.give_up)
    print("attnmt: server stopped", file=sys.stderr)
