"""Loop orders for the float32 tiles' bf16x3 products, against the shipped kernel, on an AMX CPU.

    .venv/bin/python benchmarks/experiments/amx_tile_variants.py [--rows 128,16] [--threads 2] [--rounds 12]

On AMX's first run the shipped kernel (``csrc/split_tiles.cpp``) took 50-100 cycles a ``tdpbf16ps``
against 16 at the peak, 1.3× the float32 panels at 128 rows where the arithmetic allows 5×
(``results/amx_float_tiles_xeon_s31.txt``). The variants in ``amx_tile_variants.cpp``, built here
with ``torch.utils.cpp_extension`` (ninja and a compiler):

- 0: the shipped order (for each 32 k, each piece of W meets the pieces of x it multiplies);
- 1: the three products outermost, each a whole k loop (the int8 AMX kernel's order);
- 2: one row tile × two panels, two sets of input tiles taken in turn, so that no tile is loaded
  while a product still reads it;

each with x's rows as long as K and 64 bytes longer ("+pad": a tile's 16 rows 1,024 bytes apart fall
into 4 of L1's 64 sets). First every variant is checked against float64 products (within 2^-15 of
Σ|x·w|; on the model of the tiles where the CPU has no AMX, so this runs anywhere with AVX-512), then,
where the tiles run, each is timed on OPUS-MT's step shapes beside the shipped kernel (which also
splits x at each call) and the float32 panels: the fastest of ``--rounds`` calls.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

import torch
from torch.utils import cpp_extension

from attnmt.fast.int8 import int8_kernel
from attnmt.fast.panels import tiles_run
from attnmt.hardware import cpu_flags, cpu_model

HERE = Path(__file__).resolve().parent
CSRC = HERE.parent.parent / "src" / "attnmt" / "fast" / "csrc"
SHAPES = [(1536, 512), (512, 512), (2048, 512), (512, 2048), (58101, 512)]
VARIANTS = [(0, False), (0, True), (1, False), (1, True), (2, False), (2, True)]


def pieces(x: torch.Tensor, pad: bool) -> torch.Tensor:
    """x [rows, K] as its two bf16 pieces [2, rows padded to 16, ldx] (K padded to 32, +32 with ``pad``)."""
    rows, k = x.shape
    kp = (k + 31) // 32 * 32
    out = torch.zeros(2, (rows + 15) // 16 * 16, kp + (32 if pad else 0), dtype=torch.bfloat16)
    hi = x.bfloat16()
    out[0, :rows, :k], out[1, :rows, :k] = hi, (x - hi.float()).bfloat16()
    return out


def fastest(call, rounds: int) -> float:
    call()
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="128,16")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    int8_kernel()  # tells the extension whether AMX is allowed
    on_amx = tiles_run()
    ext = cpp_extension.load("attnmt_tile_variants", [str(HERE / "amx_tile_variants.cpp")],
                             extra_cflags=["-O3", "-fopenmp", "-mavx2", "-mfma"], extra_include_paths=[str(CSRC)],
                             extra_ldflags=["-fopenmp"])
    ops = torch.ops.attnmt
    print(f"command: {' '.join(sys.argv)}")
    print(f"CPU {cpu_model()} ({' '.join(sorted(cpu_flags() & {'avx512f', 'avx512_bf16', 'amx_bf16'}))}); "
          f"PyTorch {torch.__version__}; {args.threads} threads; tiles run: {on_amx}")
    g = torch.Generator().manual_seed(0)
    for rows, n, k in [(1, 7, 5), (17, 33, 64), (40, 100, 200), (128, 512, 512)]:
        x, w = torch.randn(rows, k, generator=g), torch.randn(n, k, generator=g)
        tiles = ops.pack_split_tiles(ops.pack_panels(w), 2)
        exact, scale = x.double() @ w.double().T, x.double().abs() @ w.double().abs().T
        for variant, pad in VARIANTS:
            y = ext.variant_linear(pieces(x, pad), rows, tiles, n, variant, not on_amx)
            error = float(((y.double() - exact) / scale).abs().max())
            if error > 2.0 ** -15:
                sys.exit(f"variant {variant}{' +pad' if pad else ''} is wrong at {rows} × {n} × {k}: error {error:.2e}")
    print(f"every variant within 2^-15 of Σ|x·w| ({'the CPU tiles' if on_amx else 'the model of the tiles'})")
    if not on_amx:
        print("timing needs a CPU whose tiles run here: none timed")
        return
    with torch.inference_mode():
        for rows in (int(r) for r in args.rows.split(",")):
            for n, k in SHAPES:
                x, w = torch.randn(rows, k, generator=g), torch.randn(n, k, generator=g) * 0.05
                panels = ops.pack_panels(w)
                tiles = ops.pack_split_tiles(panels, 2)
                times = {"panels": fastest(partial(ops.panel_linear, x, panels, None, n, None, False), args.rounds),
                         "shipped": fastest(partial(ops.split_tile_linear, x, tiles, None, n, None, False, False),
                                            args.rounds)}
                for variant, pad in VARIANTS:
                    times[f"{variant}{' +pad' if pad else ''}"] = fastest(
                        partial(ext.variant_linear, pieces(x, pad), rows, tiles, n, variant, False), args.rounds)
                print(f"{rows} rows, {n} × {k}: " + ", ".join(f"{name} {ms:.3f} ms" for name, ms in times.items()))


if __name__ == "__main__":
    main()
