"""The process's standard streams, made safe before a command runs and flushed after it (attnmt.cli.main.entry):
a stream the shell closed stands in as one that fails in one line (``stand_in_for_closed_streams``), standard
output's reader may go (``| head``) without stopping the command (``write_stdout_till_its_reader_goes``), and
what standard output still holds is written, a failed write named (``flush_stdout``).
"""

from __future__ import annotations

import io
import os
import sys

from attnmt.cli.lines import quiet_stdout
from attnmt.errors import DataError
from attnmt.files import write_failure


class ClosedInput(io.RawIOBase):
    """Standard input that the shell closed (``<&-``): reading it is one line naming it, exit status 2."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise DataError("could not read <stdin>: it is closed; give the input file")


def stand_in_for_closed_streams() -> None:
    """Where the shell closed standard input, output or error (``<&-``, ``>&-``, ``2>&-``), Python
    leaves sys.stdin, sys.stdout or sys.stderr None: ``print`` then writes an error meant for stderr
    to stdout, and the first read or write of the other two fails with a traceback.  Each closed
    descriptor is taken by /dev/null (so that no file opened later gets its number, where a library
    writing to descriptor 1 or 2 would write into that file): for output, opened for reading only,
    so that every write fails as a write to a closed descriptor does and is named in one line
    ("could not write <stdout>: …", exit status 2); for errors, for writing (they go nowhere; the
    exit status still says how the command ended).  A closed stdin reads as ClosedInput."""
    for number, name, flags in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_RDONLY), (2, "stderr", os.O_WRONLY)):
        if getattr(sys, name) is not None:
            continue
        null = os.open(os.devnull, flags)
        if null != number:
            os.dup2(null, number)
            os.close(null)
        stream = (io.TextIOWrapper(ClosedInput(), encoding="utf-8") if name == "stdin" else
                  open(number, "w", encoding="utf-8", errors="backslashreplace", closefd=False))
        setattr(sys, name, stream)


class ReaderMayGo(io.FileIO):
    """Standard output's descriptor, written as it is until its reader goes (EPIPE: ``| head -1`` has
    what it wanted), then pointed at /dev/null (quiet_stdout).  A line a command writes to sys.stdout
    after that (training's progress, the flush multiprocessing does before it starts a worker) then
    goes nowhere, where its BrokenPipeError stopped the command half-way through its work."""

    def write(self, data: bytes) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            quiet_stdout()
            return super().write(data)  # to /dev/null


def write_stdout_till_its_reader_goes() -> None:
    """sys.stdout, written through ReaderMayGo, buffered, encoded and flushed as before.  What a
    command writes as its output (``attnmt translate``'s translations, attnmt.cli.lines.output) goes
    to the descriptor itself: a reader that goes stops translate (main)."""
    stdout = sys.stdout
    try:
        raw = ReaderMayGo(stdout.fileno(), "wb", closefd=False)
    except (AttributeError, OSError, ValueError):  # no descriptor to write (an embedding's stdout)
        return
    stdout.flush()
    buffered = isinstance(stdout.buffer, io.BufferedWriter)  # not with PYTHONUNBUFFERED
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw) if buffered else raw, encoding=stdout.encoding,
                                  errors=stdout.errors, line_buffering=stdout.line_buffering,
                                  write_through=stdout.write_through)


def flush_stdout(code: int) -> int:
    """Writes what standard output still holds; returns the exit status: ``code``, or 2 with one
    line on stderr where the write fails (a full disk), so that no output ends short silently."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (| head): what it did not read is not wanted
        quiet_stdout()  # the interpreter's own flush at exit stays quiet
    except OSError as error:
        return code or stdout_failed(error)
    return code


def stdout_failed(error: OSError) -> int:
    """One line on stderr naming a failed write to standard output, which then goes nowhere (the
    interpreter's flush at exit stays quiet); returns the exit status, 2."""
    print(f"attnmt: error: could not write <stdout>: {write_failure(error)}", file=sys.stderr)
    quiet_stdout()
    return 2
