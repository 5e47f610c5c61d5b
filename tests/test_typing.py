"""The type hints accept attnmt used as the docs show it: a program that passes load_model_dir's
tokenizer (an attnmt Tokenizer, or a Marian model's VocabTokenizer) and a model directory given as a
string type-checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import attnmt

pytest.importorskip("mypy")
USAGE = Path(__file__).parent / "fixtures" / "documented_usage.py"


def test_the_documented_usage_type_checks(tmp_path):
    # attnmt's own modules are read for their signatures (from this checkout, not an installed
    # copy), and their errors not reported: what is checked is how a user's program calls them.
    env = {**os.environ, "MYPYPATH": str(Path(attnmt.__file__).parents[1])}
    checked = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--cache-dir", str(tmp_path),
                              "--no-error-summary", str(USAGE)], capture_output=True, text=True, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
