"""What a run says about itself while it trains: the progress, on a terminal or in a log file, and
log.jsonl, each step once however often the run was resumed."""

import json
import math
import re
from pathlib import Path

import pytest
from support import some_features, tiny_config

from attnmt.decoding import calibration
from attnmt.training import logs
from attnmt.training.logs import Progress, RunLog
from attnmt.training.trainer import Trainer, resume


def test_progress_in_a_log_file_is_a_line_every_30_seconds_not_carriage_returns(capsys, monkeypatch):
    now = [0.0]
    monkeypatch.setattr(logs, "monotonic", lambda: now[0], raising=False)
    bar = Progress(0, 0.0, 100, math.inf, enabled=True)  # stderr is pytest's capture: not a terminal
    for step in range(1, 101):  # a step a second
        now[0] += 1.0
        bar.advance(step, now[0])
        if step == 10:
            bar.show({"loss": 3.21, "lr": 1e-4, "tokens_per_s": 1234, "elapsed": 10.0})
    bar.close()
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = err.splitlines()
    assert [line.split("[")[0].strip() for line in lines] == ["30% 30/100", "60% 60/100", "90% 90/100", "100% 100/100"]
    assert lines[0].endswith(", loss=3.210, lr=1.00e-04, tok_s=1234, time_left=-]")


def test_without_tensorboard_the_run_names_the_extra_that_installs_it(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "torch.utils.tensorboard", None)  # as where tensorboard is not installed
    log = RunLog(tmp_path, is_main=True, progress=False, tensorboard=True)
    log.open()
    assert log.writer is None
    line, = (tmp_path / "train.log").read_text().splitlines()  # after the time
    assert line.endswith(" TensorBoard logging is off: pip install 'attnmt[tensorboard]' to have it "
                         "(log.jsonl has it all)")


def records(path) -> list[tuple[int, str]]:
    return [(json.loads(line)["step"], next(key for key in json.loads(line) if key != "step"))
            for line in path.read_text().splitlines()]


def test_a_resume_drops_the_records_written_after_its_checkpoint(tmp_path, capsys):
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(record) + "\n" for record in [
        {"step": 0, "runtime": {}}, {"step": 5, "loss": 3.0}, {"step": 10, "loss": 2.0},
        {"step": 10, "valid_loss": 2.5}, {"step": 15, "loss": 1.5}]) + '{"step": 2')  # killed at step 17
    log = RunLog(tmp_path, is_main=True, progress=True, tensorboard=False)
    log.open(resumed_at=10)
    log.record({"step": 10, "runtime": {}})
    assert records(tmp_path / "log.jsonl") == [(0, "runtime"), (5, "loss"), (10, "loss"), (10, "valid_loss"),
                                               (10, "runtime")]
    assert "log.jsonl: dropped 2 record(s) after step 10" in capsys.readouterr().out


def test_a_whole_last_record_a_kill_left_without_its_newline_is_kept_on_a_line_of_its_own(tmp_path):
    """Nothing to drop, but the next record must not be glued onto the last one (log.jsonl unreadable)."""
    (tmp_path / "log.jsonl").write_text('{"step": 5, "loss": 3.0}\n{"step": 10, "loss": 2.0}')
    log = RunLog(tmp_path, is_main=True, progress=False, tensorboard=False)
    log.open(resumed_at=10)
    log.record({"step": 11, "loss": 1.5})
    assert records(tmp_path / "log.jsonl") == [(5, "loss"), (10, "loss"), (11, "loss")]


def tensorboard_steps(folder: Path, tag: str) -> list[int]:
    """The steps of ``tag`` that TensorBoard shows from the event files in ``folder``."""
    accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    events = accumulator.EventAccumulator(str(folder))
    events.Reload()
    return [event.step for event in events.Scalars(tag)]


def test_a_resume_drops_the_tensorboard_steps_written_after_its_checkpoint(tmp_path):
    pytest.importorskip("torch.utils.tensorboard")
    killed = RunLog(tmp_path, is_main=True, progress=False, tensorboard=True)
    killed.open()
    for step in (5, 10, 15):  # checkpoint at step 10, killed after step 15's record
        killed.record({"step": step, "loss": 1.0 / step})
    killed.close()
    resumed = RunLog(tmp_path, is_main=True, progress=False, tensorboard=True)
    resumed.open(resumed_at=10)
    for step in (15, 20):
        resumed.record({"step": step, "loss": 2.0 / step})
    resumed.close()
    assert tensorboard_steps(tmp_path / "tensorboard", "train/loss") == [5, 10, 15, 20]


def test_a_resume_in_the_same_second_as_the_killed_run_is_read_after_it(tmp_path, monkeypatch):
    """TensorBoard reads event files in name order, and the name's writer number sorts as text:
    the killed run's writer 9 came after the resumed run's writer 10 started in the same second,
    and the purge was read before the steps it purges ([15, 20, 5, 10, 15])."""
    pytest.importorskip("torch.utils.tensorboard")
    event_file_writer = pytest.importorskip("tensorboard.summary.writer.event_file_writer")
    monkeypatch.setattr(event_file_writer, "_global_uid", event_file_writer.AtomicCounter(9))
    killed = RunLog(tmp_path, is_main=True, progress=False, tensorboard=True)
    killed.open()
    for step in (5, 10, 15):
        killed.record({"step": step, "loss": 1.0 / step})
    killed.close()
    resumed = RunLog(tmp_path, is_main=True, progress=False, tensorboard=True)
    resumed.open(resumed_at=10)
    resumed.record({"step": 15, "loss": 2.0 / 15})
    resumed.close()
    assert tensorboard_steps(tmp_path / "tensorboard", "train/loss") == [5, 10, 15]


def test_a_resumed_run_logs_each_step_once(tmp_path):
    config = tiny_config(tmp_path, eval_metric="loss", max_tokens=120, max_steps=2, eval_every=2, log_every=1,
                         model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64))
    Trainer(config, progress=False).train()
    with open(Path(config.out_dir) / "log.jsonl", "a") as log:  # what a run killed at step 3 had written
        log.write(json.dumps({"step": 3, "loss": 9.9, "lr": 0.1, "tokens_per_s": 1, "elapsed": 1.0}) + "\n")
    resume(config.out_dir, {"max_steps": "4"}, progress=False)
    steps = [step for step, kind in records(Path(config.out_dir) / "log.jsonl") if kind == "loss"]
    assert steps == [1, 2, 3, 4]


def test_an_uncalibrated_run_names_the_command_whose_options_its_reason_gives(tmp_path, monkeypatch):
    """The reason says "give another --chrf-threshold", which train has not: the line ended "attnmt
    calibrate --model M --src F --ref F does it later", without it."""
    def all_miss(*args, **kwargs):  # 120 translations, each under chrF 50
        return calibration.fit_calibration([some_features(k) for k in range(120)], [0.0] * 120, [1.0] * 120, "0")

    monkeypatch.setattr("attnmt.checkpoint.load_model_dir", lambda model_dir, weights=None: (None, None))
    monkeypatch.setattr(calibration, "calibrate", all_miss)
    for name in ("valid.en", "valid.de"):
        (tmp_path / name).write_text("a line\n", encoding="utf-8")
    said = []
    calibration.calibrate_run(tmp_path, str(tmp_path / "valid.en"), str(tmp_path / "valid.de"), said.append)
    assert said == ["quality not calibrated (0 of the 120 translations reach chrF 50 and 120 miss it: quality needs "
                    "at least 10 of each to tell them apart; give another --chrf-threshold or other sentences); "
                    f"calibrate it later with attnmt calibrate --model {tmp_path} --src F --ref F "
                    "[--chrf-threshold N]"]


def test_a_vocabulary_smaller_than_asked_is_told_in_train_log_too(tmp_path, capsys):
    """The warning reached the console (a Python warning) but not MODEL_DIR/train.log."""
    config = tiny_config(tmp_path, vocab_size=1000, max_steps=1, eval_every=1, eval_metric="loss")
    Trainer(config, progress=True).train()
    told = r"warning: asked for vocab_size=1000, but the training text only supports (\d+) pieces; using \1\n"
    assert len(re.findall(told, (Path(config.out_dir) / "train.log").read_text())) == 1
    assert len(re.findall(told, capsys.readouterr().out)) == 1
