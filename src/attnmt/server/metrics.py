"""What the server tells its operator: Prometheus metrics (``GET /metrics``) and one JSON line
per request in the access log (logger ``attnmt.access``).

Metrics: requests by path and status (errors are the statuses >= 400), request latency,
texts per model batch, texts waiting per model, characters translated per model.  Neither
the metrics nor the log hold a key or, unless ``--log-text``, any text.
"""

from __future__ import annotations

import logging
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from attnmt.server.guards import HTTPMiddleware
from attnmt.server.models import ServedModel
from attnmt.text.json_lines import log_record

ACCESS_LOG = logging.getLogger("attnmt.access")
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128)


class Metrics:
    """The server's metrics, in a registry of its own (one per app: tests start several)."""

    def __init__(self, paths: set[str]) -> None:
        self.paths = paths  # the fixed paths labelled by name before routing (path_label)
        self.registry = CollectorRegistry()
        self.requests = Counter("attnmt_requests", "HTTP requests answered", ["path", "status"],
                                registry=self.registry)
        self.latency = Histogram("attnmt_request_seconds", "time to answer a request", ["path"],
                                 registry=self.registry)
        self.batch_texts = Histogram("attnmt_batch_texts", "texts per model batch", ["model"],
                                     buckets=BATCH_BUCKETS, registry=self.registry)
        self.queued = Gauge("attnmt_queued_texts", "texts waiting for a batch", ["model"], registry=self.registry)
        self.characters = Counter("attnmt_characters", "characters of source text translated", ["model"],
                                  registry=self.registry)

    def watch(self, served: ServedModel) -> None:
        """Counts ``served``'s batches and reports its queue."""
        served.batch_observers.append(self.batch_texts.labels(served.name).observe)
        self.queued.labels(served.name).set_function(lambda: served.batcher.queued if served.batcher else 0)

    def path_label(self, scope: Scope) -> str:
        """The route a request matched, by its template (``/v1/files/{job_id}``: one label for
        every job), else its path where it is one of ``paths`` (refused before routing: 413, 400
        for a Host), else "other" (404s: any path a client makes up), so that labels stay few."""
        route = scope.get("route")
        if route is not None and isinstance(getattr(route, "path", None), str):
            return route.path
        return scope["path"] if scope["path"] in self.paths else "other"


class Observed(HTTPMiddleware):
    """Counts and times every request and writes its access-log line.

    Endpoints add what the line should say (model, texts, characters, the key's line, and
    with --log-text the texts) to ``request.state.log``."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        super().__init__(app)
        self.metrics = metrics

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        status = 500  # what the client sees if the app fails before answering

        async def sent(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            seconds = time.perf_counter() - start
            path = self.metrics.path_label(scope)
            self.metrics.requests.labels(path, str(status)).inc()
            self.metrics.latency.labels(path).observe(seconds)
            log_request(scope, status, seconds)


def log_request(scope: Scope, status: int, seconds: float) -> None:
    """One JSON line: time, client, method, path, status, milliseconds, and what the endpoint added.
    One line to str.splitlines too (json_lines.log_record): a path holding U+2028 (``GET /%E2%80%A8``, which
    the ASGI scope gives decoded) is written as its escape, not as a break a log shipper splits at."""
    if not ACCESS_LOG.isEnabledFor(logging.INFO):
        return
    client = scope.get("client")
    line = {"client": client[0] if client else None, "method": scope["method"], "path": scope["path"],
            "status": status, "ms": round(seconds * 1000, 1)}
    state = scope.get("state") or {}
    line.update(state.get("log", {}))
    ACCESS_LOG.info(log_record(line))
