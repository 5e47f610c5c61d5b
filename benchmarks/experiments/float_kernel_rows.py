"""The float32 step layers' two kernels at several row counts: attnmt's panels against oneDNN's
prepacked matmul, each layer shape of a model's decoder step alone, as attnmt.fast.kernels times them.

    .venv/bin/python benchmarks/experiments/float_kernel_rows.py MODEL_DIR [--rows 1,4,16,128] [--threads 2]
        [--rounds 3] [--searches 10] [--sentences 1,25]

The kernel choice times the candidates at 128 rows (32 sentences at beam 4), and a layer oneDNN wins
there again at 4 rows (one sentence: a server's request, a one-line job): this prints both kernels'
fastest call at each row count, on random weights of the model's shapes (the time does not depend on
the values), ``--rounds`` times in turn, so that a host whose speed moves shows it.  Then the model's
whole C++ step as beam search runs it for one sentence (4 rows) and for a file's batch of 25 (100 rows),
40 steps from an empty cache, with the decoder layers on oneDNN and the output on the panels (what a
choice timed at 128 rows alone took on a 2-core AVX-512 Xeon) against every layer on the panels:
``--searches`` of each, in turn, in one process.
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.config import TransformerConfig
from attnmt.fast import FastTransformer, extension, prepare
from attnmt.fast.kernels import FloatKernel, KernelChoice, fastest_calls, step_shapes
from attnmt.fast.packed import PackedLinear
from attnmt.fast.panels import PanelLinear
from attnmt.hardware import cpu_model
from attnmt.model import padding_mask

SEARCH_STEPS = 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--rows", default="1,4,16,128")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--searches", type=int, default=10)
    parser.add_argument("--sentences", default="1,25", help="sentences per searched batch (4 rows each)")
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
    for sentences in [int(n) for n in args.sentences.split(",")] if args.searches else []:
        search_steps(args.model, config, args.searches, sentences)


def prepared_with(model: torch.nn.Module, choice: KernelChoice) -> FastTransformer:
    """The float32 copy of ``model`` with ``choice``'s kernels (as attnmt.fast.prepared gives a stored choice)."""
    FastTransformer.kernel_choice = choice
    try:
        return prepare(model)
    finally:
        FastTransformer.kernel_choice = None


def search_steps(folder: Path, config: TransformerConfig, searches: int, sentences: int) -> None:
    """Milliseconds a step, median and fastest, of SEARCH_STEPS steps of ``sentences`` sentences' 4 rows each,
    each copy in turn."""
    model, _ = load_model_dir(folder)
    output = (config.vocab_size, config.d_model)
    layers_on_onednn = KernelChoice({shape: FloatKernel.ONEDNN if shape != output else FloatKernel.PANELS
                                     for shape in step_shapes(config)})
    copies = {"decoder layers on oneDNN": prepared_with(model, layers_on_onednn),
              "all on the panels": prepared_with(model, KernelChoice.forced(FloatKernel.PANELS, step_shapes(config)))}
    src = torch.randint(4, config.vocab_size - 1, (sentences, 30), generator=torch.Generator().manual_seed(0))
    tokens = torch.full((4 * sentences, 1), 5)
    times: dict[str, list[float]] = {name: [] for name in copies}
    with torch.inference_mode():
        for _ in range(searches):
            for name, fast in copies.items():
                memory = fast.encode(src)
                cache = fast.start_decoding(memory)
                cache.reorder(torch.arange(sentences).repeat_interleave(4))  # each sentence's 4 beams
                for _ in range(SEARCH_STEPS):
                    started = time.perf_counter()
                    fast.decode_top(tokens, memory, padding_mask(src, config.pad_id), cache, 8, [])
                    times[name].append((time.perf_counter() - started) * 1e3)
    print(f"{sentences} sentence(s)' search, {4 * sentences} rows, {SEARCH_STEPS} steps, {searches} searches of each "
          "copy in turn (ms a step):")
    for name, said in times.items():
        said.sort()
        print(f"  {name:<26} median {said[len(said) // 2]:6.2f}   fastest {said[0]:6.2f}")


if __name__ == "__main__":
    main()
