"""The Transformer's building blocks: positional encoding, feed-forward, encoder and decoder layers.

Each sub-layer is wrapped in a residual connection and LayerNorm.  As in the
paper (post-norm)::

    x = LayerNorm(x + Dropout(Sublayer(x)))

or, with ``norm_first=True`` (pre-norm, steadier for deep stacks)::

    x = x + Dropout(Sublayer(LayerNorm(x)))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from attnmt.attention import MultiHeadAttention
from attnmt.dropout import Dropout

ACTIVATIONS: dict[str, Callable[[Tensor], Tensor]] = {
    "relu": F.relu,
    "gelu": F.gelu,
    "swish": F.silu,
}


POSITIONAL_LAYOUTS = ("interleaved", "half")  # sinusoidal_table's column orders


def sinusoidal_table(max_len: int, d_model: int, layout: str = "interleaved") -> Tensor:
    """The paper's positional encodings, [max_len, d_model].

    PE(pos, 2i) = sin(pos / 10000^(2i/d)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d)).
    ``layout="interleaved"`` puts them in those even/odd columns (the paper);
    ``layout="half"`` puts all sines first and all cosines second (tensor2tensor, Marian).
    """
    if d_model % 2:
        raise ValueError(f"sinusoidal positional encoding needs an even d_model, got {d_model}")
    position = torch.arange(max_len, dtype=torch.float64)[:, None]  # [max_len, 1]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # [d/2]
    angle = position / (10000.0 ** (two_i / d_model))  # [max_len, d/2]
    if layout == "interleaved":
        table = torch.stack([angle.sin(), angle.cos()], dim=-1).flatten(1)
    elif layout == "half":
        table = torch.cat([angle.sin(), angle.cos()], dim=-1)
    else:
        raise ValueError(f"unknown positional-encoding layout {layout!r}: use 'interleaved' or 'half'")
    return table.float()


class PositionalEncoding(nn.Module):
    """Adds position information to embeddings: x + PE[offset : offset + T].

    kind="sinusoidal" (fixed, the paper's) or "learned" (one trained vector per position).
    """

    def __init__(
        self, d_model: int, max_len: int = 1024, kind: str = "sinusoidal", layout: str = "interleaved"
    ) -> None:
        super().__init__()
        self.kind = kind
        self.max_len = max_len
        if kind == "sinusoidal":
            self.register_buffer("table", sinusoidal_table(max_len, d_model, layout), persistent=False)
        elif kind == "learned":
            self.embedding = nn.Embedding(max_len, d_model)
            nn.init.normal_(self.embedding.weight, std=d_model**-0.5)
        else:
            raise ValueError(f"unknown positional encoding {kind!r}: use 'sinusoidal' or 'learned'")

    def forward(self, x: Tensor, offset: int = 0) -> Tensor:
        """x [B, T, d_model] -> x + PE for positions offset … offset+T-1."""
        end = offset + x.size(1)
        self.check_end(end)
        return x + self.encodings()[offset:end].to(x.dtype)

    def encodings(self) -> Tensor:
        """PE for every position: [max_len, d_model]."""
        return self.table if self.kind == "sinusoidal" else self.embedding.weight

    def check_end(self, end: int) -> None:
        """Refuses positions from ``end`` on beyond the table, naming the config key to raise."""
        if end > self.max_len:
            raise ValueError(
                f"position {end - 1} is beyond max_positions={self.max_len}; "
                "raise max_positions in the model config or shorten the input"
            )


class FeedForward(nn.Module):
    """Position-wise feed-forward network: FFN(x) = max(0, x W1 + b1) W2 + b2."""

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0, activation: str = "relu") -> None:
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}: choose one of {sorted(ACTIVATIONS)}")
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.activation = ACTIVATIONS[activation]
        self.dropout = Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        """[B, T, d_model] -> [B, T, d_model]."""
        if self.activation is F.relu:
            return self.linear2(self.dropout.after_relu(self.linear1(x)))
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


def inner_dropout(dropout: float, activation_dropout: float | None) -> float:
    """The feed-forward's own dropout, after its activation: ``activation_dropout``, or where that is
    None the layer's ``dropout`` (the paper's single P_drop)."""
    return dropout if activation_dropout is None else activation_dropout


Sublayer = Callable[[Tensor], tuple[Tensor, Tensor | None]]


def residual(x: Tensor, norm: nn.LayerNorm, dropout: Dropout, norm_first: bool, sublayer: Sublayer):
    """One residual sub-layer connection, post-norm (paper) or pre-norm.

    Returns (new x, the sub-layer's attention weights or None).
    """
    if norm_first:
        out, weights = sublayer(norm(x))
        return x + dropout(out), weights
    out, weights = sublayer(x)
    return norm(x + dropout(out)), weights


def no_weights(fn: Callable[[Tensor], Tensor]) -> Sublayer:
    """Adapts a plain sub-layer (the feed-forward) to the (out, weights) shape."""
    return lambda x: (fn(x), None)


class EncoderLayer(nn.Module):
    """Self-attention, then feed-forward, each with residual + LayerNorm."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        dropout: float = 0.1,
        norm_first: bool = False,
        activation: str = "relu",
        attention_dropout: float = 0.0,
        activation_dropout: float | None = None,
    ) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, attention_dropout)
        self.feed_forward = FeedForward(d_model, d_ff, inner_dropout(dropout, activation_dropout), activation)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = Dropout(dropout)
        self.norm_first = norm_first

    def forward(
        self, x: Tensor, mask: Tensor | None = None, need_weights: bool = False
    ) -> tuple[Tensor, Tensor | None]:
        """x [B, S, d_model], mask bool [B, 1, 1, S] -> (x, self-attention weights [B, H, S, S] or None)."""
        x, weights = residual(
            x, self.norm1, self.dropout, self.norm_first,
            lambda h: self.self_attn(h, h, h, mask, need_weights),
        )
        x, _ = residual(x, self.norm2, self.dropout, self.norm_first, no_weights(self.feed_forward))
        return x, weights


@dataclass
class LayerCache:
    """What one decoder layer keeps between decoding steps.

    cross_k, cross_v: [G, H, S, d] the encoder's keys/values, projected once per sentence.
    self_k, self_v:   [N, H, t, d] the decoder's own keys/values for the t positions so far.

    The N decoder rows are G groups of N/G consecutive rows that share one sentence
    (beam search: a sentence's hypotheses), so the encoder's keys/values are kept
    once per sentence, never copied per hypothesis.
    """

    cross_k: Tensor
    cross_v: Tensor
    self_k: Tensor | None = None
    self_v: Tensor | None = None

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Adds the new positions' keys/values; returns all of them."""
        if self.self_k is not None:
            k = torch.cat([self.self_k, k], dim=2)
            v = torch.cat([self.self_v, v], dim=2)
        self.self_k, self.self_v = k, v
        return k, v

    def reorder(self, rows: Tensor | None, groups: Tensor | None = None) -> None:
        """Keeps decoder rows ``rows`` (beam search: the surviving hypotheses' parents; None: all)
        and, unless None, sentence groups ``groups`` (the sentences still decoding)."""
        if self.self_k is not None and rows is not None:
            self.self_k, self.self_v = self.self_k.index_select(0, rows), self.self_v.index_select(0, rows)
        if groups is not None:
            self.cross_k, self.cross_v = self.cross_k.index_select(0, groups), self.cross_v.index_select(0, groups)


class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention over the encoder output, then feed-forward."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        dropout: float = 0.1,
        norm_first: bool = False,
        activation: str = "relu",
        attention_dropout: float = 0.0,
        activation_dropout: float | None = None,
    ) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, attention_dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, attention_dropout)
        self.feed_forward = FeedForward(d_model, d_ff, inner_dropout(dropout, activation_dropout), activation)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.dropout = Dropout(dropout)
        self.norm_first = norm_first

    def forward(
        self,
        x: Tensor,
        memory: Tensor | None,
        self_mask: Tensor | None = None,
        cross_mask: Tensor | None = None,
        need_weights: bool = False,
        cache: LayerCache | None = None,
    ) -> tuple[Tensor, Tensor | None, Tensor | None]:
        """x [B, T, d_model], memory [B, S, d_model] (unused when ``cache`` holds its keys/values);
        self_mask bool [T, T] or [B, 1, T, T]; cross_mask bool [B, 1, 1, S].

        With a cache, x holds only the new positions and attends to every cached one;
        its B rows are the cache's G sentence groups of B/G rows, and cross_mask is
        per sentence: [G, 1, 1, S].
        Returns (x, self-attention [B, H, T, T] or None, cross-attention [B, H, T, S] or None).
        """
        x, self_weights = self.attend_self(x, self_mask, need_weights, cache)
        x, cross_weights = residual(
            x, self.norm2, self.dropout, self.norm_first,
            lambda h: self._cross_attend(h, memory, cross_mask, need_weights, cache),
        )
        x, _ = residual(x, self.norm3, self.dropout, self.norm_first, no_weights(self.feed_forward))
        return x, self_weights, cross_weights

    def cross_weights(self, x: Tensor, memory: Tensor, self_mask: Tensor | None, cross_mask: Tensor) -> Tensor:
        """Only where ``forward`` (no cache) looks in the source: its cross-attention weights
        [B, H, T, S], without reading the values or running the feed-forward."""
        x, _ = self.attend_self(x, self_mask, False, None)
        return self.cross_attn.weights(self.norm2(x) if self.norm_first else x, memory, cross_mask)

    def attend_self(self, x: Tensor, mask: Tensor | None, need_weights: bool,
                    cache: LayerCache | None) -> tuple[Tensor, Tensor | None]:
        """The masked self-attention sub-layer, residual and LayerNorm included: (x, weights or None)."""
        return residual(x, self.norm1, self.dropout, self.norm_first,
                        lambda h: self._self_attend(h, mask, need_weights, cache))

    def init_cache(self, memory: Tensor) -> LayerCache:
        """Projects the encoder output [B, S, d_model] to this layer's cross-attention keys/values."""
        # Contiguous once here, so that no step copies them again.
        k, v = self.cross_attn.project_kv(memory, memory)
        return LayerCache(k.contiguous(), v.contiguous())

    def _self_attend(self, h: Tensor, mask: Tensor | None, need_weights: bool, cache: LayerCache | None):
        q, k, v = self.self_attn.project_qkv(h)
        if cache is not None:
            k, v = cache.append(k, v)
        return self.self_attn.attend(q, k, v, mask, need_weights)

    def _cross_attend(
        self, h: Tensor, memory: Tensor | None, mask: Tensor | None, need_weights: bool,
        cache: LayerCache | None,
    ):
        attn = self.cross_attn
        if cache is None:
            k, v = attn.project_kv(memory, memory)
            return attn.attend(attn.project_q(h), k, v, mask, need_weights)
        # A sentence's N/G rows sit side by side as one longer query sequence against
        # that sentence's keys/values: [N, T, d] -> [G, N/G·T, d] is a view, no copy.
        groups = cache.cross_k.size(0)
        grouped = h.reshape(groups, -1, h.size(-1))
        out, weights = attn.attend(attn.project_q(grouped), cache.cross_k, cache.cross_v, mask, need_weights)
        if weights is not None:  # [G, H, N/G·T, S] -> [N, H, T, S]
            g, heads, _, s = weights.shape
            weights = weights.view(g, heads, -1, h.size(1), s).transpose(1, 2).reshape(-1, heads, h.size(1), s)
        return out.reshape(h.shape), weights
