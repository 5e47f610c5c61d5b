"""How many threads PyTorch computes with: unless the user fixes the count, as many as the cores
that other processes leave free, looked at again as a run goes on.

A job's threads meet at the end of every parallel region, dozens of times per decoder step.
Where another busy process shares the cores, the scheduler takes a core from one of them now and
then, and the others wait for it a scheduler slice at each meeting: 2 threads beside one busy
process ran slower than 1 (docs/performance.md, "Threads").  So attnmt counts the cores the
others keep busy and runs one thread per core they leave::

    others = (busy ticks of our CPUs − our own ticks) / ticks per CPU    over a window of ≥ 1 s
    free   = min(most, CPUs − others)       most: PyTorch's own count, capped by a cgroup quota

The readings are /proc/stat (per CPU, for the CPUs this process may run on) and /proc/self/stat,
a few tens of µs, taken at most once a second (``CHECK_EVERY_S``) between batches and between
training steps; ``torch.set_num_threads`` is called only when the count changes.  Hysteresis
keeps it from flapping: a thread is dropped once more than half a core is taken from it, and
added back only when three quarters of a core are free (``next_count``).

What fixes the count instead: ``--threads N`` (translate, evaluate, serve, doctor), ``threads: N``
in a training config, ``OMP_NUM_THREADS`` in the environment (then PyTorch's count, which it
sets, is left alone), or ``torch.set_num_threads`` called once attnmt has chosen (it notices the
count changed under it and stops choosing).  Library calls such as ``attnmt.translate`` leave
PyTorch's count alone unless ``follow_free_cores()`` was called; the commands and the trainer
call it.

PyTorch's count is per thread (OpenMP's): a thread that computes, such as the server's model
thread, takes the count of its first computation, so every recheck makes the calling thread's
count the chosen one.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
import warnings
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from attnmt.errors import AttnmtWarning
from attnmt.hardware import MOST_THREADS, omp_thread_count, unusable_omp_count

LOG = logging.getLogger("attnmt.threads")

CHECK_EVERY_S = 1.0  # the most often the cores are looked at
SHORTEST_WINDOW_S = 0.2  # a shorter window holds too few ticks (100 a second) to count cores by
DROP_ABOVE = 0.5  # a thread goes when more than this share of a core is taken from it ...
ADD_FROM = 0.75  # ... and comes back when at least this share of one more core is free


@dataclass(frozen=True)
class Reading:
    """CPU time counters at one moment, in clock ticks (USER_HZ, as /proc counts them)."""

    busy: int  # ticks the CPUs this process may run on spent working, for any process
    total: int  # ticks they spent in all, working or idle
    own: int  # ticks this process spent working (user + system, all its threads)


def cpu_ticks(stat: str, cpus: Collection[int]) -> tuple[int, int, int]:
    """(busy ticks, all ticks, CPUs counted) of ``cpus`` in the text of /proc/stat; all of its CPUs
    where it names none of them (a container's /proc may number them afresh)."""
    rows = {}
    for line in stat.splitlines():
        name, *fields = line.split()
        # ASCII digits alone, as config_ranges.written_whole_number reads them: that module imports
        # numpy, which must wait for hardware.set_process_defaults, and this one is imported before it
        if name.startswith("cpu") and name[3:].isascii() and name[3:].isdigit():
            # user nice system idle iowait irq softirq steal (guest time is counted in user already)
            rows[int(name[3:])] = [int(f) for f in fields[:8]]
    chosen = [rows[cpu] for cpu in cpus if cpu in rows] or list(rows.values())
    busy = sum(r[0] + r[1] + r[2] + r[5] + r[6] + r[7] for r in chosen)
    return busy, busy + sum(r[3] + r[4] for r in chosen), len(chosen)


def own_ticks(self_stat: str) -> int:
    """utime + stime of /proc/self/stat: fields 14 and 15 of proc(5), after the command's name in
    parentheses (which may hold spaces)."""
    fields = self_stat.rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12])


TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # USER_HZ


def others_busy(before: Reading, after: Reading, cpus: int, ticks_per_s: int = TICKS_PER_S) -> float | None:
    """How many CPUs other processes kept busy between two readings (None: too short a window)."""
    ticks_per_cpu = (after.total - before.total) / cpus
    if ticks_per_cpu < SHORTEST_WINDOW_S * ticks_per_s:
        return None
    return max(0.0, (after.busy - before.busy - (after.own - before.own)) / ticks_per_cpu)


def next_count(current: int | None, free: float, most: int) -> int:
    """The thread count for ``free`` cores, from ``current`` (None: the first choice).

    A core counts for one more thread once ADD_FROM of it is free, and a thread is dropped once
    its core is less than DROP_ABOVE free: between the two the count stays, so that a reading
    near a boundary does not make it flap.  At least 1, at most ``most``."""
    adding = max(1, min(most, math.floor(free + 1 - ADD_FROM)))
    keeping = max(1, min(most, math.floor(free + DROP_ABOVE)))
    if current is None or current < adding:
        return adding
    return min(current, keeping)


def cpu_quota(cgroup: str, root: Path = Path("/sys/fs/cgroup")) -> float | None:
    """The CPUs' worth of time this process's cgroups allow it (None: no quota), from the text of
    /proc/self/cgroup: the least quota of its cgroup and those above it, v2 (cpu.max) or v1
    (cpu.cfs_quota_us)."""
    quotas = []
    for line in cgroup.splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "":
            mount, read = root, v2_quota
        elif "cpu" in controllers.split(","):
            mount, read = root / "cpu", v1_quota
        else:
            continue
        folder = mount / path.lstrip("/")
        for level in (folder, *folder.parents):
            quotas.append(read(level))
            if level == mount:
                break
    return min((q for q in quotas if q is not None), default=None)


def v2_quota(folder: Path) -> float | None:
    try:
        quota, period = (folder / "cpu.max").read_text(encoding="utf-8").split()
    except (OSError, ValueError):
        return None
    return None if quota == "max" else int(quota) / int(period)


def v1_quota(folder: Path) -> float | None:
    try:
        quota = int((folder / "cpu.cfs_quota_us").read_text(encoding="utf-8"))
        period = int((folder / "cpu.cfs_period_us").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return None if quota < 0 else quota / period


def usable_cpus() -> list[int]:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def read_proc(cpus: Collection[int]) -> Reading | None:
    """The counters now (None where there is no /proc to read them from)."""
    try:
        busy, total, _ = cpu_ticks(Path("/proc/stat").read_text(encoding="utf-8"), cpus)
        # the command's name, in parentheses there, may be any bytes: not the locale's to refuse
        own = own_ticks(Path("/proc/self/stat").read_text(encoding="utf-8", errors="replace"))
        return Reading(busy, total, own)
    except (OSError, ValueError, IndexError):
        return None


def quota_here() -> float | None:
    try:
        return cpu_quota(os.fsdecode(Path("/proc/self/cgroup").read_bytes()))  # folders, named as paths are
    except (OSError, ValueError):
        return None


def torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def set_torch_threads(count: int) -> None:
    import torch

    torch.set_num_threads(count)


@dataclass(frozen=True)
class Choice:
    """A thread count and why it is the count (for the log and ``attnmt doctor``)."""

    count: int
    why: str


class ThreadCount:
    """The process's thread count: left to PyTorch (until told otherwise), fixed, or following
    the free cores (``follow``), when ``recheck`` looks at them again.  The readings, the clock
    and PyTorch's count come in as functions, so that tests can hand it their own."""

    def __init__(self, cpus: Collection[int], quota: float | None, read: Callable[[], Reading | None],
                 clock: Callable[[], float] = time.monotonic, get_count: Callable[[], int] = torch_threads,
                 set_count: Callable[[int], None] = set_torch_threads) -> None:
        self.cpus, self.quota = len(cpus), quota
        self.read, self.clock, self.get_count, self.set_count = read, clock, get_count, set_count
        self.mode = "left"  # "left" to PyTorch, "fixed", or "auto"
        self.choice: Choice | None = None
        self.most = 0  # auto's largest count
        self.reading, self.read_at = read(), clock()
        self.lock = threading.Lock()
        self.this_thread = threading.local()  # .count: what this thread's count was last made

    def fix(self, count: int, why: str) -> None:
        """Sets PyTorch's count to ``count`` for good."""
        self.set_count(count)
        self._fixed(Choice(count, why))

    def leave(self) -> None:
        """Leaves PyTorch's count as it is and stops choosing it."""
        self.mode, self.choice = "left", None

    def follow(self, environ: Mapping[str, str] = os.environ) -> None:
        """Follows the free cores from now on, up to PyTorch's present count (one per core unless set
        otherwise), capped by the cgroup's quota; unless OMP_NUM_THREADS has fixed the count, or
        there is no /proc/stat to see the cores by.  Chooses at once where a long enough window
        has passed since the first reading (at import)."""
        if self.mode == "auto":
            return
        if omp_thread_count(environ.get("OMP_NUM_THREADS")) is not None:
            self._fixed(Choice(self.get_count(), f"OMP_NUM_THREADS={environ['OMP_NUM_THREADS']}"))
            return
        unusable = unusable_omp_count(environ)
        if unusable is not None:  # ignored by OpenMP too (attnmt.hardware.set_process_defaults)
            warnings.warn(f"OMP_NUM_THREADS={unusable!r} is not a thread count from 1 to {MOST_THREADS:,}; "
                          "the count is automatic", AttnmtWarning, stacklevel=2)
        if self.reading is None:
            self._fixed(Choice(self.get_count(), "PyTorch's count: no /proc/stat here to see the free cores by"))
            return
        most = self.get_count()
        self.most = most if self.quota is None else min(most, max(1, math.floor(self.quota + 0.5)))
        self.mode, self.choice, self.this_thread = "auto", None, threading.local()
        self.read_at = -math.inf  # look now
        self.recheck()

    def recheck(self) -> Choice | None:
        """Following the free cores: looks at them again where CHECK_EVERY_S has passed, and makes
        this thread's count the chosen one (set only where it differs).  Returns the new choice
        where the count changed (or was first chosen), else None.  A count changed under it in
        this thread (torch.set_num_threads) is kept: the count is fixed from then on."""
        if self.mode != "auto" or self._set_by_someone_else():
            return None
        with self.lock:
            changed = self._look() if self.clock() - self.read_at >= CHECK_EVERY_S else None
            choice = self.choice
        if changed is not None:
            LOG.info("threads: %d (%s)", changed.count, changed.why)
        if choice is not None:
            if self.get_count() != choice.count:
                self.set_count(choice.count)
            self.this_thread.count = choice.count
        return changed

    def _set_by_someone_else(self) -> bool:
        """Whether this thread's count differs from the one attnmt last made it (then it is fixed)."""
        had, count = getattr(self.this_thread, "count", None), self.get_count()
        if had is None or count == had:
            return False
        self._fixed(Choice(count, f"torch.set_num_threads({count}), after attnmt chose"))
        return True

    def _look(self) -> Choice | None:
        """Reads the counters; the new choice where it differs from the last (or is the first)."""
        reading = self.read()
        others = others_busy(self.reading, reading, self.cpus) if reading and self.reading else None
        if others is None:  # too short a window: the next recheck looks over a longer one
            return None
        self.reading, self.read_at = reading, self.clock()
        before = self.choice
        count = next_count(before.count if before else None, min(self.most, self.cpus - others), self.most)
        quota = f"; cgroup quota {self.quota:g} CPUs" if self.quota is not None else ""
        self.choice = Choice(count, f"auto: {others:.1f} of {self.cpus} CPUs busy with other processes{quota}; "
                                    f"at most {self.most}")
        return self.choice if before is None or count != before.count else None

    def _fixed(self, choice: Choice) -> None:
        self.mode, self.choice = "fixed", choice
        LOG.info("threads: %d (%s)", choice.count, choice.why)

    def settle(self) -> None:
        """Following the free cores but not chosen yet (too short a window since the first reading):
        waits for a long enough window and chooses."""
        if self.mode == "auto" and self.choice is None:
            time.sleep(SHORTEST_WINDOW_S)
            self.recheck()

    def why(self) -> str:
        """Why the count is what it is, for the log and ``attnmt doctor``."""
        if self.choice is None:
            return "PyTorch's count" + ("; the free cores not seen yet" if self.mode == "auto" else "")
        return self.choice.why

    def describe(self) -> str:
        """The count and why, for a log line."""
        return f"{self.choice.count if self.choice else self.get_count()} ({self.why()})"


# The process's one ThreadCount: its first reading is taken when attnmt is imported, so that the
# first choice, when a command starts, looks back over the start-up.
CPUS = usable_cpus()
THREADS = ThreadCount(CPUS, quota_here(), lambda: read_proc(CPUS))


def use_threads(count: int, why: str) -> None:
    """``count`` > 0 fixes PyTorch's count (``why``: the option or key that gave it); 0 follows the
    free cores (``follow_free_cores``)."""
    if count > 0:
        THREADS.fix(count, why)
    else:
        follow_free_cores()


def follow_free_cores() -> None:
    """From now on, batches and training steps run with as many threads as cores are free."""
    THREADS.follow()


def recheck() -> Choice | None:
    """Between batches or steps: the thread count looked at again, where it follows the free cores."""
    return THREADS.recheck()
