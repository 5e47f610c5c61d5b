"""What the C++ extension (``csrc/``) is compiled from and with: one owner for its two builds, the
wheel's (``setup.py``, which reads this file by its path, so it imports nothing but the standard
library) and the build at first use (attnmt.fast.extension)."""

from __future__ import annotations

import platform
from pathlib import Path

CSRC = Path(__file__).with_name("csrc")
# One extension from seven files: the step, its float32 kernels (AVX2, AVX-512, AMX's bf16 tiles), its
# int8 ones (AMX, AVX512-VNNI, AVX2), the next tokens' choice, and training's dropout and output loss.
SOURCES = [CSRC / name for name in ("decoder_step.cpp", "float_panels.cpp", "split_tiles.cpp", "int8_panels.cpp",
                                    "top_tokens.cpp", "dropout.cpp", "smoothed_loss.cpp")]
HEADERS = [CSRC / name for name in ("amx_tile_model.h", "amx_tiles.h", "bfloat16_io.h", "exp_nonpositive.h",
                                    "fetch_ahead.h", "float_panels.h", "int8_panels.h", "row_blocks.h", "split_tiles.h",
                                    "top_tokens.h")]
NAME = "attnmt_decoder_step"
# -fno-trapping-math lets GCC vectorise the loops with branches and float-to-int conversions (results
# do not change); -fopenmp makes at::parallel_for parallel (libgomp: the one PyTorch has loaded).
FLAGS = ["-O3", "-fno-trapping-math", "-fopenmp"]
# Built for a target, not for the build machine (-march=native): AVX2 + FMA (+ F16C, the float16
# cache's conversions, on every CPU with AVX2), the kernels' floor on x86-64; the AVX-512,
# AVX512-VNNI and AMX kernels are compiled for their own targets beside it (function target
# attributes) and picked at run time (float_panels.cpp: panel_isa; int8_panels.cpp: int8_kernel),
# so one binary serves AVX2, AVX-512 and AMX machines.  Elsewhere the compiler's default target.
X86_TARGET = ["-mavx2", "-mfma", "-mf16c"]
X86_TARGET_CPU_FLAGS = ["avx2", "fma", "f16c"]  # what a CPU needs to run the X86_TARGET build


def x86_64() -> bool:
    """Whether this machine is x86-64, whose compiler takes X86_TARGET."""
    return platform.machine().lower() in ("x86_64", "amd64")
