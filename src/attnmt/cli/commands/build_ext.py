"""``attnmt build-ext``: readies the C++ step (attnmt.fast.extension) ahead of the first translation,
compiling it into attnmt's cache where the installed wheel carries none for this PyTorch: for
container images and machines that will translate without a compiler.  It tries again a build that
failed, which translations leave alone until the compiler changes."""

from __future__ import annotations

import argparse

from attnmt.cli.lines import print_out
from attnmt.errors import UserError


def run(args: argparse.Namespace, extra: dict[str, str]) -> int:
    import torch

    from attnmt.fast import extension
    from attnmt.files import cache_root_folder

    cache_root_folder()  # where the build goes: a file there is one line
    try:  # a cache that cannot be written fails here first: one line too
        extension.forget_failed_build()  # asked for: try again the build that failed at a translation
        library = extension.load()
    except Exception as error:  # no compiler, no ninja, a failed build, a PyTorch without an operator
        raise UserError(f"could not build the C++ step ({type(error).__name__}: {error}); without it attnmt "
                        "translates with the slower Python step") from None
    where = "the wheel's" if library == extension.prebuilt() else "in attnmt's cache"
    print_out(f"attnmt: the C++ step for PyTorch {torch.__version__} is ready ({where}): {library}")
    return 0


def add_to(commands: argparse._SubParsersAction) -> None:
    p = commands.add_parser("build-ext", help="compile the C++ decoder step now (into $ATTNMT_CACHE, default "
                            "~/.cache/attnmt) rather than at the first translation, unless the installed wheel "
                            "carries it for this PyTorch")
    p.set_defaults(run=run)
