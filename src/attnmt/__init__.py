"""attnmt: the Transformer of "Attention Is All You Need", from scratch in PyTorch."""

from attnmt.attention import (
    MultiHeadAttention,
    causal_mask,
    padding_mask,
    scaled_dot_product_attention,
)
from attnmt.layers import DecoderLayer, EncoderLayer, FeedForward, PositionalEncoding
from attnmt.model import AttentionTrace, Transformer, TransformerConfig

__version__ = "0.1.0"

__all__ = [
    "AttentionTrace",
    "DecoderLayer",
    "EncoderLayer",
    "FeedForward",
    "MultiHeadAttention",
    "PositionalEncoding",
    "Transformer",
    "TransformerConfig",
    "causal_mask",
    "padding_mask",
    "scaled_dot_product_attention",
]
