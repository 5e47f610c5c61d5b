"""The machine a run lands on: the CPU's model and feature flags, the precision that trains fastest
there, and the process-wide settings attnmt gives the libraries it runs on.

CPUs differ in what they do natively.  bf16 matmuls run at several times the float32
rate where the CPU has AVX512-BF16 or AMX-BF16, and are emulated (much slower than
float32) where it has neither, so ``precision: auto`` asks the CPU before choosing.

This module imports torch only inside the functions that need it: ``set_process_defaults``
runs before torch is first imported (attnmt/__init__.py).  Its annotations' ``torch`` is
``_DeferredTorch``, which imports torch when they are read (``typing.get_type_hints``).
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import platform
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING


class _DeferredTorch:
    """torch, imported when an attribute is first read: what ``torch.device`` in this module's
    annotations names for a program that reads them (typing.get_type_hints), without this module
    importing torch when it loads, before ``set_process_defaults``."""

    def __getattr__(self, name: str) -> object:
        import torch

        return getattr(torch, name)


if TYPE_CHECKING:
    import torch
else:
    torch = _DeferredTorch()

# Flags worth naming in a log: the vector widths and the bf16 instructions the kernels can use.
RELEVANT_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8", "asimd", "sve")
BF16_FLAGS = ("avx512_bf16", "amx_bf16")
# ONEDNN_MAX_CPU_ISA values that stop oneDNN from using bf16 instructions (it then emulates bf16).
ONEDNN_ISAS_WITHOUT_BF16 = {"SSE41", "AVX", "AVX2", "AVX2_VNNI", "AVX2_VNNI_2", "AVX512_CORE", "AVX512_CORE_VNNI"}


@cache
def cpu_info() -> dict[str, str]:
    """The first processor's ``/proc/cpuinfo`` fields (empty where there is no such file)."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    fields: dict[str, str] = {}
    for line in text.split("\n\n")[0].splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


def cpu_model() -> str:
    info = cpu_info()
    return info.get("model name") or info.get("Model") or platform.processor() or platform.machine()


def cpu_flags() -> set[str]:
    """The CPU's feature flags (``flags`` on x86, ``Features`` on ARM)."""
    info = cpu_info()
    return set((info.get("flags") or info.get("Features") or "").split())


def bf16_native() -> tuple[bool, str]:
    """Whether bf16 matmuls run natively here, and why (a phrase for the log)."""
    have = sorted(cpu_flags().intersection(BF16_FLAGS))
    if not have:
        return False, "the CPU has neither avx512_bf16 nor amx_bf16 (bf16 would be emulated)"
    cap = onednn_isa_cap()
    if cap in ONEDNN_ISAS_WITHOUT_BF16:
        return False, f"ONEDNN_MAX_CPU_ISA={cap} keeps oneDNN from the CPU's {' and '.join(have)}"
    return True, f"the CPU has {' and '.join(have)}"


def onednn_isa_cap() -> str:
    """``ONEDNN_MAX_CPU_ISA`` in capitals ("" where unset): the highest instruction set oneDNN may
    use, which attnmt's own kernels honour too.  The one place that reads it."""
    return os.environ.get("ONEDNN_MAX_CPU_ISA", "").upper()


def amx_allowed() -> bool:
    """Whether kernels may use AMX tiles: unless ``ONEDNN_MAX_CPU_ISA`` names an ISA below AMX
    ("AVX512_CORE_VNNI", "AVX2", ...), which keeps oneDNN, and attnmt's int8 kernel, off them."""
    cap = onednn_isa_cap()
    return cap in ("", "ALL") or "AMX" in cap


def check_device(name: str, where: str = "--device") -> None:
    """ConfigError naming ``where`` (the option or key that gave the device) for a device this
    PyTorch cannot compute on: cuda without a CUDA (or ROCm) build or a GPU it sees, mps without
    Apple's Metal.  The CPU always can; ``attnmt doctor`` says what PyTorch sees."""
    import torch

    from attnmt.errors import ConfigError

    kind, _, number = name.partition(":")  # cuda:1, the second GPU
    if kind == "cuda":
        if torch.version.cuda is None and getattr(torch.version, "hip", None) is None:
            raise ConfigError(f"{where} {name}: this PyTorch ({torch.__version__}) is built for the CPU only; "
                              f"install a CUDA build of it to use a GPU, or leave out {where} {name}")
        if not torch.cuda.is_available():
            raise ConfigError(f"{where} {name}: PyTorch sees no GPU here; 'attnmt doctor' says what it sees")
        if number and int(number) >= torch.cuda.device_count():
            raise ConfigError(f"{where} {name}: PyTorch sees {torch.cuda.device_count()} GPU(s), numbered from 0; "
                              "'attnmt doctor' says what it sees")
    elif name == "mps" and not torch.backends.mps.is_available():
        raise ConfigError(f"{where} mps: Apple's Metal (MPS) is not available to this PyTorch; use the CPU")


def resolve_precision(precision: str, device: torch.device) -> tuple[str, str]:
    """The precision a run trains in ("bf16" or "fp32") and the reason, for ``auto``, ``bf16`` or ``fp32``."""
    if precision != "auto":
        return precision, "set in the config"
    if device.type != "cpu":
        return "bf16", f"auto: {device.type} computes in bf16 natively"
    native, why = bf16_native()
    return ("bf16" if native else "fp32"), f"auto: {why}"


def describe(device: torch.device) -> dict[str, object]:
    """What a run resolved about its machine, for the log: device, threads, CPU and its relevant flags."""
    import torch

    return {
        "device": str(device),
        "threads": torch.get_num_threads(),
        "wait_policy": ", ".join(f"{name}={os.environ.get(name, '(unset)')}" for name in OPENMP_WAIT_SETTINGS[:2]),
        "cpu": cpu_model(),
        "cpu_flags": sorted(cpu_flags().intersection(RELEVANT_FLAGS)),
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "torch": torch.__version__,
    }


# Process-wide defaults: the one place attnmt sets the environment of the libraries it runs on.
#
# PyTorch's CPU threads are OpenMP's (libgomp in the Linux wheels; LLVM's or Intel's runtime
# elsewhere).  Between parallel regions a waiting thread spins, libgomp's by default for 300,000
# rounds, before it sleeps.  Beside another busy process the spinning thread holds a core that the
# job's other thread, preempted, is waiting for, and a decoder step of dozens of small regions then
# waits a scheduler slice at each: at 2 threads on 2 cores beside one busy process a job ran several
# times slower than at 1 thread.  A thread that sleeps at once (OMP_WAIT_POLICY=PASSIVE) is woken
# by a system call at the start of the next region, a few hundred times a decoder step: alone on
# its cores, the OPUS-shaped int8 job took 5.3-5.9 s that way against 4.1-4.4 s spinning (an AVX-512
# EPYC, benchmarks/results/threads_spin_epyc_avx512.txt).  So libgomp's threads spin 1,000 rounds
# (GOMP_SPINCOUNT; about as fast alone as 300,000) and then sleep.
#
# libgomp has a second count, for a process with more OpenMP threads than CPUs: each thread that
# computes (the server's model thread besides the main thread that loaded the model) has a team of
# its own, and there a waiting thread spins 1,000 rounds under OMP_WAIT_POLICY=ACTIVE, 100 with no
# policy, and none under PASSIVE (at most GOMP_SPINCOUNT in each case).  Under PASSIVE the
# server's 2 threads slept at every region and answered fewer requests a second than 1 thread
# (0.86-0.99x at the automatic count, quiet 2-core EPYC; 1.47-1.67x under ACTIVE:
# benchmarks/results/serve_threads_epyc.txt).
# So where torch's OpenMP is libgomp, the policy is ACTIVE, bounded by GOMP_SPINCOUNT: 1,000
# rounds in both counts.  Other runtimes read ACTIVE as "spin without end" (LLVM's and Intel's:
# KMP_BLOCKTIME infinite) and ignore GOMP_SPINCOUNT, so they get PASSIVE; and beside libgomp,
# KMP_BLOCKTIME=0 keeps such a runtime's threads sleeping at once where another library in the
# process loaded one (MKL's libiomp5 under a NumPy built with it), as PASSIVE had them.
# Where the cores are shared, the automatic thread count (attnmt.threads) runs one thread per free
# core, and a lone thread never waits.  Where the user fixes the count for the whole process
# (OMP_NUM_THREADS), nothing takes threads away beside a busy process, so they sleep at once.
# OpenMP reads these when its library loads, with torch, so they are set before the first
# ``import torch`` (attnmt/__init__.py calls ``set_process_defaults`` first thing).  A user who
# has set any of OPENMP_WAIT_SETTINGS keeps exactly what they set, and where torch was imported
# before attnmt nothing is changed.
#
# NumPy, which torch imports, multiplies with its own OpenBLAS, whose threads start with it, one per
# core, and spin a while waiting for work that attnmt never gives them (it calls no NumPy product
# of any size), beside PyTorch's threads: without them the one-line OPUS-shaped int8 job took
# 0.94-1.00 s against 1.00-1.11 s on a 2-core EPYC, 1.02-1.03 s against 1.10-1.20 s beside a busy
# process (benchmarks/results/buffer_pool_epyc_s21.txt).  So OpenBLAS gets one thread (no pool)
# unless the user set its count or NumPy was loaded before attnmt.
OPENBLAS_COUNTS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS")
OPENMP_DEFAULTS = {"OMP_WAIT_POLICY": "PASSIVE", "GOMP_SPINCOUNT": "1000"}
OPENMP_LIBGOMP_DEFAULTS = {"OMP_WAIT_POLICY": "ACTIVE", "GOMP_SPINCOUNT": "1000", "KMP_BLOCKTIME": "0"}
OPENMP_FIXED_COUNT = {"OMP_WAIT_POLICY": "PASSIVE"}  # where OMP_NUM_THREADS fixes the count
OPENMP_WAIT_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")


SET_HERE: dict[str, str] = {}  # what attnmt put in os.environ, where the user had not set it
DROPPED: dict[str, str] = {}  # what attnmt took out of os.environ: an OMP_NUM_THREADS OpenMP cannot use


# The most threads attnmt lets a count ask for (--threads, a training config's threads, and
# OMP_NUM_THREADS): more than any CPU has cores.  Far beyond it torch.set_num_threads starts what it
# is told on 2 cores (5,000 ran, slower), then libgomp cannot create them (20,000 exited) and
# PyTorch crashes (100,000).  OMP_NUM_THREADS=5000 was half kept: PyTorch ran its own thread at the
# 2 cores while libgomp gave 5,000 to every thread started after, and one beyond a C int was
# ignored by libgomp, warning twice, or cut to an int (4294967296 ran 1 thread).
MOST_THREADS = 4096


def omp_thread_count(value: str | None) -> int | None:
    """The thread count an OMP_NUM_THREADS of ``value`` fixes: its first number, as OpenMP reads
    a list of positive integers, one per level of nested parallelism ("4", "4,2"); None where it
    is unset or no such list ("", "abc", "0", "2.5", a number above MOST_THREADS), which OpenMP
    ignores, warning in two lines of its own, or misreads, and the count is automatic."""
    if value is None:
        return None
    numbers = [part.strip().removeprefix("+") for part in value.split(",")]  # "+2": a sign OpenMP reads too
    if not all(is_thread_count(number) for number in numbers):
        return None
    return int(numbers[0].lstrip("0"))  # leading zeros dropped: Python reads at most 4,300 digits


def is_thread_count(number: str) -> bool:
    """Whether ``number`` is a whole number from 1 to MOST_THREADS, written in ASCII digits.
    Its length is looked at first: Python refuses to read more than 4,300 digits as an int."""
    digits = number.lstrip("0")  # "04": 4, as OpenMP reads it
    return number.isascii() and number.isdigit() and 0 < len(digits) <= 10 and int(digits) <= MOST_THREADS


def unusable_omp_count(environ: Mapping[str, str] = os.environ) -> str | None:
    """The user's OMP_NUM_THREADS where it is no thread count (``omp_thread_count``), as given, also
    where ``set_process_defaults`` took it out of the environment; else None."""
    value = environ.get("OMP_NUM_THREADS", DROPPED.get("OMP_NUM_THREADS"))
    return value if value is not None and omp_thread_count(value) is None else None


def set_default(name: str, value: str) -> None:
    """os.environ[name] = value unless the user has set it; remembered in SET_HERE."""
    if name not in os.environ:
        os.environ[name] = SET_HERE[name] = value


def user_environment() -> dict[str, str]:
    """os.environ without what attnmt set in it: the environment for another program this process
    starts, such as a peer engine a benchmark times, which must run as its own users run it (a
    CTranslate2 whose libgomp threads slept at once, as attnmt's wait settings had them, ran at 2
    threads 2.5x slower than at 1)."""
    return DROPPED | {name: value for name, value in os.environ.items() if SET_HERE.get(name) != value}


def torch_openmp(torch_folder: Path | None = None) -> str:
    """The OpenMP runtime torch ships, by its files, without importing torch: "libgomp" where its
    libraries (torch/lib, or torch.libs beside it in a wheel auditwheel repaired) hold libgomp and
    neither LLVM's nor Intel's runtime; "other" where they hold one of those; "unknown" else (torch
    linked to the system's runtime, or not installed).  ``torch_folder``: torch's package folder
    (default: where ``import torch`` would find it)."""
    if torch_folder is None:
        try:
            spec = importlib.util.find_spec("torch")
        except (ImportError, ValueError):
            return "unknown"
        if spec is None or not spec.submodule_search_locations:
            return "unknown"
        torch_folder = Path(next(iter(spec.submodule_search_locations)))
    try:
        names = [path.name for folder in (torch_folder / "lib", torch_folder.parent / "torch.libs")
                 if folder.is_dir() for path in folder.iterdir()]
    except OSError:  # a folder it may not read: as if it held nothing
        return "unknown"
    if any(name.startswith(("libiomp", "libomp")) for name in names):
        return "other"
    return "libgomp" if any(name.startswith("libgomp") for name in names) else "unknown"


def set_process_defaults() -> None:
    """Sets OPENMP_LIBGOMP_DEFAULTS where torch's OpenMP is libgomp, else OPENMP_DEFAULTS
    (OPENMP_FIXED_COUNT where OMP_NUM_THREADS fixes the thread count), unless
    the user has set how OpenMP threads wait, or torch (and with it OpenMP) is loaded already, when
    it would be too late to matter; and OPENBLAS_NUM_THREADS=1 unless the user set OpenBLAS's count
    or NumPy is loaded already.  An OMP_NUM_THREADS that is no thread count (``omp_thread_count``)
    is taken out of the environment before OpenMP reads it, which would ignore it with two lines
    of its own: the count is automatic, and attnmt.threads says so in one line (DROPPED keeps it
    for the programs this process starts, ``user_environment``)."""
    if "numpy" not in sys.modules and not any(name in os.environ for name in OPENBLAS_COUNTS):
        set_default("OPENBLAS_NUM_THREADS", "1")
    if "torch" in sys.modules:
        return
    if unusable_omp_count() is not None:
        DROPPED["OMP_NUM_THREADS"] = os.environ.pop("OMP_NUM_THREADS")
    if any(name in os.environ for name in OPENMP_WAIT_SETTINGS):
        return
    if omp_thread_count(os.environ.get("OMP_NUM_THREADS")) is not None:
        defaults = OPENMP_FIXED_COUNT
    else:
        defaults = OPENMP_LIBGOMP_DEFAULTS if torch_openmp() == "libgomp" else OPENMP_DEFAULTS
    for name, value in defaults.items():
        set_default(name, value)


# Training batches come in hundreds of shapes.  oneDNN (bf16 matmuls) and ideep keep a compiled
# primitive per shape, 1,024 of each by default, and glibc keeps freed tensor memory in its heap
# for reuse: together they let a bf16 run's memory grow for its whole first epoch.  A smaller
# cache still holds every shape of a step; the caches read these variables when first used, so
# they must be set before the first matmul (a user's own setting wins).
PRIMITIVE_CACHE_SIZE = "128"


def physical_memory() -> int | None:
    """Bytes of memory in this machine (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # no such sysconf name (Windows, some BSDs)
        return None


def bound_kernel_caches() -> None:
    """Caps oneDNN's and ideep's per-shape caches (takes effect where no matmul has run yet)."""
    set_default("ONEDNN_PRIMITIVE_CACHE_CAPACITY", PRIMITIVE_CACHE_SIZE)
    set_default("LRU_CACHE_CAPACITY", PRIMITIVE_CACHE_SIZE)


@cache
def glibc() -> ctypes.CDLL | None:
    """glibc, for the calls Python has no wrapper of; None on another C library."""
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def release_free_memory() -> None:
    """Hands the heap's free pages back to the system (glibc's malloc_trim; elsewhere nothing)."""
    libc = glibc()
    if libc is not None:
        libc.malloc_trim(0)


def kernel_loaded(name: str, device: torch.device, dtype: torch.dtype) -> bool:
    """Whether the C++ extension's training operator ``attnmt::name`` runs for ``dtype`` tensors on
    ``device``: float32 or bfloat16 on a CPU, in a process that has loaded the extension
    (attnmt.fast.extension.available(); ``attnmt train`` and ``attnmt demo`` load it)."""
    import torch

    return device.type == "cpu" and dtype in (torch.float32, torch.bfloat16) and hasattr(torch.ops.attnmt, name)
