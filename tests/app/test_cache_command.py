"""``attnmt cache``: lists the prepared copies and C++ step builds in attnmt's cache, and removes
the stale ones (--prune) or all (--clear); what it removes is prepared again when needed."""

import os
import shutil
import time

import pytest
import torch
from safetensors import safe_open
from support import NEEDS_EXTENSION_BUILD

from attnmt.checkpoint import WEIGHTS, load_model_dir, save_weights
from attnmt.cli.main import main
from attnmt.fast import extension, prepared

pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not extension.available(), reason="the extension cannot be built here"),
]


@pytest.fixture
def filled_cache(trained_model, cache, tmp_path):
    """The cache with a current copy of ``trained_model``, the same copy in an older format, a copy
    whose weights file is gone, and a write left unfinished two hours ago."""
    prepared.load_int8(trained_model)
    (current,) = cache.glob("int8-*.safetensors")
    older = cache / current.name.replace(f"-v{prepared.FORMAT}.", f"-v{prepared.FORMAT - 1}.")
    shutil.copyfile(current, older)
    gone_model = tmp_path / "gone"
    shutil.copytree(trained_model, gone_model)
    model, _ = load_model_dir(gone_model)
    with torch.no_grad():
        model.decoder_layers[0].norm1.bias.add_(1.0)  # other weights: another copy
    save_weights(model, gone_model / WEIGHTS)
    prepared.load_int8(gone_model)
    orphan = next(path for path in cache.glob("int8-*.safetensors") if path not in (current, older))
    shutil.rmtree(gone_model)
    unfinished = cache / f".{current.name}.ab12cd34"
    unfinished.write_bytes(b"0" * 100)
    two_hours_ago = time.time() - 7200
    os.utime(unfinished, (two_hours_ago, two_hours_ago))
    return current, older, orphan, unfinished


def test_the_listing_shows_each_copy_its_source_and_why_it_is_stale(filled_cache, trained_model, capsys):
    current, older, orphan, unfinished = filled_cache
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert f"from {(trained_model / WEIGHTS).resolve()}" in out
    assert f"stale: format {prepared.FORMAT - 1}: this attnmt reads format {prepared.FORMAT}" in out
    assert "model.safetensors is gone" in out
    assert "prepared copies: 3" in out and "writes that never finished: 1" in out
    assert "'attnmt cache --prune' removes the 3 stale files" in out


def test_prune_removes_the_stale_files_and_keeps_the_copy_in_use(filled_cache, trained_model, capsys, monkeypatch):
    current, older, orphan, unfinished = filled_cache
    assert main(["cache", "--prune"]) == 0
    out = capsys.readouterr().out
    assert current.exists() and not any(path.exists() for path in (older, orphan, unfinished))
    assert out.count("removed ") == 3 and "a write that never finished" in out
    monkeypatch.setattr(prepared, "prepare", lambda *args, **kwargs: pytest.fail("prepared again"))
    prepared.load_int8(trained_model)  # the kept copy is still read
    with safe_open(str(current), framework="pt") as file:
        assert file.metadata()["source"] == str((trained_model / WEIGHTS).resolve())


def test_clear_removes_every_copy_and_they_are_prepared_again(filled_cache, trained_model, cache, capsys):
    assert main(["cache", "--clear"]) == 0
    assert "removed 3 prepared copies" in capsys.readouterr().out
    assert not list(cache.glob("*.safetensors")) and not list(cache.glob(".*"))
    prepared.load_int8(trained_model)
    assert len(list(cache.glob("int8-*.safetensors"))) == 1


def test_an_empty_cache_lists_nothing_and_prunes_nothing(cache, capsys):
    assert main(["cache"]) == 0
    assert "prepared copies: 0, 0 B" in capsys.readouterr().out
    assert main(["cache", "--prune"]) == 0
    assert "freed 0 B" in capsys.readouterr().out
