"""The translator of a server's file job (BatchedTranslator): the job's thread hands its sentences to
the model's batcher (attnmt.server.batcher) a chunk at a time, each chunk's characters charged
first, and stops at the next chunk once the job is deleted (Cancelled) or the server stops.  The
jobs themselves are attnmt.server.file_jobs'."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass, field, replace

from attnmt.decoding import DEFAULT
from attnmt.decoding.quality import Assessment
from attnmt.documents.spans import Weights
from attnmt.documents.translator_parts import Plausibility
from attnmt.server.access import Refused
from attnmt.server.batcher import SHUTTING_DOWN, Batcher, Busy
from attnmt.server.models import Options

# How long a file's chunk waits before it asks again: the batcher's queue full, or its key's characters spent.
RETRY_WAIT_S = 1.0


class Cancelled(Exception):
    """The job was deleted while it ran: it stops before its next chunk or block."""


def unnoted(sentences: list[str], translations: list[str]) -> None:
    """A job's chunks noted nowhere: /v1/files' access-log line is written as its job starts."""


@dataclass
class BatchedTranslator:
    """A Translator (attnmt.documents.translators) for a job's thread: its sentences go through the
    model's batcher, ``chunk`` at a time, each chunk's characters charged first (``charge``: raises
    Refused; ``wait_for_characters``: a refusal with a Retry-After waits, asking again every
    RETRY_WAIT_S); with a ``threshold`` (a review's), each sentence is also assessed as its chunk is
    searched, its Assessment kept until ``taken``.  ``fits`` and ``writes`` are the served model's
    (ServedModel's, as ModelTranslator's are ``attnmt translate``'s), so that a file's sentences are
    split, and the symbols its vocabulary cannot write kept where they stood, as the command line
    does (attnmt.documents.symbols); without them, every symbol went to the model, which dropped it.
    ``waiting`` is told what a chunk waits for ("characters", "queue") and None once it goes on;
    ``note`` is given each chunk's sentences and translations once they are done (the access log's);
    ``failed_on`` holds the sentences of the chunk the model failed on, which its error may quote.
    Once ``stopping`` (the server stops) or ``cancelled`` (the job was deleted) is set, no more."""

    batcher: Batcher
    loop: asyncio.AbstractEventLoop
    chunk: int
    charge: Callable[[list[str]], None]  # given a chunk's sentences
    stopping: threading.Event
    cancelled: threading.Event = field(default_factory=threading.Event)
    wait_for_characters: bool = False
    threshold: float | None = None
    assessed: dict[str, Assessment | None] = field(default_factory=dict)  # sentence -> its Assessment, until taken
    waiting: Callable[[str | None], None] = lambda why: None
    note: Callable[[list[str], list[str]], None] = unnoted
    fits: Callable[[str], bool] | None = None  # whether the model reads a sentence whole (translator_fits)
    writes: Callable[[str], bool] | None = None  # whether its vocabulary writes a symbol (translator_writes)
    failed_on: list[str] = field(default_factory=list)  # the chunk the model failed on (attnmt.server.client_text)
    judge: Plausibility | None = None  # how plausible the model finds a translation (ServedModel.plausibility)

    @property
    def glossary(self) -> None:
        """None: a file sent to the server comes with no glossary (its APIs take none for files)."""
        return None

    @property
    def plausibility(self) -> Plausibility | None:
        """``judge`` run in the model's thread (``judged``), so that a file's short label the model garbled keeps its
        source as it does from the command line (attnmt.documents.short_labels); None without one."""
        return None if self.judge is None else self.judged

    def judged(self, sentences: Sequence[str], translations: Sequence[str]) -> Sequence[float | None]:
        """``judge``'s answer, run in the model's thread between batches (Batcher.call)."""
        self.check_going()
        call = asyncio.run_coroutine_threadsafe(self.batcher.call(self.judge, sentences, translations), self.loop)
        try:
            return call.result()
        except CancelledError:  # the server is stopping
            raise Busy(SHUTTING_DOWN) from None

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts: list[str] = []
        weights: list[Weights | None] = []
        for start in range(0, len(sentences), self.chunk):
            self.check_going()
            part = slice(start, start + self.chunk)
            call = asyncio.run_coroutine_threadsafe(self.translated(sentences[part], weighed[part]), self.loop)
            try:
                found = call.result()
            except CancelledError:  # the server is stopping
                raise Busy(SHUTTING_DOWN) from None
            texts += [text for text, _ in found]
            weights += [each for _, each in found]
        return texts, weights

    def check_going(self) -> None:
        """Raises Busy once the server stops, Cancelled once the job is deleted."""
        if self.stopping.is_set():
            raise Busy(SHUTTING_DOWN)
        if self.cancelled.is_set():
            raise Cancelled

    async def translated(self, sentences: list[str], weighed: list[bool]) -> list[tuple[str, Weights | None]]:
        """Each sentence's (translation, word weights where weighed), from the batcher: the
        sentences weighed and the others are two requests of the batcher (their options differ)."""
        await self.charged(sentences)
        found: list[tuple[str, Weights | None]] = [("", None)] * len(sentences)
        groups = [[i for i, wanted in enumerate(weighed) if wanted == flag] for flag in (False, True)]
        quality = dict(quality=True, threshold=self.threshold) if self.threshold is not None else {}
        options = [Options(DEFAULT, format="sentences", **quality), Options(DEFAULT, format="weighed", **quality)]
        while True:
            try:
                answers = await asyncio.gather(*(self.batcher.translate([sentences[i] for i in group], each)
                                                 for group, each in zip(groups, options, strict=True) if group))
                break
            except Busy:  # the queue is full: a file waits its turn, where a request would be refused
                if self.stopping.is_set():
                    raise
                self.waiting("queue")
                await asyncio.sleep(RETRY_WAIT_S)
            except Exception:
                self.failed_on = sentences
                raise
        self.waiting(None)
        for group, answer in zip([group for group in groups if group], answers, strict=True):
            for i, (text, weights, *assessed) in zip(group, answer, strict=True):
                found[i] = text, weights
                if assessed:  # a review needs no word list
                    self.assessed[sentences[i]] = assessed[0] and replace(assessed[0], words=[], features=None)
        self.note(sentences, [text for text, _ in found])
        return found

    async def charged(self, sentences: list[str]) -> None:
        """Charges the characters of a chunk's ``sentences`` to the key; over its characters a minute, waits for
        room where ``wait_for_characters`` (else, and for a chunk the key could never send, Refused)."""
        while True:
            try:
                self.charge(sentences)
                return
            except Refused as refused:
                if not self.wait_for_characters or refused.retry_after is None:
                    raise
            self.check_going()
            self.waiting("characters")
            await asyncio.sleep(RETRY_WAIT_S)

    def taken(self, sentences: list[str], translations: list[str]) -> list[Assessment | None]:
        """The Assessments of ``sentences`` translated so far (a Review's ``assess``), forgotten here."""
        return [self.assessed.pop(sentence, None) for sentence in sentences]
