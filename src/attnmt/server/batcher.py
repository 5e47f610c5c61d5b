"""Dynamic batching: translation requests that arrive together run through the model together.

Beam search over 32 sentences costs far less than 32 searches over one, so a
server that collects concurrent requests into one batch answers more of them
per second the busier it is::

    request ─┐                         (one thread owns the model)
    request ─┼─> queue ─ collect ─> [texts of several requests] ─ run_batch ─> split ─> answers
    request ─┘           │
                         └ until max_batch texts are waiting, or ``window`` seconds after the first

While a batch runs, new requests queue up and form the next one.  The model runs
in a thread of its own, off the event loop, so the server keeps accepting and
answering (health checks, errors) while it translates.

Only requests with equal options (beam size, length limit) share a batch.  The
oldest request always goes first, so none waits behind a stream of others.  A request
of more than max_batch texts is queued as several jobs of at most max_batch each: no
batch holds more, so ``--batch-size 1`` keeps the memory a search takes to one text's.  A
batch the model fails on runs again a job at a time: only a request whose job fails
alone gets the error (logged to ``attnmt.model``), none batched with it; one refused for its own
fault (a UserError: a glossary term the model cannot write) is a JSON record there, as the access log's,
and the batch it failed is no model failure: its jobs run again a request at a time without a word.  Without
``log_text`` (--log-text) neither that record nor a failure's lines (its traceback too) hold client text:
each of the batch's texts, and each text an error quotes, is its length (attnmt.server.client_text).
A stopping server whose requests are out of time (``give_up``) answers each one still waiting
or running with Busy, the 503 of its API, rather than leaving uvicorn to cut it off.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from attnmt.errors import UserError
from attnmt.server.client_text import log_failure, quotes_as_lengths, without_text
from attnmt.text.json_lines import log_record

T = TypeVar("T")

RunBatch = Callable[[list[str], Hashable], list[str]]
MODEL_LOG = logging.getLogger("attnmt.model")  # the model's failures, with their tracebacks


class Busy(RuntimeError):
    """The queue already holds ``max_queued`` texts, or the server is stopping; the client should retry later."""


SHUTTING_DOWN = "the server is shutting down"


@dataclass
class Job:
    """One request's texts, waiting for their translations."""

    texts: list[str]
    options: Hashable
    future: asyncio.Future = field(repr=False)


class Batcher:
    """Collects concurrent ``translate`` calls into batches for ``run_batch(texts, options)``.

    ``run_batch`` runs in the model thread and returns one output per text, in order.
    Use as ``async with Batcher(...) as batcher:`` inside a running event loop.
    """

    def __init__(self, run_batch: RunBatch, max_batch: int = 32, window: float = 0.005,
                 max_queued: int = 1024, log_text: bool = False, model: str = "") -> None:
        if max_batch < 1 or window < 0 or max_queued < 1:
            raise ValueError(f"need max_batch >= 1, window >= 0, max_queued >= 1; got {max_batch}, {window}, "
                             f"{max_queued}")
        self.run_batch = run_batch
        self.max_batch = max_batch
        self.window = window
        self.max_queued = max_queued
        self.log_text = log_text  # --log-text: a refusal's record and a failure's lines hold the client's text
        self.model = model  # its name in the log's lines: a server of several models says which one failed
        self.pending: deque[Job] = deque()
        self.queued = 0  # texts in self.pending
        self.batches = 0  # batches run so far
        self.batched_texts = 0  # texts in them
        self.batch_sizes: deque[int] = deque(maxlen=1000)  # texts per batch, the latest ones
        self.model_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attnmt-model")
        self._arrived = asyncio.Event()
        self.stopping = asyncio.Event()  # set by give_up
        self._worker: asyncio.Task | None = None

    async def __aenter__(self) -> Batcher:
        self._worker = asyncio.create_task(self._work(), name="attnmt-batcher")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
        self.give_up()
        self.model_thread.shutdown(wait=True, cancel_futures=True)

    def give_up(self) -> None:
        """Fails every job still waiting or running, and every ``call`` in flight, with Busy, and
        refuses those that come after: for a stopping server whose requests are out of time, so
        that each gets its API's 503 rather than a connection cut off.  The model thread goes on
        with its batch (nothing stops it midway), but no one waits for it."""
        self.stopping.set()
        fail(self.pending, Busy(SHUTTING_DOWN))
        self.pending.clear()
        self.queued = 0

    async def translate(self, texts: list[str], options: Hashable, queued: Callable[[], object] = lambda: None,
                        ) -> list[str]:
        """The outputs for ``texts``, once a batch holding them has run; raises Busy when the queue
        is full or the server is stopping (give_up).  ``queued`` is called once they wait in the queue:
        the metrics count a request's characters there, as reaching the model, and none of one refused."""
        if self.stopping.is_set():
            raise Busy(SHUTTING_DOWN)
        if self.queued + len(texts) > self.max_queued:
            raise Busy(f"the server has {self.queued} texts waiting (at most {self.max_queued}); retry shortly")
        loop = asyncio.get_running_loop()
        jobs = [Job(list(texts[start: start + self.max_batch]), options, loop.create_future())
                for start in range(0, len(texts), self.max_batch)]
        self.pending.extend(jobs)
        self.queued += len(texts)
        self._arrived.set()
        try:
            queued()
            return [output for job in jobs for output in await job.future]
        finally:  # answered; or its client went away, or one of its jobs failed: the rest leave the queue at once
            self._withdraw(jobs)

    def _withdraw(self, jobs: list[Job]) -> None:
        """Takes one request's jobs still waiting out of the queue; one already running goes on, its
        outputs to no one."""
        for job in jobs:
            if job in self.pending:
                self.pending.remove(job)
                self.queued -= len(job.texts)
            if not job.future.cancel() and not job.future.cancelled():
                job.future.exception()  # seen: a second job's failure is not "never retrieved" in the log

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """Runs ``function(*args)`` in the model thread, between batches (e.g. an attention trace);
        raises Busy once the server gives up (give_up), without waiting for it."""
        running = asyncio.get_running_loop().run_in_executor(self.model_thread, function, *args)
        stopping = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait([running, stopping], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not running.done():  # given up on, or the caller cancelled
                running.cancel()
        if running.cancelled():
            raise Busy(SHUTTING_DOWN)
        return running.result()

    async def _work(self) -> None:
        while True:
            if not self.pending:
                self._arrived.clear()
                await self._arrived.wait()
            await self._collect()
            batch = self._take_batch()
            if batch:
                await self._run(batch)

    async def _collect(self) -> None:
        """Waits up to ``window`` seconds for more requests, unless a full batch is already waiting."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.window
        while self.queued < self.max_batch and (remaining := deadline - loop.time()) > 0:
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                return

    def _take_batch(self) -> list[Job]:
        """The oldest job, and the next ones with its options, while they fit in max_batch texts.

        Jobs whose client went away (future cancelled) are dropped, if ``translate`` has not
        taken them out already.  No job holds more than max_batch texts (``translate`` splits them).
        """
        batch: list[Job] = []
        size = 0
        kept: deque[Job] = deque()
        while self.pending:
            job = self.pending.popleft()
            if job.future.done():
                self.queued -= len(job.texts)
            elif not batch or (job.options == batch[0].options and size + len(job.texts) <= self.max_batch):
                batch.append(job)
                size += len(job.texts)
                self.queued -= len(job.texts)
            else:
                kept.append(job)
        self.pending = kept
        return batch

    async def _run(self, batch: list[Job]) -> None:
        """Translates the batch in the model thread and hands each job its outputs (or its error)."""
        size = sum(len(job.texts) for job in batch)
        self.batches += 1
        self.batched_texts += size
        self.batch_sizes.append(size)
        await self._answer(batch)

    async def _answer(self, batch: list[Job]) -> None:
        """Runs the batch; where it fails, each of its jobs runs alone, so that a request the model
        fails on (a sentence that breaks a batch) fails alone, with its error in the log."""
        texts = [text for job in batch for text in job.texts]
        try:
            outputs = await self.call(self.run_batch, texts, batch[0].options)
            if len(outputs) != len(texts):
                raise RuntimeError(f"the model gave {len(outputs)} outputs for {len(texts)} inputs")
        except asyncio.CancelledError:  # shutting down mid-batch
            fail(batch, Busy(SHUTTING_DOWN))
            raise
        except Busy as error:  # given up on (give_up): its jobs have their answer
            fail(batch, error)
            return
        except Exception as error:  # noqa: BLE001 - one failed batch must not stop the server
            if len(batch) > 1:
                if not isinstance(error, UserError):  # a request's own fault is its refusal's record alone
                    MODEL_LOG.warning("%s failed on a batch of %d requests (%s: %s); running each alone",
                                      self.the_model, len(batch), type(error).__name__, self.told(str(error), texts))
            else:
                self.failed(batch[0], error)
                return
        else:
            start = 0
            for job in batch:
                if not job.future.done():
                    job.future.set_result(outputs[start: start + len(job.texts)])
                start += len(job.texts)
            return
        # each alone, once the batch's error is handled: a job's own error raised inside that handling
        # carried it as its context, its traceback in the log quoting the other requests' texts
        try:
            for job in batch:
                if not job.future.done():  # its client may have gone meanwhile
                    await self._answer([job])
        except asyncio.CancelledError:  # shutting down while they run alone: the ones still waiting are answered
            fail(batch, Busy(SHUTTING_DOWN))
            raise

    def failed(self, job: Job, error: Exception) -> None:
        """Fails ``job``, which the model failed on alone, with ``error``: a refusal's record, or the
        model's failure with its traceback, in the log (neither with its texts without --log-text)."""
        texts = job.texts
        if isinstance(error, UserError):  # the request's own fault (a glossary term the model cannot write)
            MODEL_LOG.info(refusal_record(texts, error, self.log_text, self.model))
        else:
            log_failure(MODEL_LOG, f"{self.the_model} failed on a request of {len(texts)} text(s)", error, texts,
                        self.log_text)
        fail([job], error)

    @property
    def the_model(self) -> str:
        """The model as the log's lines name it: "the model en-de", or "the model" for one unnamed."""
        return f"the model {self.model}".rstrip()

    def told(self, message: str, texts: list[str]) -> str:
        """``message`` as the log may hold it: whole with --log-text, else ``without_text``."""
        return message if self.log_text else without_text(message, texts)


def refusal_record(texts: Sequence[str], error: UserError, log_text: bool = False, model: str = "") -> str:
    """The log's line for a request of ``texts`` refused for its own fault: a JSON record as the access
    log's, beside which it is written (stderr), so that a reader of that log's records reads it too; it
    was plain text.  The model's failures stay plain text, their tracebacks on the lines after.
    ``model``: the model that refused it (None where unnamed), as a server of several models has several;
    ``texts``: how many; ``kind``: the error's class; ``error``: its message, as the client is told it
    with ``log_text``, else each text it quotes, and the request's texts, as their lengths (client_text), as
    the access log holds no text without --log-text."""
    message = str(error) if log_text else without_text(quotes_as_lengths(str(error)), texts)
    return log_record({"event": "refused", "model": model or None, "texts": len(texts), "kind": type(error).__name__,
                       "error": message})


def fail(jobs: Iterable[Job], error: BaseException) -> None:
    """Hands ``error`` to every job still waiting."""
    for job in jobs:
        if not job.future.done():
            job.future.set_exception(error)
