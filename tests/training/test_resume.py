"""Resuming a run: the resumed run is the uninterrupted one, whatever stopped it (a kill between two
writes, Ctrl-C), and overrides given with --resume last."""

import json
import shutil
import signal
import warnings
from pathlib import Path

import pytest
import torch
import yaml
from safetensors.torch import load_file
from support import PAIRS, tiny_config, write_calibration, write_pairs

from attnmt import checkpoint as ckpt
from attnmt.cli.main import main
from attnmt.decoding.calibration import CALIBRATION, load_calibration
from attnmt.errors import AttnmtWarning, ConfigError, DataError
from attnmt.training import ending
from attnmt.training.averaging import average_checkpoints
from attnmt.training.trainer import Trainer, resume

SMALL = dict(eval_metric="loss", max_tokens=120,
             model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.2))


def validations(model_dir: Path) -> list[int]:
    """The steps log.jsonl has a validation for."""
    records = [json.loads(line) for line in (model_dir / "log.jsonl").read_text().splitlines()]
    return [record["step"] for record in records if "valid_loss" in record]


def test_a_kill_before_the_best_weights_are_copied_is_set_right_by_the_resume(tmp_path, monkeypatch, capsys):
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=1)
    model_dir = Path(config.out_dir)
    real_save_weights = ckpt.save_weights

    def killed_at_step_2(model, path):  # dies where a SIGKILL after step 2's checkpoint would
        if ckpt.checkpoint_path(model_dir, 2).exists():
            raise SystemExit(137)
        real_save_weights(model, path)

    monkeypatch.setattr(ckpt, "save_weights", killed_at_step_2)
    with pytest.raises(SystemExit):
        Trainer(config, progress=False).train()
    monkeypatch.setattr(ckpt, "save_weights", real_save_weights)
    state = ckpt.load_trainer_state(ckpt.checkpoint_path(model_dir, 2))
    assert state["best_step"] == 2  # the checkpoint names step 2 the best ...
    best = load_file(ckpt.checkpoint_path(model_dir, 2) / ckpt.WEIGHTS)
    kept = load_file(model_dir / ckpt.WEIGHTS)
    assert any(not torch.equal(kept[name], best[name]) for name in best)  # ... but model.safetensors is step 1's
    assert resume(model_dir, progress=True).best_step == 2  # already finished: nothing trained
    assert "set to the weights of" in capsys.readouterr().out
    kept = load_file(model_dir / ckpt.WEIGHTS)
    assert all(torch.equal(kept[name], best[name]) for name in best)


def killed_once(monkeypatch, name: str, when) -> None:
    """``ckpt.<name>`` dies, as a SIGKILL (or a full disk) there would, the first time ``when()``
    holds at a call; it works again after."""
    real = getattr(ckpt, name)

    def dies(*args, **kwargs):
        if when(*args):
            monkeypatch.setattr(ckpt, name, real)
            raise SystemExit(137)
        return real(*args, **kwargs)

    monkeypatch.setattr(ckpt, name, dies)


def test_a_kill_after_a_validations_checkpoint_keeps_its_record(tmp_path, monkeypatch):
    """The record was written after the save: killed between the two, the resume started after that
    step's checkpoint and the validation was in neither log.jsonl nor train.log."""
    config = tiny_config(tmp_path, **SMALL, max_steps=4, eval_every=2)
    model_dir = Path(config.out_dir)
    # step 2's checkpoint is written; its weights, the best so far, are being copied to the model's
    killed_once(monkeypatch, "save_weights", lambda *args: ckpt.checkpoint_path(model_dir, 2).is_dir())
    with pytest.raises(SystemExit):
        Trainer(config, progress=False).train()
    assert ckpt.checkpoint_path(model_dir, 2).is_dir()
    resume(model_dir, progress=False)
    assert validations(model_dir) == [2, 4]
    lines = (model_dir / "train.log").read_text().splitlines()
    assert [line.split()[3] for line in lines if " valid loss " in line] == ["2:", "4:"]


def test_a_kill_before_a_validations_checkpoint_leaves_a_record_the_resume_writes_again(tmp_path, monkeypatch):
    config = tiny_config(tmp_path, **SMALL, max_steps=4, eval_every=2)
    model_dir = Path(config.out_dir)
    killed_once(monkeypatch, "save_checkpoint", lambda model_dir, step, *rest: step == 4)
    with pytest.raises(SystemExit):
        Trainer(config, progress=False).train()
    assert validations(model_dir) == [2, 4]  # step 4's record, without its checkpoint
    assert resume(model_dir, progress=False).step == 4  # from step 2's checkpoint
    assert validations(model_dir) == [2, 4]


def test_weights_written_after_the_best_checkpoint_stay_on_resume(tmp_path):
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=1)
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    average_checkpoints(ckpt.list_checkpoints(model_dir), model_dir / ckpt.WEIGHTS)  # as attnmt demo keeps one
    averaged = (model_dir / ckpt.WEIGHTS).read_bytes()
    resume(model_dir, progress=False)
    assert (model_dir / ckpt.WEIGHTS).read_bytes() == averaged


def test_a_kill_while_a_checkpoint_is_pruned_leaves_no_step_folder_and_the_resume_deletes_what_it_left(
        tmp_path, monkeypatch, capsys):
    """Deleted in place, a pruned checkpoint killed midway was a step folder without its trainer state,
    which no pruning or resume ever looked at again: 21 kills left such folders behind for good."""
    config = tiny_config(tmp_path, **SMALL, max_steps=3, eval_every=3, save_every=1, keep_last=1)
    model_dir = Path(config.out_dir)
    real_rmtree = shutil.rmtree

    def killed_midway(path, *args, **kwargs):  # the trainer state goes first, then the SIGKILL
        if (Path(path) / ckpt.TRAINER_STATE).is_file():
            (Path(path) / ckpt.TRAINER_STATE).unlink()
            raise SystemExit(137)
        real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(shutil, "rmtree", killed_midway)
    with pytest.raises(SystemExit):
        Trainer(config, progress=False).train()
    monkeypatch.undo()
    folders = {path.name for path in (model_dir / ckpt.CHECKPOINTS).iterdir()}
    assert folders == {".step_00000001.pruned", "step_00000002"}  # step 1's, renamed aside before its files went
    capsys.readouterr()
    assert resume(model_dir, progress=True).step == 3
    aside = model_dir / ckpt.CHECKPOINTS / ".step_00000001.pruned"
    assert f"removed {aside}, left half deleted by a pruning that was cut short" in capsys.readouterr().out
    assert {path.name for path in (model_dir / ckpt.CHECKPOINTS).iterdir()} == {"step_00000003"}


def test_a_resume_deletes_step_folders_an_earlier_pruning_left_half_deleted_and_nothing_else(tmp_path):
    """Only folders named as steps, without a trainer state: none is a checkpoint (a save's folder appears
    whole), and list_checkpoints, pruning and averaging pass them over."""
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=2, save_every=1)
    Trainer(config, progress=False).train()
    folder = Path(config.out_dir) / ckpt.CHECKPOINTS
    (folder / "step_00000001" / ckpt.TRAINER_STATE).unlink()  # its weights alone, as the tester found them
    (folder / "step_00000000").mkdir()  # emptied
    kept = {"damaged_step_00000001": "dir", "step_00000009": "file", "step_x": "dir", "step_00000007": "link"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / ckpt.WEIGHTS).write_bytes(b"mine")
    for name, kind in kept.items():
        {"dir": (folder / name).mkdir, "file": (folder / name).touch,
         "link": lambda name=name: (folder / name).symlink_to(elsewhere)}[kind]()
    assert resume(config.out_dir, {"max_steps": "3"}, progress=False).step == 3
    assert {path.name for path in folder.iterdir()} == {"step_00000002", "step_00000003", *kept}
    assert (elsewhere / ckpt.WEIGHTS).read_bytes() == b"mine"


def test_a_copy_of_a_checkpoint_beside_the_steps_is_no_checkpoint_and_no_pruning_deletes_it(tmp_path):
    """A user's copy of a checkpoint in the checkpoints folder ("step_00000002 copy", as a file manager
    names a duplicate, or "step_00000001.bak") was listed as one: the newest by name, resumed from and
    averaged, then deleted without a word by the pruning of a resumed run."""
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=1, keep_last=2)
    Trainer(config, progress=False).train()
    folder = Path(config.out_dir) / ckpt.CHECKPOINTS
    copies = {"step_00000002 copy": "step_00000002", "step_00000001.bak": "step_00000001"}
    for copy, checkpoint in copies.items():
        shutil.copytree(folder / checkpoint, folder / copy)
    assert [path.name for path in ckpt.list_checkpoints(config.out_dir)] == ["step_00000001", "step_00000002"]
    assert resume(config.out_dir, {"max_steps": "4"}, progress=False).step == 4
    assert {path.name for path in folder.iterdir()} == {"step_00000003", "step_00000004", *copies}


def test_checkpoints_are_listed_in_the_order_of_their_steps_past_eight_digits(tmp_path):
    for step in (99_999_999, 100_000_000, 7):
        checkpoint = ckpt.checkpoint_path(tmp_path, step)
        checkpoint.mkdir(parents=True)
        (checkpoint / ckpt.TRAINER_STATE).touch()
    assert [path.name for path in ckpt.list_checkpoints(tmp_path)] == [
        "step_00000007", "step_99999999", "step_100000000"]


def interrupt_at(step: int, monkeypatch) -> None:
    """Sends this process SIGINT (Ctrl-C) once the trainer has taken ``step`` steps."""
    real_step = Trainer.train_step

    def step_then_signal(self, batches):
        result = real_step(self, batches)
        if self.step == step:
            signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(Trainer, "train_step", step_then_signal)


def test_ctrl_c_saves_without_a_validation_so_the_resumed_run_is_the_uninterrupted_one(tmp_path, monkeypatch):
    changes = dict(**SMALL, max_steps=6, eval_every=2, patience=1)
    straight = Trainer(tiny_config(tmp_path / "a", **changes), progress=False)
    straight.train()
    config = tiny_config(tmp_path / "b", **changes)
    interrupt_at(3, monkeypatch)
    assert Trainer(config, progress=False).train().stopped_by == "SIGINT"
    model_dir = Path(config.out_dir)
    state = ckpt.load_trainer_state(ckpt.checkpoint_path(model_dir, 3))  # saved for the resume ...
    assert (state["best_step"], state["bad_evals"]) == (2, 0)  # ... with no validation counted
    monkeypatch.undo()
    resumed = resume(model_dir, progress=False)
    assert validations(model_dir) == validations(Path(straight.dir)) == [2, 4, 6]
    assert resumed.best_step == straight.best_step
    for name, value in load_file(Path(straight.dir) / ckpt.WEIGHTS).items():
        assert torch.equal(value, load_file(model_dir / ckpt.WEIGHTS)[name]), name


def test_ctrl_c_before_the_first_validation_leaves_this_steps_weights_as_the_model(tmp_path, monkeypatch):
    """Without a validation there was no model.safetensors: translate failed on the directory the run named."""
    config = tiny_config(tmp_path, **SMALL, max_steps=6, eval_every=5)
    interrupt_at(2, monkeypatch)
    trainer = Trainer(config, progress=False)
    assert trainer.train().best_step == 0  # no validation yet
    model_dir = Path(config.out_dir)
    for name, value in load_file(ckpt.checkpoint_path(model_dir, 2) / ckpt.WEIGHTS).items():
        assert torch.equal(value, load_file(model_dir / ckpt.WEIGHTS)[name]), name
    monkeypatch.undo()
    assert resume(model_dir, progress=False).best_step >= 5  # a validation replaces them


def test_ctrl_c_at_the_last_step_still_validates_it_as_the_uninterrupted_run_does(tmp_path, monkeypatch):
    config = tiny_config(tmp_path, **SMALL, max_steps=4, eval_every=3)
    interrupt_at(4, monkeypatch)
    assert Trainer(config, progress=False).train().stopped_by == "max_steps"
    assert validations(Path(config.out_dir)) == [3, 4]


def test_ctrl_c_exits_without_calibrating_quality_and_the_resumed_run_calibrates_at_its_end(tmp_path, monkeypatch):
    """Ctrl-C calibrated the whole validation set before exiting (a minute on 300 sentences), on
    weights the resume replaces."""
    calibrated = []
    monkeypatch.setattr(ending, "calibrate_run", lambda model_dir, *rest: calibrated.append(Path(model_dir)))
    config = tiny_config(tmp_path, **SMALL, max_steps=4, eval_every=2)
    model_dir, uninterrupted = Path(config.out_dir), Trainer.train_step
    interrupt_at(1, monkeypatch)
    assert Trainer(config, progress=False).train().stopped_by == "SIGINT"
    assert calibrated == []
    assert (f"quality not calibrated (interrupted): the resumed run calibrates it at its end; attnmt calibrate "
            f"--model {model_dir} does it now") in (model_dir / "train.log").read_text()
    monkeypatch.setattr(Trainer, "train_step", uninterrupted)
    resume(model_dir, progress=False)
    assert calibrated == [model_dir]


def test_weights_a_resumed_run_replaces_take_their_calibration_with_them(tmp_path, monkeypatch):
    """A finished run's quality.json, resumed with a larger max_steps and interrupted after a better
    validation, stayed beside the new weights: translate's jsonl and tsv and serve refused the folder."""
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=1)
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    write_calibration(model_dir)  # as the end of a run with a larger validation set fits one
    weights = (model_dir / ckpt.WEIGHTS).read_bytes()
    interrupt_at(3, monkeypatch)
    assert resume(model_dir, {"max_steps": "6"}, progress=False).stopped_by == "SIGINT"
    assert (model_dir / ckpt.WEIGHTS).read_bytes() != weights  # step 3 validated better: its weights are the model's
    assert load_calibration(model_dir) is None
    assert (f"removed {model_dir / CALIBRATION}, fitted on the weights step 3 replaces; the run calibrates quality "
            "again when it ends") in (model_dir / "train.log").read_text()


def test_a_run_stopped_by_patience_names_patience_when_resumed(tmp_path, capsys):
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=1, patience=1)
    Trainer(config, progress=False).train()
    latest = ckpt.list_checkpoints(Path(config.out_dir))[-1]
    state = ckpt.load_trainer_state(latest)
    state.update(bad_evals=1)  # as a validation without improvement leaves it
    torch.save(state, latest / ckpt.TRAINER_STATE)
    capsys.readouterr()
    assert resume(config.out_dir, {"max_steps": "4"}, progress=True).step == 2
    out = capsys.readouterr().out
    assert "reached patience 1" in out and "resume with a larger --patience" in out


def test_overrides_given_with_resume_are_kept_for_the_next_resume(tmp_path, monkeypatch):
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=2)
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    interrupt_at(3, monkeypatch)
    assert resume(model_dir, {"max_steps": "6"}, progress=False).step == 3  # Ctrl-C at step 3 of 6
    monkeypatch.undo()
    assert yaml.safe_load((model_dir / ckpt.TRAIN_CONFIG).read_text())["max_steps"] == 6
    assert f"{model_dir / ckpt.TRAIN_CONFIG}: max_steps 6 from now on" in (model_dir / "train.log").read_text()
    assert resume(model_dir, progress=False).step == 6  # not "already finished (step 3 reached max_steps 2)"


def test_a_whole_model_section_given_on_resume_changes_only_the_keys_it_names(tmp_path):
    """``--model '{dropout: 0.1}'`` cut the shape out of train.yaml (model: {dropout: 0.1}), which then
    trained a d_model 512, 6 + 6-layer model as a config, and warned that the shape went back to its
    defaults while the resume trained the run's own."""
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        assert main(["train", "--resume", str(model_dir), "--max-steps", "2", "--model", "{dropout: 0.1}"]) == 0
    assert [str(w.message) for w in heard if issubclass(w.category, AttnmtWarning)] == []
    assert yaml.safe_load((model_dir / ckpt.TRAIN_CONFIG).read_text())["model"] == {**SMALL["model"], "dropout": 0.1}
    assert f"{model_dir / ckpt.TRAIN_CONFIG}: model.dropout 0.1, max_steps 2 from now on" in (
        model_dir / "train.log").read_text()


def test_a_shape_key_in_a_whole_model_section_is_refused_on_resume_as_its_dotted_option_is(tmp_path, capsys):
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    before = (Path(config.out_dir) / ckpt.TRAIN_CONFIG).read_text()
    capsys.readouterr()
    for override in (["--model.d-model", "64"], ["--model", "{dropout: 0.1, d_model: 64}"]):
        assert main(["train", "--resume", config.out_dir, "--max-steps", "2", *override]) == 2
        assert capsys.readouterr().err == (
            f"attnmt: error: --model.d-model: a resumed run keeps the shape of its model "
            f"({Path(config.out_dir) / ckpt.MODEL_CONFIG}: d_model 32); drop --model.d-model\n")
    assert (Path(config.out_dir) / ckpt.TRAIN_CONFIG).read_text() == before


@pytest.mark.parametrize(("key", "value", "kept"), [("d_model", 64, 32), ("n_heads", 2, 4), ("encoder_layers", 2, 1),
                                                    ("positional", "learned", "'sinusoidal'")])
def test_a_shape_key_edited_in_train_yaml_is_refused_on_resume_naming_the_file_and_the_models_value(tmp_path, key,
                                                                                                  value, kept):
    """It was "model.d_model: 64 differs from the model's 32; a run that starts from a trained model keeps its
    shape: remove model.d_model", naming neither train.yaml nor config.json, and what it said to do left the
    run's train.yaml without its shape."""
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    saved, model_dir = Path(config.out_dir) / ckpt.TRAIN_CONFIG, Path(config.out_dir)
    written = yaml.safe_load(saved.read_text())
    saved.write_text(yaml.safe_dump({**written, "model": {**written["model"], key: value}}), encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        resume(model_dir, {"max_steps": "2"}, progress=False)
    assert str(refused.value) == (
        f"{saved}: model.{key} is {value!r}, but a resumed run keeps the shape of its model "
        f"({model_dir / ckpt.MODEL_CONFIG}: {key} {kept}); put back {key}: {kept} under model:")
    assert [path.name for path in ckpt.list_checkpoints(model_dir)] == ["step_00000001"]


@pytest.mark.parametrize(("key", "value"), [("vocab_size", "50"), ("out_dir", "elsewhere"), ("init_from", "m"),
                                            ("tokenizer_options", "{model_type: bpe}"), ("max_tokens", "4096"),
                                            ("max_tokens", "60"), ("max_len", "20"), ("max_length_ratio", "2"),
                                            ("keep_untranslated", "true"), ("seed", "5"), ("eval_metric", "bleu")])
def test_overrides_a_resumed_run_cannot_follow_are_refused(tmp_path, key, value):
    """--seed reordered the batches of the epoch the checkpoint's data position counts in (some trained
    twice, others never); --eval-metric compared the new metric with the best score of the old one."""
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    before = (Path(config.out_dir) / ckpt.TRAIN_CONFIG).read_text()
    flag = f"--{key.replace('_', '-')}"
    with pytest.raises(ConfigError, match=f"^{flag}: a resumed run .*; drop {flag}"):
        resume(config.out_dir, {key: value, "max_steps": "2"}, progress=False)
    assert (Path(config.out_dir) / ckpt.TRAIN_CONFIG).read_text() == before


@pytest.mark.parametrize(("key", "value"), [("max_tokens", 60), ("max_len", 20), ("seed", 5)])
def test_a_batch_key_edited_in_train_yaml_is_refused_on_resume_naming_the_runs_own(tmp_path, key, value):
    """An override is refused; the same change written into train.yaml was followed without a word, the
    checkpoint's data position then counting other batches (or past their end: "batcher state position")."""
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    saved = Path(config.out_dir) / ckpt.TRAIN_CONFIG
    saved.write_text(yaml.safe_dump({**yaml.safe_load(saved.read_text()), key: value}), encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"^{saved}: {key} is {value}, but the run started with "
                                          rf"{getattr(config, key)}, .*put back {key}: {getattr(config, key)}, or "):
        resume(config.out_dir, {"max_steps": "2"}, progress=False)


@pytest.mark.parametrize(("started", "edited"), [("loss", "bleu"), ("loss", "chrf"), ("bleu", "loss")])
def test_an_eval_metric_edited_in_train_yaml_is_refused_on_resume_naming_the_runs_own(tmp_path, started, edited):
    """--eval-metric is refused; the same change written into train.yaml was followed without a word, the first
    BLEU compared with a best score counted in loss (-4.3), so that every step "improved"."""
    config = tiny_config(tmp_path, **{**SMALL, "eval_metric": started}, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    saved = Path(config.out_dir) / ckpt.TRAIN_CONFIG
    saved.write_text(yaml.safe_dump({**yaml.safe_load(saved.read_text()), "eval_metric": edited}), encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        resume(config.out_dir, {"max_steps": "2"}, progress=False)
    assert str(refused.value) == (
        f"{saved}: eval_metric is {edited}, but the run started with {started}, which its best step and patience are "
        f"counted in; put back eval_metric: {started}, or start a new run with init_from: {config.out_dir}")
    assert [path.name for path in ckpt.list_checkpoints(Path(config.out_dir))] == ["step_00000001"]


@pytest.mark.parametrize(("key", "value", "back"), [
    ("vocab_size", 50, "put back vocab_size: 81"), ("vocab_size", None, "put back vocab_size: 81"),
    ("tokenizer_options", {"model_type": "bpe"}, "remove tokenizer_options")])
def test_a_tokenizer_key_edited_in_train_yaml_is_refused_on_resume_naming_the_runs_own(tmp_path, key, value, back):
    """--vocab-size is refused; the same change written into train.yaml was ignored without a word, the run going on
    with its 81-piece tokenizer and embeddings, and the train.yaml it kept naming a size the model never had."""
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    saved = Path(config.out_dir) / ckpt.TRAIN_CONFIG
    saved.write_text(yaml.safe_dump({**yaml.safe_load(saved.read_text()), key: value}), encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        resume(config.out_dir, {"max_steps": "2"}, progress=False)
    started = {"vocab_size": "81", "tokenizer_options": "{}"}[key]
    edited = "none" if value is None else json.dumps(value)
    assert str(refused.value) == (
        f"{saved}: {key} is {edited}, but the run started with {started}, and a resumed run keeps the "
        f"tokenizer (and embeddings) it started with; {back} (a new vocabulary is a new run, in another out_dir)")
    assert [path.name for path in ckpt.list_checkpoints(Path(config.out_dir))] == ["step_00000001"]


def test_another_validation_set_or_beam_is_refused_on_resume_and_a_moved_copy_is_not(tmp_path):
    """The new set's score (an easier set, a wider beam) was compared with the old set's best, and
    model.safetensors replaced by weights chosen on another set.  The same bytes elsewhere are no change."""
    config = tiny_config(tmp_path, **{**SMALL, "eval_metric": "bleu"}, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    easy = tmp_path / "easy.en"
    easy.write_text("a dog\n")
    for key, value in (("valid_src", str(easy)), ("eval_beam", "4")):
        flag = f"--{key.replace('_', '-')}"
        with pytest.raises(ConfigError, match=f"^{flag}: a resumed run keeps the .* its best BLEU and patience are "
                                              f"counted .*; drop {flag}, or start a new run with it"):
            resume(config.out_dir, {key: value, "max_steps": "2"}, progress=False)
    moved = tmp_path / "moved.de"  # a copy: these validation files are the training files too
    moved.write_bytes(Path(config.valid_tgt).read_bytes())
    assert resume(config.out_dir, {"valid_tgt": str(moved), "max_steps": "2"}, progress=False).step == 2


def test_the_runs_own_directory_spelt_another_way_is_no_override(tmp_path, monkeypatch):
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    monkeypatch.chdir(tmp_path)
    relative = str(Path(config.out_dir).relative_to(tmp_path))
    assert resume(config.out_dir, {"out_dir": relative, "max_steps": "1"}, progress=False).step == 1


def test_a_resume_without_overrides_leaves_train_yaml_alone(tmp_path):
    config = tiny_config(tmp_path, **SMALL, max_steps=1, eval_every=1)
    Trainer(config, progress=False).train()
    path = Path(config.out_dir) / ckpt.TRAIN_CONFIG
    before = path.stat().st_mtime_ns
    assert resume(config.out_dir, {"max_steps": "1"}, progress=False).step == 1
    assert path.stat().st_mtime_ns == before


@pytest.mark.parametrize("text", ["", "\n  \n\n"])
def test_an_empty_or_blank_validation_set_is_one_line_naming_it(tmp_path, text, capsys):
    (tmp_path / "va.en").write_text(text)
    (tmp_path / "va.de").write_text(text)
    config = tiny_config(tmp_path, **SMALL, max_steps=1, valid_src=str(tmp_path / "va.en"),
                         valid_tgt=str(tmp_path / "va.de"))
    config_path = tmp_path / "config.yaml"
    config_path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(config_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'va.en'}, {tmp_path / 'va.de'}: no validation pair to score" in err
    assert "Traceback" not in err and not Path(config.out_dir).exists()


def test_ctrl_c_during_the_calibration_at_the_end_leaves_it_to_the_resume(tmp_path, monkeypatch):
    """Ctrl-C while the finished run calibrated quality, after its last checkpoint, ended it with a
    traceback's KeyboardInterrupt and no word of calibrating later; its resume said "nothing to do"."""
    calibrated = []

    def interrupted(model_dir, src, ref, say, pairs=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(ending, "calibrate_run", interrupted)
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=2)
    model_dir = Path(config.out_dir)
    assert Trainer(config, progress=False).train().stopped_by == "max_steps"
    assert (f"quality not calibrated (interrupted): the resumed run calibrates it at its end; attnmt calibrate "
            f"--model {model_dir} does it now") in (model_dir / "train.log").read_text()
    monkeypatch.setattr(ending, "calibrate_run", lambda model_dir, *rest: calibrated.append(Path(model_dir)))
    assert resume(model_dir, progress=False).step == 2
    assert calibrated == [model_dir]


def test_a_run_killed_during_the_calibration_at_the_end_is_calibrated_by_its_resume(tmp_path, monkeypatch):
    """SIGKILL while the finished run calibrated quality (a scheduler's time limit, the OOM killer) left the
    best weights without a calibration and no mark of it: its resume said "nothing to do" and never fitted
    one.  What a kill leaves there is copied while the fit runs, and resumed."""
    killed = tmp_path / "killed"

    def copied_while_fitting(model_dir, *rest):
        shutil.copytree(model_dir, killed)

    monkeypatch.setattr(ending, "calibrate_run", copied_while_fitting)
    Trainer(tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=2), progress=False).train()
    calibrated = []
    monkeypatch.setattr(ending, "calibrate_run", lambda model_dir, *rest: calibrated.append(Path(model_dir)))
    assert resume(killed, progress=False).step == 2
    assert calibrated == [killed]


def test_a_finished_and_calibrated_run_resumed_calibrates_nothing(tmp_path, monkeypatch, capsys):
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=2)
    monkeypatch.setattr(ending, "calibrate_run", lambda model_dir, *rest: write_calibration(model_dir))
    Trainer(config, progress=False).train()
    calibrated = []
    monkeypatch.setattr(ending, "calibrate_run", lambda model_dir, *rest: calibrated.append(model_dir))
    capsys.readouterr()
    resume(config.out_dir, progress=True)
    assert calibrated == []
    assert "nothing to do" in capsys.readouterr().out


def test_a_finished_run_whose_calibration_was_refused_is_not_calibrated_again_by_each_resume(tmp_path, monkeypatch,
                                                                                            capsys):
    """Too few sentences reached chrF 50: no quality.json, as after Ctrl-C, and each resume translated the
    validation set again for the same refusal (minutes on a real model; review s41h)."""
    calls = []
    monkeypatch.setattr(ending, "calibrate_run", lambda model_dir, *rest: calls.append(model_dir))
    config = tiny_config(tmp_path, **SMALL, max_steps=2, eval_every=2)
    Trainer(config, progress=False).train()
    assert len(calls) == 1
    capsys.readouterr()
    resume(config.out_dir, progress=True)
    assert len(calls) == 1
    assert "nothing to do" in capsys.readouterr().out



def killed_in_its_first_save(folder: Path, monkeypatch, **changes) -> Path:
    """The model directory of a tiny run in ``folder`` killed while it saved its first checkpoint (its train.yaml
    and corpora.json written, no checkpoint), as a SIGKILL there leaves it."""
    config = tiny_config(folder, **SMALL, max_steps=2, eval_every=1, **changes)
    killed_once(monkeypatch, "save_checkpoint", lambda *args: True)
    with pytest.raises(SystemExit):
        Trainer(config, progress=False).train()
    assert ckpt.list_checkpoints(Path(config.out_dir)) == []
    return Path(config.out_dir)


def test_a_run_started_again_says_so_in_its_train_log_too(tmp_path, monkeypatch, capsys):
    """The line went to the console alone: train.log read as if the run had been started anew by hand."""
    model_dir = killed_in_its_first_save(tmp_path, monkeypatch)
    assert resume(model_dir, progress=True).step == 2
    said = (f"{model_dir}: no checkpoint to resume from (the run stopped before its first); starting it again from "
            "its train.yaml")
    logged = (model_dir / "train.log").read_text().splitlines()
    assert [line.split(" ", 2)[2] for line in logged].count(said) == 1
    assert said in capsys.readouterr().out


@pytest.mark.parametrize("copied, key", [((), "train_src"), (("train.src", "train.tgt"), "valid_src")])
def test_a_run_started_again_from_another_folder_names_the_one_its_relative_paths_are_in(tmp_path, monkeypatch,
                                                                                        copied, key):
    """Its relative paths were read from the current folder: "valid_src: cannot read proj/train.src: no such file
    or directory", naming neither that folder nor the one the run started in.  A copy of the training files
    alone (the validation files elsewhere) is named by the first file missing."""
    started, elsewhere = tmp_path / "started", tmp_path / "elsewhere"
    elsewhere.mkdir()
    started.mkdir()
    monkeypatch.chdir(started)
    (started / "proj").mkdir()
    write_pairs(started / "proj", "val", PAIRS[:5])
    model_dir = started / killed_in_its_first_save(Path("proj"), monkeypatch, valid_src="proj/val.src",
                                                   valid_tgt="proj/val.tgt")
    (elsewhere / "proj").mkdir()
    for name in copied:
        shutil.copy(started / "proj" / name, elsewhere / "proj" / name)
    before = sorted(path.name for path in model_dir.iterdir())
    monkeypatch.chdir(elsewhere)
    path = f"proj/{'val' if key.startswith('valid') else 'train'}.src"
    with pytest.raises(ConfigError) as refused:
        resume(model_dir, progress=False)
    assert str(refused.value) == (
        f"{key}: {path} is not in the current folder, {elsewhere}, but in {started}, where the run started: its "
        f"train.yaml's relative paths are read from the current folder, so start it again from there (cd {started})")
    assert sorted(path.name for path in model_dir.iterdir()) == before and not ckpt.list_checkpoints(model_dir)


def test_a_run_started_again_without_a_file_names_the_folders_looked_in(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "proj").mkdir()
    write_pairs(tmp_path / "proj", "val", PAIRS[:5])
    model_dir = tmp_path / killed_in_its_first_save(Path("proj"), monkeypatch, valid_src="proj/val.src",
                                                    valid_tgt="proj/val.tgt")
    (tmp_path / "proj" / "val.tgt").unlink()  # the validation references deleted since
    with pytest.raises(DataError, match=rf"^valid_tgt: cannot read proj/val.tgt: it is not in the current folder, "
                                        rf"{tmp_path}, where the run started; put it back"):
        resume(model_dir, progress=False)
    (tmp_path / "proj" / "train.src").unlink()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    with pytest.raises(DataError, match=rf"^train_src: cannot read proj/train.src: it is not in the current folder, "
                                        rf"{tmp_path / 'elsewhere'}, nor in {tmp_path}, where the run started; "):
        resume(model_dir, progress=False)
