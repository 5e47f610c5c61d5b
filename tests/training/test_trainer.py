"""Training: the loss, the schedule, checkpoints that survive failures, exact resume, and learning."""

import json
import math
import os
import re
import stat
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from safetensors import SafetensorError
from support import KNOWS_THE_PAIRS, PAIRS, tiny_config, worst_pair_nll

from attnmt import checkpoint as ckpt
from attnmt.checkpoint import load_model_dir
from attnmt.cli.main import main
from attnmt.config_ranges import parse_duration
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError, NonFiniteLoss
from attnmt.hardware import resolve_precision
from attnmt.layers import FeedForward
from attnmt.threads import Choice
from attnmt.train_config import load_config
from attnmt.training import logs as logs_module
from attnmt.training.averaging import average_checkpoints, keep_better_average
from attnmt.training.objective import cooldown, label_smoothed_nll, noam_schedule
from attnmt.training.trainer import Trainer, resume, train

MULTI30K = Path(__file__).parents[2] / "data" / "multi30k"

def test_label_smoothed_nll_without_smoothing_is_cross_entropy():
    torch.manual_seed(0)
    logits, target = torch.randn(2, 3, 7), torch.tensor([[4, 5, 0], [6, 0, 0]])
    loss, nll = label_smoothed_nll(logits, target, 0.0, pad_id=0)
    expected = F.cross_entropy(logits.view(-1, 7), target.view(-1), ignore_index=0, reduction="sum")
    torch.testing.assert_close(loss, expected)
    torch.testing.assert_close(nll, expected)


def test_label_smoothing_of_uniform_logits_is_log_vocab():
    loss, nll = label_smoothed_nll(torch.zeros(1, 2, 8), torch.tensor([[3, 4]]), 0.1, pad_id=0)
    assert loss.item() == pytest.approx(2 * math.log(8), rel=1e-6)
    assert nll.item() == pytest.approx(2 * math.log(8), rel=1e-6)


def test_label_smoothing_penalises_overconfidence():
    confident = torch.full((1, 1, 8), -20.0)
    confident[0, 0, 3] = 20.0
    loss, nll = label_smoothed_nll(confident, torch.tensor([[3]]), 0.1, pad_id=0)
    assert nll.item() < 1e-6 < 1.0 < loss.item()


def test_noam_schedule_peaks_at_warmup():
    assert noam_schedule(4000, 512, 4000) == pytest.approx(512**-0.5 * 4000**-0.5)
    assert noam_schedule(2000, 512, 4000) == pytest.approx(noam_schedule(4000, 512, 4000) / 2)
    assert noam_schedule(16000, 512, 4000) == pytest.approx(noam_schedule(4000, 512, 4000) / 2)
    assert noam_schedule(100, 512, 4000, factor=2.0) == pytest.approx(2 * noam_schedule(100, 512, 4000))


def test_cooldown_falls_linearly_to_zero_over_the_last_share_of_the_budget():
    assert [cooldown(1.0, done, 0.2) for done in (0.0, 0.5, 0.8, 0.9, 0.95, 1.0, 1.2)] == pytest.approx(
        [1.0, 1.0, 1.0, 0.5, 0.25, 0.0, 0.0])
    assert cooldown(2e-3, 0.99, 0.0) == 2e-3  # no cool-down: the rate as it is


def test_the_cooldown_follows_max_steps(tmp_path):
    trainer = Trainer(tiny_config(tmp_path, lr_cooldown=0.5, warmup_steps=2, max_steps=10), progress=False)
    noam = [noam_schedule(step, 64, 2) for step in range(1, 11)]  # lr_factor 1
    assert [trainer.learning_rate(step) for step in range(1, 11)] == pytest.approx(
        [*noam[:5], noam[5] * 0.8, noam[6] * 0.6, noam[7] * 0.4, noam[8] * 0.2, 0.0])


def test_the_cooldown_follows_max_time_where_it_ends_first(tmp_path):
    trainer = Trainer(tiny_config(tmp_path, lr_cooldown=0.5, warmup_steps=1, max_time="1h", max_steps=1000,
                                  learning_rate=1e-3), progress=False)
    trainer.elapsed = 2700.0  # three quarters of the hour spent: half way down the cool-down
    trainer.train_step([next(iter(trainer.batcher))])
    assert trainer.time_spent == 0.75
    assert trainer.optimizer.lr == pytest.approx(1e-3 * 0.5)
    assert trainer.learning_rate() == pytest.approx(1e-3 * 0.5)


def test_without_a_cooldown_the_schedule_is_the_papers(tmp_path):
    trainer = Trainer(tiny_config(tmp_path, warmup_steps=4, max_steps=10), progress=False)
    assert [trainer.learning_rate(step) for step in (1, 4, 10)] == [noam_schedule(step, 64, 4) for step in (1, 4, 10)]


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_cooldown_outside_0_to_1_is_refused(tmp_path, share):
    with pytest.raises(ConfigError, match=f"lr_cooldown={share}: use a share of the budget from 0 \\(none\\) to 1"):
        tiny_config(tmp_path, lr_cooldown=share)


@pytest.mark.parametrize("config, message", [
    ({"max_steps": 1}, "config: expected an attnmt TrainConfig, got dict; e.g. load_config('train.yaml'), or "
                       "TrainConfig.from_dict(values) for a dict"),
    (None, "config: expected an attnmt TrainConfig, got NoneType; e.g. load_config('train.yaml'), or "
           "TrainConfig.from_dict(values) for a dict")])
def test_a_config_that_is_no_train_config_is_named(config, message):
    """``train({"max_steps": 1})`` was an AttributeError: 'dict' object has no attribute 'eval_beam'."""
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        train(config)


@pytest.mark.parametrize("progress", ["no", 0, None, print])
def test_a_progress_that_is_no_bool_is_named_before_any_work(tmp_path, progress):
    """``progress="no"`` was true, and drew the bar; a resume's too, before its run is read."""
    message = rf"^progress: expected true or false \(whether to show the progress bar\), got {type(progress).__name__} "
    with pytest.raises(ConfigError, match=message):
        train(tiny_config(tmp_path), progress=progress)
    with pytest.raises(ConfigError, match=message):
        resume(tmp_path / "no-run", progress=progress)
    assert not (tmp_path / "model").exists()


def test_unknown_config_key_is_named_with_the_valid_ones(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_tokenz: 10\n")
    with pytest.raises(ConfigError, match=r"c.yaml: unknown key\(s\) max_tokenz \(did you mean max_tokens\?\); "
                                          r"valid keys: train_src"):
        load_config(path)


def test_unknown_model_key_is_named(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("model:\n  d_modl: 10\n")
    with pytest.raises(ConfigError, match="model: unknown key.*d_modl"):
        load_config(path)


def test_overrides_reach_nested_model_keys(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_tokens: 10\nmodel:\n  d_model: 16\n  n_heads: 2\n")
    config = load_config(path, {"model.d_model": "32", "max_time": "5m"})
    assert config.model == {"d_model": 32, "n_heads": 2}
    assert parse_duration(config.max_time) == 300.0


def test_shipped_configs_are_valid():
    root = Path(__file__).parents[2] / "configs"
    for name in ("multi30k_en_de.yaml", "transformer_base.yaml"):
        config = load_config(root / name)
        config.model_config(8000)
    assert load_config(root / "transformer_base.yaml").model_config(8000).d_model == 512
    fine_tune = load_config(root / "fine_tune.yaml", {"init_from": "runs/opus-en-de"})
    assert (fine_tune.init_from, fine_tune.learning_rate, fine_tune.model) == ("runs/opus-en-de", 1e-4, {})


def test_training_makes_the_loss_fall(trained_model):
    records = [json.loads(line) for line in (trained_model / "log.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in records if "loss" in r]
    valid = [r["valid_loss"] for r in records if "valid_loss" in r]
    assert losses[0] > 3.0  # about log(81), the vocabulary size, at the start
    assert losses[-1] < losses[0] / 10
    assert valid[-1] < 0.1  # NLL per token on the memorised pairs


def test_model_trained_on_20_pairs_translates_them_back(trained_model):
    # The fixture trains until this holds (see support.KNOWS_THE_PAIRS for why it suffices).
    assert worst_pair_nll(trained_model) < KNOWS_THE_PAIRS
    model, tokenizer = load_model_dir(trained_model)
    for beam_size in (1, 4):
        outputs = translate(model, tokenizer, [s for s, _ in PAIRS], Decoding(beam_size=beam_size))
        assert outputs == [t for _, t in PAIRS]


def test_model_directory_has_weights_config_tokenizer_and_checkpoints(trained_model):
    for name in ("model.safetensors", "config.json", "spm.model", "train.yaml", "log.jsonl"):
        assert (trained_model / name).is_file()
    steps = [int(p.name.removeprefix("step_")) for p in ckpt.list_checkpoints(trained_model)]
    final = max(json.loads(line)["step"] for line in (trained_model / "log.jsonl").read_text().splitlines())
    assert steps[-1] == final and final >= 300  # a checkpoint every eval_every=100 steps, the last at the end
    assert all(step % 100 == 0 for step in steps) and 3 <= len(steps) <= 6  # keep_last 5 (+ the best)


def test_resume_continues_exactly(tmp_path):
    # Dropout on, so the restored random state matters too.
    changes = dict(max_steps=6, eval_every=3, eval_metric="loss", max_tokens=120,
                   model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.3))
    straight = Trainer(tiny_config(tmp_path / "a", **changes), progress=False)
    straight.train()
    first = Trainer(tiny_config(tmp_path / "b", **{**changes, "max_steps": 3}), progress=False)
    first.train()
    resumed_config = tiny_config(tmp_path / "b", **changes)
    resumed = Trainer(resumed_config, resume=True, progress=False)
    assert resumed.step == 3
    resumed.train()
    for (name, a), (_, b) in zip(straight.model.state_dict().items(), resumed.model.state_dict().items(),
                                 strict=True):
        assert torch.equal(a, b), name


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below ``folder`` with its size and modification time (ns)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_resuming_a_finished_run_says_so_and_writes_nothing(tmp_path, capsys):
    config = tiny_config(tmp_path, max_steps=4, eval_every=2, eval_metric="loss")
    config_path = tmp_path / "config.yaml"
    config_path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(config_path)]) == 0
    model_dir = Path(config.out_dir)
    before = snapshot(model_dir)
    capsys.readouterr()
    assert main(["train", "--resume", str(model_dir)]) == 0
    out, err = capsys.readouterr()
    assert "already finished (step 4 reached max_steps 4)" in out + err
    assert snapshot(model_dir) == before
    assert [p.name for p in ckpt.list_checkpoints(model_dir)] == ["step_00000002", "step_00000004"]


def test_a_finished_run_resumes_with_a_larger_max_steps(tmp_path):
    config = tiny_config(tmp_path, max_steps=2, eval_every=2, eval_metric="loss")
    Trainer(config, progress=False).train()
    assert resume(config.out_dir, {"max_steps": "4"}, progress=False).step == 4
    assert [p.name for p in ckpt.list_checkpoints(Path(config.out_dir))] == ["step_00000002", "step_00000004"]


def test_training_logs_what_it_resolved_and_names_its_metric(tmp_path, capsys):
    config = tiny_config(tmp_path, max_steps=2, eval_every=2, eval_metric="loss", precision="auto")
    config_path = tmp_path / "config.yaml"
    config_path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(config_path)]) == 0
    out, err = capsys.readouterr()
    records = [json.loads(line) for line in (Path(config.out_dir) / "log.jsonl").read_text().splitlines()]
    runtime = records[0]["runtime"]
    precision, reason = resolve_precision("auto", torch.device("cpu"))
    assert runtime["precision"] == precision and runtime["precision_reason"] == reason
    assert reason.startswith("auto: ") and ("bf16" in reason or "ONEDNN_MAX_CPU_ISA" in reason)
    assert runtime["threads"] == 1 and runtime["device"] == "cpu" and runtime["cpu"]
    assert f"precision {precision} ({reason})" in out + err
    assert "best validation loss" in out and "BLEU" not in out  # eval_metric loss: the loss is tracked


def test_the_trainer_looks_at_the_thread_count_between_steps_and_logs_a_change(tmp_path, monkeypatch):
    why = "auto: 1.0 of 2 CPUs busy with other processes; at most 2"
    calls = []

    def recheck():
        calls.append(len(calls) + 1)
        return Choice(1, why) if len(calls) == 2 else None

    monkeypatch.setattr(logs_module, "recheck", recheck)
    config = tiny_config(tmp_path, max_steps=3, eval_every=3, eval_metric="loss", threads=0)
    Trainer(config, progress=False).train()
    records = [json.loads(line) for line in (Path(config.out_dir) / "log.jsonl").read_text().splitlines()]
    assert calls == [1, 2, 3]  # once after each step
    assert {"step": 2, "threads": 1, "threads_why": why} in records
    assert f"step 2: 1 thread(s) ({why})" in (Path(config.out_dir) / "train.log").read_text()


def test_a_negative_thread_count_in_a_config_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="threads=-1: use a number of threads up to 4,096, or 0 to follow the free"):
        tiny_config(tmp_path, threads=-1)


def test_model_files_follow_the_umask_like_any_tool(tmp_path):
    previous = os.umask(0o027)
    try:
        config = tiny_config(tmp_path, max_steps=2, eval_every=2, eval_metric="loss")
        Trainer(config, progress=False).train()
    finally:
        os.umask(previous)
    model_dir = Path(config.out_dir)
    modes = {str(p.relative_to(model_dir)): stat.S_IMODE(p.stat().st_mode) for p in model_dir.rglob("*")}
    assert {name for name, mode in modes.items() if mode != (0o750 if (model_dir / name).is_dir() else 0o640)} == set()
    assert {"model.safetensors", "spm.model", "config.json", "checkpoints/step_00000002",
            "checkpoints/step_00000002/trainer_state.pt"} <= set(modes)


def test_new_run_refuses_a_directory_with_checkpoints(trained_model, tmp_path):
    with pytest.raises(ConfigError, match="--resume"):
        Trainer(tiny_config(tmp_path, out_dir=str(trained_model)), progress=False)


def test_failed_checkpoint_write_keeps_the_previous_one(trained_copy, tmp_path, monkeypatch):
    trained = trained_copy
    checkpoints = ckpt.list_checkpoints(trained)
    model, _ = load_model_dir(trained)
    before = (trained / "model.safetensors").read_bytes()

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(torch, "save", disk_full)
    with pytest.raises(ckpt.ModelDirError, match="step_00000999: no space left on device; the previous version is "
                                                  "intact"):
        ckpt.save_checkpoint(trained, 999, model, {"step": 999})
    monkeypatch.setattr(ckpt, "save_model", disk_full)
    with pytest.raises(ckpt.ModelDirError, match="model.safetensors: no space left on device"):
        ckpt.save_weights(model, trained / "model.safetensors")

    def safetensors_disk_full(*args, **kwargs):  # how safetensors says it (seen on a full tmpfs)
        raise SafetensorError("Error while serializing: I/O error: No space left on device (os error 28)")

    monkeypatch.setattr(ckpt, "save_model", safetensors_disk_full)
    with pytest.raises(ckpt.ModelDirError, match="step_00000999: no space left on device; the previous version"):
        ckpt.save_checkpoint(trained, 999, model, {"step": 999})
    assert (trained / "model.safetensors").read_bytes() == before
    assert ckpt.list_checkpoints(trained) == checkpoints
    assert not list((trained / "checkpoints").glob(".*"))  # no half-written leftovers


def test_average_is_the_elementwise_mean(trained_model, tmp_path):
    trained, out = trained_model, tmp_path / "avg.safetensors"
    chosen = ckpt.list_checkpoints(trained)[-2:]
    average_checkpoints(chosen, out)
    a, _ = load_model_dir(trained, chosen[0] / "model.safetensors")
    b, _ = load_model_dir(trained, chosen[1] / "model.safetensors")
    mean, _ = load_model_dir(trained, out)
    torch.testing.assert_close(mean.output.weight, (a.output.weight + b.output.weight) / 2)


def test_keep_better_average_keeps_the_higher_validation_bleu(trained_copy):
    scores = keep_better_average(trained_copy, decoding=Decoding(beam_size=1), lasts=(2, 3))
    assert set(scores) == {"best", "average of last 2", "average of last 3"}
    assert max(scores.values()) == pytest.approx(100.0)


def test_an_average_that_replaces_the_weights_does_not_keep_the_old_weights_calibration(trained_copy, monkeypatch):
    # make_demo's fault: training calibrated model.safetensors, the average replaced it, and every
    # jsonl translation then stopped at "quality.json was fitted for other weights".
    import attnmt.training.averaging as averaging
    from attnmt.decoding.calibration import CALIBRATION, load_calibration

    (trained_copy / CALIBRATION).write_text('{"model_sha256": "0" }\n')  # fitted on the weights about to go
    rising = iter(range(10))
    monkeypatch.setattr(averaging, "bleu", lambda hypotheses, references: float(next(rising)))
    said = []
    scores = keep_better_average(trained_copy, decoding=Decoding(beam_size=1), lasts=(2,), say=said.append)
    assert max(scores, key=scores.get) == "average of last 2"
    # 20 validation pairs are too few to fit again: the stale file goes, and the run says why.
    assert not (trained_copy / CALIBRATION).exists() and load_calibration(trained_copy) is None
    assert len(said) == 1 and said[0].startswith("quality not calibrated (")


def test_multi30k_is_bundled():
    for name in ("train", "val", "test_2016_flickr"):
        for lang in ("en", "de"):
            assert (MULTI30K / f"{name}.{lang}.gz").stat().st_size > 10_000


def test_numbers_written_as_yaml_text_are_read_as_numbers(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("adam_eps: 1e-9\nmodel:\n  dropout: 1e-1\n")  # YAML 1.1 reads both as strings
    config = load_config(path)
    assert config.adam_eps == 1e-9 and config.model_config(100).dropout == 0.1


def test_wrongly_typed_value_names_the_key(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("max_tokens: lots\n")
    with pytest.raises(ConfigError, match="c.yaml: max_tokens must be a whole number, got 'lots'"):
        load_config(path)


def test_fast_training_loss_equals_the_reference():
    torch.manual_seed(0)
    from attnmt.model import Transformer, TransformerConfig
    from attnmt.training.objective import TranslationLoss

    model = Transformer(TransformerConfig(vocab_size=30, d_model=16, n_heads=2, encoder_layers=1,
                                          decoder_layers=1, d_ff=32, dropout=0.0)).eval()
    src = torch.tensor([[5, 6, 7, 0], [8, 9, 10, 11]])
    tgt_in = torch.tensor([[2, 12, 13, 0], [2, 14, 0, 0]])
    tgt_out = torch.tensor([[12, 13, 3, 0], [14, 3, 0, 0]])
    reference, _ = label_smoothed_nll(model(src, tgt_in), tgt_out, 0.1, pad_id=0)
    torch.testing.assert_close(TranslationLoss(model, 0.1)(src, tgt_in, tgt_out), reference)


def poison_one_batch(trainer: Trainer, at_call: int) -> None:
    """Makes the loss of the ``at_call``-th batch NaN, as an overflowing model would."""
    real_loss, calls = trainer.loss, {"n": 0}

    def loss(*args):
        calls["n"] += 1
        value = real_loss(*args)
        return value * math.nan if calls["n"] == at_call else value

    trainer.loss = loss


def test_non_finite_loss_skips_the_batch_and_says_so(tmp_path):
    trainer = Trainer(tiny_config(tmp_path, max_steps=4, eval_every=4, eval_metric="loss"), progress=False)
    poison_one_batch(trainer, at_call=2)
    trainer.train()
    records = [json.loads(line) for line in (tmp_path / "model" / "log.jsonl").read_text().splitlines()]
    assert {"step": 2, "non_finite_loss": "nan", "action": "skip"} in records
    assert trainer.step == 4
    assert all(torch.isfinite(p).all() for p in trainer.model.parameters())


def test_non_finite_loss_can_stop_with_the_last_good_checkpoint(tmp_path):
    config = tiny_config(tmp_path, max_steps=6, eval_every=2, eval_metric="loss", on_nonfinite="stop")
    trainer = Trainer(config, progress=False)
    poison_one_batch(trainer, at_call=3)
    with pytest.raises(NonFiniteLoss, match="step 3.*step_00000002"):
        trainer.train()
    model, _ = load_model_dir(tmp_path / "model", ckpt.list_checkpoints(tmp_path / "model")[-1] / "model.safetensors")
    assert all(torch.isfinite(p).all() for p in model.parameters())


def test_a_run_writes_train_log_and_tensorboard_events(tmp_path):
    pytest.importorskip("tensorboard", reason="TensorBoard logging needs the tensorboard package")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    config = tiny_config(tmp_path, max_steps=20, eval_every=10, log_every=5, eval_metric="loss")
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    text = (model_dir / "train.log").read_text(encoding="utf-8")
    assert "corpus0: read 20 pairs, kept 20" in text and "precision fp32 (set in the config)" in text
    assert "step 20: valid loss" in text and "stopped at step 20 (max_steps)" in text
    events = EventAccumulator(str(model_dir / "tensorboard"))
    events.Reload()
    assert [e.step for e in events.Scalars("train/loss")] == [5, 10, 15, 20]
    assert [e.step for e in events.Scalars("valid/loss")] == [10, 20]
    log = [json.loads(line) for line in (model_dir / "log.jsonl").read_text().splitlines()]
    last_valid = [r for r in log if "valid_loss" in r][-1]
    assert events.Scalars("valid/loss")[-1].value == pytest.approx(last_valid["valid_loss"])


def test_save_every_writes_checkpoints_between_validations(tmp_path):
    config = tiny_config(tmp_path, max_steps=6, eval_every=4, save_every=1, keep_last=10, eval_metric="loss",
                         tensorboard=False)
    Trainer(config, progress=False).train()
    model_dir = Path(config.out_dir)
    assert [p.name for p in ckpt.list_checkpoints(model_dir)] == [f"step_{s:08d}" for s in range(1, 7)]
    validated = [r["step"] for r in map(json.loads, (model_dir / "log.jsonl").read_text().splitlines())
                 if "valid_loss" in r]
    assert validated == [4, 6]  # saving does not validate
    assert resume(model_dir, {"max_steps": "7"}, progress=False).step == 7


def test_chrf_can_pick_the_best_weights(tmp_path, capsys):
    config = tiny_config(tmp_path, max_steps=4, eval_every=2, eval_metric="chrf", tensorboard=False)
    config_path = tmp_path / "config.yaml"
    config_path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(config_path)]) == 0
    records = [json.loads(line) for line in (Path(config.out_dir) / "log.jsonl").read_text().splitlines()]
    scored = [r for r in records if "valid_loss" in r]
    assert [r["step"] for r in scored] == [2, 4] and all(0 <= r["valid_chrf"] <= 100 for r in scored)
    assert "valid_bleu" not in scored[0]
    out = capsys.readouterr().out
    assert "best validation chrF " in out and ", chrF " in out


def test_a_finished_run_states_its_result_once(tmp_path, capsys):
    """The trainer's last line, then the command's own with the same score: the result was printed twice."""
    config = tiny_config(tmp_path, max_steps=2, eval_every=2, tensorboard=False)
    config_path = tmp_path / "config.yaml"
    config_path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(config_path)]) == 0
    results = [line for line in capsys.readouterr().out.splitlines() if "best validation" in line]
    assert len(results) == 1 and re.fullmatch(rf"stopped at step 2 \(max_steps\); best validation BLEU \d+\.\d\d at "
                                              rf"step 2; model in {re.escape(config.out_dir)}", results[0])


def test_an_unknown_eval_metric_is_named(tmp_path):
    with pytest.raises(ConfigError, match="eval_metric='ter': use 'bleu', 'chrf' or 'loss'"):
        tiny_config(tmp_path, eval_metric="ter")


def test_the_progress_bar_counts_towards_max_time_when_it_ends_the_run(tmp_path, capsys):
    """A second of max_time shows it as two did: the bar's total is re-estimated at every step from the pace so
    far, and max_steps (100,000) is what it would show otherwise."""
    config = tiny_config(tmp_path, max_steps=100_000, max_time="1s", eval_every=100_000, eval_metric="loss")
    result = Trainer(config, progress=True).train()
    assert result.stopped_by == "max_time"
    done, total = map(int, re.findall(r"(\d+)/(\d+) \[", capsys.readouterr().err)[-1])
    assert done == result.step and done <= total <= done + 1  # not 100000 steps with an ETA of hours


@pytest.mark.parametrize(("old", "metric"), [(True, "bleu"), (False, "loss")])
def test_configs_of_earlier_releases_with_eval_bleu_still_load(tmp_path, old, metric):
    assert tiny_config(tmp_path, eval_bleu=old).eval_metric == metric
    assert tiny_config(tmp_path, eval_bleu=old, eval_metric="chrf").eval_metric == "chrf"  # as before: it wins


def late_dropout_config(folder: Path, **changes):
    return tiny_config(folder, **{**dict(
        max_steps=6, eval_every=3, eval_metric="loss", max_tokens=120,
        model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.0),
        late_dropout_epoch=0.5, late_dropout=0.3, late_attention_dropout=0.2), **changes})


def dropout_in_layers(model) -> set[tuple[str, float]]:
    from attnmt.attention import MultiHeadAttention
    from attnmt.dropout import Dropout

    return ({("dropout", m.p) for m in model.modules() if isinstance(m, Dropout)}
            | {("attention", m.dropout) for m in model.modules() if isinstance(m, MultiHeadAttention)})


def test_late_dropout_starts_after_the_given_passes_over_the_data(tmp_path):
    trainer = Trainer(late_dropout_config(tmp_path), progress=False)
    per_epoch = trainer.batcher.batches_per_epoch()
    switch = math.ceil(0.5 * per_epoch)  # updates taken before half a pass is done
    assert 0 < switch < 5
    stream = iter(trainer.batcher)
    seen = []
    for _ in range(6):
        trainer.train_step([next(stream)])
        seen.append(dropout_in_layers(trainer.model))
    early, late = {("dropout", 0.0), ("attention", 0.0)}, {("dropout", 0.3), ("attention", 0.2)}
    assert seen == [early] * switch + [late] * (6 - switch)
    assert trainer.epochs() == pytest.approx(6 / per_epoch)
    trainer.model.eval()
    assert torch.equal(trainer.model.embed_dropout(torch.ones(3)), torch.ones(3))  # inference: no dropout


def test_late_dropout_leaves_what_it_does_not_name(tmp_path):
    trainer = Trainer(late_dropout_config(tmp_path, late_attention_dropout=None,
                                          model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1,
                                                     d_ff=64, dropout=0.1, attention_dropout=0.05)),
                      progress=False)
    stream = iter(trainer.batcher)
    for _ in range(6):
        trainer.train_step([next(stream)])
    assert dropout_in_layers(trainer.model) == {("dropout", 0.3), ("attention", 0.05)}


@pytest.mark.parametrize(("activation_dropout", "inside"), [(None, 0.3), (0.05, 0.05)])
def test_late_dropout_moves_the_feed_forwards_dropout_only_where_activation_dropout_is_unset(
        tmp_path, activation_dropout, inside):
    model = dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.0,
                 activation_dropout=activation_dropout)
    trainer = Trainer(late_dropout_config(tmp_path, model=model), progress=False)
    stream = iter(trainer.batcher)
    for _ in range(6):
        trainer.train_step([next(stream)])
    assert {m.dropout.p for m in trainer.model.modules() if isinstance(m, FeedForward)} == {inside}
    assert ("dropout", 0.3) in dropout_in_layers(trainer.model)


def test_a_run_with_late_dropout_resumes_exactly(tmp_path):
    straight = Trainer(late_dropout_config(tmp_path / "a"), progress=False)
    straight.train()
    Trainer(late_dropout_config(tmp_path / "b", max_steps=3), progress=False).train()
    resumed = Trainer(late_dropout_config(tmp_path / "b"), resume=True, progress=False)
    assert resumed.step == 3 and resumed.epochs() >= 0.5  # stopped after the switch
    resumed.train()
    for (name, a), (_, b) in zip(straight.model.state_dict().items(), resumed.model.state_dict().items(),
                                 strict=True):
        assert torch.equal(a, b), name
    assert "attention dropout 0.2 from here" in (tmp_path / "b" / "model" / "train.log").read_text()


@pytest.mark.parametrize(("changes", "message"), [
    (dict(late_dropout_epoch=2.0, late_dropout=None, late_attention_dropout=None),
     "late_dropout_epoch=2.0 changes nothing: set late_dropout or late_attention_dropout too"),
    (dict(late_dropout_epoch=2.0, late_dropout=1.0), "late_dropout=1.0: use a dropout probability from 0"),
    (dict(late_dropout_epoch=-1.0), "late_dropout_epoch=-1.0: use a number of passes over the data"),
])
def test_a_late_dropout_that_cannot_work_is_refused(tmp_path, changes, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        tiny_config(tmp_path, **changes)


def test_a_run_too_short_to_overfit_keeps_its_dropout(tmp_path):
    config = late_dropout_config(tmp_path, max_steps=6)
    trainer = Trainer(config, progress=False)
    budget = 6 / trainer.batcher.batches_per_epoch()
    assert trainer.budget_epochs() == pytest.approx(budget)
    trainer.config.late_dropout_min_epochs = budget * 1.01
    trainer.train()
    assert dropout_in_layers(trainer.model) == {("dropout", 0.0), ("attention", 0.0)}
    assert (f"no late dropout: the run's budget is {budget:.1f} passes over the data, under "
            f"late_dropout_min_epochs {budget * 1.01}") in (tmp_path / "model" / "train.log").read_text()


def test_a_timed_runs_budget_is_projected_from_its_pace(tmp_path):
    trainer = Trainer(late_dropout_config(tmp_path, max_time="1h", max_steps=1000), progress=False)
    trainer.step, trainer.elapsed = 10, 360.0  # a tenth of the hour for 10 steps: 100 steps in all
    assert trainer.budget_epochs() == pytest.approx(trainer.epochs(100))
    trainer.elapsed = 3.6  # 10 steps in a thousandth of it: max_steps ends the run first
    assert trainer.budget_epochs() == pytest.approx(trainer.epochs(1000))


def test_a_corpus_filtered_to_nothing_names_its_files_readably(tmp_path):
    """The error named them as a Python dict: "check {'src': 'tr.en', 'tgt': 'tr.de'}"."""
    config = tiny_config(tmp_path, max_len=1)  # every pair has a side over 1 token
    with pytest.raises(ConfigError) as refused:
        Trainer(config, progress=False)
    assert str(refused.value) == (f"corpus0: no training pairs left after filtering {config.train_src} and "
                                  f"{config.train_tgt}: of 20 pairs read, 20 over max_len 1 tokens")
