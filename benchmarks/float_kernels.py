"""The float32 decoder step's kernels on each layer shape, timed alone: the panels, oneDNN and (where
the CPU has AMX-BF16) the tiles with 2 and 3 pieces, and the output layer as beam search calls it
(its top 4 log-probs in the same pass), with how far each kernel's sums are from float64's.

    .venv/bin/python benchmarks/float_kernels.py [--rows 128] [--threads 2] [--rounds 20]

OPUS-MT's shapes (d_model 512, ffn 2048, 58,101 pieces), random weights (the time does not depend on
the values).  Each kernel is called in turn, ``--rounds`` times after a first call each; the fastest
call counts.  Error: max |y − float64's y| / Σ|x·w| over the layer's outputs (the output layer's on
its first 4,096 columns).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from functools import partial

import torch

from attnmt.fast.int8 import int8_kernel
from attnmt.fast.packed import PackedLinear
from attnmt.fast.panels import PanelLinear, tiles_run
from attnmt.hardware import cpu_flags, cpu_model

SHAPES = [(1536, 512), (512, 512), (2048, 512), (512, 2048), (58101, 512)]


def fastest(calls: dict, rounds: int) -> dict:
    """Milliseconds of each call's fastest run, called in turn."""
    best = dict.fromkeys(calls, float("inf"))
    for call in calls.values():
        call()
    for _ in range(rounds):
        for name, call in calls.items():
            started = time.perf_counter()
            call()
            best[name] = min(best[name], (time.perf_counter() - started) * 1e3)
    return best


def candidates(weight: torch.Tensor, bias: torch.Tensor, output: bool, pieces: tuple[int, ...] = (2, 3)) -> dict:
    """Each kernel's layer call on x (the output layer: its top 4 log-probs)."""
    ops = torch.ops.attnmt
    panels = ops.pack_panels(weight)
    n = weight.size(0)
    found = {}
    if output:
        found["panels"] = lambda x: ops.panel_top_log_probs(x, panels, bias, n, 4, [], None)
    else:
        found["panels"] = PanelLinear(weight, bias)
        found["onednn"] = PackedLinear(weight, bias)
    if tiles_run():
        for count in pieces:
            name = f"tiles bf16x{3 if count == 2 else 6}"
            tiles = ops.pack_split_tiles(panels, count)
            found[name] = (partial(lambda t, x: ops.split_tile_top_log_probs(x, t, bias, n, 4, [], None, False), tiles)
                           if output else partial(lambda t, x: ops.split_tile_linear(x, t, bias, n, None, False, False),
                                                  tiles))
    return found


def error(call, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> float:
    y = call(x)
    exact = x.double() @ weight.double().T + bias.double()
    return float(((y.double() - exact) / (x.double().abs() @ weight.double().abs().T)).abs().max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--pieces", default="2,3", help="the tiles' pieces to time: 2 (bf16x3), 3 (bf16x6)")
    args = parser.parse_args()
    pieces = tuple(int(count) for count in args.pieces.split(","))
    torch.set_num_threads(args.threads)
    int8_kernel()  # tells the extension whether AMX is allowed
    print(f"command: {' '.join(sys.argv)}")
    print(f"CPU {cpu_model()} ({' '.join(sorted(cpu_flags() & {'avx2', 'avx512f', 'avx512_bf16', 'amx_bf16'}))}); "
          f"PyTorch {torch.__version__}; Python {platform.python_version()}; {args.threads} threads; "
          f"{args.rows} rows; fastest of {args.rounds}; tiles run: {tiles_run()}")
    totals: dict[str, float] = {}
    g = torch.Generator().manual_seed(0)
    with torch.inference_mode():
        for n, k in SHAPES:
            output = n > 4096
            weight, bias = torch.randn(n, k, generator=g) * 0.05, torch.randn(n, generator=g) * 0.1
            x = torch.randn(args.rows, k, generator=g)
            calls = {name: partial(layer, x) for name, layer in candidates(weight, bias, output, pieces).items()}
            best = fastest(calls, args.rounds)
            totals = {name: totals.get(name, 0.0) + ms for name, ms in best.items()}
            checked = candidates(weight[:4096], bias[:4096], False, pieces)
            errors = {name: error(layer, x, weight[:4096], bias[:4096]) for name, layer in checked.items()}
            errors = {name: errors.get(name, errors["panels"]) for name in best}  # the output layer: its panels
            what = "output layer + top 4" if output else "layer"
            print(f"{n} × {k} ({what}): " + ", ".join(
                f"{name} {ms:.3f} ms ({best['panels'] / ms:.2f}× panels; error {errors[name]:.1e})"
                for name, ms in best.items()))
    print("all five shapes: " + ", ".join(f"{name} {ms:.3f} ms" for name, ms in totals.items() if name != "onednn"))


if __name__ == "__main__":
    main()
