"""Training: Adam with the paper's warm-up, validation, checkpoints, exact resume, data parallelism.

One step::

    batch ─ model(src, tgt_in) ─ label-smoothed loss / tokens ─ backward ─ clip ─ Adam(lr = noam(step))

Under ``torchrun`` each process trains on its own share of the batches and
DistributedDataParallel sums the gradients; rank 0 alone writes to disk.

The Trainer is here (its set-up, the loop and the step); its learning rate and passes over the data
are in attnmt.training.schedule, its validations and checkpoints in attnmt.training.validating, and how it
stops and ends (its result, quality's calibration) in attnmt.training.ending.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path

import torch
import yaml
from torch.nn.parallel import DistributedDataParallel

from attnmt import checkpoint as ckpt
from attnmt.checkpoint_errors import unusable_optimizer_state
from attnmt.config_ranges import parse_duration, truth_value
from attnmt.decoding import MAX_BEAM
from attnmt.errors import ConfigError, ModelDirError, NonFiniteLoss
from attnmt.files import remove_leftovers, write_text
from attnmt.hardware import bound_kernel_caches, release_free_memory, resolve_precision
from attnmt.model import Transformer
from attnmt.text.data import Batch
from attnmt.text.tokenizer_files import save_tokenizer
from attnmt.threads import use_threads
from attnmt.train_config import TrainConfig, load_config
from attnmt.trained_lengths import write_longest_source
from attnmt.training.adam import Adam
from attnmt.training.batching import restore_position
from attnmt.training.corpus_files import check_found_here
from attnmt.training.distributed import Group, setup
from attnmt.training.ending import Ending
from attnmt.training.logs import Progress, RunLog, log_runtime, new_window, recheck_threads
from attnmt.training.objective import TranslationLoss
from attnmt.training.resume_checks import RunRecord, validation_files
from attnmt.training.run import StopFlag, TrainResult
from attnmt.training.run_dir import VALIDATION_KEYS, check_new_run_dir, check_run_to_resume, claim, record_corpora
from attnmt.training.schedule import Schedule
from attnmt.training.sizing import check_size
from attnmt.training.start import check_resume_overrides, corpus_validation_files, keep_overrides, resumed, run_start
from attnmt.training.training_data import ValidationText, load_training_data, read_validation_text, validation_set
from attnmt.training.validating import ValidateAndSave, autocast, remove_half_deleted, restore_best_weights
from attnmt.training.validation_checks import check_validation_set
from attnmt.uninitialised import float32_weights

# Steps between returns of the heap's free pages to the system.  Every step bounds memory
# as well, but the next step then faults every page back in (benchmarks/experiments/train_memory.py).
HEAP_TRIM_EVERY = 20
# Updates skipped in a row (on_nonfinite: skip) that stop a run: a poisoned batch is skipped and
# forgotten, but weights that make every batch's loss NaN would be skipped for ever.
SKIPPED_IN_A_ROW = 50


class Trainer(Schedule, ValidateAndSave, Ending):
    """Owns the model, optimiser, data stream and model directory of one training run."""

    def __init__(self, config: TrainConfig, resume: bool = False, progress: bool = True, held: bool = False,
                 record: RunRecord | None = None, said: Sequence[str] = ()) -> None:
        """``held``: the caller holds out_dir (RunLock) for longer than the run, and lets go of it.
        ``record``: the run's RunRecord that resume() checked it with, which the Trainer's own resume checks
        share (each file read and hashed once a resume); None: a record of its own.  ``said``: lines of the
        caller's about the run, its first on the console and in train.log (that it starts again)."""
        check_arguments(config, progress)
        if config.eval_beam > MAX_BEAM:  # before any work (the config's own checks cannot know decoding's limit)
            raise ConfigError(f"eval_beam={config.eval_beam}: use a whole number from 1 to {MAX_BEAM}")
        self.config = config
        self.dir = Path(config.out_dir)
        self.group: Group = setup(config.device)
        self.lock = claim(self.dir, self.group.is_main, held)  # before any work: a second run, an unwritable out_dir
        try:
            if not resume and self.group.is_main:  # before any work too: a model there it would write over
                check_new_run_dir(config)
            self._set_up(config, resume, progress, record, said)
        except BaseException:
            self.lock.release()
            raise

    def _set_up(self, config: TrainConfig, resume: bool, progress: bool, record: RunRecord | None,
                said: Sequence[str]) -> None:
        self.progress = progress and self.group.is_main
        self.log = RunLog(self.dir, self.group.is_main, progress, config.tensorboard)
        for line in said:
            self.log.line(line)
        self.precision, self.precision_reason = resolve_precision(config.precision, self.group.device)
        bound_kernel_caches()
        use_threads(config.threads, f"threads: {config.threads} in the config")  # 0: follow the free cores
        torch.manual_seed(config.seed)  # the same initial weights on every rank
        record = record or RunRecord(self.dir)  # read when first asked for: a new run reads nothing of it
        # Before the tokenizer is trained and the corpora prepared: a validation file missing, misaligned or
        # not UTF-8 is refused at once, not after that work (hours on a large corpus).
        valid, corpus_valid = self._read_validation_sets(config, resume, record)
        start = resumed(config, record) if resume else run_start(config, self.log.line)
        self.tokenizer, model_config = start.tokenizer, start.model_config
        ckpt.check_model_size(model_config, self.dir / ckpt.MODEL_CONFIG if resume else "model")
        self.data = load_training_data(config, self.tokenizer, self.log.line, resume)
        check_size(start, self.data.pairs, self.log.line)
        ids = (model_config.pad_id, model_config.bos_id, model_config.eos_id)
        self.valid_pairs, self.valid_batches = self._validation_set(valid, ids)
        if not resume and self.group.is_main and config.valid_src:  # once, where the run starts
            check_validation_set(config, self.valid_pairs, self.log.line)
        self.corpus_valid_batches = {name: self._validation_set(text, ids)[1] for name, text in corpus_valid.items()}
        with float32_weights():  # the float32 a model directory holds, whatever the host's default dtype
            self.model = Transformer(model_config)
        if start.weights:
            ckpt.load_weights(self.model, start.weights)
            self.log.line(f"starting from the weights of {start.weights}")
        self.model.to(self.group.device)
        torch.manual_seed(config.seed + 1000 * self.group.rank)  # each rank its own dropout
        self.loss = TranslationLoss(self.model, config.label_smoothing)
        if self.group.distributed:
            self.loss = DistributedDataParallel(self.loss)
        self.optimizer = Adam(self.model.parameters(), config.adam_betas, config.adam_eps)
        self.batcher = self.data.batcher(config, self.group.rank, self.group.world_size, ids)
        self.dropout = (model_config.dropout, model_config.attention_dropout)  # what the layers apply now
        self.late: bool | None = None  # whether this run takes late_dropout (None: not decided yet)
        self.step = 0
        self.elapsed = 0.0
        self.budget = parse_duration(config.max_time) if config.max_time else math.inf
        self.time_spent = 0.0  # share of max_time spent, the same on every rank (for lr_cooldown)
        self.skipped_in_a_row = 0
        self.best_score, self.best_step, self.bad_evals = -math.inf, 0, 0
        self.resuming = resume
        if resume:
            self._restore()
        else:
            self._start_dir(model_config, start.longest_trained)

    # set-up -------------------------------------------------------------------

    @staticmethod
    def _read_validation_sets(config: TrainConfig, resume: bool,
                              record: RunRecord) -> tuple[ValidationText, dict[str, ValidationText]]:
        """The run's validation set and each corpus's own (by corpus name), as text: read_validation_text."""
        specs = config.corpora()
        corpus_sets = corpus_validation_files(specs, record) if resume else {
            spec.name: (spec.valid_src, spec.valid_tgt) for spec in specs if spec.valid_src}
        index = {spec.name: i for i, spec in enumerate(specs)}
        return read_validation_text(config.valid_src, config.valid_tgt), {
            name: read_validation_text(*files, tuple(f"train[{index[name]}].{key}" for key in VALIDATION_KEYS))
            for name, files in corpus_sets.items()}

    def _validation_set(self, text: ValidationText, ids: tuple[int, int, int]) -> tuple[list, list[Batch]]:
        pairs, batches = validation_set(text, self.tokenizer, self.config, ids, self.log.line)
        return pairs, [batch.to(self.group.device) for batch in batches]

    def _start_dir(self, model_config, longest_trained: int | None) -> None:
        """Writes the new run's own files.  lengths.json records the longest source the model will have
        read: this run's, or init_from's where longer (``longest_trained``: Start's; none where unknown)."""
        if not self.group.is_main:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        save_tokenizer(self.tokenizer, self.dir)
        ckpt.save_model_config(model_config, self.dir)
        record_corpora(self.config, self.dir)
        if longest_trained is not None:
            write_longest_source(self.dir, max(longest_trained, self.data.longest_source))
        write_text(self.dir / ckpt.TRAIN_CONFIG, yaml.safe_dump(self.config.to_dict(), sort_keys=False))

    def _restore(self) -> None:
        for leftover in [*remove_leftovers(self.dir), *remove_leftovers(self.dir / ckpt.CHECKPOINTS)]:
            self.log.line(f"removed {leftover}, left by a save that was cut short")
        for leftover in remove_half_deleted(self.dir):
            self.log.line(f"removed {leftover}, left half deleted by a pruning that was cut short")
        latest, state = ckpt.load_latest_checkpoint(self.dir, self.model, self.log.line)
        try:
            self.optimizer.load_state_dict(state["optimizer"])
        except ValueError as error:
            earlier = ckpt.list_checkpoints(self.dir)[0] != latest
            raise unusable_optimizer_state(latest / ckpt.TRAINER_STATE, error, earlier) from None
        for line in restore_position(self.batcher, state["data"]):
            self.log.line(line)
        if len(state["rng"]) == self.group.world_size:
            torch.set_rng_state(state["rng"][self.group.rank])
        else:
            self.log.line(f"the run had {len(state['rng'])} processes, now {self.group.world_size}: "
                          "dropout randomness starts afresh")
        self.step, self.elapsed = state["step"], state["elapsed"]
        # "best_bleu" in the first models' checkpoints, whatever the metric
        self.best_score = state["best_score"] if "best_score" in state else state["best_bleu"]
        self.best_step, self.bad_evals = state["best_step"], state["bad_evals"]
        self.log.line(f"resumed from {latest} (step {self.step})")
        if self.group.is_main and (best := restore_best_weights(self.dir, self.best_step)):
            self.log.line(f"{self.dir / ckpt.WEIGHTS}: set to the weights of {best}, the best step, which a "
                          "save cut short had not copied yet")

    # the loop -----------------------------------------------------------------

    def train(self) -> TrainResult:
        try:
            finished = self._finished()
            if finished:  # a resumed run that had already stopped for good: nothing to train, nothing written
                larger = "--patience (0: no early stop)" if "patience" in finished else "--max-steps or --max-time"
                uncalibrated = self._uncalibrated()
                self.log.line(f"{self.dir} has already finished ({finished}); nothing to "
                              f"{'train' if uncalibrated else 'do'}. To train on, resume with a larger {larger}")
                if uncalibrated:  # Ctrl-C cut its calibration short at its end: this resume fits it
                    self._calibrate()
                return self._result(finished)
            self.log.open(resumed_at=self.step if self.resuming else None)
            if self.resuming and self.group.is_main:
                for line in keep_overrides(self.config, self.dir):
                    self.log.line(line)
            return self._train()
        finally:
            self.log.close()
            self.lock.release()

    def _train(self) -> TrainResult:
        c = self.config
        log_runtime(self.log, self.step, self.precision, self.precision_reason, self.group)
        stream = iter(self.batcher)
        bar = Progress(self.step, self.elapsed, c.max_steps, self.budget, self.progress)
        last_saved = self.step
        window = new_window()
        with StopFlag().installed() as stop:
            while True:
                started = time.perf_counter()
                loss, tokens = self.train_step([next(stream).to(self.group.device)
                                                for _ in range(c.accumulate_steps)])
                took = time.perf_counter() - started
                self.elapsed += took
                recheck_threads(self.log, self.step)
                if math.isnan(loss):  # a skipped non-finite batch: no update, no step
                    stopped_by, interrupted = self._stop_reason(stop)
                    if stopped_by:
                        break
                    continue
                window.update(loss=window["loss"] + loss, tokens=window["tokens"] + tokens,
                              time=window["time"] + took, steps=window["steps"] + 1)
                bar.advance(self.step, self.elapsed)
                if self.step % c.log_every == 0:
                    self._log_train(window, bar)
                    window = new_window()
                stopped_by, interrupted = self._stop_reason(stop)
                if self.step % c.eval_every == 0 or (stopped_by and not interrupted):
                    self.validate_and_save()
                    last_saved = self.step
                    if not stopped_by and c.patience and self.bad_evals >= c.patience:
                        stopped_by = "patience"
                elif interrupted or (c.save_every and self.step % c.save_every == 0):
                    self.save_unvalidated(interrupted)
                    last_saved = self.step
                if stopped_by:
                    break
        if last_saved != self.step and interrupted:  # stopped after a skipped batch
            self.save_unvalidated(interrupted)
        elif last_saved != self.step:
            self.validate_and_save()
        bar.close()
        if self.group.is_main and c.valid_src and interrupted:  # calibrating would hold up the exit for minutes
            self._calibrate_later()
        elif self.group.is_main and c.valid_src:  # quality's calibration, on the weights just kept
            self._calibrate()
        result = self._result(stopped_by)
        self.log.line(f"stopped at step {self.step} ({stopped_by}); {result.best()}; model in {self.dir}")
        return result

    def train_step(self, batches: list[Batch]) -> tuple[float, int]:
        """One optimiser update over ``batches`` (gradient accumulation) on every rank.

        The gradient is Σ loss / Σ tokens over all batches of all ranks, so 2 ranks
        give the same update as 1 process accumulating the same 2 batches.
        Returns (loss per target token, target tokens), over all ranks.
        """
        self.model.train()
        self._late_dropout()
        tokens = int(self.group.sum(sum(b.n_tgt_tokens for b in batches)))
        scale = self.group.world_size / tokens  # DDP averages gradients over ranks: undo that
        total = 0.0
        for i, batch in enumerate(batches):
            last = i == len(batches) - 1
            no_sync = self.loss.no_sync() if self.group.distributed and not last else nullcontext()
            with no_sync:
                with autocast(self.precision, self.group.device):
                    loss = self.loss(batch.src, batch.tgt_in, batch.tgt_out)
                (loss * scale).backward()
            total += loss.item()
        total = self.group.sum(total)
        if not math.isfinite(total):
            self.optimizer.zero_grad()
            self._non_finite(total)
            return math.nan, tokens
        self.skipped_in_a_row = 0
        if self.config.clip_norm > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.clip_norm)
        self.step += 1
        if self.config.lr_cooldown and self.budget < math.inf:
            self.time_spent = self.share_of_time_spent()
        self.optimizer.lr = self.learning_rate()
        self.optimizer.step()
        self.optimizer.zero_grad()
        if self.step % HEAP_TRIM_EVERY == 0:
            release_free_memory()  # each batch has its own shapes: without this the heap keeps growing
        return total / tokens, tokens

    def _non_finite(self, total: float) -> None:
        """A NaN/inf loss: skip the batch, or stop with the last good checkpoint untouched."""
        where = f"non-finite loss ({total}) at step {self.step + 1}"
        self.log.record({"step": self.step + 1, "non_finite_loss": str(total), "action": self.config.on_nonfinite})
        self.skipped_in_a_row += 1
        if self.config.on_nonfinite == "stop":
            raise NonFiniteLoss(f"{where}; stopped. {self._last_good()}")
        if self.skipped_in_a_row >= SKIPPED_IN_A_ROW:
            raise NonFiniteLoss(f"{where}, {self.skipped_in_a_row} updates in a row: the weights are broken, not a "
                                f"batch; stopped. {self._last_good()}")
        self.log.line(f"warning: {where}; batch skipped (on_nonfinite: skip)")

    def _last_good(self) -> str:
        good = ckpt.last_finite_checkpoint(self.dir)
        return (f"The last good checkpoint is {good or 'none (none was written yet)'}; lower lr_factor or "
                "set clip_norm, then 'attnmt train --resume'")

    # logging ------------------------------------------------------------------

    def _log_train(self, window: dict, bar: Progress) -> None:
        tokens_per_s = window["tokens"] / max(window["time"], 1e-9)
        # The steps in this window: fewer than log_every after a resume or skipped batches.
        record = {"step": self.step, "loss": round(window["loss"] / window["steps"], 4), "lr": self.learning_rate(),
                  "tokens_per_s": round(tokens_per_s), "elapsed": round(self.elapsed, 1)}
        self.log.record(record)
        bar.show(record)


def check_arguments(config: object, progress: object) -> None:
    """One clear error for a ``config`` that is no TrainConfig (a dict was an AttributeError naming
    ``eval_beam``) or a ``progress`` that is no bool (``progress="no"``, true to ``if``, drew the bar)."""
    if not isinstance(config, TrainConfig):
        raise ConfigError(f"config: expected an attnmt TrainConfig, got {type(config).__name__}; e.g. "
                          "load_config('train.yaml'), or TrainConfig.from_dict(values) for a dict")
    check_progress(progress)


def check_progress(progress: object) -> None:
    """``progress`` (whether a run draws its progress bar) as check_arguments checks it."""
    if truth_value(progress) is None:
        raise ConfigError(f"progress: expected true or false (whether to show the progress bar), got "
                          f"{type(progress).__name__} {progress!r:.60}")


def train(config: TrainConfig, progress: bool = True) -> TrainResult:
    """Trains a new model into ``config.out_dir``; ConfigError, before any work, for a ``config`` that
    is no TrainConfig or a ``progress`` that is no bool."""
    return Trainer(config, progress=progress).train()


def resume(model_dir: str | Path, overrides: dict | None = None, progress: bool = True) -> TrainResult:
    """Continues the run in ``model_dir`` exactly where its last checkpoint stopped; ``overrides``
    change its config from here on (a section given whole, ``{"model": "{dropout: 0.2}"}``, only the
    keys it names) and are kept in its train.yaml for the next resume."""
    check_progress(progress)
    check_run_to_resume(Path(model_dir), key="model_dir")
    if not ckpt.list_checkpoints(Path(model_dir)):
        return started_again(Path(model_dir), overrides, progress)
    config, record = load_config(Path(model_dir) / ckpt.TRAIN_CONFIG, overrides, merge=True), RunRecord(Path(model_dir))
    check_resume_overrides(config, record)
    config.out_dir = str(model_dir)
    for key, file in validation_files(config, record).items():  # the run's bytes, where found
        setattr(config, key, file)
    return Trainer(config, resume=True, progress=progress, record=record).train()


def started_again(model_dir: Path, overrides: dict | None, progress: bool) -> TrainResult:
    """A run stopped before its first checkpoint (killed while it prepared, trained or saved it) has
    nothing to resume from, and the config that starts it again is its own train.yaml, which a new run
    may not read from inside its out_dir: it starts again from step 0 with it.  Not where weights are
    (a run whose checkpoints were deleted since): a new start would write over them."""
    if (model_dir / ckpt.WEIGHTS).exists():
        raise ModelDirError(f"{model_dir}: no checkpoint to resume from, but it holds weights ({ckpt.WEIGHTS}): "
                            f"train on from them as a new run, with init_from: {model_dir} and another out_dir")
    config = load_config(model_dir / ckpt.TRAIN_CONFIG, overrides, merge=True)
    config.out_dir = str(model_dir)
    check_found_here(config, RunRecord(model_dir).started)
    said = (f"{model_dir}: no checkpoint to resume from (the run stopped before its first); starting it again from "
            f"its {ckpt.TRAIN_CONFIG}")
    return Trainer(config, progress=progress, said=[said]).train()
