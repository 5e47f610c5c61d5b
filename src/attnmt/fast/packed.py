"""Fast float32 inference on CPU: every linear layer's weight packed once for oneDNN.

``F.linear`` hands the weight [out, in] to the matmul library in its plain
row-major layout, and the library re-blocks it for its kernel at every call.
Decoding calls the same small layers thousands of times with a few dozen rows,
where that repacking costs as much as the arithmetic: on 2 cores, 32 rows
through the 8,000-word output projection took 1.4-1.6 ms with ``F.linear`` and
0.9 ms with a prepacked weight (torch 2.13).  The numbers are the same up to
float rounding (a different summation order).

    fast = pack_linears(model)          # an eval-mode copy; model is left as it was
    translate(fast, tokenizer, sentences)

Self-attention's W_Q, W_K and W_V are packed side by side as one layer, so the
three projections stay one matmul (see ``MultiHeadAttention.project_qkv``).
The copy is for translating only: it has no gradients and cannot be trained.
"""

from __future__ import annotations

import copy

import torch
from torch import Tensor, nn

from attnmt.attention import fuse_all_qkv
from attnmt.fast.fused import FusedDecoderStep
from attnmt.fast.fused import available as fused_available
from attnmt.model import Transformer

# Rows per call that oneDNN tunes the blocked layout for: the decoder's batch of 32
# (any row count works; this one measured fastest for 32-128 rows).
ROWS_HINT = 32


def packing_available() -> bool:
    """Whether this PyTorch build has oneDNN (x86 and ARM CPU builds do)."""
    return torch.backends.mkldnn.is_available()


class PackedLinear(nn.Module):
    """y = x Wᵀ + b, inference only, with W held in oneDNN's blocked layout."""

    def __init__(self, weight: Tensor, bias: Tensor | None) -> None:
        super().__init__()
        self.out_features, self.in_features = weight.shape
        self.packed = torch.ops.mkldnn._reorder_linear_weight(weight.detach().float(), ROWS_HINT)
        self.bias = None if bias is None else bias.detach().float().clone()

    def forward(self, x: Tensor) -> Tensor:
        """[..., in_features] -> [..., out_features]."""
        if x.requires_grad:
            raise RuntimeError("PackedLinear is for inference: it has no gradient (train the float model)")
        return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "none", [], "")

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


def pack_linears(model: Transformer, fused: bool = True) -> Transformer:
    """An eval-mode float32 copy of ``model`` whose linear layers use prepacked weights.

    With ``fused`` the copy's cached decoder step runs as one C++ call
    (attnmt.fast.fused) where that can be built.  Without oneDNN (or for a model not on
    the CPU) the copy keeps plain ``nn.Linear`` layers, so callers need not check.
    """
    packed = copy.deepcopy(model).eval().float()
    if not packing_available() or next(packed.parameters()).device.type != "cpu":
        return packed
    fuse_all_qkv(packed)
    for parent in list(packed.modules()):
        for name, child in parent.named_children():
            if type(child) is nn.Linear:
                setattr(parent, name, PackedLinear(child.weight, child.bias))
    if fused and FusedDecoderStep.supports(packed) and fused_available():
        packed.fused_step = FusedDecoderStep(packed)
    return packed
