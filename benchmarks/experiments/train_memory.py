"""Training memory over steps: RSS after every 10 steps of the Multi30k config, with and without
attnmt's bounds on the kernel caches and the heap (attnmt.hardware).

    .venv/bin/python benchmarks/experiments/train_memory.py --steps 80
    .venv/bin/python benchmarks/experiments/train_memory.py --steps 80 --unbounded

Batches come in hundreds of shapes; in bf16 oneDNN's and ideep's per-shape caches and glibc's
heap kept growing through the first epoch.  Prints the CPU, the precision and RSS / peak RSS (MiB).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import attnmt.training.trainer as trainer_module
from attnmt.hardware import cpu_flags, cpu_model
from attnmt.train_config import load_config

ROOT = Path(__file__).resolve().parents[2]


def rss_mib() -> tuple[int, int]:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]) // 1024, int(status["VmHWM"].split()[0]) // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--config", default=str(ROOT / "configs/multi30k_en_de.yaml"))
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--unbounded", action="store_true", help="without attnmt's cache and heap bounds")
    parser.add_argument("--trim-every", type=int, default=trainer_module.HEAP_TRIM_EVERY,
                        help="steps between returns of free heap pages to the system")
    args = parser.parse_args()
    trainer_module.HEAP_TRIM_EVERY = args.trim_every
    if args.unbounded:
        trainer_module.bound_kernel_caches = lambda: None
        trainer_module.release_free_memory = lambda: None
    out = Path(tempfile.mkdtemp()) / "model"
    config = load_config(args.config, {"out_dir": str(out), "max_steps": str(args.steps), "eval_every": "1000000",
                                       "precision": args.precision})
    trainer = trainer_module.Trainer(config, progress=False)
    bounds = "unbounded" if args.unbounded else f"bounded, heap trimmed every {args.trim_every} steps"
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); precision {trainer.precision}; "
          f"{bounds}; after set-up RSS/peak {rss_mib()} MiB", flush=True)
    stream, started = iter(trainer.batcher), time.perf_counter()
    for step in range(1, args.steps + 1):
        trainer.train_step([next(stream).to(trainer.group.device)])
        if step % 10 == 0:
            rss, peak = rss_mib()
            print(f"step {step:4d}: RSS {rss:5d} MiB, peak {peak:5d} MiB, {time.perf_counter() - started:6.1f} s",
                  flush=True)


if __name__ == "__main__":
    main()
