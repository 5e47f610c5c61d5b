"""The float32 output layer restricted to a shortlist, as a batch of the OPUS-shaped job restricts it:
on the panels (a PanelLinear of the shortlisted rows, what ``ShortlistOutput.restrict`` makes) against
PyTorch's ``F.linear`` on the same rows (its BLAS: what it made before), in one process, the two called
in turn, fastest of ``--rounds``.

    .venv/bin/python benchmarks/experiments/shortlist_output.py DIR [--threads 2] [--rows 104]

DIR: benchmarks/opus_shape.py's --keep folder (its attnmt model and shortlist.tsv).  The shortlist's
ids are those of the job's first batch: 26 lines of its input (``DIR/input.en``), beam 4's rows.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch
import torch.nn.functional as F

from attnmt.checkpoint import load_model_dir
from attnmt.fast.panels import PanelLinear
from attnmt.fast.prepared import load_packed
from attnmt.fast.shortlist import Shortlist
from attnmt.hardware import cpu_flags, cpu_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rows", type=int, default=104)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    fast, _ = load_packed(args.folder / "attnmt")
    _, tokenizer = load_model_dir(args.folder / "attnmt")
    lines = (args.folder / "input.en").read_text(encoding="utf-8").splitlines()[:26]
    src = [tokenizer.encode(line) for line in lines]
    width = max(map(len, src))
    batch = torch.tensor([ids + [fast.config.pad_id] * (width - len(ids)) for ids in src])
    ids = Shortlist.load(args.folder / "shortlist.tsv").ids_for(batch, [])
    output = fast.output
    if not isinstance(output, PanelLinear):
        raise SystemExit(f"the float32 copy's output layer is a {type(output).__name__} here, not on the panels: "
                         "the shortlist keeps F.linear (attnmt doctor --model says why)")
    weight = output.rows(ids)
    bias = None if output.bias is None else output.bias[ids]
    panels = PanelLinear(weight, bias)
    x = torch.randn(args.rows, weight.size(1))
    calls = {"panels": lambda: panels(x), "F.linear": lambda: F.linear(x, weight, bias)}
    best = dict.fromkeys(calls, float("inf"))
    for call in calls.values():
        call()
    for _ in range(args.rounds):
        for name, call in calls.items():
            started = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - started)
    flops = 2 * args.rows * weight.size(0) * weight.size(1)
    print(f"CPU {cpu_model()} ({' '.join(sorted(cpu_flags() & {'avx2', 'avx512f', 'amx_bf16'}))}); PyTorch "
          f"{torch.__version__}; {args.threads} threads; {args.rows} rows x {weight.size(1)} -> {len(ids):,} "
          f"shortlisted pieces; fastest of {args.rounds}")
    for name, seconds in best.items():
        print(f"  {name:9s} {seconds * 1e3:7.3f} ms  {flops / seconds / 1e9:6.1f} GFLOP/s  "
              f"({best['F.linear'] / seconds:.2f}x F.linear)")
    diff = (panels(x) - F.linear(x, weight, bias)).abs().max().item()
    print(f"  largest difference between the two: {diff:.2e}")


if __name__ == "__main__":
    main()
