"""``attnmt build-ext``: the C++ step readied ahead of the first translation, or one line saying why not."""

import shutil

import pytest

from attnmt.cli.main import main
from attnmt.fast import extension
from attnmt.fast.packed import packing_available


@pytest.mark.skipif(not packing_available() or shutil.which("c++") is None,
                    reason="no C++ compiler to build the extension, or a PyTorch without oneDNN")
def test_build_ext_leaves_the_step_in_the_cache_and_names_its_file(capsys):
    assert main(["build-ext"]) == 0
    library = extension.build_directory() / f"{extension.NAME}.so"
    assert library.exists()
    assert capsys.readouterr().out.strip().endswith(f"is ready (in attnmt's cache): {library}")


def test_build_ext_without_a_compiler_fails_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path))  # nothing built there
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")  # nor a wheel's build

    def no_compiler(folder):
        raise OSError("c++: not found")

    monkeypatch.setattr(extension, "_build", no_compiler)
    assert main(["build-ext"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("attnmt: error: could not build the C++ step (OSError: c++: not found)")
