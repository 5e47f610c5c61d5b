"""Would float32 layers computed from bf16 pieces (as AMX tiles multiply) keep float32's translations?

    .venv/bin/python benchmarks/experiments/split_bf16_fidelity.py MODEL_DIR INPUT [--lines 1000] [--beam 4]

AMX multiplies bf16 by bf16 into float32 sums, about 16 times the float32 rate of AVX-512 per core.
A float32 layer can be made of such products by splitting each float32 value into a bf16 part and
the bf16 of what is left (x ≈ x_hi + x_lo, W ≈ W_hi + W_lo): "bf16x3" sums x_hi·W_hi + x_hi·W_lo +
x_lo·W_hi (the relative error of each product about 2⁻¹⁶ instead of float32's 2⁻²⁴), "bf16x6" adds a
third piece and every product down to that order (about 2⁻²⁴).  This experiment emulates those
sums on any CPU (a product of two bf16 values is exact in float32, so a float32 matmul of the
pieces is what the tiles compute, up to the order of the additions) in every linear layer of the
readable model, output layer included, and counts the translated lines that differ from float32's
(and, for scale, those of attnmt's own float32 inference copy, whose kernels sum in another order).
Attention's own products stay float32.  No kernel is written here: this says whether one is worth
writing, on a CPU where it cannot be timed.
"""

from __future__ import annotations

import argparse
import gzip
import time

import sacrebleu
import torch
import torch.nn.functional as F

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.fast import prepare
from attnmt.fast.kernels import FloatKernel, KernelChoice, step_shapes
from attnmt.fast.panels import embeddings_from_panels, tiles_run, use_float_panels
from attnmt.fast.step import FusedDecoderStep
from attnmt.hardware import cpu_model

PLAIN = F.linear


def pieces(t: torch.Tensor, count: int) -> list[torch.Tensor]:
    """t as ``count`` bf16 values (held in float32) whose sum approximates it."""
    out = []
    rest = t
    for _ in range(count):
        piece = rest.bfloat16().float()
        out.append(piece)
        rest = rest - piece
    return out


def split_linear(count: int):
    """F.linear from products of bf16 pieces, those whose orders sum to at most count - 1 (count 2:
    bf16x3; count 3: bf16x6; count 1: plain bf16 products with float32 sums)."""
    def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        xs, ws = pieces(x, count), pieces(weight, count)
        y = None
        for i, xp in enumerate(xs):  # smallest products first would be better; the tiles sum in one accumulator
            for j, wp in enumerate(ws):
                if i + j < count:
                    part = PLAIN(xp, wp)
                    y = part if y is None else y + part
        return y if bias is None else y + bias
    return linear


def read(path: str, lines: int) -> list[str]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return f.read().splitlines()[:lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("input")
    parser.add_argument("--reference", help="for BLEU")
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--beam", type=int, default=4)
    parser.add_argument("--max-len-b", type=int, help="a fixed output length (random-weight models)")
    parser.add_argument("--only-kernel", action="store_true",
                        help="float32 and attnmt's copies only (no emulation): the tiles' row is the slow one")
    args = parser.parse_args()
    torch.set_num_threads(2)
    model, tokenizer = load_model_dir(args.model)
    source = read(args.input, args.lines)
    reference = read(args.reference, args.lines) if args.reference else None
    decoding = Decoding(beam_size=args.beam, **({"max_len_a": 0, "max_len_b": args.max_len_b}
                                                 if args.max_len_b else {}))
    print(f"CPU {cpu_model()}; PyTorch {torch.__version__}; {args.model}, {len(source)} lines of {args.input}, "
          f"beam {args.beam}; the readable model, every linear layer as named")
    results = {}
    variants = (("float32", PLAIN),) if args.only_kernel else (
        ("float32", PLAIN), ("bf16x6", split_linear(3)), ("bf16x3", split_linear(2)),
        ("bf16 products, float32 sums", split_linear(1)))
    for name, linear in variants:
        F.linear = linear
        try:
            started = time.perf_counter()
            with torch.inference_mode():
                results[name] = translate(model, tokenizer, source, decoding)
            seconds = time.perf_counter() - started
        finally:
            F.linear = PLAIN
        differ = sum(a != b for a, b in zip(results[name], results["float32"], strict=True))
        bleu = f"; BLEU {sacrebleu.corpus_bleu(results[name], [reference]).score:.2f}" if reference else ""
        print(f"  {name:28} {differ:4} of {len(source)} lines differ from float32's{bleu} ({seconds:.0f} s)")
    fast = translate(prepare(model), tokenizer, source, decoding)
    differ = sum(a != b for a, b in zip(fast, results["float32"], strict=True))
    print(f"  (attnmt's own float32 inference copy, its kernels: {differ} of {len(source)} lines differ)")
    on_amx = tiles_run()
    started = time.perf_counter()
    tiled = translate(on_tiles(model, not on_amx), tokenizer, source, decoding)
    differ = sum(a != b for a, b in zip(tiled, results["float32"], strict=True))
    bleu = f"; BLEU {sacrebleu.corpus_bleu(tiled, [reference]).score:.2f}" if reference else ""
    print(f"  attnmt's copy, its step's layers on the tiles (bf16x3, {'AMX' if on_amx else 'the model of the tiles'}): "
          f"{differ} of {len(source)} lines differ from float32's{bleu} ({time.perf_counter() - started:.0f} s)")


def on_tiles(model: torch.nn.Module, on_model: bool) -> torch.nn.Module:
    """attnmt's float32 copy with every decoder-step layer on the tiles (attnmt.fast.panels.TiledLinear)."""
    fast = prepare(model)
    use_float_panels(fast, KernelChoice.forced(FloatKernel.TILES, step_shapes(model.config)), on_model)
    embeddings_from_panels(fast)
    fast.step = FusedDecoderStep(fast)
    return fast


if __name__ == "__main__":
    main()
