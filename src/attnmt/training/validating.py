"""Validation and checkpoints of a training run: the validation loss and BLEU or chrF, the best step
and patience they decide, and the checkpoints (with the trainer state an exact resume needs) written
after them, the oldest pruned.  A part of the Trainer (attnmt.training.trainer), which holds the model
and its state; a resume sets right what a kill between two writes left (restore_best_weights,
remove_half_deleted)."""

from __future__ import annotations

import filecmp
import math
import re
import shutil
import time
from contextlib import nullcontext, suppress
from pathlib import Path

import torch

from attnmt import checkpoint as ckpt
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import CALIBRATION
from attnmt.decoding.translate import translate
from attnmt.evaluate import bleu, chrf
from attnmt.files import atomic_write
from attnmt.interrupt_hold import SaveHold
from attnmt.orphans import remove_entry
from attnmt.text.data import Batch
from attnmt.training.objective import label_smoothed_nll
from attnmt.training.run import METRIC_NAMES, RunState

PRUNED = re.compile(rf"\.{ckpt.STEP_FOLDER.pattern}\.pruned")  # one renamed aside to be deleted (prune_checkpoints)


def autocast(precision: str, device: torch.device):
    return torch.autocast(device.type, dtype=torch.bfloat16) if precision == "bf16" else nullcontext()


class ValidateAndSave(RunState):
    """The Trainer's validations and checkpoints (the Trainer holds the model, optimiser and data stream)."""

    @torch.inference_mode()
    def validation_loss(self, batches: list[Batch] | None = None) -> float:
        """Mean per-token NLL on the validation set, or on ``batches`` (no smoothing)."""
        self.model.eval()
        total, tokens = 0.0, 0
        for batch in self.valid_batches if batches is None else batches:
            with autocast(self.precision, self.group.device):
                logits = self.model(batch.src, batch.tgt_in)
            _, nll = label_smoothed_nll(logits, batch.tgt_out, 0.0, self.model.config.pad_id)
            total += nll.item()
            tokens += batch.n_tgt_tokens
        return total / max(tokens, 1)

    def validation_score(self, metric: str) -> float:
        """Greedy (eval_beam) translations of the validation set, scored by ``metric``: "bleu" or "chrf"."""
        sources = [src for src, _ in self.valid_pairs]
        references = [tgt for _, tgt in self.valid_pairs]
        with torch.inference_mode():
            hypotheses = translate(self.model, self.tokenizer, sources, Decoding(beam_size=self.config.eval_beam))
        return (bleu if metric == "bleu" else chrf)(hypotheses, references)

    def validate_and_save(self) -> None:
        """Rank 0 validates and shares the scores, so that every rank agrees on the best step.

        The validation is logged before its checkpoint is written: a run killed (or out of disk)
        between the two resumes from the checkpoint before, whose resume drops this record and
        writes it again; logged after, a kill between them lost it for good, since the resume
        starts past this step."""
        started = time.perf_counter()
        loss, score = 0.0, 0.0
        if self.group.is_main:
            loss = self.validation_loss()
            metric = self.config.eval_metric
            score = -loss if metric == "loss" else self.validation_score(metric)
        loss, score = self.group.broadcast(loss, score)
        improved = score > self.best_score
        if improved:
            self.best_score, self.best_step, self.bad_evals = score, self.step, 0
        else:
            self.bad_evals += 1
        if self.group.is_main:
            self.log_validation(loss, score, improved, started)
        self.save(improved)

    def log_validation(self, loss: float, score: float, improved: bool, started: float) -> None:
        """The validation's record in log.jsonl and its line in train.log (rank 0 only)."""
        metric = self.config.eval_metric
        record = {"step": self.step, "valid_loss": round(loss, 4), "valid_ppl": round(math.exp(min(loss, 50)), 2)}
        record.update({f"valid_loss_{name}": round(self.validation_loss(batches), 4)
                       for name, batches in self.corpus_valid_batches.items()})
        score_text = ""
        if metric != "loss":
            record[f"valid_{metric}"] = round(score, 2)
            score_text = f", {METRIC_NAMES[metric]} {record[f'valid_{metric}']}"
        record.update(elapsed=round(self.elapsed, 1), eval_seconds=round(time.perf_counter() - started, 1))
        self.log.record(record)
        path = ckpt.checkpoint_path(self.dir, self.step)
        self.log.line(f"step {self.step}: valid loss {loss:.3f}, ppl {record['valid_ppl']}{score_text}"
                      f"{' (best)' if improved else ''}; saving {path.name}")

    def save_unvalidated(self, interrupted: bool) -> None:
        """A checkpoint without a validation: every save_every steps, or where a signal stops the run.
        An interrupted run is not validated: a validation there would count towards the best step
        and patience, where the uninterrupted run has none, and the resumed run would differ from it."""
        why = " to resume from (interrupted: not validated)" if interrupted else ""
        with SaveHold():  # the checkpoint and the weights both, or a Ctrl-C between them left a run with no model
            self.log.line(f"step {self.step}: saved {self.save().name}{why}")
            if interrupted and self.best_step == 0 and self.group.is_main:  # 0: no validation yet
                # Stopped before its first validation, the run has no model to translate with but
                # this step's weights: they are its model until a validation keeps a best.
                self.drop_calibration()
                ckpt.save_weights(self.model, self.dir / ckpt.WEIGHTS)

    def save(self, improved: bool = False) -> Path:
        """A checkpoint of this step (every rank takes part: their random states are gathered);
        with ``improved`` the weights become the model's too.  Keeps keep_last and the best.  Ctrl-C waits
        for it to end (SaveHold): a run saves after its loop too, where the loop's StopFlag holds it no longer."""
        rng = self.group.gather_rng()
        path = ckpt.checkpoint_path(self.dir, self.step)
        if not self.group.is_main:
            return path
        with SaveHold():
            if improved:  # before the checkpoint: a resume copies its weights to the model's, should a kill come first
                self.drop_calibration()
            ckpt.save_checkpoint(self.dir, self.step, self.model, self.trainer_state(rng))
            if improved:
                ckpt.save_weights(self.model, self.dir / ckpt.WEIGHTS)
            prune_checkpoints(self.dir, self.config.keep_last, ckpt.checkpoint_path(self.dir, self.best_step))
        return path

    def drop_calibration(self) -> None:
        """Removes the quality.json of the weights this step replaces as the model's (one a finished run
        wrote, before a resume with a larger max_steps), saying so: translate's jsonl and tsv and serve
        refuse a calibration of other weights, and a run that ends interrupted calibrates none.  The run
        fits it again when it ends."""
        path = self.dir / CALIBRATION
        if path.exists():
            path.unlink()
            self.log.line(f"removed {path}, fitted on the weights step {self.step} replaces; the run calibrates "
                          "quality again when it ends")

    def trainer_state(self, rng: list[torch.Tensor]) -> dict:
        """Everything besides the weights that an exact resume needs (tensors and numbers only)."""
        return {
            "step": self.step,
            "elapsed": self.elapsed,
            "optimizer": self.optimizer.state_dict(),
            "data": self.batcher.state_dict(),
            "rng": rng,  # one random state per rank
            "best_score": self.best_score,
            "best_step": self.best_step,
            "bad_evals": self.bad_evals,
        }


def prune_checkpoints(model_dir: Path, keep_last: int, protect: Path | None = None) -> None:
    """Deletes all but the newest ``keep_last`` checkpoints, never ``protect`` (the best).  Each is first
    renamed aside (PRUNED), in one step: a kill while its files are deleted leaves that name, which
    remove_half_deleted deletes, not a step folder with some of its files gone."""
    checkpoints = ckpt.list_checkpoints(model_dir)
    for old in checkpoints[: max(len(checkpoints) - keep_last, 0)]:
        if protect is None or old.resolve() != protect.resolve():
            with suppress(OSError):  # the name is taken (by one that could not be deleted): deleted in place
                old = old.rename(old.with_name(f".{old.name}.pruned"))
            remove_entry(old)


def remove_half_deleted(model_dir: Path) -> list[Path]:
    """Deletes what a kill while pruning left in MODEL_DIR/checkpoints, and returns it: the folders renamed
    aside (PRUNED), and step folders without a trainer state, which pruning left half deleted where it
    deleted in place (earlier releases).  list_checkpoints passes those over, so no pruning ever deleted
    them.  A save leaves none (a checkpoint appears whole: save_checkpoint), so no checkpoint goes; nor
    does a link, or anything not named as a step's."""
    folder = Path(model_dir) / ckpt.CHECKPOINTS
    half = [path for path in (folder.iterdir() if folder.is_dir() else [])
            if PRUNED.fullmatch(path.name) or (ckpt.STEP_FOLDER.fullmatch(path.name) and path.is_dir()
                                               and not path.is_symlink() and not (path / ckpt.TRAINER_STATE).exists())]
    for path in half:
        remove_entry(path)
    return half


def restore_best_weights(model_dir: Path, best_step: int) -> Path | None:
    """Copies the best step's weights (checkpoints/step_{best_step}) to MODEL_DIR/model.safetensors
    where that file is missing, or is older than them and holds other weights; returns the
    checkpoint copied from, or None where nothing needed copying.

    A save writes the checkpoint (whose trainer state names the best step) before it copies an
    improved step's weights to model.safetensors: a kill between the two leaves an older best's
    weights there, which only a resume can set right.  A model.safetensors newer than the best
    checkpoint was written on purpose afterwards (an average: attnmt demo keeps one) and stays."""
    best = ckpt.checkpoint_path(model_dir, best_step) / ckpt.WEIGHTS
    target = Path(model_dir) / ckpt.WEIGHTS
    if not best_step or not best.is_file():  # no validation yet, or a best that is gone: nothing to copy
        return None
    if target.is_file() and (target.stat().st_mtime_ns > best.stat().st_mtime_ns
                             or filecmp.cmp(target, best, shallow=False)):
        return None
    atomic_write(target, lambda tmp: shutil.copyfile(best, tmp))
    return best.parent
