"""The decoder's cached step as one C++ call, for the packed and the int8 inference copies.

At 32 rows a decoding step's matmuls are small, and the Python step pays
Python's and PyTorch's per-call cost on each of its ~50 operations per layer.
``csrc/decoder_step.cpp`` does one step of the whole decoder stack in one call (or,
for ``decode``, the embedding, the stack and the output layer: newest tokens in, logits
out): attention for one query per row and residual + LayerNorm written out, residual
adds and ReLU fused into the matmuls (fbgemm's int8 and bf16 layers: added after them).
Its float32 matmuls run a kernel on the weights packed once into panels of 16 columns,
AVX-512 or AVX2 as the CPU allows (picked at run time), because oneDNN's per-call cost
is large next to matmuls of a few dozen rows
(benchmarks/experiments/panel_kernel.py, docs/performance.md); its int8 ones, where the
CPU has AVX512-VNNI, a kernel of the same shape on int8 panels (``csrc/int8_panels.cpp``,
attnmt.fast.int8), instead of fbgemm's per-call path.  ``FastTransformer`` uses it
when it can be built; the Python step stays the reference and the fallback, and
the outputs agree up to float rounding (tests/fast/test_fused.py).

The extension is compiled once per machine, PyTorch version and source (about
15 s; needs a C++ compiler, and ninja, which attnmt depends on) and cached under
``$ATTNMT_CACHE`` (default ``~/.cache/attnmt``).  ``ATTNMT_FUSED=0`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import Tensor, nn

from attnmt.fast.packed import FusedQKVAttention, PackedLinear, packing_available
from attnmt.fast.step import PANEL, Activation, step_weights
from attnmt.hardware import cpu_flags
from attnmt.layers import LayerCache
from attnmt.model import DecoderCache, Transformer, TransformerConfig
from attnmt.next_tokens import NextTokens

CSRC = Path(__file__).with_name("csrc")
# One extension from four files: the step, its float32 kernels (AVX2, AVX-512), its int8 ones
# (AVX512-VNNI, AMX), and the next tokens' choice.
SOURCES = [CSRC / name for name in ("decoder_step.cpp", "float_panels.cpp", "int8_panels.cpp", "top_tokens.cpp")]
HEADERS = [CSRC / name for name in ("exp_nonpositive.h", "float_panels.h", "int8_panels.h", "row_blocks.h")]
NAME = "attnmt_decoder_step"
# -fno-trapping-math lets GCC vectorise the loops with branches and float-to-int conversions (results
# do not change); -fopenmp makes at::parallel_for parallel (libgomp: the one PyTorch has loaded).
FLAGS = ["-O3", "-fno-trapping-math", "-fopenmp"]
# Built for a target, not for the build machine (-march=native): AVX2 + FMA (+ F16C, the float16
# cache's conversions, on every CPU with AVX2), the kernels' floor on
# x86-64; the AVX-512, AVX512-VNNI and AMX kernels are compiled for their own targets beside it
# and picked at run time (float_panels.cpp: panel_isa; int8_panels.cpp: int8_kernel).  Elsewhere
# the compiler's default target.
X86_TARGET = ["-mavx2", "-mfma", "-mf16c"]


def target_flags() -> list[str]:
    """The instruction set the extension is compiled for on this machine's CPU."""
    return X86_TARGET if {"avx2", "fma", "f16c"} <= cpu_flags() else []


_state: dict[str, bool] = {}


def build_directory() -> Path:
    """Where this machine's build of this source for this PyTorch lives."""
    key = hashlib.sha256(
        "\n".join([*(path.read_text() for path in SOURCES + HEADERS), " ".join(FLAGS + target_flags()),
                   torch.__version__, sys.version, " ".join(sorted(cpu_flags())) or platform.processor()]).encode()
    ).hexdigest()[:16]
    return cache_root() / f"{NAME}-{key}"


def cache_root() -> Path:
    """attnmt's cache: ``$ATTNMT_CACHE``, default ``~/.cache/attnmt``."""
    return Path(os.environ.get("ATTNMT_CACHE") or Path.home() / ".cache" / "attnmt")


def available() -> bool:
    """Loads the extension (building it the first time); False, with one warning, where it cannot be."""
    if "ok" in _state:
        return _state["ok"]
    _state["ok"] = False
    if os.environ.get("ATTNMT_FUSED", "1") == "0" or not packing_available():
        return False
    folder = build_directory()
    library = folder / f"{NAME}.so"
    try:
        if not library.exists():
            _build(folder)
        torch.ops.load_library(str(library))
    except Exception as error:  # no compiler, no ninja, a failed build: the Python step still works
        warnings.warn(
            f"attnmt: the fused decoder step could not be built or loaded ({type(error).__name__}: {error}); "
            "translating with the Python step, which is slower. Set ATTNMT_FUSED=0 to skip trying.",
            stacklevel=2,
        )
        return False
    _state["ok"] = True
    return True


def _build(folder: Path) -> None:
    from torch.utils import cpp_extension

    try:  # the ninja from PyPI, where PATH does not reach the environment's bin/
        import ninja

        os.environ["PATH"] = ninja.BIN_DIR + os.pathsep + os.environ.get("PATH", "")
    except ImportError:
        pass
    print(f"attnmt: building the fused decoder step once, into {folder} (about 15 s)", file=sys.stderr)
    folder.mkdir(parents=True, exist_ok=True)
    cpp_extension.load(
        name=NAME, sources=[str(path) for path in SOURCES], extra_cflags=FLAGS + target_flags(),
        extra_ldflags=["-fopenmp"], build_directory=str(folder),
        is_python_module=False, verbose=False,
    )


class FusedDecoderStep:
    """One new position with a cache, as one C++ call: through the decoder stack (``__call__``,
    as ``decoder_stack``) or from the newest tokens to their logits (``decode``).

    Built from an inference copy (``FastTransformer``) whose linear layers are
    ``PackedLinear``, torch.ao's dynamically quantised int8 ``Linear`` or ``Int8PanelLinear``
    (attnmt.fast.int8), in eval mode; holds references to its weights.
    """

    def __init__(self, model: Transformer, panels: bool = True) -> None:
        # The C++ object holds the weights, converted once: converting them at every call would
        # cost more than a step's arithmetic at a few rows (an int8 layer's object most).
        self.weights = step_weights(model, panels)
        self.positional = model.positional
        self.kernel = torch.classes.attnmt.DecoderStep(self.weights.to_cpp())

    @staticmethod
    def supports(model: Transformer) -> bool:
        """Whether this model's decoder is one the C++ step implements."""
        c = model.config
        return c.activation.upper() in Activation.__members__ and c.d_model % c.n_heads == 0 and all(
            isinstance(layer.self_attn, FusedQKVAttention) and layer.norm1.elementwise_affine
            and layer.norm2.elementwise_affine and layer.norm3.elementwise_affine
            for layer in model.decoder_layers
        )

    def __call__(self, x: Tensor, cache: GrowingCache, src_mask: Tensor) -> Tensor:
        """x [N, 1, d_model] (embedded new positions), src_mask [G, 1, 1, S] -> the stack's output
        [N, 1, d_model]; each layer's cache gains the position."""
        out = self.kernel.step(x.view(x.size(0), x.size(2)), *cache_arguments(cache, src_mask))
        keep_keys(cache, out)
        return out[0][:, None]

    def decode(self, tokens: Tensor, cache: GrowingCache, src_mask: Tensor) -> Tensor:
        """``Transformer.decode`` for one new position with a cache, in one C++ call: tokens [N, 1]
        (each row's newest), src_mask [G, 1, 1, S] -> logits [N, 1, V]; embedding, the stack, the
        final LayerNorm (pre-norm) and the output layer.  The cache gains the position."""
        if self.positional is not None:
            self.positional.check_end(cache.length + 1)
        out = self.kernel.decode(tokens.view(-1), cache.length, *cache_arguments(cache, src_mask))
        keep_keys(cache, out)
        cache.length += 1
        return out[0][:, None]


def cache_arguments(cache: GrowingCache, src_mask: Tensor) -> list:
    """The cache and the source mask [G, 1, 1, S] as the C++ step takes them: each layer's
    self-attention keys, values, cross-attention keys, values (four lists), the mask [G, S], the
    room, the rows' parents (a reorder the step applies) and their lineage."""
    layers = cache.layers
    return [[layer.self_k for layer in layers], [layer.self_v for layer in layers],
            [layer.cross_k for layer in layers], [layer.cross_v for layer in layers],
            src_mask.view(src_mask.size(0), src_mask.size(-1)), cache.room, cache.parents, cache.lineage]


def keep_keys(cache: GrowingCache, out: list[Tensor]) -> None:
    """Each layer's cache takes its keys/values with the new position, and the cache the rows' lineage
    in them, from the C++ step's output [x, k_0, v_0, k_1, v_1, ..., lineage]."""
    for i, layer in enumerate(cache.layers):
        layer.self_k, layer.self_v = out[1 + 2 * i], out[2 + 2 * i]
    cache.parents, cache.lineage = None, out[-1]


class FusedNextTokens(NextTokens):
    """The searches' next tokens in one C++ pass each (top_tokens.cpp), without writing the
    [N, V] log-probabilities.  Needs the extension (``available()``)."""

    # The C++ step decodes a few dozen sentences (a few hundred beam rows) faster per sentence
    # than hundreds, unlike the readable model (docs/performance.md, the file job) ...
    batch_sentences = 64
    # ... and fewer where a step's [rows, V] float32 logits would pass this: with a large vocabulary
    # (OPUS-MT's 58,101 pieces) a smaller batch was as fast and held far less memory (the logits,
    # and the keys/values of every row: docs/performance.md).
    logits_budget = 32 << 20

    def sentences_per_batch(self, config: TransformerConfig, rows_per_sentence: int) -> int:
        per_sentence = max(rows_per_sentence, 1) * config.vocab_size * 4
        return max(1, min(self.batch_sentences, self.logits_budget // per_sentence))

    def top_log_probs(self, logits: Tensor, k: int, banned: Sequence[int]) -> tuple[Tensor, Tensor, Tensor]:
        return torch.ops.attnmt.top_log_probs(logits, k, list(banned))

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        return torch.ops.attnmt.best_tokens(logits, list(banned))


@dataclass
class GrowingCache(DecoderCache):
    """The inference copy's decoder cache: ``room`` is how many more positions the search expects
    to add (a search reserves them); the C++ step then appends each position into a buffer with that
    room instead of copying every layer's keys/values.

    A reorder of the rows (beam search's, every step) is kept as ``parents`` [N] for the C++ step,
    which copies no keys or values for it: each layer's self_k, self_v [M, H, t, dk] are blocks of
    positions, and ``lineage`` [N, t] says which block holds each row's position (the new position
    of row r goes into block r; a row continuing another takes over its lineage).  Where the buffer
    must be copied (full, held elsewhere, more rows than blocks) the copy puts each row's positions
    in its own block again.  Beside int8 layers the keys/values are float16 (the C++ step's
    ``cache_type``).  ``settle`` turns the cache into plain per-row float32 keys/values [N, H, t, dk]
    at once, for the Python step."""

    room: int = 0
    parents: Tensor | None = None
    lineage: Tensor | None = None

    def reserve(self, positions: int) -> None:
        self.room = positions

    def reorder(self, rows: Tensor, groups: Tensor | None = None) -> None:
        self.parents = rows if self.parents is None else self.parents[rows]
        if groups is not None:
            for layer in self.layers:
                layer.reorder(None, groups)

    def settle(self) -> None:
        """Applies the lineage and a pending reorder of the rows' keys/values."""
        if self.lineage is not None:
            lineage, positions = self.lineage, torch.arange(self.lineage.size(1))
            for layer in self.layers:  # [M, H, t, dk] -> row r's position j from block lineage[r, j]
                layer.self_k, layer.self_v = (kv.transpose(1, 2)[lineage, positions].transpose(1, 2).float()
                                              .contiguous() for kv in (layer.self_k, layer.self_v))
            self.lineage = None
        if self.parents is not None:
            for layer in self.layers:
                layer.reorder(self.parents)
            self.parents = None


class Float16LayerCache(LayerCache):
    """A decoder layer's cache beside int8 layers: its own keys/values rounded to float16 as they are
    added (kept in float32 here), so that the Python step reads the values the C++ step's float16
    cache holds (``cache_type``)."""

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        return super().append(*(to_float16(t) for t in (k, v)))


def to_float16(t: Tensor) -> Tensor:
    """t rounded to float16 and back (values beyond its range taking its largest), as the C++ step
    stores a float16 cache."""
    largest = torch.finfo(torch.float16).max
    return t.clamp(-largest, largest).half().float()


class PanelLinear(nn.Module):
    """y = x Wᵀ + b (ReLU), inference only, with W held in the float32 panel kernels' layout
    (``csrc/float_panels.cpp``, [⌈N/16⌉, K, 16]): the float32 inference copy's layers where the
    C++ step runs, so that one copy of each weight serves the C++ step and the Python one
    (``use_float_panels``)."""

    relu = False

    def __init__(self, weight: Tensor, bias: Tensor | None) -> None:
        super().__init__()
        self.hold(torch.ops.attnmt.pack_panels(weight.detach().float().contiguous()),
                  None if bias is None else bias.detach().float().clone(), *weight.shape)

    @classmethod
    def from_panels(cls, panels: Tensor, bias: Tensor | None, out_features: int, in_features: int) -> PanelLinear:
        """The layer around panels that ``pack_panels`` made (stored and mapped: attnmt.fast.prepared)."""
        if panels.shape != ((out_features + PANEL - 1) // PANEL, in_features, PANEL) or panels.dtype != torch.float32:
            raise ValueError(f"panels {tuple(panels.shape)} {panels.dtype} do not hold a {out_features} × "
                             f"{in_features} float32 layer")
        if panels.data_ptr() % 64:  # the kernels read the panels 64 bytes at a time, aligned
            panels = panels.clone()
        layer = cls.__new__(cls)
        nn.Module.__init__(layer)
        layer.hold(panels, bias, out_features, in_features)
        return layer

    def hold(self, panels: Tensor, bias: Tensor | None, out_features: int, in_features: int) -> None:
        self.panels, self.bias, self.out_features, self.in_features = panels, bias, out_features, in_features

    def forward(self, x: Tensor) -> Tensor:
        """[..., in_features] -> [..., out_features]."""
        if x.requires_grad:
            raise RuntimeError("PanelLinear is for inference: it has no gradient (train the float model)")
        y = torch.ops.attnmt.panel_linear(x.reshape(-1, self.in_features), self.panels, self.bias,
                                          self.out_features, None, self.relu)
        return y.view(*x.shape[:-1], self.out_features)

    def rows(self, ids: Tensor) -> Tensor:
        """Rows ``ids`` of W [out_features, in_features], unpacked: [len(ids), in_features]."""
        return self.panels[ids // PANEL, :, ids % PANEL]

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


def float_panels_for(model: Transformer) -> bool:
    """Whether ``model``'s float32 linear layers are PanelLinear once its C++ step is built: where
    this build has the panel kernels and the step supports the model."""
    return available() and torch.ops.attnmt.panels_available() and FusedDecoderStep.supports(model)


def use_float_panels(model: Transformer) -> None:
    """In place: every float32 PackedLinear of ``model`` becomes a PanelLinear where
    ``float_panels_for`` it.  The C++ step would otherwise hold a second copy of its layers, in
    the panels' layout, beside oneDNN's; and oneDNN keeps a primitive, with its own copy of the
    weight, for every row count it meets (its primitive cache: up to 1,024), so a layer that sees
    inputs of many lengths (the encoder, cross-attention's keys and values) grew the process by a
    weight's size per new length, while the panel kernel is as fast at a thousand rows."""
    if not float_panels_for(model):
        return
    for parent in list(model.modules()):
        for name, module in parent.named_children():
            if type(module) is PackedLinear:
                panel = PanelLinear(module.packed.to_dense(), module.bias)
                panel.relu = module.relu
                setattr(parent, name, panel)
