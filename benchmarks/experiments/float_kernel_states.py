"""The float32 step's two kernels, the panels and oneDNN, timed side by side again and again over
some seconds: whether the host lets one layer's speed move from one second to the next (a VM's
neighbours), and whether the two kernels move alike.

    .venv/bin/python benchmarks/experiments/float_kernel_states.py [--seconds 25] [--rows 128]
        [--columns 4096] [--threads 1,2]

Each line: the fastest of 8 calls of each kernel on one layer [rows, 512] x [columns, 512]ᵀ at
each thread count, then half a second's sleep.  Pin it (``taskset -c 0``) to see whether a
single CPU's speed moves too.  The kernel choice (attnmt.fast.kernels) times the two for a
fraction of a second per shape at the first prepare; where the lines below change their winner
within seconds, the choice follows the second it ran in (``ATTNMT_FLOAT32_KERNEL`` sets it).
"""

from __future__ import annotations

import argparse
import time

import attnmt  # noqa: F401  (before torch: its OpenMP settings, as the CLI has them)

# isort: split
import torch

from attnmt.fast import extension
from attnmt.fast.packed import PackedLinear
from attnmt.fast.panels import PanelLinear
from attnmt.hardware import cpu_flags, cpu_model


def fastest_ms(call, x: torch.Tensor, threads: int, calls: int = 8) -> float:
    torch.set_num_threads(threads)
    call(x)
    best = float("inf")
    for _ in range(calls):
        started = time.perf_counter()
        call(x)
        best = min(best, time.perf_counter() - started)
    return best * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--rows", type=int, default=128)
    parser.add_argument("--columns", type=int, default=4096)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    extension.load()
    counts = [int(count) for count in args.threads.split(",")]
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(args.rows, 512, generator=generator)
    weight, bias = torch.randn(args.columns, 512, generator=generator) * 0.05, torch.zeros(args.columns)
    kernels = {"panels": PanelLinear(weight, bias), "onednn": PackedLinear(weight, bias)}
    flags = " ".join(sorted(cpu_flags() & {"avx2", "avx512f", "avx512_bf16", "amx_bf16"}))
    print(f"CPU {cpu_model()} ({flags}); PyTorch {torch.__version__}; {args.rows} x 512 -> {args.columns}; "
          "fastest of 8 calls, ms")
    end = time.perf_counter() + args.seconds
    with torch.no_grad():
        while time.perf_counter() < end:
            cells = []
            for threads in counts:
                ms = {name: fastest_ms(call, x, threads) for name, call in kernels.items()}
                cells.append(f"{threads}t panels {ms['panels']:6.2f} onednn {ms['onednn']:6.2f} "
                             f"(panels/onednn {ms['panels'] / ms['onednn']:.2f})")
            print(time.strftime("%H:%M:%S"), " | ".join(cells), flush=True)
            time.sleep(0.5)


if __name__ == "__main__":
    main()
