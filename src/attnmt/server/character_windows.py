"""Each API key's characters a minute (a keys file's ``chars-per-minute=N``, attnmt.server.access): a moving
one-minute window, as the ``limits`` package keeps a key's requests, but one whose charges can be given back.
A request refused after it was charged because the model's queue is full (503), or one the model failed on (500),
costs its key nothing: a client retrying it is not held back by characters never translated.
The ``limits`` package takes nothing back, so the characters are kept here.  Charged and given back on the
server's event loop alone, as every request's limits are."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

WINDOW_S = 60.0  # a key's characters count for a minute after they were charged


@dataclass(eq=False)  # one charge is told from another of the same size by identity: give_back removes that one
class Charge:
    """``characters`` charged to the key on ``line`` of the keys file, at ``time`` (the windows' clock)."""

    line: int
    characters: int
    time: float


class CharacterWindows:
    """The charges of each key (by its line) in the last minute, oldest first."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.charges: dict[int, deque[Charge]] = {}

    def wait(self, line: int, characters: int, most: int) -> float:
        """The seconds until the key on ``line``, which may have ``most`` characters a minute, has room for
        ``characters`` more (0: it has now): until enough of its oldest charges have left the window."""
        now = self.clock()
        window = self.current(line, now)
        held = sum(charge.characters for charge in window)
        room_at = now
        for charge in window:
            if held + characters <= most:
                break
            held -= charge.characters
            room_at = charge.time + WINDOW_S
        return room_at - now

    def charge(self, line: int, characters: int) -> Charge:
        """Charges ``characters`` to the key on ``line`` now (``wait`` says whether it has room)."""
        charge = Charge(line, characters, self.clock())
        self.current(line, charge.time).append(charge)
        return charge

    def give_back(self, charge: Charge) -> None:
        """Takes ``charge`` out of its key's window, where it has not left it already."""
        window = self.charges.get(charge.line, deque())
        if charge in window:
            window.remove(charge)

    def current(self, line: int, now: float) -> deque[Charge]:
        """The charges of the key on ``line`` still in its window at ``now``."""
        window = self.charges.setdefault(line, deque())
        while window and window[0].time <= now - WINDOW_S:
            window.popleft()
        return window
