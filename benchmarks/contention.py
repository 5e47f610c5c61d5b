"""A competing CPU-bound process for the benchmarks' ``--contended`` runs, started and stopped by the
benchmark itself, and the load average to print beside each figure.

The competitor is ``python -c 'while True: pass'``: one process that wants a whole core for as long
as it runs, as another job on a shared machine would.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUSY_LOOP = [sys.executable, "-c", "while True: pass"]
SAID = "beside a busy loop (python -c 'while True: pass') that the benchmark starts before each timed process and " \
       "stops after it"


@contextmanager
def competing(contended: bool) -> Iterator[None]:
    """Runs the block beside the busy loop where ``contended``; alone otherwise."""
    if not contended:
        yield
        return
    competitor = subprocess.Popen(BUSY_LOOP)
    try:
        yield
    finally:
        competitor.kill()
        competitor.wait()


def load_average() -> str:
    """The 1-minute load average ("?" where /proc/loadavg is missing)."""
    path = Path("/proc/loadavg")
    return path.read_text().split()[0] if path.exists() else "?"
