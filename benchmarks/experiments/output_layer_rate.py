"""The output layer's multiply-add rate at OPUS-MT's shape (144 rows x 512 -> 58,101, beam 4's rows of
36 sentences): attnmt's float32 and int8 inference copies against PyTorch's own float32 matmul, in one
process, fastest of 10 after 3 warm-ups.  Set against the CPU's peak (vector_peak.cpp).

    .venv/bin/python benchmarks/experiments/output_layer_rate.py MODEL_DIR [--threads 1]

MODEL_DIR: an attnmt model directory of that shape (benchmarks/opus_shape.py --keep DIR leaves one in
DIR/attnmt).
"""

from __future__ import annotations

import argparse

import torch
from opus_step import fastest  # this folder is on the path when the script runs

from attnmt.fast.prepared import load_int8, load_packed
from attnmt.hardware import cpu_model

ROWS = 144


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    fp32, _ = load_packed(args.model)
    int8, _ = load_int8(args.model)
    vocab, d_model = fp32.config.vocab_size, fp32.config.d_model
    x, weight = torch.randn(ROWS, d_model), torch.randn(vocab, d_model)
    multiply_adds = ROWS * d_model * vocab
    with torch.inference_mode():
        for name, call in (("attnmt float32 (its chosen kernel)", lambda: fp32.output(x)),
                           ("attnmt int8", lambda: int8.output(x)),
                           ("torch.matmul float32, x @ W.T", lambda: x @ weight.T)):
            for _ in range(3):  # warm-up
                call()
            ms = fastest(call, 10)
            print(f"{cpu_model()}, {args.threads} thread(s): {name:36s} {ms:6.1f} ms  "
                  f"{multiply_adds / ms / 1e6:5.0f} G multiply-adds/s")


if __name__ == "__main__":
    main()
