"""attnmt and Marian: one Transformer under two sets of conventions, and the maps between them.

Marian, the architecture of the OPUS-MT models (Hugging Face's ``MarianMTModel``),
is the post-norm Transformer of the paper.  What differs is bookkeeping::

    attnmt                                  Marian
    decoder starts from BOS                 no BOS: the decoder starts from <pad>
    pad=0 unk=1 bos=2 eos=3                 </s>=0 <unk>=1 …, <pad> last (CTranslate2 relies on it)
    PE columns sin, cos, sin, cos (paper)   all sines, then all cosines ("half")
    norm1, feed_forward.linear1, …          self_attn_layer_norm, fc1, …
    optional output bias                    final_logits_bias

Vocabulary.  Exporting reorders the rows of every vocabulary-sized tensor (embeddings,
output projection, output bias) with ``marian_order``: Marian id m is attnmt id
``order[m]``.  attnmt's BOS row becomes Marian's ``<pad>`` row, so Marian's decoder
starts exactly where attnmt's does; attnmt's own pad row is left out: it only ever
meets masked source positions and a logit that decoding rules out.  Importing keeps
Marian's ids (the config names its pad/eos/unk, with bos = the decoder start token).

Features.  The interleaved layout is a permutation of the half layout's columns, and a
Transformer computes the same function when every d_model axis of every weight is
permuted alike (residual sums, LayerNorm and attention do not care about the order
of the features).  So an interleaved model exports exactly by permuting its features
(``feature_order``); nothing is approximated.

Everything here is plain PyTorch on state dicts; reading and writing the files is
``attnmt.interop.export``'s and ``attnmt.interop.marian_import``'s job.
"""

from __future__ import annotations

import json
import re

import torch
from torch import Tensor

from attnmt.config_ranges import check_even_d_model
from attnmt.errors import ConfigError, ConversionError
from attnmt.layers import inner_dropout
from attnmt.model import Transformer, TransformerConfig

# attnmt parameter -> Marian parameter, for the vocabulary-sized tensors.
VOCAB_TENSORS = {
    "src_embed.weight": "model.encoder.embed_tokens.weight",
    "tgt_embed.weight": "model.decoder.embed_tokens.weight",
    "output.weight": "lm_head.weight",
    "output.bias": "final_logits_bias",
}
# Sub-modules of a layer whose names differ (attnmt -> Marian); attention projections agree.
LAYER_PARTS = {
    "encoder": {"norm1": "self_attn_layer_norm", "norm2": "final_layer_norm"},
    "decoder": {"cross_attn": "encoder_attn", "norm1": "self_attn_layer_norm",
                "norm2": "encoder_attn_layer_norm", "norm3": "final_layer_norm"},
}
FEED_FORWARD = {"feed_forward.linear1": "fc1", "feed_forward.linear2": "fc2"}
# The key of an exported config.json that marks a model reading sources without </s> (source_eos: false).
SOURCE_EOS_KEY = "attnmt_source_eos"
# Marian's activation_function -> attnmt's activation.
ACTIVATIONS = {"relu": "relu", "gelu": "gelu", "swish": "swish", "silu": "swish"}
# attnmt's config keys -> the Marian config keys attnmt_config reads them from, where the names differ:
# a refusal names the key the user's config.json holds (the vocabulary sizes' keys depend on sharing).
MARIAN_KEYS = {"n_heads": "encoder_attention_heads", "d_ff": "encoder_ffn_dim",
               "max_positions": "max_position_embeddings", "scale_embeddings": "scale_embedding",
               "pad_id": "pad_token_id", "bos_id": "decoder_start_token_id", "eos_id": "eos_token_id"}


def marian_name(name: str) -> str:
    """attnmt parameter name -> Marian's.

    decoder_layers.0.norm2.weight -> model.decoder.layers.0.encoder_attn_layer_norm.weight
    """
    if name in VOCAB_TENSORS:
        return VOCAB_TENSORS[name]
    stack, index, rest = name.split(".", 2)  # "encoder_layers", "0", "norm1.weight"
    side = stack.removesuffix("_layers")
    for ours, theirs in {**FEED_FORWARD, **LAYER_PARTS[side]}.items():
        if rest.startswith(ours + "."):
            rest = theirs + rest[len(ours):]
            break
    return f"model.{side}.layers.{index}.{rest}"


def feature_axis(name: str) -> int | None:
    """Which axis of parameter ``name`` runs over the d_model features (None: no such axis)."""
    module, param = name.rsplit(".", 1)
    part = module.rsplit(".", 1)[-1]
    if name in ("src_embed.weight", "tgt_embed.weight", "output.weight"):
        return 1  # [vocab, d_model]
    if part in ("q_proj", "k_proj", "v_proj", "linear1"):
        return 1 if param == "weight" else None  # [out, d_model]; the bias is over outputs
    if part in ("out_proj", "linear2") or part.startswith("norm"):
        return 0  # [d_model, in] and [d_model]
    return None


def feature_order(config: TransformerConfig) -> Tensor | None:
    """Marian feature j is attnmt feature order[j]: sines (even columns) first, then cosines.

    None when the model already uses the half layout.
    """
    if config.positional_layout == "half":
        return None
    return torch.cat([torch.arange(0, config.d_model, 2), torch.arange(1, config.d_model, 2)])


def marian_order(config: TransformerConfig) -> list[int]:
    """attnmt ids in Marian id order: [eos, unk, the other pieces…, bos as <pad>].

    attnmt's pad is left out unless it is also the start token (a model imported from Marian).
    """
    c = config
    rest = [i for i in range(c.vocab_size) if i not in {c.pad_id, c.bos_id, c.eos_id, c.unk_id}]
    return [c.eos_id, c.unk_id, *rest, c.bos_id]


def marian_config(config: TransformerConfig, src_size: int, tgt_size: int, pad_id: int, eos_id: int) -> dict:
    """Keyword arguments of ``transformers.MarianConfig`` for this model (ids are Marian's)."""
    c = config
    if c.norm_first:
        raise ConversionError("Marian has post-norm layers only; a norm_first model cannot be exported")
    if c.positional != "sinusoidal":
        raise ConversionError(f"Marian uses sinusoidal positions; this model has positional={c.positional!r}")
    return dict(
        vocab_size=src_size, decoder_vocab_size=tgt_size,
        share_encoder_decoder_embeddings=c.tie_embeddings, tie_word_embeddings=c.tie_embeddings or c.tie_output,
        d_model=c.d_model, encoder_layers=c.encoder_layers, decoder_layers=c.decoder_layers,
        encoder_attention_heads=c.n_heads, decoder_attention_heads=c.n_heads,
        encoder_ffn_dim=c.d_ff, decoder_ffn_dim=c.d_ff, activation_function=c.activation,
        dropout=c.dropout, attention_dropout=c.attention_dropout,
        activation_dropout=inner_dropout(c.dropout, c.activation_dropout),
        max_position_embeddings=c.max_positions, scale_embedding=c.scale_embeddings,
        pad_token_id=pad_id, decoder_start_token_id=pad_id, eos_token_id=eos_id, forced_eos_token_id=eos_id,
        architectures=["MarianMTModel"],
        # One of attnmt's first models reads sources without </s>: transformers ignores the key, the import reads it.
        **({} if c.source_eos else {SOURCE_EOS_KEY: False}),
    )


def marian_weights(model: Transformer, src_order: list[int], tgt_order: list[int]) -> dict[str, Tensor]:
    """The model's parameters under Marian's names, vocabulary rows and features reordered.

    src_order/tgt_order: the attnmt id of each Marian source/target id.  Returns every
    Marian parameter but the (computed) positional tables, final_logits_bias included.
    """
    features = feature_order(model.config)
    rows = {"src_embed.weight": src_order, "tgt_embed.weight": tgt_order,
            "output.weight": tgt_order, "output.bias": tgt_order}
    weights = {}
    for name, tensor in model.state_dict().items():
        if name in rows:
            tensor = tensor[rows[name]]
        axis = feature_axis(name)
        if features is not None and axis is not None:
            tensor = tensor.index_select(axis, features)
        weights[marian_name(name)] = tensor.detach().clone()
    bias = weights.get("final_logits_bias", torch.zeros(len(tgt_order)))
    weights["final_logits_bias"] = bias[None, :]  # Marian keeps it as [1, V]
    return weights


def attnmt_config(marian: dict, unk_id: int, output_bias: bool) -> TransformerConfig:
    """A TransformerConfig from a Marian config (``MarianConfig.to_dict()``); the ids stay Marian's.

    unk_id comes from the vocabulary; output_bias: whether final_logits_bias is not all zeros.
    """
    m = marian
    for ours, theirs in (("encoder_attention_heads", "decoder_attention_heads"),
                         ("encoder_ffn_dim", "decoder_ffn_dim")):
        if m[ours] != m[theirs]:
            raise ConversionError(f"{ours}={m[ours]} differs from {theirs}={m[theirs]}; attnmt has one of each")
    if m["activation_function"] not in ACTIVATIONS:
        raise ConversionError(
            f"activation_function={m['activation_function']!r} is not supported; "
            f"attnmt has {', '.join(sorted(ACTIVATIONS))}"
        )
    check_even_d_model(m["d_model"], "attnmt's ", ", so it cannot import this model", ConversionError)
    if m["decoder_start_token_id"] != m["pad_token_id"]:  # bos == pad below; bos == eos would ban the EOS
        raise ConversionError(decoder_start_refusal(m["decoder_start_token_id"], m["pad_token_id"]))
    source_eos = m.get(SOURCE_EOS_KEY, True)
    if not isinstance(source_eos, bool):
        raise ConversionError(f"{SOURCE_EOS_KEY}={source_eos!r}: must be true or false")
    eos = m["eos_token_id"][0] if isinstance(m["eos_token_id"], list) else m["eos_token_id"]
    shared = m.get("share_encoder_decoder_embeddings", True)
    tied = m.get("tie_word_embeddings", True)
    # transformers' MarianMTModel sizes a shared vocabulary by vocab_size and ignores decoder_vocab_size
    target_key = "vocab_size" if shared or not m.get("decoder_vocab_size") else "decoder_vocab_size"
    names = {**MARIAN_KEYS, "vocab_size": target_key, "src_vocab_size": "vocab_size"}
    try:
        return TransformerConfig(
            vocab_size=m[target_key], src_vocab_size=None if shared else m["vocab_size"],
            d_model=m["d_model"], n_heads=m["encoder_attention_heads"],
            encoder_layers=m["encoder_layers"], decoder_layers=m["decoder_layers"], d_ff=m["encoder_ffn_dim"],
            dropout=m["dropout"], attention_dropout=m["attention_dropout"],
            activation_dropout=m.get("activation_dropout", m["dropout"]),  # OPUS-MT: 0.0, beside dropout 0.1
            max_positions=m["max_position_embeddings"], positional="sinusoidal", positional_layout="half",
            activation=ACTIVATIONS[m["activation_function"]], scale_embeddings=m["scale_embedding"],
            tie_embeddings=shared and tied, tie_output=tied and not shared, output_bias=output_bias,
            pad_id=m["pad_token_id"], unk_id=unk_id, bos_id=m["decoder_start_token_id"], eos_id=eos,
            source_eos=source_eos,
        )
    except ConfigError as error:  # TransformerConfig's checks name attnmt's keys, which config.json does not hold
        raise ConfigError(re.sub(rf"\b({'|'.join(names)})\b", lambda key: names[key[1]], str(error))) from None


def decoder_start_refusal(start: object, pad: object, pad_key: str = "pad_token_id") -> str:
    """Why a model whose decoder starts from another token than <pad> is no Marian model attnmt reads:
    it becomes attnmt's BOS, and an export writes BOS as <pad> (a start from </s>, as fairseq's
    models start, would also make attnmt rule the EOS out wherever it rules BOS out)."""
    return (f"decoder_start_token_id={json.dumps(start)} differs from {pad_key}={json.dumps(pad)}; attnmt "
            "imports Marian models, whose decoder starts from <pad> (decoder_start_token_id = pad_token_id)")


def attnmt_weights(model: Transformer, marian: dict[str, Tensor]) -> dict[str, Tensor]:
    """A state dict for ``model`` (built with ``attnmt_config``) from a Marian state dict."""
    missing = sorted({marian_name(name) for name in model.state_dict()} - set(marian))
    if missing:
        raise ConversionError(f"the Marian weights lack {', '.join(missing[:5])}")
    weights = {name: marian[marian_name(name)] for name in model.state_dict()}
    if "output.bias" in weights:
        weights["output.bias"] = weights["output.bias"].reshape(-1)
    return weights

