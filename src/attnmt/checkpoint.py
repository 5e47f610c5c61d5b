"""A model directory on disk, written so that a crash never leaves a broken one.

Layout::

    MODEL_DIR/
      model.safetensors      weights to translate with (the best checkpoint, or an average)
      config.json            the TransformerConfig
      spm.model              the tokenizer: the joint SentencePiece model (or the other files
                             attnmt.text.tokenizer_files lists)
      train.yaml             the training config (for --resume)
      lengths.json           the longest source training kept (attnmt.trained_lengths)
      log.jsonl              training metrics, one JSON object a line
      checkpoints/step_00001000/
          model.safetensors  weights at that step
          trainer_state.pt   optimizer, data position, RNG, step (tensors and numbers only)

Every file is written to a temporary name and renamed into place, and a checkpoint
directory appears only once complete (attnmt.files).  Nothing is ever unpickled: weights are
safetensors and the trainer state loads with ``torch.load(weights_only=True)``.  A model to be
loaded is built without drawing its random initial weights (attnmt.uninitialised); checkpoints
are averaged by attnmt.training.averaging, and pruned by attnmt.training.validating.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import load_file, load_model, save_model

from attnmt.checkpoint_errors import unreadable_state, weights_mismatch
from attnmt.errors import ConfigError, ModelDirError, json_value
from attnmt.files import atomic_folder, atomic_write, finish_file, save_state, write_text
from attnmt.hardware import physical_memory
from attnmt.model import Transformer, TransformerConfig
from attnmt.model_kinds import not_attnmt_refusal
from attnmt.model_languages import languages_from_training
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.tokenizer_files import holds_marian_vocabulary, read_tokenizer, tokenizer_paths
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.trained_lengths import read_longest_source
from attnmt.uninitialised import uninitialised

WEIGHTS = "model.safetensors"
# The quality calibration attnmt calibrate fits (attnmt.decoding.calibration): named here, with the directory's
# other files, so that what lists them (attnmt.training.run_dir) loads no quality estimation (issue 44).
CALIBRATION = "quality.json"
MODEL_CONFIG = "config.json"
TRAIN_CONFIG = "train.yaml"
TRAINER_STATE = "trainer_state.pt"
# What a trainer state holds (attnmt.training.validating) in every release, and best_score (the first's: best_bleu).
STATE_KEYS = ("step", "elapsed", "optimizer", "data", "rng", "best_step", "bad_evals")
CHECKPOINTS = "checkpoints"


def save_weights(model: Transformer, path: Path) -> None:
    """Writes weights as safetensors; a tied matrix is stored once."""
    atomic_write(path, lambda tmp: write_safetensors(model, tmp))


def write_safetensors(model: Transformer, path: Path) -> None:
    """safetensors' save_model, with a failed write raised as the OSError it is: a full disk reaches
    safetensors as its own error ("… (os error 28)"), which attnmt.files would not know for one."""
    try:
        save_model(model, str(path))
    except SafetensorError as error:
        raise OSError(errno.ENOSPC if "(os error 28)" in str(error) else errno.EIO, str(error)) from None


def check_model_size(config: TransformerConfig, source: Path | str) -> None:
    """Refuses, before any of it is allocated, a model larger than this machine's memory."""
    need, have = config.memory_bytes(), physical_memory()
    if have is not None and need > have:
        raise ModelDirError(f"{source}: describes a model of {config.parameter_count():,} parameters "
                            f"({need / 2**30:,.1f} GiB), more than this machine's memory ({have / 2**30:,.1f} GiB)")


def stored_shapes(path: Path) -> dict[str, list[int]]:
    """Each tensor's name and shape in the safetensors file ``path``, from its header alone (no
    tensor is read); one line naming the file for one that is missing or cannot be read."""
    try:
        with safe_open(str(path), "pt") as weights:
            return {name: weights.get_slice(name).get_shape() for name in weights.keys()}
    except FileNotFoundError:
        raise ModelDirError(f"{path}: weights file not found") from None
    except (SafetensorError, OSError, ValueError) as error:
        raise unreadable_weights(path, error) from None


def check_weights_size(config: TransformerConfig, stored: dict[str, list[int]], path: Path, source: Path | str) -> None:
    """Refuses a weights file that holds fewer numbers than the config ``source`` describes, from the
    file's header alone (``stored``: stored_shapes(path)): the model is not built for weights that
    cannot fill it."""
    numbers = sum(math.prod(shape) for shape in stored.values())
    if numbers < config.parameter_count():
        raise ModelDirError(f"{path}: holds {numbers:,} numbers but {source} describes a model of "
                            f"{config.parameter_count():,} parameters; they come from different models")


def check_weights_shapes(config: TransformerConfig, stored: dict[str, list[int]], path: Path,
                         source: Path | str) -> None:
    """Refuses a weights file holding a tensor of another shape than the model of ``config`` gives it,
    naming the first, from the file's header alone (``stored``: stored_shapes(path)).  A larger model's
    weights hold numbers enough for check_weights_size, and loading them was torch's "size mismatch"
    once for each of dozens of tensors."""
    # Shapes only: no random numbers are drawn, so the weights' pages are never written (never
    # resident), and freed at once.  Not on the meta device: its arange and draws go through
    # torch._refs, whose import of torch._dynamo cost every load 1.6 s.
    with uninitialised():
        expected = {name: list(tensor.shape) for name, tensor in Transformer(config).state_dict().items()}
    for name, shape in expected.items():  # in the model's order: the embedding first
        if name in stored and list(stored[name]) != shape:  # names that differ: load_weights says
            raise ModelDirError(f"{path}: {name} has the shape {list(stored[name])}, but the model {source} "
                                f"describes has {shape}; they come from different models")


def check_weights_fit(config: TransformerConfig, path: Path, source: Path | str) -> None:
    """Refuses, from its header alone, a weights file of another model than the one ``config`` (read
    from ``source``) describes: too few numbers, or a tensor of another shape."""
    stored = stored_shapes(path)  # the header, read once for both checks
    check_weights_size(config, stored, path, source)
    check_weights_shapes(config, stored, path, source)


def load_weights(model: Transformer, path: Path) -> None:
    """Copies the safetensors file ``path`` into ``model``'s parameters and buffers (a tied matrix,
    stored once, fills both its places); ModelDirError, one line naming the file, for a file that
    is missing or unreadable, or whose tensors are not exactly the model's (``weights_mismatch``)."""
    try:
        missing, unexpected = load_model(model, str(path), strict=False)
    except FileNotFoundError:
        raise ModelDirError(f"{path}: weights file not found") from None
    except (SafetensorError, OSError, RuntimeError, ValueError) as error:
        raise unreadable_weights(path, error) from None
    if missing or unexpected:
        raise weights_mismatch(path, missing, unexpected)


def unreadable_weights(path: Path, error: Exception) -> ModelDirError:
    """The error for a weights file that cannot be read.  A folder (a checkpoint's, given to
    --weights) is named as one, with the weights file in it, not as the reader's "No such device"."""
    if path.is_dir():
        inside = path / WEIGHTS
        hint = (f"give the weights file in it, {inside}" if inside.is_file()
                else "give a weights file (.safetensors), e.g. a checkpoint's model.safetensors")
        return ModelDirError(f"{path}: is a folder, not a weights file; {hint}")
    return ModelDirError(f"{path}: cannot load weights ({error})")


def save_model_config(config: TransformerConfig, model_dir: Path) -> None:
    """Writes ``config`` to MODEL_DIR/config.json (indented JSON, replaced whole or not at all)."""
    write_text(model_dir / MODEL_CONFIG, json.dumps(config.to_dict(), indent=2) + "\n")


def load_model_config(model_dir: str | Path) -> TransformerConfig:
    """The TransformerConfig in MODEL_DIR/config.json, one written by an earlier release included;
    ModelDirError, one line naming the file (and the key), for one missing, not JSON, or holding
    a value out of range, and one saying what it is for another program's model (a Hugging Face or
    CTranslate2 folder: attnmt.model_kinds); ConfigError for a ``model_dir`` that is no path or "".
    Cheap (no weights read): a command checks its options against the model's shape before loading it."""
    if not isinstance(model_dir, str | os.PathLike) or not os.fspath(model_dir):
        raise ConfigError(f"model_dir: expected the path of a model directory, got {model_dir!r}")
    model_dir = Path(model_dir)
    if model_dir.exists() and not model_dir.is_dir():  # "no such model directory" sent the user looking for one
        raise ModelDirError(f"{model_dir} is a file, not a model directory")
    if not model_dir.is_dir():
        raise ModelDirError(f"{model_dir}: no such model directory")
    path = model_dir / MODEL_CONFIG
    try:
        values = json_value(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        refusal = not_attnmt_refusal(model_dir, None)  # a CTranslate2 converter may write no config.json
        raise ModelDirError(refusal or f"{path}: not found; is {model_dir} an attnmt model directory?") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ModelDirError(f"{path}: not valid JSON ({error})") from None
    if refusal := not_attnmt_refusal(model_dir, values):  # else its keys are listed as unknown attnmt keys
        raise ModelDirError(refusal)
    if isinstance(values, dict) and holds_marian_vocabulary(model_dir):
        # imported from Marian before source_eos existed: Marian's sources always end with </s>
        values = {"source_eos": True, **values}
    try:
        return TransformerConfig.from_saved(values, source=str(path))
    except ConfigError as error:
        raise ModelDirError(str(error)) from None
    except TypeError as error:
        raise ModelDirError(f"{path}: {error}") from None


def load_tokenizer(model_dir: Path, config: TransformerConfig) -> Tokenizer | VocabTokenizer:
    """The model's tokenizer: spm.model, the source and target models, or for a model imported
    from Marian its own vocabulary files (VocabTokenizer); its sizes checked against ``config``."""
    tokenizer = read_tokenizer(model_dir, config.source_eos, config.language_token_alone)
    if isinstance(tokenizer, VocabTokenizer):
        source_key = "src_vocab_size" if config.src_vocab_size else "vocab_size"
        check_vocab_size(tokenizer, model_dir, ("vocab_size", config.vocab_size),
                         (source_key, config.src_vocab_size or config.vocab_size))
        return tokenizer
    paths = tokenizer_paths(model_dir)
    sizes = {paths[-1]: (tokenizer.vocab_size, "vocab_size", config.vocab_size),
             paths[0]: (tokenizer.source_vocab_size, "src_vocab_size", config.src_vocab_size or config.vocab_size)}
    for path, (pieces, key, expected) in sizes.items():
        if pieces != expected:
            raise ModelDirError(f"{path}: has {pieces} pieces but {model_dir / MODEL_CONFIG} says "
                                f"{key}={expected}; they come from different models")
    return tokenizer


def check_vocab_size(tokenizer: VocabTokenizer, folder: Path, target: tuple[str, int], source: tuple[str, int]) -> None:
    """A Marian vocabulary may leave ids unused, but none may lie beyond the model's embeddings.

    ``target``, ``source``: the key of ``folder``'s config.json giving each side's size, and its value
    (attnmt's vocab_size and src_vocab_size; Marian's decoder_vocab_size and vocab_size)."""
    target_file = folder / (VocabTokenizer.TARGET_VOCAB if tokenizer.separate_vocabs else "vocab.json")
    for (key, size), ids, path in ((target, tokenizer.vocab_size, target_file),
                                   (source, tokenizer.source_vocab_size, folder / "vocab.json")):
        if ids > size:
            raise ModelDirError(f"{path}: has ids up to {ids - 1} but {folder / MODEL_CONFIG} says {key}={size}; "
                                "they come from different models")


def load_model_dir(
    model_dir: str | Path, weights: str | Path | None = None
) -> tuple[Transformer, Tokenizer | VocabTokenizer]:
    """Loads a trained model (in eval mode) and its tokenizer; ``weights`` picks another weights file
    (e.g. a checkpoint's; default MODEL_DIR/model.safetensors).  The model's longest_trained is what
    the folder's lengths.json records (attnmt.trained_lengths), None where it has none; its target_lang
    the language its train.yaml names (attnmt.model_languages), None where it names none."""
    config, weights, tokenizer = open_model_dir(model_dir, weights)
    with uninitialised():  # every weight is read from the file next
        model = Transformer(config)
    model.longest_trained = read_longest_source(model_dir)
    model.target_lang = languages_from_training(Path(model_dir))[1]
    load_weights(model, weights)
    return model.eval(), tokenizer


def open_model_dir(
    model_dir: str | Path, weights: str | Path | None = None,
    checked_before: Callable[[TransformerConfig, Path], bool] | None = None,
) -> tuple[TransformerConfig, Path, Tokenizer | VocabTokenizer]:
    """A model directory's config, weights file (``weights``, or MODEL_DIR/model.safetensors) and
    tokenizer, checked against each other before any model is built.  ConfigError for a
    ``model_dir`` that is no path (None was a TypeError from pathlib) or an empty one ("" read the
    current directory as the model's: load_model_config).  ``checked_before(config, weights)``: True
    where these very weights were checked with this config before (a copy prepared from them is
    cached: attnmt.fast.prepared), so that no model is built to check them again (issue 44)."""
    config = load_model_config(model_dir)
    model_dir = Path(model_dir)
    weights = Path(weights) if weights else model_dir / WEIGHTS
    check_model_size(config, model_dir / MODEL_CONFIG)
    if checked_before is None or not checked_before(config, weights):
        check_weights_fit(config, weights, model_dir / MODEL_CONFIG)
    return config, weights, load_tokenizer(model_dir, config)


def checkpoint_path(model_dir: Path, step: int) -> Path:
    """Where the checkpoint of ``step`` lives: MODEL_DIR/checkpoints/step_00001000 (eight digits, so
    that names sort as steps do)."""
    return model_dir / CHECKPOINTS / f"step_{step:08d}"


STEP_FOLDER = re.compile(r"step_\d{8,}")  # the name checkpoint_path gives a step's folder


def list_checkpoints(model_dir: Path) -> list[Path]:
    """Complete checkpoints, oldest first (incomplete ones have a temporary dot-name).  Only folders
    named as checkpoint_path names them: a user's copy beside them ("step_00000020 copy",
    "step_00000020.bak") is no checkpoint, to resume from, average or prune (which deleted it)."""
    folder = Path(model_dir) / CHECKPOINTS
    if not folder.is_dir():
        return []
    steps = [p for p in folder.glob("step_*") if STEP_FOLDER.fullmatch(p.name) and (p / TRAINER_STATE).is_file()]
    return sorted(steps, key=lambda p: int(p.name.removeprefix("step_")))  # past 8 digits too


def save_checkpoint(model_dir: Path, step: int, model: Transformer, state: dict) -> Path:
    """Writes weights + trainer state into a temporary directory, then renames it into place.  A
    failure says the previous version is intact where the run has an earlier checkpoint."""

    def fill(folder: Path) -> None:  # straight into the new folder: its rename is what publishes them
        write_safetensors(model, folder / WEIGHTS)
        save_state(state, folder / TRAINER_STATE)
        for name in (WEIGHTS, TRAINER_STATE):
            finish_file(folder / name)

    earlier = list_checkpoints(model_dir)
    return atomic_folder(checkpoint_path(model_dir, step), fill, earlier=earlier[-1] if earlier else None)


def read_tensors(path: Path) -> dict[str, torch.Tensor]:
    """The tensors of a safetensors file; a missing or corrupt file is one line naming it."""
    try:
        return load_file(str(path))
    except FileNotFoundError:
        raise ModelDirError(f"{path}: weights file not found") from None
    except (SafetensorError, OSError, ValueError) as error:
        raise unreadable_weights(path, error) from None


def load_trainer_state(checkpoint: Path) -> dict:
    """A checkpoint's trainer state (optimizer, data position, RNG, step), read with
    ``torch.load(weights_only=True)``: tensors and plain values only, nothing unpickled runs.
    ModelDirError, one line naming the file, for one missing or unreadable."""
    path = checkpoint / TRAINER_STATE
    try:
        with warnings.catch_warnings():  # torch's on a pickle it will not read: the error says it in one line
            warnings.simplefilter("ignore", UserWarning)
            state = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise ModelDirError(f"{path}: not found") from None
    except Exception as error:  # noqa: BLE001 - any unpickling failure is a bad file for the user
        raise unreadable_state(path, error) from None
    # Any tensors and plain values load: another program's file was a KeyError on resume, a traceback.
    missing = [key for key in STATE_KEYS if not isinstance(state, dict) or key not in state]
    if isinstance(state, dict) and not {"best_score", "best_bleu"} & state.keys():
        missing.append("best_score")
    if missing:
        held = f"a dict without {', '.join(missing)}" if isinstance(state, dict) else f"a {type(state).__name__}"
        raise ModelDirError(f"{path}: not a trainer state of attnmt's ({held})")
    return state


def load_latest_checkpoint(model_dir: Path, model: Transformer, say: Callable[[str], None]) -> tuple[Path, dict]:
    """The newest checkpoint that loads (its weights into ``model``) and its trainer state; a
    damaged one is named (through ``say``) and passed over for the one before."""
    checkpoints = list_checkpoints(model_dir)
    if not checkpoints:
        raise ModelDirError(f"{model_dir}: no checkpoint to resume from")
    checkpoint, state = newest_loadable(checkpoints, model, say)
    check_finite_weights(model, checkpoint, model_dir)
    return checkpoint, state


def newest_loadable(checkpoints: list[Path], model: Transformer, say: Callable[[str], None]) -> tuple[Path, dict]:
    """The newest checkpoint that loads (none: a ModelDirError saying so); each damaged one newer than it is
    moved aside (renamed ``damaged_step_…``, kept for a look), so that it no longer counts among the newest that
    pruning keeps: a run that saves once more would otherwise keep the damaged ones and delete
    the sound one it resumed from."""
    for checkpoint in reversed(checkpoints[1:]):
        try:
            load_weights(model, checkpoint / WEIGHTS)
            return checkpoint, load_trainer_state(checkpoint)
        except ModelDirError as error:
            aside = free_name(checkpoint.with_name(f"damaged_{checkpoint.name}"))
            try:
                checkpoint.rename(aside)
                where = f"moved aside to {aside}"
            except OSError:
                where = f"delete {checkpoint} to be rid of it"
            say(f"warning: {error}; resuming from the checkpoint before it ({where})")
    try:
        load_weights(model, checkpoints[0] / WEIGHTS)
        return checkpoints[0], load_trainer_state(checkpoints[0])
    except ModelDirError as error:  # the last one: nothing to resume from (it named only the file)
        raise ModelDirError(f"{error}; no checkpoint of the run loads, so it cannot resume: start it again, or train "
                            f"on from its {WEIGHTS} (where it loads) with init_from into another out_dir") from None


def free_name(path: Path) -> Path:
    """``path``, or where it is taken (a step damaged on an earlier resume too), ``path.2``, ``path.3``, ..."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}.{number}")
    return candidate


def check_finite_weights(model: Transformer, checkpoint: Path, model_dir: Path) -> None:
    """Refuses to resume from weights holding a NaN or an infinity: every batch's loss would be
    NaN, and skipped, for ever.  The one-line error names the newest checkpoint that is sound."""
    broken = next((name for name, p in model.named_parameters() if not torch.isfinite(p).all()), None)
    if broken is None:
        return
    sound = last_finite_checkpoint(model_dir, before=checkpoint)
    how = (f"delete it to resume from {sound}, the newest checkpoint with finite weights" if sound else
           "no checkpoint before it has finite weights: start the run afresh")
    raise ModelDirError(f"{checkpoint}: its weights hold NaN or infinite values ({broken}); {how} "
                        "(with a lower lr_factor, or clip_norm set, if they broke in training)")


def last_finite_checkpoint(model_dir: Path, before: Path | None = None) -> Path | None:
    """The newest checkpoint (older than ``before``) whose weights load and are all finite, or None."""
    for checkpoint in reversed(list_checkpoints(model_dir)):
        if before is not None and checkpoint.name >= before.name:
            continue
        try:
            tensors = read_tensors(checkpoint / WEIGHTS)
        except ModelDirError:
            continue
        if all(torch.isfinite(tensor).all() for tensor in tensors.values()):
            return checkpoint
    return None
