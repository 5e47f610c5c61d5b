"""Where an output may go, checked before the work that makes it: not over a file the work reads
(``check_not_an_input``, ``check_not_overwritten``), not into stdin (``check_not_stdin``), and where
a file can be written at all (``check_writable``), so that a long job does not end in an error that
loses it."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

from attnmt.errors import ConfigError, UserError
from attnmt.files import is_special_file, temporary_beside


def check_writable(path: Path, raises: type[UserError]) -> None:
    """Raises ``raises`` now where ``atomic_file(path)`` could not start: an output written at the
    end of a long job (a review table) is known to have a place before the work is done."""
    path = Path(path)
    if not is_special_file(path):  # a file made and removed: no folder is made before the job has anything to write
        temporary_beside(path, Path(os.path.realpath(path)), raises, make_folders=False).unlink()


def check_not_stdout(path: str | None, option: str, written: str, instead: str, kind: str = "file",
                     why: str = "'-' names stdin or stdout elsewhere") -> None:
    """ConfigError where ``path``, which ``option`` writes ``written`` into (a ``kind``: file or
    folder), is "-": it cannot go to stdout (``why``), and a file or folder named "-" was written
    without a word.  So is "-" with spaces around it ("- ", a slip of the shell's quotes), which made a
    folder named "- " that looks like "-" in a listing.  ``instead``: a name to suggest."""
    if path is not None and str(path).strip() == "-":
        raise ConfigError(f"{option} - would write {written} into a {kind} named {str(path)!r} ({why}): "
                          f"give {written} a {kind} name ({instead})")


def check_not_an_input(path: str | None, option: str, inputs: dict[str, str | None], instead: str) -> None:
    """ConfigError where ``path`` (what ``option`` writes) is one of the ``inputs`` (their names: the
    file each option reads): the same path written another way, or a hard link to the same file.
    Written there, the output would replace what it was made from.  ``instead``: a name to suggest.
    Stdout ("-") and what is no regular file are left alone, but for the pipe or file that stdin is
    (``check_not_stdin``).  A folder is refused too, before any work, with ``instead``
    in it: an existing one, and a name ending in "/" (Path would drop the slash and write a file of
    the folder's name)."""
    if path in (None, "-"):
        return
    if not str(path).strip():  # Path("") is "." (a folder)
        raise ConfigError(f"the {option} is an empty name: give it a file name ({instead})")
    if str(path).endswith(("/", os.sep)) or Path(path).is_dir():
        raise ConfigError(f"the {option} {path} names a folder: give it a file name ({os.path.join(path, instead)})")
    check_not_overwritten(path, option, inputs, instead)
    check_not_stdin(path, option, inputs, instead)


def check_not_stdin(path: str, option: str, inputs: Mapping[str, str | None], instead: str) -> None:
    """ConfigError where ``path`` is the pipe or file that stdin is (/dev/stdin, /proc/self/fd/0, the
    name of a named pipe or of the file ``<`` gave), named after the one of the ``inputs`` read from it
    ("-"), if any.  Written into stdin's pipe, the output was read back as input, translated and
    written again, without end (stdin not read: into a pipe nothing reads, where a translation longer
    than the pipe holds waited for ever); written over stdin's file, it replaced the text being read (a
    file ``<`` gave that no input reads is left alone: writing it replaces nothing being read).  A
    terminal is left alone: /dev/tty or /dev/stdin as the output of what is typed there is the
    terminal, written to."""
    try:
        written = os.stat(path)
    except OSError:  # an output not there yet is no pipe
        return
    refuse_stdin(written, f"the {option} {path}", inputs, instead)


def check_stdout_not_stdin(option: str, inputs: Mapping[str, str | None], instead: str) -> None:
    """``check_not_stdin`` for an output written to stdout: ConfigError where stdout is the pipe stdin
    is (``translate - - < fifo > fifo``, the same named pipe), which the output would be read back from
    as input without end.  Only a pipe is compared: a file ``>`` gave was emptied before the command
    started, and a terminal as both is what is typed there, translated onto it."""
    try:
        written = os.fstat(1)
    except OSError:  # a closed stdout is refused where it is written (standard_streams)
        return
    if stat.S_ISFIFO(written.st_mode):
        refuse_stdin(written, f"the {option} <stdout>", inputs, instead)


def refuse_stdin(written: os.stat_result, output: str, inputs: Mapping[str, str | None], instead: str) -> None:
    """ConfigError where the file ``written`` (``output``, as an error names it) is stdin's pipe, or
    stdin's file and one of the ``inputs`` reads stdin ("-"): check_not_stdin's rule."""
    try:
        stdin = os.fstat(0)
    except OSError:  # a closed stdin is read as none (standard_streams)
        return
    if not (stat.S_ISFIFO(stdin.st_mode) or stat.S_ISREG(stdin.st_mode)) or (
            (written.st_dev, written.st_ino) != (stdin.st_dev, stdin.st_ino)):
        return
    reading = next((name for name, read in inputs.items() if read == "-"), None)
    if reading is None and stat.S_ISREG(stdin.st_mode):
        return
    why = f", which the {reading} is read from" if reading else ""
    raise ConfigError(f"{output} is <stdin>{why}: give it a file of its own ({instead})")


def check_not_overwritten(path: str | Path, option: str, inputs: Mapping[str, str | Path | None],
                          instead: str) -> None:
    """``check_not_an_input``'s check of ``path`` against the ``inputs`` alone (the Python API's
    attnmt.documents.translate_file, whose folder is refused by the write, naming it)."""
    for name, read in inputs.items():
        if read in (None, "-") or not Path(read).is_file():
            continue
        same = Path(path).resolve() == Path(read).resolve()
        with suppress(OSError):  # an output not there yet is no input
            same = same or os.path.samefile(path, read)
        if same:
            raise ConfigError(f"the {option} {path} is the {name} file: give it a file of its own ({instead})")
