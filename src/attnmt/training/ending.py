"""How a training run ends: whether a restored run has already finished, why the loop stops after a
step, the run's result, and quality's calibration at its end (or, after Ctrl-C, left to the resume).
A part of the Trainer (attnmt.training.trainer), which holds the run's state."""

from __future__ import annotations

from attnmt.decoding.calibration import CALIBRATION, calibrate_run
from attnmt.files import write_text
from attnmt.training.run import METRIC_NAMES, RunState, StopFlag, TrainResult

# In MODEL_DIR while the run's calibration is left to its resume: from the fit's start, so that a kill in
# it (SIGKILL: no handler runs) leaves it too, until the fit ends, or Ctrl-C cuts it short.
CALIBRATION_CUT = ".calibration-interrupted"


class Ending(RunState):
    """The Trainer's stopping, result and end-of-run calibration (the Trainer holds the state)."""

    def _result(self, stopped_by: str) -> TrainResult:
        return TrainResult(self.dir, self.step, self.best_score, self.best_step, stopped_by,
                           METRIC_NAMES[self.config.eval_metric])

    def _calibrate(self) -> None:
        """Fits quality's calibration on the model's weights.  Ctrl-C here (after the last checkpoint, outside
        the loop's StopFlag) ends the run as Ctrl-C during a step does: the calibration left for later, and
        the line that says how, where the KeyboardInterrupt left the run uncalibrated with no word of it.
        It fits on the pairs the run's validation scored (valid_pairs: none over max_len)."""
        write_text(self.dir / CALIBRATION_CUT, "")
        try:
            calibrate_run(self.dir, self.config.valid_src, self.config.valid_tgt, self.log.line, self.valid_pairs)
        except KeyboardInterrupt:
            self._calibrate_later()
        else:
            (self.dir / CALIBRATION_CUT).unlink(missing_ok=True)

    def _calibrate_later(self) -> None:
        write_text(self.dir / CALIBRATION_CUT, "")
        self.log.line(f"quality not calibrated (interrupted): the resumed run calibrates it at its end; "
                      f"attnmt calibrate --model {self.dir} does it now")

    def _uncalibrated(self) -> bool:
        """Whether Ctrl-C or a kill cut the run's calibration short (CALIBRATION_CUT; rank 0 only): not a
        calibration refused (too few sentences reach chrF 50), which each resume would translate the set for
        again."""
        return (self.group.is_main and (self.dir / CALIBRATION_CUT).exists()
                and not (self.dir / CALIBRATION).exists())  # attnmt calibrate may have fitted it since

    def _finished(self) -> str:
        """Why a restored run must not take another step ("" = it may): a limit it already reached."""
        c = self.config
        if self.step >= c.max_steps:
            return f"step {self.step} reached max_steps {c.max_steps}"
        if self.elapsed >= self.budget:
            return f"{self.elapsed / 60:.1f} minutes of training reached max_time {c.max_time}"
        if c.patience and self.bad_evals >= c.patience:
            return f"{self.bad_evals} validations without improvement reached patience {c.patience}"
        return ""

    def _stop_reason(self, stop: StopFlag) -> tuple[str, bool]:
        """Why to stop now ("" = go on), and whether a signal (Ctrl-C, SIGTERM) interrupts the run
        where no limit ends it (at a limit the run ends as an uninterrupted one would); every rank
        stops at the same step, and agrees on both."""
        limit = ""
        if self.elapsed >= self.budget:
            limit = "max_time"
        elif self.step >= self.config.max_steps:
            limit = "max_steps"
        reason = limit or stop.signal or ""
        if not self.group.any(bool(reason)):
            return "", False
        if self.group.any(bool(limit)):
            return limit or "another rank stopped", False
        return stop.signal or "another rank stopped", True
