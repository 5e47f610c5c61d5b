"""What attnmt keeps in its cache and which of it is stale (attnmt.fast.cache_contents): copies
written here by hand, named and headed as attnmt.fast.prepared writes them."""

import json
import os
import time
from pathlib import Path

import torch
from safetensors.torch import save_file

from attnmt.fast import cache_contents as contents
from attnmt.fast import extension
from attnmt.files import atomic_file

KERNELS = "vnni-chosen-3989514b133f"
DIGEST = "a" * 32


def copy_of(folder: Path, *, digest: str = DIGEST, config: str = "c" * 16, kernels: str = KERNELS,
            version: int = 7, precision: str = "int8", source: str | None = "/models/a/model.safetensors") -> Path:
    """A prepared copy's file, as attnmt.fast.prepared names and heads one."""
    path = folder / f"{precision}-{digest}-{config}-{kernels}-v{version}.safetensors"
    folder.mkdir(parents=True, exist_ok=True)
    save_file({"x": torch.zeros(8)}, str(path), metadata={"source": source} if source else None)
    return path


def header_file(path: Path, header) -> Path:
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text)
    return path


def test_a_copy_is_read_from_its_name_header_and_times(cache):
    path = copy_of(cache)
    os.utime(path, (1_000_000.0, 1_000_000.0))
    copy = contents.PreparedCopy.read(path)
    assert (copy.precision, copy.weights_digest, copy.kernels, copy.format) == ("int8", DIGEST, KERNELS, 7)
    assert copy.source == "/models/a/model.safetensors" and copy.size == path.stat().st_size
    assert copy.last_read == 1_000_000.0
    (cache / "int8-broken-v7.safetensors").write_bytes(b"\xff" * 4)  # not a copy's name
    folder = cache / f"fp32-{DIGEST}-{'c' * 16}-chosen-{'d' * 12}-v7.safetensors"
    folder.mkdir()  # a copy's name, but a folder
    (cache / f"fp32-{DIGEST}-{'c' * 16}-chosen-{'e' * 12}-v7.safetensors").symlink_to(path)  # a link, not ours
    assert [c.path for c in contents.prepared_copies(cache)] == [path]


def test_a_header_that_is_damaged_or_of_another_shape_records_no_source(cache):
    path = copy_of(cache)
    for header in ([1], {"__metadata__": {"source": 5}}, {"__metadata__": [1]}, {"__metadata__": {}}):
        assert contents.PreparedCopy.read(header_file(path, header)).source is None
    path.write_bytes(b"\x00" * 16)
    assert contents.PreparedCopy.read(path).source is None
    path.write_bytes(b"\x07")
    assert contents.PreparedCopy.read(path).source is None


def test_stale_means_an_older_format_or_with_unused_days_a_copy_not_read_for_that_long(cache):
    now = 10_000_000.0
    current, older, newer = (contents.PreparedCopy.read(copy_of(cache, version=v)) for v in (7, 6, 8))
    assert contents.stale_reason(current, 7, now=now) is None
    assert contents.stale_reason(older, 7, now=now) == "format 6: this attnmt reads format 7"
    assert contents.stale_reason(newer, 7, now=now) is None  # a newer attnmt's, sharing the cache
    os.utime(current.path, (now - 40 * contents.DAY_S, now - 40 * contents.DAY_S))
    unread = contents.PreparedCopy.read(current.path)
    assert contents.stale_reason(unread, 7, now=now) is None  # without unused_days, never for its age
    assert contents.stale_reason(unread, 7, unused_days=30, now=now) == "not read for 40 days"
    assert contents.stale_reason(unread, 7, unused_days=41, now=now) is None
    half_day = contents.PreparedCopy.read(current.path)
    assert contents.stale_reason(half_day, 7, unused_days=0.5, now=half_day.last_read + 0.75 * contents.DAY_S) == (
        "not read for 0.8 days")
    assert contents.days_ago(now + contents.DAY_S, now) == 0  # a time ahead of this clock: read today


def test_a_load_marks_its_copy_read_beside_it_at_most_once_an_hour_and_never_writes_the_copy(cache):
    path = copy_of(cache)
    os.utime(path, (1_000_000.0, 1_000_000.0))
    now = float(int(time.time()))  # whole seconds: exact on file systems of coarse times too
    contents.mark_read(path, now)
    marker = cache / "reads" / path.name
    assert marker.stat().st_mtime == now and path.stat().st_mtime == 1_000_000.0
    assert contents.PreparedCopy.read(path).last_read == now
    contents.mark_read(path, now + 60)  # within the hour: not written again
    assert marker.stat().st_mtime == now
    contents.mark_read(path, now + 2 * contents.MARK_EVERY_S)
    assert marker.stat().st_mtime == now + 2 * contents.MARK_EVERY_S
    orphan = cache / "reads" / f"int8-{'b' * 32}-{'c' * 16}-{KERNELS}-v7.safetensors"  # its copy is gone
    orphan.write_text("")
    (cache / "reads" / "notes.txt").write_text("not a marker")
    assert contents.markers(cache) == sorted([marker, orphan]) and contents.orphan_markers(cache) == [orphan]


def test_a_cache_that_may_not_be_written_marks_nothing_and_raises_nothing(tmp_path):
    blocker = tmp_path / "reads"
    blocker.write_text("a file where the folder would be")
    contents.mark_read(tmp_path / f"int8-{DIGEST}-{'c' * 16}-{KERNELS}-v7.safetensors")
    assert blocker.read_text() == "a file where the folder would be"


def test_a_written_copy_removes_only_the_same_copy_in_older_formats(cache):
    older = [copy_of(cache, version=v) for v in (5, 6)]
    kept = [
        copy_of(cache, version=8),  # a newer attnmt's
        copy_of(cache, version=6, kernels="vnni-chosen-000000000000"),  # another CPU's
        copy_of(cache, version=6, kernels="avx2-chosen-3989514b133f"),  # another int8 kernel
        copy_of(cache, version=6, precision="fp32", kernels="chosen-3989514b133f"),
        copy_of(cache, version=6, config="e" * 16),
        copy_of(cache, version=6, digest="b" * 32),  # other weights
    ]
    for path in older:
        contents.mark_read(path)
    written = copy_of(cache, version=7)
    assert sorted(contents.remove_older_formats(written)) == sorted(older)
    assert contents.markers(cache) == []  # their read markers went with them
    assert all(path.exists() for path in [*kept, written]) and not any(path.exists() for path in older)
    assert contents.remove_older_formats(cache / "not-a-copy.safetensors") == []


def test_removing_older_formats_goes_on_past_a_copy_it_may_not_remove(cache, monkeypatch):
    refused, removable = copy_of(cache, version=5), copy_of(cache, version=6)
    unlink = Path.unlink

    def refuse(path, missing_ok=False):
        if path == refused:
            raise PermissionError(13, "Permission denied")
        unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", refuse)
    assert contents.remove_older_formats(copy_of(cache, version=7)) == [removable]
    assert refused.exists() and not removable.exists()


def test_the_temporary_name_a_copys_write_goes_through_is_one_an_unfinished_write_has(cache):
    name = f"int8-{DIGEST}-{'c' * 16}-{KERNELS}-v7.safetensors"
    with atomic_file(cache / name) as tmp:
        assert contents.UNFINISHED.match(tmp.name)
        save_file({"x": torch.zeros(2)}, str(tmp))  # safetensors may write through a ".tmpXXXXXX" of its own
    assert not contents.UNFINISHED.match(name) and not contents.UNFINISHED.match(".env.override")


def test_only_attnmts_own_writes_left_for_an_hour_are_unfinished(cache):
    cache.mkdir(parents=True)
    name = f"int8-{DIGEST}-{'c' * 16}-{KERNELS}-v7.safetensors"
    ours = [cache / f".{name}.k2j4_x9a", cache / ".tmpaUhjOL"]
    fresh = cache / f".{name}.zz99_a1b"
    not_ours = [cache / ".env.override", cache / ".bashrc.backup01", cache / name]
    for path in [*ours, fresh, *not_ours]:
        path.write_bytes(b"0" * 10)
    (cache / f".{name}.dir12345").mkdir()  # a folder: not a write of ours
    hour_ago = time.time() - 2 * contents.TEMPORARY_AGE_S
    for path in [*ours, *not_ours, cache / f".{name}.dir12345"]:
        os.utime(path, (hour_ago, hour_ago))
    assert contents.unfinished_writes(cache) == sorted(ours)


def test_a_build_record_cut_short_and_left_for_an_hour_is_unfinished(tmp_path):
    """A kill while a build wrote its record (extension.BUILT) left the temporary file, which
    ``attnmt cache`` neither listed nor removed."""
    build = tmp_path / "attnmt_decoder_step-0123456789abcdef"
    build.mkdir()
    with atomic_file(build / extension.BUILT) as tmp:  # the name record_finished writes through
        cut = build / tmp.name
        cut.write_text("{")
        fresh = build / f".{extension.BUILT}.zz99_a1b"
        fresh.write_text("{")
        hour_ago = time.time() - 2 * contents.TEMPORARY_AGE_S
        os.utime(cut, (hour_ago, hour_ago))
        assert contents.unfinished_records(tmp_path) == [cut]  # one still being written is left


def test_builds_and_memos_are_known_by_their_names(tmp_path):
    build, other = tmp_path / "attnmt_decoder_step-0123456789abcdef", tmp_path / "attnmt_decoder_step-userdata"
    for folder in (build, other):
        folder.mkdir()
    (tmp_path / "attnmt_decoder_step-fedcba9876543210").symlink_to(build)
    (build / "attnmt_decoder_step.so").write_bytes(b"0" * 3000)
    assert contents.builds(tmp_path) == [build] and contents.size_of(build) == 3000
    assert contents.BUILD.match(extension.build_directory().name)  # the name the extension really builds into
    (build / "sub" / "deeper").mkdir(parents=True)
    (build / "sub" / "x.o").write_bytes(b"0" * 100)
    (build / "sub" / "deeper" / "y.o").write_bytes(b"0" * 10)
    (build / "link.so").symlink_to(build / "sub" / "x.o")
    assert contents.size_of(build) == 3110  # each file once, the link nothing
    (tmp_path / "elsewhere.so").hardlink_to(build / "attnmt_decoder_step.so")
    assert contents.size_of(build) == 110  # removing it frees nothing of the hard-linked file
    (tmp_path / "prepared" / "digests").mkdir(parents=True)
    memo = tmp_path / "prepared" / "digests" / ("f" * 32)
    memo.write_text("digest")
    (tmp_path / "prepared" / "digests" / "notes.txt").write_text("mine")
    assert contents.memos(tmp_path / "prepared") == [memo]
    assert contents.size_of(tmp_path / "gone") == 0


def test_sizes_and_counts_read_as_people_read_them():
    assert [contents.human(n) for n in (512, 2_900, 999_999, 2_900_000, 9_999_999, 452_417_536, 6_400_000_000)] == [
        "512 B", "2.9 kB", "1.0 MB", "2.9 MB", "10 MB", "452 MB", "6.4 GB"]
    assert [contents.counted(n, "prepared copy") for n in (0, 1, 2)] == [
        "0 prepared copies", "1 prepared copy", "2 prepared copies"]
    assert [contents.counted(n, "day") for n in (1, 40)] == ["1 day", "40 days"]
    assert contents.counted(3, "stale file") == "3 stale files"
