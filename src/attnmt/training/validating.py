"""Validation and checkpoints of a training run: the validation loss and BLEU or chrF, the best step
and patience they decide, and the checkpoints (with the trainer state an exact resume needs) written
after them.  A part of the Trainer (attnmt.training.trainer), which holds the model and its state."""

from __future__ import annotations

import math
import time
from contextlib import nullcontext
from pathlib import Path

import torch

from attnmt import checkpoint as ckpt
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import CALIBRATION
from attnmt.decoding.translate import translate
from attnmt.evaluate import bleu, chrf
from attnmt.text.data import Batch
from attnmt.training.objective import label_smoothed_nll
from attnmt.training.run import METRIC_NAMES, RunState


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
        self.log.line(f"step {self.step}: saved {self.save().name}{why}")
        if interrupted and self.best_step == 0 and self.group.is_main:  # 0: no validation yet
            # Stopped before its first validation, the run has no model to translate with but
            # this step's weights: they are its model until a validation keeps a best.
            self.drop_calibration()
            ckpt.save_weights(self.model, self.dir / ckpt.WEIGHTS)

    def save(self, improved: bool = False) -> Path:
        """A checkpoint of this step (every rank takes part: their random states are gathered);
        with ``improved`` the weights become the model's too.  Keeps keep_last and the best."""
        rng = self.group.gather_rng()
        path = ckpt.checkpoint_path(self.dir, self.step)
        if not self.group.is_main:
            return path
        if improved:  # before the checkpoint: a resume copies its weights to the model's, should a kill come first
            self.drop_calibration()
        ckpt.save_checkpoint(self.dir, self.step, self.model, self.trainer_state(rng))
        if improved:
            ckpt.save_weights(self.model, self.dir / ckpt.WEIGHTS)
        ckpt.prune_checkpoints(self.dir, self.config.keep_last, ckpt.checkpoint_path(self.dir, self.best_step))
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
