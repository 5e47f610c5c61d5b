"""What a training run writes about itself: the console, a plain ``train.log``, ``log.jsonl``
(one JSON record a line, the source for ``attnmt plot training``) and, where the
``tensorboard`` package is installed, TensorBoard event files in ``MODEL_DIR/tensorboard``.

Only rank 0 writes.  Nothing reaches the model directory until ``open()``: a run that
turns out to have nothing to do (a finished run resumed) leaves the directory untouched.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from tqdm import tqdm


class RunLog:
    """The console, train.log, log.jsonl and TensorBoard of one run."""

    def __init__(self, model_dir: Path, is_main: bool, progress: bool, tensorboard: bool) -> None:
        self.dir = model_dir
        self.is_main = is_main
        self.progress = progress and is_main
        self.tensorboard = tensorboard
        self.pending: list[str] = []  # console lines said before open(), for train.log
        self.opened = False
        self.writer = None

    def open(self) -> None:
        """Starts writing into the model directory (which must exist on rank 0)."""
        if not self.is_main or self.opened:
            return
        self.opened = True
        for text in self.pending:
            self._append(text)
        self.pending = []
        if self.tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter
            except ImportError:  # the package is optional: log.jsonl has the same numbers
                self.line("TensorBoard logging is off: pip install tensorboard to have it (log.jsonl has it all)")
            else:
                self.writer = SummaryWriter(str(self.dir / "tensorboard"))

    def line(self, text: str) -> None:
        """A line for the person watching: on the console and in train.log."""
        if not self.is_main:
            return
        if self.progress:
            tqdm.write(text)
        if self.opened:
            self._append(text)
        else:
            self.pending.append(text)

    def record(self, record: dict) -> None:
        """A record for programs: a line of log.jsonl, and its numbers as TensorBoard scalars."""
        if not self.is_main:
            return
        with open(self.dir / "log.jsonl", "a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
        if self.writer is None:
            return
        for key, value in record.items():
            if key == "runtime":
                self.writer.add_text("runtime", json.dumps(value, indent=1), record["step"])
            elif key != "step" and isinstance(value, int | float) and math.isfinite(value):
                group = "valid" if key.startswith("valid_") else "train"
                self.writer.add_scalar(f"{group}/{key.removeprefix('valid_')}", value, record["step"])
        self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def _append(self, text: str) -> None:
        with open(self.dir / "train.log", "a", encoding="utf-8") as log:
            log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n")
