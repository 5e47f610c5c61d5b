"""Which kernel multiplies each float32 layer of the C++ decoder step: chosen on the user's CPU by
timing the candidates, not by a rule about CPUs.

The candidates, for each shape [out, in] the step multiplies (the fused Q, K, V projection,
the attention outputs, the two feed-forward layers and the output projection):

- ``PANELS``: attnmt's own kernel (``csrc/float_panels.cpp``: AVX-512 or AVX2 + FMA), W in
  panels of 16 columns (attnmt.fast.panels.PanelLinear);
- ``ONEDNN``: PyTorch's oneDNN matmul on W packed once in its blocked layout
  (attnmt.fast.packed.PackedLinear), which uses AMX or AVX-512 where the CPU has them;
- ``TILES``: AMX's bf16 tiles, each float32 split into two bf16 pieces and three of their four
  products summed in float32 (``csrc/split_tiles.cpp``, attnmt.fast.panels.TiledLinear): about 16
  bits of each product where float32 keeps 24.  Timed where the CPU has AMX-BF16, unless
  ``ATTNMT_FLOAT32_TILES=0`` (attnmt.fast.panels.tiles_chosen).

The right one differs by CPU (oneDNN's float32 GEMM is the faster one on some Xeons, the panels
on AMD's EPYCs) and by shape, so ``measure`` times the candidates at the step's usual row count,
called in turn for a fraction of a second, the fastest call counting, and keeps the fastest per
shape (another than the panels only where it wins by a margin: STEP_PANELS_MARGIN,
OUTPUT_PANELS_MARGIN; oneDNN only where it is no slower at one sentence's rows too, SMALL_ROWS).  It runs
once, when the float32 copy is first prepared (attnmt.fast.prepared, about a second); the choice is
stored with the prepared copy and shown by ``attnmt doctor``.  ``ATTNMT_FLOAT32_KERNEL`` (``asked_kernel``)
puts every shape on one kernel instead, untimed, in a prepared copy of its own.  The panels and oneDNN compute x Wᵀ + b
in float32: their results differ only by summation order (tests/fast/test_kernels.py); the tiles'
by about 2^-16 of Σ|x·w| (tests/fast/test_split_tiles.py).

The encoder's layers and cross-attention's keys and values stay on the panels whatever is
chosen: they meet inputs of every source length, and oneDNN keeps a primitive, with its own copy
of the weight, per row count it meets (attnmt.fast.panels.use_float_panels).

The int8 copy's step layers are chosen the same way (``measure_int8``) among the int8 panel kernels
this process can run (``csrc/int8_panels.cpp``: AMX tiles, AVX512-VNNI, AVX2), which all read the
same panels: AMX's tiles pay for padding a step's rows to whole tiles of 16 and for their
configuration, so where they win is a matter of shape and CPU.  AVX2's kernel quantises the
activations to 7 bits where the others keep 8, so it is chosen only where it wins by a margin
(INT8_LEVELS_MARGIN).  Where only one kernel runs there is nothing to time.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from typing import ClassVar, Self

import torch

from attnmt.config import TransformerConfig
from attnmt.errors import ConfigError, json_value

# Rows of a decoder step: 32 sentences × beam 4, the step's usual batch.
STEP_ROWS = 128
# Rows of one sentence's step at beam 4: a server's request, a one-line job, a file's last sentences.  A layer
# that oneDNN wins at STEP_ROWS is timed here too and stays on the panels where oneDNN is slower here: oneDNN's
# copy of the weight is the layer's only one, so the step cannot fall back to the panels for small batches.  On
# a 2-core AVX-512 Xeon oneDNN ran the four decoder-layer shapes 10-18 % faster at 128 rows and 17-56 % slower
# at 1 and 4 rows (9-30 microseconds a call); the OPUS-shaped step took 13.05-13.40 ms (median) for one sentence
# with them on oneDNN, 11.22-11.37 ms on the panels, and the same within 1 % at 100 rows, where the layers' gain
# alone did not reach the step (benchmarks/results/float_kernel_rows_xeon_avx512_s66.txt).
SMALL_ROWS = 4
# The output projection (tens of thousands of columns) is timed on this many of its columns:
# the kernels' time grows linearly with the columns, and timing all of them would take seconds.
MOST_COLUMNS = 4096
# Each shape's candidates are called in turn for at least this long and this many rounds, the
# fastest call counting: on a machine shared with other processes most calls are slowed by them,
# and more calls make it likelier that one ran undisturbed.  Five shapes: about a second in all.
SECONDS_PER_SHAPE = 0.15
ROUNDS = 3
# The output projection is timed as beam search's step runs it (``measure``): on the panels and the tiles
# the top k come out of the multiplication's own pass, on oneDNN out of the [rows, V] logits written first
# and read again.  It leaves the panels only where oneDNN wins that by this much: oneDNN's output layer is a
# packed copy of the model's largest matrix, and tied embeddings then need a table of their own.  On a 2-core
# AVX-512 Xeon the layer timed alone went to oneDNN (1.17x faster on 4,096 columns), the stage was 1.12-1.20x
# faster on the panels at one thread, and the OPUS-shaped float32 job peaked at 709-714 MiB with the output on
# the panels against 791-806 MiB (benchmarks/results/opus_shape_xeon_avx512_s65.txt); on an EPYC capped to
# AVX2 the panels ran the job as fast and peaked 48 MiB lower (benchmarks/results/output_kernel_capped_avx2.txt).
OUTPUT_PANELS_MARGIN = 1.10
# The step's other layers stay on the panels unless oneDNN is this much faster: within it the layer
# timed alone does not tell the whole job, and oneDNN holds a copy of the weight per row count it
# meets.  On the EPYC capped to AVX2, oneDNN was 0.8 % faster on the 2048 × 512 layer alone; with it
# on the panels the OPUS-shaped float32 job ran 0.3-6 % faster in each of 4 rounds and peaked 3-10 MiB
# lower (benchmarks/results/opus_fp32_memory_epyc_s20.txt).  The AVX-512 Xeon's oneDNN wins of 3.1 %
# and more (benchmarks/results/panel_isa_xeon.txt) stay clear of it.
STEP_PANELS_MARGIN = 1.02
# An int8 step layer leaves the kernels with 8-bit activations (AMX, AVX512-VNNI: the same floats) for
# AVX2's 7-bit ones only where AVX2 is this much faster: the two quantise x differently (attnmt.fast.
# int8.activation_levels), so the choice changes translations, and a near tie must not decide it.  On
# a 2-core Xeon with AVX512-VNNI the two timed within noise of each other: two fresh prepared copies
# on the one machine chose differently and translated 3 of 40 lines differently.
INT8_LEVELS_MARGIN = 1.10


class FloatKernel(StrEnum):
    PANELS = "panels"
    ONEDNN = "onednn"
    TILES = "tiles"  # AMX's bf16 tiles, each float32 in TILE_PIECES pieces (attnmt.fast.panels.TiledLinear)


# The user's kernel for every float32 step layer, in place of the timing: "panels" or "onednn".  On a
# VM whose host moves its speed from one second to the next the timing follows the second it ran in:
# on a 2-core Zen 3 EPYC the panels ran one thread's 128 × 512 × 4096 layer in 6.0 ms or 10 ms by
# turns, pinned to one CPU, and six fresh processes' timings kept oneDNN on none to all five shapes
# (benchmarks/results/float_choice_epyc_zen3_avx2_s44.txt).  The prepared copy made with it is one
# of its own (attnmt.fast.prepared_file.prepared_path).
KERNEL_VARIABLE = "ATTNMT_FLOAT32_KERNEL"


def asked_kernel() -> FloatKernel | None:
    """The kernel ``ATTNMT_FLOAT32_KERNEL`` sets for every float32 step layer; None where it is unset
    or empty (the kernels are timed); any other value than panels or onednn is one line."""
    value = os.environ.get(KERNEL_VARIABLE, "").strip()
    if not value:
        return None
    if value.lower() not in (FloatKernel.PANELS, FloatKernel.ONEDNN):
        raise ConfigError(f"{KERNEL_VARIABLE}={value!r}: give panels or onednn, or leave it unset to have the "
                          "float32 kernels timed on this CPU")
    return FloatKernel(value.lower())


# The bf16 pieces of each float32 on the tiles: 2, their 3 largest products summed ("bf16x3").
TILE_PIECES = 2


Shape = tuple[int, int]


@dataclass(frozen=True)
class ShapeChoice:
    """A kernel for each shape (out_features, in_features) of the step's layers, and the fastest
    call's milliseconds per candidate that chose it (``timings``: empty where forced).  Kernels are
    named by strings (``parse`` reads one back)."""

    kernels: dict[Shape, str]
    timings: dict[Shape, dict[str, float]] = field(default_factory=dict)
    small: dict[Shape, dict[str, float]] = field(default_factory=dict)  # at SMALL_ROWS, where timed there too
    parse: ClassVar[Callable[[str], str]] = str

    def to_json(self) -> str:
        def rounded(times: dict[str, float]) -> dict[str, float]:
            return {str(k): round(ms, 4) for k, ms in times.items()}

        return json.dumps([{"shape": list(shape), "kernel": str(kernel), "ms": rounded(self.timings.get(shape, {})),
                            "small_ms": rounded(self.small.get(shape, {}))} for shape, kernel in self.kernels.items()])

    @classmethod
    def from_json(cls, text: str) -> Self:
        entries = json_value(text)

        def times(key: str) -> dict[Shape, dict[str, float]]:
            return {tuple(e["shape"]): {cls.parse(k): ms for k, ms in e[key].items()} for e in entries if e.get(key)}

        return cls({tuple(e["shape"]): cls.parse(e["kernel"]) for e in entries}, times("ms"), times("small_ms"))

    def describe(self) -> list[str]:
        """One line per shape: the kernel and the timings that chose it."""
        lines = []
        for shape, kernel in sorted(self.kernels.items()):
            said = [f"{', '.join(f'{c} {ms:.3f} ms' for c, ms in times[shape].items())} at {rows} rows"
                    for times, rows in ((self.timings, STEP_ROWS), (self.small, SMALL_ROWS)) if times.get(shape)]
            lines.append(f"{shape[0]} × {shape[1]}: {kernel}" + (f" ({'; '.join(said)})" if said else " (not timed)"))
        return lines


@dataclass(frozen=True)
class KernelChoice(ShapeChoice):
    """The float32 step layers' kernels (FloatKernel)."""

    parse: ClassVar[Callable[[str], str]] = FloatKernel

    def kernel_for(self, out_features: int, in_features: int) -> FloatKernel:
        """The chosen kernel; the panels for a shape the choice does not name."""
        return self.kernels.get((out_features, in_features), FloatKernel.PANELS)

    @classmethod
    def forced(cls, kernel: FloatKernel, shapes: list[Shape]) -> KernelChoice:
        """Every shape on ``kernel`` (tests compare each candidate with the readable model)."""
        return cls(dict.fromkeys(shapes, kernel))


@dataclass(frozen=True)
class Int8Choice(ShapeChoice):
    """The int8 step layers' int8 panel kernels ("amx", "vnni", "avx2")."""

    def kernel_for(self, out_features: int, in_features: int) -> str | None:
        """The chosen kernel; None (the process's widest) for a shape the choice does not name."""
        return self.kernels.get((out_features, in_features))


def step_shapes(config: TransformerConfig) -> list[tuple[int, int]]:
    """The [out, in] shapes of the float32 layers a decoder step multiplies."""
    d, ff = config.d_model, config.d_ff
    return list(dict.fromkeys([(3 * d, d), (d, d), (ff, d), (d, ff), (config.vocab_size, d)]))


def faster(best: dict[str, float], margin: float, preferred: str = FloatKernel.PANELS) -> str:
    """The kernel of the fastest call in ``best`` (ms per candidate); another than ``preferred`` (the
    float32 panels unless told) only where it is faster than ``preferred`` by more than ``margin``."""
    clearly = {kernel: ms for kernel, ms in best.items() if ms * margin < best[preferred]}
    return min(clearly, key=clearly.__getitem__) if clearly else preferred


def faster_at_both(best: dict[str, float], small: dict[str, float], margin: float) -> str:
    """``faster`` among the kernels of ``best`` (ms at STEP_ROWS) that are no slower than the panels
    in ``small`` (ms at SMALL_ROWS; a kernel it does not time is not held to it)."""
    return faster({kernel: ms for kernel, ms in best.items()
                   if small.get(kernel, 0.0) <= small.get(FloatKernel.PANELS, float("inf"))}, margin)


def faster_int8(best: dict[str, float]) -> str:
    """The int8 kernel of ``best`` (ms per kernel): the fastest of those whose activations have the most
    levels (attnmt.fast.int8.activation_levels), another only where it is faster than that one by more
    than INT8_LEVELS_MARGIN (``faster``)."""
    from attnmt.fast.int8 import activation_levels

    most = max(map(activation_levels, best))
    precise = min((kernel for kernel in best if activation_levels(kernel) == most), key=best.__getitem__)
    return faster(best, INT8_LEVELS_MARGIN, preferred=precise)


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


def timed_shapes(shapes: list[Shape], rows: int, calls_for: Callable) -> dict[Shape, dict[str, float]]:
    """Milliseconds of each candidate's fastest call on each shape, at ``rows`` rows of random x, with
    this process's threads: ``calls_for(n, k, columns, x, generator)`` gives the candidates' calls on
    a layer of ``columns`` output columns (at most MOST_COLUMNS: the time grows linearly with them, and
    is scaled up to n).  x and the weights are float32, as the step's are, whatever torch's default
    dtype (a host's bfloat16 default gave x the kernels refused)."""
    timings = {}
    generator = torch.Generator().manual_seed(0)
    for n, k in shapes:
        columns = min(n, MOST_COLUMNS)
        x = torch.randn(rows, k, generator=generator, dtype=torch.float32)
        best = fastest_calls(calls_for(n, k, columns, x, generator))
        timings[(n, k)] = {kernel: ms * n / columns for kernel, ms in best.items()}
    return timings


def measure(shapes: list[Shape], rows: int = STEP_ROWS, output: Shape | None = None) -> KernelChoice:
    """Times each candidate on each shape (random weights: the time does not depend on the values)
    and keeps the fastest, the panels unless another wins by STEP_PANELS_MARGIN (the ``output``
    projection's shape: OUTPUT_PANELS_MARGIN, timed with beam search's choice of the top 4), and
    oneDNN only where it is no slower than the panels at SMALL_ROWS either (timed there only where
    it wins at ``rows``)."""
    from attnmt.fast.packed import PackedLinear
    from attnmt.fast.panels import PanelLinear, TiledLinear, tiles_chosen

    tiles = tiles_chosen()

    def calls(n: int, k: int, columns: int, x: torch.Tensor, generator: torch.Generator, tiled: bool = tiles) -> dict:
        weight = torch.randn(columns, k, generator=generator, dtype=torch.float32) * 0.05
        bias = torch.zeros(columns, dtype=torch.float32)
        panels = PanelLinear(weight, bias)
        layers = {FloatKernel.PANELS: panels, FloatKernel.ONEDNN: PackedLinear(weight, bias)}
        if tiled:
            layers[FloatKernel.TILES] = TiledLinear(panels)
        if (n, k) == output:  # as beam search's step calls it, with its choice of the top 4 (measure_int8 alike)
            return {kernel: partial(layer.top_log_probs, x, 4) for kernel, layer in layers.items()}
        return {kernel: partial(layer, x) for kernel, layer in layers.items()}

    def margin(shape: Shape) -> float:
        return OUTPUT_PANELS_MARGIN if shape == output else STEP_PANELS_MARGIN

    timings = timed_shapes(shapes, rows, calls)
    onednn_won = [shape for shape, best in timings.items() if faster(best, margin(shape)) == FloatKernel.ONEDNN]
    small = timed_shapes(onednn_won, SMALL_ROWS, partial(calls, tiled=False))  # the tiles are not held to it
    return KernelChoice({shape: faster_at_both(best, small.get(shape, {}), margin(shape))
                         for shape, best in timings.items()}, timings, small)


def measure_int8(shapes: list[Shape], rows: int = STEP_ROWS, output: Shape | None = None) -> Int8Choice | None:
    """Times every int8 panel kernel this process runs on each shape (random int8 weights) and keeps
    the fastest, one of 7-bit activations only where it wins by INT8_LEVELS_MARGIN (``faster_int8``);
    None where fewer than two run (nothing to choose).  The ``output`` projection is
    timed as beam search calls it: the top 4 log-probs in the same pass."""
    from attnmt.fast.int8 import int8_kernels

    kernels = int8_kernels()
    if len(kernels) < 2:
        return None

    def calls(n: int, k: int, columns: int, x: torch.Tensor, generator: torch.Generator) -> dict:
        weight = torch.randint(-127, 128, (columns, k), generator=generator, dtype=torch.int8)
        found = {}
        for kernel in kernels:
            scales, bias = torch.full((columns,), 1e-3, dtype=torch.float32), torch.zeros(columns, dtype=torch.float32)
            panels = torch.ops.attnmt.pack_int8_panels(weight, scales, bias)
            panels.use_kernel(kernel)
            found[kernel] = (partial(panels.top_log_probs, x, 4, [], None) if (n, k) == output
                             else partial(panels.linear, x, None, False))
        return found

    timings = timed_shapes(shapes, rows, calls)
    return Int8Choice({shape: faster_int8(best) for shape, best in timings.items()}, timings)
