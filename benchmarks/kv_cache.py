"""Decoder key/value cache upkeep: attnmt's preallocated LayerCache against concatenation.

    .venv/bin/python benchmarks/kv_cache.py [--rounds 15]

A cached decoder step adds one position's keys and values to every layer's cache
and, in beam search, reorders the rows to the surviving hypotheses' parents.
The usual way (Hugging Face's DynamicCache, attnmt before 2026-11-21) concatenates
the new position to all earlier ones, copying the whole cache every step.
attnmt's LayerCache writes the position into room made up front for the search's
most steps (doubling if ever full), and a reorder gathers only the filled
positions into a second buffer that is kept for the next reorder.

This times the cache upkeep alone (no attention, no matmuls) for one layer of the
Multi30k model's shape (4 heads of 64): greedy (32 rows, no reorder) and beam 4
(128 rows, reordered every step), 20 and 40 steps.  Both run interleaved in one
process, ``--rounds`` times; the minimum and median count.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import torch
from torch import Tensor

from attnmt.layers import LayerCache

HEADS, HEAD_DIM, SOURCE = 4, 64, 15
CASES = {"greedy, 20 steps": (32, False, 20), "greedy, 40 steps": (32, False, 40),
         "beam 4, 20 steps": (128, True, 20), "beam 4, 40 steps": (128, True, 40)}


class ConcatCache:
    """The concatenating cache: every step copies all earlier positions."""

    def __init__(self) -> None:
        self.k: Tensor | None = None
        self.v: Tensor | None = None

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        self.k = k if self.k is None else torch.cat([self.k, k], dim=2)
        self.v = v if self.v is None else torch.cat([self.v, v], dim=2)
        return self.k, self.v

    def reorder(self, rows: Tensor) -> None:
        self.k, self.v = self.k.index_select(0, rows), self.v.index_select(0, rows)


def decode_steps(make: Callable[[int], object], rows: int, reorder: bool, steps: int) -> None:
    cache = make(steps)
    k = torch.randn(rows, HEADS, 1, HEAD_DIM)
    parents = torch.randperm(rows)
    for _ in range(steps):
        cache.append(k, k)
        if reorder:
            cache.reorder(parents)


def milliseconds(fn: Callable[..., None], *args, repeats: int = 20) -> float:
    started = time.perf_counter()
    for _ in range(repeats):
        fn(*args)
    return (time.perf_counter() - started) / repeats * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    cross = torch.randn(32, HEADS, SOURCE, HEAD_DIM)
    # A search tells the cache its most steps (its output limit), as here.
    makers = {"attnmt LayerCache": lambda steps: LayerCache(cross, cross, room=steps),
              "concatenation": lambda steps: ConcatCache()}
    times: dict[tuple[str, str], list[float]] = {}
    with torch.inference_mode():
        for _ in range(args.rounds):
            for case, (rows, reorder, steps) in CASES.items():
                for name, make in makers.items():
                    ms = milliseconds(decode_steps, make, rows, reorder, steps)
                    times.setdefault((case, name), []).append(ms)
    print(f"key/value cache upkeep of one decoder layer ({HEADS} heads of {HEAD_DIM}), {args.threads} threads, "
          f"torch {torch.__version__}, {args.rounds} interleaved rounds; ms per sentence batch")
    print(f"  {'case':<18} {'attnmt min/median':>18} {'concat min/median':>18} {'concat slower by':>17}")
    for case in CASES:
        ours, theirs = times[case, "attnmt LayerCache"], times[case, "concatenation"]
        print(f"  {case:<18} {min(ours):>8.2f} {statistics.median(ours):>8.2f}   "
              f"{min(theirs):>7.2f} {statistics.median(theirs):>8.2f}   {min(theirs) / min(ours):>15.2f}x")


if __name__ == "__main__":
    main()
