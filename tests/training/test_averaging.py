"""Checkpoint averaging (attnmt.training.averaging) on hand-made weights: the paths a caller gives it."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file
from support import PAIRS, run_cli, tiny_config, write_calibration, write_pairs

from attnmt import checkpoint as ckpt
from attnmt.cli.main import main
from attnmt.config import TransformerConfig
from attnmt.decoding import Decoding, calibration
from attnmt.decoding.calibration import CALIBRATION, load_calibration
from attnmt.errors import ConfigError, DataError
from attnmt.model import Transformer
from attnmt.training import averaging
from attnmt.training.averaging import average_checkpoints, checked_lasts, keep_better_average
from attnmt.training.trainer import Trainer


def checkpoint(folder, value: float):
    folder.mkdir()
    save_file({"w": torch.full((2,), value)}, str(folder / ckpt.WEIGHTS))
    return folder


def test_checkpoints_and_output_given_as_str_are_averaged(tmp_path):
    first, second = checkpoint(tmp_path / "a", 1.0), checkpoint(tmp_path / "b", 2.0)
    average_checkpoints([str(first), str(second)], str(tmp_path / "mean.safetensors"))
    assert load_file(tmp_path / "mean.safetensors")["w"].tolist() == [1.5, 1.5]


def test_one_str_for_the_checkpoints_is_refused_not_read_a_character_a_directory(tmp_path):
    with pytest.raises(ConfigError, match=r"^checkpoints: expected a list of checkpoint directories, got str; pass "):
        average_checkpoints(str(checkpoint(tmp_path / "a", 1.0)), tmp_path / "mean.safetensors")


@pytest.mark.parametrize("checkpoints, out, message", [
    (["a"], None, "out: expected the path of a file (a str or a pathlib.Path), got None"),
    (["a"], b"mean.safetensors", "out: expected the path of a file (a str or a pathlib.Path), got b'mean.safetensors'"),
    (["a"], "", "out: expected the path of a file (a str or a pathlib.Path), got ''"),
    (["a", None], "m.safetensors", "checkpoints[1]: expected the path of a checkpoint directory (a str or a "
                                   "pathlib.Path), got None"),
    (None, "m.safetensors", "checkpoints: expected a list of checkpoint directories, got NoneType; pass [path] for "
                            "one"),
    (3, "m.safetensors", "checkpoints: expected a list of checkpoint directories, got int; pass [path] for one")])
def test_a_checkpoint_or_output_that_is_no_path_is_named_before_any_weights_are_read(checkpoints, out, message):
    """``average_checkpoints(["a"], None)`` was a TypeError from pathlib, after every checkpoint was read."""
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        average_checkpoints(checkpoints, out)


def test_checkpoints_given_as_a_dict_are_refused_not_averaged_as_its_keys(tmp_path):
    """A dict of directory -> score, or of name -> directory, was averaged as its keys without a word."""
    folders = {"a": checkpoint(tmp_path / "a", 1.0), "b": checkpoint(tmp_path / "b", 2.0)}
    with pytest.raises(ConfigError, match=r"^checkpoints: expected a list of checkpoint directories, got dict; "
                                          r"pass list\(d\) where its keys are the directories, "
                                          r"list\(d.values\(\)\) where its values are$"):
        average_checkpoints(folders, tmp_path / "mean.safetensors")
    assert not (tmp_path / "mean.safetensors").exists()


def test_checkpoints_given_as_a_generator_are_averaged(tmp_path):
    folders = [checkpoint(tmp_path / "a", 1.0), checkpoint(tmp_path / "b", 2.0)]
    average_checkpoints((folder for folder in folders), tmp_path / "mean.safetensors")
    assert load_file(tmp_path / "mean.safetensors")["w"].tolist() == [1.5, 1.5]


def test_a_checkpoint_of_another_shape_than_the_runs_config_is_refused(tmp_path, capsys):
    """Checked among themselves only, one checkpoint of d_model 8 in a run of d_model 4 was averaged
    (--last 1) into a file the run's model could not load, exit 0."""
    shape = dict(vocab_size=8, n_heads=1, encoder_layers=1, decoder_layers=1, d_ff=4)
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    ckpt.save_model_config(TransformerConfig(d_model=4, **shape), model_dir)
    for step, d_model in ((1, 4), (2, 8)):  # step 2 copied in from another run
        ckpt.checkpoint_path(model_dir, step).mkdir(parents=True)
        ckpt.save_weights(Transformer(TransformerConfig(d_model=d_model, **shape)),
                          ckpt.checkpoint_path(model_dir, step) / ckpt.WEIGHTS)
        (ckpt.checkpoint_path(model_dir, step) / ckpt.TRAINER_STATE).write_bytes(b"state")
    code, _, err = run_cli(["average", "--model", model_dir, "--last", "1"], capsys)
    foreign, config = ckpt.checkpoint_path(model_dir, 2) / ckpt.WEIGHTS, model_dir / ckpt.MODEL_CONFIG
    assert (code, err) == (2, f"attnmt: error: {foreign}: encoder_layers.0.self_attn.q_proj.weight has the shape "
                              f"[8, 8], but the model {config} describes has [4, 4]; they come from different models\n")
    assert not (model_dir / "averaged.safetensors").exists()


@pytest.mark.parametrize("name, made, message", [
    ("nonexist", None, "{model}: no such model directory"),
    ("tr.en", "file", "{model}: a file, not a model directory; give the directory 'attnmt train' wrote"),
    ("empty", "folder", "{model}: no checkpoints to average (a run saves them into {model}/checkpoints)"),
])
def test_a_model_directory_without_checkpoints_is_named_with_what_it_is(tmp_path, capsys, name, made, message):
    """Each was "no checkpoints to average", naming nothing."""
    model = tmp_path / name
    if made == "file":
        model.write_text("a sentence\n")
    elif made == "folder":
        model.mkdir()
    code, _, err = run_cli(["average", "--model", model], capsys)
    assert (code, err) == (2, f"attnmt: error: {message.format(model=model)}\n")


@pytest.mark.parametrize("inside, what", [("checkpoints", "the checkpoints folder"),
                                          ("checkpoints/step_00000020", "a checkpoint")])
def test_averaging_a_folder_inside_a_run_names_the_run_to_give(tmp_path, capsys, inside, what):
    """The run's checkpoints folder was told "no checkpoints to average (a run saves them into
    run/checkpoints/checkpoints)", sending the user one folder further down."""
    run = tmp_path / "run"
    (run / inside).mkdir(parents=True)
    (run / "train.yaml").write_text("max_steps: 20\n")
    code, _, err = run_cli(["average", "--model", run / inside], capsys)
    assert (code, err) == (2, f"attnmt: error: {run / inside}: {what} of the run {run}, not a model directory: give "
                              f"--model {run} (the average is of its last checkpoints)\n")


@pytest.mark.parametrize("lasts", [(0,), (3, -2), 3, (1.5,), ("3",), (), "35", np.array(3), [[2, 3]]])
def test_lasts_other_than_counts_of_at_least_one_are_refused_before_any_work(tmp_path, lasts):
    """(0,) averaged every checkpoint into averaged_last0.safetensors, which could replace the
    weights; 3 alone was a TypeError from inside.  Refused before the model directory is read."""
    with pytest.raises(ConfigError, match=r"^lasts: expected a list of whole numbers of at least 1 \(average the "
                                          r"last N checkpoints for each N\), got "):
        keep_better_average(tmp_path / "nonexist", lasts)


@pytest.mark.parametrize("given, message", [
    ({"model_dir": None}, "model_dir: expected the path of a model directory (a str or a pathlib.Path), got None"),
    ({"say": "x"}, "say: expected a function say(line), got str 'x'"),
    ({"say": None}, "say: expected a function say(line), got NoneType None"),
    ({"decoding": {"beam_size": 2}}, "decoding: expected attnmt.Decoding, got dict; e.g. Decoding(beam_size=4)")])
def test_a_model_dir_decoding_or_say_of_the_wrong_kind_is_named_before_any_work(tmp_path, given, message):
    """None for the model directory was a bare TypeError from pathlib; a say or decoding of the wrong kind
    failed once the averages were written."""
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        keep_better_average(**{"model_dir": tmp_path / "nonexist", **given})


@pytest.mark.parametrize("lasts, counts", [
    ([3, 5], (3, 5)), (range(2, 4), (2, 3)), (np.array([2, 3]), (2, 3)), ((n for n in [2]), (2,)),
    ({4}, (4,)), ([np.int64(2), 3.0], (2, 3)),
])
def test_lasts_given_as_any_collection_of_counts_are_read_as_before(lasts, counts):
    """range(2, 4), a NumPy array, a set and a generator were averaged before lasts was checked,
    then refused as no list; each N is read as a count is read elsewhere (NumPy's ints, 3.0)."""
    assert checked_lasts(lasts) == counts


def run_validated_on_relative_files(folder, monkeypatch, pairs=PAIRS[:10]):
    """A run of 2 steps (a checkpoint each) in ``folder``, its train.yaml naming its validation ``pairs``
    relative to it (va.src, va.tgt), as a config in the current directory does."""
    monkeypatch.chdir(folder)
    write_pairs(folder, "va", pairs)
    Trainer(tiny_config(folder, eval_metric="loss", max_tokens=120, max_steps=2, eval_every=1, train_src="train.src",
                        train_tgt="train.tgt", valid_src="va.src", valid_tgt="va.tgt", out_dir="model",
                        model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64,
                                   max_positions=64)), progress=False).train()
    return folder / "model"


def test_keep_better_average_from_another_directory_scores_the_set_where_the_run_started(tmp_path, monkeypatch):
    """train.yaml's relative validation paths were read from the current directory: the best checkpoint
    and the averages were compared on another folder's 2-pair va.src/va.tgt (or none was found there)."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    other = tmp_path / "other"
    other.mkdir()
    write_pairs(other, "va", PAIRS[10:12])
    read, real = [], averaging.read_validation_text
    monkeypatch.setattr(averaging, "read_validation_text", lambda src, tgt: read.append((src, tgt)) or real(src, tgt))
    monkeypatch.chdir(other)
    scores = keep_better_average(model_dir, lasts=(2,), decoding=Decoding(beam_size=1))
    assert set(scores) == {"best", "average of last 2"}
    assert read == [(str(tmp_path / "va.src"), str(tmp_path / "va.tgt"))]


def test_keep_better_average_in_a_moved_run_folder_scores_its_validation_set(tmp_path, monkeypatch):
    """The folder the run started in is gone: the set read only there was "not the one it started with
    (... cannot be read)"; the same bytes found from here are the same set, as a resume finds them."""
    (tmp_path / "project").mkdir()
    run_validated_on_relative_files(tmp_path / "project", monkeypatch)
    (tmp_path / "project").rename(tmp_path / "moved")
    read, real = [], averaging.read_validation_text
    monkeypatch.setattr(averaging, "read_validation_text", lambda src, tgt: read.append((src, tgt)) or real(src, tgt))
    monkeypatch.chdir(tmp_path / "moved")
    scores = keep_better_average("model", lasts=(2,), decoding=Decoding(beam_size=1))
    assert set(scores) == {"best", "average of last 2"}
    assert read == [("va.src", "va.tgt")]


def test_keep_better_average_scores_and_calibrates_only_the_pairs_the_run_scored(tmp_path, monkeypatch):
    """The averages and the best checkpoint were compared on every validation line, a pair over max_len
    too, and the calibration fitted again on it, where the run's own validation leaves it out."""
    long = " ".join(["a dog runs"] * 12)  # 36 words: over max_len 32
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch, [*PAIRS[:3], (long, "ein hund rennt")])
    write_calibration(model_dir)  # fitted on the best checkpoint's weights, which the average replaces
    translated, fitted, real = [], [], averaging.translate
    monkeypatch.setattr(averaging, "translate", lambda model, tokenizer, sources, decoding: translated.append(
        list(sources)) or real(model, tokenizer, sources, decoding))
    monkeypatch.setattr(averaging, "bleu", lambda hypotheses, references: float(len(translated)))  # the average wins

    def too_few(model, tokenizer, folder, sources, references, *rest, **options):
        fitted.append(list(sources))
        raise DataError("too few sentences")

    monkeypatch.setattr(calibration, "calibrate", too_few)
    said = []
    keep_better_average(model_dir, lasts=(2,), decoding=Decoding(beam_size=1), say=said.append)
    short = [src for src, _ in PAIRS[:3]]
    assert translated == [short, short] and fitted == [short]
    assert said[0].endswith("va.tgt: 3 of 4 pairs scored (0 with an empty side, 1 longer than max_len 32)")


def test_keep_better_average_refuses_a_validation_file_changed_since_the_run_started(tmp_path, monkeypatch):
    """The edited references picked between the best checkpoint, chosen on the old ones, and the averages."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    weights = (model_dir / ckpt.WEIGHTS).read_bytes()
    lines = (tmp_path / "va.tgt").read_text().splitlines()
    (tmp_path / "va.tgt").write_text("".join(f"Hallo {line}\n" for line in lines))
    with pytest.raises(DataError, match=rf"^{tmp_path / 'va.tgt'}: the validation file this run chose its best "
                                        r"checkpoint on is not the one it started with \(size [\d,]+ bytes, not "
                                        r"[\d,]+\); put that file back to compare the averages with it there$"):
        keep_better_average(model_dir, lasts=(2,), decoding=Decoding(beam_size=1))
    assert (model_dir / ckpt.WEIGHTS).read_bytes() == weights
    assert not (model_dir / "averaged_last2.safetensors").exists()  # refused before any average is written


AVERAGE_OVER_MODEL = ["average", "--model", "model", "--last", "2", "--out", "model/model.safetensors"]


def contents(folder: Path) -> dict[str, bytes | None]:
    """Each entry of ``folder`` by name, a file's bytes (None for a folder): temporary ones too."""
    return {p.name: None if p.is_dir() else p.read_bytes() for p in folder.iterdir()}


def test_an_average_written_over_the_models_weights_fits_their_calibration_again(tmp_path, monkeypatch, capsys):
    """``attnmt average --out MODEL_DIR/model.safetensors`` left the quality.json of the weights it replaced,
    silently, and translate's jsonl and tsv and serve then refused the folder; it is fitted again on the
    run's validation set, as keep_better_average fits it, on the new weights before they are in place."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)  # fitted on the best checkpoint's weights, about to be replaced
    old, fitted = (model_dir / ckpt.WEIGHTS).read_bytes(), []

    def refit(folder, src, ref, say, pairs, weights, into, chrf_threshold):
        fitted.append((folder, src, ref, (folder / ckpt.WEIGHTS).read_bytes() == old, chrf_threshold))
        write_calibration(into, weights)

    monkeypatch.setattr(calibration, "calibrate_run", refit)
    code, out, _ = run_cli(AVERAGE_OVER_MODEL, capsys)
    assert code == 0 and out.splitlines() == [
        f"model/quality.json was fitted on the weights being replaced: fitting it again on {tmp_path / 'va.src'}",
        "averaged 2 checkpoints (step_00000001, step_00000002) into model/model.safetensors"]
    assert fitted == [(Path("model"), str(tmp_path / "va.src"), str(tmp_path / "va.tgt"), True, 50.0)]
    assert load_calibration(model_dir) is not None  # of the new weights, now in place
    assert not [name for name in contents(model_dir) if name.startswith(".") and name != ".lock"]


@pytest.mark.parametrize("average", [
    lambda model_dir: main(AVERAGE_OVER_MODEL),
    lambda model_dir: keep_better_average(model_dir, lasts=(2,), decoding=Decoding(beam_size=1))],
    ids=["attnmt average", "keep_better_average"])
def test_an_average_over_the_models_weights_refits_their_calibration_at_its_chrf_threshold(
        tmp_path, monkeypatch, average):
    """A model calibrated with ``attnmt calibrate --chrf-threshold 40`` was fitted again at 50 once an
    average replaced its weights, without a word."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)
    values = json.loads((model_dir / CALIBRATION).read_text(encoding="utf-8"))
    (model_dir / CALIBRATION).write_text(json.dumps({**values, "chrf_threshold": 40.0}), encoding="utf-8")
    rising = iter(range(10))
    monkeypatch.setattr(averaging, "bleu", lambda hypotheses, references: float(next(rising)))  # the average wins
    thresholds = []
    for module in (calibration, averaging):
        monkeypatch.setattr(module, "calibrate_run", lambda *given, chrf_threshold: thresholds.append(chrf_threshold))
    average(model_dir)
    assert thresholds == [40.0]


def test_an_average_over_the_models_weights_interrupted_while_refitting_leaves_the_model_as_it_was(
        tmp_path, monkeypatch, capsys):
    """The average removed quality.json and replaced the weights, then fitted the calibration again: killed
    in that fit (minutes on a real validation set), the model had new weights, no calibration and no line
    saying to run attnmt calibrate.  Until the fit is done the model is as it was (what a kill leaves),
    and Ctrl-C leaves it so, without a temporary file."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)
    before, during = contents(model_dir), []

    def interrupted(folder, *rest, **options):
        during.append({name: data for name, data in contents(model_dir).items() if name in before})
        raise KeyboardInterrupt

    monkeypatch.setattr(calibration, "calibrate_run", interrupted)
    code, _, _ = run_cli(AVERAGE_OVER_MODEL, capsys)
    assert code == 130 and during == [before] and contents(model_dir) == before


def test_an_average_over_the_models_weights_fits_their_calibration_on_the_pairs_the_run_scored(
        tmp_path, monkeypatch, capsys):
    """``attnmt average --out MODEL_DIR/model.safetensors`` fitted the calibration again on every validation
    line, a pair over max_len too, where training's calibration and keep_better_average leave it out: the
    same weights were calibrated otherwise by each."""
    long = " ".join(["a dog runs"] * 12)  # 36 words: over max_len 32
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch, [*PAIRS[:3], (long, "ein hund rennt")])
    write_calibration(model_dir)
    fitted = []
    monkeypatch.setattr(calibration, "calibrate_run", lambda folder, src, ref, say, pairs, *rest, **options:
                        fitted.append(pairs))
    code, out, _ = run_cli(AVERAGE_OVER_MODEL, capsys)
    assert code == 0 and fitted == [PAIRS[:3]]
    assert out.splitlines()[0].endswith("va.tgt: 3 of 4 pairs scored (0 with an empty side, 1 longer than max_len 32)")


def test_an_average_over_the_models_weights_without_its_validation_set_removes_their_calibration(
        tmp_path, monkeypatch, capsys):
    """Where the run's validation set is gone the old calibration cannot be fitted again: it goes, and one
    line says why and how to fit it again, so that the folder translates (uncalibrated)."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)
    (tmp_path / "va.src").unlink()
    code, out, _ = run_cli(AVERAGE_OVER_MODEL, capsys)
    assert code == 0 and not (model_dir / CALIBRATION).exists()
    assert out.splitlines()[0] == (
        "removed model/quality.json, fitted on the weights replaced; fit it again with attnmt calibrate --model model "
        f"(va.src: the validation file the model's train.yaml names is missing (no {tmp_path / 'va.src'}); give --src "
        "and --ref)")


def test_keep_better_average_interrupted_while_refitting_leaves_the_model_as_it_was(tmp_path, monkeypatch):
    """keep_better_average wrote the winning average over model.safetensors and removed quality.json before
    fitting it again: a kill in the fit left the model with no calibration and no word of it."""
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)
    rising = iter(range(10))
    monkeypatch.setattr(averaging, "bleu", lambda hypotheses, references: float(next(rising)))  # the average wins
    model = {name: (model_dir / name).read_bytes() for name in (ckpt.WEIGHTS, CALIBRATION)}
    during = []

    def interrupted(*given, **options):
        during.append({name: (model_dir / name).read_bytes() for name in model if (model_dir / name).exists()})
        raise KeyboardInterrupt

    monkeypatch.setattr(averaging, "calibrate_run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        keep_better_average(model_dir, lasts=(2,), decoding=Decoding(beam_size=1))
    assert during == [model] and {name: (model_dir / name).read_bytes() for name in model} == model
    assert not [name for name in contents(model_dir) if name.startswith(".") and name != ".lock"]


def test_keep_better_average_puts_the_average_in_place_with_the_calibration_fitted_on_it(tmp_path, monkeypatch):
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)
    rising = iter(range(10))
    monkeypatch.setattr(averaging, "bleu", lambda hypotheses, references: float(next(rising)))  # the average wins
    monkeypatch.setattr(averaging, "calibrate_run", lambda folder, src, ref, say, pairs, weights, into,
                        chrf_threshold: write_calibration(into, weights))
    keep_better_average(model_dir, lasts=(2,), decoding=Decoding(beam_size=1))
    assert (model_dir / ckpt.WEIGHTS).read_bytes() == (model_dir / "averaged_last2.safetensors").read_bytes()
    assert load_calibration(model_dir) is not None  # fitted on the average, refused on any other weights


def test_an_average_written_beside_the_models_weights_keeps_their_calibration(tmp_path, monkeypatch, capsys):
    model_dir = run_validated_on_relative_files(tmp_path, monkeypatch)
    write_calibration(model_dir)
    code, out, _ = run_cli(["average", "--model", "model", "--last", "2"], capsys)
    assert code == 0 and len(out.splitlines()) == 1
    assert load_calibration(model_dir) is not None
