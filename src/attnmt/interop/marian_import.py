"""Import from Marian: a local Hugging Face Marian directory (e.g. an OPUS-MT model) becomes an
attnmt model directory.

    attnmt import --from-marian HF_DIR --out DIR

The directory comes from a stranger, so everything it says is checked before anything is
built: the sizes config.json gives against attnmt's limits, the machine and the weights file,
and the vocabulary against the config; each fault is one line naming the file and the key.
The maps (ids, parameter names) are in ``attnmt.interop.marian``; ``transformers`` is imported
only when needed (``pip install 'attnmt[export]'``).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import torch

from attnmt.checkpoint import (
    MODEL_CONFIG,
    WEIGHTS,
    check_model_size,
    check_vocab_size,
    check_weights_size,
    save_model_config,
    save_weights,
)
from attnmt.files import make_folder
from attnmt.interop.export import check_empty, require
from attnmt.interop.marian import ConversionError, attnmt_config, attnmt_weights
from attnmt.model import Transformer, TransformerConfig
from attnmt.text.vocab_tokenizer import VocabTokenizer


def import_marian(hf_dir: str | Path, out: str | Path) -> Path:
    """Turns a local Hugging Face Marian directory (e.g. an OPUS-MT model) into an attnmt model directory.

    The ids stay Marian's; the tokenizer files are kept (see ``VocabTokenizer``).  The sizes
    config.json gives are checked against the weights file and the machine before anything is built.
    """
    transformers = require("transformers", "importing a Marian model")
    hf_dir, out = Path(hf_dir), Path(out)
    for name in (MODEL_CONFIG, *VocabTokenizer.FILES):
        if not (hf_dir / name).is_file():
            raise ConversionError(f"{hf_dir / name}: not found; is {hf_dir} a Hugging Face Marian model directory?")
    check_empty(out)
    tokenizer = read_marian_vocabulary(hf_dir)
    planned = marian_model_config(transformers, hf_dir, tokenizer.unk_id)
    check_model_size(planned, hf_dir / MODEL_CONFIG)
    check_weights_size(planned, marian_weights_file(hf_dir), hf_dir / MODEL_CONFIG)
    source_size = planned.src_vocab_size or planned.vocab_size  # Marian's vocab_size: the source's
    target_key = "decoder_vocab_size" if planned.src_vocab_size else "vocab_size"
    check_vocab_size(tokenizer, hf_dir, (target_key, planned.vocab_size), ("vocab_size", source_size))
    try:
        hf_model = transformers.MarianMTModel.from_pretrained(str(hf_dir), local_files_only=True,
                                                              dtype=torch.float32)
    except (OSError, ValueError, RuntimeError) as error:
        raise ConversionError(f"{hf_dir}: transformers cannot load the model ({error})") from None
    has_bias = bool(hf_model.final_logits_bias.any())
    config = attnmt_config(hf_model.config.to_dict(), tokenizer.unk_id, has_bias)
    source_pad = tokenizer.source_vocab["<pad>"]
    if (tokenizer.pad_id, source_pad, tokenizer.eos_id) != (config.pad_id, config.pad_id, config.eos_id):
        raise ConversionError(
            f"{hf_dir}: the vocabularies have <pad>={tokenizer.pad_id} (source {source_pad}), "
            f"</s>={tokenizer.eos_id} but config.json has pad_token_id={config.pad_id}, eos_token_id={config.eos_id}"
        )
    model = Transformer(config)
    model.load_state_dict(attnmt_weights(model, hf_model.state_dict()))
    make_folder(out)
    save_weights(model, out / WEIGHTS)
    save_model_config(config, out)
    tokenizer.save(out)
    return out


def read_marian_vocabulary(hf_dir: Path) -> VocabTokenizer:
    """The directory's SentencePiece models and vocabularies; one line naming the file for one that
    is not a SentencePiece model, or a vocabulary without <pad>, <unk> or </s>."""
    try:
        return VocabTokenizer.load(hf_dir)
    except ValueError as error:  # VocabTokenizer's name the file
        raise ConversionError(str(error)) from None


def marian_model_config(transformers: ModuleType, hf_dir: Path, unk_id: int) -> TransformerConfig:
    """The attnmt config of the Marian model in ``hf_dir``, read from its config.json alone."""
    path = hf_dir / MODEL_CONFIG
    try:
        marian = transformers.MarianConfig.from_pretrained(str(hf_dir), local_files_only=True).to_dict()
        return attnmt_config(marian, unk_id, output_bias=False)
    except (OSError, ValueError, TypeError, KeyError) as error:  # ValueError: ConfigError and ConversionError too
        raise ConversionError(f"{path}: {error}") from None
    except Exception as error:  # noqa: BLE001 - huggingface_hub's StrictDataclassError (a wrong type) is none of those
        raise ConversionError(f"{path}: {type(error).__name__}: {str(error).splitlines()[0]}") from None


def marian_weights_file(hf_dir: Path) -> Path:
    """The model's safetensors file; a pickled one (pytorch_model.bin) is refused unread."""
    path = hf_dir / "model.safetensors"
    if not path.is_file():
        pickled = " (pytorch_model.bin is a pickle, which attnmt never loads: it can run code)" if (
            hf_dir / "pytorch_model.bin").exists() else ""
        raise ConversionError(f"{path}: not found{pickled}; convert the weights to safetensors where you "
                              "trust them, e.g. with transformers' save_pretrained")
    return path
