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


def a_cache_and_a_stand_in_compiler(monkeypatch, tmp_path) -> None:
    """An empty cache in ``tmp_path``, no wheel's step, and on PATH alone a c++ that is never run."""
    monkeypatch.setenv("ATTNMT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(extension, "PREBUILT", tmp_path / "prebuilt.json")
    monkeypatch.setattr(extension, "check_operators", lambda: None)
    monkeypatch.delenv("CXX", raising=False)
    (tmp_path / "c++").write_text("#!/bin/sh\nexit 1\n")  # a stand-in compiler, never run
    (tmp_path / "c++").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))


def test_build_ext_tries_again_the_build_that_failed_at_a_translation(monkeypatch, tmp_path, capsys):
    from torch.utils import cpp_extension

    a_cache_and_a_stand_in_compiler(monkeypatch, tmp_path)
    failed = extension.build_directory() / extension.FAILED_BUILD
    failed.parent.mkdir(parents=True)
    failed.write_text(f"{extension.compiler_identity()}\nRuntimeError: Error building extension\n")
    builds = []

    def failing_build(**arguments):
        builds.append(arguments)
        raise RuntimeError("Error building extension 'attnmt_decoder_step'\nFAILED: top_tokens.o")

    monkeypatch.setattr(cpp_extension, "load", failing_build)
    assert main(["build-ext"]) == 2
    assert len(builds) == 1
    err = capsys.readouterr().err
    assert f"could not build the C++ step (RuntimeError: its build failed (the compiler's messages: {failed}))" in err
    assert err.count("\n") == 2  # "building … once", then the error


def test_build_ext_with_a_cache_that_is_a_file_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    """It said '[Errno 20] Not a directory: …/failed-build.txt'."""
    typo = tmp_path / "three.en"
    typo.write_text("A dog runs.\n")
    monkeypatch.setenv("ATTNMT_CACHE", str(typo))
    assert main(["build-ext"]) == 2
    err = capsys.readouterr().err
    assert err == f"attnmt: error: attnmt's cache {typo} ($ATTNMT_CACHE) is not a folder\n"
    assert typo.read_text() == "A dog runs.\n"


def test_build_ext_with_a_cache_under_a_file_says_so_in_one_line(monkeypatch, tmp_path, capsys):
    """ATTNMT_CACHE=file/sub passed the check (nothing there) and failed on '[Errno 20] Not a directory'."""
    typo = tmp_path / "three.en"
    typo.write_text("A dog runs.\n")
    monkeypatch.setenv("ATTNMT_CACHE", str(typo / "sub"))
    assert main(["build-ext"]) == 2
    err = capsys.readouterr().err
    assert err == f"attnmt: error: attnmt's cache {typo / 'sub'} ($ATTNMT_CACHE) cannot be a folder: {typo} is a file\n"


def test_build_ext_with_home_a_file_and_no_attnmt_cache_blames_the_default(monkeypatch, tmp_path, capsys):
    """It blamed $ATTNMT_CACHE, which was not set."""
    home = tmp_path / "home"
    home.write_text("")
    monkeypatch.delenv("ATTNMT_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(home))
    assert main(["build-ext"]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: attnmt's cache {home / '.cache' / 'attnmt'} (the default; "
                                       f"ATTNMT_CACHE names another) cannot be a folder: {home} is a file\n")


def test_build_ext_builds_again_a_library_whose_build_did_not_finish(monkeypatch, tmp_path, capsys):
    """A build killed while linking left a cut-short library; build-ext failed on it instead of building."""
    import torch
    from torch.utils import cpp_extension

    a_cache_and_a_stand_in_compiler(monkeypatch, tmp_path)
    library = extension.build_directory() / f"{extension.NAME}.so"
    library.parent.mkdir(parents=True)
    library.write_bytes(b"\x7fELF cut")  # what the killed link left
    builds = []

    def build(**arguments):
        assert not library.exists()  # linked again, not taken as up to date
        builds.append(arguments)
        library.write_bytes(b"\x7fELF whole library")

    monkeypatch.setattr(cpp_extension, "load", build)
    monkeypatch.setattr(torch.ops, "load_library", lambda path: None)
    assert main(["build-ext"]) == 0
    assert len(builds) == 1
    assert extension.finished(library)
    assert capsys.readouterr().out.strip().endswith(f"is ready (in attnmt's cache): {library}")
