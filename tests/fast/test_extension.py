"""Loading the C++ extension (attnmt.fast.extension): the wheel's build where it fits this PyTorch and
CPU, the cache's otherwise, and the private PyTorch operators it calls checked as it loads."""

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

from attnmt.fast import extension, prepare
from attnmt.fast.packed import packing_available
from attnmt.fast.sources import CSRC, NAME
from attnmt.model import Transformer, TransformerConfig

needs_a_compiler = pytest.mark.skipif(not packing_available() or shutil.which("c++") is None,
                                      reason="no C++ compiler to build the extension, or a PyTorch without oneDNN")


def small_model() -> Transformer:
    torch.manual_seed(0)
    return Transformer(TransformerConfig(vocab_size=40, d_model=16, n_heads=2, encoder_layers=1, decoder_layers=1,
                                         d_ff=32, dropout=0.0, max_positions=32)).eval()


def write_record(folder, **fields) -> None:
    record = {"library": f"{NAME}.so", "torch": torch.__version__, "cpu_flags": []} | fields
    (folder / "prebuilt.json").write_text(json.dumps(record))


def test_every_private_operator_the_cpp_code_looks_up_is_checked():
    looked_up = set()
    for source in CSRC.glob("*.cpp"):
        for name, overload in re.findall(r'findSchemaOrThrow\("([^"]+)", "([^"]*)"\)', source.read_text()):
            looked_up.add(f"{name}.{overload}" if overload else name)
    assert looked_up == set(extension.PRIVATE_OPERATORS)


def test_this_pytorch_has_the_private_operators_with_the_types_the_step_calls():
    extension.check_operators()  # raises otherwise


def test_a_renamed_private_operator_sends_available_to_the_python_step(monkeypatch):
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setattr(extension, "PRIVATE_OPERATORS",
                        {"mkldnn::_linear_pointwise_v2": "(Tensor) -> Tensor", **extension.PRIVATE_OPERATORS})
    with pytest.warns(UserWarning, match="has no operator mkldnn::_linear_pointwise_v2, which the C\\+\\+ step calls"):
        assert not extension.available()
    assert extension.loaded_library() is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert prepare(small_model()).step is None


def test_a_private_operator_with_other_argument_types_is_refused_naming_both():
    changed = {"quantized::linear_dynamic": "(Tensor, Tensor) -> Tensor"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extension, "PRIVATE_OPERATORS", changed)
        with pytest.raises(RuntimeError, match=r"quantized::linear_dynamic is \(Tensor, __torch__.*bool\) -> Tensor; "
                                               r"the C\+\+ step calls it as \(Tensor, Tensor\) -> Tensor"):
            extension.check_operators()


def test_the_wheels_build_serves_the_pytorch_it_was_built_for(monkeypatch, tmp_path):
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    assert extension.prebuilt() is None  # installed without it (an editable install, an sdist)
    write_record(tmp_path)
    assert extension.prebuilt() == tmp_path / f"{NAME}.so"
    write_record(tmp_path, torch="2.2.0")
    assert extension.prebuilt() is None  # another PyTorch: the cache's build, compiled at first use


def test_the_wheels_build_is_left_alone_on_a_cpu_without_its_target(monkeypatch, tmp_path):
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    monkeypatch.setattr(extension, "cpu_flags", lambda: {"sse4_2", "avx", "fma", "f16c"})
    write_record(tmp_path, cpu_flags=["avx2", "fma", "f16c"])
    assert extension.prebuilt() is None
    write_record(tmp_path, cpu_flags=["avx", "fma"])
    assert extension.prebuilt() == tmp_path / f"{NAME}.so"


@needs_a_compiler
def test_a_fitting_wheel_build_is_loaded_without_compiling(monkeypatch, tmp_path):
    built = extension.build_directory() / f"{NAME}.so"
    if not built.exists():
        extension.load()
    # The wheel's file is the cache's here (a link: the same library, which registers its operators once).
    (tmp_path / f"{NAME}.so").symlink_to(built)
    write_record(tmp_path)
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")

    def no_compiler(folder):
        raise OSError("c++: not found")

    monkeypatch.setattr(extension, "_build", no_compiler)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert extension.available()
    assert extension.loaded_library() == tmp_path / f"{NAME}.so"
    assert prepare(small_model()).step is not None


@pytest.fixture
def empty_cache(monkeypatch, tmp_path):
    """No wheel's build and an empty cache: loading the extension means building it."""
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.delenv("ATTNMT_FUSED", raising=False)


def path_with_a_compiler(folder) -> str:
    """A PATH whose one folder holds a stand-in c++ (never run: cpp_extension.load is replaced)."""
    folder.mkdir()
    (folder / "c++").write_text("#!/bin/sh\nexit 1\n")
    (folder / "c++").chmod(0o755)
    return str(folder)


@pytest.mark.skipif(not packing_available(), reason="a PyTorch without oneDNN does not try the extension")
@pytest.mark.usefixtures("empty_cache")
def test_without_a_compiler_nothing_is_built_and_one_line_says_so(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))  # ninja comes from its package; no c++ anywhere
    with pytest.warns(UserWarning) as caught:
        assert not extension.available()
    message, = (str(warning.message) for warning in caught)
    assert "no C++ compiler (c++) on PATH: install g++" in message and "ATTNMT_FUSED=0" in message
    assert "\n" not in message
    assert capsys.readouterr().err == ""  # no "building …" line, no build log
    assert not (tmp_path / "cache").exists()


@pytest.mark.usefixtures("empty_cache")
def test_a_failed_build_is_kept_and_not_run_again_with_the_same_compiler(monkeypatch, tmp_path):
    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    builds = []

    def failing_build(**arguments):
        builds.append(arguments["build_directory"])
        raise RuntimeError("Error building extension 'attnmt_decoder_step': [1/7] c++ ...\nFAILED: decoder_step.o")

    monkeypatch.setattr(cpp_extension, "load", failing_build)
    monkeypatch.setattr(extension, "check_operators", lambda: None)
    record = extension.build_directory() / extension.FAILED_BUILD
    with pytest.raises(RuntimeError, match=r"^its build failed \(the compiler's messages: .*failed-build.txt\)$"):
        extension.load()
    assert "FAILED: decoder_step.o" in record.read_text()  # the whole log, kept
    with pytest.raises(RuntimeError, match="its build failed before with this compiler"):
        extension.load()
    assert len(builds) == 1
    (tmp_path / "bin" / "c++").write_text("#!/bin/sh\nexit 0  # 15.2\n")  # a compiler updated: tried again
    with pytest.raises(RuntimeError, match="its build failed \\(the compiler's"):
        extension.load()
    assert len(builds) == 2
    extension.forget_failed_build()  # as attnmt build-ext does first
    assert not record.exists()


@pytest.mark.usefixtures("empty_cache")
def test_a_build_whose_folder_went_away_is_not_recorded_as_failed(monkeypatch, tmp_path):
    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))

    def folder_removed(**arguments):
        shutil.rmtree(arguments["build_directory"])  # attnmt cache --clear in another shell
        raise RuntimeError("Error building extension 'attnmt_decoder_step': ninja: error: loading 'build.ninja'")

    monkeypatch.setattr(cpp_extension, "load", folder_removed)
    monkeypatch.setattr(extension, "check_operators", lambda: None)
    folder = extension.build_directory()
    with pytest.raises(RuntimeError, match=rf"^its build folder {re.escape(str(folder))} could not be written"):
        extension.load()
    assert not folder.exists()


@pytest.mark.parametrize("value", ["0", "false", "No", "OFF"])
def test_the_c_plus_plus_step_is_switched_off_by_any_way_of_saying_no(monkeypatch, value):
    """Only "0" switched it off: "false" left it on without a word."""
    monkeypatch.setattr(extension, "_state", {})
    monkeypatch.setenv("ATTNMT_FUSED", value)
    monkeypatch.setattr(extension, "load", lambda: pytest.fail("built or loaded although switched off"))
    assert extension.available() is False


@pytest.mark.parametrize("value", ["", "1", "TRUE", " yes ", "On"])
def test_the_c_plus_plus_step_stays_on_without_a_word_for_any_way_of_saying_yes(monkeypatch, value):
    monkeypatch.setattr(extension, "_warned_switches", set())
    monkeypatch.setenv("ATTNMT_FUSED", value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert extension.switched_off() is False


@pytest.mark.parametrize("value", ["abc", "00", "n", "disable", "0.0"])
def test_an_unknown_switch_leaves_the_c_plus_plus_step_on_with_one_warning(monkeypatch, value):
    """Anything but the off spellings was taken as on without a word ("disable" ran the C++ step)."""
    monkeypatch.setattr(extension, "_warned_switches", set())
    monkeypatch.setenv("ATTNMT_FUSED", value)
    with pytest.warns(UserWarning) as caught:
        assert extension.switched_off() is False
        assert extension.switched_off() is False  # attnmt doctor asks twice: still one warning
    message, = (str(warning.message) for warning in caught)
    assert message == f"ATTNMT_FUSED={value!r} is not one of 0/false/no/off or 1/true/yes/on; the C++ step runs"


@pytest.mark.usefixtures("empty_cache")
def test_a_lock_left_by_a_killed_build_is_removed_and_the_build_runs(monkeypatch, tmp_path):
    """A build killed with SIGKILL left PyTorch's lock file, on which every later run waited forever."""
    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    folder = extension.build_directory()
    folder.mkdir(parents=True)
    (folder / "lock").write_text("")  # what the killed build left (torch.utils.file_baton)

    def build(**arguments):
        assert not (folder / "lock").exists(), "PyTorch's build would wait on it forever"
        (folder / f"{NAME}.so").write_text("")

    monkeypatch.setattr(cpp_extension, "load", build)
    extension._build(folder)
    assert (folder / f"{NAME}.so").exists()


@pytest.mark.usefixtures("empty_cache")
def test_pytorchs_warnings_on_an_unknown_compiler_are_not_shown_during_the_build(monkeypatch, tmp_path, caplog):
    """A CXX wrapper PyTorch does not know put its many-line "!! WARNING !!" block before attnmt's line."""
    import logging

    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    folder = extension.build_directory()

    def build(**arguments):
        logging.getLogger("torch.utils.cpp_extension").warning("!! WARNING !! Your compiler is not compatible")
        (folder / f"{NAME}.so").write_text("")

    monkeypatch.setattr(cpp_extension, "load", build)
    with caplog.at_level(logging.WARNING):
        extension._build(folder)
    assert not [record for record in caplog.records if "!! WARNING !!" in record.getMessage()]
    assert logging.getLogger("torch.utils.cpp_extension").level == logging.NOTSET


@pytest.mark.usefixtures("empty_cache")
@pytest.mark.parametrize("fails", [False, True])
def test_the_build_puts_ninja_on_path_while_it_runs_and_leaves_path_as_it_was(monkeypatch, tmp_path, fails):
    """The first prepare() of a process left ninja's folder at the front of PATH for good."""
    from torch.utils import cpp_extension

    ninja = pytest.importorskip("ninja")
    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    before, seen = os.environ["PATH"], []
    folder = extension.build_directory()

    def build(**arguments):
        seen.append(os.environ["PATH"])
        if fails:
            raise RuntimeError("Error building extension 'attnmt_decoder_step': FAILED: decoder_step.o")
        (folder / f"{NAME}.so").write_text("")

    monkeypatch.setattr(cpp_extension, "load", build)
    with contextlib.suppress(RuntimeError):
        extension._build(folder)
    assert seen == [ninja.BIN_DIR + os.pathsep + before]
    assert os.environ["PATH"] == before


@pytest.mark.usefixtures("empty_cache")
def test_a_second_first_build_waits_for_the_one_running_and_uses_what_it_built(monkeypatch, tmp_path, capsys):
    import fcntl
    import os
    import threading

    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    folder = extension.build_directory()
    folder.mkdir(parents=True)
    builds = []
    monkeypatch.setattr(cpp_extension, "load", lambda **arguments: builds.append(arguments))
    running = os.open(folder / extension.BUILD_LOCK, os.O_RDWR | os.O_CREAT)  # another process, building
    fcntl.flock(running, fcntl.LOCK_EX)
    second = threading.Thread(target=extension._build, args=(folder,))
    second.start()
    second.join(timeout=0.5)
    assert second.is_alive() and builds == []  # waiting on the flock
    (folder / f"{NAME}.so").write_text("")  # the other's build is done
    extension.record_finished(folder / f"{NAME}.so")
    os.close(running)
    second.join()
    assert builds == []  # found it built
    assert "waiting for another process's build" in capsys.readouterr().err


STOPPED = r"^its build was stopped midway .*the next run builds it again$"
UNWRITABLE = (r"^its build could not be written: the cache's disk .* is full or not writable \(.+\); "
              r"the next run builds it again$")


@pytest.mark.usefixtures("empty_cache")
@pytest.mark.parametrize("message, said", [("ninja: build stopped: interrupted by user.", STOPPED),
                                           ("c++: fatal error: Killed signal terminated program cc1plus", STOPPED),
                                           ("collect2: fatal error: ld terminated with signal 9 [Killed]", STOPPED),
                                           ("Fatal error: int8_panels.o: No space left on device", UNWRITABLE),
                                           ("ld: cannot open output file attnmt_decoder_step.so: Disk quota exceeded",
                                            UNWRITABLE),
                                           ("cc1plus: fatal error: decoder_step.o: Read-only file system", UNWRITABLE)])
def test_a_build_stopped_midway_or_by_its_disk_is_not_recorded_as_failed_and_runs_again(monkeypatch, tmp_path,
                                                                                       message, said):
    """Ctrl-C reaching ninja, or the OOM killer, was recorded as a failed build, never tried again;
    so was a full cache disk, the Python step running ever after, even once there was room."""
    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    builds = []

    def stopped_build(**arguments):
        builds.append(arguments["build_directory"])
        raise RuntimeError(f"Error building extension 'attnmt_decoder_step': [1/7] c++ ...\n{message}")

    monkeypatch.setattr(cpp_extension, "load", stopped_build)
    monkeypatch.setattr(extension, "check_operators", lambda: None)
    for _ in range(2):
        with pytest.raises(RuntimeError, match=said):
            extension.load()
    assert len(builds) == 2
    assert not (extension.build_directory() / extension.FAILED_BUILD).exists()


@pytest.mark.usefixtures("empty_cache")
def test_a_build_interrupted_in_python_is_not_recorded_as_failed(monkeypatch, tmp_path):
    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))

    def interrupted(**arguments):
        raise KeyboardInterrupt

    monkeypatch.setattr(cpp_extension, "load", interrupted)
    with pytest.raises(KeyboardInterrupt):
        extension._build(extension.build_directory())
    assert not (extension.build_directory() / extension.FAILED_BUILD).exists()


@pytest.fixture
def stubbed_build(monkeypatch, tmp_path, empty_cache):
    """A build that links a stand-in library (and loads it, as PyTorch's does), and load_library
    replaced: the libraries each asked to load, in order, as their bytes at that moment."""
    from torch.utils import cpp_extension

    monkeypatch.setenv("PATH", path_with_a_compiler(tmp_path / "bin"))
    monkeypatch.setattr(extension, "check_operators", lambda: None)
    loaded = []
    monkeypatch.setattr(torch.ops, "load_library", lambda path: loaded.append(open(path, "rb").read()))

    def build(**arguments):
        library = os.path.join(arguments["build_directory"], f"{NAME}.so")
        with open(library, "ab") as file:  # as ninja: a library there is linked only where missing
            if file.tell() == 0:
                file.write(b"\x7fELF whole library")
        torch.ops.load_library(library)

    monkeypatch.setattr(cpp_extension, "load", build)
    return loaded


def cut_short_library() -> Path:
    """The cache's library as a link killed midway (kill -9, the OOM killer) leaves it: part of it, no record."""
    library = extension.build_directory() / f"{NAME}.so"
    library.parent.mkdir(parents=True, exist_ok=True)
    library.write_bytes(b"\x7fELF cut")
    return library


def test_a_library_whose_build_did_not_finish_is_built_again_never_loaded(stubbed_build):
    """A link killed midway left a cut-short library that every run loaded (a SIGBUS, or OSError ever after)."""
    library = cut_short_library()
    assert extension.load() == library
    assert stubbed_build == [b"\x7fELF whole library"] * 2  # PyTorch's build loads it, then attnmt
    assert extension.finished(library)


def test_a_finished_build_is_loaded_without_building_it_again(stubbed_build, monkeypatch):
    library = extension.load()
    monkeypatch.setattr(extension, "_build", lambda folder: pytest.fail("built again"))
    assert extension.load() == library
    assert extension.built_library() == library


def test_a_library_cut_short_after_its_build_is_built_again_never_loaded(stubbed_build):
    """``truncate -s 1000`` on the cache's library: mapping it killed every run with SIGBUS (rc 135)."""
    library = extension.load()
    library.write_bytes(library.read_bytes()[:9])
    assert extension.built_library() is None  # attnmt doctor: not built
    stubbed_build.clear()
    assert extension.load() == library
    assert stubbed_build == [b"\x7fELF whole library"] * 2


@pytest.mark.skipif(not packing_available(), reason="a PyTorch without oneDNN does not try the extension")
@pytest.mark.usefixtures("empty_cache")
def test_a_cache_that_is_a_file_is_named_in_the_one_warning(monkeypatch, tmp_path):
    """The warning said "(NotADirectoryError: [Errno 20] Not a directory: …)", never ATTNMT_CACHE."""
    typo = tmp_path / "three.en"
    typo.write_text("A dog runs.\n")
    monkeypatch.setenv("ATTNMT_CACHE", str(typo))
    monkeypatch.setattr(extension, "check_operators", lambda: None)
    with pytest.warns(UserWarning) as caught:
        assert not extension.available()
    message, = (str(warning.message) for warning in caught)
    assert message.startswith(f"attnmt: the fused decoder step could not be built or loaded (attnmt's cache {typo} "
                              "($ATTNMT_CACHE) is not a folder); translating with the Python step")
    assert typo.read_text() == "A dog runs.\n"


def elf_library(length: int, headers_end: int) -> bytes:
    """A 64-bit little-endian ELF file ``length`` bytes long whose section headers end at ``headers_end``."""
    header = bytearray(64)
    header[:6] = b"\x7fELF\x02\x01"
    header[40:48] = (headers_end - 64 * 2).to_bytes(8, "little")  # e_shoff: two 64-byte section headers
    header[58:60], header[60:62] = (64).to_bytes(2, "little"), (2).to_bytes(2, "little")
    return bytes(header) + bytes(length - 64)


def test_an_earlier_releases_whole_build_is_loaded_where_none_can_run_here(stubbed_build, monkeypatch):
    """A cache an earlier release built has no record; with no compiler (or a read-only cache) the run
    used the Python step and doctor said "not built", where the earlier release loaded it.  One cut
    short (shorter than its ELF header says) is still never loaded."""
    library = extension.build_directory() / f"{NAME}.so"
    library.parent.mkdir(parents=True, exist_ok=True)
    library.write_bytes(elf_library(4096, 4096))
    monkeypatch.setenv("PATH", "")  # no compiler
    assert extension.built_library() == library
    assert extension.load() == library
    assert stubbed_build == [library.read_bytes()]
    library.write_bytes(elf_library(4096, 4096)[:2048])
    assert extension.built_library() is None
    with pytest.raises(RuntimeError, match="no C\\+\\+ compiler"):
        extension.load()


def test_the_build_folder_is_the_same_under_a_posix_locale():
    """The C++ sources' comments hold non-ASCII (``x Wᵀ``): read in the locale's encoding, a POSIX
    locale failed on them (no fused step, a warning every run) and another would key another build."""
    source = Path(extension.__file__).parents[2]
    env = {**os.environ, "LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONPATH": str(source)}
    script = "from attnmt.fast import extension; print(extension.build_directory())"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert (done.returncode, done.stdout) == (0, f"{extension.build_directory()}\n"), done.stderr
