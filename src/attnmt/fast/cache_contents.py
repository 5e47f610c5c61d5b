"""What attnmt keeps in its cache (``$ATTNMT_CACHE``, default ``~/.cache/attnmt``), which of it is
stale, and removing that: ``attnmt cache``.

The cache holds the C++ step's builds (a few MB each, one per source, PyTorch and target) and the
prepared inference copies (attnmt.fast.prepared: at OPUS-MT's size 120 MB int8 and 450 MB float32
each).  A copy is named by its weights' and config's digests, the kernels it was timed for and its
format's version, so nothing ever reads a stale one; but nothing read it again either, and each
upgrade of attnmt that changed the format, and each retraining of a model translated from the same
path, left a whole copy behind.  So:

- a copy records the weights file it was prepared from (``source``, in its metadata);
- writing a copy deletes the ones it supersedes (``remove_superseded``): this copy in an older
  format (same weights, config and kernels), and copies prepared from the same weights file when
  it held other weights;
- ``stale_reason`` says why a copy will not be read again, where that can be known: an older
  format, or a source file that is gone or now holds other weights (copies written before sources
  were recorded are kept: they may be some other model's).  A newer format's copy belongs to a
  newer attnmt sharing the cache, and a copy for another CPU to another machine sharing it: both
  are kept.

Every file here is rebuilt on demand, so removing one never loses work: the next start that needs
it prepares it again (seconds at OPUS-MT's size; a build of the C++ step, about 30 s).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from attnmt.files import TEMPORARY, file_digest

# attnmt.fast.prepared.prepared_path's names, e.g. "int8-<sha256[:32]>-<config[:16]>-vnni-chosen-<cpu>-v7.safetensors"
PREPARED = re.compile(r"^(?P<precision>int8|fp32)-(?P<weights>[0-9a-f]{32})-(?P<config>[0-9a-f]{16})-"
                      r"(?P<kernels>[a-z0-9-]+)-v(?P<format>\d+)\.safetensors$")
BUILD_PREFIX = "attnmt_decoder_step-"  # attnmt.fast.extension.build_directory's folders
TEMPORARY_AGE_S = 3600.0  # a write in progress touches its file far more often than this


@dataclass(frozen=True)
class PreparedCopy:
    """One prepared inference copy in the cache, read from its name and its header."""

    path: Path
    precision: str  # "int8" or "fp32"
    weights_digest: str  # the first 32 hex digits of the weights file's sha256
    config_digest: str
    kernels: str  # the kernels and CPU it was timed for, e.g. "vnni-chosen-3989514b133f"
    format: int
    source: str | None  # the weights file it was prepared from; None where not recorded
    size: int

    @classmethod
    def read(cls, path: Path) -> PreparedCopy | None:
        """The copy at ``path``, or None where its name is not a prepared copy's."""
        match = PREPARED.match(path.name)
        if match is None:
            return None
        return cls(path, match["precision"], match["weights"], match["config"], match["kernels"],
                   int(match["format"]), recorded_source(path), path.stat().st_size)


def recorded_source(path: Path) -> str | None:
    """The ``source`` a prepared copy's safetensors header records, read without mapping the file;
    None where there is none or the header cannot be read (a damaged file)."""
    try:
        with open(path, "rb") as file:
            length = int.from_bytes(file.read(8), "little")
            if not 0 < length <= 100_000_000:
                return None
            metadata = json.loads(file.read(length)).get("__metadata__") or {}
    except (OSError, ValueError):
        return None
    return metadata.get("source") or None


def prepared_copies(folder: Path) -> list[PreparedCopy]:
    """The prepared copies in ``folder`` (attnmt.fast.prepared.cache_folder), largest first."""
    if not folder.is_dir():
        return []
    copies = []
    for path in folder.iterdir():
        try:
            copy = PreparedCopy.read(path)
        except FileNotFoundError:  # removed by another process as we looked
            continue
        if copy is not None:
            copies.append(copy)
    return sorted(copies, key=lambda copy: (-copy.size, copy.path.name))


def stale_reason(copy: PreparedCopy, current_format: int) -> str | None:
    """Why ``copy`` will not be read again, or None where it may be: an older format than this
    attnmt's ``current_format``, or a source weights file that is gone or holds other weights."""
    if copy.format < current_format:
        return f"format {copy.format}: this attnmt reads format {current_format}"
    if copy.source is None:
        return None
    source = Path(copy.source)
    if not source.is_file():
        return f"{source} is gone"
    try:
        digest = file_digest(source)
    except OSError:
        return None  # unreadable now, perhaps not for its owner: kept
    if not digest.startswith(copy.weights_digest):
        return f"{source} now holds other weights"
    return None


def remove_superseded(written: Path, source: Path) -> list[Path]:
    """Deletes the prepared copies that the copy just ``written`` (prepared from the weights file
    ``source``) replaces: itself in an older format, and the same precision and kernels prepared
    from ``source`` when it held other weights.  A copy of the same weights read with another
    config is kept: two model folders may share one weights file.  Returns them."""
    new = PreparedCopy.read(written)
    if new is None:
        return []
    source_name = str(Path(source).resolve())  # as save_prepared records it
    removed = []
    for old in prepared_copies(written.parent):
        if old.path == written or (old.precision, old.kernels) != (new.precision, new.kernels):
            continue
        same_copy = (old.weights_digest, old.config_digest) == (new.weights_digest, new.config_digest)
        retrained = old.weights_digest != new.weights_digest and old.source == source_name
        if (same_copy and old.format < new.format) or retrained:
            old.path.unlink(missing_ok=True)  # a process mapping it keeps its pages until it unmaps them
            removed.append(old.path)
    return removed


def builds(root: Path) -> list[Path]:
    """The C++ step's build folders in the cache ``root``."""
    return sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith(BUILD_PREFIX)) if root.is_dir() else []


def abandoned_writes(folder: Path, now: float | None = None) -> list[Path]:
    """Temporary files in ``folder`` that a write cut short (a kill, a crash) left: untouched for an
    hour, so that no process still writes them."""
    if not folder.is_dir():
        return []
    now = time.time() if now is None else now
    found = []
    for path in folder.iterdir():
        try:
            if TEMPORARY.match(path.name) and path.is_file() and now - path.stat().st_mtime > TEMPORARY_AGE_S:
                found.append(path)
        except FileNotFoundError:
            continue
    return found


def size_of(path: Path) -> int:
    """A file's size, or a folder's files' sizes summed."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def human(size: int) -> str:
    """A size in bytes as people read it: "452 MB", "2.9 MB", "6.4 GB"."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            value = size / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{size} B"


def remove(path: Path) -> None:
    """Deletes a cached file or build folder (gone already is fine)."""
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
