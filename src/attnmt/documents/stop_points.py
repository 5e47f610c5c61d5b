"""Where a document's work may stop between its translate calls: as each block is read (every
format builds its blocks with attnmt.documents.flat.FlatBuilder), split into sentences (its symbols
looked through: attnmt.documents.symbols; its sentences: attnmt.documents.sentences) and written
back (attnmt.documents.pipeline.translate_flats, an office file's jobs finished: attnmt.documents.office).

A caller that must end the work sooner than its next translate call gives a check (``stopped_by``):
a server's file job deleted while a 20,000-paragraph .docx is read held its place among the jobs
at work for the half minute the reading took (attnmt.server.file_jobs).  The check raises what
stops the work, at the next ``stop_point``; nothing is written.  It is a context variable, as
attnmt.errors.collected_warnings' list is: each job's thread has its own, and work done outside
``stopped_by`` (the command line, the library) is never stopped here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

CHECK: ContextVar[Callable[[], None] | None] = ContextVar("attnmt_document_stop_check", default=None)


@contextmanager
def stopped_by(check: Callable[[], None]) -> Iterator[None]:
    """Within the block, every ``stop_point`` calls ``check``, which raises to stop the work."""
    token = CHECK.set(check)
    try:
        yield
    finally:
        CHECK.reset(token)


def stop_point() -> None:
    """Calls the check this context was given (``stopped_by``), if any: what it raises goes on up."""
    check = CHECK.get()
    if check is not None:
        check()
