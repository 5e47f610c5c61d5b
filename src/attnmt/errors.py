"""One family of errors for a user's mistakes: what was wrong, where (file, line or key), and how to fix it.

The command line prints a UserError as one line and exits with status 2; anything
else is a bug in attnmt and keeps its traceback.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import unicodedata
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from attnmt.interrupt_hold import START

# What Ctrl-C ends a command with: this line, and 128 + SIGINT, the status a shell gives a process
# that Ctrl-C ended (attnmt.cli.main, and the package's import while the command loads torch).
INTERRUPTED = "attnmt: interrupted"
INTERRUPTED_STATUS = 130


class UserError(ValueError):
    """A mistake the user can fix; the message says what, where and how."""


class ConfigError(UserError):
    """A configuration key or value is wrong; the message names it."""


class DataError(UserError):
    """Bad input data; the message names the file and line."""


class ModelDirError(UserError):
    """A model directory or one of its files is missing, corrupt or does not match."""


class OutputError(UserError):
    """Output could not be written (a full disk, an I/O error); the message names where and why."""


class ConversionError(UserError):
    """A model cannot be converted (an unsupported setting, a missing dependency); the message says why."""


class NonFiniteLoss(UserError):
    """Training produced a NaN or infinite loss and ``on_nonfinite`` is "stop"."""


class AttnmtWarning(UserWarning):
    """Something the user should know about their input, model or machine that did not stop the
    work; the message says what, where and what to do.  The command line shows it as one line."""


class LeftUntranslated(AttnmtWarning):
    """A part of the input left untranslated, and why (a subtitle block without a timing line): a
    file of which nothing was translated is refused naming it where its answer has no place for
    warnings (LibreTranslate's /translate_file), its messages parted by "; " there, so none holds
    one.  Other warnings say what was repaired or kept as text: a file with nothing to translate
    that heard only those is no less done."""


def shown(text: str, other: str) -> str:
    """``text`` as an error shows it beside ``other`` (a glossary term beside the term as the
    vocabulary writes it): its repr, and where the two differ only in Unicode's compatibility forms
    (NFKC: "µ", the micro sign, is "μ"; "ﬁ" is "fi"), which their reprs may show alike, its code
    points too, but for a text of printable ASCII, which shows as it is: "'µm' ('\\u00b5m')"."""
    plain = text.isascii() and text.isprintable()
    if plain or unicodedata.normalize("NFKC", text) != unicodedata.normalize("NFKC", other):
        return repr(text)
    # a quote or backslash escaped too, so that the code points read as a Python string (the server's
    # log writes each quoted text as its length: attnmt.server.client_text.without_text)
    points = "".join(f"\\{c}" if c in "'\\" else c if c.isascii() and c.isprintable() else f"\\u{ord(c):04x}"
                     if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in text)
    return f"{text!r} ('{points}')"


# The most characters of a value that an error line shows: what the user gave may be of any length
# (a 4,000-digit number where a glossary's target term belongs), and an error is one line.
SHOWN_AT_MOST = 80


def value_shown(value: object) -> str:
    """``value`` as an error line shows what the user gave: its repr, which makes invisible
    characters visible ("'text\\x00'"), cut after SHOWN_AT_MOST characters with "…" and the length
    of the whole: "'yyyy…' (4,002 characters)"."""
    text = repr(value)
    if len(text) <= SHOWN_AT_MOST:
        return text
    return f"{text[:SHOWN_AT_MOST]}… ({len(text):,} characters)"


def values_shown(values: list, at_most: int = 5) -> str:
    """``values`` (the unknown keys of a JSONL line) as an error line lists them: each as
    ``value_shown`` shows it, so that an invisible character shows ("text\\x00" read as "text "
    beside "text"), the first ``at_most`` and how many more: "'id', 'meta'"."""
    more = f" and {len(values) - at_most} more" if len(values) > at_most else ""
    return ", ".join(value_shown(value) for value in values[:at_most]) + more


class UnreadableJSON(json.JSONDecodeError):
    """JSON that Python's reader cannot take, though it breaks no rule of JSON's: arrays or objects
    nested more deeply than its recursion reaches, or a whole number of more digits than int() reads
    (sys.get_int_max_str_digits(), 4300 unless set).  The reader tells no place for either, so its
    text is the reason alone ("nested too deeply") and its ``pos`` 0, as for no place elsewhere."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, "", 0)

    def __str__(self) -> str:
        return self.msg


def json_value(text: str | bytes, **hooks: Any) -> Any:
    """``json.loads(text, **hooks)``, failing as json.JSONDecodeError wherever ``text`` is JSON it
    cannot read, so that the one ``except`` of each reader names the file in one line: deep nesting
    ("[" * 100000) raised RecursionError and a number of 5000 digits ValueError, each a traceback.
    A UnicodeDecodeError (bytes that are not UTF-8), and an error a hook raises, stay as they are.

    Read first without json_whole_number, which runs once for every whole number (a 58,000-piece
    vocab.json took 1.7 times as long: issue 44, a one-line job's start-up); only where that fails
    with int()'s ValueError, or a hook's, is the text read again with it, which fails at the same
    number with the error that names it, or raises the hook's error as the first reading did."""
    try:
        try:
            return json.loads(text, **hooks)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise
        except ValueError:
            return json.loads(text, **{"parse_int": json_whole_number, **hooks})
    except RecursionError:
        raise UnreadableJSON("nested too deeply") from None


def json_whole_number(digits: str) -> int:
    """A JSON whole number as int() reads it; UnreadableJSON for one of more digits than int() reads."""
    try:
        return int(digits)
    except ValueError:
        raise UnreadableJSON(f"a number too long: {len(digits.lstrip('-'))} digits, where Python reads "
                             f"at most {sys.get_int_max_str_digits()}") from None


# Where the warnings of the work done in this context go (collected_warnings), if anywhere.
COLLECTED: ContextVar[list[AttnmtWarning] | None] = ContextVar("attnmt_collected_warnings", default=None)


def warn(message: str, stacklevel: int = 1, category: type[AttnmtWarning] = AttnmtWarning) -> None:
    """An AttnmtWarning (or ``category``) about the user's input: into collected_warnings' list where
    this context collects them, else Python's warnings.warn (``stacklevel`` as its, counted from the caller)."""
    collected = COLLECTED.get()
    if collected is None:
        warnings.warn(message, category, stacklevel=stacklevel + 1)
    elif all(str(heard) != message for heard in collected):
        collected.append(category(message))


@contextmanager
def collected_warnings() -> Iterator[list[AttnmtWarning]]:
    """The warnings ``warn`` gives within the block, each once, in order, and not shown: a
    server's file job collects its reader's for its client (attnmt.server.file_jobs), where they
    went to the server's stderr.  Only this context's: a context variable, which each thread has
    its own of (asyncio.to_thread runs its function in a copy of its task's), where
    warnings.catch_warnings is the whole process's, so jobs in threads side by side would take
    each other's; and each job hears each of its warnings, where Python shows a warning once per
    place of the code and message, so a second job of the same file heard none."""
    collected: list[AttnmtWarning] = []
    token = COLLECTED.set(collected)
    try:
        yield collected
    finally:
        COLLECTED.reset(token)


@contextmanager
def command_line_interrupts() -> Iterator[None]:
    """Ctrl-C within the block ends the ``attnmt`` command as Ctrl-C ends a running one (INTERRUPTED,
    INTERRUPTED_STATUS), not with a traceback: the block is the package's import of torch, a second
    or more of every command's start, before attnmt.cli.main's handling is in place.  In any other
    process (a program that imports attnmt) the KeyboardInterrupt goes on as it came.

    In the command, a SIGINT within the block is held until its end (interrupts_held): raised inside
    torch's C++ start, which imports NumPy, the KeyboardInterrupt was swallowed there (NumPy taken as
    missing: the command went on, or failed later on NumPy's half import), or ended the process in
    C++'s terminate (status -6).  Within the hold of the command's whole start (attnmt.interrupt_hold),
    the block's end is where a SIGINT noted since the package's first line ends the command."""
    pressed: list[int] = []
    try:
        with interrupts_held(pressed):
            yield
    except KeyboardInterrupt:
        if not is_the_command_line():
            raise
        pressed.append(signal.SIGINT)
    if pressed or (START.holding and START.pressed):
        ignore_further_interrupts()
        print(INTERRUPTED, file=sys.stderr)
        raise SystemExit(INTERRUPTED_STATUS)


@contextmanager
def interrupts_held(pressed: list[int]) -> Iterator[None]:
    """Within the block, a SIGINT is noted in ``pressed`` instead of raising KeyboardInterrupt, where this
    process is the ``attnmt`` command and SIGINT raises it (Python's handler: one started in the
    background, SIGINT ignored, keeps that); the handler is put back after."""
    held = (is_the_command_line() and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    if not held:
        yield
        return
    signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def ignore_further_interrupts() -> None:
    """Ignores SIGINT from here on where this process is the ``attnmt`` command and has only its exit
    left: Ctrl-C has stopped it and it now prints INTERRUPTED, or its command has returned, its result
    printed (attnmt.cli.main.main).  A SIGINT in the interpreter's teardown, whose handler is then the
    default, ended the process with status 130 and no line after a success.  ``timeout -s INT`` sends SIGINT twice,
    to the process and then to its group, as a second Ctrl-C does: one arriving in the interpreter's
    teardown printed "Exception ignored in atexit callback … KeyboardInterrupt" after that line.
    In any other process (a program or test that calls attnmt.cli.main.main) SIGINT keeps its handler."""
    if is_the_command_line() and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        forget_handled_interrupts()


def forget_handled_interrupts() -> None:
    """Clears CPython's note of a KeyboardInterrupt that left code run from a string (exec or eval of
    text, which dataclasses and namedtuple use to make their methods as a module loads).  At the very
    end of ``python -m attnmt`` CPython takes that note for a Ctrl-C that no one handled, and ends the
    process by SIGINT (status -2, 130 in a shell) whatever status the command chose: after the
    command's "interrupted" line, or after a success where a library had handled the Ctrl-C.  Every
    exec of a string clears the note as it begins (CPython's run_eval_code_obj: 3.8 to 3.13 alike), so
    an empty one does; SIGINT is ignored by then, so no later Ctrl-C makes the note again."""
    exec("")


def is_the_command_line() -> bool:
    """Whether this process is the ``attnmt`` command, as read while the package was imported."""
    return STARTED_AS_THE_COMMAND


# The standard library's modules that run a module their own arguments name, with the flag that names
# it: the profilers, the debugger and the tracer (``python -m cProfile -o p.out -m attnmt …``).
MODULE_RUNNERS = {"cProfile": "-m", "profile": "-m", "pdb": "-m", "trace": "--module"}


def started_as_the_command(argv: list[str], orig_argv: list[str]) -> bool:
    """Whether a process whose ``sys.argv`` and ``sys.orig_argv`` these are, read while attnmt is
    imported, is the ``attnmt`` command: ``python [options] -m attnmt …`` (torchrun's way), the same
    run by one of MODULE_RUNNERS, or the script an installer put in this Python's scripts directory.
    Only the interpreter's own arguments, and a runner's, are read: a program given ``-m attnmt``
    among its own arguments, or a script of the user's that is named attnmt, imports attnmt as a
    library."""
    module, arguments = interpreters_module(orig_argv)
    if module == "attnmt" or (module in MODULE_RUNNERS and runs_attnmt(MODULE_RUNNERS[module], argv, arguments)):
        return True
    return bool(argv) and is_the_installed_script(argv[0])


def interpreters_module(orig_argv: list[str]) -> tuple[str, list[str]]:
    """The module that the interpreter's own options name, and the arguments after it (the module's);
    ("", []) where it ran a script, ``-c`` code or stdin.  The module follows -m alone or the flags
    that the m ends ("-Imattnmt"); -c, -W and -X end a group of flags too, taking the rest or the next
    argument as their value, as --check-hash-based-pycs takes the next."""
    words = iter(orig_argv[1:])
    for word in words:
        if word == "--check-hash-based-pycs":
            next(words, None)
        elif word.startswith("-") and not word.startswith("--") and word != "-":
            letters = word[1:]
            valued = next((i for i, letter in enumerate(letters) if letter in "cmWX"), None)
            if valued is not None:
                value = letters[valued + 1:] or next(words, "")
                if letters[valued] == "m":
                    return value, list(words)
                if letters[valued] == "c":
                    return "", []
        elif not word.startswith("--"):  # the script, or "-" for stdin
            return "", []
    return "", []


def runs_attnmt(flag: str, argv: list[str], arguments: list[str]) -> bool:
    """Whether a module runner given ``arguments`` runs attnmt: they say ``flag attnmt``, and ``argv``
    is theirs still (pdb and trace find the module before they hand it argv) or what they hand it
    ("attnmt" and the arguments after it: cProfile, profile).  A program that the runner ran, given
    the same words among its own arguments (``python -m pdb a.py -m attnmt``), has an argv of its own."""
    for i in range(len(arguments) - 1):
        if arguments[i:i + 2] == [flag, "attnmt"]:
            return argv[1:] in (arguments, arguments[i + 2:])
    return False


def is_the_installed_script(path: str) -> bool:
    """Whether ``path`` is the ``attnmt`` script that pip or uv wrote into this Python's scripts
    directory, or into the user's (``pip install --user``); a symbolic link to it (pipx's) counts."""
    script = Path(path)
    if script.stem != "attnmt":
        return False
    import sysconfig  # here, not at the top: a millisecond that only the command's start pays

    places = {sysconfig.get_path("scripts"), sysconfig.get_path("scripts", sysconfig.get_preferred_scheme("user"))}
    return script.resolve().parent in {Path(place).resolve() for place in places}


# Read once, now: runpy and the runners change sys.argv once they have found the module to run.
STARTED_AS_THE_COMMAND = started_as_the_command(sys.argv, sys.orig_argv)
