"""Temporary folders whose writer was killed (a SIGKILL, a power cut: no clean-up ran), told by the
process id in their names and deleted by the next writer.  attnmt.files.atomic_folder leaves them
beside the folder it writes, or inside an export's --out (with the entries it had moved up from
there: record_moves); training leaves its preparations in the system's temporary folder
(attnmt.training.training_data)."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

# The prefix of the hidden folder atomic_folder builds in an existing --out (then the process id, a
# dash and mkdtemp's 8 characters), e.g. ".attnmt-4242-q1w2e3r4".
INSIDE = ".attnmt-"
MOVES = ".attnmt-moves"  # in such a folder: the names of the entries it is moving up into --out (record_moves)


def remove_orphaned_folders(path: Path) -> list[Path]:
    """Deletes the temporary folders beside ``path`` that atomic_folder made for it in a process that
    is gone; returns them.  Those of a living process, and those of earlier releases (no process id
    in the name: whose they were cannot be told), stay."""
    return remove_orphans(path.parent.iterdir(), re.compile(rf"^\.{re.escape(path.name)}\.(\d+)\.[a-z0-9_]{{8}}$"))


def remove_orphaned_inside(folder: Path) -> list[Path]:
    """Deletes the hidden folders that atomic_folder built in the existing ``folder`` (an export's
    --out) in a process that is gone, and the entries each had moved up into ``folder`` (undo_moves);
    returns the hidden folders.  A living process's stays."""
    owner = re.compile(rf"^{re.escape(INSIDE)}(\d+)-[a-z0-9_]{{8}}$")
    for hidden in folder.iterdir():
        writer = owner.match(hidden.name)
        if writer and hidden.is_dir() and not hidden.is_symlink() and not process_exists(int(writer.group(1))):
            undo_moves(hidden, folder)
    return remove_orphans(folder.iterdir(), owner)


def record_moves(hidden: Path) -> list[Path]:
    """The entries of the filled hidden folder ``hidden``, to be moved up one by one, their names first
    written into its MOVES file (whole, or not at all: renamed into place), so that the entries a kill
    between two moves left up there can be told and deleted (undo_moves)."""
    entries = sorted(hidden.iterdir())
    written = hidden / f"{MOVES}.part"
    written.write_text(json.dumps([entry.name for entry in entries]), encoding="utf-8")
    os.replace(written, hidden / MOVES)
    return entries


def undo_moves(hidden: Path, folder: Path) -> None:
    """Deletes from ``folder`` the entries a killed fill had moved up from ``hidden`` (named in its MOVES
    file, no longer in it), leaving ``folder`` as empty as the fill found it.  Without the file, the fill
    was killed before its first move."""
    try:
        names = json.loads((hidden / MOVES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    for name in names if isinstance(names, list) else []:
        if isinstance(name, str) and name and "/" not in name and not os.path.lexists(hidden / name):
            remove_entry(folder / name)


def remove_orphans(candidates: Iterable[Path], owner: re.Pattern[str]) -> list[Path]:
    """Deletes each folder among ``candidates`` whose name ``owner`` matches with the id of a process
    that is gone (its group 1); returns them.  One whose process lives, or may, is left alone."""
    orphans = []
    for folder in candidates:
        writer = owner.match(folder.name)
        if writer and folder.is_dir() and not folder.is_symlink() and not process_exists(int(writer.group(1))):
            shutil.rmtree(folder, ignore_errors=True)
            orphans += [] if folder.exists() else [folder]
    return orphans


def process_exists(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (another user's counts)."""
    try:
        os.kill(pid, 0)  # signal 0: no signal, only the check that the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def remove_entry(path: Path) -> None:
    """Deletes the file or folder ``path`` (a link as a link, never what it points to); a folder's
    files that cannot go stay, as a cleanup after a failure has nothing better to do with them."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
