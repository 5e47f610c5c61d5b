"""What a training run writes about itself: the console, a plain ``train.log``, ``log.jsonl``
(one JSON record a line, the source for ``attnmt plot training``) and, where the
``tensorboard`` package is installed, TensorBoard event files in ``MODEL_DIR/tensorboard``.

Only rank 0 writes.  Nothing reaches the model directory until ``open()``: a run that
turns out to have nothing to do (a finished run resumed) leaves the directory untouched.
"""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING

from tqdm import tqdm

from attnmt.errors import ModelDirError, json_value
from attnmt.files import appended_lines, write_failure, write_text
from attnmt.hardware import describe
from attnmt.threads import THREADS, recheck

if TYPE_CHECKING:
    from attnmt.training.distributed import Group

# Seconds between progress lines where standard error is not a terminal (a log file, a pipe).
PROGRESS_LINE_EVERY = 30.0


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

    def open(self, resumed_at: int | None = None) -> None:
        """Starts writing into the model directory (which must exist on rank 0).  A run resumed at
        step ``resumed_at`` first drops the records of later steps, which the run it resumes wrote
        after its last checkpoint (it was killed) and which this run writes again; in TensorBoard's
        event files, which are only ever appended to, it marks them purged (TensorBoard then shows
        each step once)."""
        if not self.is_main or self.opened:
            return
        self.opened = True
        for text in self.pending:
            self._append(text)
        self.pending = []
        if resumed_at is not None and (dropped := drop_records_after(self.dir / "log.jsonl", resumed_at)):
            self.line(f"log.jsonl: dropped {dropped} record(s) after step {resumed_at}, written after the "
                      "checkpoint this run resumes from")
        if resumed_at is None and (dropped := drop_records_after(self.dir / "log.jsonl", -1)):
            # a run stopped before its first checkpoint, started again into its folder: its records were
            # read as this run's, its step 2 beside this run's (plot training drew both)
            self.line(f"log.jsonl: dropped {dropped} record(s) of the run this one starts again")
        if self.tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter
            except ImportError:  # the package is optional: log.jsonl has the same numbers
                self.line("TensorBoard logging is off: pip install 'attnmt[tensorboard]' to have it "
                          "(log.jsonl has it all)")
            else:  # resumed: TensorBoard hides the event files' steps after the checkpoint, as log.jsonl drops them
                purge_step = None if resumed_at is None else resumed_at + 1
                if resumed_at is not None:
                    wait_for_a_later_second(self.dir / "tensorboard")
                self.writer = SummaryWriter(str(self.dir / "tensorboard"), purge_step=purge_step)

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
        self._write("log.jsonl", json.dumps(record) + "\n")
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
        self._write("train.log", f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n")

    def _write(self, name: str, text: str) -> None:
        path = self.dir / name
        try:
            with open(path, "a", encoding="utf-8") as log:
                log.write(text)
        except OSError as error:  # a full disk, say: one line, as for the checkpoints
            raise ModelDirError(f"could not write {path}: {write_failure(error)}") from None


def wait_for_a_later_second(folder: Path) -> None:
    """Waits, at most a second, until the clock is past the second in which the newest event file
    in ``folder`` was started.  TensorBoard reads a folder's event files in the order of their
    names, ``events.out.tfevents.<second>.<host>.<pid>.<writer number>``: a resumed run's file
    started in the same second as the killed run's could sort first (pid 9999 after 12345, writer
    10 after 9), and its purge would then come before the steps it purges."""
    seconds = [int(part) for name in (p.name for p in folder.glob("events.out.tfevents.*"))
               if (part := name.split(".")[3]).isdigit()]
    if seconds and 0 <= (wait := max(seconds) + 1 - time.time()) <= 1:
        time.sleep(wait)


def drop_records_after(path: Path, step: int) -> int:
    """Rewrites the log ``path`` without its records of steps after ``step`` (atomically: a kill
    leaves the old log or the new one); returns how many it dropped.  A line that is not a record
    goes too, the last one cut short by a kill (``appended_lines``) among them.  A whole last record
    that a kill left without its newline is kept, and given one."""
    if not path.is_file():
        return 0
    data = path.read_bytes()
    lines, unfinished = appended_lines(data)
    kept, dropped = [], int(unfinished is not None)
    for line in (raw.decode("utf-8", errors="replace") for raw in lines):
        try:
            record = json_value(line)
            later = not isinstance(record, dict) or not isinstance(record.get("step"), int) or record["step"] > step
        except ValueError:
            later = True
        kept += [] if later else [line + "\n"]
        dropped += later
    if dropped or not data.endswith(b"\n") and data.strip():  # a whole last record without its newline
        write_text(path, "".join(kept))  # ends in one: the next record appended starts a line of its own
    return dropped


def new_window() -> dict:
    """The sums over the steps since the last training record."""
    return {"loss": 0.0, "tokens": 0, "time": 0.0, "steps": 0}


class Progress:
    """The progress bar, in steps towards whichever limit ends the run first: max_steps, or the
    step that max_time will see at the pace of the training so far (validation not counted)."""

    def __init__(self, step: int, elapsed: float, max_steps: int, budget: float, enabled: bool) -> None:
        self.start, self.max_steps, self.budget = (step, elapsed), max_steps, budget
        self.bar = progress_bar(step, max_steps, enabled)

    def advance(self, step: int, elapsed: float) -> None:
        """One step more; ``elapsed``: seconds of training so far."""
        self.bar.total = max(step, self.last_step(step, elapsed))
        self.bar.update(1)

    def last_step(self, step: int, elapsed: float) -> int:
        """The step the run will end at: max_steps, or sooner where max_time comes first."""
        steps, seconds = step - self.start[0], elapsed - self.start[1]
        if self.budget == math.inf or steps <= 0 or seconds <= 0:
            return self.max_steps
        return min(self.max_steps, step + int(steps / seconds * max(self.budget - elapsed, 0.0)))

    def show(self, record: dict) -> None:
        """A training record's numbers beside the bar."""
        left = f"{(self.budget - record['elapsed']) / 60:.1f}m" if self.budget < math.inf else "-"
        self.bar.set_postfix(loss=f"{record['loss']:.3f}", lr=f"{record['lr']:.2e}", tok_s=record["tokens_per_s"],
                             time_left=left)

    def close(self) -> None:
        self.bar.close()


def progress_bar(step: int, max_steps: int, enabled: bool) -> tqdm | ProgressLines:
    """tqdm's bar on a terminal; elsewhere lines, since tqdm redraws its bar with a carriage return
    ten times a second, which a log file keeps as thousands of updates."""
    if enabled and not sys.stderr.isatty():
        return ProgressLines(max_steps, step)
    return tqdm(total=max_steps, initial=step, disable=not enabled, dynamic_ncols=True, unit="step")


class ProgressLines:
    """The bar's numbers as a line of their own on stderr, every PROGRESS_LINE_EVERY seconds and at
    the end: `` 30% 300/1000 [00:30<01:10, 10.00step/s, loss=3.210, …]``."""

    def __init__(self, total: int, initial: int) -> None:
        self.total, self.n, self.initial = total, initial, initial
        self.started = self.last_line = monotonic()
        self.postfix = ""

    def update(self, n: int) -> None:
        self.n += n
        if monotonic() - self.last_line >= PROGRESS_LINE_EVERY:
            self.line()

    def set_postfix(self, **values) -> None:
        self.postfix = ", ".join(f"{name}={value}" for name, value in values.items())

    def close(self) -> None:
        self.line()

    def line(self) -> None:
        self.last_line = monotonic()
        print(tqdm.format_meter(self.n, self.total, self.last_line - self.started, ncols=0, unit="step",
                                initial=self.initial, postfix=self.postfix), file=sys.stderr, flush=True)


def log_runtime(log: RunLog, step: int, precision: str, why: str, group: Group) -> None:
    """Says what a run resolved (precision and ``why``, device, threads, CPU) on the console and in log.jsonl."""
    runtime = {"precision": precision, "precision_reason": why,
               **describe(group.device), "threads_why": THREADS.why(), "world_size": group.world_size}
    log.record({"step": step, "runtime": runtime})
    flags = " ".join(runtime["cpu_flags"]) or "none of note"
    log.line(f"precision {precision} ({why}); device {runtime['device']}, "
             f"threads {THREADS.describe()} x {group.world_size} process(es); CPU {runtime['cpu']} "
             f"({flags}; PyTorch kernels {runtime['torch_cpu_capability']})")


def recheck_threads(log: RunLog, step: int) -> None:
    """Between steps: the thread count, where it follows the free cores (attnmt.threads)."""
    changed = recheck()
    if changed is not None:
        log.record({"step": step, "threads": changed.count, "threads_why": changed.why})
        log.line(f"step {step}: {changed.count} thread(s) ({changed.why})")
