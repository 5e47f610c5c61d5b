"""What keeps the translation server standing against slow, idle and hostile clients; how it runs
and stops (idle connections closed, requests drained) is attnmt.server.running.

uvicorn alone waits without limit for a request's headers and body and keeps idle connections
open, so a few thousand silent sockets (or one half-sent body at shutdown) hold the server.  Here:

    HTTPMiddleware     the shape of the server's ASGI middleware (BodyLimit in attnmt.server.app too)
    BodyDeadline       a request body that has not fully arrived ``seconds`` after its headers: 408
    StrictJSONRoute    a body that is not UTF-8, or nests too deeply for the parser: 422, as any
                       other body that is not JSON (FastAPI answers a generic 400)
    client_gone        a client that hangs up before its whole body has arrived: 499 in the
                       access log and metrics, not the server's failure (500 and a traceback)
    while_connected    a request's work, cancelled as soon as its client hangs up (499 likewise):
                       no model time, and no place in the queue, for an answer no one will read
    PlainBodies        a request body with a Content-Encoding (gzip, br): 415 in its API's shape, not
                       read as it came (gzip's JSON was "not UTF-8", a form had no fields)
    http_error         404 and 405 on LibreTranslate's paths in its shape, {"error"}; on DeepL's, {"message"}
    AllowedHosts       a Host header naming none of the names the server answers to: 400 in its
                       API's shape, naming the host and --allowed-host
    SecurityHeaders    nosniff, no framing, and for the page a Content-Security-Policy that allows
                       its own inline script and style (by hash) and requests to its own server only
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from typing import TypeVar

from fastapi import HTTPException, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from attnmt.errors import json_value

T = TypeVar("T")
# The status nginx logs for a client that closed its connection before the answer (no one reads it).
CLIENT_GONE = 499
# The names a loopback-bound server answers to: a page elsewhere that points its own name at
# 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
# A Host header: a name, or an IP literal in brackets ("[::1]"), then perhaps a port.
HOST_HEADER = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[^\s\[\]:/@]+)(?::\d*)?")
LIBRETRANSLATE_PATHS = ("/translate", "/detect", "/languages", "/frontend/", "/suggest", "/download_file/")
DEEPL_PATHS = ("/v2/", "/v3/")  # attnmt.server.deepl_api: its clients read {"message"} (Weblate that alone)
# What a 404 on DeepL's paths says this server does: DeepL's clients show the message alone, and "Not Found" said
# nothing of why deepl-python's rephrase_text, correct_text or get_style_rule failed
DEEPL_SERVED = ("this server answers DeepL's translation of texts and documents (/v2/translate, /v2/document, "
                "/v2/languages, /v2/usage); it does not rephrase or correct text (DeepL Write) and keeps no "
                "glossaries, style rules or translation memories")


class HTTPMiddleware:
    """An ASGI middleware that acts on HTTP requests (``http``) and passes anything else (the
    lifespan events) straight through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class BodyRefused(HTTPException):
    """A request body refused while it is read (too large, or too slow): answered ``answer``, by
    default in both shapes, ``detail`` (attnmt's API) and ``error`` (LibreTranslate's), since
    most paths take either (a file's path answers in its own API's: attnmt.server.app.FileLimit)."""

    def __init__(self, status_code: int, detail: str, answer: dict[str, str] | None = None) -> None:
        super().__init__(status_code, detail)
        self.answer = answer or {"detail": detail, "error": detail}

    def response(self) -> JSONResponse:
        return JSONResponse(self.answer, status_code=self.status_code)


def body_refused_on(path: str, status_code: int, detail: str) -> BodyRefused:
    """BodyRefused for a body sent to ``path``: on DeepL's paths in its shape, ``{"message"}``."""
    return BodyRefused(status_code, detail, {"message": detail} if path.startswith(DEEPL_PATHS) else None)


async def body_refused(request: Request, error: BodyRefused) -> Response:
    return error.response()


class BodyDeadline(HTTPMiddleware):
    """408 for a request body that has not fully arrived ``seconds`` after the request's headers
    (a client holding a half-sent body holds the server's shutdown too)."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        super().__init__(app)
        self.seconds = seconds

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        deadline = asyncio.get_running_loop().time() + self.seconds
        complete = False

        async def timed() -> Message:
            nonlocal complete
            if complete:  # later calls wait for a disconnect, which may take as long as the answer
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(deadline - asyncio.get_running_loop().time(), 0))
            except TimeoutError:
                raise body_refused_on(scope["path"], 408,
                                      f"the request body did not arrive within {self.seconds:g} s") from None
            complete = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        await self.app(scope, timed, send)


class StrictJSONRequest(Request):
    """A request whose JSON body fails as JSON (json.JSONDecodeError, which FastAPI answers with
    422) when it is not UTF-8, nests too deeply or holds a number too long for int() (json_value),
    not with an error FastAPI answers with 400."""

    async def body(self) -> bytes:
        try:
            return await super().body()
        except ClientDisconnect:  # FastAPI answers any failure to read the body with 400
            raise HTTPException(CLIENT_GONE, "the client hung up before sending its whole body") from None

    async def json(self) -> object:
        body = await self.body()
        try:
            text = body.decode("utf-8-sig")  # a byte order mark, as Windows tools write, is read as /translate reads it
        except UnicodeDecodeError as error:  # its object and start: the bytes after a byte order mark
            place = error.start + len(body) - len(error.object)
            raise json.JSONDecodeError(f"not UTF-8: byte 0x{body[place]:02x}", "", place) from None
        return json_value(text)  # nested too deeply, or a number too long: a JSONDecodeError too


class StrictJSONRoute(APIRoute):
    """Routes whose endpoints read their body through StrictJSONRequest."""

    def get_route_handler(self) -> Callable:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_handler


async def client_gone(request: Request, error: ClientDisconnect) -> Response:
    """The answer, that no one reads, for a client that hung up while its body was read (an
    exception handler: the endpoints that read their body themselves raise ClientDisconnect)."""
    return Response(status_code=CLIENT_GONE)


async def while_connected(request: Request, work: Awaitable[T]) -> T:
    """``work``'s result, unless the client hangs up first: then ``work`` is cancelled (a
    translation waiting in the batcher's queue leaves it) and ClientDisconnect raised (499).

    uvicorn never cancels a handler whose client left, and tells it only through ``receive``:
    once the body has been read, its next message is ``http.disconnect``, sent when the client
    goes (or the answer has been sent).  So call this only after reading the body."""
    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(disconnect(request))
    try:
        await asyncio.wait([task, watcher], return_when=asyncio.FIRST_COMPLETED)
    finally:  # also when the handler itself is cancelled
        watcher.cancel()
        if not task.done():
            task.cancel()
    if not task.cancelled() and task.done():
        return task.result()
    await asyncio.gather(task, return_exceptions=True)  # its cleanup (leaving the queue) done before the 499
    raise ClientDisconnect


async def disconnect(request: Request) -> None:
    """Returns once the client of ``request``, whose body has been read, hangs up."""
    while (await request.receive())["type"] != "http.disconnect":
        pass  # the rest of a body no one read


def content_policy(page: str) -> str:
    """A Content-Security-Policy for ``page``: its own inline scripts and styles (by their sha256)
    and requests to its own server; nothing from elsewhere, no framing, no plugins."""

    def hashes(tag: str) -> str:
        blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.S)  # the JSON data block has attributes
        return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in blocks)

    return (f"default-src 'none'; script-src {hashes('script')}; style-src {hashes('style')}; "
            "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def api_answer(path: str, message: str) -> dict[str, str]:
    """A refusal in the shape of the API ``path`` belongs to: attnmt's ``{"detail"}`` under /v1/,
    LibreTranslate's ``{"error"}`` on its paths, DeepL's ``{"message"}`` on its, both of the first two
    elsewhere (the page, /health), as BodyRefused."""
    if path.startswith("/v1/"):
        return {"detail": message}
    if path.startswith(DEEPL_PATHS):
        return {"message": message}
    return {"error": message} if path.startswith(LIBRETRANSLATE_PATHS) else {"detail": message, "error": message}


def fully_qualified(name: str) -> str:
    """``name`` without the trailing dot of a fully qualified domain name: ``localhost.`` is the
    name ``localhost`` (RFC 1034 3.1), and a Host header may write either."""
    return name[:-1] if name.endswith(".") else name


async def http_error(request: Request, error: StarletteHTTPException) -> Response:
    """An HTTP error (404 for a path no route has, 405 for a method the route does not take) on
    LibreTranslate's paths in its shape, ``{"error"}``, and on DeepL's in its, ``{"message"}``, with the
    error's headers (405's Allow): FastAPI answered ``{"detail"}``, which their clients do not read.  A 404 on
    DeepL's paths says what this server answers of DeepL's API (DEEPL_SERVED).
    Elsewhere as FastAPI answers it, and so are the errors of attnmt's shape of POST /translate
    (``{"text"}``), its own.
    OPTIONS, which asks what a path takes (RFC 9110 9.3.7), is answered so, as LibreTranslate's Flask
    answers it: 200 and Allow, no body (a page's CORS preflight is WebOrigins', before this)."""
    if error.status_code == 405:
        allowed = ", ".join(allowed_methods(request))
        if request.method == "OPTIONS":
            return Response(status_code=200, headers={"Allow": f"{allowed}, OPTIONS"})
        error.headers = {**(error.headers or {}), "Allow": allowed}
    path = request.url.path
    if error.status_code not in (404, 405) or not path.startswith((*LIBRETRANSLATE_PATHS, *DEEPL_PATHS)):
        return await http_exception_handler(request, error)
    if not path.startswith(DEEPL_PATHS):
        return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)
    message = f"{error.detail}: {path} is no route here; {DEEPL_SERVED}" if error.status_code == 404 else error.detail
    return JSONResponse({"message": message}, status_code=error.status_code, headers=error.headers)


def allowed_methods(request: Request) -> list[str]:
    """Every method the request's path takes, over all the routes that match it: Starlette's 405 names the first
    route's alone, so a path served by two (DeepL's /v2/languages, GET and POST) said it took POST only."""
    methods: list[str] = []
    for route in request.app.router.routes:
        if isinstance(route, Route) and route.methods and route.matches(request.scope)[0] != Match.NONE:
            methods += sorted(route.methods)
    return list(dict.fromkeys(methods))


class AllowedHosts(HTTPMiddleware):
    """400 for a request whose Host header names none of ``hosts`` (``*.example.org``: any name
    under it; ``*``: any), so that a page elsewhere that points its own name at a loopback server
    (DNS rebinding) reaches nothing.  Answered as its API answers errors (api_answer), naming the
    host and how to let it in: Starlette's TrustedHostMiddleware answered text/plain "Invalid host
    header", which neither API's clients read and which said nothing of --allowed-host."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        super().__init__(app)
        self.hosts = [fully_qualified(host.lower()) for host in hosts]
        # ``*`` lets in any request, the Host header not read: one without it (HTTP/1.0, a load
        # balancer's health check), an empty one, one with a port that is no number, as
        # Starlette's TrustedHostMiddleware let them in
        self.any_host = "*" in self.hosts

    def allows(self, name: str) -> bool:
        return any(name == host or (host.startswith("*.") and name.endswith(host[1:])) for host in self.hosts)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any_host:
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("host")
        found = HOST_HEADER.fullmatch(header) if header is not None else None
        if found is not None and self.allows(fully_qualified(found.group(1).lower())):
            await self.app(scope, receive, send)
            return
        if found is None:
            message = "Invalid host header: no Host header" if header is None else f"Invalid host header {header!r}"
        else:
            name = found.group(1)
            message = (f"Invalid host header: this server does not answer to the host {name!r}; to let it, "
                       f"start it with --allowed-host {name}")
        await JSONResponse(api_answer(scope["path"], message), status_code=400)(scope, receive, send)


# The content codings that compress a body (RFC 9110 8.4.1, and IANA's registry). Another value passes:
# some clients write their charset there ("Content-Encoding: utf-8"), which LibreTranslate ignores.
COMPRESSIONS = ("gzip", "x-gzip", "deflate", "br", "compress", "x-compress", "zstd")


class PlainBodies(HTTPMiddleware):
    """415 for a request whose body is sent compressed (a Content-Encoding of COMPRESSIONS),
    answered as its API answers errors (api_answer) with ``Accept-Encoding: identity`` (RFC 9110
    15.5.16): read as it came, gzip's bytes were JSON that is "not UTF-8: byte 0x8b", or a form
    that had no ``q``."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        coding = Headers(scope=scope).get("content-encoding", "")
        if not any(each.strip().lower() in COMPRESSIONS for each in coding.split(",")):
            await self.app(scope, receive, send)
            return
        message = (f"the request body's Content-Encoding {coding!r} is not supported: send it uncompressed "
                   "(no Content-Encoding, or identity)")
        await JSONResponse(api_answer(scope["path"], message), status_code=415,
                           headers={"Accept-Encoding": "identity"})(scope, receive, send)


class SecurityHeaders(HTTPMiddleware):
    """X-Content-Type-Options and X-Frame-Options on every answer, and the page's
    Content-Security-Policy on the answers of ``policy_paths``."""

    def __init__(self, app: ASGIApp, policy: str, policy_paths: tuple[str, ...] = ("/",)) -> None:
        super().__init__(app)
        self.policy = policy
        self.policy_paths = policy_paths

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("X-Frame-Options", "DENY")
                if scope["path"] in self.policy_paths:
                    headers.setdefault("Content-Security-Policy", self.policy)
            await send(message)

        await self.app(scope, receive, with_headers)
