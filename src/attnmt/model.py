"""The Transformer: configuration, encoder-decoder model and its attention trace.

Data flow of one forward pass::

    src [B, S] ─ embed·√d + PE ─ N × EncoderLayer ─────────────── memory [B, S, d]
                                                                      │
    tgt_in [B, T] ─ embed·√d + PE ─ N × DecoderLayer(self, cross ◄────┘, ffn) ─ linear ─ logits [B, T, V]

Source embeddings, target embeddings and the output projection share one
matrix when ``tie_embeddings`` is on (one joint vocabulary), as in the paper.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

from torch import Tensor, nn

from attnmt.attention import MultiHeadAttention, causal_mask, padding_mask
from attnmt.config import TransformerConfig
from attnmt.dropout import Dropout, check_probability
from attnmt.errors import ConfigError
from attnmt.layers import DecoderLayer, EncoderLayer, FeedForward, LayerCache, PositionalEncoding, inner_dropout


@dataclass
class AttentionTrace:
    """Every attention matrix of one forward pass, one tensor per layer.

    encoder:      [B, H, S, S] encoder self-attention
    decoder_self: [B, H, T, T] decoder (causal) self-attention
    cross:        [B, H, T, S] decoder → encoder attention
    """

    encoder: list[Tensor] = field(default_factory=list)
    decoder_self: list[Tensor] = field(default_factory=list)
    cross: list[Tensor] = field(default_factory=list)


@dataclass
class DecoderCache:
    """Per-layer key/value caches for step-by-step decoding; ``length`` positions so far.

    Encoder keys/values are kept once per sentence; the decoder rows are the
    sentences' groups of consecutive rows (see :class:`LayerCache`).  The searches hold
    it as a ``KVCache`` (attnmt.decoding.cache), the interface it implements.
    """

    layers: list[LayerCache]
    length: int = 0

    def reserve(self, positions: int) -> None:
        """Nothing to do: the keys/values grow by concatenation, one copy per new position."""

    def reorder(self, rows: Tensor, groups: Tensor | None = None) -> None:
        """Keeps decoder rows ``rows`` and, unless None, sentences ``groups`` in every layer."""
        for layer in self.layers:
            layer.reorder(rows, groups)

    def materialise(self) -> None:
        """Nothing to do: every reorder is applied at once, so each row's keys/values are its own."""


CROSS_ATTENTION = "cross-attention (decoder → encoder)"


def check_layer(layer: int, count: int, what: str) -> None:
    """ConfigError naming the layers there are for a ``layer`` that a model with ``count`` layers of
    ``what`` attention lacks (a layer counted from 1, as a paper counts them, is one too many at the
    top); -1 is the last, as everywhere in attnmt (``align``, ``--alignment-layer``).  A layer that
    is no integer (1.5, True, "0") is refused too, rather than failing later as an index."""
    if isinstance(layer, bool) or not isinstance(layer, numbers.Integral) or not -count <= layer < count:
        raise ConfigError(f"layer={layer!r}: the model has {count} layers of {what} "
                          f"(layer=0 to {count - 1}, -1 to -{count} from the last)")


def compiled_from(model: object) -> object:
    """The Transformer that ``torch.compile(model)`` wraps (its ``_orig_mod``), or ``model`` itself.
    The wrapper hands every attribute on to the Transformer, so it translates as the Transformer does."""
    inner = getattr(model, "_orig_mod", None) if isinstance(model, nn.Module) else None
    return inner if isinstance(inner, Transformer) else model


def check_model(model: object) -> None:
    """ConfigError for a ``model`` argument that is no Transformer (None, a path, a tokenizer given
    in its place), before it is used: it was an AttributeError naming ``config``, deep inside.  A
    Transformer wrapped by torch.compile is one (``compiled_from``)."""
    if not isinstance(compiled_from(model), Transformer):
        raise ConfigError(f"model: expected an attnmt Transformer, got {type(model).__name__}; "
                          "e.g. model, tokenizer = load_model_dir(path)")


class Transformer(nn.Module):
    """The encoder-decoder Transformer of "Attention Is All You Need"."""

    # The longest source its training kept, in pieces, where its folder records it (load_model_dir:
    # attnmt.trained_lengths): a longer sentence is parted to it before translation; None: not known.
    longest_trained: int | None = None
    # The language it translates into, as its folder's training record names it (load_model_dir:
    # attnmt.model_languages): German's grammar rules for glossary terms (a weak noun's case ending,
    # attnmt.decoding.term_weak) apply to a German target alone; None: not known, and they do not.
    target_lang: str | None = None
    # Whether a cached decoding step rounds the keys and values it keeps to float16 (the fast copy
    # beside int8 layers: attnmt.fast.transformer), so that a search's log-probs are no teacher-forced
    # pass's: quality reads such a model's translations by a forced pass (quality.assess_searched).
    float16_cache: bool = False

    def __init__(self, config: TransformerConfig) -> None:
        if not isinstance(config, TransformerConfig):  # a dict was an AttributeError naming src_vocab_size
            raise ConfigError(f"Transformer: expected a TransformerConfig, got {type(config).__name__}; build one "
                              "with TransformerConfig(d_model=512, ...) or TransformerConfig.from_dict(values)")
        super().__init__()
        self.config = c = config
        self.src_embed = nn.Embedding(c.src_vocab_size or c.vocab_size, c.d_model)
        self.tgt_embed = self.src_embed if c.tie_embeddings else nn.Embedding(c.vocab_size, c.d_model)
        self.positional = (
            None if c.positional == "none"
            else PositionalEncoding(c.d_model, c.max_positions, c.positional, c.positional_layout)
        )
        self.embed_dropout = Dropout(c.dropout)
        layer_args = (c.d_model, c.n_heads, c.d_ff, c.dropout, c.norm_first, c.activation,
                      c.attention_dropout, c.activation_dropout)
        self.encoder_layers = nn.ModuleList(EncoderLayer(*layer_args) for _ in range(c.encoder_layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(*layer_args) for _ in range(c.decoder_layers))
        # Pre-norm stacks end with a LayerNorm; post-norm layers already end normalised.
        self.encoder_norm = nn.LayerNorm(c.d_model) if c.norm_first else nn.Identity()
        self.decoder_norm = nn.LayerNorm(c.d_model) if c.norm_first else nn.Identity()
        self.output = nn.Linear(c.d_model, c.vocab_size, bias=c.output_bias)
        self.reset_parameters()
        if c.tie_embeddings or c.tie_output:
            self.output.weight = self.tgt_embed.weight

    def set_dropout(self, dropout: float, attention_dropout: float, activation_dropout: float | None = None) -> None:
        """Training's dropout from now on, in every layer (late dropout); ``config`` keeps the values
        the model was built with, which inference ignores.  ``activation_dropout``, inside the
        feed-forward blocks, follows ``dropout`` where it is None.  Each is checked to be a
        probability before any layer changes (ValueError naming it)."""
        for name, p in (("dropout", dropout), ("attention_dropout", attention_dropout),
                        ("activation_dropout", activation_dropout)):
            if p is not None:
                check_probability(p, f"{name}: ")
        for module in self.modules():
            if isinstance(module, Dropout):
                module.p = dropout
            elif isinstance(module, MultiHeadAttention):
                module.dropout = attention_dropout
        for module in self.modules():  # after the loop above, which set their dropout to ``dropout`` too
            if isinstance(module, FeedForward):
                module.dropout.p = inner_dropout(dropout, activation_dropout)

    def reset_parameters(self) -> None:
        """Xavier-uniform matrices; embeddings N(0, d^-1/2) so that, scaled by √d, they have unit scale."""
        for name, p in self.named_parameters():
            if "embed" in name and "positional" not in name:
                nn.init.normal_(p, std=self.config.d_model**-0.5)
            elif p.dim() > 1:
                nn.init.xavier_uniform_(p)
        if self.output.bias is not None:
            nn.init.zeros_(self.output.bias)

    def embed(self, table: nn.Embedding, tokens: Tensor, offset: int = 0) -> Tensor:
        """tokens [B, L] -> Dropout(Embedding·√d_model + PE) [B, L, d_model]."""
        x = table(tokens)
        if self.config.scale_embeddings:
            x = x * math.sqrt(self.config.d_model)
        if self.positional is not None:
            x = self.positional(x, offset)
        return self.embed_dropout(x)

    def encode(self, src: Tensor, trace: AttentionTrace | None = None) -> Tensor:
        """src [B, S] token ids -> memory [B, S, d_model].

        Pad tokens are masked out as keys.  With a ``trace``, each layer's
        self-attention weights [B, H, S, S] are appended to ``trace.encoder``.
        """
        mask = padding_mask(src, self.config.pad_id)
        x = self.embed(self.src_embed, src)
        for layer in self.encoder_layers:
            x, weights = layer(x, mask, need_weights=trace is not None)
            if trace is not None:
                trace.encoder.append(weights)
        return self.encoder_norm(x)

    def decode(
        self,
        tgt_in: Tensor,
        memory: Tensor,
        src_mask: Tensor,
        trace: AttentionTrace | None = None,
        cache: DecoderCache | None = None,
    ) -> Tensor:
        """tgt_in [B, T] (BOS + target so far), memory [B, S, d_model], src_mask bool [B, 1, 1, S]
        -> logits [B, T, vocab_size].  See :meth:`decoder_states` for ``trace`` and ``cache``.
        """
        return self.output(self.decoder_states(tgt_in, memory, src_mask, trace, cache))

    def decode_recording(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, cache: DecoderCache | None,
                         layer: int) -> tuple[Tensor, Tensor]:
        """``decode``, and decoder layer ``layer``'s cross-attention weights [B, H, S] at tgt_in's last
        position: what a search records, step by step, to align its output with the source."""
        trace = AttentionTrace()
        logits = self.decode(tgt_in, memory, src_mask, trace, cache)
        return logits, trace.cross[layer][:, :, -1]

    def decoder_states(
        self,
        tgt_in: Tensor,
        memory: Tensor,
        src_mask: Tensor,
        trace: AttentionTrace | None = None,
        cache: DecoderCache | None = None,
    ) -> Tensor:
        """The decoder stack's output [B, T, d_model], before the output projection.

        Each position sees only itself and earlier positions.  With a ``cache``
        (from :meth:`start_decoding`), ``tgt_in`` holds only the next positions;
        earlier positions' keys/values come from the cache, which grows by T.
        Its B rows may then be G sentences × B/G hypotheses (beam search), with
        ``src_mask`` [G, 1, 1, S] per sentence; ``memory`` is not read.
        """
        offset = cache.length if cache is not None else 0
        length = tgt_in.size(1)
        x = self.embed(self.tgt_embed, tgt_in, offset)
        x = self.decoder_stack(x, memory, src_mask, trace, cache)
        if cache is not None:
            cache.length += length
        return self.decoder_norm(x)

    def decoder_stack(
        self, x: Tensor, memory: Tensor, src_mask: Tensor, trace: AttentionTrace | None, cache: DecoderCache | None
    ) -> Tensor:
        """The decoder layers, one after the other: embedded x [B, T, d_model] -> [B, T, d_model]."""
        offset, length = (cache.length if cache is not None else 0), x.size(1)
        self_mask = causal_mask(offset + length, x.device)[offset:] if length > 1 else None
        for i, layer in enumerate(self.decoder_layers):
            layer_cache = cache.layers[i] if cache is not None else None
            x, self_w, cross_w = layer(
                x, memory, self_mask, src_mask, need_weights=trace is not None, cache=layer_cache
            )
            if trace is not None:
                trace.decoder_self.append(self_w)
                trace.cross.append(cross_w)
        return x

    def cross_attention(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, layer: int = -1) -> Tensor:
        """Decoder layer ``layer``'s cross-attention weights [B, H, T, S] over tgt_in [B, T] (BOS +
        target, teacher-forced), as ``decode`` with a trace records them, for less: the decoder
        stops at those weights (no later layer, no feed-forward after them, no logits).  ``layer``
        counts from 0, or from the last if negative; ConfigError naming the layers there are for
        one the model lacks (wrapped around, layer=3 of 3 was silently layer 0)."""
        count = len(self.decoder_layers)
        check_layer(layer, count, CROSS_ATTENTION)
        x = self.embed(self.tgt_embed, tgt_in)
        self_mask = causal_mask(tgt_in.size(1), x.device) if tgt_in.size(1) > 1 else None
        stop = layer % count
        for below in self.decoder_layers[:stop]:
            x, _, _ = below(x, memory, self_mask, src_mask)
        return self.decoder_layers[stop].cross_weights(x, memory, self_mask, src_mask)

    def start_decoding(self, memory: Tensor) -> DecoderCache:
        """Projects memory [B, S, d_model] once into every layer's cross-attention keys/values."""
        return DecoderCache([layer.init_cache(memory) for layer in self.decoder_layers])

    def forward(
        self, src: Tensor, tgt_in: Tensor, return_attention: bool = False
    ) -> Tensor | tuple[Tensor, AttentionTrace]:
        """src [B, S], tgt_in [B, T] -> logits [B, T, vocab_size] (teacher forcing).

        With ``return_attention=True`` returns (logits, AttentionTrace) holding
        every attention matrix of the pass, by layer, each [B, H, ·, ·].
        """
        trace = AttentionTrace() if return_attention else None
        memory = self.encode(src, trace)
        logits = self.decode(tgt_in, memory, padding_mask(src, self.config.pad_id), trace)
        return (logits, trace) if return_attention else logits

    def num_parameters(self) -> int:
        """Distinct trainable parameters (a tied matrix counts once)."""
        return sum(p.numel() for p in self.parameters())
