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

import contextlib
import json
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import torch

from attnmt.checkpoint import (
    MODEL_CONFIG,
    WEIGHTS,
    check_model_size,
    check_vocab_size,
    check_weights_size,
    save_model_config,
    save_weights,
    stored_shapes,
)
from attnmt.errors import AttnmtWarning, json_value
from attnmt.files import atomic_folder
from attnmt.interop.export import check_empty, no_progress_bars, require
from attnmt.interop.marian import ConversionError, attnmt_config, attnmt_weights, decoder_start_refusal
from attnmt.model import Transformer, TransformerConfig
from attnmt.model_kinds import hugging_face_kind, is_attnmt_config, is_ctranslate2
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.trained_lengths import read_longest_source, write_longest_source
from attnmt.uninitialised import uninitialised

# The config.json keys that give the weights' shapes (the number of layers gives their names).
SIZE_KEYS = ("d_model", "encoder_ffn_dim", "decoder_ffn_dim", "vocab_size", "decoder_vocab_size")
SHARDS_INDEX = "model.safetensors.index.json"  # which shard holds each tensor of sharded weights
# transformers' pickled weights, in one file or sharded (save_pretrained(safe_serialization=False) before 5.0)
PICKLES = ("pytorch_model.bin", "pytorch_model.bin.index.json")
TOKENIZER_CONFIG = "tokenizer_config.json"  # MarianTokenizer's settings, separate_vocabs among them
GENERATION_CONFIG = "generation_config.json"  # generate()'s settings, the decoder's start among them

def import_marian(hf_dir: str | Path, out: str | Path) -> Path:
    """Turns a local Hugging Face Marian directory (e.g. an OPUS-MT model) into an attnmt model directory.

    The ids stay Marian's; the tokenizer files are kept (see ``VocabTokenizer``), and so is the
    lengths.json an attnmt export carries (attnmt.trained_lengths; an OPUS-MT model has none).  The sizes
    config.json gives are checked against the machine, the vocabulary and the weights file's header
    (sizes, shapes) before anything is built, and the tensors' names as transformers loads them.
    """
    hf_dir = Path(hf_dir)
    check_marian_folder(hf_dir)
    check_marian_kind(hf_dir)
    transformers = require("transformers", "importing a Marian model")
    for name in (MODEL_CONFIG, *VocabTokenizer.FILES):
        if not (hf_dir / name).is_file():
            raise ConversionError(f"{hf_dir / name}: not found; is {hf_dir} a Hugging Face Marian model directory?")
    check_empty(out)
    out = Path(out)
    tokenizer = read_marian_vocabulary(hf_dir)
    longest = read_longest_source(hf_dir)
    marian, planned = marian_model_config(transformers, hf_dir, tokenizer)
    check_generation_start(hf_dir, planned.pad_id)
    weights = marian_weights_file(hf_dir)
    check_model_size(planned, hf_dir / MODEL_CONFIG)
    stored = stored_shapes(weights)  # the header, read once for the sizes and the shapes
    check_weights_size(planned, stored, weights, hf_dir / MODEL_CONFIG)
    check_weight_shapes(transformers, marian, stored, weights, hf_dir / MODEL_CONFIG)
    if getattr(marian, "normalize_before", False):
        warnings.warn(f"{hf_dir / MODEL_CONFIG}: normalize_before: true is ignored, as transformers' MarianMTModel "
                      "ignores it: the model is imported post-norm, computing what transformers computes",
                      AttnmtWarning, stacklevel=2)
    if marian.share_encoder_decoder_embeddings and not marian.tie_word_embeddings:
        warnings.warn(f"{hf_dir / MODEL_CONFIG}: attnmt has no model that shares the source and target embeddings "
                      "but not the output projection: they are imported as two copies, which fine-tuning changes "
                      "apart, and an export writes them unshared (share_encoder_decoder_embeddings: false)",
                      AttnmtWarning, stacklevel=2)
    hf_model = load_marian_model(transformers, hf_dir, weights)
    has_bias = bool(hf_model.final_logits_bias.any())
    config = attnmt_config(hf_model.config.to_dict(), tokenizer.unk_id, has_bias)
    with uninitialised():  # float32 whatever the host's default dtype, and no random draws: every weight is loaded next
        model = Transformer(config)
    try:
        model.load_state_dict(attnmt_weights(model, hf_model.state_dict()))
    except RuntimeError as error:  # PyTorch's report lists every tensor: the first line of the first says enough
        first = str(error).splitlines()[1].strip() if "\n" in str(error) else str(error)
        raise ConversionError(f"{hf_dir}: the weights do not fit {hf_dir / MODEL_CONFIG} ({first})") from None

    def fill(folder: Path) -> None:
        save_weights(model, folder / WEIGHTS)
        save_model_config(config, folder)
        tokenizer.save(folder)
        if longest is not None:
            write_longest_source(folder, longest)

    # Written beside a new --out and renamed into place, or moved up from a hidden folder in an empty one:
    # an interrupted import leaves no half a model there.
    return atomic_folder(out, fill, replace=False)


def check_marian_folder(hf_dir: Path) -> None:
    """One line for an ``hf_dir`` that is missing or a file: "FILE/config.json: not found; is FILE a Hugging
    Face Marian model directory?" named a path that cannot exist, and sent the user looking for a config.json."""
    if not hf_dir.exists():
        raise ConversionError(f"{hf_dir}: no such folder; give the folder of a Hugging Face Marian model "
                              "(config.json, the SentencePiece models, vocab.json and the weights)")
    if not hf_dir.is_dir():
        raise ConversionError(f"{hf_dir} is a file, not a model directory; give the folder that holds it "
                              "(config.json, the SentencePiece models, vocab.json and the weights)")


def check_marian_kind(hf_dir: Path) -> None:
    """Refuses, in one line and before transformers is loaded, a config.json that is attnmt's, a
    CTranslate2 model's, or names another Hugging Face model_type than marian: transformers'
    MarianConfig reads any config.json, filling what a Marian one would say from its defaults
    (pad_token_id 58100), and passed a BERT's with two warnings.  A config.json naming no
    model_type is read as Marian's, as MarianConfig reads it: the checks of the sizes, the shapes and
    the tensors' names refuse one that is not."""
    try:
        values = json_value((hf_dir / MODEL_CONFIG).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not there, or no JSON: import_marian and MarianConfig say so
        return
    if is_attnmt_config(values):
        raise ConversionError(f"{hf_dir} is already an attnmt model directory (give it to --model)")
    kind = "CTranslate2" if is_ctranslate2(hf_dir, values) else hugging_face_kind(values)
    if kind not in (None, "marian"):
        what = kind if kind == "CTranslate2" else f"Hugging Face {kind}"
        raise ConversionError(f"{hf_dir} is a {what} model; only Marian (OPUS-MT) models can be imported")


def read_marian_vocabulary(hf_dir: Path) -> VocabTokenizer:
    """The directory's SentencePiece models and vocabularies; one line naming the file for one that
    is not a SentencePiece model, or a vocabulary without <pad>, <unk> or </s>.

    target_vocab.json is read only where tokenizer_config.json says ``"separate_vocabs": true``, as
    ``MarianTokenizer`` reads it: a stray one would otherwise renumber the target's pieces.
    """
    separate = separate_vocabs(hf_dir)
    target_vocab = hf_dir / VocabTokenizer.TARGET_VOCAB
    if separate and not target_vocab.is_file():
        raise ConversionError(f"{target_vocab}: not found, but {hf_dir / TOKENIZER_CONFIG} says separate_vocabs: true")
    if not separate and target_vocab.is_file():
        warnings.warn(f"{target_vocab}: ignored, as {TOKENIZER_CONFIG} does not say separate_vocabs: true "
                      "(MarianTokenizer ignores it too): vocab.json numbers the target's pieces",
                      AttnmtWarning, stacklevel=3)
    try:
        return VocabTokenizer.load(hf_dir, separate=separate)
    except ValueError as error:  # VocabTokenizer's name the file
        raise ConversionError(str(error)) from None


def separate_vocabs(hf_dir: Path) -> bool:
    """tokenizer_config.json's ``separate_vocabs`` (false without the file or the key, MarianTokenizer's default)."""
    path = hf_dir / TOKENIZER_CONFIG
    if not path.is_file():
        return False
    try:
        settings = json_value(path.read_text(encoding="utf-8"))
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ConversionError(f"{path}: not valid JSON ({error})") from None
    separate = settings.get("separate_vocabs", False) if isinstance(settings, dict) else None
    if not isinstance(separate, bool):
        raise ConversionError(f"{path}: separate_vocabs must be true or false, not {json.dumps(separate)}")
    return separate


def marian_model_config(transformers: ModuleType, hf_dir: Path,
                        tokenizer: VocabTokenizer) -> tuple[Any, TransformerConfig]:
    """The ``MarianConfig`` of the model in ``hf_dir`` and the attnmt config it gives, read from its
    config.json.  The vocabulary is checked against config.json's sizes and special ids first: the
    attnmt config's own range check would name an id out of range by attnmt's key (pad_id), which
    config.json does not hold."""
    path = hf_dir / MODEL_CONFIG
    try:
        marian = transformers.MarianConfig.from_pretrained(str(hf_dir), local_files_only=True)
    except (OSError, ValueError, TypeError, KeyError) as error:
        raise ConversionError(f"{path}: {error}") from None
    except Exception as error:  # noqa: BLE001 - huggingface_hub's StrictDataclassError (a wrong type) is none of those
        # its message is a heading ending in ":" and the reason under it: one line, both kept
        reason = "; ".join(line.strip().rstrip(":") for line in str(error).splitlines() if line.strip())
        raise ConversionError(f"{path}: {type(error).__name__}: {reason}") from None
    settings = marian.to_dict()
    check_vocab_size(tokenizer, hf_dir, *vocab_sizes(settings))
    check_special_ids(tokenizer, hf_dir, settings)
    try:
        return marian, attnmt_config(settings, tokenizer.unk_id, output_bias=False)
    except (ValueError, TypeError, KeyError) as error:  # ValueError: ConfigError and ConversionError too
        raise ConversionError(f"{path}: {error}") from None


def vocab_sizes(settings: dict) -> tuple[tuple[str, int], tuple[str, int]]:
    """The target's and the source's vocabulary sizes a Marian config gives, each with its key, as
    ``attnmt_config`` reads them (``check_vocab_size``'s ``target`` and ``source``): transformers'
    MarianMTModel sizes a shared vocabulary by vocab_size alone."""
    source = ("vocab_size", settings["vocab_size"])
    if settings.get("share_encoder_decoder_embeddings", True) or not settings.get("decoder_vocab_size"):
        return source, source
    return ("decoder_vocab_size", settings["decoder_vocab_size"]), source


def check_special_ids(tokenizer: VocabTokenizer, hf_dir: Path, settings: dict) -> None:
    """Refuses a config.json whose pad_token_id or eos_token_id is not the vocabularies' <pad> or </s>."""
    pad, eos = settings["pad_token_id"], settings["eos_token_id"]
    eos = eos[0] if isinstance(eos, list) and eos else eos
    source_pad = tokenizer.source_vocab["<pad>"]
    if (tokenizer.pad_id, source_pad, tokenizer.eos_id) != (pad, pad, eos):
        raise ConversionError(
            f"{hf_dir}: the vocabularies have <pad>={tokenizer.pad_id} (source {source_pad}), "
            f"</s>={tokenizer.eos_id} but config.json has pad_token_id={pad}, eos_token_id={eos}"
        )


def check_generation_start(hf_dir: Path, pad_id: int) -> None:
    """Refuses a generation_config.json whose decoder_start_token_id is not config.json's pad_token_id:
    transformers' generate() starts the decoder there, not from the <pad> the import starts it from.
    A file that is no JSON object, or says null, is left alone, as generate() passes over it."""
    path = hf_dir / GENERATION_CONFIG
    try:
        settings = json_value(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # no such file, or none transformers reads either
        return
    start = settings.get("decoder_start_token_id") if isinstance(settings, dict) else None
    if start is not None and start != pad_id:
        raise ConversionError(f"{path}: {decoder_start_refusal(start, pad_id, MODEL_CONFIG + ' pad_token_id')}")


def check_weight_shapes(transformers: ModuleType, marian: Any, stored: dict[str, list[int]], weights: Path,
                        config_path: Path) -> None:
    """Refuses a weights file whose tensors have other shapes than the config gives them, from the
    file's header alone (``stored``: stored_shapes(weights)), naming the first such tensor and the
    config's keys behind the axes that differ (transformers prints a report of every mismatched
    tensor, then fails)."""
    try:
        with torch.device("meta"):  # shapes only: nothing is allocated
            expected = transformers.MarianMTModel(marian).state_dict()
    except (AssertionError, ValueError, RuntimeError) as error:  # e.g. decoder_vocab_size <= pad_token_id
        raise ConversionError(f"{config_path}: transformers cannot build the model it describes ({error})") from None
    shapes = {name: tuple(shape) for name, shape in stored.items()}
    settings = marian.to_dict()
    for name, tensor in expected.items():
        want = tuple(tensor.shape)
        # a MarianModel's checkpoint names its tensors without the "model." that MarianMTModel adds
        name = name if name in shapes else name.removeprefix("model.")
        if name not in shapes or shapes[name] == want:
            continue
        keys = dict.fromkeys(f"{key}={settings[key]}" for got, size in zip(shapes[name], want, strict=False)
                             for key in SIZE_KEYS if got != size and settings.get(key) == size)
        which = f" ({', '.join(keys)})" if keys else ""
        raise ConversionError(f"{weights}: {name} has shape {shapes[name]}, but {config_path}{which} makes it "
                              f"{want}; they come from different models")


def load_marian_model(transformers: ModuleType, hf_dir: Path, weights: Path) -> Any:
    """The MarianMTModel of ``hf_dir`` (Any: the caller imports transformers, untyped here), refused
    when the weights lack a tensor the config's model has (transformers would fill it with random
    numbers) or hold one it has not (a renamed tensor, or another model's).  Marian may lack the
    computed positional tables and final_logits_bias (zero): transformers does not count them missing."""
    try:
        with quiet_loading(transformers):
            hf_model, loading = transformers.MarianMTModel.from_pretrained(
                str(hf_dir), local_files_only=True, dtype=torch.float32, output_loading_info=True)
    except (OSError, ValueError, RuntimeError) as error:
        raise ConversionError(f"{hf_dir}: transformers cannot load the model ({error})") from None
    missing, unexpected = sorted(loading["missing_keys"]), sorted(loading["unexpected_keys"])
    faults = [f"{verb} {names[0]}{f' (and {len(names) - 1} more)' if len(names) > 1 else ''}, which {what}"
              for verb, names, what in (("has no", missing, "config.json's model needs"),
                                        ("holds", unexpected, "config.json's model has not")) if names]
    if faults:
        raise ConversionError(f"{weights}: {'; '.join(faults)}; a tensor was renamed, or they come from different "
                              "models")
    return hf_model


@contextlib.contextmanager
def quiet_loading(transformers: ModuleType) -> Iterator[None]:
    """Without transformers' progress bar and its report of missing and unexpected tensors (many lines
    that ``load_marian_model`` says in one).  The report is filtered out rather than its logger's level
    raised: transformers logs more (about tensor parallelism) when that level is WARNING or above."""
    report = logging.getLogger("transformers.modeling_utils")
    held = Held()
    report.addFilter(held)
    try:
        with no_progress_bars(transformers):
            yield
    except BaseException:  # where loading fails, the report says why: transformers' error points to it
        report.removeFilter(held)
        for record in held.records:
            report.handle(record)
        raise
    finally:
        report.removeFilter(held)


class Held(logging.Filter):
    """Lets errors through and holds the rest (quiet_loading)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        self.records.append(record)
        return False


def marian_weights_file(hf_dir: Path) -> Path:
    """The model's safetensors file; pickled weights (pytorch_model.bin, or the shards
    pytorch_model.bin.index.json lists) are refused unread, with how to convert them, sharded
    safetensors with how to merge them (the size and shape checks read one file's header), and none
    at all as missing: converting is no help there."""
    path = hf_dir / "model.safetensors"
    if not path.is_file() and (hf_dir / SHARDS_INDEX).is_file():
        raise ConversionError(f"{path}: not found; the weights are sharded ({SHARDS_INDEX}), and attnmt imports "
                              "one file: merge them with transformers, e.g. MarianMTModel.from_pretrained(DIR)"
                              ".save_pretrained(NEW_DIR, max_shard_size='100GB'), copy the tokenizer files into "
                              "NEW_DIR and import it")
    pickled = next((name for name in PICKLES if (hf_dir / name).exists()), None)
    if not path.is_file() and pickled:
        what = "is a pickle" if pickled == PICKLES[0] else "lists pickled shards"
        raise ConversionError(f"{path}: not found ({pickled} {what}, which attnmt never loads: a pickle can run "
                              "code); convert the weights to safetensors where you trust them, e.g. with "
                              "transformers' save_pretrained")
    if not path.is_file():
        raise ConversionError(f"{path}: not found; {hf_dir} holds no weights")
    return path
