"""Ctrl-C in the first second of a command, while the package imports torch: the command's one line
and status 130, as Ctrl-C gives once the command runs; a program that imports attnmt keeps its
KeyboardInterrupt.  A second Ctrl-C while the interrupted command exits adds nothing to that line."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attnmt.cli import main as cli_main

pytestmark = pytest.mark.usefixtures("ctrl_c_reaches_commands")

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
# A stand-in for Ctrl-C pressed while the command line's modules load, torch loaded: the first command's import raises.
CTRL_C_IN_THE_COMMANDS = CTRL_C_IN_TORCH.replace('"torch."', '"attnmt.cli.commands."')

# A real SIGINT, sent to the process as torch's C++ start imports NumPy (a Ctrl-C pressed then): the
# KeyboardInterrupt raised inside NumPy's import reaches C++ code that takes it for "NumPy is missing".
SIGINT_AS_TORCH_IMPORTS_NUMPY = '''
import os
import signal
import sys

class CtrlC:
    sent = False

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numpy" and "torch" in sys.modules and not self.sent:
            self.sent = True
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
'''

# A stand-in for the second SIGINT of ``timeout -s INT`` (to the process group, after the one to the
# process), arriving in the interpreter's teardown: the first atexit callback registered runs last.
CTRL_C_AT_EXIT = '''
import atexit
import os
import signal
import time


def ctrl_c_again():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.5)  # a handler that raises cuts the sleep short


atexit.register(ctrl_c_again)
'''


def with_sitecustomize(tmp_path: Path, text: str) -> dict[str, str]:
    """The environment in which Python runs ``text`` as its sitecustomize (at start), from ``tmp_path``."""
    (tmp_path / "sitecustomize.py").write_text(text, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}


def run_interrupted(tmp_path: Path, command: list[str]) -> subprocess.CompletedProcess:
    """``command`` run with CTRL_C_IN_TORCH as its sitecustomize."""
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env=with_sitecustomize(tmp_path, CTRL_C_IN_TORCH))


def test_ctrl_c_while_torch_loads_ends_python_m_attnmt_in_one_line_with_130(tmp_path):
    done = run_interrupted(tmp_path, [sys.executable, "-m", "attnmt", "train", "config.yaml"])
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_ctrl_c_while_torch_loads_ends_the_attnmt_script_in_one_line_with_130(tmp_path):
    script = Path(sys.executable).parent / "attnmt"
    if not script.is_file():
        pytest.skip("no attnmt script beside this Python (attnmt is not installed into it)")
    done = run_interrupted(tmp_path, [sys.executable, str(script), "translate", "--model", "m"])
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_a_sigint_while_torchs_cpp_start_imports_numpy_ends_the_command_in_one_line_with_130(tmp_path):
    """Raised inside torch's C++ start, the KeyboardInterrupt was swallowed there: the command went on
    (here to "config.yaml: not found"), or failed later on NumPy's half import; the SIGINT is now held
    until torch has loaded."""
    done = subprocess.run([sys.executable, "-m", "attnmt", "train", "config.yaml"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=with_sitecustomize(tmp_path, SIGINT_AS_TORCH_IMPORTS_NUMPY))
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_ctrl_c_while_the_commands_load_ends_python_m_attnmt_in_one_line_with_130(tmp_path):
    """attnmt.cli.main imported its commands outside the guard of the package's start: a traceback."""
    done = subprocess.run([sys.executable, "-m", "attnmt", "train", "config.yaml"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=with_sitecustomize(tmp_path, CTRL_C_IN_THE_COMMANDS))
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


# The command line (``python -m attnmt translate --model m``) with Ctrl-C pressed in one of attnmt.cli.main's
# functions of its start, named by the first argument.
CTRL_C_IN_THE_START = '''
import sys

from attnmt import errors

errors.STARTED_AS_THE_COMMAND = True  # as ``python -m attnmt`` reads it
import attnmt.cli.main as cli


def ctrl_c(*args):
    raise KeyboardInterrupt


setattr(cli, sys.argv[1], ctrl_c)
sys.argv = ["attnmt", "translate", "--model", "m"]
cli.entry()
'''


@pytest.mark.parametrize("stage", ["stand_in_for_closed_streams", "build_parser", "main"])
def test_ctrl_c_while_the_command_line_sets_itself_up_ends_it_in_one_line_with_130(tmp_path, stage):
    """Ctrl-C while main built its parser (a command's slow import) or entry set up the standard
    streams, before main's handling was in place, or one that main let out (while it printed a
    user's mistake, or after argparse's --help): a traceback."""
    done = subprocess.run([sys.executable, "-c", CTRL_C_IN_THE_START, stage], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_ctrl_c_while_main_builds_its_parser_is_its_one_line_and_130(monkeypatch, capsys):
    def ctrl_c():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "build_parser", ctrl_c)
    try:
        code = cli_main.main(["translate", "--model", "m"])
    except KeyboardInterrupt:  # not let out: pytest would stop the whole session
        pytest.fail("main let the KeyboardInterrupt out")
    assert code == 130
    assert capsys.readouterr().err == "attnmt: interrupted\n"


def test_a_program_that_imports_attnmt_keeps_its_keyboard_interrupt(tmp_path):
    done = run_interrupted(tmp_path, [sys.executable, "-c", "import attnmt"])
    assert done.returncode == -signal.SIGINT and done.stderr.rstrip().endswith("KeyboardInterrupt")


def wait_until_reading_a_pipe(pid: int, seconds: float = 30.0) -> None:
    """Until process ``pid`` sleeps in a read of a pipe (its kernel wait channel: ``pipe_read``,
    ``anon_pipe_read`` or, in older kernels, ``pipe_wait``), or ``seconds`` have passed.  A SIGINT sent
    as soon as the writer's open let the command's open return, before its read began, was taken by
    Python's C handler and never acted on: no bytecode ran between it and the read, which then waited
    for ever (a CI run's 120 s timeout).  Sent while the read sleeps, it interrupts the read."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if "pipe" in Path(f"/proc/{pid}/wchan").read_text():
                return
        except OSError:  # no /proc: the SIGINT goes as soon as the pipe is open
            return
        time.sleep(0.01)


def test_a_second_ctrl_c_while_the_interrupted_command_exits_adds_nothing(tmp_path):
    """The command reads its --src from a named pipe that no one writes; Ctrl-C stops it there, and
    CTRL_C_AT_EXIT sends the second in its teardown.  It printed "Exception ignored in atexit
    callback" and a KeyboardInterrupt's traceback after the line."""
    os.mkfifo(tmp_path / "src.en")
    (tmp_path / "ref.de").write_text("ein hund\n", encoding="utf-8")
    command = [sys.executable, "-m", "attnmt", "calibrate", "--model", "m", "--src", "src.en", "--ref", "ref.de"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=with_sitecustomize(tmp_path, CTRL_C_AT_EXIT))
    writer = None
    try:
        while writer is None:  # a writer's open succeeds once the command has opened the pipe to read it
            try:
                writer = os.open(tmp_path / "src.en", os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.05)
        wait_until_reading_a_pipe(process.pid)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:  # ended already, unless something above failed
        process.kill()
        if writer is not None:
            os.close(writer)
    assert (process.returncode, err) == (130, "attnmt: interrupted\n")


def test_a_ctrl_c_after_a_command_succeeded_leaves_its_success(tmp_path):
    """The command has returned and printed its result; CTRL_C_AT_EXIT sends SIGINT in its teardown.
    It printed "Exception ignored in atexit callback" and a KeyboardInterrupt's traceback, or, later in
    the teardown (attnmt export's, after "wrote a marian model to …"), ended the process with status
    130 and no line: a finished command reported as interrupted."""
    done = subprocess.run([sys.executable, "-m", "attnmt", "explain"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env=with_sitecustomize(tmp_path, CTRL_C_AT_EXIT))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout


def test_a_program_given_dash_m_attnmt_among_its_arguments_keeps_its_keyboard_interrupt(tmp_path):
    """Its arguments are its own: only the interpreter's (``python -m attnmt``) make the process the command."""
    (tmp_path / "a.py").write_text("import attnmt\n", encoding="utf-8")
    done = run_interrupted(tmp_path, [sys.executable, "a.py", "-m", "attnmt"])
    assert done.returncode == -signal.SIGINT and done.stderr.rstrip().endswith("KeyboardInterrupt")


def test_ctrl_c_while_torch_loads_ends_python_with_flags_then_m_attnmt_in_one_line_with_130(tmp_path):
    done = run_interrupted(tmp_path, [sys.executable, "-umattnmt", "train", "config.yaml"])
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


@pytest.mark.parametrize("runner", [["cProfile", "-o", "p.out", "-m"], ["pdb", "-m"], ["trace", "--count", "--module"]])
def test_ctrl_c_while_torch_loads_ends_attnmt_run_by_a_profiler_debugger_or_tracer_in_one_line(tmp_path, runner):
    """``python -m cProfile -o p.out -m attnmt`` (docs/design/fast-decoder.md), pdb's and trace's are
    the command too: each printed a KeyboardInterrupt's traceback.  cProfile and trace take the
    command's exit for the program's end (status 0), and cProfile writes its file."""
    done = run_interrupted(tmp_path, [sys.executable, "-m", *runner, "attnmt", "train", "config.yaml"])
    assert done.stderr == "attnmt: interrupted\n"
    assert done.returncode == (130 if runner[0] == "pdb" else 0)
    assert (tmp_path / "p.out").is_file() is (runner[0] == "cProfile")


# Where a real SIGINT is sent in the command's start: once ``python -X importtime`` has written the line of
# each of these modules (it writes one as each import ends).  The first two come before torch's import, in
# the package's first 0.1 s; then torch loaded, the package loaded (before the command line's modules),
# the command line's modules, and attnmt.cli.main loaded (its entry to run).  Each was a traceback but torch's.
STAGES = ["attnmt.hardware", "attnmt.errors", "torch", "attnmt", "attnmt.cli.standard_streams",
          "attnmt.cli.commands", "attnmt.cli.main"]


def imported(line: str) -> str:
    """The module a line of ``-X importtime`` names ("import time: 120 | 450 |   attnmt.errors")."""
    return line.rsplit("|", 1)[-1].strip() if line.startswith("import time:") else ""


@pytest.mark.parametrize("stage", STAGES)
def test_a_real_ctrl_c_at_any_stage_of_the_start_ends_the_command_in_one_line_with_130(tmp_path, stage):
    """The command reads its --src from a named pipe that no one writes, so it cannot end before the
    SIGINT lands, wherever in the start it lands: sent once the start is past ``stage`` (a marker the
    command writes, not a time), it is the command's one line and 130 wherever it comes after that.
    A SIGINT that was lost would leave the command waiting on its pipe: the timeout fails it."""
    os.mkfifo(tmp_path / "src.en")
    (tmp_path / "ref.de").write_text("ein hund\n", encoding="utf-8")
    command = [sys.executable, "-X", "importtime", "-m", "attnmt", "calibrate", "--model", "m", "--src", "src.en",
               "--ref", "ref.de"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        lines = []
        while not lines or imported(lines[-1]) != stage:
            lines.append(process.stderr.readline())
            assert lines[-1], f"the command ended before {stage} was imported: {''.join(lines)[-2000:]}"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:  # ended already, unless something above failed
        process.kill()
    said = [line for line in err.splitlines(keepends=True) if not imported(line)]
    assert "Traceback" not in err
    assert (process.returncode, "".join(said)) == (130, "attnmt: interrupted\n")


FAILED_IMPORT = """
import os, signal, sys, time
class Broken:
    def find_spec(self, name, path=None, target=None):
        if name == "attnmt.threads":
            raise ImportError("stand-in")
sys.meta_path.insert(0, Broken())
try:
    import attnmt
except ImportError as error:
    print("import failed:", error, flush=True)
os.kill(os.getpid(), signal.SIGINT)
time.sleep(2)
print("Ctrl-C swallowed", flush=True)
"""


def test_an_import_of_attnmt_that_fails_leaves_ctrl_c_to_the_program():
    """The hold set at the package's first line stayed when a later import failed: the program's
    Ctrl-C was noted and dropped for the rest of its life."""
    done = subprocess.run([sys.executable, "-c", FAILED_IMPORT], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    assert done.stdout == "import failed: stand-in\n"
    assert "KeyboardInterrupt" in done.stderr and done.returncode != 0


# A real SIGINT that lands while Python runs code made from a string by exec (as dataclasses and namedtuple
# make their methods, in the modules a command imports as it runs), sent from inside such an exec at the
# first audited event (an import, a file's open, …) for which ``ready`` is true, once the command's own
# handling is in place (SIGINT raises KeyboardInterrupt again).  ``WHERE`` is the exec's caller.
SIGINT_IN_EXECUTED_TEXT = '''
import os
import signal
import sys


def ctrl_c_in_executed_text():
    exec("os.kill(os.getpid(), signal.SIGINT)\\nfor _ in range(10_000): pass", {"os": os, "signal": signal})


class CtrlC:
    sent = False

    def __call__(self, event, args):
        if (not self.sent and "attnmt.cli.main" in sys.modules and ready(event, args)
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.sent = True
            WHERE()


sys.addaudithook(CtrlC())
'''
# As the command's first import once its handling is in place; the KeyboardInterrupt goes on.
SIGINT_AS_THE_COMMAND_RUNS = SIGINT_IN_EXECUTED_TEXT + '''
ready = lambda event, args: event == "import"
WHERE = ctrl_c_in_executed_text
'''

# As the command opens its standard output to write its result, where nothing runs code from a string after,
# a library handles it where it comes (as training's end does in its calibration); the file says it did.
SIGINT_HANDLED_AS_THE_RESULT_IS_WRITTEN = SIGINT_IN_EXECUTED_TEXT + '''

def handled_ctrl_c():
    try:
        ctrl_c_in_executed_text()
    except KeyboardInterrupt:
        open("handled", "w").close()


ready = lambda event, args: event == "open" and args[0] == 1
WHERE = handled_ctrl_c
'''


def test_a_ctrl_c_in_code_run_by_exec_ends_python_m_attnmt_with_130(tmp_path):
    """The KeyboardInterrupt left the exec, and CPython noted one that left code run from a string: at
    the end of ``python -m``, after the command had printed its line and chosen 130, it took that note
    for a Ctrl-C no one handled and ended the process by SIGINT (status -2; a full parallel run's
    failure of test_a_real_ctrl_c_at_any_stage_of_the_start_…[attnmt.cli.main], where the SIGINT
    landed as the command's imports made a dataclass)."""
    done = subprocess.run([sys.executable, "-m", "attnmt", "calibrate", "--model", "m", "--src", "src.en", "--ref",
                           "ref.de"], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env=with_sitecustomize(tmp_path, SIGINT_AS_THE_COMMAND_RUNS))
    assert (done.returncode, done.stderr) == (130, "attnmt: interrupted\n")


def test_a_ctrl_c_handled_inside_a_command_leaves_its_success(tmp_path):
    """Handled where it came, the Ctrl-C still ended ``python -m attnmt`` by SIGINT after the command
    had succeeded: its output printed, status -2 (130 in a shell, and no line)."""
    done = subprocess.run([sys.executable, "-m", "attnmt", "explain"], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env=with_sitecustomize(tmp_path, SIGINT_HANDLED_AS_THE_RESULT_IS_WRITTEN))
    assert (tmp_path / "handled").is_file()
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout
