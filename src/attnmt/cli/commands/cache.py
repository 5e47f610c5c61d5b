"""``attnmt cache``: what attnmt keeps in its cache (the prepared inference copies and the C++ step's
builds), how large it is, and which of it will not be read again; ``--prune`` removes that,
``--clear`` everything (attnmt.fast.cache_contents).  Nothing there is lost work: the next start
that needs a file prepares or builds it again."""

from __future__ import annotations

import argparse
from pathlib import Path


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    from attnmt.fast import cache_contents as contents
    from attnmt.fast.prepared import FORMAT, cache_folder, cpu_digest
    from attnmt.files import cache_root

    root, folder = cache_root(), cache_folder()
    copies = contents.prepared_copies(folder)
    stale = {copy.path: reason for copy in copies if (reason := contents.stale_reason(copy, FORMAT))}
    unfinished = contents.abandoned_writes(folder)
    builds = contents.builds(root)
    if args.clear:
        gone = [*(copy.path for copy in copies), *unfinished, *builds, folder / "digests"]
        freed = sum(contents.size_of(path) for path in gone if path.exists())
        for path in gone:
            contents.remove(path)
        print(f"attnmt: removed {len(copies)} prepared copies and {len(builds)} C++ step builds from {root}, "
              f"{contents.human(freed)}; they are prepared or built again when needed")
        return 0
    if args.prune:
        gone = [(copy, stale[copy.path]) for copy in copies if copy.path in stale]
        for copy, reason in gone:
            contents.remove(copy.path)
            print(f"removed {contents.human(copy.size):>7}  {copy.path.name}: {reason}")
        for path in unfinished:
            print(f"removed {contents.human(contents.size_of(path)):>7}  {path.name}: a write that never finished")
            contents.remove(path)
        freed = sum(copy.size for copy, _ in gone) + sum(contents.size_of(path) for path in unfinished)
        print(f"attnmt: freed {contents.human(freed)} in {folder}")
        return 0
    print(f"attnmt's cache: {root} ($ATTNMT_CACHE)")
    here = f"chosen-{cpu_digest()}"
    in_use = [copy for copy in copies if copy.path not in stale]
    print(f"prepared copies: {len(copies)}, {contents.human(sum(copy.size for copy in copies))}")
    for copy in [*in_use, *(copy for copy in copies if copy.path in stale)]:
        cpu = "this CPU" if copy.kernels.endswith(here) else "other CPU"  # or this one with its ISA capped
        state = (f"stale: {stale[copy.path]}" if copy.path in stale
                 else f"from {copy.source}" if copy.source else f"{copy.path.name} (source not recorded)")
        print(f"  {contents.human(copy.size):>7}  {copy.precision} v{copy.format}  {cpu:<9}  {state}")
    current = current_build()
    print(f"C++ step builds: {len(builds)}, {contents.human(sum(contents.size_of(path) for path in builds))}"
          + (f"; this attnmt's: {current.name}" if current in builds else ""))
    if unfinished:
        print(f"writes that never finished: {len(unfinished)}, "
              f"{contents.human(sum(contents.size_of(path) for path in unfinished))}")
    if stale or unfinished:
        freed = sum(copy.size for copy in copies if copy.path in stale) + sum(contents.size_of(p) for p in unfinished)
        count = len(stale) + len(unfinished)
        print(f"'attnmt cache --prune' removes the {count} stale files ({contents.human(freed)})")
    return 0


def current_build() -> Path | None:
    """The C++ step build folder this attnmt would load, where it builds into the cache."""
    from attnmt.fast import extension

    return None if extension.prebuilt() else extension.build_directory()


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("cache", help="list what attnmt keeps in its cache ($ATTNMT_CACHE, default "
                            "~/.cache/attnmt): prepared model copies and C++ step builds; remove the stale ones or all")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--prune", action="store_true",
                       help="remove the prepared copies no attnmt of this version will read again (an older format, "
                       "or their weights file gone or changed) and writes that never finished")
    which.add_argument("--clear", action="store_true",
                       help="remove every prepared copy and C++ step build (prepared or built again when needed)")
    p.set_defaults(run=run)
