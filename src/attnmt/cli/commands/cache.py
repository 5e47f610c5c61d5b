"""``attnmt cache``: what attnmt keeps in its cache (the prepared inference copies and the C++ step's
builds), how large it is, when each copy was last read and which are stale; ``--prune`` removes
copies in older formats and writes that never finished (``--unused-days N``: and copies no load
has read for N days), ``--clear`` every copy and build (attnmt.fast.cache_contents).  Nothing there
is lost work: the next start that needs a file prepares or builds it again."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from attnmt.cli.lines import print_out
from attnmt.cli.options import whole_number
from attnmt.errors import UserError


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.fast.prepared_file import cache_folder
    from attnmt.files import cache_root_folder

    if args.unused_days is not None and not args.prune:
        raise UserError("--unused-days goes with --prune")
    root, folder = cache_root_folder(), cache_folder()  # a typo'd $ATTNMT_CACHE: not listed empty, cleared of nothing
    try:
        if args.clear:
            return clear(root, folder)
        if args.prune:
            return prune(root, folder, args.unused_days)
        return listing(root, folder)
    except OSError as error:  # the folder itself cannot be read
        raise UserError(f"cannot read attnmt's cache {root}: {error.strerror or error}") from None


def listing(root: Path, folder: Path) -> int:
    """Prints each prepared copy (size, precision, format, CPU, last read, source or why it is
    stale), the builds and what ``--prune`` would remove."""
    from attnmt.fast import cache_contents as contents
    from attnmt.fast.prepared_file import FORMAT, cpu_digest

    copies = contents.prepared_copies(folder)
    stale = {copy.path: reason for copy in copies if (reason := contents.stale_reason(copy, FORMAT))}
    here = (f"chosen-{cpu_digest()}", f"chosen-{cpu_digest(tiles=True)}")  # a float32 copy may be either
    print_out(f"attnmt's cache: {root} ({'$ATTNMT_CACHE' if os.environ.get('ATTNMT_CACHE') else 'the default'})")
    print_out(f"prepared copies: {len(copies)}, {contents.human(sum(copy.size for copy in copies))}")
    for copy in sorted(copies, key=lambda copy: copy.path in stale):  # the current ones first
        cpu = "this CPU" if copy.kernels.endswith(here) else "other CPU"  # or this one with its ISA capped
        days = contents.days_ago(copy.last_read)
        read = "read today" if days == 0 else f"read {contents.counted(days, 'day')} ago"
        what = (f"stale: {stale[copy.path]}" if copy.path in stale
                else f"from {copy.source}" if copy.source else copy.path.name)
        set_by, chosen, _ = copy.kernels.partition("-chosen-")  # "panels-chosen-CPU": set, not timed
        what += f" (ATTNMT_FLOAT32_KERNEL={set_by})" if chosen and copy.precision == "fp32" else ""
        print_out(f"  {contents.human(copy.size):>7}  {copy.precision} v{copy.format}  {cpu:<9}  {read:<16}  {what}")
    builds = contents.builds(root)
    current = current_build()
    print_out(f"C++ step builds: {len(builds)}, {contents.human(sum(contents.size_of(path) for path in builds))}"
              + (f"; this attnmt's: {current.name}" if current in builds else ""))
    unfinished = [*contents.unfinished_writes(folder), *contents.unfinished_records(root)]
    if unfinished:
        print_out(f"writes that never finished: {len(unfinished)}, "
                  f"{contents.human(sum(contents.size_of(path) for path in unfinished))}")
    if stale or unfinished:
        freed = sum(contents.size_of(path) for path in [*stale, *unfinished])
        print_out(f"'attnmt cache --prune' removes {contents.counted(len(stale) + len(unfinished), 'stale file')} "
                  f"({contents.human(freed)})")
    return 0


def prune(root: Path, folder: Path, unused_days: float | None) -> int:
    """Removes the copies in older formats (and, with ``unused_days``, those no load has read for
    that many days) and the writes that never finished, a build record's too; one line for each."""
    from attnmt.fast import cache_contents as contents
    from attnmt.fast.prepared_file import FORMAT

    now = time.time()
    doomed = [(copy.path, reason) for copy in contents.prepared_copies(folder)
              if (reason := contents.stale_reason(copy, FORMAT, unused_days, now))]
    unfinished = [*contents.unfinished_writes(folder, now), *contents.unfinished_records(root, now)]
    doomed += [(path, "a write that never finished") for path in unfinished]
    freed, failed = 0, 0
    for path, reason in doomed:
        size = contents.size_of(path)
        if remove_one(path):
            freed += size
            print_out(f"removed {contents.human(size):>7}  {path.name}: {reason}")
        else:
            failed += 1
    for marker in contents.orphan_markers(folder):  # the removed copies' read times, and any left before
        failed += not remove_one(marker)
    print_out(f"attnmt: freed {contents.human(freed)} in {folder}")
    return 1 if failed else 0


def clear(root: Path, folder: Path) -> int:
    """Removes every prepared copy, C++ step build, read marker, weights digest memo and write that
    never finished (a copy's write in progress is left to finish; a build in progress is removed:
    its process then translates with the Python step)."""
    from attnmt.fast import cache_contents as contents

    copies, copies_freed, copies_failed = remove_all([copy.path for copy in contents.prepared_copies(folder)])
    builds, builds_freed, builds_failed = remove_all(contents.builds(root))
    _, rest_freed, rest_failed = remove_all([*contents.unfinished_writes(folder), *contents.memos(folder),
                                             *contents.markers(folder)])
    freed = contents.human(copies_freed + builds_freed + rest_freed)
    print_out(f"attnmt: removed {contents.counted(copies, 'prepared copy')} and "
              f"{contents.counted(builds, 'C++ step build')} from {root}, {freed}"
              + ("; they are prepared or built again when needed" if copies or builds else ""))
    return 1 if copies_failed or builds_failed or rest_failed else 0


def remove_all(paths: list[Path]) -> tuple[int, int, int]:
    """Removes each path: (how many were removed, the bytes they took, how many could not be)."""
    from attnmt.fast.cache_contents import size_of

    removed, freed, failed = 0, 0, 0
    for path in paths:
        size = size_of(path)
        if remove_one(path):
            removed, freed = removed + 1, freed + size
        else:
            failed += 1
    return removed, freed, failed


def remove_one(path: Path) -> bool:
    """Removes a file or build folder of the cache; where it cannot, says so in one line."""
    from attnmt.fast.cache_contents import remove

    try:
        remove(path)
    except OSError as error:
        print(f"attnmt: could not remove {path}: {error.strerror or error}", file=sys.stderr)
        return False
    return True


def current_build() -> Path | None:
    """The C++ step build folder this attnmt would load, where it builds into the cache."""
    from attnmt.fast import extension

    return None if extension.prebuilt() else extension.build_directory()


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("cache", help="list what attnmt keeps in its cache ($ATTNMT_CACHE, default "
                            "~/.cache/attnmt): prepared model copies and C++ step builds; remove the stale ones or all")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--prune", action="store_true",
                       help="remove the prepared copies in formats older than this attnmt's and writes that never "
                       "finished")
    which.add_argument("--clear", action="store_true",
                       help="remove every prepared copy and C++ step build (prepared or built again when needed)")
    # Whole days from 1: a load marks its read at most once an hour, and nan compared as never stale.
    p.add_argument("--unused-days", type=whole_number(1), metavar="N",
                   help="with --prune: also remove the copies no load has read for N (>= 1) days (a model retrained or "
                   "deleted leaves one; loads that may not write the cache do not count; a copy still used is "
                   "prepared again at its next load)")
    p.set_defaults(run=run)
