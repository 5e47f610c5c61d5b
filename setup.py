"""Builds attnmt's wheel with its C++ step compiled in (attnmt.fast.extension), for the PyTorch this
build imports: ``python -m build --wheel --no-isolation`` in an environment with PyTorch, a C++
compiler and ninja.  Where PyTorch is not importable (pip's isolated builds: ``pip install .``,
``pip install -e .``, the sdist), where no C++ compiler is on PATH, in an editable install, or with
``ATTNMT_BUILD_EXT=0``, the package is built without it and compiles it at its first translation.
Everything else about the package is in pyproject.toml."""

import importlib.util
import json
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
PREBUILT = "prebuilt.json"  # attnmt.fast.extension.PREBUILT


def sources():
    """attnmt/fast/sources.py, read by its path: importing the package would import its dependencies."""
    spec = importlib.util.spec_from_file_location("attnmt_sources", HERE / "src/attnmt/fast/sources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def missing_compiler() -> str | None:
    """The C++ compiler this build would run where PATH lacks it; None where it has each one.  CXX
    where it is set; otherwise setuptools links (and PyTorch checks its ABI) with Python's own C++
    compiler (sysconfig's CXX, often g++) and PyTorch's ninja build compiles with c++."""
    commands = [os.environ["CXX"]] if os.environ.get("CXX") else [sysconfig.get_config_var("CXX") or "c++", "c++"]
    for command in commands:
        program = shlex.split(command)[0]
        if shutil.which(program) is None:
            return program
    return None


def compiled_step():
    """setup()'s ext_modules and cmdclass for the C++ step; none where it is left to first use."""
    if os.environ.get("ATTNMT_BUILD_EXT", "1") == "0":
        return {}
    try:
        import torch
        from torch.utils.cpp_extension import BuildExtension, CppExtension
    except ImportError:
        print("attnmt: PyTorch is not importable in this build environment, so the C++ step is compiled at "
              "first use; 'python -m build --wheel --no-isolation' compiles it into the wheel", file=sys.stderr)
        return {}
    compiler = missing_compiler()
    if compiler is not None:
        print(f"attnmt: no C++ compiler ({compiler}) on PATH, so the package is built without the C++ step: it is "
              "compiled at first use where there is a compiler, else attnmt translates in Python "
              "(ATTNMT_BUILD_EXT=0 skips this check)", file=sys.stderr)
        return {}
    s = sources()
    target = s.X86_TARGET if s.x86_64() else []

    class BuildStep(BuildExtension):
        """BuildExtension, but not for an editable install (the step is compiled at first use there,
        needing no compiler to install), and writing beside the library what it was built for."""

        def run(self):
            if getattr(self, "editable_mode", False) or self.inplace:
                print("attnmt: an editable install compiles the C++ step at first use", file=sys.stderr)
                return
            super().run()
            library = Path(self.get_ext_fullpath(step.name))
            built = {"library": library.name, "torch": torch.__version__,
                     "cpu_flags": s.X86_TARGET_CPU_FLAGS if target else []}
            library.with_name(PREBUILT).write_text(json.dumps(built, indent=1) + "\n")

        def get_outputs(self):
            library = Path(self.get_ext_fullpath(step.name))
            return [*super().get_outputs(), str(library.with_name(PREBUILT))]

    # Python's CFLAGS come first; -g0 and -fno-wrapv undo its -g and -fwrapv, so the code compiled is
    # the build at first use's (no debugging information, signed overflow left undefined).
    step = CppExtension(f"attnmt.fast.{s.NAME}", [str(path.relative_to(HERE)) for path in s.SOURCES],
                        extra_compile_args=[*s.FLAGS, *target, "-g0", "-fno-wrapv"], extra_link_args=["-fopenmp"])
    return {"ext_modules": [step], "cmdclass": {"build_ext": BuildStep}}


setup(**compiled_step())
