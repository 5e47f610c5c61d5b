"""What attnmt keeps in its cache and which of it is stale (attnmt.fast.cache_contents): copies
written here by hand, named and headed as attnmt.fast.prepared writes them."""

import os
import time
from pathlib import Path

import torch
from safetensors.torch import save_file

from attnmt.fast import cache_contents as contents
from attnmt.files import file_digest

KERNELS = "vnni-chosen-3989514b133f"


def weights_file(folder: Path, value: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    save_file({"w": torch.full((4,), value)}, str(folder / "model.safetensors"))
    return folder / "model.safetensors"


def copy_of(folder: Path, source: Path | None, *, digest: str | None = None, config: str = "c" * 16,
            kernels: str = KERNELS, version: int = 6, precision: str = "int8") -> Path:
    """A prepared copy's file for ``source`` (its weights' digest unless ``digest`` is given)."""
    digest = digest or file_digest(source)[:32]
    path = folder / f"{precision}-{digest}-{config}-{kernels}-v{version}.safetensors"
    folder.mkdir(parents=True, exist_ok=True)
    save_file({"x": torch.zeros(8)}, str(path), metadata={"source": str(source.resolve())} if source else None)
    return path


def test_a_copy_is_read_from_its_name_and_header(tmp_path, cache):
    source = weights_file(tmp_path / "model", 1.0)
    path = copy_of(cache, source)
    copy = contents.PreparedCopy.read(path)
    assert (copy.precision, copy.kernels, copy.format) == ("int8", KERNELS, 6)
    assert copy.weights_digest == file_digest(source)[:32] and copy.source == str(source.resolve())
    assert copy.size == path.stat().st_size
    assert contents.PreparedCopy.read(cache / "digests") is None
    (cache / "int8-broken-v6.safetensors").write_bytes(b"\xff" * 4)
    assert [c.path for c in contents.prepared_copies(cache)] == [path]  # a name not ours is not listed


def test_a_copy_without_a_readable_header_has_no_source(tmp_path, cache):
    source = weights_file(tmp_path / "model", 1.0)
    path = copy_of(cache, source)
    path.write_bytes(b"\x00" * 16)  # damaged
    assert contents.PreparedCopy.read(path).source is None
    assert contents.stale_reason(contents.PreparedCopy.read(path), 6) is None  # kept: whose it is is unknown


def test_stale_means_an_older_format_or_a_source_gone_or_rewritten(tmp_path, cache):
    source = weights_file(tmp_path / "model", 1.0)
    current, older, newer = (contents.PreparedCopy.read(copy_of(cache, source, version=v)) for v in (6, 5, 7))
    unrecorded = contents.PreparedCopy.read(copy_of(cache, None, digest="d" * 32))
    assert contents.stale_reason(current, 6) is None
    assert contents.stale_reason(older, 6) == "format 5: this attnmt reads format 6"
    assert contents.stale_reason(newer, 6) is None  # a newer attnmt's, sharing the cache
    assert contents.stale_reason(unrecorded, 6) is None
    time.sleep(0.01)
    weights_file(tmp_path / "model", 2.0)
    assert contents.stale_reason(current, 6) == f"{source.resolve()} now holds other weights"
    source.unlink()
    assert contents.stale_reason(current, 6) == f"{source.resolve()} is gone"


def test_a_written_copy_removes_its_older_formats_and_its_sources_earlier_weights(tmp_path, cache):
    source = weights_file(tmp_path / "model", 1.0)
    older_format = copy_of(cache, None, digest=file_digest(source)[:32], version=5)  # written before sources
    earlier = copy_of(cache, source)
    other_cpu = copy_of(cache, source, kernels="vnni-chosen-000000000000", version=5)
    other_precision = copy_of(cache, source, precision="fp32")
    earlier_other_config = copy_of(cache, source, config="e" * 16)
    other_model = copy_of(cache, weights_file(tmp_path / "other", 3.0))
    time.sleep(0.01)
    weights_file(tmp_path / "model", 2.0)
    other_config = copy_of(cache, source, config="e" * 16)  # two model folders may share a weights file
    written = copy_of(cache, source)
    assert set(contents.remove_superseded(written, source)) == {earlier, earlier_other_config}
    newest = copy_of(cache, source, version=7)
    removed = contents.remove_superseded(newest, tmp_path / "model" / ".." / "model" / "model.safetensors")
    assert removed == [written]
    assert older_format.exists()  # another digest: not this copy's older format
    assert all(path.exists() for path in (other_cpu, other_precision, other_config, other_model, newest))
    again = copy_of(cache, None, digest=file_digest(tmp_path / "other" / "model.safetensors")[:32], version=8)
    assert contents.remove_superseded(again, tmp_path / "other" / "model.safetensors") == [other_model]


def test_writes_left_unfinished_for_an_hour_are_abandoned(cache):
    cache.mkdir(parents=True)
    old, fresh = cache / ".int8-x-v6.safetensors.k2j4_x9a", cache / ".tmpaUhjOL"
    for path in (old, fresh):
        path.write_bytes(b"0" * 10)
    hour_ago = time.time() - 2 * contents.TEMPORARY_AGE_S
    os.utime(old, (hour_ago, hour_ago))
    assert contents.abandoned_writes(cache) == [old]
    assert set(contents.abandoned_writes(cache, now=time.time() + 3 * contents.TEMPORARY_AGE_S)) == {old, fresh}
    (cache / "int8-kept-v6.safetensors").write_bytes(b"0")  # not a temporary name
    os.utime(cache / "int8-kept-v6.safetensors", (hour_ago, hour_ago))
    assert contents.abandoned_writes(cache) == [old]


def test_sizes_read_as_people_read_them():
    assert [contents.human(n) for n in (512, 2_900, 2_900_000, 452_417_536, 6_400_000_000)] == [
        "512 B", "2.9 kB", "2.9 MB", "452 MB", "6.4 GB"]
