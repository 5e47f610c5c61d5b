"""New weights put in the place of a model's own (``attnmt average --out MODEL_DIR/model.safetensors``,
keep_better_average) together with the quality calibration fitted on them, so that a kill at any
moment (SIGKILL, Ctrl-C, an error) leaves the old model or the new one whole.

Both are written under temporary names in the model's folder, the calibration fitted on the new
weights where they lie (its sha256 is of their bytes, wherever they are), and both are renamed into
place last, one right after the other, the weights first.  Removed before the refit, the old
calibration was gone when the refit was killed: the new weights stood without one, and nothing said
to run ``attnmt calibrate``.  Now only a kill between the two renames parts them, and it leaves the
new weights beside the old calibration, which loading refuses in one line saying to run ``attnmt
calibrate`` (attnmt.decoding.calibration.load_calibration).  A killed write leaves a hidden folder
alone, which the next one deletes (temporary_folder)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from attnmt.decoding.calibration import CALIBRATION, CHRF_THRESHOLD, WEIGHTS, load_calibration
from attnmt.errors import ModelDirError
from attnmt.files import existing_mode, finish_file, write_failure
from attnmt.orphans import remove_orphaned_folders


def replace_weights(model_dir: Path, write: Callable[[Path], object],
                    refit: Callable[[Path, Path], object] | None) -> None:
    """Makes the file ``write(tmp)`` writes the weights of the model in ``model_dir``.  Where the model has
    a calibration (quality.json: fitted on the weights replaced), ``refit(weights, folder)`` fits one on
    the new ``weights`` and writes it into ``folder`` (calibrate_run's ``weights`` and ``into``), or
    writes none and says why (None: there is nothing to fit one on, which the caller says); the new one
    replaces the old, or else the old one is removed, right after the new weights are in place."""
    model_dir = Path(model_dir)
    weights = Path(os.path.realpath(model_dir / WEIGHTS))  # a link written through, as atomic_file writes one
    folder = temporary_folder(weights)
    try:
        put_weights(model_dir, weights, folder, write, refit if (model_dir / CALIBRATION).exists() else None)
        put_in_place(folder / CALIBRATION, model_dir / CALIBRATION)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def temporary_folder(weights: Path) -> Path:
    """A new folder beside ``weights`` for the new weights and their calibration, named after this
    process (``.model.safetensors.PID.xxxxxxxx``), as atomic_folder names its own: the one a killed
    write left, a model's size, is deleted by the next (remove_orphaned_folders)."""
    try:
        remove_orphaned_folders(weights)
        return Path(tempfile.mkdtemp(prefix=f".{weights.name}.{os.getpid()}.", dir=weights.parent))
    except OSError as error:  # a read-only folder: nothing written
        raise ModelDirError(f"could not write {weights}: {write_failure(error)}") from None


def put_weights(model_dir: Path, weights: Path, folder: Path, write: Callable[[Path], object],
                refit: Callable[[Path, Path], object] | None) -> None:
    """Writes the new weights into ``folder``, fits their calibration there (``refit``), and renames the
    weights over ``weights`` (their permissions kept); an OSError is one line, the old weights intact."""
    existed, new = weights.is_file(), folder / WEIGHTS
    try:
        write(new)
        if refit is not None:
            refit(new, folder)
        finish_file(new, existing_mode(weights))
        os.replace(new, weights)
    except OSError as error:
        intact = "; the previous version is intact" if existed else ""
        raise ModelDirError(f"could not write {model_dir / WEIGHTS}: {write_failure(error)}{intact}") from None


def put_in_place(fitted: Path, old: Path) -> None:
    """Renames ``fitted`` (where the refit wrote one) over the calibration ``old``, keeping its
    permissions, or removes ``old``.  Failing, one line says to fit it again: the old one was fitted
    on the weights just replaced."""
    try:
        if fitted.exists():
            shutil.copymode(old, fitted)
            os.replace(fitted, old)
        else:
            old.unlink(missing_ok=True)
    except OSError as error:
        raise ModelDirError(f"could not write {old}: {write_failure(error)}; it was fitted on the weights replaced: "
                            f"fit it again with attnmt calibrate --model {old.parent}") from None


def fitted_threshold(model_dir: Path) -> float:
    """The sentence chrF at which the model's calibration was fitted (``attnmt calibrate --chrf-threshold``),
    for the refit of new weights to keep: refitted at 50, a model calibrated at 40 lost it without a word.
    50 (CHRF_THRESHOLD) where the file cannot be read as a calibration of the weights there."""
    try:
        calibration = load_calibration(model_dir)
    except ModelDirError:
        return CHRF_THRESHOLD
    return calibration.chrf_threshold if calibration else CHRF_THRESHOLD

