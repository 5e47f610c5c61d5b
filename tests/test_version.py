"""The version has one source, ``attnmt.__version__``: the package metadata reads it from there,
and the changelog's newest entry names it."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest

import attnmt

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_reads_the_version_from_the_package():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "attnmt.__version__"}


def test_the_installed_metadata_agrees_with_the_package():
    try:
        installed = importlib.metadata.version("attnmt")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("attnmt is not installed, only on the path")
    assert installed == attnmt.__version__


def test_the_changelogs_newest_version_is_the_packages():
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert versions and versions[0] == attnmt.__version__
