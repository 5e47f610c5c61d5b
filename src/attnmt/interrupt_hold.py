"""Ctrl-C from the package's first line to the command line's own handling (attnmt.cli.main.main), and
the signals that would cut a training run's save in two (SaveHold).

``import attnmt`` holds SIGINT first of all (``START.begin``): a Ctrl-C is noted, not raised as
KeyboardInterrupt.  In the ``attnmt`` command the hold lasts until main's handling is in place
(``START.end`` there): a Ctrl-C noted in the second or more of its start ends it with its one line
and status 130, at the next of attnmt.errors.command_line_interrupts' blocks to end or at main's
start, whichever comes first.  Raised where it came, the KeyboardInterrupt was a traceback: in the
modules imported before torch (the first 0.1 s), between the blocks, or inside torch's C++ start,
which swallowed it or ended in C++'s terminate.  In a program that imports attnmt, the hold ends as
soon as the package knows it is no command (attnmt/__init__.py), and a Ctrl-C noted in those
milliseconds is raised there, as it would have been.

Whatever this module imports comes before the hold, so it imports only ``_signal``, the C module
that Python's start has loaded (``signal`` would import ``enum`` first: some 20 ms), and no
``__future__``.  Before the package's first line (Python's own start, its site module, runpy's
search for the package) a Ctrl-C is Python's to handle.
"""

import _signal as signal  # type: ignore[import-not-found]  # signal's C half: no stub, the same functions


class StartHold:
    """SIGINT noted in ``pressed`` from ``begin`` to ``end``, where Python's handler would have raised
    it (a program that installed its own, or a process started with SIGINT ignored, keeps that) and
    this is the main thread, the only one that can set a handler."""

    def __init__(self) -> None:
        self.pressed: list[int] = []
        self.holding = False

    def begin(self) -> None:
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return
        try:
            signal.signal(signal.SIGINT, self.note)
        except ValueError:  # not the main thread: a thread importing attnmt cannot hold it
            return
        self.holding = True

    def note(self, number: int, frame: object) -> None:
        self.pressed.append(number)

    def end(self) -> None:
        """Python's handler back, and a Ctrl-C noted meanwhile raised now, as KeyboardInterrupt."""
        if not self.holding:
            return
        signal.signal(signal.SIGINT, signal.default_int_handler)
        self.holding = False
        if self.pressed:
            self.pressed.clear()
            raise KeyboardInterrupt


START = StartHold()


class SaveHold:
    """``with SaveHold():`` a block that a signal must not cut in two: a training run's save, whose
    checkpoint and model.safetensors are written one after the other.  SIGINT, SIGTERM and SIGHUP,
    where a handler of Python's takes them (Python's own raises KeyboardInterrupt, the command's
    raises Terminated: attnmt.cli.main.ended_by_signals; the training loop's StopFlag notes them), are
    noted in the block and handed to that handler once the block has ended whole; an error of the
    block's own goes on as it came.  Raised where it came, after its loop (where the StopFlag no longer
    takes it), a Ctrl-C left the run's last steps unsaved, or its checkpoint saved and not its weights."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def __init__(self) -> None:
        self.held: dict = {}  # each signal held, by number: the handler it was taken from
        self.pressed: list[int] = []

    def __enter__(self) -> "SaveHold":
        for number in self.SIGNALS:
            handler = signal.getsignal(number)
            if not callable(handler):  # the default action (a kill, which atomic writes survive), ignored, or C's
                continue
            try:
                signal.signal(number, self.note)
            except ValueError:  # not the main thread: no handler can be set
                break
            self.held[number] = handler
        return self

    def note(self, number: int, frame: object) -> None:
        self.pressed.append(number)

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        for number, handler in self.held.items():
            signal.signal(number, handler)
        if kind is not None:  # the block's own error ends the run: a signal noted meanwhile adds nothing
            return
        for number in self.pressed:
            self.held[number](number, None)
