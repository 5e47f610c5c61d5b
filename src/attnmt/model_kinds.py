"""Which program a model folder was written for, told from its config.json and files, so that a
folder attnmt cannot use is named for what it is in one line (with what to do instead), rather
than its config.json's keys being listed as unknown attnmt keys.

    attnmt              config.json with attnmt's keys (n_heads, d_ff, ...), model.safetensors
    Hugging Face        config.json with ``model_type`` or ``architectures`` (Marian, BERT, T5, ...)
    CTranslate2         model.bin, and a config.json with its tokens (unk_token, decoder_start_token, ...)
"""

from __future__ import annotations

import shlex
from pathlib import Path

# Keys of attnmt's config.json that transformers' configs do not use (Marian's are
# encoder_attention_heads, encoder_ffn_dim, ...).
ATTNMT_KEYS = frozenset({"n_heads", "d_ff", "tie_embeddings", "positional"})
CTRANSLATE2_WEIGHTS = "model.bin"
# Every CTranslate2 config.json holds its special tokens as strings (ctranslate2.specs.ModelConfig);
# a translation model's adds the decoder's start and whether the source gets BOS or EOS.
CTRANSLATE2_KEYS = frozenset({"unk_token", "bos_token", "eos_token", "decoder_start_token", "add_source_bos",
                              "add_source_eos"})


def hugging_face_kind(values: object) -> str | None:
    """Which Hugging Face model a config.json is transformers' for, by keys attnmt's never has: its
    ``model_type`` ("marian", "bert", "t5"), which transformers' AutoConfig goes by; without one,
    "marian" for ``MarianMTModel`` among the ``architectures``, else the first one's name; None for
    any other."""
    if not isinstance(values, dict):
        return None
    model_type = values.get("model_type")
    if isinstance(model_type, str) and model_type:
        return model_type
    architectures = values.get("architectures")
    named = [name for name in architectures if isinstance(name, str)] if isinstance(architectures, list) else []
    return ("marian" if "MarianMTModel" in named else named[0]) if named else None


def is_ctranslate2(folder: Path, values: object) -> bool:
    """Whether ``folder`` holds a CTranslate2 model: its model.bin, with a config.json holding
    CTranslate2's keys, or none (``values``: the parsed config.json, None where there is none, as
    a converter without a config writes none)."""
    if not (folder / CTRANSLATE2_WEIGHTS).is_file():
        return False
    return values is None or (isinstance(values, dict) and bool(CTRANSLATE2_KEYS & values.keys()))


def is_attnmt_config(values: object) -> bool:
    """Whether a config.json is one attnmt wrote: attnmt's keys, and none of transformers' naming
    the model."""
    return isinstance(values, dict) and bool(ATTNMT_KEYS & values.keys()) and hugging_face_kind(values) is None


def not_attnmt_refusal(model_dir: Path, values: object) -> str | None:
    """The one line that says what another program's model folder is and what to do with it
    (``values``: its parsed config.json, None where there is none); None for any other folder."""
    if is_ctranslate2(model_dir, values):
        return (f"{model_dir} is a CTranslate2 model, not an attnmt model: run it with ctranslate2, or give "
                "attnmt the model it was exported from")
    kind = hugging_face_kind(values)
    if kind == "marian":
        return (f"{model_dir} is a Hugging Face Marian model, not an attnmt model: run "
                f"`attnmt import --from-marian {shlex.quote(str(model_dir))} --out NEWDIR` first")
    if kind is not None:
        return (f"{model_dir} is a Hugging Face {kind} model, not an attnmt model: only Marian models can be "
                "imported (attnmt import --from-marian)")
    return None
