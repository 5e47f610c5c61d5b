"""What goes wrong reading a model's or a checkpoint's files (attnmt.checkpoint), each said in one line
naming the file: a user's mistake or a damaged file, never a reader's traceback or its advice."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from attnmt.errors import ModelDirError

# What torch.load(weights_only=True) says of a pickle that names a class or function ("Unsupported global:
# GLOBAL __main__.C", "unsupported GLOBAL posix.system"), and of bytes it cannot read as one ("Unsupported
# operand 110").
GLOBAL = re.compile(r"GLOBAL ([\w.]+)")
UNSUPPORTED = re.compile(r"Unsupported operand \d+")


def weights_mismatch(path: Path, missing: Iterable[str], unexpected: Iterable[str]) -> ModelDirError:
    """The error for a weights file whose tensor names differ from the model's: the first five
    names the model has and the file lacks, and the first five the file has and the model lacks."""
    return ModelDirError(f"{path}: weights do not match the model config "
                         f"(missing {sorted(missing)[:5]}, unexpected {sorted(unexpected)[:5]})")


def unreadable_state(path: Path, error: Exception) -> ModelDirError:
    """The error for a checkpoint's trainer state that ``torch.load(weights_only=True)`` cannot read: one that
    names a class or function to unpickle (``GLOBAL posix.system``: attnmt never unpickles one, as it could run
    code), or one damaged or cut short (a copy stopped midway, a disk that filled, another file in its place),
    named by the reader's reason in a few words.  Torch's own was several lines, advising to load the file again
    with ``weights_only=False``, which runs such a file's code; a file cut short said "EOFError: "."""
    text = str(error)
    named = GLOBAL.search(text)
    if named:
        return ModelDirError(f"{path}: cannot read trainer state: it names {named.group(1)}, an object besides "
                             "tensors and plain values, which attnmt never unpickles (it could run code)")
    unsupported = UNSUPPORTED.search(text)  # weights_only's reason, after paragraphs of advice
    said = unsupported.group() if unsupported else text.strip().split("\n", 1)[0].split(". ", 1)[0]
    reason = f"{type(error).__name__}: {said}" if said else type(error).__name__
    return ModelDirError(f"{path}: cannot read trainer state: the file is damaged, cut short or none torch.save "
                         f"wrote ({reason:.160})")


def unusable_optimizer_state(path: Path, error: Exception, earlier: bool) -> ModelDirError:
    """The error for a checkpoint's trainer state (``path``) that loads but whose optimizer state does not
    fit the model (edited by hand, or another model's), ``error`` saying how; and what to do instead, where
    the run has a checkpoint before this one (``earlier``) and where not."""
    instead = (f"delete {path.parent} to resume from the checkpoint before it" if earlier else
               "the run has no checkpoint before it: start the run again, or train on from its weights with "
               "init_from into another out_dir")
    return ModelDirError(f"{path}: {error}; {instead}")
