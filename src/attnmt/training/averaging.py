"""Model selection after training: the best checkpoint, or an average of the last few
(``average_checkpoints``, also what ``attnmt average`` writes).

The paper averages the last 5 checkpoints of its base models; on a short run the
average of fewer can be better, and so can the best single checkpoint.  The
validation set decides.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path

import torch
from safetensors.torch import save_file

from attnmt import checkpoint as ckpt
from attnmt.config_ranges import check_function, whole_number
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.calibration import calibrate_run
from attnmt.decoding.inputs import check_decoding
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError, ModelDirError
from attnmt.evaluate import bleu
from attnmt.files import atomic_write
from attnmt.train_config import load_config
from attnmt.training.new_weights import fitted_threshold, replace_weights
from attnmt.training.resume_checks import run_validation_set
from attnmt.training.run_dir import run_holding
from attnmt.training.training_data import read_validation_text, scored_pairs


def average_checkpoints(checkpoints: Sequence[str | Path], out: str | Path) -> None:
    """Writes the element-wise mean of the checkpoints' weights to ``out`` (the paper averages the
    last 5); each checkpoint a directory, as a str or a Path."""
    # one str was averaged as the directories of its characters; None and a number were TypeErrors;
    # a dict was averaged as its keys, whatever its values meant (the directories, or their scores)
    if isinstance(checkpoints, Mapping):
        raise ConfigError(f"checkpoints: expected a list of checkpoint directories, got {type(checkpoints).__name__}; "
                          "pass list(d) where its keys are the directories, list(d.values()) where its values are")
    if isinstance(checkpoints, str | os.PathLike) or not isinstance(checkpoints, Iterable):
        raise ConfigError(f"checkpoints: expected a list of checkpoint directories, got {type(checkpoints).__name__}; "
                          "pass [path] for one")
    checkpoints = list(checkpoints)
    if not checkpoints:
        raise ModelDirError("no checkpoints to average")
    for i, path in enumerate(checkpoints):
        check_path(path, f"checkpoints[{i}]", "checkpoint directory")
    check_path(out, "out", "file")
    mean = mean_weights([Path(path) for path in checkpoints])
    atomic_write(Path(out), lambda tmp: save_file(mean, str(tmp)))


def mean_weights(checkpoints: Sequence[Path]) -> dict[str, torch.Tensor]:
    """The element-wise mean of the weights of ``checkpoints`` (directories), each refused where it is
    of another model than the first (check_same_shapes); summed in float64, so that the order of the
    checkpoints changes no bit of it."""
    total: dict[str, torch.Tensor] = {}
    for path in checkpoints:
        tensors = ckpt.read_tensors(path / ckpt.WEIGHTS)
        check_same_shapes(tensors, total, path, checkpoints[0])
        for name, tensor in tensors.items():
            total[name] = total.get(name, 0) + tensor.double()
    return {name: (tensor / len(checkpoints)).float().contiguous() for name, tensor in total.items()}


def check_path(path: object, name: str, what: str) -> None:
    """One clear error for an argument ``name``, the path of a ``what``, that is no path (None and
    bytes were TypeErrors from pathlib) or an empty one ("" is the current folder)."""
    if not isinstance(path, str | os.PathLike) or not isinstance(os.fspath(path), str) or not os.fspath(path).strip():
        raise ConfigError(f"{name}: expected the path of a {what} (a str or a pathlib.Path), got {path!r:.60}")


def last_checkpoints(model_dir: Path, last: int) -> list[Path]:
    """The newest ``last`` checkpoints of the run in ``model_dir`` (``attnmt average``'s); ModelDirError
    naming ``model_dir`` where it is missing, a file, or holds none, and naming a checkpoint of another
    shape than the run's config.json describes (the check ``translate --weights`` makes): averaged
    among themselves only, such checkpoints gave a file the run's model could not load, without a word."""
    if not model_dir.exists():
        raise ModelDirError(f"{model_dir}: no such model directory")
    if not model_dir.is_dir():
        raise ModelDirError(f"{model_dir}: a file, not a model directory; give the directory 'attnmt train' wrote")
    chosen = ckpt.list_checkpoints(model_dir)[-last:]
    if not chosen and (inside := run_holding(model_dir)):
        raise ModelDirError(f"{model_dir}: {inside[1]} of the run {inside[0]}, not a model directory: give --model "
                            f"{inside[0]} (the average is of its last checkpoints)")
    if not chosen:
        raise ModelDirError(f"{model_dir}: no checkpoints to average (a run saves them into "
                            f"{model_dir / ckpt.CHECKPOINTS})")
    config = ckpt.load_model_config(model_dir)
    for path in chosen:  # from the files' headers: no weights are read yet
        ckpt.check_weights_fit(config, path / ckpt.WEIGHTS, model_dir / ckpt.MODEL_CONFIG)
    return chosen


def check_same_shapes(tensors: dict[str, torch.Tensor], first: dict[str, torch.Tensor], path: Path,
                      first_path: Path) -> None:
    """Refuses, naming it, a checkpoint whose weights are not of ``first``'s names and shapes (one of
    another run: another vocabulary or model shape), which an average cannot add in."""
    if not first:
        return
    odd = sorted(set(tensors) ^ set(first)) or [name for name in tensors if tensors[name].shape != first[name].shape]
    if odd:
        name = odd[0]
        shapes = " against ".join(f"{list(side[name].shape)}" if name in side else "none"
                                  for side in (tensors, first))
        raise ModelDirError(f"{path}: its weights do not match {first_path}'s ({name}: {shapes}); it is of another "
                            "model (another vocabulary or shape): average checkpoints of one run")


def write_candidates(model_dir: Path, lasts: tuple[int, ...] = (3, 5)) -> dict[str, Path]:
    """The weights to choose from, by name: the best checkpoint, and for each N in ``lasts`` the
    average of the last N checkpoints, written as MODEL_DIR/averaged_lastN.safetensors (where
    there are N)."""
    candidates = {"best": model_dir / ckpt.WEIGHTS}
    checkpoints = ckpt.list_checkpoints(model_dir)
    for last in lasts:
        if len(checkpoints) >= last:
            path = model_dir / f"averaged_last{last}.safetensors"
            average_checkpoints(checkpoints[-last:], path)
            candidates[f"average of last {last}"] = path
    return candidates


def checked_lasts(lasts: object) -> tuple[int, ...]:
    """``lasts`` as ints, after one clear error where it is not a collection of whole numbers of at
    least 1 (``attnmt average --last``'s range): 0 and -2 averaged the wrong checkpoints
    (``checkpoints[-0:]`` is all of them) into averaged_last0.safetensors, which could replace the
    model's weights, and an int alone was a TypeError from inside.  Any collection is read, as it
    always was (``range(2, 4)``, a NumPy array, a set, a generator), each N as ``whole_number``
    reads a count; a text is none (``"35"`` would be 3 and 5), nor is a 0-d array."""
    collection = (isinstance(lasts, Iterable) and not isinstance(lasts, str | bytes)
                  and getattr(lasts, "ndim", 1) != 0)
    counts = [whole_number(n) for n in lasts] if collection else []
    whole = [n for n in counts if n is not None and n >= 1]
    if not counts or len(whole) < len(counts):
        raise ConfigError(f"lasts: expected a list of whole numbers of at least 1 (average the last N checkpoints "
                          f"for each N), got {lasts!r}")
    return tuple(whole)


def keep_better_average(model_dir: str | Path, lasts: Iterable[int] = (3, 5),
                        decoding: Decoding = DEFAULT, say: Callable[[str], None] = print) -> dict[str, float]:
    """Averages the last N checkpoints for each N in ``lasts`` (the paper averages the last 5)
    and keeps, as the model's weights, whichever of the best checkpoint and the averages
    scores the highest BLEU on the validation set (translated with ``decoding``).  Returns every score, by name.

    Where an average replaces the weights, the quality calibration training wrote for the old
    ones is fitted again on the validation set (or removed, with ``say`` telling why, where it
    cannot be): a calibration names the weights it was fitted on, and one for other weights is refused.
    It is fitted on the new weights before either is put in place (attnmt.training.new_weights): a
    kill leaves the old model or the new one.
    A ``model_dir`` that is no path, a ``decoding`` that is no Decoding or a ``say`` that is no function
    is one ConfigError line before anything is read (None for ``model_dir`` was a TypeError; a dict
    for ``decoding``, or a text for ``say``, failed once the averages were written).
    """
    check_path(model_dir, "model_dir", "model directory")
    check_decoding(decoding)
    check_function(say, "say", "say(line)", optional=False)
    lasts = checked_lasts(lasts)
    model_dir = Path(model_dir)
    # The set that chose model.safetensors compares it with the averages, found as a resume finds it,
    # and its pairs the run scored (none over its max_len), which ``say`` counts as the run's log did.
    config = load_config(model_dir / ckpt.TRAIN_CONFIG)
    valid_src, valid_tgt = run_validation_set(config, model_dir,
                                              "the validation file this run chose its best checkpoint on",
                                              "put that file back to compare the averages with it there")
    tokenizer = ckpt.load_tokenizer(model_dir, ckpt.load_model_config(model_dir))
    pairs, _ = scored_pairs(read_validation_text(valid_src, valid_tgt), tokenizer, config.max_len, say)
    sources, references = [s for s, _ in pairs], [r for _, r in pairs]
    candidates = write_candidates(model_dir, lasts)
    scores = {}
    for name, weights in candidates.items():
        model, tokenizer = ckpt.load_model_dir(model_dir, weights)
        scores[name] = bleu(translate(model, tokenizer, sources, decoding), references)
    winner = max(scores, key=scores.get)
    if winner != "best":  # the calibration fitted on the new weights before either is put in place
        replace_weights(model_dir, partial(shutil.copyfile, candidates[winner]),
                        partial(calibrate_run, model_dir, valid_src, valid_tgt, say, pairs,
                                chrf_threshold=fitted_threshold(model_dir)))
    return scores
