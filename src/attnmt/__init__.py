"""attnmt: the Transformer of "Attention Is All You Need", from scratch in PyTorch.

The paper's parts are the top-level modules, in reading order: ``attention`` (masks,
scaled dot-product attention, multi-head attention), ``layers`` (positional encoding,
feed-forward, encoder and decoder layers), ``model`` (the Transformer).  Around them:
``tokenizer`` and ``data`` (text to batches), ``checkpoint`` (model directories),
``decoding`` (the search options), ``search`` and ``translate`` (text out), ``glossary`` (terms a
translation must use), ``evaluate`` (BLEU), and the folders
``training``, ``fast``, ``inspect``, ``interop`` and ``app``.
"""

from attnmt.attention import (
    MultiHeadAttention,
    causal_mask,
    padding_mask,
    scaled_dot_product_attention,
)
from attnmt.checkpoint import load_model_dir
from attnmt.config import TransformerConfig
from attnmt.decoding import Decoding
from attnmt.errors import UserError
from attnmt.glossary import Glossary, read_glossary
from attnmt.layers import DecoderLayer, EncoderLayer, FeedForward, PositionalEncoding
from attnmt.model import AttentionTrace, Transformer
from attnmt.translate import translate

__version__ = "0.1.0"

__all__ = [
    "AttentionTrace",
    "Decoding",
    "DecoderLayer",
    "EncoderLayer",
    "FeedForward",
    "Glossary",
    "MultiHeadAttention",
    "PositionalEncoding",
    "Transformer",
    "TransformerConfig",
    "UserError",
    "causal_mask",
    "load_model_dir",
    "padding_mask",
    "read_glossary",
    "scaled_dot_product_attention",
    "translate",
]
