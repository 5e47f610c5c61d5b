"""The inference copy's layers: linear layers with their weight packed once for oneDNN, and
self-attention with W_Q, W_K and W_V as one layer.

``F.linear`` hands the weight [out, in] to the matmul library in its plain row-major
layout, and the library re-blocks it for its kernel at every call.  Decoding calls the
same small layers thousands of times with a few dozen rows, where that repacking is
paid at every call for little arithmetic (docs/performance.md).  The numbers are the same up to float
rounding (a different summation order).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from attnmt.attention import MultiHeadAttention, attention_weights

# Rows per call that oneDNN tunes the blocked layout for: the decoder's batch of 32.  Any row
# count gives the same numbers; the choice only moves the speed (docs/performance.md).
ROWS_HINT = 32


def packing_available() -> bool:
    """Whether this PyTorch build has oneDNN (x86 and ARM CPU builds do)."""
    return torch.backends.mkldnn.is_available()


class PackedLinear(nn.Module):
    """y = x Wᵀ + b, inference only, with W held in oneDNN's blocked layout; ``relu``: max(0, y),
    applied by oneDNN as it writes y (attnmt.fast.transformer.fuse_relu)."""

    WEIGHT_DTYPE = torch.float32
    relu = False

    def __init__(self, weight: Tensor, bias: Tensor | None) -> None:
        super().__init__()
        self.out_features, self.in_features = weight.shape
        self.packed = torch.ops.mkldnn._reorder_linear_weight(weight.detach().to(self.WEIGHT_DTYPE), ROWS_HINT)
        self.bias = None if bias is None else bias.detach().float().clone()

    def forward(self, x: Tensor) -> Tensor:
        """[..., in_features] -> [..., out_features]."""
        if x.requires_grad:
            raise RuntimeError("PackedLinear is for inference: it has no gradient (train the float model)")
        return self.product(x)

    def product(self, x: Tensor) -> Tensor:
        return torch.ops.mkldnn._linear_pointwise(x, self.packed, self.bias, "relu" if self.relu else "none", [], "")

    def top_log_probs(self, x: Tensor, k: int) -> tuple[Tensor, ...]:
        """As the output projection, where the C++ step runs: PanelLinear.top_log_probs's choice, from
        the [rows, out] logits written first and searched in a second pass (``csrc/top_tokens.cpp``)."""
        return torch.ops.attnmt.top_log_probs(self(x), k, [], [])


class Bf16PackedLinear(PackedLinear):
    """y = x Wᵀ + b with W rounded to bf16 and packed for oneDNN, which multiplies with AMX tiles
    or AVX512-BF16 where the CPU has them: x is rounded to bf16, the product to bf16, and the bias
    is added in float32.  Float32 in, float32 out."""

    WEIGHT_DTYPE = torch.bfloat16

    def product(self, x: Tensor) -> Tensor:
        y = torch.ops.mkldnn._linear_pointwise(x.bfloat16(), self.packed, None, "none", [], "").float()
        if self.bias is not None:
            y.add_(self.bias)
        return y.relu_() if self.relu else y

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class FusedQKVAttention(MultiHeadAttention):
    """Self-attention whose W_Q, W_K and W_V are one layer, ``qkv_proj``, made once; the three
    separate layers are gone (an inference copy's self-attention never reads them alone, and kept
    they cost a packed or quantised copy each: 36 of a prepared OPUS-MT copy's 318 MiB).

    ``project_qkv`` calls it: one matmul, and packing or quantising the model's linear layers
    converts it like any other.  ``project_q``, ``project_kv`` and ``weights`` take their part of
    its output (the same numbers: each of its output columns is one of theirs).  For a model that
    is done training: an optimiser would leave ``qkv_proj`` behind.
    """

    def __init__(self, attention: MultiHeadAttention, weights: bool = True) -> None:
        q, k, v = attention.q_proj, attention.k_proj, attention.v_proj
        super().__init__(q.in_features, attention.n_heads, attention.dropout, q.bias is not None,
                         attention.d_k, attention.d_v, k.in_features, v.in_features)
        if not weights:  # the caller puts every layer in place (attnmt.fast.prepared)
            del self.q_proj, self.k_proj, self.v_proj
            self.qkv_proj = None
            return
        self.to(q.weight.device)  # load_state_dict copies into the layers where they are: on the GPU too
        self.load_state_dict(attention.state_dict())
        with torch.no_grad():
            self.qkv_proj = nn.Linear(q.in_features, q.out_features + k.out_features + v.out_features,
                                      bias=q.bias is not None, device=q.weight.device)
            self.qkv_proj.weight.copy_(torch.cat([q.weight, k.weight, v.weight]))
            if q.bias is not None:
                self.qkv_proj.bias.copy_(torch.cat([q.bias, k.bias, v.bias]))
        del self.q_proj, self.k_proj, self.v_proj

    def project_qkv(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        return self.split_qkv(self.qkv_proj(x))

    def project_q(self, query: Tensor) -> Tensor:
        return self.project_qkv(query)[0]

    def project_kv(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        _, k, v = self.project_qkv(key)
        return k, (v if value is key else self.project_qkv(value)[2])

    def weights(self, query: Tensor, key: Tensor, mask: Tensor | None = None) -> Tensor:
        q, k, _ = self.project_qkv(query)
        return attention_weights(q, k if key is query else self.project_qkv(key)[1], mask)


def fuse_self_attention(model: nn.Module, weights: bool = True) -> None:
    """In place: every layer's self-attention becomes a FusedQKVAttention (``weights=False``: with
    its layers left for the caller to set)."""
    for layer in model.modules():
        attention = getattr(layer, "self_attn", None)
        if type(attention) is MultiHeadAttention:
            layer.self_attn = FusedQKVAttention(attention, weights)


def pack_linear_layers(model: nn.Module, bf16: bool = False) -> None:
    """In place: every ``nn.Linear`` becomes a PackedLinear with the same weights (``bf16``: a
    Bf16PackedLinear, the weights rounded to bf16)."""
    packed = Bf16PackedLinear if bf16 else PackedLinear
    for parent in list(model.modules()):
        for name, child in parent.named_children():
            if type(child) is nn.Linear:
                setattr(parent, name, packed(child.weight, child.bias))
