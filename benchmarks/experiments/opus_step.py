"""Where a decoding step's time goes at OPUS-MT's shape (58,101 pieces): the whole C++ step
against its output layer alone and the next tokens' choice.

    .venv/bin/python benchmarks/experiments/opus_step.py MODEL_DIR [--rows 256] [--threads 1]
        [--position 20] [--source-length 30]

MODEL_DIR: an attnmt model directory (benchmarks/opus_shape.py --keep DIR leaves one in DIR/attnmt).
One batch of ``rows`` / 4 sentences of ``--source-length`` source tokens, beam 4's rows
(``--rows``), the cache filled to ``--position`` positions and growing in place (long inputs: both
120 or 250); each
part timed alone on the same inputs, fastest of ``--repeats``, for the fp32 and the int8
inference copies.
"""

from __future__ import annotations

import argparse
import time

import torch

from attnmt.checkpoint import load_model_dir
from attnmt.fast import prepare
from attnmt.hardware import cpu_model
from attnmt.model import padding_mask


def fastest(call, repeats: int) -> float:
    """Milliseconds of the fastest of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - started)
    return best * 1e3


def measure(fast, rows: int, position: int, repeats: int, source_length: int = 30) -> dict[str, float]:
    c = fast.config
    torch.manual_seed(0)
    sentences = rows // 4
    src = torch.randint(4, c.vocab_size - 1, (sentences, source_length))
    with torch.inference_mode():
        memory = fast.encode(src)
        src_mask = padding_mask(src, c.pad_id)
        encode_ms = fastest(lambda: fast.encode(src), repeats)
        cache = fast.start_decoding(memory)
        cache.reorder(torch.arange(sentences).repeat_interleave(rows // sentences))
        cache.reserve(position + repeats + 1)  # as a search does: each step appends in place
        tokens = torch.randint(4, c.vocab_size - 1, (rows, 1))
        for _ in range(position):
            fast.decode(tokens, memory, src_mask, cache=cache)
        states = torch.randn(rows, c.d_model)
        logits = fast.output(states)

        def one_step():  # the cache grows by one position each time: positions position .. + repeats
            fast.decode(tokens, memory, src_mask, cache=cache)

        return dict(
            step=fastest(one_step, repeats),
            output=fastest(lambda: fast.output(states), repeats),
            top=fastest(lambda: fast.next_tokens.top_log_probs(logits, 8, [c.pad_id, c.bos_id]), repeats),
            encode=encode_ms,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--position", type=int, default=20)
    parser.add_argument("--source-length", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, _ = load_model_dir(args.model)
    print(f"CPU {cpu_model()}, {args.threads} thread(s); {args.rows} rows, cache of {args.position} positions, "
          f"sources of {args.source_length} tokens, "
          f"vocabulary {model.config.vocab_size:,}; ms, fastest of {args.repeats}")
    for name, int8 in (("fp32", False), ("int8", True)):
        t = measure(prepare(model, int8=int8), args.rows, args.position, args.repeats, args.source_length)
        print(f"  {name}: whole step (embedding .. logits) {t['step']:.1f}, of it the output layer alone "
              f"{t['output']:.1f} ({t['output'] / t['step']:.0%}), the rest (the stack: attention grows with "
              f"the lengths) {t['step'] - t['output']:.1f}; top-8 over the logits {t['top']:.1f}; "
              f"encoding the {args.rows // 4} sentences {t['encode']:.1f}")


if __name__ == "__main__":
    main()
