"""The command line: ``attnmt prepare | train | average | demo | translate | evaluate | calibrate | score |
attention | explain | plot | export | import | serve | shortlist | build-ext | doctor | cache``; each command's home
is a module of attnmt.cli.commands, the options several share are declared once in attnmt.cli.options.

User mistakes (a bad config key, a missing file, a broken model directory)
print one clear line and exit with status 2, never a stack trace.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from attnmt import __version__
from attnmt.cli.standard_streams import (
    flush_stdout,
    stand_in_for_closed_streams,
    stdout_failed,
    write_stdout_till_its_reader_goes,
)
from attnmt.errors import (
    INTERRUPTED,
    INTERRUPTED_STATUS,
    AttnmtWarning,
    UserError,
    command_line_interrupts,
    ignore_further_interrupts,
)
from attnmt.interrupt_hold import START

# Ctrl-C while the commands load (a second, after the package's own guarded start): the command's one
# line, not this import's traceback; main's own handling is not in place yet.
with command_line_interrupts():
    from attnmt.cli.commands import (
        build_ext,
        cache,
        doctor,
        evaluate,
        interop,
        pictures,
        quality,
        serve,
        shortlist,
        train,
        translate,
    )
    from attnmt.cli.commands.train import OWN_FLAGS

USER_ERRORS = (UserError, FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)
# Optional dependencies, by the extra that installs them (pip install 'attnmt[serve]', or [all]).
EXTRAS = {"fastapi": "serve", "uvicorn": "serve", "lingua": "serve", "limits": "serve", "prometheus_client": "serve",
          "python_multipart": "serve", "matplotlib": "plot", "tensorboard": "tensorboard",
          "transformers": "export", "ctranslate2": "export"}


def torch_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("torch")
    except PackageNotFoundError:
        return "not installed"


class CommandParser(argparse.ArgumentParser):
    """A command's parser: its options and its positional arguments in any order
    (``translate in.txt --beam 2 out.txt``), and an argument it cannot place refused with the
    command's own usage.  argparse's parse_args hands every positional its value at the first run
    of them: ``in.txt`` then took INPUT and an empty OUTPUT, and ``out.txt`` was left over, refused
    with the usage of ``attnmt`` alone.  A command with commands of its own (``plot``) parses as
    argparse does, its commands then each with this parser.  No option is taken by a prefix of its
    name (``--min-q`` for --min-quality): a new option would make such a prefix ambiguous, and a
    script that worked would stop; train and prepare, whose config keys are options too, never took one."""

    mixing = False  # within parse_mixed, whose two passes call parse_known_args themselves

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})

    def _print_message(self, message: str, file: IO[str] | None = None) -> None:
        """argparse drops a failed write of its help or version (``--help > /dev/full`` ended with status
        0 and nothing written): a write to stdout is flushed here, and its failure is one line, status 2."""
        if file is not sys.stdout or not message:
            super()._print_message(message, file)
            return
        try:
            file.write(message)
            file.flush()
        except OSError as error:
            raise SystemExit(stdout_failed(error)) from None

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        if self.mixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self.mixing = True
        argv = list(sys.argv[1:] if args is None else args)
        try:
            namespace, extras = self.parse_mixed(argv, namespace)
            namespace.given = self.options_given(argv)
        finally:
            self.mixing = False
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    def parse_mixed(self, args: list[str],
                    namespace: argparse.Namespace | None) -> tuple[argparse.Namespace, list[str]]:
        """Reads the options wherever they stand before a ``--``, then fills the positionals in
        order: first the arguments left before the ``--``, then those after it
        (``translate in.txt --model M -- -out.txt``).  argparse's parse_intermixed_args does the
        same in two passes but loses the ``--`` (Python 3.11 to 3.13): the arguments after it were
        read as options, or left over.  Here the first pass never sees the ``--``; the second gets
        it with what follows."""
        cut = args.index("--") if "--" in args else len(args)
        usage = self.usage
        self.usage = usage or self.format_usage()[len("usage: "):]  # errors name the positionals too
        try:
            with self.positionals_off():
                namespace, left = super().parse_known_args(args[:cut], namespace)
            with self.options_done():
                return super().parse_known_args(left + args[cut:], namespace)
        finally:
            self.usage = usage

    def options_given(self, args: list[str]) -> frozenset[str]:
        """The dests of the options on the command line (``--beam 4`` gives ``beam``), whatever
        their values: an option that would do nothing is refused where it was given, also at its
        default's value (compared with the default, ``--beam 4`` was let through).  Read by parsing
        ``args`` again with no defaults, so that only what was given is set."""
        with self.defaults_off():
            read, _ = self.parse_mixed(args, None)
        return frozenset(vars(read)) & {action.dest for action in self._get_optional_actions()}

    @contextlib.contextmanager
    def defaults_off(self) -> Iterator[None]:
        """No option sets its dest unless given (options_given)."""
        optionals = [(action, action.default) for action in self._get_optional_actions()]
        for action, _ in optionals:
            action.default = argparse.SUPPRESS
        try:
            yield
        finally:
            for action, default in optionals:
                action.default = default

    @contextlib.contextmanager
    def positionals_off(self) -> Iterator[None]:
        """The first pass: no positional takes a value, so every argument not an option is left."""
        positionals = [(action, action.nargs, action.default) for action in self._get_positional_actions()]
        for action, _, _ in positionals:
            action.nargs = action.default = argparse.SUPPRESS
        try:
            yield
        finally:
            for action, nargs, default in positionals:
                action.nargs, action.default = nargs, default

    @contextlib.contextmanager
    def options_done(self) -> Iterator[None]:
        """The second pass: a required option was given in the first or not at all."""
        required = [(item, item.required) for item in (*self._get_optional_actions(), *self._mutually_exclusive_groups)]
        for item, _ in required:
            item.required = False
        try:
            yield
        finally:
            for item, was in required:
                item.required = was


def build_parser() -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="attnmt", description="The Transformer of 'Attention Is All You Need': train translation models, "
        "translate, score, look at attention, serve and export them. 'attnmt COMMAND --help' for each command.",
        allow_abbrev=False)
    parser.add_argument("--version", action="version", version=f"attnmt {__version__} (PyTorch {torch_version()})")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)

    for command in (train, translate, evaluate, quality, shortlist, pictures, interop, serve, build_ext, doctor, cache):
        command.add_to(commands)
    return parser


def split_overrides(argv: list[str], flags: set[str]) -> tuple[list[str], dict[str, str | None]]:
    """Separates config overrides from a command's own arguments (``flags`` take a value too).

    An override is ``--key value``, ``--key=value`` or a bare ``--key`` (None: true for a boolean
    key, attnmt.config_options.bare_flag; the config knows which keys take a value); nested keys
    are dotted (``--model.d_model 512``), and dashes in names read as underscores; after ``--``,
    every argument is the command's own, positional.  A prefix of a flag (``--res=M`` for --resume)
    is the command's own too, for its parser to refuse by name, as it refuses any abbreviation: taken
    as a key, it was never named (train without a config said only to give one).  So is one that
    names no key (``--=3``), which raised its error before main could show it, as a traceback.  Done
    by hand because argparse would take an override's value for the optional CONFIG.
    """
    own: list[str] = argv[:1]
    overrides: dict[str, str | None] = {}
    items = argv[1:]
    while items:
        item = items.pop(0)
        if item == "--":  # what follows is positional (a config named "-x.yaml"), as argparse reads it
            own += [item, *items]
            break
        name, has_value, value = item.partition("=")
        abbreviated = len(name) > 2 and any(flag.startswith(name) for flag in flags)
        if name in flags or abbreviated or item in ("-h", "--help") or name == "--" or not item.startswith("--"):
            own.append(item)
            if name in flags and not has_value and items:
                own.append(items.pop(0))
            continue
        key = name[2:].replace("-", "_")
        if has_value:
            overrides[key] = value
        elif items and not items[0].startswith("--"):
            overrides[key] = items.pop(0)
        else:
            overrides[key] = None  # a bare --flag: it switches a boolean key on
    return own, overrides


def parse_command_line(argv: Sequence[str] | None) -> tuple[argparse.Namespace, dict[str, str | None]]:
    """The command's arguments, and the config overrides train and prepare take besides (split_overrides)."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: dict[str, str | None] = {}
    if argv and argv[0] in OWN_FLAGS:
        argv, extra = split_overrides(argv, OWN_FLAGS[argv[0]])
    return parser.parse_args(argv), extra


def interrupted() -> int:
    """Ctrl-C: the command's one line and its status, at whichever stage it came."""
    ignore_further_interrupts()  # the command has unwound: a second SIGINT would only cut its exit short
    print(INTERRUPTED, file=sys.stderr)
    return INTERRUPTED_STATUS


def main(argv: Sequence[str] | None = None) -> int:
    try:  # Ctrl-C while the parser is built (a command's slow import) or the arguments read: as in the command
        START.end()  # the hold of the command's start (attnmt.interrupt_hold): one noted in it is raised here
        args, extra = parse_command_line(argv)
    except KeyboardInterrupt:
        return interrupted()
    try:
        with ended_by_signals():
            code = args.run(args, extra)
            ignore_further_interrupts()  # its result is printed: a Ctrl-C now would only cut the exit short
        return code
    except USER_ERRORS as error:
        print(f"attnmt: error: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        package = (error.name or "").split(".")[0]  # fastapi, not fastapi.middleware: what pip installs
        extra = EXTRAS.get(package)
        if extra is None:
            raise
        print(f"attnmt: error: 'attnmt {args.command}' needs {package}, from the {extra} extra: "
              f"pip install 'attnmt[{extra}]'", file=sys.stderr)
        return 2
    except Terminated as stop:
        print(f"attnmt: stopped by {stop.signal.name}", file=sys.stderr)
        return 128 + stop.signal
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:  # the reader of the output has all it wants (| head): no failure of ours
        return 0


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``timeout``, ``kill``, a closed terminal): the command ends as Ctrl-C ends it,
    through its ``finally`` blocks, so that no half-written output is left beside the one it replaces."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal = signal.Signals(signal_number)


@contextlib.contextmanager
def ended_by_signals():
    """SIGTERM and SIGHUP raise Terminated while a command runs (the server and training install
    their own handlers over these, and put them back); the handlers before are put back after."""
    def stop(signal_number: int, frame: object) -> None:
        raise Terminated(signal_number)

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handled = (signal.SIGTERM, signal.SIGHUP)
    before = {number: signal.signal(number, stop) for number in handled}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


# Commands whose process has nothing left to do once they return: the process ends with os._exit,
# skipping the interpreter's teardown of PyTorch's modules (a large share of a short job's wall
# time: docs/design/fast-decoder.md); not where a profiler or tracer watches it (watched).
QUICK_EXIT = ("translate", "evaluate", "score")


def watched() -> bool:
    """Whether a profiler, tracer or debugger watches the process (``python -m cProfile -o p.out -m
    attnmt translate``, coverage, pdb): it writes what it found once the command returns, which
    os._exit skipped (cProfile wrote no file, and printed nothing).  From Python 3.12 cProfile and
    coverage say so to sys.monitoring, not to sys.setprofile or sys.settrace."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(monitoring.get_tool(tool) is not None for tool in (
        monitoring.DEBUGGER_ID, monitoring.COVERAGE_ID, monitoring.PROFILER_ID))


def one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             line: str | None = None, python_s: Callable[..., str] = warnings.formatwarning) -> str:
    """A warning as the command line shows it: attnmt's own (AttnmtWarning, whose text names the
    file, line or key it is about) as one line, ``attnmt: warning: …``, not Python's two (the file
    and line of attnmt's code that warned, then that line of code); every other as Python shows it,
    other libraries' warnings raised inside attnmt's calls included."""
    if not issubclass(category, AttnmtWarning):
        return python_s(message, category, filename, lineno, line)
    text = str(message)
    return f"{text}\n" if text.startswith("attnmt: ") else f"attnmt: warning: {text}\n"


def ended(command: Callable[[], int]) -> int:
    """``command``'s status, argparse's SystemExit (after --help, --version or a usage error) read as
    one, and SIGINT ignored from then on: the command has ended, and its output is flushed as a
    command's is (a failed write named, not a traceback).  A Ctrl-C before that is its caller's, as
    KeyboardInterrupt: one that came while main reported a user's mistake, or after argparse printed
    its help, was a traceback."""
    try:
        code = command()
    except SystemExit as stop:
        if not isinstance(stop.code, int):
            raise
        code = stop.code
    ignore_further_interrupts()
    return code


def entry() -> None:
    """The ``attnmt`` command and ``python -m attnmt``: ``main``, then the process ends."""
    warnings.formatwarning = one_line
    with command_line_interrupts():  # Ctrl-C before main's handling is in place: its one line, not a traceback
        stand_in_for_closed_streams()
        write_stdout_till_its_reader_goes()
    try:
        code = ended(main)
    except KeyboardInterrupt:  # in main's own reporting of an error, or once argparse has printed --help
        code = interrupted()
    code = flush_stdout(code)
    if sys.argv[1:2] and sys.argv[1] in QUICK_EXIT and not watched():
        logging.shutdown()
        with contextlib.suppress(OSError):  # nowhere left to say anything
            sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
