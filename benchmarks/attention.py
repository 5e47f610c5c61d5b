"""Forward + backward of attnmt's MultiHeadAttention against torch.nn.MultiheadAttention.

    .venv/bin/python benchmarks/attention.py [--batch 64 --length 32 --d-model 512 --heads 8]

Same sizes, same weights, same inputs, self-attention with a padding mask, fp32 and
bf16 autocast.  Prints the median time of each and the ratio ours/theirs (target: ≤ 1.0).
Both run in this process, interleaved, so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from contextlib import nullcontext

import torch
from torch import nn

from attnmt.attention import MultiHeadAttention, padding_mask


def copy_weights(ours: MultiHeadAttention, theirs: nn.MultiheadAttention) -> None:
    with torch.no_grad():
        w_q, w_k, w_v = theirs.in_proj_weight.chunk(3)
        b_q, b_k, b_v = theirs.in_proj_bias.chunk(3)
        for proj, w, b in ((ours.q_proj, w_q, b_q), (ours.k_proj, w_k, b_k), (ours.v_proj, w_v, b_v)):
            proj.weight.copy_(w)
            proj.bias.copy_(b)
        ours.out_proj.load_state_dict(theirs.out_proj.state_dict())


def timed(step, repeats: int) -> float:
    step()  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--length", type=int, default=32)
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--precisions", default="fp32,bf16", help="bf16 is emulated (very slow) without AVX512-BF16")
    args = parser.parse_args()

    torch.manual_seed(0)
    theirs = nn.MultiheadAttention(args.d_model, args.heads, batch_first=True)
    ours = MultiHeadAttention(args.d_model, args.heads)
    copy_weights(ours, theirs)
    x = torch.randn(args.batch, args.length, args.d_model, requires_grad=True)
    tokens = torch.ones(args.batch, args.length, dtype=torch.long)
    tokens[::2, -args.length // 4:] = 0  # every other sentence ends in padding
    mask, key_padding = padding_mask(tokens, 0), tokens == 0

    def step_ours():
        out, _ = ours(x, x, x, mask)
        out.float().sum().backward()

    def step_theirs():
        out, _ = theirs(x, x, x, key_padding_mask=key_padding, need_weights=False)
        out.float().sum().backward()

    print(f"MultiHeadAttention forward+backward, batch {args.batch}, length {args.length}, "
          f"d_model {args.d_model}, {args.heads} heads, {torch.get_num_threads()} threads")
    print(f"{'precision':<10} {'attnmt ms':>10} {'torch.nn ms':>12} {'ratio':>7}")
    for precision in args.precisions.split(","):
        context = torch.autocast("cpu", dtype=torch.bfloat16) if precision == "bf16" else nullcontext()
        with context:
            ours_s, theirs_s = [], []
            for _ in range(3):  # interleave rounds so drift affects both
                ours_s.append(timed(step_ours, args.repeats))
                theirs_s.append(timed(step_theirs, args.repeats))
        a, b = min(ours_s), min(theirs_s)
        print(f"{precision:<10} {a * 1e3:>10.2f} {b * 1e3:>12.2f} {a / b:>7.2f}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
