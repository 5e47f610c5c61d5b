"""What ends a training run and what it returns: the stop signal (Ctrl-C, SIGTERM) the loop
checks after each step, and the run's result; and what a run holds (RunState), which the
Trainer's parts read."""

from __future__ import annotations

import signal
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from attnmt.model import Transformer
from attnmt.text.data import Batch
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer
from attnmt.train_config import TrainConfig
from attnmt.training.adam import Adam
from attnmt.training.batching import TokenBatcher, WeightedBatcher
from attnmt.training.distributed import Group
from attnmt.training.logs import RunLog

METRIC_NAMES = {"bleu": "BLEU", "chrf": "chrF", "loss": "loss"}


class RunState:
    """What a training run holds, set by the Trainer (attnmt.training.trainer) and read by its parts
    (the schedule, validation and checkpoints), which are written apart to keep each file short."""

    config: TrainConfig
    dir: Path
    group: Group
    log: RunLog
    tokenizer: Tokenizer | VocabTokenizer
    precision: str
    model: Transformer
    optimizer: Adam
    batcher: TokenBatcher | WeightedBatcher
    valid_pairs: list
    valid_batches: list[Batch]
    corpus_valid_batches: dict[str, list[Batch]]
    step: int
    elapsed: float  # seconds of training so far, over every resume
    budget: float  # max_time in seconds (inf: none)
    time_spent: float  # share of max_time spent, the same on every rank
    dropout: tuple[float, float]
    late: bool | None
    best_score: float
    best_step: int
    bad_evals: int


@dataclass
class TrainResult:
    model_dir: Path
    step: int
    best_score: float  # the best validation BLEU or chrF, or minus the validation loss
    best_step: int
    stopped_by: str
    metric: str = "BLEU"  # what best_score measures: "BLEU", "chrF" or "loss"

    def best(self) -> str:
        """The best validation score in words, e.g. "best validation BLEU 31.20 at step 700"."""
        if self.best_step == 0:
            return "no validation yet"
        value = -self.best_score if self.metric == "loss" else self.best_score
        return f"best validation {self.metric} {value:.2f} at step {self.best_step}"


class StopFlag:
    """Set by Ctrl-C (SIGINT) or SIGTERM: the loop finishes its step, saves a checkpoint and returns."""

    def __init__(self) -> None:
        self.signal: str | None = None

    @contextmanager
    def installed(self):
        previous = {}
        try:
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, self._handle)
        except ValueError:  # not the main thread: no handlers, training still works
            pass
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _handle(self, signum, frame) -> None:
        self.signal = signal.Signals(signum).name
