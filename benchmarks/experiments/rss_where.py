"""Where a job's peak resident memory lives: a Python job run in this process (a module as ``-m``
runs it, or a script), its /proc/self/smaps read every --every seconds by a thread, and, at the
sample with the largest RSS, that RSS by mapping: the weights files mapped (safetensors), the heap,
other anonymous memory, and each shared library.  ``ru_maxrss`` (the peak the benchmarks print) is
printed beside it: the sampler can miss a peak shorter than its period.

    .venv/bin/python benchmarks/experiments/rss_where.py [--every 0.05] -m attnmt translate --model M IN OUT
    .venv/bin/python benchmarks/experiments/rss_where.py benchmarks/peers/ctranslate2_translate.py DIR IN OUT
    .venv/bin/python benchmarks/experiments/rss_where.py -c "import torch"

Linux only.  The sampler holds the GIL while it reads (about 1 ms a read); the job's speed is not
worth reading under it.
"""

from __future__ import annotations

import os
import resource
import runpy
import sys
import threading
import time
from pathlib import Path

WEIGHTS = (".safetensors", ".bin", ".pt")
SHOWN_MIB = 2  # mappings smaller than this are summed as "the rest"


def by_mapping() -> dict[str, int]:
    """This process's RSS in KiB, by what each mapping holds."""
    resident: dict[str, int] = {}
    name = "[anonymous]"
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if fields[0] == "Rss:":
                resident[name] = resident.get(name, 0) + int(fields[1])
            elif "-" in fields[0] and not fields[0].endswith(":"):  # a mapping's first line
                path = fields[5] if len(fields) > 5 else "[anonymous]"
                name = f"weights ({Path(path).name})" if path.endswith(WEIGHTS) else path
    return resident


class Sampler(threading.Thread):
    def __init__(self, every: float) -> None:
        super().__init__(daemon=True)
        self.every, self.peak, self.when, self.start_time = every, {}, 0.0, time.perf_counter()

    def run(self) -> None:
        while True:
            self.sample()
            time.sleep(self.every)

    def sample(self) -> None:
        now = by_mapping()
        if sum(now.values()) > sum(self.peak.values()):
            self.peak, self.when = now, time.perf_counter() - self.start_time

    def report(self) -> None:
        self.sample()
        total = sum(self.peak.values())
        print(f"\npeak RSS sampled: {total >> 10} MiB at {self.when:.1f} s; ru_maxrss "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10} MiB", file=sys.stderr)
        rest = 0
        for name, kib in sorted(self.peak.items(), key=lambda item: -item[1]):
            if kib >> 10 >= SHOWN_MIB:
                print(f"  {kib >> 10:6d} MiB  {name}", file=sys.stderr)
            else:
                rest += kib
        print(f"  {rest >> 10:6d} MiB  the rest (each under {SHOWN_MIB} MiB)", file=sys.stderr)


def main() -> None:
    argv = sys.argv[1:]
    every = 0.05
    if argv[:1] == ["--every"]:
        every, argv = float(argv[1]), argv[2:]
    if not argv or argv[0] in ("-h", "--help") or (argv[0] in ("-m", "-c") and len(argv) < 2):
        sys.exit(__doc__)
    sampler = Sampler(every)
    sampler.start()
    exit_now = os._exit

    def reported_exit(code: int) -> None:  # a CLI that leaves by os._exit skips atexit and finally
        sampler.report()
        sys.stderr.flush()
        exit_now(code)

    os._exit = reported_exit  # type: ignore[assignment]
    try:
        if argv[0] == "-c":
            exec(compile(argv[1], "<-c>", "exec"), {"__name__": "__main__"})
        elif argv[0] == "-m":
            sys.argv = argv[1:]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = argv
            runpy.run_path(argv[0], run_name="__main__")
    finally:
        sampler.report()


if __name__ == "__main__":
    main()
