"""Training steps at 1 and 2 threads and at attnmt's own choice ("auto": ``threads: 0``, one thread
per core other processes leave free, looked at again between steps), alone and beside a busy process.

    .venv/bin/python benchmarks/experiments/threads_training.py [--config configs/multi30k_en_de.yaml]
        [--steps 16] [--rounds 2] [--threads 1,2,auto] [--key value ...]

Each job is ``attnmt train CONFIG --max-steps STEPS --threads T`` in a process of its own, in a
fresh directory, validating once at the end on the validation set's first 16 pairs; any other
``--key value`` is passed on as a config override (``--tokenizer FILE`` saves training a
SentencePiece model in every job).  A job's figure is seconds per step from its log.jsonl: the
training time (``elapsed``, validation excluded) between its first and last training records
(``log_every`` STEPS / 4), so the first steps' warm-up is left out.  "busy" jobs run while
``python -c 'while True: pass'`` (benchmarks/contention.py), started and stopped by this script,
wants a core.  The jobs take turns, ``--rounds`` times; every figure is printed with the
1-minute load average as the job ended and, for auto, the thread counts it ran with, then each
job's fastest.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from contention import competing, load_average  # noqa: E402

VALID = ROOT / "data/multi30k/val"
VALID_PAIRS = 16


def small_validation(folder: Path) -> list[str]:
    """Overrides that validate on the first VALID_PAIRS pairs of Multi30k's validation set."""
    overrides = []
    for side in ("en", "de"):
        lines = gzip.open(f"{VALID}.{side}.gz", "rt", encoding="utf-8").read().splitlines()[:VALID_PAIRS]
        path = folder / f"valid.{side}"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        overrides += [f"--valid-{'src' if side == 'en' else 'tgt'}", str(path)]
    return overrides


def job(config: str, threads: str, steps: int, out: Path, overrides: list[str]) -> tuple[float, list[int]]:
    """(seconds per step, the thread counts it ran with) of one training run in a process of its own."""
    count = "0" if threads == "auto" else threads
    command = [sys.executable, "-m", "attnmt", "train", config, "--max-steps", str(steps), "--threads", count,
               "--log-every", str(max(1, steps // 4)), "--eval-every", str(10 * steps), "--max-time", "1h",
               "--out-dir", str(out), *overrides]
    environment = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    subprocess.run(command, env=environment, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    records = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    windows = [r for r in records if "loss" in r]
    counts = [r["runtime"]["threads"] for r in records if "runtime" in r] + [r["threads"] for r in records
                                                                              if "threads" in r]
    seconds = (windows[-1]["elapsed"] - windows[0]["elapsed"]) / (windows[-1]["step"] - windows[0]["step"])
    return seconds, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "configs/multi30k_en_de.yaml"))
    parser.add_argument("--steps", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", default="1,2,auto", help="comma-separated: thread counts, or auto")
    args, overrides = parser.parse_known_args()
    times: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        overrides = [*small_validation(Path(tmp)), *overrides]
        for round_ in range(args.rounds):
            for busy in ("alone", "busy"):
                with competing(busy == "busy"):
                    for threads in args.threads.split(","):
                        out = Path(tmp) / f"{round_}-{busy}-{threads}"
                        seconds, counts = job(args.config, threads, args.steps, out, overrides)
                        times.setdefault((busy, threads), []).append(seconds)
                        ran = f" (ran {'→'.join(map(str, counts))})" if threads == "auto" else ""
                        print(f"{busy} {threads} thread(s){ran}: {seconds:.3f} s/step (load {load_average()}, "
                              f"{time.strftime('%H:%M:%S')})", flush=True)
    from attnmt.hardware import cpu_flags, cpu_model

    print(f"command: {' '.join(sys.argv)}\nCPU {cpu_model()} ({' '.join(sorted(cpu_flags() & {'avx2', 'avx512f'}))})"
          f", {os.cpu_count()} CPUs; seconds per training step, fastest of {args.rounds}:")
    for (busy, threads), values in sorted(times.items()):
        every = " ".join(f"{v:.3f}" for v in values)
        print(f"  {busy:5} {threads:>4} thread(s): {min(values):6.3f} s/step   ({every})")


if __name__ == "__main__":
    main()
