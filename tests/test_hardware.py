"""What the machine allows: the instruction-set cap a user sets for oneDNN, read once for every kernel; and the
OpenMP wait policy set before torch loads."""

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from attnmt.errors import started_as_the_command
from attnmt.hardware import (
    MOST_THREADS,
    OPENMP_WAIT_SETTINGS,
    amx_allowed,
    bf16_native,
    cpu_flags,
    omp_thread_count,
    torch_openmp,
)


@pytest.mark.parametrize("cap, allowed", [(None, True), ("", True), ("ALL", True), ("avx512_core_amx", True),
                                          ("AVX512_CORE_AMX_FP16", True), ("AVX512_CORE_VNNI", False),
                                          ("avx2", False), ("AVX512_CORE_BF16", False)])
def test_amx_is_allowed_unless_onednn_max_cpu_isa_names_an_isa_below_it(monkeypatch, cap, allowed):
    if cap is None:
        monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    else:
        monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", cap)
    assert amx_allowed() is allowed


def test_a_cap_below_bf16_makes_bf16_emulated_where_the_cpu_has_it(monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "avx2")
    native, why = bf16_native()
    assert not native
    assert ("ONEDNN_MAX_CPU_ISA=AVX2" in why) == bool(cpu_flags() & {"avx512_bf16", "amx_bf16"})


def run_fresh(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter that runs ``code`` and then prints (OMP_WAIT_POLICY, GOMP_SPINCOUNT,
    KMP_BLOCKTIME) as it sees them at the end, in an environment without those or OMP_NUM_THREADS but
    for ``env``."""
    unset = (*OPENMP_WAIT_SETTINGS, "OMP_NUM_THREADS")
    environment = {k: v for k, v in os.environ.items() if k not in unset} | env
    show = f"; import os; print(*(os.environ.get(name) for name in {OPENMP_WAIT_SETTINGS!r}))"
    return subprocess.run([sys.executable, "-c", code + show], env=environment, capture_output=True, text=True,
                          check=True)


def waits_seen_by(code: str, **env: str) -> tuple[str, str, str]:
    """(OMP_WAIT_POLICY, GOMP_SPINCOUNT, KMP_BLOCKTIME) as a fresh interpreter running ``code`` sees them at
    the end."""
    policy, spins, blocktime = run_fresh(code, **env).stdout.split()[-3:]
    return policy, spins, blocktime


@cache
def importing_attnmt(**env: str) -> tuple[tuple[str, str, str], str]:
    """``waits_seen_by("import attnmt", **env)``, and the same three settings as user_environment() gives
    them to the programs attnmt starts ("None 5 None"): one interpreter (a torch import) serves the
    tests that import attnmt alone in the same environment, and each reads what it asserts."""
    code = ("import attnmt; from attnmt.hardware import user_environment; e = user_environment(); "
            "print(e.get('OMP_WAIT_POLICY'), e.get('GOMP_SPINCOUNT'), e.get('KMP_BLOCKTIME'))")
    *passed_on, policy, spins, blocktime = run_fresh(code, **env).stdout.split()
    return (policy, spins, blocktime), " ".join(passed_on)


def test_importing_attnmt_first_makes_openmp_threads_spin_briefly_then_sleep():
    """libgomp: ACTIVE bounded by GOMP_SPINCOUNT, so that a thread of a second team (the server's
    model thread) spins as briefly as the first's instead of sleeping at once; other runtimes, which
    read ACTIVE as spinning without end: PASSIVE."""
    libgomp = torch_openmp() == "libgomp"
    # KMP_BLOCKTIME 0 beside ACTIVE: an Intel or LLVM runtime loaded beside libgomp sleeps at once
    expected = ("ACTIVE", "1000", "0") if libgomp else ("PASSIVE", "1000", "None")
    assert importing_attnmt()[0] == expected


def test_torchs_openmp_is_told_by_the_libraries_it_ships(tmp_path):
    def runtime(*files: str) -> str:
        folder = tmp_path / str(len(list(tmp_path.iterdir()))) / "torch"
        for name in files:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).touch()
        folder.mkdir(parents=True, exist_ok=True)
        return torch_openmp(folder)

    assert runtime("lib/libgomp.so.1", "lib/libtorch_cpu.so") == "libgomp"
    assert runtime("../torch.libs/libgomp-a34b3233.so.1.0.0") == "libgomp"  # a wheel auditwheel repaired
    assert runtime("lib/libiomp5.so", "lib/libgomp.so.1") == "other"
    assert runtime("lib/libomp.dylib") == "other"
    assert runtime("lib/libtorch_cpu.so") == runtime() == "unknown"  # the system's runtime, or no torch


def test_the_openmp_runtime_read_from_torchs_files_is_the_one_this_process_loaded():
    maps = Path("/proc/self/maps")
    if not maps.exists():
        pytest.skip("no /proc/self/maps here to see the loaded libraries by")
    import torch  # loads its OpenMP runtime into this process

    loaded = {Path(line.split()[-1]) for line in maps.read_text().splitlines() if "/" in line}
    names = {path.name for path in loaded}
    if torch_openmp() == "libgomp":
        assert any(name.startswith("libgomp") for name in names)
    elif torch_openmp() == "other":
        assert any(name.startswith(("libiomp", "libomp")) for name in names)
    folder = Path(torch.__file__).parent
    shipped = [path for path in loaded if path.name.startswith("libgomp") and
               path.parent in (folder / "lib", folder.parent / "torch.libs")]
    if shipped:  # torch's own libgomp is the one loaded: the files must have said so
        assert torch_openmp() == "libgomp"


@pytest.mark.parametrize("count", ["2", "2,1", " 3 "])  # OpenMP's list: a count per level of nesting
def test_where_omp_num_threads_fixes_the_count_waiting_threads_sleep_at_once(count):
    assert importing_attnmt(OMP_NUM_THREADS=count)[0] == ("PASSIVE", "None", "None")


@pytest.mark.parametrize("value", ["", "abc", "0", "2.5", "2,0", "5000", "4294967296", "99999999999999999999"])
def test_an_omp_num_threads_that_is_no_count_is_taken_out_before_openmp_reads_it(value):
    """OpenMP ignores it (libgomp in two lines of its own) and the count is automatic: the waits
    are those of the automatic count, and the programs attnmt starts get the variable back.  One
    interpreter shows all three (each costs a torch import), after OpenMP has read its environment."""
    libgomp = torch_openmp() == "libgomp"
    automatic = ("ACTIVE", "1000", "0") if libgomp else ("PASSIVE", "1000", "None")
    code = ("import attnmt, os, torch; from attnmt.hardware import user_environment; torch.get_num_threads(); "
            "print(repr(os.environ.get('OMP_NUM_THREADS')), repr(user_environment()['OMP_NUM_THREADS']))")
    result = run_fresh(code, OMP_NUM_THREADS=value)
    *seen, policy, spins, blocktime = result.stdout.split()
    assert (policy, spins, blocktime) == automatic
    assert seen == ["None", repr(value)] and "OMP_NUM_THREADS" not in result.stderr


@pytest.mark.parametrize("setting, waits", [({"OMP_WAIT_POLICY": "ACTIVE"}, ("ACTIVE", "None", "None")),
                                            ({"GOMP_SPINCOUNT": "300000"}, ("None", "300000", "None")),
                                            ({"KMP_BLOCKTIME": "200"}, ("None", "None", "200"))])
def test_how_the_user_set_threads_to_wait_is_left_as_it_is(setting, waits):
    assert importing_attnmt(**setting)[0] == waits


def test_where_torch_was_loaded_before_attnmt_its_environment_is_left_alone():
    assert waits_seen_by("import torch, attnmt") == ("None", "None", "None")


def test_a_program_that_imports_attnmt_keeps_collecting_its_own_reference_cycles():
    """A cycle the program made before ``import attnmt`` and dropped after is collected: a library
    import freezes nothing (freezing would leave the program's own objects out of every pass)."""
    code = ("import gc, weakref\nclass Node: pass\na, b = Node(), Node(); a.other, b.other = b, a\n"
            "cycle = weakref.ref(a)\nimport attnmt\ndel a, b\ngc.collect()\n"
            "print(gc.isenabled(), cycle() is None, gc.get_freeze_count())")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "True", "0"]


@pytest.mark.parametrize("before, enabled_after, frozen", [("", "True", True),
                                                            ("gc.disable(); ", "False", False)])
def test_the_attnmt_command_leaves_what_its_imports_made_out_of_the_collectors_passes(tmp_path, before,
                                                                                       enabled_after, frozen):
    """The collector waits while torch loads, then the command leaves what the imports made out of its
    passes; a process that had turned it off finds it off, and nothing frozen.  Its sitecustomize
    runs ``before`` first and shows the collector as the command exits."""
    (tmp_path / "sitecustomize.py").write_text(
        f"import atexit, gc, sys; {before}atexit.register(lambda: print(gc.isenabled(), gc.get_freeze_count(), "
        "file=sys.stderr))\n")
    paths = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    environment = os.environ | {"PYTHONPATH": paths}
    result = subprocess.run([sys.executable, "-m", "attnmt", "explain"], env=environment, capture_output=True,
                            text=True, check=True)
    enabled, freeze_count = result.stderr.split()
    assert enabled == enabled_after
    assert (int(freeze_count) > 100_000) is frozen  # torch alone makes over 150,000 objects


@pytest.mark.parametrize("name, arguments", [("a.py", ["-m", "attnmt"]), ("attnmt", [])])
def test_a_program_is_not_the_command_for_its_arguments_or_its_name(tmp_path, name, arguments):
    """Only the interpreter's own arguments (``python -m attnmt``) or the installed script make a process
    the command: a program given ``-m attnmt`` among its arguments, or a script of its own named attnmt,
    imports attnmt as a library and has nothing frozen.  Both were taken for the command."""
    script = tmp_path / name
    script.write_text("import gc, attnmt; print(gc.isenabled(), gc.get_freeze_count())\n")
    result = subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "0"]


@pytest.mark.parametrize("argv, orig_argv, command", [
    (["-m"], ["python", "-m", "attnmt"], True),
    (["-m", "train", "c.yaml"], ["python", "-u", "-X", "utf8", "-m", "attnmt", "train", "c.yaml"], True),
    (["-m", "x"], ["python", "-Imattnmt", "x"], True),
    (["-m", "-m", "attnmt"], ["python", "-m", "tool", "-m", "attnmt"], False),
    (["-m"], ["python", "-m", "attnmt.cli"], False),
    (["a.py", "-m", "attnmt"], ["python", "a.py", "-m", "attnmt"], False),
    (["-c", "-m", "attnmt"], ["python", "-c", "import attnmt", "-m", "attnmt"], False),
    # A profiler, the debugger or the tracer running attnmt: cProfile has handed it argv, pdb and trace not yet.
    (["attnmt", "x"], ["python", "-m", "cProfile", "-o", "p.out", "-m", "attnmt", "x"], True),
    (["attnmt"], ["python", "-u", "-mprofile", "-s", "time", "-m", "attnmt"], True),
    (["/lib/pdb.py", "-m", "attnmt", "x"], ["python", "-m", "pdb", "-m", "attnmt", "x"], True),
    (["/lib/trace.py", "-c", "--module", "attnmt"], ["python", "-m", "trace", "-c", "--module", "attnmt"], True),
    # ... or a program of the user's, whose own arguments those are.
    (["a.py", "-m", "attnmt"], ["python", "-m", "cProfile", "a.py", "-m", "attnmt"], False),
    (["a.py", "-m", "attnmt"], ["python", "-m", "pdb", "a.py", "-m", "attnmt"], False),
    (["a.py", "-m", "cProfile", "-m", "attnmt"], ["python", "a.py", "-m", "cProfile", "-m", "attnmt"], False),
    (["/lib/trace.py", "-m", "attnmt"], ["python", "-m", "trace", "-m", "attnmt"], False),  # trace's -m: --missing
])
def test_the_command_is_read_from_the_interpreters_own_arguments(argv, orig_argv, command):
    assert started_as_the_command(argv, orig_argv) is command


@pytest.mark.parametrize("setting, passed_on", [({}, "None None None"), ({"GOMP_SPINCOUNT": "5"}, "None 5 None"),
                                                ({"OMP_WAIT_POLICY": "ACTIVE"}, "ACTIVE None None"),
                                                ({"KMP_BLOCKTIME": "200"}, "None None 200")])
def test_programs_it_starts_get_the_users_environment_without_attnmts_settings(setting, passed_on):
    """A peer engine a benchmark starts runs as its own users run it: what attnmt set in the
    environment is left out of user_environment(), what the user set is kept."""
    assert importing_attnmt(**setting)[1] == passed_on


@pytest.mark.parametrize("code, setting, count", [("import attnmt", {}, "1"),
                                                  ("import attnmt", {"OPENBLAS_NUM_THREADS": "3"}, "3"),
                                                  ("import attnmt", {"GOTO_NUM_THREADS": "3"}, "None"),
                                                  ("import numpy, attnmt", {}, "None")])
def test_numpys_openblas_gets_one_thread_unless_the_user_set_its_count_or_numpy_came_first(code, setting, count):
    """attnmt multiplies with PyTorch's threads and calls no NumPy product: OpenBLAS's own pool of
    threads would only spin beside them."""
    unset = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS")
    environment = {k: v for k, v in os.environ.items() if k not in unset} | setting
    show = "; import os; from attnmt.hardware import user_environment; "
    show += "print(os.environ.get('OPENBLAS_NUM_THREADS'), user_environment().get('OPENBLAS_NUM_THREADS'))"
    result = subprocess.run([sys.executable, "-c", code + show], env=environment, capture_output=True, text=True,
                            check=True)
    seen, passed_on = result.stdout.split()[-2:]
    assert seen == count
    assert passed_on == setting.get("OPENBLAS_NUM_THREADS", "None")  # programs it starts get the user's setting


@pytest.mark.parametrize("value, count", [("+1", 1), (" +2 ", 2), ("+2,1", 2), ("+", None), ("+-1", None)])
def test_a_thread_count_with_a_plus_sign_is_a_count_as_openmp_reads_it(value, count):
    """OMP_NUM_THREADS=+1, which OpenMP and PyTorch read as 1, was called no thread count and taken out."""
    assert omp_thread_count(value) == count


@pytest.mark.parametrize("value, count", [("2147483648", None), ("4,99999999999999999999", None), ("9" * 5000, None)])
def test_a_thread_count_beyond_a_c_int_is_no_thread_count(value, count):
    """OMP_NUM_THREADS=99999999999999999999 was called a count of 2: libgomp ignored it, warning
    twice, and 4294967296 ran 1 thread; 5,000 digits were more than Python reads as an int."""
    assert omp_thread_count(value) == count


@pytest.mark.parametrize("value, count", [("4096", 4096), ("0004096", 4096), ("4097", None), ("5000", None),
                                          ("2,5000", None), ("2147483647", None)])
def test_a_thread_count_above_the_most_threads_is_no_thread_count(value, count):
    """OMP_NUM_THREADS=5000 fixed the count though --threads 5000 is refused: PyTorch ran its own
    thread at the cores, libgomp gave 5,000 to every thread started later."""
    assert MOST_THREADS == 4096
    assert omp_thread_count(value) == count
