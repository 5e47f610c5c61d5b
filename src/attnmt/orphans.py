"""Temporary folders whose writer was killed (a SIGKILL, a power cut: no clean-up ran), told by the
process id in their names and deleted by the next writer.  attnmt.files.atomic_folder leaves them
beside the folder it writes, or inside an export's --out; training leaves its preparations in the
system's temporary folder (attnmt.training.training_data)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

# The prefix of the hidden folder atomic_folder builds in an existing --out (then the process id, a
# dash and mkdtemp's 8 characters), e.g. ".attnmt-4242-q1w2e3r4".
INSIDE = ".attnmt-"


def remove_orphaned_folders(path: Path) -> list[Path]:
    """Deletes the temporary folders beside ``path`` that atomic_folder made for it in a process that
    is gone; returns them.  Those of a living process, and those of earlier releases (no process id
    in the name: whose they were cannot be told), stay."""
    return remove_orphans(path.parent.iterdir(), re.compile(rf"^\.{re.escape(path.name)}\.(\d+)\.[a-z0-9_]{{8}}$"))


def remove_orphaned_inside(folder: Path) -> list[Path]:
    """Deletes the hidden folders that atomic_folder built in the existing ``folder`` (an export's
    --out) in a process that is gone; returns them.  A living process's stays."""
    return remove_orphans(folder.iterdir(), re.compile(rf"^{re.escape(INSIDE)}(\d+)-[a-z0-9_]{{8}}$"))


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
