"""Which kernel multiplies each float32 layer of the C++ decoder step: chosen on the user's CPU by
timing the candidates, not by a rule about CPUs.

The candidates, for each shape [out, in] the step multiplies (the fused Q, K, V projection,
the attention outputs, the two feed-forward layers and the output projection):

- ``PANELS``: attnmt's own kernel (``csrc/float_panels.cpp``: AVX-512 or AVX2 + FMA), W in
  panels of 16 columns (attnmt.fast.panels.PanelLinear);
- ``ONEDNN``: PyTorch's oneDNN matmul on W packed once in its blocked layout
  (attnmt.fast.packed.PackedLinear), which uses AMX or AVX-512 where the CPU has them.

The right one differs by CPU (oneDNN's float32 GEMM is the faster one on some Xeons, the panels
on AMD's EPYCs) and by shape, so ``measure`` times both at the step's usual row count, called in
turn for a fraction of a second, the fastest call counting, and keeps the faster per shape.  It runs
once, when the float32 copy is first prepared (attnmt.fast.prepared, about a second); the choice is
stored with the prepared copy and shown by ``attnmt doctor``.  Both compute x Wᵀ + b in float32:
the results differ only by summation order (tests/fast/test_kernels.py).

The encoder's layers and cross-attention's keys and values stay on the panels whatever is
chosen: they meet inputs of every source length, and oneDNN keeps a primitive, with its own copy
of the weight, per row count it meets (attnmt.fast.panels.use_float_panels).

The int8 copy's step layers are chosen the same way (``measure_int8``) among the int8 panel kernels
this process can run (``csrc/int8_panels.cpp``: AMX tiles, AVX512-VNNI, AVX2), which all read the
same panels: AMX's tiles pay for padding a step's rows to whole tiles of 16 and for their
configuration, so where they win is a matter of shape and CPU.  Where only one kernel runs there is
nothing to time.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from enum import Enum
from functools import partial

import torch

from attnmt.config import TransformerConfig

# Rows of a decoder step: 32 sentences × beam 4, the step's usual batch.
STEP_ROWS = 128
# The output projection (tens of thousands of columns) is timed on this many of its columns:
# the kernels' time grows linearly with the columns, and timing all of them would take seconds.
MOST_COLUMNS = 4096
# Each shape's candidates are called in turn for at least this long and this many rounds, the
# fastest call counting: on a machine shared with other processes most calls are slowed by them,
# and more calls make it likelier that one ran undisturbed.  Five shapes: about a second in all.
SECONDS_PER_SHAPE = 0.15
ROUNDS = 3
# The output projection stays on the panels unless oneDNN is this much faster: on the panels beam
# search's choice comes out of the same pass and the [rows, V] logits are never written (attnmt.fast.
# step.FusedDecoderStep.decode_top), which timing the layer alone on 4,096 columns does not see.  On
# an EPYC capped to AVX2, oneDNN was 3 % faster alone; on the panels the OPUS-shaped float32 job ran as
# fast and peaked 48 MiB lower (benchmarks/results/output_kernel_capped_avx2.txt).
OUTPUT_PANELS_MARGIN = 1.10


class FloatKernel(Enum):
    PANELS = "panels"
    ONEDNN = "onednn"


@dataclass(frozen=True)
class KernelChoice:
    """The kernel for each shape (out_features, in_features) of the step's float32 layers, and the
    fastest call's milliseconds per candidate that chose it (``timings``: empty where forced)."""

    kernels: dict[tuple[int, int], FloatKernel]
    timings: dict[tuple[int, int], dict[FloatKernel, float]] = field(default_factory=dict)

    def kernel_for(self, out_features: int, in_features: int) -> FloatKernel:
        """The chosen kernel; the panels for a shape the choice does not name."""
        return self.kernels.get((out_features, in_features), FloatKernel.PANELS)

    @classmethod
    def forced(cls, kernel: FloatKernel, shapes: list[tuple[int, int]]) -> KernelChoice:
        """Every shape on ``kernel`` (tests compare each candidate with the readable model)."""
        return cls(dict.fromkeys(shapes, kernel))

    def to_json(self) -> str:
        return json.dumps([{"shape": list(shape), "kernel": kernel.value,
                            "ms": {k.value: round(ms, 4) for k, ms in self.timings.get(shape, {}).items()}}
                           for shape, kernel in self.kernels.items()])

    @classmethod
    def from_json(cls, text: str) -> KernelChoice:
        entries = json.loads(text)
        return cls({tuple(e["shape"]): FloatKernel(e["kernel"]) for e in entries},
                   {tuple(e["shape"]): {FloatKernel(k): ms for k, ms in e["ms"].items()} for e in entries if e["ms"]})

    def describe(self) -> list[str]:
        """One line per shape: the kernel and the timings that chose it."""
        lines = []
        for (n, k), kernel in sorted(self.kernels.items()):
            times = ", ".join(f"{c.value} {ms:.3f} ms" for c, ms in self.timings.get((n, k), {}).items())
            lines.append(f"{n} × {k}: {kernel.value}" + (f" ({times} at {STEP_ROWS} rows)" if times else " (forced)"))
        return lines


def step_shapes(config: TransformerConfig) -> list[tuple[int, int]]:
    """The [out, in] shapes of the float32 layers a decoder step multiplies."""
    d, ff = config.d_model, config.d_ff
    return list(dict.fromkeys([(3 * d, d), (d, d), (ff, d), (d, ff), (config.vocab_size, d)]))


def faster(best: dict[FloatKernel, float], panels_margin: float = 1.0) -> FloatKernel:
    """The kernel of the fastest call in ``best`` (ms per candidate); oneDNN only where it is faster
    than the panels by more than ``panels_margin``."""
    clearly = best[FloatKernel.ONEDNN] * panels_margin < best[FloatKernel.PANELS]
    return FloatKernel.ONEDNN if clearly else FloatKernel.PANELS


def fastest_calls(candidates: dict, seconds: float = SECONDS_PER_SHAPE) -> dict:
    """Milliseconds of the fastest call of each candidate (a function of no arguments), called in turn
    for at least ``seconds`` and ROUNDS rounds, after a first call each (which sets up oneDNN's
    primitive and warms the caches)."""
    best = dict.fromkeys(candidates, float("inf"))
    with torch.no_grad():
        for call in candidates.values():
            call()
        rounds, deadline = 0, time.perf_counter() + seconds
        while rounds < ROUNDS or time.perf_counter() < deadline:
            for kernel, call in candidates.items():
                started = time.perf_counter()
                call()
                best[kernel] = min(best[kernel], (time.perf_counter() - started) * 1e3)
            rounds += 1
    return best


def measure(shapes: list[tuple[int, int]], rows: int = STEP_ROWS,
            output: tuple[int, int] | None = None) -> KernelChoice:
    """Times each candidate on each shape (random weights: the time does not depend on the values)
    with this process's threads, and keeps the faster; the ``output`` projection's shape keeps the
    panels unless oneDNN wins by OUTPUT_PANELS_MARGIN."""
    from attnmt.fast.packed import PackedLinear
    from attnmt.fast.panels import PanelLinear

    kernels, timings = {}, {}
    generator = torch.Generator().manual_seed(0)
    for n, k in shapes:
        columns = min(n, MOST_COLUMNS)
        weight = torch.randn(columns, k, generator=generator) * 0.05
        bias = torch.zeros(columns)
        x = torch.randn(rows, k, generator=generator)
        candidates = {FloatKernel.PANELS: PanelLinear(weight, bias), FloatKernel.ONEDNN: PackedLinear(weight, bias)}
        best = fastest_calls({kernel: partial(layer, x) for kernel, layer in candidates.items()})
        best = {kernel: ms * n / columns for kernel, ms in best.items()}
        kernels[(n, k)] = faster(best, OUTPUT_PANELS_MARGIN if (n, k) == output else 1.0)
        timings[(n, k)] = best
    return KernelChoice(kernels, timings)


@dataclass(frozen=True)
class Int8Choice:
    """The int8 panel kernel ("amx", "vnni", "avx2") for each shape (out_features, in_features) of
    the step's int8 layers, and the fastest call's milliseconds per kernel that chose it."""

    kernels: dict[tuple[int, int], str]
    timings: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict)

    def kernel_for(self, out_features: int, in_features: int) -> str | None:
        """The chosen kernel; None (the process's widest) for a shape the choice does not name."""
        return self.kernels.get((out_features, in_features))

    def to_json(self) -> str:
        return json.dumps([{"shape": list(shape), "kernel": kernel,
                            "ms": {k: round(ms, 4) for k, ms in self.timings.get(shape, {}).items()}}
                           for shape, kernel in self.kernels.items()])

    @classmethod
    def from_json(cls, text: str) -> Int8Choice:
        entries = json.loads(text)
        return cls({tuple(e["shape"]): e["kernel"] for e in entries},
                   {tuple(e["shape"]): e["ms"] for e in entries if e["ms"]})

    def describe(self) -> list[str]:
        """One line per shape: the kernel and the timings that chose it."""
        lines = []
        for (n, k), kernel in sorted(self.kernels.items()):
            times = ", ".join(f"{c} {ms:.3f} ms" for c, ms in self.timings.get((n, k), {}).items())
            lines.append(f"{n} × {k}: {kernel} ({times} at {STEP_ROWS} rows)")
        return lines


def measure_int8(shapes: list[tuple[int, int]], rows: int = STEP_ROWS,
                 output: tuple[int, int] | None = None) -> Int8Choice | None:
    """Times every int8 panel kernel this process runs on each shape (random int8 weights) with its
    threads, and keeps the fastest; None where fewer than two run (nothing to choose).  The
    ``output`` projection is timed as beam search calls it: the top 4 log-probs in the same pass."""
    kernels = torch.ops.attnmt.int8_kernels()
    if len(kernels) < 2:
        return None
    chosen, timings = {}, {}
    generator = torch.Generator().manual_seed(0)
    for n, k in shapes:
        columns = min(n, MOST_COLUMNS)
        weight = torch.randint(-127, 128, (columns, k), generator=generator, dtype=torch.int8)
        x = torch.randn(rows, k, generator=generator)
        calls = {}
        for kernel in kernels:
            panels = torch.ops.attnmt.pack_int8_panels(weight, torch.full((columns,), 1e-3), torch.zeros(columns))
            panels.use_kernel(kernel)
            calls[kernel] = (partial(panels.top_log_probs, x, 4, [], None) if (n, k) == output
                             else partial(panels.linear, x, None, False))
        best = fastest_calls(calls)
        timings[(n, k)] = {kernel: ms * n / columns for kernel, ms in best.items()}
        chosen[(n, k)] = min(kernels, key=lambda kernel: best[kernel])
    return Int8Choice(chosen, timings)
