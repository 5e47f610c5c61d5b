"""A model directory on disk, written so that a crash never leaves a broken one.

Layout::

    MODEL_DIR/
      model.safetensors      weights to translate with (the best checkpoint, or an average)
      config.json            the TransformerConfig
      spm.model              the tokenizer: the joint SentencePiece model (or the other files
                             attnmt.tokenizer_files lists)
      train.yaml             the training config (for --resume)
      log.jsonl              training metrics, one JSON object a line
      checkpoints/step_00001000/
          model.safetensors  weights at that step
          trainer_state.pt   optimizer, data position, RNG, step (tensors and numbers only)

Every file is written to a temporary name and renamed into place, and a checkpoint
directory appears only once complete (attnmt.files).  Nothing is ever unpickled: weights are
safetensors and the trainer state loads with ``torch.load(weights_only=True)``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, load_model, save_file, save_model

from attnmt.errors import ConfigError, ModelDirError
from attnmt.files import atomic_folder, atomic_write, write_text
from attnmt.model import Transformer, TransformerConfig
from attnmt.tokenizer import Tokenizer
from attnmt.tokenizer_files import read_tokenizer, tokenizer_paths
from attnmt.vocab_tokenizer import VocabTokenizer

WEIGHTS = "model.safetensors"
MODEL_CONFIG = "config.json"
TRAIN_CONFIG = "train.yaml"
TRAINER_STATE = "trainer_state.pt"
CHECKPOINTS = "checkpoints"


def save_weights(model: Transformer, path: Path) -> None:
    """Writes weights as safetensors; a tied matrix is stored once."""
    atomic_write(path, lambda tmp: save_model(model, str(tmp)))


def load_weights(model: Transformer, path: Path) -> None:
    try:
        missing, unexpected = load_model(model, str(path), strict=False)
    except FileNotFoundError:
        raise ModelDirError(f"{path}: weights file not found") from None
    except (SafetensorError, OSError, RuntimeError, ValueError) as error:
        raise ModelDirError(f"{path}: cannot load weights ({error})") from None
    if missing or unexpected:
        raise ModelDirError(
            f"{path}: weights do not match the model config "
            f"(missing {sorted(missing)[:5]}, unexpected {sorted(unexpected)[:5]})"
        )


def save_model_config(config: TransformerConfig, model_dir: Path) -> None:
    write_text(model_dir / MODEL_CONFIG, json.dumps(config.to_dict(), indent=2) + "\n")


def load_model_config(model_dir: Path) -> TransformerConfig:
    path = model_dir / MODEL_CONFIG
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelDirError(f"{path}: not found; is {model_dir} an attnmt model directory?") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ModelDirError(f"{path}: not valid JSON ({error})") from None
    if isinstance(values, dict):
        values.setdefault("source_eos", False)  # written before 0.2: trained without a source </s>
    try:
        return TransformerConfig.from_dict(values, source=str(path))
    except (ConfigError, TypeError) as error:
        raise ModelDirError(str(error)) from None


def load_tokenizer(model_dir: Path, config: TransformerConfig) -> Tokenizer | VocabTokenizer:
    """The model's tokenizer: spm.model, the source and target models, or for a model imported
    from Marian its own vocabulary files (VocabTokenizer); its sizes checked against ``config``."""
    tokenizer = read_tokenizer(model_dir, config.source_eos)
    if isinstance(tokenizer, VocabTokenizer):
        check_vocab_size(tokenizer, model_dir, config.vocab_size)
        return tokenizer
    paths = tokenizer_paths(model_dir)
    sizes = {paths[-1]: (tokenizer.vocab_size, "vocab_size", config.vocab_size),
             paths[0]: (tokenizer.source_vocab_size, "src_vocab_size", config.src_vocab_size or config.vocab_size)}
    for path, (pieces, key, expected) in sizes.items():
        if pieces != expected:
            raise ModelDirError(f"{path}: has {pieces} pieces but {model_dir / MODEL_CONFIG} says "
                                f"{key}={expected}; they come from different models")
    return tokenizer


def check_vocab_size(tokenizer: VocabTokenizer, model_dir: Path, vocab_size: int) -> None:
    """A Marian vocabulary may leave ids unused, but none may lie beyond the model's vocab_size."""
    if tokenizer.vocab_size > vocab_size:
        raise ModelDirError(
            f"{model_dir / 'vocab.json'}: has ids up to {tokenizer.vocab_size - 1} but "
            f"{model_dir / MODEL_CONFIG} says vocab_size={vocab_size}; they come from different models"
        )


def load_model_dir(
    model_dir: str | Path, weights: str | Path | None = None
) -> tuple[Transformer, Tokenizer | VocabTokenizer]:
    """Loads a trained model (in eval mode) and its tokenizer.

    ``weights`` picks another weights file (e.g. a checkpoint's); default
    MODEL_DIR/model.safetensors.
    """
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        raise ModelDirError(f"{model_dir}: no such model directory")
    config = load_model_config(model_dir)
    tokenizer = load_tokenizer(model_dir, config)
    model = Transformer(config)
    load_weights(model, Path(weights) if weights else model_dir / WEIGHTS)
    return model.eval(), tokenizer


def checkpoint_path(model_dir: Path, step: int) -> Path:
    return model_dir / CHECKPOINTS / f"step_{step:08d}"


def list_checkpoints(model_dir: Path) -> list[Path]:
    """Complete checkpoints, oldest first (incomplete ones have a temporary dot-name)."""
    folder = Path(model_dir) / CHECKPOINTS
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("step_*") if (p / TRAINER_STATE).is_file())


def save_checkpoint(model_dir: Path, step: int, model: Transformer, state: dict) -> Path:
    """Writes weights + trainer state into a temporary directory, then renames it into place."""

    def fill(folder: Path) -> None:
        save_weights(model, folder / WEIGHTS)
        atomic_write(folder / TRAINER_STATE, lambda path: torch.save(state, path))

    return atomic_folder(checkpoint_path(model_dir, step), fill)


def load_trainer_state(checkpoint: Path) -> dict:
    path = checkpoint / TRAINER_STATE
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ModelDirError(f"{path}: not found") from None
    except Exception as error:  # noqa: BLE001 - any unpickling failure is a bad file for the user
        raise ModelDirError(f"{path}: cannot read trainer state ({type(error).__name__}: {error})") from None


def prune_checkpoints(model_dir: Path, keep_last: int, protect: Path | None = None) -> None:
    """Deletes all but the newest ``keep_last`` checkpoints, never ``protect`` (the best)."""
    checkpoints = list_checkpoints(model_dir)
    for old in checkpoints[: max(len(checkpoints) - keep_last, 0)]:
        if protect is None or old.resolve() != protect.resolve():
            shutil.rmtree(old, ignore_errors=True)


def average_checkpoints(checkpoints: list[Path], out: Path) -> None:
    """Writes the element-wise mean of the checkpoints' weights to ``out`` (the paper averages the last 5)."""
    if not checkpoints:
        raise ModelDirError("no checkpoints to average")
    total: dict[str, torch.Tensor] = {}
    for path in checkpoints:
        tensors = load_file(str(path / WEIGHTS))
        for name, tensor in tensors.items():
            total[name] = total.get(name, 0) + tensor.double()
    mean = {name: (tensor / len(checkpoints)).float().contiguous() for name, tensor in total.items()}
    atomic_write(out, lambda tmp: save_file(mean, str(tmp)))
