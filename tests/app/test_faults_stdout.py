"""Every command that prints a result, where standard output cannot be written (``> /dev/full``, a
full disk): one line naming <stdout> and exit status 2, as ``attnmt translate`` gives, never a stack
trace (attnmt.cli.lines.print_out).  A reader that has gone (``| head -1``) is no failure: the
command does its work to the end, quietly."""

import os
import subprocess
import sys
import time

import pytest
from support import calibration_pairs, run_cli, write_pairs

from attnmt.documents.review import UNCALIBRATED

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


def run_with_its_reader_gone(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """``argv`` run as ``| head -1`` leaves it once it has read its line: standard output a pipe whose
    reader has closed before the command writes.  Buffered, as a shell runs it (no PYTHONUNBUFFERED)."""
    read, write = os.pipe()
    os.close(read)
    env = {name: value for name, value in env.items() if name != "PYTHONUNBUFFERED"}
    try:
        return subprocess.run(argv, stdout=write, stderr=subprocess.PIPE, text=True, timeout=120, env=env)
    finally:
        os.close(write)


def test_cache_whose_reader_has_gone_ends_quietly(tmp_path):
    """Each line is written as it is printed: the first met the closed pipe, "cannot read attnmt's
    cache ...: Broken pipe", exit status 2."""
    env = {**os.environ, "ATTNMT_CACHE": str(tmp_path / "cache")}
    done = run_with_its_reader_gone([sys.executable, "-m", "attnmt", "cache"], env)
    assert (done.returncode, done.stderr) == (0, "")


def test_prune_whose_reader_has_gone_removes_every_stale_copy(tmp_path):
    """The pipe closed after the first line stopped it at the second copy, exit status 2."""
    folder = tmp_path / "cache" / "prepared"
    folder.mkdir(parents=True)
    ten_days_ago = time.time() - 10 * 86400
    # Not read for 10 days (and, once the format is past 6, of an older one): stale either way.
    copies = [folder / f"fp32-{n:032x}-{n:016x}-chosen-0123456789ab-v6.safetensors" for n in range(4)]
    for copy in copies:
        copy.write_bytes(b"0" * 1000)
        os.utime(copy, (ten_days_ago, ten_days_ago))
    env = {**os.environ, "ATTNMT_CACHE": str(tmp_path / "cache")}
    done = run_with_its_reader_gone([sys.executable, "-m", "attnmt", "cache", "--prune", "--unused-days", "1"], env)
    assert (done.returncode, done.stderr) == (0, "")
    assert [copy for copy in copies if copy.exists()] == []


def test_a_line_written_to_sys_stdout_after_its_reader_has_gone_goes_nowhere():
    """As training's progress lines are, then flushed as multiprocessing does before it starts a
    worker: the demo stopped there, 'could not write .../prepared: broken pipe'."""
    script = ("import sys\n"
              "from attnmt.cli.standard_streams import write_stdout_till_its_reader_goes\n"
              "write_stdout_till_its_reader_goes()\n"
              "print('step 10: loss 4.2')\n"
              "sys.stdout.flush()\n"
              "print('went on', file=sys.stderr)\n")
    done = run_with_its_reader_gone([sys.executable, "-c", script], dict(os.environ))
    assert (done.returncode, done.stderr) == (0, "went on\n")


@pytest.mark.parametrize(("suffix", "text"), [(".txt", "a dog runs\na cat sleeps\n"),
                                               (".html", "<p>a dog runs</p>\n<p>a cat sleeps</p>\n")])
def test_translate_whose_reader_has_gone_still_writes_its_review_table(trained_model, tmp_path, suffix, text):
    """``attnmt translate in.txt --review t.tsv | head -1``: the table of what was translated is
    written and the run ends with exit status 0, as it does without --review (the table was lost)."""
    source, table = tmp_path / f"in{suffix}", tmp_path / "t.tsv"
    source.write_text(text, encoding="utf-8")
    done = run_with_its_reader_gone([sys.executable, "-m", "attnmt", "translate", "--model", str(trained_model),
                                     "--threads", "1", str(source), "--review", str(table), "--min-quality", "1"],
                                    dict(os.environ))
    assert (done.returncode, done.stderr) == (0, f"2 of 2 sentences need review (2 with quality under 1 or empty, "
                                                 f"0 flagged by a rule alone): listed in {table}; {UNCALIBRATED}\n")
    rows = table.read_text(encoding="utf-8").splitlines()
    assert [row.split("\t")[0] for row in rows] == ["line", "1", "2"]
    assert [row.split("\t")[3] for row in rows[1:]] == ["a dog runs", "a cat sleeps"]


@pytest.mark.parametrize("argv", [["--version"], ["translate", "--help"]], ids=["version", "help"])
def test_help_or_version_into_dev_full_is_one_line_and_exit_status_2(argv):
    """argparse drops a failed write of what it prints: nothing was written, and the exit status was 0."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "attnmt", *argv], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert (done.returncode, done.stderr) == (2, FULL)
