"""How attention's cost grows with sequence length: the explicit path against the fused one.

    .venv/bin/python benchmarks/attention_scaling.py [--max-length 8192] [--plot FILE.png]

One head group of a base-size layer (8 heads of 64 dimensions), batch 1, forward only.
The explicit path (need_weights=True) materialises the L × L weight matrix, so its
memory grows quadratically; PyTorch's fused kernel works in tiles and never holds it.
Each length runs in a fresh subprocess so peak memory (RSS) is that length's alone;
a length that exceeds --memory-limit-gib is reported as not fitting instead of run.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

HEADS, HEAD_DIM = 8, 64


def measure(length: int, path: str) -> dict:
    """Runs in the child process: time and peak RSS of one attention forward."""
    import torch

    from attnmt.attention import scaled_dot_product_attention

    torch.manual_seed(0)
    q, k, v = (torch.randn(1, HEADS, length, HEAD_DIM) for _ in range(3))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    need_weights = path == "explicit"
    with torch.inference_mode():
        scaled_dot_product_attention(q, k, v, need_weights=need_weights)  # warm-up
        started = time.perf_counter()
        repeats = 3
        for _ in range(repeats):
            scaled_dot_product_attention(q, k, v, need_weights=need_weights)
        seconds = (time.perf_counter() - started) / repeats
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"length": length, "path": path, "ms": seconds * 1e3, "extra_peak_mib": (peak - before) / 1024}


def explicit_bytes(length: int) -> int:
    """Scores, softmax weights and masked copies: about 3 float32 L×L matrices per head."""
    return 3 * HEADS * length * length * 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-length", type=int, default=8192)
    parser.add_argument("--memory-limit-gib", type=float, default=16.0)
    parser.add_argument("--plot", default="benchmarks/results/attention_scaling.png")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(int(args.child[0]), args.child[1])))
        return

    lengths = [128 * 2**i for i in range(20) if 128 * 2**i <= args.max_length]
    rows = []
    print(f"attention forward, 1 × {HEADS} heads × {HEAD_DIM} dims, float32")
    print(f"{'length':>7} {'fused ms':>10} {'fused MiB':>10} {'explicit ms':>12} {'explicit MiB':>13} {'ratio':>7}")
    for length in lengths:
        row = {"length": length}
        for path in ("fused", "explicit"):
            if path == "explicit" and explicit_bytes(length) > args.memory_limit_gib * 2**30:
                row[path] = None
                continue
            out = subprocess.run([sys.executable, __file__, "--child", str(length), path],
                                 capture_output=True, text=True, check=True)
            row[path] = json.loads(out.stdout)
        rows.append(row)
        fused, explicit = row["fused"], row["explicit"]
        if explicit:
            print(f"{length:>7} {fused['ms']:>10.2f} {fused['extra_peak_mib']:>10.1f} {explicit['ms']:>12.2f} "
                  f"{explicit['extra_peak_mib']:>13.1f} {explicit['ms'] / fused['ms']:>7.2f}")
        else:
            print(f"{length:>7} {fused['ms']:>10.2f} {fused['extra_peak_mib']:>10.1f} "
                  f"{'does not fit in ' + str(args.memory_limit_gib) + ' GiB':>33}")
    plot(rows, Path(args.plot))
    print(f"plot: {args.plot}")


def plot(rows: list[dict], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.parent.mkdir(parents=True, exist_ok=True)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for path, style in (("fused", "o-"), ("explicit", "s--")):
        points = [(r["length"], r[path]) for r in rows if r[path]]
        left.loglog([p[0] for p in points], [p[1]["ms"] for p in points], style, base=2, label=path)
        right.loglog([p[0] for p in points], [max(p[1]["extra_peak_mib"], 0.1) for p in points], style,
                     base=2, label=path)
    left.set(xlabel="sequence length", ylabel="ms per forward", title="time")
    right.set(xlabel="sequence length", ylabel="extra peak RSS (MiB)", title="memory")
    for ax in (left, right):
        ax.grid(alpha=0.3, which="both")
        ax.legend()
    fig.suptitle("attention cost vs length: explicit (L×L matrix) vs fused kernel")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
