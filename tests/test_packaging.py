"""attnmt as a package is built: setup.py's choice of compiling the C++ step into the wheel, what
pyproject.toml asks of the build, and what the sdist and the metadata hold.  (tests/install/ builds
and installs the real thing.)"""

from __future__ import annotations

import os
import runpy
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

setuptools = pytest.importorskip("setuptools", reason="building attnmt needs setuptools (pyproject.toml)")
ROOT = Path(__file__).resolve().parents[1]


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def setup_arguments(monkeypatch) -> dict:
    """What setup.py hands setuptools.setup() in this environment (PyTorch importable)."""
    handed = {}
    monkeypatch.setattr(setuptools, "setup", lambda **arguments: handed.update(arguments))
    runpy.run_path(str(ROOT / "setup.py"))
    return handed


def path_with(folder: Path, *programs: str) -> str:
    """A PATH of one folder holding stand-in executables named after programs."""
    folder.mkdir(exist_ok=True)
    for name in programs:
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(stat.S_IRWXU)
    return str(folder)


@pytest.fixture
def build_environment(monkeypatch):
    monkeypatch.delenv("ATTNMT_BUILD_EXT", raising=False)
    monkeypatch.delenv("CXX", raising=False)


@pytest.mark.usefixtures("build_environment")
def test_without_a_compiler_setup_builds_the_pure_package_and_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PATH", path_with(tmp_path / "bin"))
    assert setup_arguments(monkeypatch) == {}  # no ext_modules: the step is compiled at first use
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("attnmt: no C++ compiler (")
    assert "ATTNMT_BUILD_EXT=0" in err


@pytest.mark.usefixtures("build_environment")
def test_a_cxx_that_is_not_on_path_counts_as_no_compiler(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PATH", path_with(tmp_path / "bin", "c++", "g++"))
    monkeypatch.setenv("CXX", "clang++-19 -stdlib=libc++")
    assert setup_arguments(monkeypatch) == {}
    assert capsys.readouterr().err.startswith("attnmt: no C++ compiler (clang++-19) on PATH")


@pytest.mark.usefixtures("build_environment")
def test_with_a_compiler_setup_compiles_the_step_into_the_wheel(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", path_with(tmp_path / "bin", "c++", "g++", "clang++"))
    monkeypatch.setattr("sysconfig.get_config_var", lambda name: {"CXX": "g++ -pthread"}.get(name))
    arguments = setup_arguments(monkeypatch)
    assert [step.name for step in arguments["ext_modules"]] == ["attnmt.fast.attnmt_decoder_step"]
    monkeypatch.setenv("CXX", "clang++")  # then CXX alone is looked for
    monkeypatch.setenv("PATH", path_with(tmp_path / "clang", "clang++"))
    assert "ext_modules" in setup_arguments(monkeypatch)


def test_the_build_asks_for_a_setuptools_that_reads_the_spdx_license():
    assert isinstance(pyproject()["project"]["license"], str)  # "MIT": setuptools reads it from 77.0.3 on
    build = [Requirement(line) for line in pyproject()["build-system"]["requires"]]
    setuptools_wanted = next(requirement.specifier for requirement in build if requirement.name == "setuptools")
    assert "77.0.3" in setuptools_wanted and "76.1.0" not in setuptools_wanted


@pytest.fixture(scope="module")
def egg_info(tmp_path_factory) -> Path:
    """setuptools' egg_info for this checkout: SOURCES.txt lists what the sdist holds, PKG-INFO is
    the metadata (a second or so, without building anything)."""
    out = tmp_path_factory.mktemp("egg-info")
    subprocess.run([sys.executable, str(ROOT / "setup.py"), "-q", "egg_info", "--egg-base", str(out)], cwd=ROOT,
                   env={**os.environ, "ATTNMT_BUILD_EXT": "0"}, check=True, capture_output=True)
    return out / "attnmt.egg-info"


def test_the_sdist_holds_the_license_and_no_part_of_the_test_suite(egg_info):
    sources = (egg_info / "SOURCES.txt").read_text().splitlines()
    assert "LICENSE" in sources
    assert "src/attnmt/fast/csrc/decoder_step.cpp" in sources
    assert not [name for name in sources if name.startswith("tests/")]  # MANIFEST.in says why


def test_the_metadata_names_the_license_and_its_file(egg_info):
    metadata = (egg_info / "PKG-INFO").read_text().splitlines()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 the attnmt contributors\n")
