"""New weights put in the place of a model's own with their calibration (attnmt.training.new_weights),
on hand-made files: what the model folder holds after each way it can end."""

import errno
import subprocess
import sys

import pytest

from attnmt.decoding.calibration import CALIBRATION, WEIGHTS
from attnmt.errors import ModelDirError
from attnmt.training.new_weights import replace_weights


def model_folder(tmp_path):
    (tmp_path / WEIGHTS).write_bytes(b"old weights")
    (tmp_path / CALIBRATION).write_text("fitted on old weights", encoding="utf-8")
    return tmp_path


def contents(folder):
    """Each entry of ``folder`` by name, a file's bytes (None for a folder): temporary ones too."""
    return {p.name: None if p.is_dir() else p.read_bytes() for p in folder.iterdir()}


def test_the_refits_calibration_of_the_new_weights_replaces_the_old_one_with_its_permissions(tmp_path):
    folder = model_folder(tmp_path)
    (folder / CALIBRATION).chmod(0o600)  # a private model stays private

    def refit(weights, into):  # it reads the new weights where they are written, not yet in place
        (into / CALIBRATION).write_bytes(b"fitted on " + weights.read_bytes())

    replace_weights(folder, lambda tmp: tmp.write_bytes(b"new weights"), refit)
    assert contents(folder) == {WEIGHTS: b"new weights", CALIBRATION: b"fitted on new weights"}
    assert (folder / CALIBRATION).stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("refit", [None, lambda weights, into: None], ids=["nothing to fit on", "the fit refused"])
def test_a_calibration_not_fitted_again_goes_with_the_weights_it_was_fitted_on(tmp_path, refit):
    folder = model_folder(tmp_path)
    replace_weights(folder, lambda tmp: tmp.write_bytes(b"new weights"), refit)
    assert contents(folder) == {WEIGHTS: b"new weights"}


def test_a_write_that_fails_leaves_the_weights_and_their_calibration_as_they_were(tmp_path):
    folder = model_folder(tmp_path)
    before = contents(folder)

    def full_disk(tmp):
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(ModelDirError, match=r"no space left on device; the previous version is intact$"):
        replace_weights(folder, full_disk, lambda weights, into: None)
    assert contents(folder) == before


def test_the_folder_a_killed_replace_left_is_deleted_by_the_next(tmp_path):
    """A SIGKILL during the refit left the new weights, a model's size, in a hidden file beside the old
    ones, deleted by nothing but a training run's resume: each killed ``attnmt average`` left another."""
    folder = model_folder(tmp_path)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    killed = folder / f".{WEIGHTS}.{int(gone.stdout)}.k2j4x9a1"  # its process is gone
    killed.mkdir()
    (killed / WEIGHTS).write_bytes(b"an average whose calibration was being fitted")
    replace_weights(folder, lambda tmp: tmp.write_bytes(b"new weights"), None)
    assert contents(folder) == {WEIGHTS: b"new weights"}
