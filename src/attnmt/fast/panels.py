"""Float32 linear layers held in the C++ panel kernels' layout (``csrc/float_panels.cpp``), and
where the inference copy takes them."""

from __future__ import annotations

import os

import torch
from torch import Tensor, nn

from attnmt.errors import ConfigError
from attnmt.fast.extension import PANEL, available
from attnmt.fast.int8 import int8_kernel
from attnmt.fast.kernels import TILE_PIECES, FloatKernel, KernelChoice
from attnmt.fast.packed import PackedLinear
from attnmt.fast.step import FusedDecoderStep, layer_linears
from attnmt.hardware import cpu_flags
from attnmt.model import Transformer


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

    def top_log_probs(self, x: Tensor, k: int) -> tuple[Tensor, ...]:
        """As the output projection: each row's k largest log-probs of x Wᵀ + b [rows, k], their tokens,
        the normaliser, in the multiplication's own pass (the [rows, out] logits are never written:
        ``csrc/float_panels.cpp``, panel_top_log_probs), as beam search's step chooses."""
        return torch.ops.attnmt.panel_top_log_probs(x, self.panels, self.bias, self.out_features, k, [], None)

    def dense(self) -> Tensor:
        """W [out_features, in_features], unpacked."""
        return panel_table(self.panels, self.out_features)

    def rows(self, ids: Tensor) -> Tensor:
        """Rows ``ids`` of W [out_features, in_features], unpacked: [len(ids), in_features]."""
        return panel_rows(self.panels, ids)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class TiledLinear(PanelLinear):
    """A PanelLinear multiplied on AMX's bf16 tiles (``csrc/split_tiles.cpp``): W and x each split into
    ``TILE_PIECES`` bf16 pieces (v ≈ p0 + p1, p0 = bf16(v), p1 = bf16(v − p0)) whose products are summed
    in float32, all but the smallest (p1 · q1): about 16 bits of each product, where float32 keeps 24.
    The panels stay (the embeddings tied to the layer read their rows, a shortlist selects from them);
    the prepared copy stores both and maps both back (``tiles``: those stored), so that a start reads
    neither to make the other and only the pages used become resident: the tiles the step multiplies
    with, the panels' rows the embeddings and a shortlist read.  ``model``: on the model of the tiles
    (tests, on a CPU without AMX)."""

    def __init__(self, layer: PanelLinear, model: bool = False, tiles: Tensor | None = None) -> None:
        nn.Module.__init__(self)
        self.hold(layer.panels, layer.bias, layer.out_features, layer.in_features)
        self.relu, self.model = layer.relu, model
        if tiles is None:
            tiles = torch.ops.attnmt.pack_split_tiles(layer.panels, TILE_PIECES)
        elif tiles.shape != tile_shape(layer.out_features, layer.in_features) or tiles.dtype != torch.bfloat16:
            raise ValueError(f"tiles {tuple(tiles.shape)} {tiles.dtype} do not hold a {layer.out_features} × "
                             f"{layer.in_features} layer in {TILE_PIECES} bf16 pieces")
        self.tiles = tiles

    def forward(self, x: Tensor) -> Tensor:
        """[..., in_features] -> [..., out_features]."""
        if x.requires_grad:
            raise RuntimeError("TiledLinear is for inference: it has no gradient (train the float model)")
        y = torch.ops.attnmt.split_tile_linear(x.reshape(-1, self.in_features).contiguous(), self.tiles, self.bias,
                                               self.out_features, None, self.relu, self.model)
        return y.view(*x.shape[:-1], self.out_features)

    def top_log_probs(self, x: Tensor, k: int) -> tuple[Tensor, ...]:
        """PanelLinear.top_log_probs on the tiles (``csrc/split_tiles.cpp``, split_tile_top_log_probs)."""
        return torch.ops.attnmt.split_tile_top_log_probs(x, self.tiles, self.bias, self.out_features, k, [], None,
                                                         self.model)

    def untiled(self) -> PanelLinear:
        """The same layer on the panels."""
        layer = PanelLinear.from_panels(self.panels, self.bias, self.out_features, self.in_features)
        layer.relu = self.relu
        return layer


def tile_shape(out_features: int, in_features: int) -> tuple[int, ...]:
    """The shape of ``pack_split_tiles``' bf16 tiles of a W [out_features, in_features]: per panel of 16
    rows, each piece's K (padded to whole tile rows of 32) in pairs."""
    padded = (in_features + 31) // 32 * 32
    return (out_features + PANEL - 1) // PANEL, TILE_PIECES, padded // 2, PANEL, 2


# On a CPU with AMX-BF16 the kernel choice times the tiles beside the panels and oneDNN; "0" leaves them
# out (float32's own products only), "1" or unset lets them in.
TILES_VARIABLE = "ATTNMT_FLOAT32_TILES"


def tiles_run() -> bool:
    """Whether TiledLinear runs on this CPU's AMX tiles: the CPU has AMX-BF16, Linux lets this process
    use them, the AVX-512 panels run, and ``ONEDNN_MAX_CPU_ISA`` allows AMX (as for the int8 kernel)."""
    return int8_kernel() != "none" and torch.ops.attnmt.split_tiles_run(False)


def tiles_allowed() -> bool:
    """Whether the kernel choice may time the tiles: a CPU with AMX-BF16 and ``ATTNMT_FLOAT32_TILES``
    unset or "1" (read without the extension: the prepared copy's name depends on it, and ``attnmt
    cache`` lists copies by name).  Another value than 0 or 1 is one line (ConfigError)."""
    said = os.environ.get(TILES_VARIABLE, "").strip()
    if said not in ("", "0", "1"):
        raise ConfigError(f"{TILES_VARIABLE}={said!r}: give 0 (float32's own products only) or 1, or leave it "
                          "unset to have AMX's tiles timed with the other float32 kernels")
    return said != "0" and "amx_bf16" in cpu_flags()


def tiles_chosen() -> bool:
    """Whether the kernel choice may put float32 layers on the tiles: where they are allowed and run."""
    return tiles_allowed() and tiles_run()


class PanelEmbedding(nn.Module):
    """An embedding tied to a PanelLinear's weight (a model with tied embeddings: its output layer
    is the target embedding, ``TransformerConfig.tie_embeddings`` or ``tie_output``), each row read
    from that layer's panels: the float32 inference copy holds the matrix once, in the panels, where
    it held it twice (at OPUS-MT's size 113 MiB more in the prepared file, and in a serving process
    every row a token ever read).  The rows are copies of the same numbers, so the copy's outputs do
    not change."""

    def __init__(self, layer: PanelLinear) -> None:
        super().__init__()
        # The panels only, not the layer as a submodule: the model's state dict and its prepared file
        # keep the layer under its own name (``output``), and this module adds nothing to either.
        self.panels = layer.panels
        self.num_embeddings, self.embedding_dim = layer.out_features, layer.in_features

    def forward(self, ids: Tensor) -> Tensor:
        """ids [...] -> rows [..., embedding_dim], as ``nn.Embedding`` gives them."""
        if ids.numel() and not (0 <= int(ids.min()) and int(ids.max()) < self.num_embeddings):
            raise IndexError(f"a token id is outside the embedding's {self.num_embeddings} rows")
        return panel_rows(self.panels, ids)

    def table(self) -> Tensor:
        """The embedding as a table [num_embeddings, embedding_dim], unpacked."""
        return panel_table(self.panels, self.num_embeddings)

    def extra_repr(self) -> str:
        return f"{self.num_embeddings}, {self.embedding_dim}, read from the output layer's panels"


def panel_table(panels: Tensor, rows: int) -> Tensor:
    """The W [rows, K] that ``panels`` [⌈rows/16⌉, K, 16] hold, unpacked."""
    return panels.transpose(1, 2).reshape(-1, panels.size(1))[:rows]


def panel_rows(panels: Tensor, ids: Tensor) -> Tensor:
    """Rows ``ids`` [...] of the W that ``panels`` [⌈N/16⌉, K, 16] hold: [..., K] (row v's element i
    at [v / 16, i, v % 16])."""
    return panels[ids // PANEL, :, ids % PANEL]


def embeddings_from_panels(model: Transformer) -> None:
    """In place: where ``model``'s output layer is a PanelLinear and the target embedding is tied to
    it (and the source embedding to that, ``tie_embeddings``), those embeddings become one
    PanelEmbedding reading its rows from the output layer's panels, and their own table is let go;
    where the output layer has left the panels for oneDNN (a kernel choice), they get a table of
    their own again."""
    c, output = model.config, model.output
    if not (c.tie_embeddings or c.tie_output):
        return
    if isinstance(output, PanelLinear):
        tied = PanelEmbedding(output)
    elif isinstance(output, PackedLinear) and isinstance(model.tgt_embed, PanelEmbedding):
        tied = nn.Embedding.from_pretrained(model.tgt_embed.table(), freeze=True)
    else:
        return
    model.tgt_embed = tied
    if c.tie_embeddings:
        model.src_embed = tied


def float_panels_for(model: Transformer) -> bool:
    """Whether ``model``'s float32 linear layers are PanelLinear once its C++ step is built: where
    this build has the panel kernels and the step supports the model."""
    return available() and torch.ops.attnmt.panels_available() and FusedDecoderStep.supports(model)


def use_float_panels(model: Transformer, choice: KernelChoice | None = None, tiles_on_model: bool = False) -> None:
    """In place, where ``float_panels_for`` ``model``: each float32 layer goes on the kernel
    ``choice`` gives its shape (attnmt.fast.kernels; None: the panels), a PackedLinear becoming a
    PanelLinear or, for the decoder step's layers only, back, or a TiledLinear (where ``tiles_chosen``,
    or on the model of the tiles where ``tiles_on_model``: tests).  The C++ step would otherwise hold a
    second copy of its layers, in the panels' layout, beside oneDNN's; and oneDNN keeps a
    primitive, with its own copy of the weight, for every row count it meets (its primitive cache:
    up to 1,024), so a layer that sees inputs of many lengths (the encoder, cross-attention's keys
    and values) grew the process by a weight's size per new length, while the panel kernel is as
    fast at a thousand rows: those stay on the panels whatever ``choice`` says."""
    if not float_panels_for(model):
        return
    chosen: dict[int, FloatKernel] = {}
    if choice is not None:
        step_layers = [*(m for layer in model.decoder_layers for m in layer_linears(layer).values()), model.output]
        chosen = {id(m): choice.kernel_for(m.out_features, m.in_features) for m in step_layers}
    tiles = tiles_on_model or (FloatKernel.TILES in chosen.values() and tiles_chosen())
    for parent in list(model.modules()):
        for name, module in parent.named_children():
            kernel = chosen.get(id(module), FloatKernel.PANELS)
            if kernel is FloatKernel.TILES and not tiles:
                kernel = FloatKernel.PANELS  # a choice measured where the tiles ran, read where they do not
            if type(module) in (PackedLinear, PanelLinear, TiledLinear):  # not bf16's PackedLinear
                converted = converted_layer(module, kernel, tiles_on_model)
                if converted is not module:
                    setattr(parent, name, converted)


def converted_layer(module: PackedLinear | PanelLinear, kernel: FloatKernel, tiles_on_model: bool) -> nn.Module:
    """``module`` on ``kernel``: itself where it is on it already."""
    on = {FloatKernel.ONEDNN: PackedLinear, FloatKernel.PANELS: PanelLinear, FloatKernel.TILES: TiledLinear}[kernel]
    if type(module) is on:
        return module
    converted: nn.Module
    if on is PackedLinear:
        converted = PackedLinear(module.dense(), module.bias)
    else:
        panel = (module.untiled() if isinstance(module, TiledLinear) else module if isinstance(module, PanelLinear)
                 else PanelLinear(module.packed.to_dense(), module.bias))
        converted = TiledLinear(panel, tiles_on_model) if on is TiledLinear else panel
    converted.relu = module.relu
    return converted
