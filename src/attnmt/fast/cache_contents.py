"""What attnmt keeps in its cache (``$ATTNMT_CACHE``, default ``~/.cache/attnmt``), which of it is
stale, and removing that: ``attnmt cache``.

The cache holds the C++ step's builds (about 3 MB each, one per source, PyTorch and target) and
the prepared inference copies (attnmt.fast.prepared_file: at OPUS-MT's size 333 MB float32 and 204 MB
int8 each).  A copy is named by its weights' and config's digests, the kernels it was timed for
and its format's version, so nothing ever reads a stale one; but nothing deleted one either, and
each upgrade of attnmt that changed the format left every copy behind, whole.  So:

- writing a copy deletes the same copy (same weights, config and kernels) in older formats
  (``remove_older_formats``): no attnmt that reads the new format reads those;
- a load marks its copy read (``mark_read``: a small file's time in ``prepared/reads``, at most
  once an hour; the copy itself is never written, so that an image layer, an NFS client's cached
  pages or a backup's change check do not see it change), so that copies no one has read for a
  while can be found (``--prune --unused-days N``): a model retrained in place or deleted leaves a
  copy that is never read again, but whether some other folder (a copy of the model, a container
  sharing the cache) still reads the same weights cannot be known from here, and a load that may
  not write the cache marks nothing;
- a copy records the weights file it was first prepared from (``source``), for the listing.

Copies of a newer format (a newer attnmt sharing the cache) and for other CPUs (other machines
sharing it) are only ever removed by ``--unused-days`` or ``--clear``.  Every file here is made
again when needed, so removing one loses no work: the next start prepares it again (seconds at
OPUS-MT's size; a build of the C++ step, about 30 s).  A process that has a removed copy mapped
keeps reading it, and its disk space is freed when that process ends.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from attnmt.errors import json_value
from attnmt.fast.sources import NAME

# attnmt.fast.prepared_file.prepared_path's names,
# e.g. "int8-<sha256[:32]>-<config[:16]>-vnni-chosen-<cpu>-v6.safetensors"
PREPARED = re.compile(r"^(?P<precision>int8|fp32)-(?P<weights>[0-9a-f]{32})-(?P<config>[0-9a-f]{16})-"
                      r"(?P<kernels>[a-z0-9-]+)-v(?P<format>\d+)\.safetensors$")
# A copy's write cut short: attnmt.files.atomic_file's temporary name for it (a dot, the copy's
# name, a dot and mkstemp's 8 characters), or the one safetensors' save_file writes through beside
# that (both among attnmt.files.TEMPORARY's, which matches any such dotfile).
UNFINISHED = re.compile(rf"^\.{PREPARED.pattern[1:-1]}\.[a-z0-9_]{{8}}$|^\.tmp[A-Za-z0-9]{{6}}$")
BUILD = re.compile(rf"^{NAME}-[0-9a-f]{{16}}$")  # attnmt.fast.extension.build_directory's folders
# A build's record (attnmt.fast.extension.BUILT) cut short: atomic_file's temporary name for it.
UNFINISHED_RECORD = re.compile(r"^\.built\.json\.[a-z0-9_]{8}$")
MEMO = re.compile(r"^[0-9a-f]{32}$")  # attnmt.files.file_digest's memos, in prepared/digests
READS = "reads"  # prepared/reads/<a copy's name>: when a load last read that copy (its time)
TEMPORARY_AGE_S = 3600.0  # a write in progress touches its file far more often than this
MARK_EVERY_S = 3600.0
DAY_S = 86400.0


@dataclass(frozen=True)
class PreparedCopy:
    """One prepared inference copy in the cache, read from its name, its header and its times."""

    path: Path
    precision: str  # "int8" or "fp32"
    weights_digest: str  # the first 32 hex digits of the weights file's sha256
    config_digest: str
    kernels: str  # the kernels and CPU it was timed for, e.g. "vnni-chosen-3989514b133f"
    format: int
    source: str | None  # the weights file it was first prepared from; None where not recorded
    size: int
    last_read: float  # when a load last read it (or, never read, wrote it), seconds since the epoch

    @classmethod
    def read(cls, path: Path) -> PreparedCopy | None:
        """The copy at ``path``, or None where it is not a prepared copy's regular file (or is gone)."""
        match = PREPARED.match(path.name)
        try:
            info = path.lstat()
        except OSError:
            return None
        if match is None or not stat.S_ISREG(info.st_mode):
            return None
        try:
            last_read = max(info.st_mtime, read_marker(path).stat().st_mtime)
        except OSError:
            last_read = info.st_mtime
        return cls(path, match["precision"], match["weights"], match["config"], match["kernels"],
                   int(match["format"]), recorded_source(path), info.st_size, last_read)


def recorded_source(path: Path) -> str | None:
    """The ``source`` a prepared copy's safetensors header records, read without mapping the file;
    None where there is none or the header cannot be read (a damaged file)."""
    try:
        with open(path, "rb") as file:
            length = int.from_bytes(file.read(8), "little")
            header = json_value(file.read(length)) if 0 < length <= 100_000_000 else None
    except (OSError, ValueError):
        return None
    metadata = header.get("__metadata__") if isinstance(header, dict) else None
    source = metadata.get("source") if isinstance(metadata, dict) else None
    return source if isinstance(source, str) and source else None


def prepared_copies(folder: Path) -> list[PreparedCopy]:
    """The prepared copies in ``folder`` (attnmt.fast.prepared_file.cache_folder), largest first; an
    unreadable folder raises OSError."""
    if not folder.is_dir():
        return []
    copies = [copy for path in folder.iterdir() if (copy := PreparedCopy.read(path)) is not None]
    return sorted(copies, key=lambda copy: (-copy.size, copy.path.name))


def read_marker(path: Path) -> Path:
    """The file whose time says when a load last read the prepared copy ``path``."""
    return path.parent / READS / path.name


def mark_read(path: Path, now: float | None = None) -> None:
    """Marks the prepared copy ``path`` read now, unless it was marked in the last hour, where the
    cache may be written (a load that may not write it marks nothing)."""
    marker = read_marker(path)
    now = time.time() if now is None else now
    try:
        if now - marker.stat().st_mtime < MARK_EVERY_S:
            return
        os.utime(marker, (now, now))
    except FileNotFoundError:
        try:
            marker.parent.mkdir(exist_ok=True)
            marker.touch()
            os.utime(marker, (now, now))
        except OSError:
            pass
    except OSError:
        pass  # a cache shared read-only


def markers(folder: Path) -> list[Path]:
    """The read markers in ``folder``/reads (names of prepared copies, regular files)."""
    reads = folder / READS
    if not reads.is_dir():
        return []
    return sorted(p for p in reads.iterdir() if PREPARED.match(p.name) and p.is_file() and not p.is_symlink())


def orphan_markers(folder: Path) -> list[Path]:
    """Read markers whose prepared copy is gone."""
    return [marker for marker in markers(folder) if not (folder / marker.name).exists()]


def stale_reason(copy: PreparedCopy, current_format: int, unused_days: float | None = None,
                 now: float | None = None) -> str | None:
    """Why ``copy`` is stale, or None: an older format than this attnmt's ``current_format``, or,
    where ``unused_days`` is given, no load has read it for that many days."""
    if copy.format < current_format:
        return f"format {copy.format}: this attnmt reads format {current_format}"
    now = time.time() if now is None else now
    if unused_days is not None and now - copy.last_read > unused_days * DAY_S:
        days = (now - copy.last_read) / DAY_S
        return f"not read for {days:.1f} days" if days < 10 else f"not read for {days:.0f} days"
    return None


def days_ago(when: float, now: float | None = None) -> int:
    """Whole days since ``when`` (0 for a time ahead of the clock: another machine's, on a shared disk)."""
    return max(0, int(((time.time() if now is None else now) - when) // DAY_S))


def remove_older_formats(written: Path) -> list[Path]:
    """Deletes the same copy as the one just ``written`` (same precision, weights, config and
    kernels) in older formats, which no attnmt that reads this one's format reads; returns them."""
    new = PREPARED.match(written.name)
    if new is None or not written.is_file():
        return []
    same = ("precision", "weights", "config", "kernels")
    removed = []
    for path in written.parent.iterdir():
        old = PREPARED.match(path.name)
        if old is None or int(old["format"]) >= int(new["format"]) or old.group(*same) != new.group(*same):
            continue
        if not path.is_file():
            continue
        try:
            path.unlink()
        except OSError:
            continue  # another user's, or gone: the next one
        removed.append(path)
        try:
            read_marker(path).unlink(missing_ok=True)
        except OSError:
            pass  # --prune removes it once it is an orphan
    return removed


def unfinished_writes(folder: Path, now: float | None = None) -> list[Path]:
    """The temporary files of copies whose writes were cut short (a kill, a crash) in ``folder``:
    untouched for an hour, so that no process still writes them."""
    return untouched_files(folder, UNFINISHED, time.time() if now is None else now)


def unfinished_records(root: Path, now: float | None = None) -> list[Path]:
    """The temporary files of build records (BUILT) whose writes were cut short, in the build folders
    of the cache ``root``: untouched for an hour, as ``unfinished_writes``."""
    now = time.time() if now is None else now
    return [path for build in builds(root) for path in untouched_files(build, UNFINISHED_RECORD, now)]


def untouched_files(folder: Path, name: re.Pattern[str], now: float) -> list[Path]:
    """The files in ``folder`` whose names match ``name``, untouched for TEMPORARY_AGE_S."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        try:
            info = path.lstat()
        except OSError:
            continue
        if name.match(path.name) and stat.S_ISREG(info.st_mode) and now - info.st_mtime > TEMPORARY_AGE_S:
            found.append(path)
    return sorted(found)


def builds(root: Path) -> list[Path]:
    """The C++ step's build folders in the cache ``root`` (not links to one)."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if BUILD.match(p.name) and p.is_dir() and not p.is_symlink())


def memos(folder: Path) -> list[Path]:
    """The weights digests attnmt.files.file_digest remembers, in ``folder``/digests."""
    digests = folder / "digests"
    return sorted(p for p in digests.iterdir() if MEMO.match(p.name) and p.is_file()) if digests.is_dir() else []


def size_of(path: Path) -> int:
    """What removing a file, or a build folder's files, frees: its size, but 0 for what is gone, a
    link, or a file with another name elsewhere (a hard link: its data stays)."""
    try:
        if path.is_dir() and not path.is_symlink():  # rglob lists the files of every folder below
            return sum(size_of(p) for p in path.rglob("*") if p.is_symlink() or not p.is_dir())
        info = path.lstat()
    except OSError:
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) and info.st_nlink == 1 else 0


def remove(path: Path) -> None:
    """Deletes a cached file (a link: the link), or a build folder; gone already is fine.  An
    OSError (a file of another user's, a folder that may not be changed) is raised."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def human(size: int) -> str:
    """A size in bytes as people read it: "512 B", "2.9 MB", "452 MB", "6.4 GB"."""
    value, unit = float(size), "B"
    for larger in ("kB", "MB", "GB", "TB"):
        if round(value) < 1000:
            break
        value, unit = value / 1000, larger
    if unit == "B":
        return f"{size} B"
    return f"{value:.1f} {unit}" if round(value, 1) < 10 else f"{value:.0f} {unit}"


def counted(count: int, noun: str) -> str:
    """"1 copy", "2 copies": a count and its noun, singular or plural ("copy" -> "copies")."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {noun[:-1]}ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else f"{count} {noun}s"
