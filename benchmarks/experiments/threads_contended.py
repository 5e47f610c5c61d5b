"""Translation at 1 and 2 threads and at attnmt's own choice ("auto"), alone and beside a busy
process, with OpenMP's threads spinning or sleeping when they wait (attnmt.hardware.set_process_defaults).

    .venv/bin/python benchmarks/experiments/threads_contended.py [--model runs/opus_shape/attnmt] [--lines 4]
        [--rounds 2] [--int8] [--threads 1,2,auto] [--waits spinning,passive]

The model: the OPUS-MT-shaped one that ``benchmarks/opus_shape.py --keep runs/opus_shape`` builds.
Each job is a process of its own that loads the fast copy, translates 2 lines as a warm-up, then
``--lines`` lines of benchmarks/opus_shape.py's input (beam 4, 20 output tokens) and prints the
seconds of that translation only.  Its threads: a fixed count (``torch.set_num_threads``), or
``auto``: ``attnmt.threads.follow_free_cores()``, what ``attnmt translate`` does by default (one
thread per core other processes leave free, looked at again before each batch); the count it
chose is printed beside the time.  The ways of waiting:

- ``default``: what attnmt sets (attnmt.hardware.set_process_defaults: OPENMP_LIBGOMP_DEFAULTS where torch
  ships libgomp, else OPENMP_DEFAULTS);
- ``spinning``: ``GOMP_SPINCOUNT=300000``, libgomp's own default (what attnmt ran with before it
  set a wait policy);
- ``passive``: ``OMP_WAIT_POLICY=PASSIVE``, each waiting thread sleeps at once;
- ``spin<N>``, e.g. ``spin20000``: ``GOMP_SPINCOUNT=N``, a wait spins N rounds before it sleeps.

"busy" jobs run while ``python -c 'while True: pass'`` (benchmarks/contention.py), started and
stopped by this script, wants a core.  The jobs take turns, ``--rounds`` times; every time is
printed with the 1-minute load average as the job ended, then each job's fastest.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from contention import competing, load_average  # noqa: E402

WAITS = {"default": {}, "spinning": {"GOMP_SPINCOUNT": "300000"}, "passive": {"OMP_WAIT_POLICY": "PASSIVE"}}


def wait_settings(name: str) -> dict[str, str]:
    """The environment of the wait named ``name``: one of WAITS, or spin<N> (GOMP_SPINCOUNT=N)."""
    if name.startswith("spin") and name[4:].isdigit():
        return {"GOMP_SPINCOUNT": name[4:]}
    return WAITS[name]
JOB = """
import sys, time
import attnmt  # first: the wait policy is set before torch loads
import torch
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.fast.prepared import load_int8, load_packed
from attnmt.threads import follow_free_cores
sys.path.insert(0, {benchmarks!r})
from opus_shape import input_lines
if {threads!r} == "auto":
    follow_free_cores()
else:
    torch.set_num_threads(int({threads!r}))
fast, tokenizer = (load_int8 if {int8} else load_packed)({model!r})
decoding = Decoding(beam_size=4, max_len_a=0, max_len_b=20)
translate(fast, tokenizer, input_lines(2), decoding)
started = time.perf_counter()
translate(fast, tokenizer, input_lines({lines}), decoding)
print(torch.get_num_threads(), time.perf_counter() - started)
"""


def job_seconds(model: str, threads: str, lines: int, int8: bool, wait: dict[str, str]) -> tuple[float, int]:
    """(seconds, the thread count the translation ended with) of one job in a process of its own."""
    code = JOB.format(benchmarks=str(ROOT / "benchmarks"), threads=threads, int8=int8, model=model, lines=lines)
    unset = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME", "OMP_NUM_THREADS")
    environment = {k: v for k, v in os.environ.items() if k not in unset} | wait
    result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True)
    count, seconds = result.stdout.split()[-2:]
    return float(seconds), int(count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="runs/opus_shape/attnmt")
    parser.add_argument("--lines", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--int8", action="store_true")
    parser.add_argument("--threads", default="1,2,auto", help="comma-separated: thread counts, or auto")
    parser.add_argument("--waits", default=",".join(WAITS),
                        help=f"comma-separated, of {', '.join(WAITS)} and spin<N> (GOMP_SPINCOUNT=N)")
    args = parser.parse_args()
    waits = {name: wait_settings(name) for name in args.waits.split(",")}
    times: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(args.rounds):
        for busy in ("alone", "busy"):
            with competing(busy == "busy"):
                for wait, environment in waits.items():
                    for threads in args.threads.split(","):
                        seconds, count = job_seconds(args.model, threads, args.lines, args.int8, environment)
                        times.setdefault((busy, wait, threads), []).append(seconds)
                        chosen = f" (chose {count})" if threads == "auto" else ""
                        print(f"{busy} {wait} {threads} thread(s){chosen}: {seconds:.2f} s (load {load_average()}, "
                              f"{time.strftime('%H:%M:%S')})", flush=True)
    from attnmt.hardware import cpu_flags, cpu_model

    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()} ({' '.join(sorted(cpu_flags() & {'avx2', 'avx512f'}))})"
          f", {os.cpu_count()} CPUs; fastest of {args.rounds}:")
    for (busy, wait, threads), values in sorted(times.items()):
        every = " ".join(f"{v:.2f}" for v in values)
        print(f"  {busy:5} {wait:8} {threads:>4} thread(s): {min(values):6.2f} s   ({every})")


if __name__ == "__main__":
    main()
