"""The C++ extension (``csrc/``): the decoder step, its float32 and int8 kernels and the next
tokens' choice.  A wheel built with it (``setup.py``) carries it compiled for one PyTorch version,
used where that version is installed; otherwise it is compiled once per machine, PyTorch version
and source (needs a C++ compiler, and ninja, which attnmt depends on; ``attnmt build-ext`` does it
ahead of time) and cached under ``$ATTNMT_CACHE`` (default ``~/.cache/attnmt``).  Without a compiler
nothing is tried; a build that failed is not tried again with the same compiler until ``attnmt
build-ext`` asks, while one that was stopped (Ctrl-C, the compiler killed) or whose disk was full
or read-only is tried at the next load.
Processes that find it missing at once build it one at a time; a build killed midway holds nothing:
the cache's library is loaded only where the record its build wrote on finishing (BUILT) vouches for it.
``ATTNMT_FUSED=0`` turns it off.  ``available()`` loads it, after which its operators are
``torch.ops.attnmt.*`` and its classes ``torch.classes.attnmt.*``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import platform
import shlex
import shutil
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import torch

from attnmt.errors import AttnmtWarning, UserError, json_value
from attnmt.fast.packed import packing_available
from attnmt.fast.sources import FLAGS, HEADERS, NAME, SOURCES, X86_TARGET, X86_TARGET_CPU_FLAGS
from attnmt.files import cache_root, cache_root_folder, write_text
from attnmt.hardware import cpu_flags

PANEL = 16  # output columns per float32 panel (csrc/float_panels.cpp)
# What setup.py writes beside the wheel's compiled extension: its file name, the PyTorch version it
# was compiled against (torch.__version__) and the CPU flags its target needs.
PREBUILT = Path(__file__).with_name("prebuilt.json")
# In a build folder whose build failed: the compiler it failed with (compiler_identity), then the error.
FAILED_BUILD = "failed-build.txt"
# In a build folder: the size and SHA-256 of the library its build finished, written (atomically) after
# the link succeeded.  PyTorch's build links in place, so a link killed midway (kill -9, the OOM killer)
# leaves a cut-short library that ninja takes as up to date; mapping one kills the process with SIGBUS,
# which nothing catches.  A library this record does not vouch for is built again, never loaded.
BUILT = "built.json"
# In a build folder: the file attnmt flocks while it builds there (the kernel lets go of a flock when
# its holder ends, however it ends), and the lock file PyTorch's build makes and removes, which a
# build killed midway leaves behind and every later build would wait on forever.
BUILD_LOCK = "attnmt-build.lock"
TORCH_LOCK = "lock"
# What a build's error says where the build was stopped rather than failed: ninja interrupted (Ctrl-C
# reaching its process group), the compiler or linker killed (the OOM killer).  Not recorded as failed.
STOPPED = ("interrupted by user", "signal terminated program", "terminated with signal")
# What a build's error says where a disk it writes to (the cache's, or the compiler's TMPDIR) failed it,
# not the compiler: full, over quota or read-only (ENOSPC, EDQUOT, EROFS as strerror words them).  Not
# recorded as failed either: a build recorded so never ran again once there was room.
UNWRITABLE = ("No space left on device", "Disk quota exceeded", "Read-only file system")
# The private PyTorch operators csrc/decoder_step.cpp calls through the dispatcher, with the argument
# and result types it calls them with.  A PyTorch release may rename or change them; checking them
# when the extension loads sends such a PyTorch to the Python step instead of failing at the first step.
PRIVATE_OPERATORS = {
    "mkldnn::_linear_pointwise": "(Tensor, Tensor, Optional[Tensor], str, List[Optional[number]], Optional[str]) "
                                 "-> Tensor",
    "mkldnn::_linear_pointwise.binary": "(Tensor, Tensor, Tensor, Optional[Tensor], str) -> Tensor",
    "quantized::linear_dynamic": "(Tensor, __torch__.torch.classes.quantized.LinearPackedParamsBase, bool) -> Tensor",
}


def target_flags() -> list[str]:
    """The instruction set the extension is compiled for on this machine's CPU."""
    return X86_TARGET if set(X86_TARGET_CPU_FLAGS) <= cpu_flags() else []


_state: dict[str, Path | None] = {}
# ATTNMT_FUSED's spellings, compared stripped and in lower case.  Empty is on, as unset: ``ATTNMT_FUSED=
# attnmt …`` is how a shell clears a variable for one command, and Python reads its own PYTHON*
# switches empty as unset too.
SWITCHED_OFF = ("0", "false", "no", "off")
SWITCHED_ON = ("", "1", "true", "yes", "on")
_warned_switches: set[str] = set()  # the ATTNMT_FUSED values warned of in this process


def build_directory() -> Path:
    """Where this machine's build of this source for this PyTorch lives.  The key holds the target's
    flags, not the CPU's: the build runs on any CPU with its target's instructions (a container
    image built with ``attnmt build-ext`` on one machine and run on another).  The sources are read
    as UTF-8 whatever the locale: their comments hold non-ASCII (``x Wᵀ``), which a POSIX locale could
    not read (no fused step, a warning every run) and Latin-1 would key as another build."""
    sources = [path.read_text(encoding="utf-8") for path in SOURCES + HEADERS]
    key = hashlib.sha256(
        "\n".join([*sources, " ".join(FLAGS + target_flags()), torch.__version__, sys.version,
                   platform.machine()]).encode()
    ).hexdigest()[:16]
    return cache_root() / f"{NAME}-{key}"


def available() -> bool:
    """Loads the extension (building it the first time); False, with one warning, where it cannot be."""
    if "library" in _state:
        return _state["library"] is not None
    _state["library"] = None
    if switched_off() or not packing_available():
        return False
    try:
        _state["library"] = load()
    except Exception as error:  # no compiler, no ninja, a failed build, a PyTorch without an operator
        why = str(error) if isinstance(error, UserError) else f"{type(error).__name__}: {error}"
        warnings.warn(
            f"attnmt: the fused decoder step could not be built or loaded ({why}); "
            "translating with the Python step, which is slower. Set ATTNMT_FUSED=0 to skip trying.", AttnmtWarning,
            stacklevel=2,
        )
        return False
    return True


def switched_off() -> bool:
    """Whether ATTNMT_FUSED turns the extension off: "0" (as the docs say), or false/no/off as other
    switches are written (none of them may leave it on silently).  Any other value than those and
    SWITCHED_ON leaves it on with one warning, once a process for each value (``attnmt doctor``
    asks twice): "disable" or "n" was taken as on without a word."""
    value = os.environ.get("ATTNMT_FUSED", "")
    said = value.strip().lower()
    if said in SWITCHED_OFF:
        return True
    if said not in SWITCHED_ON and value not in _warned_switches:
        _warned_switches.add(value)
        warnings.warn(f"ATTNMT_FUSED={value!r} is not one of 0/false/no/off or 1/true/yes/on; the C++ step runs",
                      AttnmtWarning, stacklevel=2)
    return False


def built_library() -> Path | None:
    """The extension's file a load would run, without loading or building it: the wheel's where it
    fits, else the cache's where its build finished; None where there is none (``attnmt doctor``)."""
    library = prebuilt()
    if library is None:
        library = build_directory() / f"{NAME}.so"
        return library if finished(library) or whole_elf(library) else None
    return library if library.is_file() else None


def finished(library: Path) -> bool:
    """Whether the cache's library is the one its build finished: its BUILT record there, with its
    size and SHA-256.  False for a library cut short, changed since, or built before the record was."""
    try:
        record = json_value((library.parent / BUILT).read_text(encoding="utf-8"))
        return (library.stat().st_size == record["size"]
                and hashlib.sha256(library.read_bytes()).hexdigest() == record["sha256"])
    except (OSError, ValueError, TypeError, KeyError):  # missing, unreadable or not the record's JSON
        return False


def record_finished(library: Path) -> None:
    """Writes BUILT for the library a build just finished (atomically: a record is whole or absent)."""
    data = library.read_bytes()
    write_text(library.parent / BUILT, json.dumps({"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}),
               raises=UserError)


def failed_build() -> Path | None:
    """The record of this machine's failed build (FAILED_BUILD: the compiler, then its messages);
    None where no build failed."""
    failed = build_directory() / FAILED_BUILD
    return failed if failed.is_file() else None


def loaded_library() -> Path | None:
    """The extension's file this process runs (the wheel's or the cache's); None where it runs none."""
    return _state.get("library")


def load() -> Path:
    """Loads the extension: the wheel's where it fits this PyTorch and CPU, else the cache's, built
    first where missing.  Returns its file; raises where it cannot."""
    check_operators()
    library = prebuilt()
    if library is None:
        cache_root_folder()  # a file there is said as such, not as the build folder's NotADirectoryError
        library = build_directory() / f"{NAME}.so"
        if not finished(library):
            try:
                _build(library.parent)
            except (RuntimeError, OSError):
                if not whole_elf(library):  # nothing an earlier release built, whole, to fall back on
                    raise
    torch.ops.load_library(str(library))
    return library


def whole_elf(library: Path) -> bool:
    """Whether ``library`` is as long as its ELF header says, its program and section headers inside
    it: a library an earlier release built (without the BUILT record), which a run that cannot build
    here (no compiler, a read-only cache) still loads, as it did.  A link killed midway, or a file
    cut short, is shorter than its header says (mapped, it was a bus error)."""
    try:
        with open(library, "rb") as file:
            header, size = file.read(64), os.fstat(file.fileno()).st_size
    except OSError:
        return False
    if len(header) < 64 or header[:6] != b"\x7fELF\x02\x01":  # 64-bit, little-endian: what attnmt builds
        return False
    program, section = int.from_bytes(header[32:40], "little"), int.from_bytes(header[40:48], "little")
    program_size = int.from_bytes(header[54:56], "little") * int.from_bytes(header[56:58], "little")
    section_size = int.from_bytes(header[58:60], "little") * int.from_bytes(header[60:62], "little")
    return section > 0 and max(program + program_size, section + section_size) <= size


def prebuilt() -> Path | None:
    """The wheel's compiled extension, where it was compiled for this PyTorch and this CPU has the
    instructions of its target; None otherwise (and where the package was installed without it)."""
    built = prebuilt_record()
    return None if built is None or prebuilt_misfit(built) else PREBUILT.with_name(built["library"])


def prebuilt_record() -> dict | None:
    """The wheel's record of its compiled extension (PREBUILT: its file, PyTorch, CPU flags); None
    where the package was installed without one (an editable install, an sdist)."""
    try:
        return json_value(PREBUILT.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def prebuilt_misfit(built: dict) -> str | None:
    """Why the wheel's compiled extension, of which ``built`` is the record, does not serve here
    (another PyTorch, a CPU without its target's instructions); None where it does."""
    if built["torch"] != torch.__version__:
        return f"it was compiled for PyTorch {built['torch']}, not {torch.__version__}"
    missing = sorted(set(built["cpu_flags"]) - cpu_flags())
    return f"this CPU lacks its target's {' '.join(missing)}" if missing else None


def prebuilt_unused() -> str | None:
    """Why the wheel's compiled extension is not used, for ``attnmt doctor`` ("the wheel's step is
    unused: it was compiled for PyTorch 2.12.0, not 2.13.0"); None where it is, or the package was
    installed without one (an editable install, an sdist)."""
    built = prebuilt_record()
    why = None if built is None else prebuilt_misfit(built)
    return None if why is None else f"the wheel's own is unused: {why}"


def check_operators() -> None:
    """Raises, naming the operator, where this PyTorch lacks one of PRIVATE_OPERATORS or changed its types."""
    for name, types in PRIVATE_OPERATORS.items():
        operator, _, overload = name.partition(".")
        try:
            schema = torch._C._get_schema(operator, overload)
        except RuntimeError:
            raise RuntimeError(f"PyTorch {torch.__version__} has no operator {name}, which the C++ step calls") \
                from None
        found = (f"({', '.join(str(argument.type) for argument in schema.arguments)}) -> "
                 f"{', '.join(str(result.type) for result in schema.returns)}")
        if found != types:
            raise RuntimeError(f"PyTorch {torch.__version__}'s {name} is {found}; the C++ step calls it as {types}")


def compiler_identity() -> str:
    """The C++ compiler PyTorch's build runs (CXX, else c++): its file, size and modification time,
    which change where it is replaced or updated.  Raises, in one line, where PATH lacks it."""
    name = (shlex.split(os.environ.get("CXX", "")) or ["c++"])[0]
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"no C++ compiler ({name}) on PATH: install g++, or name one in CXX")
    compiler = Path(found).resolve()
    return f"{compiler} {compiler.stat().st_size} {compiler.stat().st_mtime_ns}"


def forget_failed_build() -> None:
    """Lets the next load try again the build that failed with this compiler (``attnmt build-ext``)."""
    (build_directory() / FAILED_BUILD).unlink(missing_ok=True)


def _build(folder: Path) -> None:
    """Compiles the extension into folder, once: a build that failed is recorded there and not run
    again with the same compiler, so that every translation does not spend its time failing; one
    stopped midway (interrupted, or its compiler killed) or failed by its disk (full, read-only) is
    not, and the next load tries again.  A finished build is recorded (BUILT) once its library is whole."""
    from torch.utils import cpp_extension

    compiler = compiler_identity()
    folder.mkdir(parents=True, exist_ok=True)
    library = folder / f"{NAME}.so"
    with _holding(folder):
        if finished(library):
            return  # another process built it while this one waited
        failed = folder / FAILED_BUILD
        if failed.is_file() and failed.read_text(encoding="utf-8", errors="replace").partition("\n")[0] == compiler:
            raise RuntimeError(f"its build failed before with this compiler ({failed}); "
                               "'attnmt build-ext' tries again")
        # No build runs here while this process holds the folder: PyTorch's lock file is a killed build's.
        (folder / TORCH_LOCK).unlink(missing_ok=True)
        # A library without its record is a killed link's (or damaged since): ninja would not link it
        # again, and PyTorch's build would map it.  Removed, it is linked again from the objects.
        (folder / BUILT).unlink(missing_ok=True)
        library.unlink(missing_ok=True)
        print(f"attnmt: building the fused decoder step once, into {folder} (about 30 s)", file=sys.stderr)
        try:
            with _ninja_on_path(), _compiler_warnings_off():
                cpp_extension.load(
                    name=NAME, sources=[str(path) for path in SOURCES], extra_cflags=FLAGS + target_flags(),
                    extra_ldflags=["-fopenmp"], build_directory=str(folder),
                    is_python_module=False, verbose=False,
                )
        except Exception as error:  # its message holds the whole compiler log: kept in the file, not shown
            if any(words in str(error) for words in STOPPED):
                raise RuntimeError("its build was stopped midway (interrupted, or the compiler killed, as "
                                   "when memory runs out); the next run builds it again") from None
            unwritable = next((words for words in UNWRITABLE if words in str(error)), None)
            if unwritable is not None:
                raise RuntimeError(f"its build could not be written: the cache's disk (or TMPDIR's) is full or "
                                   f"not writable ({unwritable}); the next run builds it again") from None
            try:
                failed.write_text(f"{compiler}\n{type(error).__name__}: {error}\n", encoding="utf-8")
            except OSError as why:  # the build folder itself gone or unwritable: the compiler is not to blame
                raise RuntimeError(f"its build folder {folder} could not be written ({why.strerror or why})") \
                    from None
            raise RuntimeError(f"its build failed (the compiler's messages: {failed})") from None
        failed.unlink(missing_ok=True)
        record_finished(library)


@contextlib.contextmanager
def _compiler_warnings_off() -> Iterator[None]:
    """PyTorch's build logs its warnings off while it runs: a compiler it does not know (a CXX
    wrapper) put its many-line "!! WARNING !!" block before attnmt's one line on the build."""
    logger = logging.getLogger("torch.utils.cpp_extension")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


@contextlib.contextmanager
def _ninja_on_path() -> Iterator[None]:
    """PATH with the ninja from PyPI first (where PATH does not reach the environment's bin/) while
    PyTorch's build runs, and as it was afterwards: the first ``prepare`` of a process left it
    changed for good, for every program the process started after it."""
    before = os.environ.get("PATH")
    try:
        import ninja

        os.environ["PATH"] = ninja.BIN_DIR + os.pathsep + (before or "")
    except ImportError:
        pass
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = before


@contextlib.contextmanager
def _holding(folder: Path) -> Iterator[None]:
    """Holds the build folder (an flock on BUILD_LOCK, which stays: removing it would let a waiter
    hold a file no one else sees), waiting, with one line, while another process builds there."""
    fd = os.open(folder / BUILD_LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"attnmt: waiting for another process's build of the fused decoder step, in {folder}",
                  file=sys.stderr)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # lets go of the flock
