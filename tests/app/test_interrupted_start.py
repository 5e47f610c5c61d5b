"""Ctrl-C in the first second of a command, while the package imports torch: the command's one line
and status 130, as Ctrl-C gives once the command runs; a program that imports attnmt keeps its
KeyboardInterrupt."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# A stand-in for Ctrl-C pressed while torch loads: torch's import of its first module raises KeyboardInterrupt.
CTRL_C_IN_TORCH = '''
import sys

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("torch."):
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
'''


def run_interrupted(tmp_path: Path, command: list[str]) -> subprocess.CompletedProcess:
    """``command`` run with CTRL_C_IN_TORCH as its sitecustomize (Python runs it at start)."""
    (tmp_path / "sitecustomize.py").write_text(CTRL_C_IN_TORCH, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": path})


def test_ctrl_c_while_torch_loads_ends_python_m_attnmt_in_one_line_with_130(tmp_path):
    done = run_interrupted(tmp_path, [sys.executable, "-m", "attnmt", "train", "config.yaml"])
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_ctrl_c_while_torch_loads_ends_the_attnmt_script_in_one_line_with_130(tmp_path):
    script = Path(sys.executable).parent / "attnmt"
    if not script.is_file():
        pytest.skip("no attnmt script beside this Python (attnmt is not installed into it)")
    done = run_interrupted(tmp_path, [sys.executable, str(script), "translate", "--model", "m"])
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_a_program_that_imports_attnmt_keeps_its_keyboard_interrupt(tmp_path):
    done = run_interrupted(tmp_path, [sys.executable, "-c", "import attnmt"])
    assert done.returncode == -signal.SIGINT and done.stderr.rstrip().endswith("KeyboardInterrupt")
