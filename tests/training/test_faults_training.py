"""Training under faults: SIGKILL at random moments (one inside a checkpoint write), Ctrl-C, hostile files.

After every kill the latest checkpoint loads and --resume continues; the final
parameters equal those of a run that was never interrupted.
"""

import errno
import json
import math
import os
import pickle
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file
from support import can_mount_tmpfs, tiny_config

from attnmt import checkpoint as ckpt
from attnmt.cli.main import ended_by_signals, main
from attnmt.errors import ConfigError, ModelDirError, NonFiniteLoss
from attnmt.text import tokenizer_files
from attnmt.training import trainer as trainer_module
from attnmt.training.trainer import Trainer, resume

HARNESS = Path(__file__).parent / "killable_train.py"
# Dropout on: the resumed random state must be the one that was saved.
STEPS = 30
FAST = dict(max_steps=STEPS, eval_every=1, eval_metric="loss", max_tokens=60, keep_last=3,
            model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.2))


@pytest.fixture(autouse=True, scope="module")
def scratch_for_killed_runs(tmp_path_factory):
    """A run killed with SIGKILL cannot remove its on-the-fly preparation (a temporary
    directory; the next run does): the harness's runs make theirs under pytest's own temporary folders."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(tmp_path_factory.mktemp("scratch")))
        yield


def start(args, env_extra=None) -> subprocess.Popen:
    env = {**os.environ, "OMP_NUM_THREADS": "1", **(env_extra or {})}
    return subprocess.Popen([sys.executable, str(HARNESS), *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def write_config(folder: Path) -> tuple[Path, Path]:
    config = tiny_config(folder, **FAST)
    path = folder / "config.yaml"
    path.write_text(json.dumps(config.to_dict()))
    return path, Path(config.out_dir)


def last_weights(model_dir: Path) -> dict:
    latest = ckpt.list_checkpoints(model_dir)[-1]
    model, _ = ckpt.load_model_dir(model_dir, latest / ckpt.WEIGHTS)
    ckpt.load_trainer_state(latest)  # loads, and never unpickles code
    return model.state_dict()


def wait_for(predicate, timeout=60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> dict:
    """Trained in this process, which no one kills (the config's threads: 1, as the harness's runs): a process
    of its own cost a start-up of PyTorch and attnmt more, and the killed runs' result equals it as well."""
    path, model_dir = write_config(tmp_path_factory.mktemp("straight"))
    assert main(["train", str(path)]) == 0
    return last_weights(model_dir)


def latest_step(model_dir: Path) -> int:
    checkpoints = ckpt.list_checkpoints(model_dir)
    return int(checkpoints[-1].name.removeprefix("step_")) if checkpoints else 0


def test_sigkill_at_random_moments_then_resume_gives_the_uninterrupted_result(uninterrupted, tmp_path):
    path, model_dir = write_config(tmp_path)
    rng = random.Random(7)
    marker = tmp_path / "saving"
    # Six kills, each once the run has passed a random step (at most 20 of 30, so that even a very
    # fast CPU cannot finish first) and a random moment more: in a step, a validation or a write.
    targets = sorted(rng.sample(range(1, 21), 6))
    args = ["train", path]
    for kill, target in enumerate(targets):
        # The third kill lands while a checkpoint file is half-way to its final name.
        slow = {"ATTNMT_SLOW_SAVE_MARKER": str(marker)} if kill == 2 else {}
        process = start(args, slow)
        if slow:
            wait_for(marker.exists)
        else:
            wait_for(lambda p=process, t=target: latest_step(model_dir) >= t or p.poll() is not None)
            time.sleep(rng.uniform(0.0, 0.05))
        assert process.poll() is None, f"the run ended before kill {kill + 1}: {process.communicate()}"
        process.send_signal(signal.SIGKILL)
        process.wait()
        marker.unlink(missing_ok=True)
        last_weights(model_dir)  # the latest checkpoint always loads
        args = ["train", "--resume", model_dir]
    assert start(args).wait(timeout=300) == 0
    finished = last_weights(model_dir)
    assert latest_step(model_dir) == STEPS
    assert not [p for p in model_dir.rglob(".*")]  # the killed save's temporary folder was cleaned up
    assert not list(Path(os.environ["TMPDIR"]).glob("attnmt-prepared-*"))  # nor are the killed runs' preparations
    for name, value in uninterrupted.items():
        assert torch.equal(value, finished[name]), name


def test_a_kill_inside_safetensors_save_file_leaves_nothing_a_resume_keeps(tmp_path):
    # safetensors writes through its own temporary file beside the target (".tmp" and 6 letters or
    # digits) before renaming it; a kill at that moment left one in the model directory for good.
    from attnmt.files import remove_leftovers

    kept = ["model.safetensors", ".hidden_by_the_user", ".tmp", ".tmpabc", "tmpaUhjOL"]
    killed = [".tmpaUhjOL", ".model.safetensors.k2j4_x9a", ".step_00000010.q1w2e3r4"]
    for name in kept + killed:
        (tmp_path / name).write_bytes(b"x")
    assert sorted(p.name for p in remove_leftovers(tmp_path)) == sorted(killed)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept)


def test_ctrl_c_saves_a_checkpoint_and_exits_cleanly(tmp_path):
    path, model_dir = write_config(tmp_path)
    process = start(["train", path, "--max_steps", "100000", "--eval_every", "1000"])
    log = model_dir / "log.jsonl"
    wait_for(lambda: log.exists() and "loss" in log.read_text())
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "(SIGINT)" in out
    step = int(ckpt.list_checkpoints(model_dir)[-1].name.split("_")[1])
    assert step >= 10  # the first training log line is written at step 10
    assert ckpt.load_trainer_state(ckpt.list_checkpoints(model_dir)[-1])["step"] == step


def test_a_run_killed_in_its_first_checkpoint_save_is_started_again_by_resume(tmp_path, capsys):
    # Its own train.yaml was the only config left to start it with, and train refuses one inside out_dir.
    path, model_dir = write_config(tmp_path)
    marker = tmp_path / "saving"
    process = start(["train", path], {"ATTNMT_SLOW_SAVE_MARKER": str(marker)})
    wait_for(marker.exists)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert ckpt.list_checkpoints(model_dir) == []
    assert main(["train", "--resume", str(model_dir), "--max-steps", "3"]) == 0
    said = capsys.readouterr().out  # with the run's other lines, and in its train.log
    assert "no checkpoint to resume from (the run stopped before its first); starting it again" in said
    assert latest_step(model_dir) == 3
    last_weights(model_dir)
    validated = [record["step"] for record in read_log(model_dir) if "valid_loss" in record]
    assert validated == [1, 2, 3]  # the killed run's step 1 is not kept beside the new run's


def test_resuming_weights_without_a_checkpoint_points_to_init_from_and_writes_nothing(tmp_path, capsys):
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max-steps", "2"]) == 0
    shutil.rmtree(model_dir / ckpt.CHECKPOINTS)
    weights = (model_dir / ckpt.WEIGHTS).read_bytes()
    assert main(["train", "--resume", str(model_dir)]) == 2
    assert f"no checkpoint to resume from, but it holds weights (model.safetensors): train on from them as a new " \
           f"run, with init_from: {model_dir}" in capsys.readouterr().err
    assert (model_dir / ckpt.WEIGHTS).read_bytes() == weights


class Exploit:
    def __reduce__(self):
        return (os.system, ("touch pwned",))


def test_a_malicious_pickle_in_a_model_directory_is_refused(tmp_path, capsys, monkeypatch):
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "1"]) == 0
    latest = ckpt.list_checkpoints(model_dir)[-1]
    (latest / ckpt.TRAINER_STATE).write_bytes(pickle.dumps({"step": Exploit()}))
    monkeypatch.chdir(tmp_path)
    assert main(["train", "--resume", str(model_dir)]) == 2
    assert "cannot read trainer state" in capsys.readouterr().err
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("state", [{"step": 1, "epoch": 3}, [1, 2], torch.zeros(3)],
                         ids=["another program's dict", "a list", "a tensor"])
def test_a_trainer_state_that_loads_but_is_none_of_attnmts_is_refused_in_one_line(tmp_path, capsys, monkeypatch,
                                                                                   state):
    """torch.load reads any tensors and plain values: a trainer_state.pt of another program's (or a list,
    a tensor) was read, and the resume failed on it as "KeyError: 'optimizer'", a traceback."""
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "1"]) == 0
    latest = ckpt.list_checkpoints(model_dir)[-1]
    torch.save(state, latest / ckpt.TRAINER_STATE)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"attnmt: error: {latest / ckpt.TRAINER_STATE}: not a trainer state of attnmt's (") and (
        err.count("\n") == 1)


def test_an_optimizer_state_that_does_not_fit_the_model_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    """An optimizer state of another model's, or edited by hand, was torch.optim's traceback ("ValueError: loaded
    state dict contains a parameter group that doesn't match the size of optimizer's group")."""
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "2"]) == 0
    latest = ckpt.list_checkpoints(model_dir)[-1]
    state = ckpt.load_trainer_state(latest)
    state["optimizer"]["param_groups"][0]["params"].pop()
    torch.save(state, latest / ckpt.TRAINER_STATE)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir)]) == 2
    count = len(state["optimizer"]["param_groups"][0]["params"])
    assert capsys.readouterr().err == (
        f"attnmt: error: {latest / ckpt.TRAINER_STATE}: optimizer state: of {count} parameters, but the model has "
        f"{count + 1}; delete {latest} to resume from the checkpoint before it\n")


def test_a_newer_trainer_state_that_is_none_of_attnmts_is_passed_over_for_the_checkpoint_before(tmp_path, capsys,
                                                                                                monkeypatch):
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "2"]) == 0
    newest = ckpt.list_checkpoints(model_dir)[-1]
    torch.save({"step": 2}, newest / ckpt.TRAINER_STATE)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir)]) == 0
    out = capsys.readouterr().out
    assert f"warning: {newest / ckpt.TRAINER_STATE}: not a trainer state of attnmt's" in out
    assert "resumed from" in out and "step_00000001 (step 1)" in out
    assert ckpt.load_trainer_state(ckpt.list_checkpoints(model_dir)[-1])["step"] == 2



@pytest.mark.parametrize("left", ["", "\n", "# runs/x\n"], ids=["empty", "a blank line", "a comment"])
def test_a_train_yaml_emptied_by_hand_is_refused_on_resume_in_one_line_naming_it(tmp_path, capsys, left):
    """Read as every key's default, it was refused for a key the user never touched ("train.yaml: max_tokens is
    4096, but the run started with 60")."""
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "2"]) == 0
    (model_dir / ckpt.TRAIN_CONFIG).write_text(left)
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir)]) == 2
    assert capsys.readouterr().err == (
        f"attnmt: error: {model_dir / ckpt.TRAIN_CONFIG}: holds no settings (emptied or cut short), where 'attnmt "
        "train' wrote the run's; put them back: the config the run started with, and the overrides it was given\n")
    assert [c.name for c in ckpt.list_checkpoints(model_dir)] == ["step_00000001", "step_00000002"]

def test_truncated_weights_are_a_clear_error(tmp_path, capsys):
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "1"]) == 0
    weights = model_dir / ckpt.WEIGHTS
    weights.write_bytes(weights.read_bytes()[:1000])
    assert main(["translate", "--model", str(model_dir), os.devnull]) == 2
    err = capsys.readouterr().err
    assert "model.safetensors: cannot load weights" in err and "Traceback" not in err


def test_config_from_another_version_names_the_key(tmp_path, capsys):
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "1"]) == 0
    config = json.loads((model_dir / ckpt.MODEL_CONFIG).read_text())
    config["rotary_embeddings"] = True
    (model_dir / ckpt.MODEL_CONFIG).write_text(json.dumps(config))
    assert main(["translate", "--model", str(model_dir), os.devnull]) == 2
    err = capsys.readouterr().err
    assert "config.json: unknown key(s) rotary_embeddings" in err


def test_tokenizer_of_another_vocabulary_size_is_refused(tmp_path, capsys):
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "1"]) == 0
    from attnmt.text.tokenizer import Tokenizer

    Tokenizer.train(["ein ganz anderer satz", "mit anderen wörtern"] * 5, vocab_size=30).save(
        model_dir / tokenizer_files.TOKENIZER)
    assert main(["translate", "--model", str(model_dir), os.devnull]) == 2
    err = capsys.readouterr().err
    assert "spm.model: has" in err and "vocab_size=81" in err


def test_a_full_disk_during_a_checkpoint_save_is_one_line_and_the_last_checkpoint_stays(tmp_path):
    disk = tmp_path / "disk"
    if not can_mount_tmpfs(disk):
        pytest.skip("cannot mount a small tmpfs here (needs root or user namespaces)")
    path, _ = write_config(tmp_path)
    model_dir = disk / "model"
    python = f"{shlex.quote(sys.executable)} {shlex.quote(str(HARNESS))}"
    checkpoint = model_dir / "checkpoints" / "step_00000002"
    # All inside one mount namespace (the tmpfs vanishes with it): two steps, a disk filled up to 64 KB
    # (room for log lines, not for a checkpoint), then a resume that must save step 3.
    script = f"""set -e
        mount -t tmpfs -o size=8m tmpfs {disk}
        {python} train {path} --out_dir {model_dir} --max_steps 2 > /dev/null 2>&1
        sha256sum {checkpoint}/* > {tmp_path}/before
        dd if=/dev/zero of={disk}/filler bs=64k 2> /dev/null || true
        truncate -s -64K {disk}/filler
        set +e
        {python} train --resume {model_dir} --max_steps 4 > /dev/null 2> {tmp_path}/err
        echo $? > {tmp_path}/status
        sha256sum -c {tmp_path}/before > /dev/null && echo intact > {tmp_path}/intact
        ls -A {model_dir} {model_dir}/checkpoints > {tmp_path}/files
        """
    subprocess.run(["unshare", "-rm", "sh", "-c", script], check=True, timeout=300,
                   env={**os.environ, "OMP_NUM_THREADS": "1"})
    err = (tmp_path / "err").read_text()
    assert (tmp_path / "status").read_text().strip() == "2", err
    assert err.count("attnmt: error:") == 1 and "Traceback" not in err, err  # one line (beside the bar)
    assert f"could not write {model_dir}/checkpoints/step_00000003: no space left on device; the previous version is " \
           "intact" in err
    assert (tmp_path / "intact").exists()  # step 2's files are byte for byte what they were
    assert "step_00000002" in (tmp_path / "files").read_text()
    assert ".step" not in (tmp_path / "files").read_text()  # nothing half-written left



def test_a_write_failing_with_enospc_in_a_resumes_save_is_one_line_and_the_last_checkpoint_loads(tmp_path, capsys,
                                                                                                  monkeypatch):
    """The full disk of the test above, where no tmpfs can be mounted: the trainer state's writer fails midway."""
    path, model_dir = write_config(tmp_path)
    assert main(["train", str(path), "--max_steps", "2"]) == 0
    step_2 = model_dir / "checkpoints" / "step_00000002"
    before = {file.name: file.read_bytes() for file in step_2.iterdir()}

    def disk_full_midway(state, path):
        Path(path).write_bytes(b"PK\x03\x04" * 64)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(ckpt, "save_state", disk_full_midway)
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir), "--max_steps", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("attnmt: error:") == 1 and "Traceback" not in err, err  # one line (beside the bar)
    assert err.endswith(f"attnmt: error: could not write {model_dir}/checkpoints/step_00000003: no space left on "
                        "device; the previous version is intact\n")
    assert {file.name: file.read_bytes() for file in step_2.iterdir()} == before
    assert sorted(c.name for c in (model_dir / "checkpoints").iterdir()) == ["step_00000001", "step_00000002"]
    assert ckpt.load_trainer_state(step_2)["step"] == 2 and ckpt.read_tensors(step_2 / ckpt.WEIGHTS)

def test_the_loss_logged_after_a_resume_is_the_mean_over_the_steps_since(tmp_path):
    every_step = tiny_config(tmp_path / "a", **{**FAST, "max_steps": 20, "log_every": 1, "eval_every": 20})
    Trainer(every_step, progress=False).train()
    losses = {r["step"]: r["loss"] for r in read_log(Path(every_step.out_dir)) if "loss" in r}
    interrupted = tiny_config(tmp_path / "b", **{**FAST, "max_steps": 17, "log_every": 10, "eval_every": 20})
    Trainer(interrupted, progress=False).train()
    resume(interrupted.out_dir, {"max_steps": "20"}, progress=False)
    logged = {r["step"]: r["loss"] for r in read_log(Path(interrupted.out_dir)) if "loss" in r}
    assert logged[10] == pytest.approx(sum(losses[s] for s in range(1, 11)) / 10, abs=1e-3)
    assert logged[20] == pytest.approx(sum(losses[s] for s in (18, 19, 20)) / 3, abs=1e-3)  # 3 steps, not 10


def read_log(model_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (model_dir / "log.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("earlier", [False, True])
def test_a_damaged_latest_checkpoint_is_passed_over_for_the_one_before(tmp_path, capsys, earlier):
    config = tiny_config(tmp_path, **{**FAST, "max_steps": 6, "eval_every": 3})
    straight = Trainer(config, progress=False)
    straight.train()
    weights = ckpt.list_checkpoints(Path(config.out_dir))[-1] / ckpt.WEIGHTS
    weights.write_bytes(weights.read_bytes()[:1000])
    aside = Path(config.out_dir) / "checkpoints" / "damaged_step_00000006"
    if earlier:  # the same step moved aside on an earlier resume: that one is kept, this one goes beside it
        aside.mkdir()
        aside = aside.with_name(aside.name + ".2")
    resumed = Trainer(config, resume=True, progress=True)
    assert resumed.step == 3
    said = capsys.readouterr().out
    assert "step_00000006/model.safetensors: cannot load weights" in said and f"moved aside to {aside}" in said
    assert (aside / ckpt.WEIGHTS).is_file()  # kept for a look, no longer among the checkpoints pruning counts
    assert [c.name for c in ckpt.list_checkpoints(Path(config.out_dir))][-1] == "step_00000003"
    resumed.train()
    for name, value in straight.model.state_dict().items():
        assert torch.equal(value, resumed.model.state_dict()[name]), name


@pytest.mark.parametrize("damaged", [ckpt.WEIGHTS, ckpt.TRAINER_STATE])
def test_a_run_whose_every_checkpoint_is_damaged_says_it_cannot_resume_and_what_to_do(tmp_path, capsys, damaged):
    """The line named the oldest checkpoint's file alone ("…/step_00000002/model.safetensors: cannot load
    weights (…)"), as if another, not the run, could not be resumed."""
    config = tiny_config(tmp_path, **{**FAST, "max_steps": 4, "eval_every": 2})
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    for checkpoint in ckpt.list_checkpoints(model_dir):
        (checkpoint / damaged).write_bytes((checkpoint / damaged).read_bytes()[:1000])
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir)]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"attnmt: error: {model_dir}/checkpoints/step_00000002/{damaged}: cannot ")
    assert err.endswith("; no checkpoint of the run loads, so it cannot resume: start it again, or train on from "
                        "its model.safetensors (where it loads) with init_from into another out_dir\n")
    assert err.count("\n") == 1 and "step_00000004" in out  # the newer one named, and moved aside, as before


def test_resuming_from_non_finite_weights_stops_naming_the_checkpoint_and_the_one_before(tmp_path):
    config = tiny_config(tmp_path, **{**FAST, "max_steps": 6, "eval_every": 3})
    Trainer(config, progress=False).train()
    weights = ckpt.list_checkpoints(Path(config.out_dir))[-1] / ckpt.WEIGHTS
    tensors = load_file(weights)
    next(iter(tensors.values()))[0] = math.nan
    save_file(tensors, weights)
    with pytest.raises(ModelDirError, match=r"step_00000006: its weights hold NaN or infinite values \(.*\); "
                                            r"delete it to resume from .*step_00000003"):
        Trainer(config, resume=True, progress=False)


def test_a_run_whose_every_batch_is_non_finite_stops_naming_the_last_good_checkpoint(tmp_path, monkeypatch):
    monkeypatch.setattr(trainer_module, "SKIPPED_IN_A_ROW", 3)
    trainer = Trainer(tiny_config(tmp_path, **{**FAST, "max_steps": 1000, "eval_every": 2}), progress=False)
    real_loss, calls = trainer.loss, {"n": 0}

    def broken_after_step_4(*args):  # as weights gone NaN would give
        calls["n"] += 1
        return real_loss(*args) * (math.nan if calls["n"] > 4 else 1.0)

    trainer.loss = broken_after_step_4
    with pytest.raises(NonFiniteLoss, match=r"at step 5, 3 updates in a row: .* The last good checkpoint is "
                                            r".*step_00000004"):
        trainer.train()


def test_an_eval_beam_wider_than_decodings_widest_is_refused_before_any_work(tmp_path):
    config = tiny_config(tmp_path, **{**FAST, "eval_beam": 65})
    with pytest.raises(ConfigError, match="^eval_beam=65: use a whole number from 1 to 64$"):
        Trainer(config, progress=False)
    assert not (tmp_path / "model").exists()



@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_a_signal_in_the_save_after_a_skipped_batch_waits_until_the_save_is_whole(tmp_path, monkeypatch, stop,
                                                                                  pythons_ctrl_c):
    """on_nonfinite: skip.  A run stopped (Ctrl-C) in a step whose batch was skipped saves after its loop, where its
    StopFlag no longer takes the signal: a second one in that save was raised inside it (KeyboardInterrupt, or the
    command's Terminated), and the run ended with neither the checkpoint of its last step nor, stopped before its
    first validation, any model.safetensors."""
    config = tiny_config(tmp_path, **{**FAST, "max_steps": 1000, "eval_every": 100, "on_nonfinite": "skip"})
    trainer = Trainer(config, progress=False)
    real_loss, calls = trainer.loss, {"n": 0}

    def third_batch_non_finite_and_stopped(*args):
        calls["n"] += 1
        if calls["n"] < 3:
            return real_loss(*args)
        os.kill(os.getpid(), stop)  # taken by the loop's StopFlag: the run stops after this step
        return real_loss(*args) * math.nan

    real_save_state = ckpt.save_state

    def signalled_again_while_saving(state, path):
        real_save_state(state, path)
        os.kill(os.getpid(), stop)  # before the checkpoint's folder is renamed into place

    trainer.loss = third_batch_non_finite_and_stopped
    monkeypatch.setattr(ckpt, "save_state", signalled_again_while_saving)
    with ended_by_signals(), pytest.raises(KeyboardInterrupt):  # as in the command: SIGTERM raises Terminated
        trainer.train()  # once the save is whole
    model_dir = Path(config.out_dir)
    assert [c.name for c in ckpt.list_checkpoints(model_dir)] == ["step_00000002"]
    assert ckpt.load_trainer_state(model_dir / "checkpoints" / "step_00000002")["step"] == 2
    saved, model = load_file(model_dir / "checkpoints" / "step_00000002" / ckpt.WEIGHTS), load_file(
        model_dir / ckpt.WEIGHTS)  # the step's weights are the model's until a validation keeps a best
    assert saved.keys() == model.keys() and all(torch.equal(saved[name], model[name]) for name in saved)
