"""``attnmt cache``: lists the prepared copies and C++ step builds in attnmt's cache, and removes
the stale ones (--prune, --unused-days) or all (--clear); what it removes is made again when
needed, and nothing that is not attnmt's is touched."""

import os
import shutil
import time

import pytest
import torch
from support import NEEDS_EXTENSION_BUILD

from attnmt.checkpoint import WEIGHTS
from attnmt.cli.main import main
from attnmt.fast import cache_contents, extension, prepared, prepared_file
from attnmt.fast.cache_contents import human

pytestmark = [
    *NEEDS_EXTENSION_BUILD,
    pytest.mark.skipif(not extension.available(), reason="the extension cannot be built here"),
]
DAY = 86400.0


@pytest.fixture
def filled_cache(trained_model, cache):
    """The cache with: the current copy of ``trained_model``; the same copy in an older format; a
    copy of other weights no load has read for 40 days; a write cut short two hours ago; two
    builds; and files of the user's that only look like attnmt's."""
    prepared.load_int8(trained_model)
    (current,) = cache.glob("int8-*.safetensors")
    older = cache / current.name.replace(f"-v{prepared_file.FORMAT}.", f"-v{prepared_file.FORMAT - 1}.")
    unread = cache / current.name.replace(current.name.split("-")[1], "0" * 32)
    for path in (older, unread):
        shutil.copyfile(current, path)
    unfinished, dotfile = cache / f".{current.name}.ab12cd34", cache / ".env.override"
    for path in (unfinished, dotfile):
        path.write_bytes(b"0" * 5000)
    for path, age in ((unread, 40 * DAY), (unfinished, 7200.0), (dotfile, 7200.0)):
        os.utime(path, (time.time() - age, time.time() - age))
    root = cache.parent
    for name in ("attnmt_decoder_step-0123456789abcdef", "attnmt_decoder_step-fedcba9876543210",
                 "attnmt_decoder_step-userdata"):
        (root / name).mkdir()
        (root / name / "attnmt_decoder_step.so").write_bytes(b"0" * 1000)
    return current, older, unread, unfinished, dotfile


def test_the_listing_shows_each_copy_its_source_when_it_was_read_and_why_it_is_stale(filled_cache, trained_model,
                                                                                      capsys):
    current, older, unread, unfinished, dotfile = filled_cache
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert f"read today        from {(trained_model / WEIGHTS).resolve()}" in out
    assert f"stale: format {prepared_file.FORMAT - 1}: this attnmt reads format {prepared_file.FORMAT}" in out
    assert "read 40 days ago" in out and "prepared copies: 3" in out
    assert "C++ step builds: 2, 2.0 kB" in out and "writes that never finished: 1, 5.0 kB" in out
    assert f"'attnmt cache --prune' removes 2 stale files ({human(older.stat().st_size + 5000)})" in out


def test_prune_removes_older_formats_and_unfinished_writes_and_says_what_it_freed(filled_cache, trained_model,
                                                                                  capsys, monkeypatch):
    current, older, unread, unfinished, dotfile = filled_cache
    freed = older.stat().st_size + 5000
    assert main(["cache", "--prune"]) == 0
    out = capsys.readouterr().out
    assert not older.exists() and not unfinished.exists()
    assert current.exists() and unread.exists() and dotfile.exists()
    assert out.count("removed ") == 2 and "a write that never finished" in out and f"freed {human(freed)}" in out
    monkeypatch.setattr(prepared, "prepare", lambda *args, **kwargs: pytest.fail("prepared again"))
    prepared.load_int8(trained_model)  # the kept copy is still read


def test_prune_removes_a_build_record_whose_write_was_cut_short(cache, capsys):
    """A kill while a build wrote built.json left ".built.json.XXXXXXXX", which the listing and
    --prune did not see."""
    build = cache.parent / "attnmt_decoder_step-0123456789abcdef"
    build.mkdir(parents=True)
    (build / extension.BUILT).write_text("{}")
    cut, fresh = build / f".{extension.BUILT}.ab12cd34", build / f".{extension.BUILT}.x9y8z7w6"
    for path in (cut, fresh):
        path.write_bytes(b"0" * 50)
    os.utime(cut, (time.time() - 7200.0, time.time() - 7200.0))
    assert main(["cache"]) == 0
    assert "writes that never finished: 1, 50 B" in capsys.readouterr().out
    assert main(["cache", "--prune"]) == 0
    out = capsys.readouterr().out
    assert not cut.exists() and fresh.exists() and (build / extension.BUILT).exists()  # fresh: still being written
    assert f"50 B  .{extension.BUILT}.ab12cd34: a write that never finished" in out


def test_prune_with_unused_days_removes_the_copies_no_load_read_for_that_long(filled_cache, cache, capsys):
    current, older, unread, unfinished, dotfile = filled_cache
    (cache / "reads").mkdir(exist_ok=True)
    (cache / "reads" / unread.name).write_text("")  # marked read once, 40 days ago
    os.utime(cache / "reads" / unread.name, (time.time() - 40 * DAY, time.time() - 40 * DAY))
    assert main(["cache", "--prune", "--unused-days", "30"]) == 0
    assert "not read for 40 days" in capsys.readouterr().out
    assert current.exists() and not unread.exists() and not older.exists() and dotfile.exists()
    assert not (cache / "reads" / unread.name).exists()  # its marker went with it


def test_loading_a_copy_marks_it_read_and_leaves_the_copy_untouched(trained_model, cache, capsys):
    prepared.load_int8(trained_model)
    (copy,) = cache.glob("int8-*.safetensors")
    forty_days_ago = float(int(time.time() - 40 * DAY))  # whole seconds: exact on coarse file systems
    os.utime(copy, (forty_days_ago, forty_days_ago))
    prepared.load_int8(trained_model)
    assert copy.stat().st_mtime == forty_days_ago and (cache / "reads" / copy.name).is_file()
    assert main(["cache", "--prune", "--unused-days", "30"]) == 0
    assert copy.exists()  # read today, though written 40 days ago
    capsys.readouterr()
    assert main(["cache"]) == 0
    assert "read today" in capsys.readouterr().out


def test_clear_removes_every_copy_and_build_and_they_are_made_again(filled_cache, trained_model, cache, capsys):
    current, older, unread, unfinished, dotfile = filled_cache
    prepared.load_int8(trained_model)  # marks the current copy read
    assert (cache / "reads" / current.name).is_file()
    assert main(["cache", "--clear"]) == 0
    assert "removed 3 prepared copies and 2 C++ step builds" in capsys.readouterr().out
    assert not list(cache.glob("*.safetensors")) and not unfinished.exists()
    assert not list((cache / "reads").iterdir())
    assert not list((cache / "digests").glob("*")) and dotfile.exists()
    assert [path.name for path in cache.parent.glob("attnmt_decoder_step-*")] == ["attnmt_decoder_step-userdata"]
    prepared.load_int8(trained_model)
    assert len(list(cache.glob("int8-*.safetensors"))) == 1


def test_a_file_that_cannot_be_removed_is_one_line_and_the_rest_are_removed(filled_cache, capsys, monkeypatch):
    current, older, unread, unfinished, dotfile = filled_cache
    remove = cache_contents.remove

    def refuse_older(path):
        if path == older:
            raise PermissionError(13, "Permission denied")
        remove(path)

    monkeypatch.setattr(cache_contents, "remove", refuse_older)
    assert main(["cache", "--prune"]) == 1
    said = capsys.readouterr()
    assert f"attnmt: could not remove {older}: Permission denied" in said.err and "freed 5.0 kB" in said.out
    assert "could not remove" not in said.out
    assert older.exists() and not unfinished.exists()


def test_an_unreadable_cache_is_one_line_and_doctor_still_answers(cache, capsys, monkeypatch):
    cache.mkdir(parents=True)

    def unreadable(folder):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cache_contents, "prepared_copies", unreadable)
    assert main(["cache"]) == 2
    assert f"cannot read attnmt's cache {cache.parent}: Permission denied" in capsys.readouterr().err
    assert main(["doctor", "--threads", "1"]) == 0
    assert "its prepared copies unreadable (Permission denied)" in capsys.readouterr().out


def test_unused_days_needs_prune(cache, capsys):
    assert main(["cache", "--unused-days", "3"]) == 2
    assert "--unused-days goes with --prune" in capsys.readouterr().err


@pytest.mark.parametrize("value, message", [
    ("nan", "expected a whole number >= 1, got 'nan'"),
    ("1.5", "expected a whole number >= 1, got '1.5'"),
    ("0.5", "expected a whole number >= 1, got '0.5'"),
    ("0", "must be at least 1, got 0"),
])
def test_unused_days_is_a_whole_number_of_days_from_one(cache, capsys, value, message):
    """nan was taken and pruned nothing, 1.5 was taken, and 0 was refused as "not 0.0"."""
    with pytest.raises(SystemExit) as stopped:
        main(["cache", "--prune", "--unused-days", value])
    assert stopped.value.code == 2
    assert f"argument --unused-days: {message}" in capsys.readouterr().err


def test_clearing_an_empty_cache_says_so_in_one_line(cache, capsys):
    assert main(["cache", "--clear"]) == 0
    assert capsys.readouterr().out.strip().endswith("removed 0 prepared copies and 0 C++ step builds from "
                                                      f"{cache.parent}, 0 B")


def test_the_listing_says_whether_the_folder_is_the_default_or_attnmt_cache(cache, capsys, monkeypatch, tmp_path):
    assert main(["cache"]) == 0
    assert f"attnmt's cache: {cache.parent} ($ATTNMT_CACHE)" in capsys.readouterr().out
    monkeypatch.delenv("ATTNMT_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert main(["cache"]) == 0
    assert f"attnmt's cache: {tmp_path / 'home' / '.cache' / 'attnmt'} (the default)" in capsys.readouterr().out


def test_a_cache_that_is_a_file_is_one_line_and_the_file_is_left_alone(cache, capsys, monkeypatch, tmp_path):
    typo = tmp_path / "three.en"
    typo.write_text("A dog runs.\n")
    monkeypatch.setenv("ATTNMT_CACHE", str(typo))
    for command in (["cache"], ["cache", "--clear"], ["cache", "--prune"]):
        assert main(command) == 2
        assert f"attnmt's cache {typo} ($ATTNMT_CACHE) is not a folder" in capsys.readouterr().err
    assert typo.read_text() == "A dog runs.\n"


def test_the_listing_says_which_float32_copies_attnmt_float32_kernel_set(trained_model, cache, monkeypatch, capsys):
    """Each setting is a copy of its own, untimed; the listing showed the three alike."""
    if not torch.ops.attnmt.panels_available():
        pytest.skip("no float32 panel kernels here: no copy is stored")
    for kernel in ("", "panels", "onednn"):
        monkeypatch.setenv("ATTNMT_FLOAT32_KERNEL", kernel)
        prepared.load_packed(trained_model)
    assert main(["cache"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " fp32 v" in line]
    assert len(lines) == 3 and all("this CPU" in line for line in lines)
    assert sorted(line.rpartition(")")[0].rpartition("(")[2] if line.endswith(")") else "timed" for line in lines) \
        == ["ATTNMT_FLOAT32_KERNEL=onednn", "ATTNMT_FLOAT32_KERNEL=panels", "timed"]
