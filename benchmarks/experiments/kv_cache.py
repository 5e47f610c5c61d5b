"""Preallocated key/value caches against attnmt's concatenating LayerCache: measured, not adopted.

    .venv/bin/python benchmarks/experiments/kv_cache.py [--rounds 15] [--sentences 320] [--model runs/bench_multi30k]

attnmt's decoder cache (attnmt.layers.LayerCache) concatenates each step's keys and
values to the earlier ones, copying the whole cache every step, and a beam reorder
index-selects it into a new tensor.  ``PreallocatedCache`` below is the textbook
alternative: room for the search's most steps made up front, each step writes its
position into it, and a reorder gathers the filled positions into a second buffer
that is kept for the next reorder, so no step allocates.

Two measurements, the two caches interleaved in one process:

1. upkeep alone: the appends and reorders of one layer (4 heads of 64, the Multi30k
   model's shape), no attention or matmuls; greedy (32 rows) and beam 4 (128 rows,
   reordered every step), 20 and 40 steps; ``--rounds`` rounds, min and median;
2. whole decoding with the trained model (test_2016_flickr's first ``--sentences``,
   batches of 32, the packed model ``attnmt translate`` runs) with each cache
   swapped in, 3 rounds: seconds (fastest) and minor page faults (kernel-side
   mapping and zeroing of freshly allocated memory).

On 2026-11-21 (benchmarks/results/kv_cache.txt) the upkeep alone was 1.3-4.1x
faster preallocated, but whole decoding was slower (0.84-0.98x): the buffers, a few
MB per layer allocated per batch, are fresh memory each time, which the kernel
must map and zero (natural beam 4: 144,210 page faults against 3,858).  So
LayerCache keeps concatenating.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import torch
from torch import Tensor

from attnmt import layers
from attnmt.checkpoint import load_model_dir
from attnmt.fast import prepare
from attnmt.layers import LayerCache

HEADS, HEAD_DIM, SOURCE = 4, 64, 15
UPKEEP_CASES = {"greedy, 20 steps": (32, False, 20), "greedy, 40 steps": (32, False, 40),
                "beam 4, 20 steps": (128, True, 20), "beam 4, 40 steps": (128, True, 40)}
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class PreallocatedCache(LayerCache):
    """LayerCache's interface; keys and values live in one [N, 2, H, capacity, d] buffer
    whose first ``length`` positions are filled."""

    buffer: Tensor | None = None
    spare: Tensor | None = field(default=None, repr=False)  # the next reorder's target
    length: int = 0
    room: ClassVar[int] = 16  # positions the first buffer holds (a search knows its most steps)

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        start, end = self.length, self.length + k.size(2)
        if self.buffer is None or end > self.buffer.size(3):
            grown = k.new_empty(k.size(0), 2, k.size(1), max(2 * end, self.room), k.size(3))
            if start:
                grown[:, :, :, :start] = self.buffer[:, :, :, :start]
            self.buffer, self.spare = grown, None
        self.buffer[:, 0, :, start:end] = k
        self.buffer[:, 1, :, start:end] = v
        self.length = end
        return self.buffer[:, 0, :, :end], self.buffer[:, 1, :, :end]

    def reorder(self, rows: Tensor, groups: Tensor | None = None) -> None:
        if self.buffer is not None:
            shape = (rows.size(0), *self.buffer.shape[1:])
            if self.spare is None or self.spare.shape != shape:
                self.spare = self.buffer.new_empty(shape)
            filled = self.buffer[:, :, :, : self.length]
            torch.index_select(filled, 0, rows, out=self.spare[:, :, :, : self.length])
            self.buffer, self.spare = self.spare, self.buffer
        if groups is not None:
            self.cross_k, self.cross_v = self.cross_k.index_select(0, groups), self.cross_v.index_select(0, groups)


def preallocated(cross: Tensor, room: int) -> PreallocatedCache:
    cache = PreallocatedCache(cross, cross)
    cache.room = room
    return cache


def upkeep(make: Callable[[int], LayerCache], rows: int, reorder: bool, steps: int) -> None:
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


def upkeep_table(rounds: int) -> None:
    cross = torch.randn(32, HEADS, SOURCE, HEAD_DIM)
    makers = {"LayerCache": lambda steps: LayerCache(cross, cross),
              "preallocated": lambda steps: preallocated(cross, steps)}
    times: dict[tuple[str, str], list[float]] = {}
    with torch.inference_mode():
        for _ in range(rounds):
            for case, (rows, reorder, steps) in UPKEEP_CASES.items():
                for name, make in makers.items():
                    times.setdefault((case, name), []).append(milliseconds(upkeep, make, rows, reorder, steps))
    print(f"1. cache upkeep alone, one layer ({HEADS} heads of {HEAD_DIM}), ms per batch, {rounds} rounds")
    print(f"  {'case':<18} {'LayerCache min/median':>22} {'preallocated min/median':>24} "
          f"{'preallocated faster by':>23}")
    for case in UPKEEP_CASES:
        ours, theirs = times[case, "LayerCache"], times[case, "preallocated"]
        print(f"  {case:<18} {min(ours):>11.2f} {statistics.median(ours):>9.2f}  {min(theirs):>12.2f} "
              f"{statistics.median(theirs):>10.2f}  {min(ours) / min(theirs):>21.2f}x")


def decoding_table(model_dir: str, sentences: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/decode.py's helpers
    from decode import BATCH, FIXED_STEPS, attnmt_engine, natural_limit, test_batches

    model, tokenizer = load_model_dir(model_dir)
    batches = test_batches(tokenizer, sentences)
    # The Python step: the fused C++ step keeps its own caches in LayerCache's fields.
    engine = attnmt_engine(prepare(model, fused_step=False))
    modes = {"natural, beam 4": (4, False), "fixed, greedy": (1, True), "fixed, beam 4": (4, True)}
    results: dict[tuple[str, str], list[tuple[float, int, list]]] = {}
    for _ in range(3):
        for name, cache in (("LayerCache", LayerCache), ("preallocated", PreallocatedCache)):
            layers.LayerCache = cache  # what DecoderLayer.init_cache builds
            for mode, (beam, fixed) in modes.items():
                engine(batches[0], beam, fixed)  # warm-up
                faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
                started = time.perf_counter()
                outputs = []
                for batch in batches:
                    PreallocatedCache.room = FIXED_STEPS if fixed else natural_limit(batch, model.config.max_positions)
                    outputs += engine(batch, beam, fixed)
                seconds = time.perf_counter() - started
                faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
                results.setdefault((mode, name), []).append((seconds, faults, outputs))
    layers.LayerCache = LayerCache
    print(f"\n2. whole decoding, {sentences} test_2016_flickr sentences in batches of {BATCH}, fastest of 3 rounds")
    print(f"  {'mode':<16} {'LayerCache s':>13} {'faults':>9} {'preallocated s':>15} {'faults':>9} "
          f"{'preallocated faster by':>23}  same output")
    for mode in modes:
        ours, theirs = results[mode, "LayerCache"], results[mode, "preallocated"]
        best_ours, best_theirs = min(r[0] for r in ours), min(r[0] for r in theirs)
        same = all(a[2] == b[2] for a, b in zip(ours, theirs, strict=True))
        print(f"  {mode:<16} {best_ours:>13.2f} {min(r[1] for r in ours):>9} {best_theirs:>15.2f} "
              f"{min(r[1] for r in theirs):>9} {best_ours / best_theirs:>22.2f}x  {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="rounds of the upkeep measurement")
    parser.add_argument("--sentences", type=int, default=320, help="0: skip whole decoding")
    parser.add_argument("--model", default=str(ROOT / "runs/bench_multi30k"))
    args = parser.parse_args()
    torch.set_num_threads(2)
    print(f"2 threads, torch {torch.__version__}\n")
    upkeep_table(args.rounds)
    if args.sentences:
        decoding_table(args.model, args.sentences)


if __name__ == "__main__":
    main()
