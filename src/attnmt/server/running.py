"""How the translation server runs under uvicorn and stops: uvicorn alone waits without limit for a
request's headers, and a stop at the wrong moment was lost or killed the process.  Here:

    TimedH11Protocol   a connection that sends no request headers within ``header_timeout`` seconds
                       (of opening, or of its last answer) is closed
    run_until_stopped  serves until SIGTERM or Ctrl-C, lets requests in flight finish for at most
                       ``shutdown_timeout`` seconds (a second Ctrl-C: none), then has them answered
                       (``on_deadline``: 503) and returns (exit status 0: a stop asked for);
                       its signal handlers are in place before the server starts, so a stop that
                       comes at once (right after the ready line) is never lost

The guards against slow and hostile requests themselves are in attnmt.server.guards.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from types import FrameType

import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from attnmt.server.listening import listening_sockets

# After --shutdown-timeout, the time the answers to the requests given up on (503) get to go out
# before uvicorn cancels what is still running (a plain-text 500 and a traceback each).
ANSWER_MARGIN_S = 1.0


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
    must only set a flag, or hand its work to the event loop with call_soon_threadsafe), before the
    requests in flight are drained, and ``on_deadline`` (in the event loop) when ``shutdown_timeout``
    has run out, to answer those still in flight.  Returns
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
