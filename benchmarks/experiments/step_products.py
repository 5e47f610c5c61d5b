"""The float32 decoder step against its matrix products alone, in one process, in turns: how much of a
step is the products' own rate, and how much the step adds around them (cold weights, attention, the
next tokens' choice).

    .venv/bin/python benchmarks/experiments/step_products.py MODEL_DIR [--threads 1] [--sentences 25]
        [--searches 4]

MODEL_DIR: an attnmt model directory (benchmarks/opus_shape.py --keep DIR leaves one in DIR/attnmt).
The model's float32 copy with every layer on the panels searches ``--sentences`` sentences at beam 4
(4 rows each) for 40 steps from an empty cache, ``--searches`` times; every 4th step, the same products
alone (the decoder layers' six per layer and the output layer's top_log_probs, on random weights of the
step's shapes, warm in the caches as far as they fit) are timed. The multiply-adds a second of both
show what the host gives this minute and how far below it the step runs.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.fast import FastTransformer, prepare
from attnmt.fast.kernels import FloatKernel, KernelChoice, step_shapes
from attnmt.fast.panels import PanelLinear
from attnmt.hardware import cpu_model
from attnmt.model import padding_mask

STEPS = 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--sentences", type=int, default=25)
    parser.add_argument("--searches", type=int, default=4)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, _ = load_model_dir(args.model)
    config, rows = model.config, 4 * args.sentences
    FastTransformer.kernel_choice = KernelChoice.forced(FloatKernel.PANELS, step_shapes(config))
    try:
        fast = prepare(model)
    finally:
        FastTransformer.kernel_choice = None
    d, f = config.d_model, config.d_ff
    layer_shapes = [(3 * d, d), (d, d), (d, d), (d, d), (f, d), (d, f)]  # self q/k/v, self out, cross q, cross out, FFN
    generator = torch.Generator().manual_seed(1)
    alone = {shape: (PanelLinear(torch.randn(*shape, generator=generator), torch.zeros(shape[0])),
                     torch.randn(rows, shape[1], generator=generator)) for shape in set(layer_shapes)}
    output = PanelLinear(torch.randn(config.vocab_size, d, generator=generator), torch.zeros(config.vocab_size))
    output_x = torch.randn(rows, d, generator=generator)

    def products_ms() -> float:
        started = time.perf_counter()
        for _ in range(config.decoder_layers):
            for shape in layer_shapes:
                layer, x = alone[shape]
                layer(x)
        output.top_log_probs(output_x, 8)
        return (time.perf_counter() - started) * 1e3

    src = torch.randint(4, config.vocab_size - 1, (args.sentences, 30), generator=torch.Generator().manual_seed(0))
    tokens = torch.full((rows, 1), 5)
    steps, products = [], []
    with torch.inference_mode():
        for _ in range(args.searches):
            memory = fast.encode(src)
            cache = fast.start_decoding(memory)
            cache.reorder(torch.arange(args.sentences).repeat_interleave(4))  # each sentence's 4 beams
            for step in range(STEPS):
                started = time.perf_counter()
                fast.decode_top(tokens, memory, padding_mask(src, config.pad_id), cache, 8, [])
                steps.append((time.perf_counter() - started) * 1e3)
                if step % 4 == 0:
                    products.append(products_ms())
    multiply_adds = rows * (config.decoder_layers * sum(n * k for n, k in layer_shapes) + config.vocab_size * d)
    print(f"{cpu_model()}, PyTorch {torch.__version__}, {args.threads} thread(s), {rows} rows, "
          f"{multiply_adds / 1e9:.2f} G multiply-adds a step")
    for name, times in (("the step", steps), ("its products alone", products)):
        times.sort()
        median = times[len(times) // 2]
        print(f"  {name:<20} median {median:7.1f} ms ({multiply_adds / median / 1e6:4.0f} G/s), "
              f"fastest {times[0]:7.1f} ms ({multiply_adds / times[0] / 1e6:4.0f} G/s)")


if __name__ == "__main__":
    main()
