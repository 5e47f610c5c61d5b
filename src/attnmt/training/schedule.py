"""The pace of a training run: its learning rate at each step, the passes over the data it has made
and will make, and the late dropout those passes switch on.  A part of the Trainer
(attnmt.training.trainer), which reads its step, elapsed time, budget and batches."""

from __future__ import annotations

import math

from attnmt.training.objective import constant_schedule, cooldown, noam_schedule
from attnmt.training.run import RunState


class Schedule(RunState):
    """The Trainer's learning rate, passes over the data and late dropout (the Trainer holds the state)."""

    def epochs(self, step: int | None = None) -> float:
        """Passes over the training data (of every corpus, by its batches) after ``step`` updates."""
        step = self.step if step is None else step
        return step * self.config.accumulate_steps / max(self.batcher.batches_per_epoch(), 1)

    def _late_dropout(self) -> None:
        """Late dropout (Liu et al., "Dropout Reduces Underfitting", 2023): the model's dropout until
        late_dropout_epoch passes over the data, then late_dropout's.  A model that sees its data
        many times learns faster with little dropout at first and overfits less with more later;
        a run too short to overfit (under late_dropout_min_epochs passes) keeps its dropout."""
        c = self.config
        if not c.late_dropout_epoch or self.late is False or self.epochs() < c.late_dropout_epoch:
            return
        if self.late is None:
            self.late = self.budget_epochs() >= c.late_dropout_min_epochs
            if not self.late:
                self.log.line(f"step {self.step}: no late dropout: the run's budget is {self.budget_epochs():.1f} "
                              f"passes over the data, under late_dropout_min_epochs {c.late_dropout_min_epochs}")
                return
        config = self.model.config
        wanted = (config.dropout if c.late_dropout is None else c.late_dropout,
                  config.attention_dropout if c.late_attention_dropout is None else c.late_attention_dropout)
        if wanted == self.dropout:
            return
        self.model.set_dropout(*wanted, config.activation_dropout)  # an unset one follows dropout
        self.dropout = wanted
        self.log.record({"step": self.step, "dropout": wanted[0], "attention_dropout": wanted[1]})
        self.log.line(f"step {self.step}: dropout {wanted[0]}, attention dropout {wanted[1]} from here "
                      f"({self.epochs():.1f} passes over the data; late_dropout_epoch {c.late_dropout_epoch})")

    def share_of_time_spent(self) -> float:
        """The share of max_time spent training, the mean over ranks (the same on every rank)."""
        return self.group.sum(self.elapsed) / self.group.world_size / self.budget

    def budget_epochs(self) -> float:
        """The passes over the data the whole run will make: max_steps, or max_time at the pace so far
        (the same on every rank), whichever ends first."""
        steps = float(self.config.max_steps)
        if self.budget < math.inf and self.step:
            steps = min(steps, self.step / max(self.share_of_time_spent(), 1e-9))
        return self.epochs(round(steps))

    def learning_rate(self, step: int | None = None) -> float:
        c = self.config
        step = step or self.step
        if c.learning_rate is not None:
            rate = constant_schedule(step, c.warmup_steps, c.learning_rate)
        else:
            rate = noam_schedule(step, self.model.config.d_model, c.warmup_steps, c.lr_factor)
        # the budget spent: of max_steps, or of max_time at the pace so far, whichever is further on
        return cooldown(rate, max(step / c.max_steps, self.time_spent), c.lr_cooldown)
