"""The fused decoder step's float32 matmul kernel against oneDNN's prepacked matmul.

    .venv/bin/python benchmarks/experiments/panel_kernel.py [--rows 32,128] [--rounds 3]

For each matmul shape of a decoder layer of the Multi30k model (d_model 256, d_ff 1024;
Q|K|V, self-attention output, cross-attention query and output, the two feed-forward
ones) and the 8,000-word output projection: microseconds per call of
``torch.ops.attnmt.panel_linear`` (the AVX2 kernel ``src/attnmt/fast/csrc/float_panels.cpp``
runs on weights packed once into 16-column panels) and of
``torch.ops.mkldnn._linear_pointwise`` on the weight ``attnmt.fast.packed`` prepacks, both
with a bias, on the same inputs, 2 threads; fastest of ``--rounds`` runs of 300 calls,
the two kernels taking turns.  The layer's total counts each shape once per call the
step makes (the three 256 × 256 ones three times).
"""

from __future__ import annotations

import argparse
import time

import torch

from attnmt.fast import extension
from attnmt.fast.packed import ROWS_HINT

# (in, out, calls per decoder layer step); the last is the output projection, once per step
SHAPES = [(256, 768, 1), (256, 256, 3), (256, 1024, 1), (1024, 256, 1), (256, 8000, 0)]
THREADS = 2


def per_call_us(call, repeats: int = 300, warmup: int = 20) -> float:
    """Mean microseconds per call of ``repeats`` calls, after ``warmup`` untimed ones."""
    for _ in range(warmup):
        call()
    started = time.perf_counter()
    for _ in range(repeats):
        call()
    return (time.perf_counter() - started) / repeats * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="32,128")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not (extension.available() and torch.ops.attnmt.panels_available()):
        raise SystemExit("the fused step's AVX2 panel kernel is not available on this machine or build")
    torch.set_num_threads(THREADS)
    torch.manual_seed(0)
    print(f"float32, {THREADS} threads, torch {torch.__version__}, microseconds per call, fastest of {args.rounds}")
    for rows in map(int, args.rows.split(",")):
        print(f"\n{rows} rows\n  {'in x out':<12} {'oneDNN':>8} {'panels':>8} {'panels/oneDNN':>14}")
        layer = {"oneDNN": 0.0, "panels": 0.0}
        for k, n, calls in SHAPES:
            x, w, b = torch.randn(rows, k), torch.randn(n, k), torch.randn(n)
            packed = torch.ops.mkldnn._reorder_linear_weight(w, ROWS_HINT)
            panels = torch.ops.attnmt.pack_panels(w)
            kernels = {  # used within this iteration only
                "oneDNN": lambda x=x, packed=packed, b=b: torch.ops.mkldnn._linear_pointwise(
                    x, packed, b, "none", [], ""),
                "panels": lambda x=x, panels=panels, b=b, n=n: torch.ops.attnmt.panel_linear(
                    x, panels, b, n, None, False),
            }
            best = dict.fromkeys(kernels, float("inf"))
            with torch.inference_mode():
                for _ in range(args.rounds):
                    for name, call in kernels.items():
                        best[name] = min(best[name], per_call_us(call))
            for name in layer:
                layer[name] += calls * best[name]
            print(f"  {f'{k} x {n}':<12} {best['oneDNN']:>8.1f} {best['panels']:>8.1f} "
                  f"{best['panels'] / best['oneDNN']:>13.2f}x")
        print(f"  a decoder layer's six matmuls: oneDNN {layer['oneDNN'] / 1e3:.2f} ms, panels "
              f"{layer['panels'] / 1e3:.2f} ms ({layer['panels'] / layer['oneDNN']:.2f}x)")


if __name__ == "__main__":
    main()
