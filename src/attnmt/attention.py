"""Attention: masks, scaled dot-product attention and multi-head attention.

The paper's equation (Vaswani et al., 2017, section 3.2.1)::

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V

Mask convention (the one of ``torch.nn.functional.scaled_dot_product_attention``):
a boolean mask is **True where a query may attend to a key**.
"""

from __future__ import annotations

import math
from typing import Any, Literal, overload

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from attnmt.config_ranges import whole_number
from attnmt.dropout import check_probability, dropout


def padding_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """Which keys are real tokens, not padding.

    tokens: [B, S] token ids.  Returns bool [B, 1, 1, S], broadcastable over
    heads and query positions; True = a real token that may be attended to.
    """
    return (tokens != pad_id)[:, None, None, :]


def causal_mask(length: int, device: torch.device | None = None) -> Tensor:
    """The decoder's "sequence mask": position t sees positions <= t.

    Returns bool [T, T], lower triangle (diagonal included) True.  ``length`` is a count of any
    numeric type (NumPy's integers too), or a size being recorded (``mask_length``).
    """
    # The model's own calls give a plain int: one comparison.
    size = length if type(length) is int and length >= 0 else mask_length(length)
    return torch.ones(size, size, dtype=torch.bool, device=device).tril()


def mask_length(length: Any) -> int | torch.SymInt:
    """``causal_mask``'s length where it is no plain int of at least 0.  A size being recorded is
    kept as it is, so that the mask follows the input's length: ``torch.jit.trace`` gives
    ``tgt.size(1)`` as a 0-dim integer tensor (typed int, as torch.ones takes it), torch.compile
    and torch.export as a SymInt.  Any other is read as a count (``whole_number``); ValueError
    where it is none (2.5, -1, True)."""
    if isinstance(length, torch.SymInt) or (torch.jit.is_tracing() and is_size_tensor(length)):
        return length
    count = whole_number(length.item() if is_size_tensor(length) else length)
    if count is None or count < 0:
        raise ValueError(f"causal_mask: length must be a whole number of positions, got {length!r}")
    return count


def is_size_tensor(value: object) -> bool:
    """Whether ``value`` is a 0-dim integer tensor, a size as ``torch.jit.trace`` records it."""
    return isinstance(value, Tensor) and value.dim() == 0 and not (
        value.is_floating_point() or value.is_complex() or value.dtype == torch.bool)


# PyTorch's fused CPU kernel is slower than the step-by-step path for a few queries
# against a few dozen keys, which is what cached beam search asks, and in bfloat16, where
# its backward pass is several times slower than the step-by-step path's (docs/design/fast-decoder.md).
SMALL_QUERY = (2, 8)  # fewest and most queries (a plain comparison: torch.compile traces it)


# need_weights=True always returns the weights: the overloads tell a type checker so.
@overload
def scaled_dot_product_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, dropout_p: float = 0.0,
                                 *, need_weights: Literal[True]) -> tuple[Tensor, Tensor]: ...


@overload
def scaled_dot_product_attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, dropout_p: float = 0.0,
                                 need_weights: bool = False) -> tuple[Tensor, Tensor | None]: ...


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None = None,
    dropout_p: float = 0.0,
    need_weights: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """softmax(Q Kᵀ / √d_k) V.

    q: [..., Lq, d_k], k: [..., Lk, d_k], v: [..., Lk, d_v];
    mask: bool, broadcastable to [..., Lq, Lk], True = may attend (another dtype: ValueError).
    Returns (out [..., Lq, d_v], weights [..., Lq, Lk] or None).

    With ``need_weights=False`` PyTorch's fused kernel does the work (it never
    materialises the Lq × Lk matrix on its fast paths).  With ``need_weights=True``
    the same result is computed step by step so the weights can be returned.
    A query whose keys are all masked gets zero weights and a zero output, in
    both paths, never NaN.  On CPU, 2 to 8 queries also take the step-by-step
    path: it is faster there (see ``SMALL_QUERY``), and so do bfloat16 inputs.
    ValueError for a ``dropout_p`` outside 0 to 1, on every path (``check_probability``).
    """
    check_probability(dropout_p, "dropout_p: ")  # before the paths part: only the step-by-step one checked it
    if mask is not None and mask.dim() == 1:
        mask = mask[None, :]  # the fused kernel wants at least [Lq, Lk]
    on_cpu = q.device.type == "cpu"
    step_by_step = on_cpu and (SMALL_QUERY[0] <= q.size(-2) <= SMALL_QUERY[1] or q.dtype == torch.bfloat16)
    if not need_weights and not step_by_step:
        check_mask(mask)  # the step-by-step path checks it in attention_weights
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p)
        return out, None

    weights = attention_weights(q, k, mask)
    dropped = dropout(weights, dropout_p) if dropout_p > 0.0 else weights
    return dropped @ v, weights if need_weights else None


def attention_weights(q: Tensor, k: Tensor, mask: Tensor | None = None) -> Tensor:
    """softmax(Q Kᵀ / √d_k) [..., Lq, Lk] for q [..., Lq, d_k], k [..., Lk, d_k]; exact zeros where
    mask (bool, broadcastable, True = may attend) is False, all zeros for a query with no key."""
    check_mask(mask)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # [..., Lq, Lk]
    if mask is not None:
        # A large finite negative (not -inf) keeps fully masked rows NaN-free.
        scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
    weights = scores.softmax(dim=-1)
    return weights if mask is None else weights.masked_fill(~mask, 0.0)  # exact zeros; empties fully masked rows


def check_mask(mask: Tensor | None) -> None:
    """Refuses a mask that is not boolean.  PyTorch's fused kernel adds a float mask to the scores,
    so a tutorial's 0/1 mask (``torch.tril(torch.ones(T, T))``) would silently let every query
    attend to every key (those under a 1 only e times more), and the step-by-step path cannot
    invert it; a dtype comparison costs nothing beside the attention itself."""
    if mask is not None and mask.dtype != torch.bool:
        raise ValueError(f"attention masks are boolean, True where a query may attend to a key; got a {mask.dtype} "
                         "mask: give causal_mask(T) or padding_mask(tokens, pad_id), mask.bool() of a 0/1 mask, or "
                         "mask == 0 of an additive 0/-inf one (nn.Transformer's)")


def split_heads(x: Tensor, n_heads: int) -> Tensor:
    """[B, L, H·d] -> [B, H, L, d]."""
    batch, length, width = x.shape
    return x.view(batch, length, n_heads, width // n_heads).transpose(1, 2)


def merge_heads(x: Tensor) -> Tensor:
    """[B, H, L, d] -> [B, L, H·d] (the "concat" of the paper)."""
    batch, heads, length, d = x.shape
    return x.transpose(1, 2).reshape(batch, length, heads * d)


def head_size(name: str, size: object) -> int:
    """A size of ``MultiHeadAttention`` as an int: a whole number of at least 1 of any numeric type
    (NumPy's integers too, as ``whole_number`` reads counts); ValueError naming it where it is none
    (n_heads 0 was a ZeroDivisionError, -2 built a module that failed on its input)."""
    count = whole_number(size)
    if count is None or count < 1:
        raise ValueError(f"MultiHeadAttention: {name} must be a whole number of at least 1, got {size!r}")
    return count


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head_1, …, head_h) W_O,  head_i = Attention(Q W_Q^i, K W_K^i, V W_V^i).

    The h heads' projections are stored side by side in one ``nn.Linear`` each:
    ``q_proj``/``k_proj`` map to h·d_k, ``v_proj`` to h·d_v, ``out_proj`` maps
    h·d_v back to d_model.  By default d_k = d_v = d_model / h.

    Self-attention: ``mha(x, x, x)``.  Cross-attention (encoder-decoder):
    ``mha(decoder_state, memory, memory)``.
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        d_k: int | None = None,
        d_v: int | None = None,
        kdim: int | None = None,
        vdim: int | None = None,
    ) -> None:
        super().__init__()
        d_model, n_heads = head_size("d_model", d_model), head_size("n_heads", n_heads)
        d_k, d_v, kdim, vdim = (None if size is None else head_size(name, size) for name, size in
                                (("d_k", d_k), ("d_v", d_v), ("kdim", kdim), ("vdim", vdim)))
        if (d_k is None or d_v is None) and d_model % n_heads != 0:
            raise ValueError(
                f"d_model={d_model} is not divisible by n_heads={n_heads}: each head gets "
                f"d_model/n_heads dimensions. Choose n_heads that divides d_model, or give d_k and d_v."
            )
        check_probability(dropout, "MultiHeadAttention: ")
        self.n_heads = n_heads
        self.d_k = d_k if d_k is not None else d_model // n_heads
        self.d_v = d_v if d_v is not None else d_model // n_heads
        self.dropout = dropout
        self.q_proj = nn.Linear(d_model, n_heads * self.d_k, bias=bias)
        self.k_proj = nn.Linear(kdim or d_model, n_heads * self.d_k, bias=bias)
        self.v_proj = nn.Linear(vdim or d_model, n_heads * self.d_v, bias=bias)
        self.out_proj = nn.Linear(n_heads * self.d_v, d_model, bias=bias)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        mask: Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """query [B, Lq, d_model], key [B, Lk, kdim], value [B, Lk, vdim];
        mask bool broadcastable to [B, H, Lq, Lk] (True = may attend; another dtype: ValueError).

        Returns (out [B, Lq, d_model], weights [B, H, Lq, Lk] or None).
        """
        if query is key and key is value:  # self-attention: one matmul for Q, K and V
            q, k, v = self.project_qkv(query)
        else:
            q, (k, v) = self.project_q(query), self.project_kv(key, value)
        return self.attend(q, k, v, mask, need_weights)

    def project_qkv(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """Self-attention's queries, keys and values per head, from one matmul with W_Q, W_K
        and W_V side by side: the same numbers as three matmuls, in fewer and larger ones.

        The weights are concatenated anew at each call, so the gradient flows back to each
        and no copy goes stale while an optimiser updates them in place."""
        projections = (self.q_proj, self.k_proj, self.v_proj)
        weight = torch.cat([p.weight for p in projections])  # [3·width, d_model]
        bias = None if self.q_proj.bias is None else torch.cat([p.bias for p in projections])
        qkv = F.linear(x, weight, bias)
        return self.split_qkv(qkv)

    def split_qkv(self, qkv: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """[B, L, 2·H·d_k + H·d_v] side-by-side projections -> q, k, v per head."""
        widths = [self.n_heads * self.d_k, self.n_heads * self.d_k, self.n_heads * self.d_v]
        q, k, v = (split_heads(part, self.n_heads) for part in qkv.split(widths, dim=-1))
        return q, k, v

    def project_q(self, query: Tensor) -> Tensor:
        """[B, Lq, d_model] -> queries per head [B, H, Lq, d_k]."""
        return split_heads(self.q_proj(query), self.n_heads)

    def weights(self, query: Tensor, key: Tensor, mask: Tensor | None = None) -> Tensor:
        """The attention weights alone [B, H, Lq, Lk] (``forward``'s arguments): no values are read."""
        return attention_weights(self.project_q(query), split_heads(self.k_proj(key), self.n_heads), mask)

    def project_kv(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        """Keys [B, H, Lk, d_k] and values [B, H, Lk, d_v] per head.

        The decoder caches these: the encoder's once per sentence, its own one
        position per step.
        """
        return split_heads(self.k_proj(key), self.n_heads), split_heads(self.v_proj(value), self.n_heads)

    def attend(
        self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, need_weights: bool = False
    ) -> tuple[Tensor, Tensor | None]:
        """Attention over already projected heads, then concat and W_O.

        q [B, H, Lq, d_k], k [B, H, Lk, d_k], v [B, H, Lk, d_v] -> out [B, Lq, d_model].
        """
        p = self.dropout if self.training else 0.0
        heads, weights = scaled_dot_product_attention(q, k, v, mask, p, need_weights)
        return self.out_proj(merge_heads(heads)), weights
