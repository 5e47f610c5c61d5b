"""Translation in a second thread, as the server runs it: the model loaded and prepared in the main
thread (or not), then 8 sentences a batch translated in a worker thread at 1 and 2 threads.

    .venv/bin/python benchmarks/experiments/threads_two_teams.py [--model DIR] [--where main|worker]
    perf stat -e context-switches .venv/bin/python benchmarks/experiments/threads_two_teams.py

With ``--where main`` (the server's way) the process has two OpenMP teams, the main thread's and
the worker's, so libgomp counts more threads than CPUs on 2 cores and waits with its "throttled"
spin count (0 under OMP_WAIT_POLICY=PASSIVE, 1,000 under ACTIVE with GOMP_SPINCOUNT=1000);
``--where worker`` loads in the worker too (one team).  attnmt is imported first, so its OpenMP
settings apply (attnmt.hardware.set_process_defaults); set OMP_WAIT_POLICY / GOMP_SPINCOUNT in the
environment to time others.  Without ``--model``: the untrained Multi30k-shaped model of
benchmarks/serve_load.py, built in a temporary folder.
"""

from __future__ import annotations

# isort: off
import attnmt  # noqa: F401  (first: its OpenMP settings precede torch)
# isort: on

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.translate import translate
from attnmt.fast import prepare
from attnmt.hardware import cpu_model
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from serve_load import SENTENCES, build_untrained_model  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path)
    parser.add_argument("--where", choices=("main", "worker"), default="main", help="where the model is loaded")
    parser.add_argument("--sentences", type=int, default=160)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    lines = [line for line in read_lines(SENTENCES) if line.strip()][:args.sentences]
    worker = ThreadPoolExecutor(max_workers=1)
    state = {}

    def load(folder: Path) -> None:
        model, state["tokenizer"] = load_model_dir(folder)
        state["model"] = prepare(model)

    def rate(threads: int) -> float:
        torch.set_num_threads(threads)
        start = time.perf_counter()
        for i in range(0, len(lines), args.batch):
            translate(state["model"], state["tokenizer"], lines[i:i + args.batch])
        return len(lines) / (time.perf_counter() - start)

    with tempfile.TemporaryDirectory() as scratch:
        folder = args.model or build_untrained_model(Path(scratch) / "untrained")
        (load(folder) if args.where == "main" else worker.submit(load, folder).result())
    waits = ", ".join(f"{name}={os.environ.get(name, '(unset)')}" for name in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT"))
    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()}, {os.cpu_count()} cores; {waits}; loaded in the "
          f"{args.where} thread, translated in a worker thread, {args.batch} sentences a batch", flush=True)
    for threads in (1, 2):  # warm-up
        worker.submit(rate, threads).result()
    for round_ in range(1, args.rounds + 1):
        for threads in (1, 2):
            print(f"round {round_}: {threads} thread{'s' * (threads > 1)}: "
                  f"{worker.submit(rate, threads).result():.1f} sentences/s", flush=True)


if __name__ == "__main__":
    main()
