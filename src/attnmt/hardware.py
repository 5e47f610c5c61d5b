"""The machine a run lands on: the CPU's model and feature flags, and the precision that trains fastest there.

CPUs differ in what they do natively.  bf16 matmuls run at several times the float32
rate where the CPU has AVX512-BF16 or AMX-BF16, and are emulated (much slower than
float32) where it has neither, so ``precision: auto`` asks the CPU before choosing.
"""

from __future__ import annotations

import ctypes
import os
import platform
from functools import cache
from pathlib import Path

import torch

# Flags worth naming in a log: the vector widths and the bf16 instructions the kernels can use.
RELEVANT_FLAGS = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8", "asimd", "sve")
BF16_FLAGS = ("avx512_bf16", "amx_bf16")
# ONEDNN_MAX_CPU_ISA values that stop oneDNN from using bf16 instructions (it then emulates bf16).
ONEDNN_ISAS_WITHOUT_BF16 = {"SSE41", "AVX", "AVX2", "AVX2_VNNI", "AVX2_VNNI_2", "AVX512_CORE", "AVX512_CORE_VNNI"}


@cache
def cpu_info() -> dict[str, str]:
    """The first processor's ``/proc/cpuinfo`` fields (empty where there is no such file)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
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
    return {
        "device": str(device),
        "threads": torch.get_num_threads(),
        "cpu": cpu_model(),
        "cpu_flags": sorted(cpu_flags().intersection(RELEVANT_FLAGS)),
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "torch": torch.__version__,
    }


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
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", PRIMITIVE_CACHE_SIZE)
    os.environ.setdefault("LRU_CACHE_CAPACITY", PRIMITIVE_CACHE_SIZE)


@cache
def _glibc():
    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def release_free_memory() -> None:
    """Hands the heap's free pages back to the system (glibc's malloc_trim; elsewhere nothing)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
