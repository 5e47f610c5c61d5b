"""The C++ extension (``csrc/``): the decoder step, its float32 and int8 kernels and the next
tokens' choice, compiled once per machine, PyTorch version and source (needs a C++ compiler, and
ninja, which attnmt depends on) and cached under ``$ATTNMT_CACHE`` (default
``~/.cache/attnmt``).  ``ATTNMT_FUSED=0`` turns it off.  ``available()`` loads it, after which
its operators are ``torch.ops.attnmt.*`` and its classes ``torch.classes.attnmt.*``.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import warnings
from pathlib import Path

import torch

from attnmt.fast.packed import packing_available
from attnmt.hardware import cpu_flags

CSRC = Path(__file__).with_name("csrc")
# One extension from four files: the step, its float32 kernels (AVX2, AVX-512), its int8 ones
# (AVX512-VNNI, AMX), and the next tokens' choice.
SOURCES = [CSRC / name for name in ("decoder_step.cpp", "float_panels.cpp", "int8_panels.cpp", "top_tokens.cpp")]
HEADERS = [CSRC / name for name in ("exp_nonpositive.h", "float_panels.h", "int8_panels.h", "row_blocks.h")]
NAME = "attnmt_decoder_step"
# -fno-trapping-math lets GCC vectorise the loops with branches and float-to-int conversions (results
# do not change); -fopenmp makes at::parallel_for parallel (libgomp: the one PyTorch has loaded).
FLAGS = ["-O3", "-fno-trapping-math", "-fopenmp"]
# Built for a target, not for the build machine (-march=native): AVX2 + FMA (+ F16C, the float16
# cache's conversions, on every CPU with AVX2), the kernels' floor on
# x86-64; the AVX-512, AVX512-VNNI and AMX kernels are compiled for their own targets beside it
# and picked at run time (float_panels.cpp: panel_isa; int8_panels.cpp: int8_kernel).  Elsewhere
# the compiler's default target.
X86_TARGET = ["-mavx2", "-mfma", "-mf16c"]
PANEL = 16  # output columns per float32 panel (csrc/float_panels.cpp)


def target_flags() -> list[str]:
    """The instruction set the extension is compiled for on this machine's CPU."""
    return X86_TARGET if {"avx2", "fma", "f16c"} <= cpu_flags() else []


_state: dict[str, bool] = {}


def build_directory() -> Path:
    """Where this machine's build of this source for this PyTorch lives."""
    key = hashlib.sha256(
        "\n".join([*(path.read_text() for path in SOURCES + HEADERS), " ".join(FLAGS + target_flags()),
                   torch.__version__, sys.version, " ".join(sorted(cpu_flags())) or platform.processor()]).encode()
    ).hexdigest()[:16]
    return cache_root() / f"{NAME}-{key}"


def cache_root() -> Path:
    """attnmt's cache: ``$ATTNMT_CACHE``, default ``~/.cache/attnmt``."""
    return Path(os.environ.get("ATTNMT_CACHE") or Path.home() / ".cache" / "attnmt")


def available() -> bool:
    """Loads the extension (building it the first time); False, with one warning, where it cannot be."""
    if "ok" in _state:
        return _state["ok"]
    _state["ok"] = False
    if os.environ.get("ATTNMT_FUSED", "1") == "0" or not packing_available():
        return False
    folder = build_directory()
    library = folder / f"{NAME}.so"
    try:
        if not library.exists():
            _build(folder)
        torch.ops.load_library(str(library))
    except Exception as error:  # no compiler, no ninja, a failed build: the Python step still works
        warnings.warn(
            f"attnmt: the fused decoder step could not be built or loaded ({type(error).__name__}: {error}); "
            "translating with the Python step, which is slower. Set ATTNMT_FUSED=0 to skip trying.",
            stacklevel=2,
        )
        return False
    _state["ok"] = True
    return True


def _build(folder: Path) -> None:
    from torch.utils import cpp_extension

    try:  # the ninja from PyPI, where PATH does not reach the environment's bin/
        import ninja

        os.environ["PATH"] = ninja.BIN_DIR + os.pathsep + os.environ.get("PATH", "")
    except ImportError:
        pass
    print(f"attnmt: building the fused decoder step once, into {folder} (about 15 s)", file=sys.stderr)
    folder.mkdir(parents=True, exist_ok=True)
    cpp_extension.load(
        name=NAME, sources=[str(path) for path in SOURCES], extra_cflags=FLAGS + target_flags(),
        extra_ldflags=["-fopenmp"], build_directory=str(folder),
        is_python_module=False, verbose=False,
    )
