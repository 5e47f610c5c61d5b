"""Writing files so that a crash never leaves a broken one: every writer of attnmt goes through
``atomic_write`` (one file; ``atomic_file`` where the writing is a ``with`` block) or
``atomic_folder`` (a directory, e.g. a checkpoint).

Both write under a temporary dot-name beside the target and rename it into place: readers
see the old version or the new one, never half of one.  (An existing folder not to be replaced,
an export's empty --out, is filled from a hidden folder inside it instead: see fill_inside.)
New files get the permissions any tool's get (0666, folders 0777, less the umask), not mkstemp's
private ones, so that a model shared on a server can be read by others; a file written again
keeps its own.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from attnmt.errors import ModelDirError, UserError, json_value
from attnmt.orphans import INSIDE, record_moves, remove_entry, remove_orphaned_folders, remove_orphaned_inside

# The file a folder's holder locks (attnmt.training.run_dir.RunLock: a training run's model directory,
# attnmt prepare's --out); a folder that holds it alone holds nothing else.
LOCK = ".lock"


def umask() -> int:
    """The process's file-creation mask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: Path, write: Callable[[Path], object], raises: type[UserError] = ModelDirError) -> None:
    """Calls ``write(tmp)`` then renames tmp over ``path``: readers see the old file or the new one.
    A full disk or an I/O error raises ``raises`` (``atomic_file``)."""
    with atomic_file(path, raises) as tmp:
        write(tmp)


@contextmanager
def atomic_file(path: Path, raises: type[UserError] = ModelDirError) -> Iterator[Path]:
    """A temporary file beside ``path`` to write in the ``with`` block, renamed over ``path`` when
    the block ends without an error (and deleted when it raises).  An OSError in the block, or in
    the rename, raises ``raises``, one line saying why, and that the previous version is intact
    where there was one; so does a ``path`` that is a folder, or lies under a file.  ``raises``:
    ModelDirError for a model's own files, OutputError for what a user asked to have written (a
    translation, a picture, a review), so that a program can tell a bad output from a bad model.

    A symbolic link is written through: its target is replaced and the link stays.  A path that
    is neither a regular file nor a folder (a named pipe, a device such as /dev/null) is written
    as it is, as ``attnmt translate`` writes its output there (a rename would replace the pipe or
    the device itself): the block writes a temporary file elsewhere, copied into it at the end."""
    path = Path(path)
    if is_special_file(path):  # looked at through any link (/dev/stdout's target may be a pipe)
        with written_through(path, raises) as tmp:
            yield tmp
        return
    target = Path(os.path.realpath(path))
    existed = target.is_file()
    tmp = temporary_beside(path, target, raises)
    try:
        yield tmp
        finish_file(tmp, existing_mode(target))
        os.replace(tmp, target)
    except OSError as error:
        intact = "; the previous version is intact" if existed else ""
        raise raises(f"could not write {path}: {write_failure(error)}{intact}") from None
    finally:
        tmp.unlink(missing_ok=True)


def temporary_beside(path: Path, target: Path, raises: type[UserError], make_folders: bool = True) -> Path:
    """A new empty temporary file in the folder of ``target`` (``path`` with its links followed),
    the folder made where missing; ``raises`` where that cannot be: ``path`` a folder, a file where
    one of its folders would be, a read-only or foreign folder.  ``make_folders`` False: made in the
    nearest folder above ``target`` that exists, none made (a check before the work: check_writable)."""
    if target.is_dir():
        raise raises(f"could not write {path}: it is a directory; give the name of a file to write")
    try:
        if make_folders:
            target.parent.mkdir(parents=True, exist_ok=True)
        folder = target.parent if make_folders else file_in_the_way(target)
        if not folder.is_dir():
            raise NotADirectoryError
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    except (FileExistsError, NotADirectoryError):  # a file where one of the path's folders would be
        raise raises(f"could not write {path}: {file_in_the_way(target)} is a file, not a directory") from None
    except OSError as error:  # a read-only or foreign folder: nothing was written
        raise raises(f"could not write {path}: {write_failure(error)}") from None
    os.close(fd)
    return Path(tmp_name)


def file_in_the_way(target: Path) -> Path:
    """The nearest folder above ``target`` that exists: a file, where making ``target``'s folders failed."""
    return next(parent for parent in target.parents if os.path.lexists(parent))


def is_special_file(path: Path) -> bool:
    """True for an existing path that is neither a regular file nor a folder: a named pipe, a
    device, a socket (or a link to one)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # missing, or under something that is no folder: written anew (or refused) as a file
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def written_through(path: Path, raises: type[UserError] = ModelDirError) -> Iterator[Path]:
    """A temporary file (in the system's temporary folder) to write in the ``with`` block, its bytes
    then written into ``path``, a named pipe or a device, opened as it is."""
    fd, tmp_name = tempfile.mkstemp(prefix=f"attnmt-{path.name}.")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb") as source, open(path, "wb") as sink:
            shutil.copyfileobj(source, sink)
    except OSError as error:
        raise raises(f"could not write {path}: {write_failure(error)}") from None
    finally:
        tmp.unlink(missing_ok=True)


def existing_mode(path: Path) -> int | None:
    """The permissions of the regular file at ``path``, which its new version keeps (a private file
    stays private); None where there is none."""
    try:
        info = path.stat()
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def make_folder(path: Path, raises: type[UserError] = ModelDirError) -> Path:
    """The folder ``path``, made with its parents where missing; ``raises`` (as ``atomic_file``'s)
    in one line where it cannot be (a file of that name, a read-only or foreign folder)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise raises(f"{path} is a file, not a folder: give a folder's name (or remove the file)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise raises(f"could not make the folder {path}: {write_failure(error)}") from None
    return path


def atomic_folder(path: Path, fill: Callable[[Path], None], replace: bool = True, earlier: Path | None = None) -> Path:
    """Calls ``fill(tmp)`` on a new temporary folder beside ``path``, then puts it in the place of
    ``path`` (replacing a folder there: swap_in): the folder appears only once complete, and an
    interrupted ``fill`` (an error, Ctrl-C) leaves nothing.  The temporary folder's name holds this
    process's id (``.NAME.PID.xxxxxxxx``): one a killed writer left is deleted first.  A link is written through.

    ``replace`` False, for a folder a user named as new or empty (an export's --out, checked before
    a long job): a new one is made as above; an existing one is filled in place (fill_inside), and
    what was put there meanwhile is kept and the write refused.

    A failure says that the previous version is intact only where there was one: ``earlier``, the
    folder that stands for it (save_checkpoint's: the run's latest checkpoint), or else ``path``."""
    path = Path(path)
    target = Path(os.path.realpath(path))
    intact = "; the previous version is intact" if (earlier or target).is_dir() else ""
    if not replace and target.is_dir():
        try:
            fill_inside(target, fill)
        except OSError as error:
            raise ModelDirError(f"could not write {path}: {write_failure(error)}") from None
        return path
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_orphaned_folders(target)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", dir=target.parent))
    except (FileExistsError, NotADirectoryError):  # a file where one of the path's folders would be
        raise ModelDirError(f"could not write {path}: {file_in_the_way(target)} is a file, not a directory") from None
    except OSError as error:  # a read-only or foreign folder: nothing was written
        raise ModelDirError(f"could not write {path}: {write_failure(error)}") from None
    try:
        tmp.chmod(0o777 & ~umask())  # as mkdir would make it, not mkdtemp's private 0700
        fill(tmp)
        swap_in(tmp, target)
    except OSError as error:
        raise ModelDirError(f"could not write {path}: {write_failure(error)}{intact}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return path


def swap_in(new: Path, target: Path) -> None:
    """Puts the folder ``new`` in the place of ``target`` (OSError: a file there), a folder there renamed aside
    and deleted once ``new`` stands in its place (deleted first, a failure or Ctrl-C then left neither)."""
    if not target.is_dir():
        return os.replace(new, target)
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.", dir=target.parent))
    try:
        os.replace(target, old)  # onto mkdtemp's empty folder: a name this process's alone
        os.replace(new, target)
    except BaseException:
        if not target.exists():
            os.replace(old, target)
        shutil.rmtree(old, ignore_errors=True)  # mkdtemp's, where the first rename failed
        raise
    shutil.rmtree(old, ignore_errors=True)


def fill_inside(folder: Path, fill: Callable[[Path], None]) -> None:
    """Calls ``fill(tmp)`` on a hidden folder made in the existing, empty ``folder``
    (``.attnmt-PID-xxxxxxxx``), then moves each of its entries up into ``folder`` and removes it.
    ``folder`` itself is never renamed: it may be a mount point (a Docker volume, which rename(2)
    refuses as busy), under a folder that cannot be written, or private (its mode is kept).  An
    interrupted ``fill`` leaves ``folder`` empty as it was; a killed one leaves the hidden folder, which the
    next write into ``folder`` (or an export's check_empty) deletes, with the entries it had moved up
    (record_moves): a kill between two moves left a model without its tokenizer, refused as not empty."""
    remove_orphaned_inside(folder)
    tmp = Path(tempfile.mkdtemp(prefix=f"{INSIDE}{os.getpid()}-", dir=folder))
    try:
        fill(tmp)
        if any(entry != tmp for entry in folder.iterdir()):  # put there meanwhile: kept, and the write refused
            raise OSError(errno.ENOTEMPTY, os.strerror(errno.ENOTEMPTY))
        moved: list[Path] = []
        try:
            for entry in record_moves(tmp):
                os.rename(entry, folder / entry.name)
                moved.append(folder / entry.name)
        except BaseException:  # an error or Ctrl-C midway: what was moved goes, the folder is empty again
            for entry in moved:
                remove_entry(entry)
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def finish_file(path: Path, mode: int | None = None) -> None:
    """Gives a just-written file ``mode``, else the usual permissions (its writer may have made it
    anew, privately), and puts its bytes onto the disk, before a rename makes it visible."""
    path.chmod(0o666 & ~umask() if mode is None else mode)
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def drop_cached_pages(path: Path) -> None:
    """Asks the kernel to drop a written (and fsynced) file's pages from its page cache, where it can
    (Linux: posix_fadvise).  A file mapped while its pages are still there from the write counted
    more of itself in the mapping process's resident memory: a prepared OPUS-MT-sized float32 copy,
    850 MB peak against 750 MB once dropped (benchmarks/results/opus_shape_epyc_avx512_s16.txt)."""
    if not hasattr(os, "posix_fadvise"):
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    except OSError:
        pass  # only advice: a file system that ignores it loses nothing
    finally:
        os.close(fd)


def write_failure(error: OSError) -> str:
    """Why a write failed, in words, e.g. "no space left on device"."""
    if error.errno == errno.ENOSPC:
        return "no space left on device"
    if error.errno == errno.EBADF:  # a descriptor the shell closed (>&-) or opened for reading only
        return "it is closed (or open for reading only)"
    return error.strerror.lower() if error.strerror else str(error)


# The temporary names the writers above give (mkstemp's and mkdtemp's: the target's name, for a
# folder the process id, then 8 characters), e.g. ".model.safetensors.k2j4_x9a" or
# ".step_00000010.4242.q1w2e3r4"; and the one that safetensors' save_file writes through beside
# its target before renaming it (Rust's tempfile: ".tmp" and 6 letters or digits), e.g. ".tmpaUhjOL".
TEMPORARY = re.compile(r"^\.[^.].*\.[a-z0-9_]{8}$|^\.tmp[A-Za-z0-9]{6}$")
SHA256 = re.compile(r"[0-9a-f]{64}")  # a digest remembered by file_digest


def remove_leftovers(folder: Path) -> list[Path]:
    """Deletes the temporary files and folders that a write cut short (a crash, a kill) left in
    ``folder``, where one process writes at a time; returns them."""
    folder = Path(folder)
    leftovers = [p for p in folder.iterdir() if TEMPORARY.match(p.name)] if folder.is_dir() else []
    for path in leftovers:
        remove_entry(path)
    return leftovers


def write_text(path: Path, text: str, raises: type[UserError] = ModelDirError) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), raises)


def write_bytes(path: Path, data: bytes, raises: type[UserError] = ModelDirError) -> None:
    atomic_write(path, lambda tmp: tmp.write_bytes(data), raises)


def appended_lines(data: bytes) -> tuple[list[bytes], bytes | None]:
    """A JSON-lines log's lines (``data`` split at its newlines), and its last line where its writer
    had not finished it, else None.  A log is the one kind of file appended to rather than written
    whole, and each record goes in with its newline in one write: only what follows the last newline
    can be cut short (the run was killed, or is still writing).  It is a line of its own where it
    reads as JSON (only its newline is missing)."""
    *lines, last = data.split(b"\n")
    try:
        json_value(last)
    except ValueError:  # not JSON (or not UTF-8): cut short, unless blank
        return lines, last if last.strip() else None
    return [*lines, last], None


def cache_root() -> Path:
    """attnmt's cache: ``$ATTNMT_CACHE``, default ``~/.cache/attnmt``."""
    return Path(os.environ.get("ATTNMT_CACHE") or Path.home() / ".cache" / "attnmt")


def cache_root_folder() -> Path:
    """``cache_root()``, for a command that works in it (``attnmt cache``, ``build-ext``): a file there
    (a typo'd $ATTNMT_CACHE) is refused in one line, not named by the first file looked for under it."""
    root = cache_root()
    nearest = next((path for path in (root, *root.parents) if path.exists()), None)  # a file above it too
    if nearest is not None and not nearest.is_dir():
        # Said whence the path came: a file as HOME was blamed on an ATTNMT_CACHE that was not set.
        named = "$ATTNMT_CACHE" if os.environ.get("ATTNMT_CACHE") else "the default; ATTNMT_CACHE names another"
        raise UserError(f"attnmt's cache {root} ({named}) is not a folder" if nearest == root else
                        f"attnmt's cache {root} ({named}) cannot be a folder: {nearest} is a file")
    return root


def file_digest(path: Path) -> str:
    """The sha256 of the file ``path``, computed once per file and remembered (in the cache) by its
    identity: path, device, inode, size, modification time and change time.  The change time
    because the modification time can be set back (cp -p, rsync --inplace, touch -r after a rewrite
    in place: the same inode and size) and the change time cannot: every write, rename or utime
    moves it.  A moved or copied file is hashed once more; its digest, and so its prepared copy
    (attnmt.fast.prepared_file.prepared_path), stay the same."""
    info = path.stat()
    identity = (f"{path.resolve()}|{info.st_dev}|{info.st_ino}|{info.st_size}|{info.st_mtime_ns}"
                f"|{info.st_ctime_ns}")
    memo = cache_root() / "prepared" / "digests" / hashlib.sha256(identity.encode()).hexdigest()[:32]
    if memo.is_file():
        remembered = memo.read_text(encoding="utf-8", errors="replace").strip()
        if SHA256.fullmatch(remembered):
            return remembered
        # damaged (a crash, an edit): hashed again below, and remembered afresh
    with open(path, "rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    try:
        write_text(memo, digest)
    except (OSError, ModelDirError):
        pass  # an unwritable cache: hash again next time
    return digest


def save_state(state: dict, path: Path) -> None:
    """torch.save through a Python file, so that a full disk raises the OSError (ENOSPC) it is:
    torch's zip writer lets some of its file's errors through and turns others into its own
    "[enforce fail at inline_container.cc] unexpected pos" RuntimeError."""
    import torch  # loaded by then: a state is torch's

    with open(path, "wb") as handle:
        writes = RecordedWrites(handle)
        try:
            torch.save(state, writes)
        except RuntimeError:
            if writes.error is None:
                raise
            raise writes.error from None


class RecordedWrites:
    """A binary file for torch.save (``write`` and ``flush``), remembering the OSError a write raised."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.error: OSError | None = None

    def write(self, data: bytes) -> int:
        try:
            return self.handle.write(data)
        except OSError as error:
            self.error = error
            raise

    def flush(self) -> None:
        self.handle.flush()
