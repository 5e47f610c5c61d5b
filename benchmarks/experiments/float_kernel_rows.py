"""The float32 step layers' two kernels at several row counts: attnmt's panels against oneDNN's
prepacked matmul, each layer shape of a model's decoder step alone, as attnmt.fast.kernels times them.

    .venv/bin/python benchmarks/experiments/float_kernel_rows.py MODEL_DIR [--rows 1,4,16,128] [--threads 2]
        [--rounds 3]

The kernel choice times the candidates at 128 rows (32 sentences at beam 4), and a layer oneDNN wins
there again at 4 rows (one sentence: a server's request, a one-line job): this prints both kernels'
fastest call at each row count, on random weights of the model's shapes (the time does not depend on
the values), ``--rounds`` times in turn, so that a host whose speed moves shows it.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import torch

from attnmt.config import TransformerConfig
from attnmt.fast import extension
from attnmt.fast.kernels import FloatKernel, fastest_calls, step_shapes
from attnmt.fast.packed import PackedLinear
from attnmt.fast.panels import PanelLinear
from attnmt.hardware import cpu_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--rows", default="1,4,16,128")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    extension.load()
    config = TransformerConfig.from_dict(json.loads((args.model / "config.json").read_text()))
    # The output projection is output_layer_rate.py's.
    shapes = [shape for shape in step_shapes(config) if shape[0] != config.vocab_size]
    rows = [int(r) for r in args.rows.split(",")]
    print(f"CPU {cpu_model()}, PyTorch {torch.__version__}, {args.threads} thread(s); microseconds of the fastest "
          f"call (attnmt.fast.kernels.fastest_calls), panels / oneDNN, {args.rounds} rounds in turn")
    generator = torch.Generator().manual_seed(0)
    layers = {}
    for n, k in shapes:
        weight = torch.randn(n, k, generator=generator) * 0.05
        bias = torch.zeros(n)
        layers[(n, k)] = {FloatKernel.PANELS: PanelLinear(weight, bias), FloatKernel.ONEDNN: PackedLinear(weight, bias)}
    for round_ in range(1, args.rounds + 1):
        print(f"round {round_}")
        for (n, k), kinds in layers.items():
            said = []
            for count in rows:
                x = torch.randn(count, k, generator=generator)
                best = fastest_calls({kind: partial(layer, x) for kind, layer in kinds.items()})
                panels, onednn = best[FloatKernel.PANELS] * 1e3, best[FloatKernel.ONEDNN] * 1e3
                said.append(f"{count} rows {panels:7.1f} / {onednn:7.1f} ({onednn / panels:.2f}x)")
            print(f"  {n:>5} x {k:<5} " + "; ".join(said))


if __name__ == "__main__":
    main()
