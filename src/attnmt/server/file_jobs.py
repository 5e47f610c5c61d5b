"""Files translated as jobs: what attnmt's file API (attnmt.server.file_api) and LibreTranslate's
``/translate_file`` (attnmt.server.libre_files) run on.

A job's document work (reading the file, placing its marks, writing it again) runs in a thread
of its own, and its sentences go through the model's batcher (attnmt.server.batcher) with every
other request's, ``file_chunk`` sentences at a time, each chunk handed over once the one before
is done.  A request that arrives meanwhile is older than the job's next chunk, and the batcher
takes the oldest first, so a 200-page file delays a short request by one chunk per running job.

Before each chunk, its characters are charged to the API key's characters a minute.  Over them,
a job of attnmt's API waits for the window to have room (JobOptions.wait_for_characters: a job
is followed, not waited on), LibreTranslate's fails with the reason (its client waits for the
whole file); a chunk larger than the key's characters a minute fails either way.  With a review
(JobOptions.review), each chunk's translations are assessed (attnmt.decoding.quality) from the
chunk's own search, in the same batches, and the sentences under the threshold are kept with the
job (attnmt.documents.review).

Bounds (ServeSettings): at most ``max_file_jobs`` translated at once (one more: Busy; LibreTranslate's
and DeepL's files wait for their turn, IN_TURN, as those services take a file while others are translated:
as many again wait); a
translated file is written to a folder of the server's own on disk, not kept in memory, and
deleted ``file_ttl_s`` seconds after it was done, or sooner when more than ``max_file_results``
are waiting (the oldest goes first).  A job deleted while it runs (``FileJobs.delete``) stops
before its next chunk, or its file's next block as the file is read or written
(attnmt.documents.stop_points), and its translation is never written.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from attnmt.decoding.quality import low_quality_threshold
from attnmt.documents.failed import FileFailed
from attnmt.documents.files import translate_file_bytes, translated_name
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.documents.stop_points import stopped_by
from attnmt.errors import LeftUntranslated, UserError, collected_warnings
from attnmt.server.access import Refused
from attnmt.server.batcher import SHUTTING_DOWN, Busy
from attnmt.server.client_text import log_failure, what_failed
from attnmt.server.file_sample import read_through
from attnmt.server.file_translator import BatchedTranslator, Cancelled, unnoted
from attnmt.server.models import ServedModel, ServeSettings

JOB_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
FILE_LOG = logging.getLogger("attnmt.model")
# How a server's refusal of a file with macros ends (DocumentOptions.macros_hint): its clients
# cannot have them accepted, its operator can (ServeSettings.allow_macros).
MACROS_HINT = "this server does not translate them; its operator can allow them with attnmt serve --allow-macros"
# And of a .xlf file that is no XLIFF: the flag that has it read as plain XML is no client's to give.
XLIFF_HINT = "sent with a name ending .xml, it is translated as plain XML"


@dataclass(frozen=True)
class JobOptions:
    """What a job does besides translating its file."""

    review: bool = False  # assess each sentence, keep those under the threshold (attnmt.documents.review)
    min_quality: float | None = None  # the review's threshold (None: the model's calibration's, else LOW_QUALITY)
    wait_for_characters: bool = False  # over the key's characters a minute: wait for room (else fail)
    wait_for_turn: bool = False  # max_file_jobs translating: wait for one to end, as many waiting at most (else Busy)


JUST_TRANSLATE = JobOptions()
# A file whose client waits for it, or polls as DeepL's clients do, where neither API answers "busy": its turn
IN_TURN = JobOptions(wait_for_turn=True)


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
    refused: Refused | None = None  # failed over its key's characters a minute (or more than it may ever send)
    waiting: str | None = None  # what a running job waits for: "characters" (its key's a minute), "queue" (the
    # model's) or "turn" (one of the max_file_jobs places, JobOptions.wait_for_turn)
    path: Path | None = None  # the translation, once done
    review: Review | None = None  # the sentences that need review, once done (JobOptions.review)
    warnings: list[str] = field(default_factory=list)  # what its reader warned of (errors.collected_warnings)
    left_untranslated: list[str] = field(default_factory=list)  # those of them that say a part was (LeftUntranslated)
    calibrated: bool = False  # whether the review's quality is calibrated (attnmt.decoding.calibration)
    finished_at: float | None = None
    cancelled: threading.Event = field(default_factory=threading.Event, repr=False)
    changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def notify(self) -> None:
        """Wakes whoever follows the job (its events), for them to read its new state."""
        self.changed.set()
        self.changed = asyncio.Event()

    def progressed(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self.notify()

    def wait(self, why: str | None) -> None:
        """The job waits for ``why`` ("characters", "queue"), or no longer waits (None)."""
        if why != self.waiting:
            self.waiting = why
            self.notify()

    def fail(self, detail: str, user_error: bool = False, refused: Refused | None = None) -> None:
        """The job fails with ``detail``, unless it has already: once deleted, or failed by a stopping
        server (FileJobs.stop), what its thread ends with is no one's answer any more."""
        if self.state == "running":
            self.state, self.detail, self.user_error, self.waiting = "failed", detail, user_error, None
            self.refused = refused

    def status(self) -> dict:
        answer = {"id": self.id, "filename": self.filename, "state": self.state, "done": self.done,
                  "total": self.total}
        if self.waiting is not None:
            answer["waiting"] = self.waiting
        if self.warnings:
            answer["warnings"] = self.warnings
        return answer if self.detail is None else {**answer, "detail": self.detail}


class FileJobs:
    """The server's file jobs; ``async with`` it while the server runs (it owns their folder), inside
    the batchers' ``async with``: on leaving, the jobs' threads stop at their next chunk, while the
    batchers still answer the chunks in flight."""

    def __init__(self, settings: ServeSettings, clock: Callable[[], float] = time.monotonic,
                 log_text: bool = False) -> None:
        self.settings = settings
        self.log_text = log_text  # --log-text: a failure's lines hold the sentences it quotes
        self.clock = clock
        self.jobs: dict[str, FileJob] = {}
        self.tasks: set[asyncio.Task] = set()
        self.folder: Path | None = None
        self.stopping = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, where its jobs are answered
        self.turns = asyncio.Semaphore(settings.max_file_jobs)  # the places to translate in, in the order asked for
        self._folder: tempfile.TemporaryDirectory | None = None

    async def __aenter__(self) -> FileJobs:
        self.loop = asyncio.get_running_loop()
        self.turns = asyncio.Semaphore(self.settings.max_file_jobs)  # of this loop: a semaphore binds to its first
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
        """Jobs at work or waiting for their turn, a deleted one included until its chunk in flight is done."""
        return sum(not task.done() for task in self.tasks)

    def start(self, served: ServedModel, data: bytes, filename: str, charge: Callable[[list[str]], None],
              options: JobOptions = JUST_TRANSLATE, note: Callable[[list[str], list[str]], None] = unnoted,
              ) -> FileJob:
        """A new job translating ``data`` (named ``filename``) with ``served``, each chunk's sentences
        charged first (``charge``: their characters) and its sentences and translations given to ``note`` once done
        (BatchedTranslator); Busy when ``max_file_jobs`` are running already (check_room)."""
        self.sweep()
        self.check_room(options.wait_for_turn)
        job = FileJob(secrets.token_urlsafe(16), translated_name(filename, served.target))
        self.jobs[job.id] = job
        task = asyncio.create_task(self.run(job, served, data, filename, charge, options, note),
                                   name=f"attnmt-file-{job.id[:6]}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    async def given_back(self, data: bytes, filename: str, target: str,
                         charge: Callable[[list[str]], None]) -> FileJob:
        """A job done at once, its file ``data`` as it came (named ``filename``, in ``target`` already), as
        LibreTranslate translates a language into itself: no model reads it, no place of ``max_file_jobs`` is
        taken, and it is named, downloaded and deleted as a translation is (``report.de.txt``).  UserError
        where its translation would have failed on the file (read_through, with a job's hints).  The sentences
        read are charged (``charge``: their characters, as a translation's chunks are; Refused, which names the
        file as a job's failure does); a file given back free let a key pass any amount through."""
        reading = DocumentOptions(source_lang=target, source_lang_known=False, macros=self.settings.allow_macros,
                                  macros_hint=MACROS_HINT, xliff_hint=XLIFF_HINT)
        sentences = await asyncio.to_thread(read_through, data, filename, reading, self.settings.max_file_bytes)
        try:
            charge(sentences)
        except Refused as refused:
            raise Refused(refused.reason, f"{filename}: {refused}", refused.retry_after) from None
        self.sweep()
        job = FileJob(secrets.token_urlsafe(16), translated_name(filename, target))
        path = self.folder / job.id
        await asyncio.to_thread(path.write_bytes, data)
        job.path, job.state, job.finished_at = path, "done", self.clock()
        self.jobs[job.id] = job
        return job

    def failed(self, filename: str, target: str, detail: str) -> FileJob:
        """A job failed at once for its file's fault (``detail``), as DeepL fails a document it finds in its
        target language after taking it: no model reads the file, no place of ``max_file_jobs`` is taken, and its
        status says why as any failed job's does, until it is swept as one."""
        self.sweep()
        job = FileJob(secrets.token_urlsafe(16), translated_name(filename, target))
        job.fail(detail, user_error=True)
        job.finished_at = self.clock()
        self.jobs[job.id] = job
        return job

    def check_room(self, wait_for_turn: bool = False) -> None:
        """Raises Busy when ``max_file_jobs`` are running already, or for a job that waits for its turn
        (JobOptions.wait_for_turn), when as many wait too: their files are held in memory as they wait.  The
        APIs ask before they charge a file's requests (file_charges.charged_file): a file refused for want of room
        costs its key no more than any refused request, and a client retrying after Retry-After is not locked out."""
        running, most = self.running, self.settings.max_file_jobs
        if running >= most * (2 if wait_for_turn else 1):
            files = "1 file is" if running == 1 else f"{running} files are"
            busy = f"{files} being translated (at most {most} at once)"
            if running > most:  # some wait for their turn
                busy = f"{files} being translated or waiting for their turn (at most {most} at once, as many waiting)"
            raise Busy(f"{busy}; retry shortly")

    async def run(self, job: FileJob, served: ServedModel, data: bytes, filename: str,
                  charge: Callable[[list[str]], None], options: JobOptions,
                  note: Callable[[list[str], list[str]], None]) -> None:
        loop = asyncio.get_running_loop()
        translator = BatchedTranslator(served.batcher, loop, self.settings.file_chunk, charge, self.stopping,
                                       job.cancelled, options.wait_for_characters, waiting=job.wait, note=note,
                                       fits=served.fits, writes=served.writes, judge=served.plausibility)
        review = None
        if options.review:
            threshold = low_quality_threshold(served.calibration, options.min_quality)
            translator.threshold = threshold
            review = Review(translator.taken, threshold)
        document = replace(served.document_options, target_lang=served.target, macros=self.settings.allow_macros,
                           macros_hint=MACROS_HINT, xliff_hint=XLIFF_HINT)

        def progress(done: int, total: int) -> None:  # in the job's thread
            loop.call_soon_threadsafe(job.progressed, done, total)

        def translate(data: bytes) -> bytes:  # in the job's thread: the warnings heard are its own
            # and it stops between blocks as its file is read and written, not only between chunks
            with collected_warnings() as heard, stopped_by(translator.check_going):
                try:
                    # progress after each chunk the batcher translates, not after PROGRESS_STEP sentences
                    return translate_file_bytes(data, filename, translator, document, progress,
                                                self.settings.max_file_bytes, review,
                                                progress_step=self.settings.file_chunk)
                finally:
                    job.warnings = [str(warning) for warning in heard]
                    job.left_untranslated = [str(warning) for warning in heard if isinstance(warning, LeftUntranslated)]

        await self.take_turn(job)
        try:
            translated = await asyncio.to_thread(translate, data)
            del data  # the file is not held while its translation is written
            path = self.folder / job.id
            await asyncio.to_thread(path.write_bytes, translated)
            # Deleted, or failed by the stop, while it was written: never served.  Its last chunk answered as
            # the server stops: a link it would never serve is no answer, its failure is (503, the error
            # event); fail keeps a job's first failure, and one deleted stays so.
            if job.state != "running" or self.stopping.is_set():
                path.unlink()
                job.fail(SHUTTING_DOWN)
            else:
                job.path, job.review, job.calibrated, job.state = path, review, served.calibration is not None, "done"
        except Cancelled:
            pass  # FileJobs.delete has said so to its followers
        except UserError as error:  # the file's fault: its format, its size, its text
            job.fail(str(error), user_error=True)
        except Refused as error:  # its characters, over what its key may translate
            job.fail(f"{filename}: {error}", user_error=True, refused=error)
        except Busy as error:
            job.fail(str(error))
        except FileFailed as error:  # the model's failure on its sentences, naming the file as its client knows it
            self.log_failure(error, translator.failed_on, served.name)
            job.fail(error.line(what_failed(error.failures[0], translator.failed_on)))
        except Exception as error:  # noqa: BLE001 - one file's failure must not stop the server
            self.log_failure(error, translator.failed_on, served.name)
            job.fail(f"translation failed: {what_failed(error, translator.failed_on)}")
        finally:
            self.turns.release()
        job.finished_at = self.clock()
        job.notify()

    async def take_turn(self, job: FileJob) -> None:
        """One of the ``max_file_jobs`` places for ``job``, in the order asked for (``waiting`` "turn" until one
        is free: only a job that waits for its turn finds none, check_room).  One deleted or failed by a stop
        as it waited stops at its file's first block, as a running one would."""
        if self.turns.locked():
            job.wait("turn")
        await self.turns.acquire()
        job.wait(None)

    def log_failure(self, error: Exception, sentences: list[str], model: str) -> None:
        """Logs a job's failure with its traceback, naming ``model`` (a server may serve several): as it
        is with --log-text, else without the ``sentences`` it failed on, which its messages may quote
        (attnmt.server.client_text)."""
        log_failure(FILE_LOG, f"the model {model} failed translating a file", error, sentences, self.log_text)

    def stop(self) -> None:
        """The server stops: no job goes on to its next chunk or block, and every running one fails
        now with "the server is shutting down" (its followers told at once), not once its thread
        next looks: a file being read or written has no chunk to stop at, and a step of its reading
        or writing may take long.  Its thread runs on to its next block; what it ends with is dropped.
        A signal handler may call it: it sets a flag and leaves the rest to the server's loop."""
        self.stopping.set()
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.fail_running)

    def fail_running(self) -> None:
        for job in self.jobs.values():
            if job.state == "running":
                job.fail(SHUTTING_DOWN)
                job.notify()

    def delete(self, job: FileJob) -> None:
        """Forgets ``job``: a running one stops before its next chunk or block, its translation never
        written (its followers get its failure); a finished one's translation is deleted."""
        del self.jobs[job.id]
        if job.state == "running":
            job.cancelled.set()
            job.fail("the job was deleted before its file was translated")
            job.notify()
        elif job.path is not None:
            job.path.unlink(missing_ok=True)

    def sweep(self) -> None:
        """Deletes the jobs finished more than ``file_ttl_s`` ago, then the oldest beyond
        ``max_file_results`` of those done, whose translations wait for their download, and apart
        the oldest beyond as many of those failed: a failed job holds no file, and counted with the
        done ones, a run of broken files pushed out translations nobody had downloaded yet."""
        finished = sorted((job for job in self.jobs.values() if job.finished_at is not None),
                          key=lambda job: job.finished_at)
        expired = [job for job in finished if self.clock() - job.finished_at > self.settings.file_ttl_s]
        for done in (True, False):
            kept = [job for job in finished if (job.state == "done") == done and job not in expired]
            expired += kept[:max(0, len(kept) - self.settings.max_file_results)]
        for job in expired:
            self.delete(job)

    def deleted_when(self) -> str:
        """When a translation is deleted (``sweep``), as a 404 says it: a file pushed out by
        ``max_file_results`` newer ones goes long before ``file_ttl_s`` is up."""
        return (f"{self.settings.file_ttl_s:g} s after it was done, or sooner once more than "
                f"{self.settings.max_file_results} translated files were waiting")

    def get(self, job_id: str) -> FileJob | None:
        self.sweep()
        return self.jobs.get(job_id) if JOB_ID.fullmatch(job_id) else None

    async def finished(self, job: FileJob) -> FileJob:
        """``job``, once it is done or has failed."""
        while job.state == "running":
            await job.changed.wait()
        return job
