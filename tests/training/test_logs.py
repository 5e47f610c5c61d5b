"""What a run says about itself while it trains: the progress, on a terminal or in a log file."""

import math

from attnmt.training import logs
from attnmt.training.logs import Progress, RunLog


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
