"""Every command that prints a result, where standard output cannot be written (``> /dev/full``, a
full disk): one line naming <stdout> and exit status 2, as ``attnmt translate`` gives, never a stack
trace (attnmt.cli.lines.print_out)."""

import os
import subprocess
import sys

import pytest
from support import calibration_pairs, run_cli, write_pairs

FULL = "attnmt: error: could not write <stdout>: no space left on device\n"


def run_on_a_full_stdout(argv, capsys) -> tuple[int, str, str]:
    """``run_cli`` with standard output on /dev/full, line-buffered as a terminal's is: every line
    written fails with ENOSPC (set within the test, where capsys has set its own)."""
    with open("/dev/full", "w", buffering=1) as full, pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdout", full)
        return run_cli(argv, capsys)


@pytest.mark.parametrize("json", [[], ["--json"]])
def test_evaluate_on_a_full_stdout_is_one_line(tmp_path, capsys, json):
    hyp = tmp_path / "o.de"
    hyp.write_text("Ein Hund.\n", encoding="utf-8")
    assert run_on_a_full_stdout(["evaluate", "--hyp", hyp, "--ref", hyp, *json], capsys) == (2, "", FULL)


def test_calibrate_on_a_full_stdout_is_one_line(trained_copy, tmp_path, capsys):
    src, ref = write_pairs(tmp_path, "valid", calibration_pairs())
    argv = ["calibrate", "--model", trained_copy, "--src", src, "--ref", ref]
    assert run_on_a_full_stdout(argv, capsys) == (2, "", FULL)


@pytest.mark.parametrize("argv", [["doctor"], ["cache"], ["explain"]], ids=lambda argv: argv[0])
def test_a_command_printing_its_result_on_a_full_stdout_is_one_line(cache, capsys, argv):
    assert run_on_a_full_stdout(argv, capsys) == (2, "", FULL)


def test_evaluate_into_dev_full_is_one_line_and_exit_status_2(tmp_path):
    """As a shell runs it, unbuffered (PYTHONUNBUFFERED): the print itself failed, a stack trace and status 1."""
    hyp = tmp_path / "o.de"
    hyp.write_text("Ein Hund.\n", encoding="utf-8")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "attnmt", "evaluate", "--hyp", str(hyp), "--ref", str(hyp)],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert (done.returncode, done.stderr) == (2, FULL)
