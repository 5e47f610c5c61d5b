"""attnmt's own modules type-check, except those pyproject.toml's [tool.mypy] still lists as not yet
clean: a module once clean stays so, and one taken off that list is checked from then on."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
ROOT = Path(__file__).parents[1]


def test_the_clean_modules_type_check(tmp_path):
    checked = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                              "--cache-dir", str(tmp_path), str(ROOT / "src" / "attnmt")],
                             capture_output=True, text=True, cwd=ROOT)
    assert checked.returncode == 0, checked.stdout + checked.stderr
