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
(benchmarks/experiments/panel_kernel.py, docs/design/fast-decoder.md); its int8 ones a kernel
of the same shape on int8 panels (``csrc/int8_panels.cpp``, attnmt.fast.int8: AMX, AVX512-VNNI
or AVX2), instead of fbgemm's per-call path.  ``FastTransformer`` uses it
when it can be built (attnmt.fast.extension); the Python step stays the reference and the
fallback, and the outputs agree up to float rounding (tests/fast/test_fused.py).

What the step multiplies crosses to C++ by name: ``StepWeights``, checked when it is built,
fills a C++ struct with named members once per model (``to_cpp``), field by field, never by
position.  The layer's LayerNorm placement, its activation and the kind of its linear layers
cross as the small enums below, which the C++ side mirrors with the same values.  A layer
change is a new field here and a new member there, under one name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import IntEnum

import torch
from torch import Tensor, nn

from attnmt.fast.cache import GrowingCache
from attnmt.fast.extension import PANEL
from attnmt.fast.packed import FusedQKVAttention
from attnmt.model import Transformer


class Norm(IntEnum):
    """Where each sublayer's LayerNorm sits (decoder_step.cpp: Norm)."""

    POST = 0  # x = norm(x + sublayer(x)), the paper's
    PRE = 1  # x = x + sublayer(norm(x)); the stack ends with a final LayerNorm


class Activation(IntEnum):
    """The feed-forward's activation (decoder_step.cpp: Activation, whose 0 is "none")."""

    RELU = 1
    GELU = 2
    SWISH = 3

    @classmethod
    def named(cls, name: str) -> Activation:
        """The activation a TransformerConfig names, or ValueError."""
        if name.upper() not in cls.__members__:
            raise ValueError(f"the C++ step has no activation {name!r}: it has "
                             f"{', '.join(member.lower() for member in cls.__members__)}")
        return cls[name.upper()]


class Linears(IntEnum):
    """The kind of every linear layer of one model's step (decoder_step.cpp: Linears)."""

    FLOAT = 0  # PackedLinear (oneDNN-prepacked float32 or bf16 W) or PanelLinear (float32 panels)
    INT8 = 1  # torch.ao's dynamically quantised Linear: its packed parameters, run by fbgemm
    INT8_PANELS = 2  # attnmt.fast.int8.Int8PanelLinear: its Int8Panels, bias included


@dataclass(frozen=True)
class StepLinear:
    """y = x Wᵀ + b for W [out_features, in_features].  ``weight``: FLOAT, oneDNN's packed W (None
    where ``panels`` hold it); INT8, torch.ao's packed parameters (bias included); INT8_PANELS,
    the Int8Panels (bias included).  ``panels``: FLOAT, W in the panel kernels' layout
    [⌈out/16⌉, in, 16] float32, where the step uses them; ``tiles``: beside them, W as AMX's bf16
    pieces (attnmt.fast.panels.TiledLinear), which the step multiplies with instead (``tiles_model``: on
    the model of the tiles)."""

    weight: Tensor | torch.ScriptObject | None
    bias: Tensor | None
    panels: Tensor | None
    out_features: int
    in_features: int
    tiles: Tensor | None = None
    tiles_model: bool = False


@dataclass(frozen=True)
class StepNorm:
    """A LayerNorm's γ and β [d_model], float32."""

    gamma: Tensor
    beta: Tensor


@dataclass(frozen=True)
class StepLayer:
    """One decoder layer's weights, in the order the step uses them; ``self_qkv`` is the fused
    query, key and value projection [3·d_model, d_model]."""

    self_qkv: StepLinear
    self_out: StepLinear
    self_norm: StepNorm
    cross_q: StepLinear
    cross_out: StepLinear
    cross_norm: StepNorm
    ff1: StepLinear
    ff2: StepLinear
    ff_norm: StepNorm


@dataclass(frozen=True)
class StepWeights:
    """Everything the C++ step reads of a model: its decoder layers, the output layer, the
    embedding (table [V, d_model], or the output layer's panels [⌈V/16⌉, d_model, 16] where it is
    tied to them, attnmt.fast.panels.PanelEmbedding; times ``embed_scale``, plus ``positions``
    [P, d_model] where the model has them) and the final LayerNorm (pre-norm stacks).  Refused when built (ValueError,
    naming the layer and field) unless every shape, dtype and kind is one the step implements."""

    layers: tuple[StepLayer, ...]
    output: StepLinear
    embedding: Tensor
    positions: Tensor | None
    embed_scale: float
    final_norm: StepNorm | None
    heads: int
    norm: Norm
    activation: Activation
    linears: Linears
    eps: float

    def __post_init__(self) -> None:
        for name, kind in (("norm", Norm), ("activation", Activation), ("linears", Linears)):
            if not isinstance(getattr(self, name), kind):
                raise ValueError(f"StepWeights: {name} {getattr(self, name)!r} is not a {kind.__name__} "
                                 f"({', '.join(kind.__members__)})")
        vocab, d = self.output.out_features, self.output.in_features
        panels = ((vocab + PANEL - 1) // PANEL, d, PANEL)
        check_tensor("the embedding", self.embedding, panels if self.embedding.dim() == 3 else (vocab, d))
        if self.positions is not None:
            check_tensor("the positions", self.positions, (self.positions.size(0), d))
        if d % self.heads:
            raise ValueError(f"StepWeights: d_model {d} does not split into {self.heads} heads")
        if (self.final_norm is not None) != (self.norm is Norm.PRE):
            raise ValueError("StepWeights: a final LayerNorm comes with pre-norm layers, and only with them")
        if self.final_norm is not None:
            self.check_norm("the final LayerNorm", self.final_norm, d)
        ffn = self.layers[0].ff1.out_features if self.layers else 0
        shapes = {"self_qkv": (3 * d, d), "self_out": (d, d), "cross_q": (d, d), "cross_out": (d, d),
                  "ff1": (ffn, d), "ff2": (d, ffn)}
        for i, layer in enumerate(self.layers):
            for field in fields(StepLayer):
                value, where = getattr(layer, field.name), f"layer {i}'s {field.name}"
                if isinstance(value, StepNorm):
                    self.check_norm(where, value, d)
                else:
                    self.check_linear(where, value, shapes[field.name])
        self.check_linear("the output layer", self.output, (vocab, d))

    def linear_layers(self) -> list[StepLinear]:
        """Every linear layer: the decoder layers' in order, then the output layer."""
        return [*(value for layer in self.layers for value in vars(layer).values() if isinstance(value, StepLinear)),
                self.output]

    def check_norm(self, where: str, norm: StepNorm, d: int) -> None:
        check_tensor(f"{where} γ", norm.gamma, (d,))
        check_tensor(f"{where} β", norm.beta, (d,))

    def check_linear(self, where: str, linear: StepLinear, shape: tuple[int, int]) -> None:
        """A linear layer of ``shape`` [out, in] whose weight is of this model's kind."""
        if (linear.out_features, linear.in_features) != shape:
            raise ValueError(f"StepWeights: {where} is {linear.out_features} × {linear.in_features}, "
                             f"expected {shape[0]} × {shape[1]}")
        if self.linears is Linears.FLOAT:
            if linear.panels is not None:
                check_tensor(f"{where} panels", linear.panels, ((shape[0] + PANEL - 1) // PANEL, shape[1], PANEL))
            elif not (isinstance(linear.weight, Tensor) and tuple(linear.weight.shape) == shape
                      and linear.weight.dtype in (torch.float32, torch.bfloat16)):
                raise ValueError(f"StepWeights: {where} needs a float32 or bf16 weight {shape[0]} × {shape[1]} "
                                 "or float32 panels")
            if linear.bias is not None:
                check_tensor(f"{where} bias", linear.bias, shape[:1])
        elif not isinstance(linear.weight, torch.ScriptObject) or linear.bias is not None or linear.panels is not None:
            raise ValueError(f"StepWeights: {where} needs {self.linears.name} packed weights (bias included) "
                             f"and nothing else, got {type(linear.weight).__name__}")

    def to_cpp(self) -> torch.ScriptObject:
        """The C++ ``StepWeights`` (decoder_step.cpp), filled field by field by name."""
        final = [None, None] if self.final_norm is None else [self.final_norm.gamma, self.final_norm.beta]
        weights = torch.classes.attnmt.StepWeights(
            int(self.linears), int(self.norm), int(self.activation), self.heads, self.eps, self.embedding,
            self.positions, self.embed_scale, *final,
        )
        for layer in self.layers:
            weights.add_layer()
            for field in fields(StepLayer):
                value = getattr(layer, field.name)
                if isinstance(value, StepNorm):
                    weights.set_norm(field.name, value.gamma, value.beta)
                else:
                    set_linear(weights, field.name, value)
        set_linear(weights, "output", self.output)
        return weights


def check_tensor(what: str, t: Tensor, shape: tuple[int, ...]) -> None:
    if tuple(t.shape) != shape or t.dtype != torch.float32:
        raise ValueError(f"StepWeights: {what} is {t.dtype} {tuple(t.shape)}, expected float32 {shape}")


def set_linear(weights: torch.ScriptObject, name: str, linear: StepLinear) -> None:
    """The C++ StepWeights' layer ``name`` (of its last layer; "output") set to ``linear``."""
    weights.set_linear(name, linear.weight, linear.bias, linear.panels, linear.out_features)
    if linear.tiles is not None:
        weights.set_tiles(name, linear.tiles, linear.tiles_model)


def step_weights(model: Transformer, panels: bool = True) -> StepWeights:
    """The StepWeights of an inference copy (attnmt.fast.prepare) whose linear layers are
    PackedLinear, PanelLinear, torch.ao's int8 Linear or Int8PanelLinear, one kind throughout.
    ``panels``: float32 layers multiply through the panel kernels where this build has them."""
    c = model.config
    decoder = list(model.decoder_layers)
    linears = {linear_kind(module) for layer in decoder for module in layer_linears(layer).values()}
    linears.add(linear_kind(model.output))
    if len(linears) > 1:
        raise ValueError(f"StepWeights needs one kind of linear layer throughout, got {sorted(linears)}")
    kind = linears.pop()
    norms = [norm for layer in decoder for norm in (layer.norm1, layer.norm2, layer.norm3)]
    final = model.decoder_norm if isinstance(model.decoder_norm, nn.LayerNorm) else None
    eps = {norm.eps for norm in norms + ([final] if final is not None else [])}
    if len(eps) > 1:
        raise ValueError(f"StepWeights needs one LayerNorm eps for all layers, got {sorted(eps)}")
    modules = [m for layer in decoder for m in layer_linears(layer).values()] + [model.output]
    bf16 = any(getattr(m, "packed", None) is not None and m.packed.dtype == torch.bfloat16 for m in modules)
    with_panels = panels and kind is Linears.FLOAT and not bf16 and torch.ops.attnmt.panels_available()
    if not with_panels and any(hasattr(m, "panels") and kind is Linears.FLOAT for m in modules):
        raise ValueError("StepWeights: PanelLinear layers need the panel kernels (panels=True)")
    # A PackedLinear is one the kernel choice left on oneDNN (attnmt.fast.panels.use_float_panels)
    # where the copy has one, or where any layer is a PanelLinear: it gets no panels of its own.
    chosen = getattr(model, "kernel_choice", None) is not None
    pack = with_panels and not chosen and not any(isinstance(getattr(m, "panels", None), Tensor) for m in modules)
    layers = tuple(
        StepLayer(**{name: step_linear(m, kind, pack) for name, m in layer_linears(layer).items()},
                  self_norm=step_norm(layer.norm1), cross_norm=step_norm(layer.norm2), ff_norm=step_norm(layer.norm3))
        for layer in decoder
    )
    return StepWeights(
        layers, step_linear(model.output, kind, pack), embedding_table(model.tgt_embed),
        None if model.positional is None else model.positional.encodings().detach(),
        math.sqrt(c.d_model) if c.scale_embeddings else 1.0, None if final is None else step_norm(final),
        c.n_heads, Norm.PRE if c.norm_first else Norm.POST, Activation.named(c.activation), kind,
        eps.pop() if eps else 1e-5,
    )


def embedding_table(embedding: nn.Module) -> Tensor:
    """An embedding's rows as the step reads them: nn.Embedding's table, or PanelEmbedding's panels."""
    panels = getattr(embedding, "panels", None)
    return panels if isinstance(panels, Tensor) else embedding.weight.detach()


def layer_linears(layer: nn.Module) -> dict[str, nn.Module]:
    """A decoder layer's linear layers that the C++ step multiplies, by StepLayer field."""
    self_attn, cross, ff = layer.self_attn, layer.cross_attn, layer.feed_forward
    if getattr(self_attn, "qkv_proj", None) is None:
        raise TypeError("the C++ step needs PackedLinear or int8 layers and fused Q, K, V projections: "
                        "build it from attnmt.fast.prepare(model)")
    return {"self_qkv": self_attn.qkv_proj, "self_out": self_attn.out_proj, "cross_q": cross.q_proj,
            "cross_out": cross.out_proj, "ff1": ff.linear1, "ff2": ff.linear2}


def linear_kind(module: nn.Module) -> Linears:
    if isinstance(getattr(module, "packed", None), Tensor) or isinstance(getattr(module, "panels", None), Tensor):
        return Linears.FLOAT  # PackedLinear, Bf16PackedLinear, PanelLinear
    if isinstance(getattr(module, "panels", None), torch.ScriptObject):  # Int8PanelLinear
        return Linears.INT8_PANELS
    params = getattr(module, "_packed_params", None)  # torch.ao.nn.quantized.dynamic.Linear
    if params is not None and getattr(params, "dtype", None) == torch.qint8:
        return Linears.INT8
    raise TypeError(
        f"the C++ step needs PackedLinear or dynamically quantised int8 layers, got {type(module).__name__}"
    )


def step_linear(module: nn.Module, kind: Linears, panels: bool) -> StepLinear:
    """The layer's weights as the step takes them, float32 ones in panels where ``panels``."""
    shape = (module.out_features, module.in_features)
    if kind is Linears.INT8:
        return StepLinear(module._packed_params._packed_params, None, None, *shape)
    if kind is Linears.INT8_PANELS:
        return StepLinear(module.panels, None, None, *shape)
    if isinstance(getattr(module, "panels", None), Tensor):  # PanelLinear: its panels are its weight
        return StepLinear(None, module.bias, module.panels, *shape, getattr(module, "tiles", None),
                          getattr(module, "model", False))  # TiledLinear: its tiles too
    packed = torch.ops.attnmt.pack_panels(module.packed.to_dense()) if panels else None
    return StepLinear(module.packed, module.bias, packed, *shape)


def step_norm(norm: nn.LayerNorm) -> StepNorm:
    return StepNorm(norm.weight.detach(), norm.bias.detach())


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
        out = self.kernel.step(x.view(x.size(0), x.size(2)), *cache.step_arguments(src_mask, x.size(0)))
        cache.take_step(out)
        return out[0][:, None]

    def decode(self, tokens: Tensor, cache: GrowingCache, src_mask: Tensor) -> Tensor:
        """``Transformer.decode`` for one new position with a cache, in one C++ call: tokens [N, 1]
        (each row's newest), src_mask [G, 1, 1, S] -> logits [N, 1, V]; embedding, the stack, the
        final LayerNorm (pre-norm) and the output layer.  The cache gains the position."""
        return self.step_from_tokens(self.kernel.decode, tokens, cache, src_mask, 1)[0][:, None]

    def decode_top(self, tokens: Tensor, cache: GrowingCache, src_mask: Tensor, k: int, banned: Sequence[int],
                   forced: Tensor | None = None, outside: Sequence[int] = ()) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """``decode`` with beam search's choice in place of the logits: what ``NextTokens.top_log_probs``
        (k, banned, outside) gives for them (log-probs [N, k], tokens [N, k], normalisers [N]), and the log-prob of each
        row's token in forced [N] ([N], NaN where it is -1 or no forced is given).  Where the output
        layer has attnmt's own kernel (float32 panels, int8 panels) the two are one pass that never
        writes the [N, V] logits (csrc/top_tokens.cpp: top_log_probs_of).  The cache gains the position."""
        top, ids, normaliser, forced_log_prob = self.step_from_tokens(self.kernel.decode_top, tokens, cache, src_mask,
                                                                      4, k, list(banned), forced, list(outside))
        return top, ids, normaliser, forced_log_prob

    def step_from_tokens(self, method, tokens: Tensor, cache: GrowingCache, src_mask: Tensor, results: int,
                         *choice: object) -> list[Tensor]:
        """The C++ step's ``method`` (decode, or decode_top with beam search's ``choice``: k, banned,
        forced, outside) from tokens [N, 1]: its first ``results`` outputs; the cache takes the keys and values
        after them and gains the position."""
        if self.positional is not None:
            self.positional.check_end(cache.length + 1)
        out = method(tokens.view(-1), cache.length, *cache.step_arguments(src_mask, tokens.size(0)), *choice)
        cache.take_step([out[0], *out[results:]])
        cache.length += 1
        return out[:results]
