"""New weights put in the place of a model's own (``attnmt average --out MODEL_DIR/model.safetensors``,
keep_better_average) together with the quality calibration fitted on them, so that a kill at any
moment (SIGKILL, Ctrl-C, an error) leaves the old model or the new one whole.

Both are written under temporary names in the model's folder, the calibration fitted on the new
weights where they lie (its sha256 is of their bytes, wherever they are), and both are renamed into
place last, one right after the other, the weights first.  Removed before the refit, the old
calibration was gone when the refit was killed: the new weights stood without one, and nothing said
to run ``attnmt calibrate``.  Now only a kill between the two renames parts them, and it leaves the
new weights beside the old calibration, which loading refuses in one line saying to run ``attnmt
calibrate`` (attnmt.decoding.calibration.load_calibration).  A killed write leaves hidden temporary
files alone (attnmt.files.TEMPORARY), which a resumed run deletes."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from attnmt.decoding.calibration import CALIBRATION, WEIGHTS
from attnmt.errors import ModelDirError
from attnmt.files import atomic_file, write_failure


def replace_weights(model_dir: Path, write: Callable[[Path], object],
                    refit: Callable[[Path, Path], object] | None) -> bool:
    """Makes the file ``write(tmp)`` writes the weights of the model in ``model_dir``.  Where the model has
    a calibration (quality.json: fitted on the weights replaced), ``refit(weights, folder)`` fits one on
    the new ``weights`` and writes it into ``folder`` (calibrate_run's ``weights`` and ``into``), or
    writes none and says why (None: there is nothing to fit one on, which the caller says); the new one
    replaces the old, or else the old one is removed, right after the new weights are in place.  Returns
    whether the model has a calibration of its new weights."""
    model_dir = Path(model_dir)
    if not (model_dir / CALIBRATION).exists():
        with atomic_file(model_dir / WEIGHTS) as tmp:
            write(tmp)
        return False
    try:
        folder = Path(tempfile.mkdtemp(prefix=f".{CALIBRATION}.", dir=model_dir))
    except OSError as error:  # a read-only folder: nothing written
        raise ModelDirError(f"could not write {model_dir / WEIGHTS}: {write_failure(error)}") from None
    try:
        with atomic_file(model_dir / WEIGHTS) as tmp:
            write(tmp)
            if refit is not None:
                refit(tmp, folder)
        return put_in_place(folder / CALIBRATION, model_dir / CALIBRATION)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def put_in_place(fitted: Path, old: Path) -> bool:
    """Renames ``fitted`` (where the refit wrote one) over the calibration ``old``, keeping its
    permissions, or removes ``old``; returns whether a calibration is in place.  Failing, one line
    says to fit it again: the old one was fitted on the weights just replaced."""
    try:
        if fitted.exists():
            shutil.copymode(old, fitted)
            os.replace(fitted, old)
            return True
        old.unlink(missing_ok=True)
    except OSError as error:
        raise ModelDirError(f"could not write {old}: {write_failure(error)}; it was fitted on the weights replaced: "
                            f"fit it again with attnmt calibrate --model {old.parent}") from None
    return False
