"""int8 inference: dynamic quantisation of the linear layers.

Every ``nn.Linear`` (attention projections, feed-forward, output projection) gets int8
weights, quantised once per output channel; activations are quantised on the fly, row
by row, at each call, and the int8 matmul accumulates in int32.  Embeddings, LayerNorm
and the attention arithmetic stay in float32.  The translations' quality next to float32's
is measured in docs/performance.md.

torch.ao quantises the weights and its ``Linear`` multiplies them with fbgemm (activations
quantised per call to 7 bits, over the whole batch).  Where the fused extension builds,
``Int8PanelLinear`` multiplies the same int8 weights with attnmt's own kernel instead
(``csrc/int8_panels.cpp``), without fbgemm's per-call cost, which decoding's few dozen rows per
call do not amortise (docs/performance.md): on AMX tiles or AVX512-VNNI, activations quantised to
8 bits per row; on AVX2, to 7 bits per row (AVX2's int8 product saturates at 8).
"""

from __future__ import annotations

import warnings
from functools import cache

import torch
from torch import Tensor, nn
from torch.ao.nn.quantized.dynamic import Linear as DynamicInt8Linear
from torch.ao.quantization.observer import PerChannelMinMaxObserver

from attnmt.fast import extension
from attnmt.fast.kernels import Int8Choice
from attnmt.fast.step import layer_linears
from attnmt.hardware import amx_allowed


class Float32ChannelObserver(PerChannelMinMaxObserver):
    """torch.ao's per-channel weight observer with its min, max and eps held in float32, whatever
    torch's default dtype.  torch.ao's own keeps them in the default dtype and rounds each weight to
    it before taking its min and max: under a host's bfloat16 default the scales were bfloat16's,
    some int8 weights another number, and some translations others than under float32.  (torch.ao
    sets the observer's ``factory_kwargs`` itself, to the module's device, so the dtype is given
    here.)"""

    def __init__(self, *args, factory_kwargs: dict | None = None, **kwargs) -> None:
        super().__init__(*args, factory_kwargs={**(factory_kwargs or {}), "dtype": torch.float32}, **kwargs)


# The weights' quantisation, for torch.ao's layers and the panels quantised straight alike: qint8, one
# symmetric scale per output channel, from the float32 values.
WEIGHT_OBSERVER = Float32ChannelObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_symmetric)


def quantize_linear_layers(model: nn.Module) -> None:
    """In place: every ``nn.Linear`` becomes torch.ao's dynamically quantised int8 Linear, its
    weights quantised per output channel from their float32 values (``Float32ChannelObserver``)."""
    # torch.ao.quantization is deprecated in favour of torchao, which is not a
    # dependency; the eager dynamic path still works on CPU and is what we use.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.ao.quantization import QConfig, per_channel_dynamic_qconfig, quantize_dynamic

        qconfig = QConfig(activation=per_channel_dynamic_qconfig.activation, weight=WEIGHT_OBSERVER)
        quantize_dynamic(model, {nn.Linear: qconfig}, dtype=torch.qint8, inplace=True)


def int8_linear(weight: Tensor, bias: Tensor | None, pack: bool = True) -> DynamicInt8Linear:
    """torch.ao's dynamic int8 Linear around ``weight`` (qint8, one scale per output channel) and
    ``bias``.  Its constructor packs a zero weight of the layer's full size before any weight is set
    (a fifth of loading the int8 copy at OPUS-MT's size, on CPUs that multiply with fbgemm); built
    1×1 here, the layer's own weight is the only one fbgemm packs.  ``pack=False`` leaves that to
    the caller: ``layer.set_weight_bias(weight, bias)``, which may run on another thread."""
    layer = DynamicInt8Linear(1, 1, dtype=torch.qint8)
    layer.out_features, layer.in_features = weight.shape
    if pack:
        layer.set_weight_bias(weight, bias)
    return layer


@cache
def int8_kernel() -> str:
    """The extension's int8 kernel in this process: "amx", "vnni", "avx2" or "none" (where the extension
    cannot be built, or the CPU lacks AVX2).  The first call tells the extension whether AMX is allowed, as
    ``ONEDNN_MAX_CPU_ISA`` says (attnmt.hardware.amx_allowed): the one reading of that variable."""
    if not extension.available():
        return "none"
    torch.ops.attnmt.allow_amx(amx_allowed())
    return torch.ops.attnmt.int8_kernel()


@cache
def int8_kernels() -> tuple[str, ...]:
    """Every int8 panel kernel this process can run, widest first (the first is ``int8_kernel``)."""
    return tuple(torch.ops.attnmt.int8_kernels()) if int8_kernel() != "none" else ()


def activation_levels(kernel: str | None = None) -> int:
    """L of the panel kernel's q = round(x · L / max|x_row|): 127 (8 bits) on AMX and AVX512-VNNI,
    63 (7 bits) on AVX2, whose u8 · s8 product sums pairs in 16 bits (csrc/int8_panels.cpp).
    ``kernel``: a kernel's name (a layer's: ``panels.kernel()``); None, this process's widest."""
    return 63 if (kernel or int8_kernel()) == "avx2" else 127


def int8_panels_available() -> bool:
    """Whether ``Int8PanelLinear`` runs here: the extension builds and the CPU has AVX2 (AMX or
    AVX512-VNNI where it has them and PyTorch's kernels use AVX-512: ``ATEN_CPU_CAPABILITY=avx2``
    leaves the AVX2 kernel)."""
    return int8_kernel() != "none"


class Int8PanelLinear(nn.Module):
    """y = x Wᵀ + b with a torch.ao int8 layer's weights (int8, one scale per output column),
    multiplied by the int8 panel kernel: x quantised per row to q = round(x · L / max|x_row|) (L = 127;
    63 on the AVX2 kernel: ``activation_levels``),
    the products summed exactly in int32, then scaled back to float32 and b added (``relu``: and
    max(0, ·) taken, as the kernel writes y; attnmt.fast.transformer.fuse_relu)."""

    relu = False

    def __init__(self, layer: nn.Module) -> None:
        super().__init__()
        self.pack(layer.weight(), layer.bias())  # torch.ao: quantised per channel, symmetric (zero points 0)

    @classmethod
    def from_float(cls, linear: nn.Linear) -> Int8PanelLinear:
        """The layer that torch.ao's int8 Linear of ``linear`` gives (``quantize_linear_layers``, then
        ``Int8PanelLinear(layer)``), its weights quantised by torch.ao's own function straight into the
        panels: torch.ao's layer packs them for fbgemm (a zero weight of full size first), and the panels
        unpacked them again."""
        return cls.from_weights(linear.weight, linear.bias)

    @classmethod
    def from_weights(cls, weight: Tensor, bias: Tensor | None) -> Int8PanelLinear:
        """``from_float`` of the nn.Linear holding ``weight`` and ``bias`` (float; attnmt.fast.prepared
        reads them from the weights file a layer at a time)."""
        layer = cls.__new__(cls)
        nn.Module.__init__(layer)
        layer.pack(quantized_weight(weight), bias)
        return layer

    def pack(self, weight: Tensor, bias: Tensor | None) -> None:
        """Holds ``weight`` (qint8, one scale per output channel, zero points 0) and ``bias`` as panels."""
        if not int8_panels_available():
            raise RuntimeError("Int8PanelLinear needs the fused extension and a CPU with AVX2; keep torch.ao's "
                               "int8 Linear elsewhere")
        self.out_features, self.in_features = weight.shape
        self.panels = torch.ops.attnmt.pack_int8_panels(
            weight.int_repr(), weight.q_per_channel_scales().float(), None if bias is None else bias.detach().float()
        )

    @classmethod
    def from_panels(cls, panels: torch.ScriptObject) -> Int8PanelLinear:
        """The layer around panels made already (``torch.ops.attnmt.int8_panels_from``; attnmt.fast.prepared)."""
        layer = cls.__new__(cls)
        nn.Module.__init__(layer)
        layer.out_features, layer.in_features = panels.shape()
        layer.panels = panels
        return layer

    def forward(self, x: Tensor) -> Tensor:
        """[..., in_features] -> [..., out_features]."""
        if x.requires_grad:
            raise RuntimeError("Int8PanelLinear is for inference: it has no gradient (train the float model)")
        y = self.panels.linear(x.reshape(-1, self.in_features), None, self.relu)
        return y.view(*x.shape[:-1], self.out_features)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}"


def quantize_into_panels(model: nn.Module) -> None:
    """In place: every ``nn.Linear`` becomes the Int8PanelLinear that ``quantize_linear_layers`` and then
    ``Int8PanelLinear(layer)`` make of it, the same int8 weights and scales, without torch.ao's layer between
    (``Int8PanelLinear.from_float``)."""
    for parent in list(model.modules()):
        for name, child in parent.named_children():
            if type(child) is nn.Linear:
                setattr(parent, name, Int8PanelLinear.from_float(child))


def quantized_weight(weight: Tensor) -> Tensor:
    """A linear layer's ``weight`` as ``quantize_linear_layers`` quantises it (``WEIGHT_OBSERVER``), by the
    function torch.ao's dynamic Linear calls (``from_float``); a 16-bit weight is read in float32, as the
    readable model holds it."""
    weight = weight.float()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization's deprecation (quantize_linear_layers)
        from torch.ao.nn.quantized.modules.utils import _quantize_weight

        observer = WEIGHT_OBSERVER()
        observer(weight)
        return _quantize_weight(weight, observer)


def use_int8_kernels(model: nn.Module, choice: Int8Choice | None) -> None:
    """In place: each of the decoder step's int8 panel layers and the output projection on the kernel
    ``choice`` gives its shape (attnmt.fast.kernels.measure_int8; a shape it does not name: the
    widest).  The encoder's layers and cross-attention's keys and values, which meet every source
    length at once, stay on the widest kernel.  ``choice`` None leaves every layer as it is."""
    if choice is None:
        return
    for layer in [*(m for block in model.decoder_layers for m in layer_linears(block).values()), model.output]:
        if isinstance(layer, Int8PanelLinear):
            layer.panels.use_kernel(choice.kernel_for(layer.out_features, layer.in_features) or int8_kernel())
