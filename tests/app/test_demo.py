"""``attnmt demo --out DIR``: a previous demo's folder is emptied for the next, but never one a run still
holds, nor one trained on since, nor one a run was nested in; the demo holds its folder until it has
scored the model.

The demo's training is a stand-in (StandInTrainer) that writes what a run writes about itself and stops:
what is tested here is what happens to the folder, not the training."""

import json
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from support import run_cli, tiny_config

from attnmt import checkpoint as ckpt
from attnmt.cli import demo
from attnmt.errors import INTERRUPTED_STATUS, DataError, ModelDirError
from attnmt.training.run_dir import LOCK, RunLock
from attnmt.training.trainer import Trainer

SMALL = dict(eval_metric="loss", max_tokens=120, max_steps=1, eval_every=1,
             model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, max_positions=64))


# What a run appends to log.jsonl: its start record (a resume writes one too), then its steps'.
RUN_LOG = '{"step": 0, "runtime": {}}\n{"step": 10}\n'


class StandInTrainer:
    """Writes a run's log and a checkpoint into out_dir, as a run does, then stops the demo (DataError,
    exit 2) before it scores anything."""

    def __init__(self, config, **options) -> None:
        self.dir = Path(config.out_dir)

    def train(self):
        with open(self.dir / "log.jsonl", "a", encoding="utf-8") as log:
            log.write(RUN_LOG)
        (self.dir / ckpt.CHECKPOINTS / "step_00000010").mkdir(parents=True)
        (self.dir / ckpt.CHECKPOINTS / "step_00000010" / ckpt.TRAINER_STATE).write_bytes(b"state")
        raise DataError("the stand-in trainer stops the demo here")


@pytest.fixture
def demo_command(tmp_path, monkeypatch) -> list[str]:
    """``attnmt demo`` on the tiny config into tmp_path/demo, trained by StandInTrainer."""
    monkeypatch.setattr(demo, "Trainer", StandInTrainer)
    monkeypatch.setattr(demo, "load_training_kernels", lambda: None)
    config = tmp_path / "config.json"
    config.write_text(json.dumps(tiny_config(tmp_path, **SMALL).to_dict()))
    return ["demo", "--config", config, "--out", tmp_path / "demo", "--minutes", "1"]


def files_in(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_a_demo_folder_a_run_still_holds_is_refused_and_kept(tmp_path, demo_command, capsys):
    """A second demo deleted the folder of a demo still training there, and both then wrote into it."""
    out = tmp_path / "demo"
    assert run_cli(demo_command, capsys)[0] == 2
    running = RunLock.claim(out)  # a demo (or a resume) training there now
    before = files_in(out)
    code, _, err = run_cli(demo_command, capsys)
    assert code == 2 and err == (f"attnmt: error: {out} is in use by another training run (process {os.getpid()}): "
                                 "wait for it to end, or give another --out\n")
    assert files_in(out) == before
    running.release()


def test_a_demo_folder_trained_on_since_is_refused_and_kept(tmp_path, demo_command, capsys):
    """A demo run again into a demo folder trained on since with 'attnmt train --resume' deleted that model."""
    out = tmp_path / "demo"
    assert run_cli(demo_command, capsys)[0] == 2
    with open(out / "log.jsonl", "a", encoding="utf-8") as log:  # what a resume appends
        log.write('{"step": 20}\n')
    before = files_in(out)
    code, _, err = run_cli(demo_command, capsys)
    assert code == 2 and re.fullmatch(rf"attnmt: error: {out} was trained on since 'attnmt demo' wrote it \(.*\); "
                                      r"choose another --out, or remove it yourself\n", err)
    assert files_in(out) == before


def test_a_demo_folder_of_an_earlier_release_is_replaced(tmp_path, demo_command, capsys):
    """An earlier release's demo left its marker empty: every later demo into its folder was refused as
    "trained on since", 'make demo' included, until the folder was removed by hand."""
    out = tmp_path / "demo"
    (out / ckpt.CHECKPOINTS / "step_00000002").mkdir(parents=True)
    (out / ckpt.CHECKPOINTS / "step_00000002" / ckpt.TRAINER_STATE).write_bytes(b"state")
    (out / "log.jsonl").write_text('{"step": 0, "runtime": {}}\n{"step": 2}\n')
    (out / demo.MARKER).touch()
    assert run_cli(demo_command, capsys)[0] == 2  # the stand-in's stop, after it trained there
    assert (out / "log.jsonl").read_text() == RUN_LOG
    assert [path.name for path in ckpt.list_checkpoints(out)] == ["step_00000010"]


def test_a_demo_killed_before_it_ended_is_replaced_unless_a_run_started_there_since(tmp_path, demo_command,
                                                                                   capsys, monkeypatch):
    out = tmp_path / "demo"
    markers = []
    real_train = StandInTrainer.train

    def train_reading_the_marker(self):
        markers.append(json.loads((out / demo.MARKER).read_text()))
        return real_train(self)

    monkeypatch.setattr(StandInTrainer, "train", train_reading_the_marker)
    assert run_cli(demo_command, capsys)[0] == 2
    assert markers == [demo.RUNNING]
    (out / demo.MARKER).write_text(json.dumps(demo.RUNNING))  # as a demo killed (kill -9) leaves it
    assert run_cli(demo_command, capsys)[0] == 2
    assert (out / "log.jsonl").read_text() == RUN_LOG  # replaced
    (out / demo.MARKER).write_text(json.dumps(demo.RUNNING))
    with open(out / "log.jsonl", "a", encoding="utf-8") as log:  # 'attnmt train --resume' there since
        log.write('{"step": 10, "runtime": {}}\n{"step": 20}\n')
    before = files_in(out)
    assert "was trained on since" in run_cli(demo_command, capsys)[2]
    assert files_in(out) == before


def test_a_ctrl_c_while_the_demo_empties_the_previous_folder_leaves_one_the_next_demo_replaces(
        tmp_path, demo_command, capsys, monkeypatch):
    """The marker went first and the rest after it: stopped there, the folder was refused ever after,
    "exists and was not written by 'attnmt demo'"."""
    out = tmp_path / "demo"
    assert run_cli(demo_command, capsys)[0] == 2
    real_rmtree = demo.shutil.rmtree

    def ctrl_c(path, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(demo.shutil, "rmtree", ctrl_c)  # as the emptying reaches checkpoints/
    assert run_cli(demo_command, capsys)[0] == INTERRUPTED_STATUS
    assert json.loads((out / demo.MARKER).read_text()) == demo.RUNNING
    monkeypatch.setattr(demo.shutil, "rmtree", real_rmtree)
    assert run_cli(demo_command, capsys)[0] == 2  # replaced, trained into again by the stand-in
    assert (out / "log.jsonl").read_text() == RUN_LOG


def test_a_ctrl_c_while_the_demo_records_its_training_leaves_a_folder_the_next_demo_replaces(
        tmp_path, demo_command, capsys, monkeypatch):
    """The marker was written in place: cut short, it held half a record, which no later demo took."""
    out = tmp_path / "demo"
    real_write_text, real_train = Path.write_text, StandInTrainer.train

    def write_half_then_ctrl_c(path, text, *args, **kwargs):
        monkeypatch.setattr(Path, "write_text", real_write_text)
        real_write_text(path, text[:len(text) // 2], *args, **kwargs)
        raise KeyboardInterrupt

    def train_then_ctrl_c_in_the_next_write(self):
        monkeypatch.setattr(Path, "write_text", write_half_then_ctrl_c)
        return real_train(self)

    monkeypatch.setattr(StandInTrainer, "train", train_then_ctrl_c_in_the_next_write)
    assert run_cli(demo_command, capsys)[0] == INTERRUPTED_STATUS
    assert json.loads((out / demo.MARKER).read_text()) == demo.RUNNING
    monkeypatch.setattr(StandInTrainer, "train", real_train)
    assert run_cli(demo_command, capsys)[0] == 2
    assert (out / "log.jsonl").read_text() == RUN_LOG
    assert json.loads((out / demo.MARKER).read_text()) == demo.training_record(out)


def test_a_run_nested_in_a_demo_folder_is_refused_and_kept(tmp_path, demo_command, capsys):
    """'attnmt train --init_from runs/demo --out_dir runs/demo/finetune' was deleted by the next demo."""
    out = tmp_path / "demo"
    assert run_cli(demo_command, capsys)[0] == 2
    (out / "finetune" / ckpt.CHECKPOINTS / "step_00000004").mkdir(parents=True)
    (out / "finetune" / "log.jsonl").write_text(RUN_LOG)
    before = files_in(out)
    code, _, err = run_cli(demo_command, capsys)
    assert code == 2 and err == (f"attnmt: error: {out / 'finetune'} holds a training run that 'attnmt demo' did "
                                 f"not write, and a demo into {out} would delete it; move it out of {out}, or "
                                 "choose another --out\n")
    assert files_in(out) == before


def test_the_next_demo_replaces_a_demo_folder_and_holds_it_until_it_ends(tmp_path, demo_command, capsys,
                                                                         monkeypatch):
    out = tmp_path / "demo"
    assert run_cli(demo_command, capsys)[0] == 2
    (out / "test_2016_flickr.hyp.de").write_text("the first demo's translations")
    held = []

    def score_while_trying_to_train(model_dir):
        with pytest.raises(ModelDirError, match="is in use by another training run"):
            RunLock.claim(out)
        held.append(model_dir)
        raise DataError("stop after the average")

    monkeypatch.setattr(StandInTrainer, "train", lambda self: SimpleNamespace(step=0, best=lambda: "no validation"))
    monkeypatch.setattr(demo, "keep_better_average", score_while_trying_to_train)
    assert run_cli(demo_command, capsys)[0] == 2
    assert held == [out] and sorted(files_in(out)) == [demo.MARKER]
    RunLock.claim(out).release()  # let go at the end


def test_the_trainer_trains_in_a_folder_its_caller_holds(tmp_path):
    config = tiny_config(tmp_path, **SMALL, out_dir=str(tmp_path / "demo"))
    lock = demo.claim_out_dir(tmp_path / "demo")
    assert Trainer(config, progress=False, held=True).train().step == 1
    with pytest.raises(ModelDirError, match="is in use by another training run"):
        RunLock.claim(tmp_path / "demo")  # still the caller's
    lock.release()
    assert not (tmp_path / "demo" / LOCK).exists()


@pytest.mark.parametrize("minutes", ["0", "-1", "nan", "inf"])
def test_minutes_not_above_zero_are_refused_naming_minutes(minutes, capsys):
    """'attnmt demo --minutes 0' stopped with "max_time='0.0m': …", a key the user never typed."""
    with pytest.raises(SystemExit) as stopped:
        run_cli(["demo", f"--minutes={minutes}"], capsys)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"attnmt demo: error: argument --minutes: expected a finite number above 0, got '{minutes}'")


def test_a_few_seconds_are_a_budget_the_config_reads(tmp_path, demo_command, capsys, monkeypatch):
    """A budget str() writes with an exponent (1e-05) is written out in digits for max_time."""
    budgets = []
    monkeypatch.setattr(demo, "train_and_show", lambda config, *rest: budgets.append(config.max_time))
    demo_command[-1] = "0.00001"
    assert run_cli(demo_command, capsys)[0] == 0
    assert budgets == ["0.00001m"]


def test_a_missing_config_the_user_named_is_said_not_found(tmp_path, capsys):
    """'attnmt demo --config /abs/nosuch.yaml' said to run the demo from the repository root."""
    missing = tmp_path / "nosuch.yaml"
    code, _, err = run_cli(["demo", "--config", missing], capsys)
    assert code == 2 and err == f"attnmt: error: --config {missing}: no such config file\n"


def test_the_default_config_missing_says_where_to_run_the_demo(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["demo"], capsys)
    assert code == 2 and err == ("attnmt: error: configs/multi30k_en_de.yaml: not found; run the demo from the "
                                 "attnmt repository root\n")


def test_a_demo_outside_the_repository_names_its_files_before_the_plot_extra(tmp_path, capsys, monkeypatch):
    """An installed attnmt without matplotlib asked for the plot extra first; once it was installed, the
    demo said its config was not found: the repository's files are what a demo outside it lacks."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not importable, as in a core install
    for module in ("attnmt.cli.demo", "attnmt.inspect.figures"):  # imported afresh, as a new process would
        monkeypatch.delitem(sys.modules, module)
    code, _, err = run_cli(["demo"], capsys)
    assert code == 2 and err == ("attnmt: error: configs/multi30k_en_de.yaml: not found; run the demo from the "
                                 "attnmt repository root\n")


def test_a_demo_away_from_the_repository_root_is_refused_before_it_trains(tmp_path, demo_command, capsys,
                                                                           monkeypatch):
    """With its config given by absolute path, a demo run outside the repository root trained for its
    whole budget, then failed to read the test set it scores (a relative path)."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(demo_command, capsys)
    assert code == 2 and err == ("attnmt: error: data/multi30k/test_2016_flickr.en.gz: not found; the demo scores "
                                 "its model on this test set, read from the current directory: run the demo from "
                                 "the attnmt repository root\n")
    assert not (tmp_path / "demo").exists()


def test_the_demo_help_gives_each_option_and_its_default(capsys):
    with pytest.raises(SystemExit):
        run_cli(["demo", "--help"], capsys)
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--minutes MINUTES training time budget in minutes, a number above 0 (default 15)" in help_text
    assert ("--config CONFIG YAML config to train (default configs/multi30k_en_de.yaml, from the attnmt "
            "repository root)") in help_text
    assert "--out OUT model directory to write (default runs/demo)" in help_text
