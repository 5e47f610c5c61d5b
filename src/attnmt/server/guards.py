"""What keeps the translation server standing against slow, idle and hostile clients, and lets it stop.

uvicorn alone waits without limit for a request's headers and body and keeps idle connections
open, so a few thousand silent sockets (or one half-sent body at shutdown) hold the server.  Here:

    TimedH11Protocol   a connection that sends no request headers within ``header_timeout`` seconds
                       (of opening, or of its last answer) is closed
    HTTPMiddleware     the shape of the server's ASGI middleware (BodyLimit in attnmt.server.app too)
    BodyDeadline       a request body that has not fully arrived ``seconds`` after its headers: 408
    StrictJSONRoute    a body that is not UTF-8, or nests too deeply for the parser: 422, as any
                       other body that is not JSON (FastAPI answers a generic 400)
    client_gone        a client that hangs up before its whole body has arrived: 499 in the
                       access log and metrics, not the server's failure (500 and a traceback)
    while_connected    a request's work, cancelled as soon as its client hangs up (499 likewise):
                       no model time, and no place in the queue, for an answer no one will read
    AllowedHosts       a Host header naming none of the names the server answers to: 400 in its
                       API's shape, naming the host and --allowed-host
    SecurityHeaders    nosniff, no framing, and for the page a Content-Security-Policy that allows
                       its own inline script and style (by hash) and requests to its own server only
    run_until_stopped  serves until SIGTERM or Ctrl-C, lets requests in flight finish for at most
                       ``shutdown_timeout`` seconds (a second Ctrl-C: none), then has them answered
                       (``on_deadline``: 503) and returns (exit status 0: a stop asked for);
                       its signal handlers are in place before the server starts, so a stop that
                       comes at once (right after the ready line) is never lost
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import signal
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from types import FrameType
from typing import TypeVar

import uvicorn
from fastapi import HTTPException, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from attnmt.errors import json_value
from attnmt.server.listening import listening_sockets

T = TypeVar("T")
# The status nginx logs for a client that closed its connection before the answer (no one reads it).
CLIENT_GONE = 499
# After --shutdown-timeout, the time the answers to the requests given up on (503) get to go out
# before uvicorn cancels what is still running (a plain-text 500 and a traceback each).
ANSWER_MARGIN_S = 1.0
# The names a loopback-bound server answers to: a page elsewhere that points its own name at
# 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
# A Host header: a name, or an IP literal in brackets ("[::1]"), then perhaps a port.
HOST_HEADER = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[^\s\[\]:/@]+)(?::\d*)?")
LIBRETRANSLATE_PATHS = ("/translate", "/detect", "/languages", "/frontend/", "/suggest", "/download_file/")


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection that sends no request headers within
    ``header_timeout`` seconds of opening or of its last answer (slow or silent clients)."""

    def __init__(self, *args, header_timeout: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self.header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        super().connection_lost(exc)

    def arm(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
        self.header_timer = self.loop.call_later(self.header_timeout, self.close_if_waiting)

    def close_if_waiting(self) -> None:
        """Closes the connection unless a request is being answered (headers arrived since)."""
        answering = self.cycle is not None and not self.cycle.response_complete
        if not answering and not self.transport.is_closing():
            self.transport.close()


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
                raise BodyRefused(408, f"the request body did not arrive within {self.seconds:g} s") from None
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
    LibreTranslate's ``{"error"}`` on its paths, both elsewhere (the page, /health), as BodyRefused."""
    if path.startswith("/v1/"):
        return {"detail": message}
    return {"error": message} if path.startswith(LIBRETRANSLATE_PATHS) else {"detail": message, "error": message}


class AllowedHosts(HTTPMiddleware):
    """400 for a request whose Host header names none of ``hosts`` (``*.example.org``: any name
    under it; ``*``: any), so that a page elsewhere that points its own name at a loopback server
    (DNS rebinding) reaches nothing.  Answered as its API answers errors (api_answer), naming the
    host and how to let it in: Starlette's TrustedHostMiddleware answered text/plain "Invalid host
    header", which neither API's clients read and which said nothing of --allowed-host."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        super().__init__(app)
        self.hosts = [host.lower() for host in hosts]
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
        if found is not None and self.allows(found.group(1).lower()):
            await self.app(scope, receive, send)
            return
        if found is None:
            message = "Invalid host header: no Host header" if header is None else f"Invalid host header {header!r}"
        else:
            name = found.group(1)
            message = (f"Invalid host header: this server does not answer to the host {name!r}; to let it, "
                       f"start it with --allowed-host {name}")
        await JSONResponse(api_answer(scope["path"], message), status_code=400)(scope, receive, send)


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


class StoppableServer(uvicorn.Server):
    """uvicorn's server, which calls ``ready`` with the port it listens on (the one the system
    chose, for port 0) once it listens, leaves the signals to
    run_until_stopped, and calls ``on_deadline`` (in its event loop) ``deadline_s`` seconds into
    its shutdown.

    uvicorn installs its own handlers only once its event loop runs, and puts back the ones
    before it when it ends; a SIGTERM between the two was lost (swallowed by the handler before
    it) or killed the process (status 143, no draining).  At its graceful shutdown's timeout it
    cancels the handlers still running: their clients get a plain-text 500, the log a traceback
    each; ``on_deadline`` answers them first (configure the timeout ANSWER_MARGIN_S later).

    A second Ctrl-C is uvicorn's force exit, which leaves the handlers still running to be
    cancelled as the event loop closes (a 500 and a traceback each, again): here it runs
    ``on_deadline`` at once instead, so that they are answered, and forces the exit once they
    are, or ANSWER_MARGIN_S later (a third Ctrl-C: at once).
    """

    def __init__(self, config: uvicorn.Config, ready: Callable[[int], None],
                 on_deadline: Callable[[], None] = lambda: None, deadline_s: float = 0.0) -> None:
        super().__init__(config)
        self.ready = ready
        self.on_deadline = on_deadline
        self.deadline_s = deadline_s
        self.loop: asyncio.AbstractEventLoop | None = None
        self.gave_up = False

    async def serve(self, sockets: list | None = None) -> None:
        self.loop = asyncio.get_running_loop()  # a signal handler's way into it
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """A stop asked for; a second Ctrl-C answers the requests in flight at once (give_up_now)."""
        forced = self.should_exit and sig == signal.SIGINT
        if forced and not self.gave_up and self.loop is not None:
            self.gave_up = True
            self.loop.call_soon_threadsafe(self.give_up_now)  # a signal handler may run in the loop's midst
        else:
            super().handle_exit(sig, frame)

    def give_up_now(self) -> None:
        """Answers the requests in flight (``on_deadline``), then forces the exit ANSWER_MARGIN_S
        later: their answers go out first, and the server ends sooner where they all have."""
        self.on_deadline()
        asyncio.get_running_loop().call_later(ANSWER_MARGIN_S, setattr, self, "force_exit", True)

    async def shutdown(self, sockets: list | None = None) -> None:
        deadline = asyncio.get_running_loop().call_later(self.deadline_s, self.on_deadline)
        try:
            await super().shutdown(sockets)
        finally:
            deadline.cancel()

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # run_until_stopped's handlers are in place from before the start to the end

    async def startup(self, sockets: list | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:  # a stop during the start: it goes straight on to the shutdown
            self.ready(self.bound_port())

    def bound_port(self) -> int:
        """The port the first listening socket is bound to: ``--port 0`` asks the system for a free one."""
        for server in self.servers:
            for sock in server.sockets or ():
                return int(sock.getsockname()[1])
        return self.config.port


def run_until_stopped(app: ASGIApp, host: str, port: int, header_timeout: float, shutdown_timeout: float,
                      ready: Callable[[int], None] = lambda port: None, on_stop: Callable[[], None] = lambda: None,
                      on_deadline: Callable[[], None] = lambda: None) -> None:
    """Serves ``app`` with uvicorn until SIGTERM or SIGINT; requests in flight then get at most
    ``shutdown_timeout`` seconds to finish (a second Ctrl-C: they are answered at once).  ``ready`` is called with the
    port once the server listens, ``on_stop`` as soon as a stop is asked for (from the signal handler: it
    must only set a flag), before the requests in flight are drained, and ``on_deadline`` (in the
    event loop) when ``shutdown_timeout`` has run out, to answer those still in flight.  Returns
    normally: a stop asked for is not a failure (status 0, not 143)."""
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            http=partial(TimedH11Protocol, header_timeout=header_timeout),
                            timeout_graceful_shutdown=shutdown_timeout + ANSWER_MARGIN_S)
    server = StoppableServer(config, ready, on_deadline, shutdown_timeout)
    # A stop asked for at any moment from here on, even before the server has started, ends it:
    # startup then goes straight on to the shutdown.
    def stop(sig: int, frame: FrameType | None) -> None:
        on_stop()
        server.handle_exit(sig, frame)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(listening_sockets(host, port))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
