"""The run directory: one run at a time holds it, one that cannot be written or that holds a model is refused
before any work, and a resume reads the corpora the run trained on, or is refused."""

import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import sentencepiece
import yaml
from support import PAIRS, run_cli, tiny_config, write_pairs

from attnmt import checkpoint as ckpt
from attnmt.cli.commands import train as train_command
from attnmt.errors import ConfigError, DataError, ModelDirError
from attnmt.files import file_digest
from attnmt.training import resume_checks, training_data
from attnmt.training import run_dir as run_dir_module
from attnmt.training import trainer as trainer_module
from attnmt.training.run_dir import CORPORA, LOCK, RunLock
from attnmt.training.trainer import Trainer, resume
from attnmt.training.training_data import prepare_config

SMALL = dict(eval_metric="loss", max_tokens=120, max_steps=1, eval_every=1,
             model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, max_positions=64))


def no_work(*args, **kwargs):
    raise AssertionError("the run started work before refusing its out_dir")


def test_a_second_run_on_the_same_directory_is_refused_naming_it_and_the_holder(tmp_path):
    config = tiny_config(tmp_path, **SMALL)
    first = Trainer(config, progress=False)  # holds the directory until its run ends
    with pytest.raises(ModelDirError, match=rf"^{config.out_dir} is in use by another training run \(process "
                                            rf"{os.getpid()}\): wait for it to end, or give another out_dir$"):
        Trainer(config, progress=False)
    assert first.train().step == 1
    assert not (Path(config.out_dir) / LOCK).exists()  # let go at the end
    assert resume(config.out_dir, {"max_steps": "2"}, progress=False).step == 2


def test_a_lock_left_by_a_killed_run_is_free(tmp_path):
    (tmp_path / LOCK).write_text("999999999\n")  # the kernel let go of the killed process's lock
    RunLock.claim(tmp_path).release()


def test_a_claim_let_go_unused_leaves_none_of_the_folders_it_made(tmp_path):
    """A refused prepare into a new nested path left its parent folders behind."""
    (tmp_path / "kept").mkdir()
    RunLock.claim(tmp_path / "kept" / "a" / "b" / "run").release()
    assert [path.name for path in tmp_path.rglob("*")] == ["kept"]
    lock = RunLock.claim(tmp_path / "kept" / "a" / "run")
    (tmp_path / "kept" / "a" / "other").write_text("")  # something else came into a made folder
    lock.release()
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["a", "kept", "other"]


def test_an_out_dir_that_is_a_file_is_one_line_before_any_work(tmp_path, monkeypatch, capsys):
    (tmp_path / "afile").write_text("")
    config = tiny_config(tmp_path, **SMALL, out_dir=str(tmp_path / "afile"))
    monkeypatch.setattr(trainer_module, "run_start", no_work)
    with pytest.raises(ModelDirError, match=r"^out_dir: .*afile is a file, not a directory; give a directory"):
        Trainer(config, progress=False)
    path = tmp_path / "config.yaml"
    path.write_text(f"out_dir: {tmp_path / 'afile' / 'sub'}\n")
    code, _, err = run_cli(["train", path], capsys)
    assert code == 2 and err == f"attnmt: error: out_dir: {tmp_path / 'afile' / 'sub'}: {tmp_path / 'afile'} is a " \
                                "file, not a directory\n"


def test_an_out_dir_that_cannot_be_written_is_one_line_before_any_work(tmp_path, monkeypatch):
    config = tiny_config(tmp_path, **SMALL)
    real_open = os.open

    def read_only(path, *args, **kwargs):
        if str(path).endswith(LOCK):
            raise OSError(30, "Read-only file system")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(trainer_module, "run_start", no_work)
    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(ModelDirError, match=r"^out_dir: cannot write into .*model: read-only file system$"):
        Trainer(config, progress=False)
    monkeypatch.undo()
    assert not Path(config.out_dir).exists()  # the directory it made for the run is gone again


@pytest.mark.parametrize("files", [
    ("model.safetensors", "config.json", "spm.model"),  # a shipped model
    ("model.safetensors", "config.json", "spm.model", "train.yaml", "corpora.json", "log.jsonl"),  # no checkpoints
    ("config.json", "log.jsonl", "averaged.safetensors"),  # a run's average, its model removed
    ("config.json", "quality.json"),  # a calibration
])
def test_a_new_run_refuses_an_out_dir_holding_a_models_files_before_any_work(tmp_path, monkeypatch, files):
    """A new run wrote its own weights, config, tokenizer and train.yaml over them, silently."""
    config = tiny_config(tmp_path, **SMALL)
    model_dir = Path(config.out_dir)
    model_dir.mkdir()
    for name in files:
        (model_dir / name).write_text(f"the {name} of a trained model")
    monkeypatch.setattr(trainer_module, "run_start", no_work)
    start = f" \\(init_from: {model_dir} starts from its weights\\)" if "model.safetensors" in files else ""
    with pytest.raises(ConfigError, match=rf"^{model_dir} already holds {', '.join(files)}, which a new run would "
                                          rf"replace: choose another out_dir{start}, or remove them$"):
        Trainer(config, progress=False)
    assert sorted(path.name for path in model_dir.iterdir()) == sorted(files)
    assert all((model_dir / name).read_text() == f"the {name} of a trained model" for name in files)


def test_a_run_that_stopped_before_it_saved_any_weights_is_run_again_into_its_folder(tmp_path):
    """Its config, train.yaml and log hold nothing a new run would lose: the same command, run again
    once the fault is mended, was refused, naming files the user never made."""
    config = tiny_config(tmp_path, **SMALL)
    model_dir = Path(config.out_dir)
    model_dir.mkdir()
    for name in ("config.json", "train.yaml", "corpora.json", "log.jsonl", "spm.model"):
        (model_dir / name).write_text(f"the {name} of a run that stopped at its start")
    Trainer(config, progress=False).train()
    assert (model_dir / "model.safetensors").exists()


def test_a_new_run_refuses_an_out_dir_with_checkpoints_before_any_work(tmp_path, monkeypatch):
    """It was refused only after the corpora were read and the tokenizer trained."""
    config = tiny_config(tmp_path, **SMALL)
    Trainer(config, progress=False).train()
    monkeypatch.setattr(trainer_module, "run_start", no_work)
    with pytest.raises(ConfigError, match=rf"^{config.out_dir} already holds checkpoints: continue it with 'attnmt "
                                          rf"train --resume {config.out_dir}' or choose another out_dir$"):
        Trainer(config, progress=False)


def test_attnmt_train_refuses_an_out_dir_holding_a_model_before_building_the_kernels(tmp_path, monkeypatch, capsys):
    config = tiny_config(tmp_path, **SMALL)
    Path(config.out_dir).mkdir()
    (Path(config.out_dir) / "config.json").write_text("{}")
    (Path(config.out_dir) / "model.safetensors").write_text("")
    path = tmp_path / "config.yaml"
    path.write_text(json.dumps(config.to_dict()))
    monkeypatch.setattr(train_command, "load_training_kernels", no_work)
    code, _, err = run_cli(["train", path], capsys)
    assert code == 2 and err == f"attnmt: error: {config.out_dir} already holds model.safetensors, config.json, " \
                                f"which a new run would replace: choose another out_dir (init_from: {config.out_dir} " \
                                "starts from its weights), or remove them\n"


@pytest.mark.parametrize("key", ["tokenizer", "target_tokenizer"])
def test_a_tokenizer_given_from_the_out_dir_is_refused_not_replaced_by_the_runs_copy(tmp_path, key):
    """A plain spm_train model given as out_dir/spm.model (or a side's model, under the other side's name)
    was replaced by the run's copy in attnmt's id layout, exit 0: the user's own file was gone."""
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter([s for pair in PAIRS for s in pair]),
                                             model_writer=writer, vocab_size=40, minloglevel=2)
    own = {"tokenizer": model_dir / "spm.model", "target_tokenizer": model_dir / "spm.source.model"}[key]
    own.write_bytes(writer.getvalue())
    (tmp_path / "elsewhere.model").write_bytes(writer.getvalue())
    files = {"tokenizer": str(own)} if key == "tokenizer" else {
        "shared_vocab": False, "tokenizer": str(tmp_path / "elsewhere.model"), "target_tokenizer": str(own)}
    config = tiny_config(tmp_path, **SMALL, **files)
    with pytest.raises(ConfigError, match=rf"^{key}: {own} is in out_dir {model_dir}, where the run writes its own "
                                          rf"{own.name}: choose another out_dir, or move the tokenizer out of it$"):
        Trainer(config, progress=False).train()
    assert own.read_bytes() == writer.getvalue()


@pytest.mark.parametrize("name", ["train.yaml", "config.json"])
def test_a_config_saved_in_its_out_dir_under_a_run_files_name_is_refused_not_replaced(tmp_path, monkeypatch, capsys,
                                                                                     name):
    """out_dir: . beside the config saved as train.yaml (or as JSON, config.json): the run wrote its own
    over it, exit 0, the user's comments and layout gone."""
    config = tiny_config(tmp_path, **SMALL)
    path = Path(config.out_dir) / name
    path.parent.mkdir()
    text = f"# my run\n{yaml.safe_dump(config.to_dict())}" if name.endswith(".yaml") else json.dumps(config.to_dict())
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(train_command, "load_training_kernels", no_work)
    code, _, err = run_cli(["train", path], capsys)
    assert code == 2 and err == (f"attnmt: error: the config {path} is in out_dir {config.out_dir}, where the run "
                                 f"writes its own {name}: choose another out_dir, or move the config out of it\n")
    assert path.read_text(encoding="utf-8") == text


def test_a_validation_file_in_the_out_dir_under_a_run_files_name_is_refused(tmp_path):
    config = tiny_config(tmp_path, **SMALL)
    Path(config.out_dir).mkdir()
    shutil.copy(config.valid_src, Path(config.out_dir) / "train.log")
    config.valid_src = str(Path(config.out_dir) / "train.log")
    with pytest.raises(ConfigError, match=r"^valid_src: .*train\.log is in out_dir .*, where the run writes its own "
                                          "train.log: choose another out_dir, or move the file out of it$"):
        Trainer(config, progress=False).train()


def test_a_separate_vocabulary_run_keeps_the_users_spm_model_in_its_out_dir(tmp_path):
    """A run of separate vocabularies writes spm.source.model and spm.target.model, never spm.model: the
    user's spm.model given from out_dir as the source model was refused as if the run wrote over it."""
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter([s for pair in PAIRS for s in pair]),
                                             model_writer=writer, vocab_size=40, minloglevel=2)
    (model_dir / "spm.model").write_bytes(writer.getvalue())
    (tmp_path / "target.model").write_bytes(writer.getvalue())
    config = tiny_config(tmp_path, **SMALL, shared_vocab=False, tokenizer=str(model_dir / "spm.model"),
                         target_tokenizer=str(tmp_path / "target.model"))
    Trainer(config, progress=False).train()
    assert (model_dir / "spm.model").read_bytes() == writer.getvalue()
    assert (model_dir / "spm.source.model").is_file() and (model_dir / "spm.target.model").is_file()


def test_a_tokenizer_an_out_dir_link_points_to_is_refused_not_replaced_through_the_link(tmp_path):
    """out_dir/spm.model a link to the user's model: the run writes through the link (atomic_file
    replaces its target), so the model it points to was replaced, exit 0."""
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter([s for pair in PAIRS for s in pair]),
                                             model_writer=writer, vocab_size=40, minloglevel=2)
    own = tmp_path / "plain.model"
    own.write_bytes(writer.getvalue())
    (model_dir / "spm.model").symlink_to(own)
    config = tiny_config(tmp_path, **SMALL, tokenizer=str(own))
    with pytest.raises(ConfigError, match=rf"^tokenizer: {own} is in out_dir {model_dir}, where the run writes its "
                                          r"own spm.model: "):
        Trainer(config, progress=False).train()
    assert own.read_bytes() == writer.getvalue()


def relative_run(folder: Path, monkeypatch) -> Path:
    """A finished run of one step whose corpora are named relative to ``folder``, where it started."""
    monkeypatch.chdir(folder)
    Trainer(tiny_config(folder, **SMALL, train_src="train.src", train_tgt="train.tgt", out_dir="model"),
            progress=False).train()
    return folder / "model"


def test_a_resume_from_another_directory_does_not_train_on_its_files(tmp_path, monkeypatch):
    model_dir = relative_run(tmp_path, monkeypatch)
    other = tmp_path / "other"
    other.mkdir()
    write_pairs(other, "train", [(tgt, src) for src, tgt in PAIRS])  # other text, the same file names
    monkeypatch.chdir(other)
    with pytest.raises(DataError, match=rf"^train.src: not the file this run trained on, {tmp_path / 'train.src'} "
                                        rf"\(here {other / 'train.src'}, .*\); resume from {tmp_path}, where the run "
                                        "started .*, or start a new run"):
        resume(model_dir, {"max_steps": "2"}, progress=False)
    assert ckpt.list_checkpoints(model_dir)[-1].name == "step_00000001"


def test_another_corpus_given_to_a_resume_where_the_run_started_is_not_told_to_resume_from_there(tmp_path,
                                                                                                  monkeypatch):
    """It said "resume from /data/run1, where the run started", the folder the resume ran in."""
    model_dir = relative_run(tmp_path, monkeypatch)
    write_pairs(tmp_path, "other", [(tgt, src) for src, tgt in PAIRS])
    with pytest.raises(DataError, match=rf"^other.src: not the file this run trained on, {tmp_path / 'train.src'} "
                                        r"\(here .*\); give that one \(a resume trains on the corpora it started "
                                        r"with\), or start a new run"):
        resume(model_dir, {"max_steps": "2", "train_src": "other.src", "train_tgt": "other.tgt"}, progress=False)


def test_a_corpus_changed_since_the_run_started_is_refused(tmp_path, monkeypatch):
    model_dir = relative_run(tmp_path, monkeypatch)
    write_pairs(tmp_path, "train", PAIRS[:5])  # the corpus shrank
    with pytest.raises(DataError, match=r"^train.src: not the file this run trained on \(size \d+ bytes, not [\d,]+\): "
                                        r"it changed since; put back the file the run trained on, or start a new run"):
        resume(model_dir, {"max_steps": "2"}, progress=False)


def test_a_corpus_gone_since_the_run_started_is_named_missing(tmp_path, monkeypatch):
    """It was "not the file this run trained on (… cannot be read): it changed since"."""
    model_dir = relative_run(tmp_path, monkeypatch)
    (tmp_path / "train.src").unlink()
    gone = re.escape(str(tmp_path / "train.src"))
    with pytest.raises(DataError, match=rf"^train.src: the file this run trained on is missing \(no {gone}\); put it "
                                        "back, or start a new run"):
        resume(model_dir, {"max_steps": "2"}, progress=False)


def test_a_prepared_directory_gone_since_the_run_started_is_named_with_where_to_give_it(tmp_path):
    """It was "prepared/header.json: not the file this run trained on (… cannot be read): it changed since"."""
    prepared = tmp_path / "prepared"
    config = tiny_config(tmp_path, **SMALL, prepared_dir=str(prepared))
    prepare_config(config, config.prepared_dir, log=lambda line: None)
    Trainer(config, progress=False).train()
    prepared.rename(tmp_path / "moved")
    with pytest.raises(DataError, match=rf"^{re.escape(str(prepared))}: the prepared directory this run trained on is "
                                        rf"missing \(no {re.escape(str(prepared))}\); put it back, or give where it "
                                        "is now with --prepared-dir, or start a new run"):
        resume(config.out_dir, {"max_steps": "2"}, progress=False)
    moved = {"max_steps": "2", "prepared_dir": str(tmp_path / "moved")}
    assert resume(config.out_dir, moved, progress=False).step == 2


def test_the_same_bytes_elsewhere_are_the_same_corpus(tmp_path, monkeypatch):
    model_dir = relative_run(tmp_path, monkeypatch)
    other = tmp_path / "other"
    other.mkdir()
    for name in ("train.src", "train.tgt"):
        shutil.copy(tmp_path / name, other / name)  # a copy: another path and time, the same bytes
    monkeypatch.chdir(other)
    assert resume(model_dir, {"max_steps": "2"}, progress=False).step == 2


def relative_validation_run(folder: Path, monkeypatch) -> Path:
    """relative_run with its validation set (10 pairs) named relative to ``folder`` too."""
    monkeypatch.chdir(folder)
    write_pairs(folder, "va", PAIRS[:10])
    Trainer(tiny_config(folder, **SMALL, train_src="train.src", train_tgt="train.tgt", valid_src="va.src",
                        valid_tgt="va.tgt", out_dir="model"), progress=False).train()
    return folder / "model"


def validation_sets_read_from_another_directory(folder: Path, monkeypatch) -> list[tuple[str, str]]:
    """Moves to ``folder``/other, which holds the run's corpus and a 2-pair va.src/va.tgt of its own;
    returned: the (source, references) of each validation set the run reads from then on."""
    other = folder / "other"
    other.mkdir()
    for name in ("train.src", "train.tgt"):
        shutil.copy(folder / name, other / name)  # the same corpus: the resume may train on it
    write_pairs(other, "va", PAIRS[:2])
    read: list[tuple[str, str]] = []
    real_read = trainer_module.read_validation_text
    monkeypatch.setattr(trainer_module, "read_validation_text",
                        lambda src, tgt, *args: read.append((src, tgt)) or real_read(src, tgt, *args))
    monkeypatch.chdir(other)
    return read


def test_a_resume_from_another_directory_validates_on_the_set_where_the_run_started(tmp_path, monkeypatch):
    """train.yaml's relative validation paths were read from the current directory: the resume scored
    another directory's 2-pair va.src/va.tgt against the best loss of the run's 10 pairs."""
    model_dir = relative_validation_run(tmp_path, monkeypatch)
    read = validation_sets_read_from_another_directory(tmp_path, monkeypatch)
    assert resume(model_dir, {"max_steps": "2"}, progress=False).step == 2
    assert read == [(str(tmp_path / "va.src"), str(tmp_path / "va.tgt"))]
    assert "valid_src: va.src\nvalid_tgt: va.tgt\n" in (model_dir / ckpt.TRAIN_CONFIG).read_text()  # as written


def test_a_validation_file_changed_since_the_run_started_is_refused(tmp_path, monkeypatch):
    """The resume validated on the edited references and compared their loss with the old set's best."""
    model_dir = relative_validation_run(tmp_path, monkeypatch)
    lines = (tmp_path / "va.tgt").read_text().splitlines()
    (tmp_path / "va.tgt").write_text("".join(f"Hallo {line}\n" for line in lines))
    with pytest.raises(DataError, match=rf"^{tmp_path / 'va.tgt'}: the validation file this run's best loss and "
                                        r"patience are counted on is not the one it started with \(size \d+ bytes, "
                                        r"not [\d,]+; init_from: .*\); put that file back, or give its copy with "
                                        "--valid-tgt$"):
        resume(model_dir, {"max_steps": "2"}, progress=False)
    assert ckpt.list_checkpoints(model_dir)[-1].name == "step_00000001"


def test_a_resume_from_another_directory_reads_each_corpus_validation_set_where_the_run_started(tmp_path,
                                                                                              monkeypatch):
    """A corpus's own validation set in a train: list was read from the current directory: the resume
    logged the loss of another directory's 2-pair va.src/va.tgt as the corpus's (or found none there)."""
    monkeypatch.chdir(tmp_path)
    write_pairs(tmp_path, "train", PAIRS)
    write_pairs(tmp_path, "va", PAIRS[:10])
    corpus = {"src": "train.src", "tgt": "train.tgt", "valid_src": "va.src", "valid_tgt": "va.tgt", "name": "news"}
    Trainer(tiny_config(tmp_path, **SMALL, train=[corpus], valid_src="va.src", valid_tgt="va.tgt", out_dir="model"),
            progress=False).train()
    read = validation_sets_read_from_another_directory(tmp_path, monkeypatch)
    assert resume(tmp_path / "model", {"max_steps": "2"}, progress=False).step == 2
    assert read == [(str(tmp_path / "va.src"), str(tmp_path / "va.tgt"))] * 2  # the run's set, then the corpus's
    assert (tmp_path / "model" / ckpt.TRAIN_CONFIG).read_text().count("valid_src: va.src\n") == 2  # as written


@pytest.mark.parametrize("link", [False, True], ids=["absolute", "symlink"])
def test_a_run_of_an_earlier_release_resumed_elsewhere_takes_its_own_validation_files(tmp_path, monkeypatch, link):
    """Its corpora.json records no validation set; --valid-src/--valid-tgt naming its own files from
    another directory were refused as another set: train.yaml's relative path was read from here."""
    monkeypatch.chdir(tmp_path)
    Trainer(tiny_config(tmp_path, **SMALL, train_src="train.src", train_tgt="train.tgt", valid_src="train.src",
                        valid_tgt="train.tgt", out_dir="model"), progress=False).train()
    recorded = json.loads((tmp_path / "model" / CORPORA).read_text())
    del recorded["validation"]  # as attnmt wrote it before it recorded one
    (tmp_path / "model" / CORPORA).write_text(json.dumps(recorded))
    other = tmp_path / "other"
    other.mkdir()
    files = {key: tmp_path / name for key, name in (("src", "train.src"), ("tgt", "train.tgt"))}
    for key, path in files.items() if link else ():
        (other / f"va.{key}").symlink_to(path)
        files[key] = other / f"va.{key}"
    monkeypatch.chdir(other)
    overrides = {"train_src": str(tmp_path / "train.src"), "train_tgt": str(tmp_path / "train.tgt"),
                 "valid_src": str(files["src"]), "valid_tgt": str(files["tgt"]), "max_steps": "2"}
    assert resume(tmp_path / "model", overrides, progress=False).step == 2


def recording_validation_reads(monkeypatch) -> list[tuple[str, str]]:
    """The (source, references) of each validation set the trainer reads from now on."""
    read, real_read = [], trainer_module.read_validation_text
    monkeypatch.setattr(trainer_module, "read_validation_text",
                        lambda src, tgt, *args: read.append((src, tgt)) or real_read(src, tgt, *args))
    return read


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "earlier release"])
def test_a_run_folder_moved_with_its_validation_set_resumes(tmp_path, monkeypatch, recorded):
    """The folder the run started in is gone: its validation files, read only there, were "not the one it
    started with (... cannot be read)", named as train.yaml spells them too; the same bytes found from here
    are the same set (as a moved corpus is), with corpora.json's record of them or without one."""
    (tmp_path / "project").mkdir()
    model_dir = relative_validation_run(tmp_path / "project", monkeypatch)
    if not recorded:
        record = json.loads((model_dir / CORPORA).read_text())
        del record["validation"]  # as attnmt wrote it before it recorded one
        (model_dir / CORPORA).write_text(json.dumps(record))
    (tmp_path / "project").rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path / "moved")
    read = recording_validation_reads(monkeypatch)
    assert resume("model", {"max_steps": "2"}, progress=False).step == 2
    assert resume("model", {"max_steps": "3", "valid_src": "va.src"}, progress=False).step == 3
    assert read == [("va.src", "va.tgt")] * 2


def test_a_run_folder_moved_with_each_corpus_validation_set_resumes(tmp_path, monkeypatch):
    """A train: list's own validation set, read only where the run started, stopped the resume of the
    moved folder at "cannot read"; it has no record of its bytes: the first place it exists is read."""
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    write_pairs(tmp_path / "project", "train", PAIRS)
    write_pairs(tmp_path / "project", "va", PAIRS[:10])
    corpus = {"src": "train.src", "tgt": "train.tgt", "valid_src": "va.src", "valid_tgt": "va.tgt", "name": "news"}
    Trainer(tiny_config(tmp_path / "project", **SMALL, train=[corpus], valid_src="va.src", valid_tgt="va.tgt",
                        out_dir="model"), progress=False).train()
    (tmp_path / "project").rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path / "moved")
    read = recording_validation_reads(monkeypatch)
    assert resume("model", {"max_steps": "2"}, progress=False).step == 2
    assert read == [("va.src", "va.tgt")] * 2  # the run's set, then the corpus's


def test_a_resume_reads_corpora_json_once_and_hashes_each_file_it_checks_once(tmp_path, monkeypatch):
    """A moved run's corpora and validation set are known by their bytes: resume()'s checks and the
    Trainer's (which guard a direct Trainer(resume=True)) hashed each corpus twice, and read corpora.json
    eight times."""
    (tmp_path / "project").mkdir()
    relative_validation_run(tmp_path / "project", monkeypatch)
    (tmp_path / "project").rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path / "moved")
    hashed, reads, read_corpora = [], [], run_dir_module.read_corpora
    monkeypatch.setattr(resume_checks, "file_digest", lambda path: hashed.append(path.name) or file_digest(path))
    for module in (resume_checks, run_dir_module):
        monkeypatch.setattr(module, "read_corpora", lambda folder: reads.append(folder) or read_corpora(folder))
    assert resume("model", {"max_steps": "2"}, progress=False).step == 2
    assert sorted(hashed) == ["train.src", "train.tgt", "va.src", "va.tgt"]
    assert len(reads) == 1


def test_a_validation_path_an_earlier_resume_wrote_relative_to_its_folder_is_read_from_there(tmp_path, monkeypatch):
    """An earlier release's resume from model/../sub wrote its --valid-src ../va.src into train.yaml; read
    where the run started, it named no file, and the resume from sub was refused."""
    model_dir = relative_validation_run(tmp_path, monkeypatch)
    config = (model_dir / ckpt.TRAIN_CONFIG).read_text()
    for name in ("train.src", "train.tgt", "va.src", "va.tgt"):
        config = config.replace(f": {name}\n", f": ../{name}\n")
    (model_dir / ckpt.TRAIN_CONFIG).write_text(config)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    read = recording_validation_reads(monkeypatch)
    assert resume(model_dir, {"max_steps": "2"}, progress=False).step == 2
    assert read == [("../va.src", "../va.tgt")]


def test_a_validation_file_gone_from_every_place_looked_at_is_named_missing(tmp_path, monkeypatch):
    """It was "not the one it started with", for a file that is nowhere."""
    (tmp_path / "project").mkdir()
    relative_validation_run(tmp_path / "project", monkeypatch)
    (tmp_path / "project").rename(tmp_path / "moved")
    (tmp_path / "moved" / "va.tgt").unlink()
    monkeypatch.chdir(tmp_path / "moved")
    with pytest.raises(DataError, match=rf"^va.tgt: the validation file this run's best loss and patience are "
                                        rf"counted on is missing \(no {tmp_path / 'project' / 'va.tgt'} nor "
                                        rf"{tmp_path / 'moved' / 'va.tgt'}; init_from: .*\); put that file back, or "
                                        "give its copy with --valid-tgt$"):
        resume("model", {"max_steps": "2"}, progress=False)
    assert ckpt.list_checkpoints(tmp_path / "moved" / "model")[-1].name == "step_00000001"


@pytest.mark.parametrize(("record", "why"), [
    ("", "cannot read the record of the corpora this run trained on (Expecting value"),
    ('{"cwd": "/x"}', "not the record of the corpora 'attnmt train' writes"),
    ('{"files": {}}', 'it does not say the directory the run started in ("cwd")'),
], ids=["empty", "no files", "no cwd"])
def test_a_resume_is_refused_naming_a_corpora_json_it_cannot_read(tmp_path, monkeypatch, record, why):
    """What the run trained on is unknown; it was a JSONDecodeError or KeyError traceback."""
    model_dir = relative_run(tmp_path, monkeypatch)
    (model_dir / CORPORA).write_text(record)
    with pytest.raises(ModelDirError, match=f"^{re.escape(str(model_dir / CORPORA))}: {re.escape(why)}"):
        resume(model_dir, {"max_steps": "2"}, progress=False)
    assert ckpt.list_checkpoints(model_dir)[-1].name == "step_00000001"


def test_a_run_directory_with_absolute_corpus_paths_moves(tmp_path):
    config = tiny_config(tmp_path / "a", **SMALL)
    Trainer(config, progress=False).train()
    moved = shutil.move(config.out_dir, tmp_path / "moved")
    assert resume(moved, {"max_steps": "2"}, progress=False).step == 2
    assert '"path": "' + str(tmp_path / "a" / "train.src") in (Path(moved) / CORPORA).read_text()


def prepare_command(folder: Path, out: Path) -> list[str]:
    config = tiny_config(folder, **SMALL)
    (folder / "config.json").write_text(json.dumps(config.to_dict()))
    return ["prepare", str(folder / "config.json"), "--out", str(out)]


def test_a_folder_being_prepared_is_refused_to_a_second_prepare_and_to_training(tmp_path, capsys):
    """The second prepare replaced the folder under the first (and a run's files with it), silently."""
    out = tmp_path / "data"
    preparing = RunLock.claim(out, holder="prepare", key="--out")  # a preparation that has begun
    held = rf"^{out} is in use by attnmt prepare \(process {os.getpid()}\): wait for it to end, or give another"
    code, _, err = run_cli(prepare_command(tmp_path, out), capsys)
    assert code == 2 and re.match(held + " --out\n$", err.removeprefix("attnmt: error: "))
    with pytest.raises(ModelDirError, match=held + " out_dir$"):
        Trainer(tiny_config(tmp_path, **SMALL, out_dir=str(out)), progress=False)
    preparing.release()
    assert not out.exists()  # the refused left nothing behind


def test_prepare_holds_its_folder_until_it_is_written_and_lets_go(tmp_path, capsys, monkeypatch):
    out, seen = tmp_path / "data", []
    real_tokenize = training_data.tokenize_corpora

    def tokenize_while_trying_to_train(*args, **kwargs):
        with pytest.raises(ModelDirError, match="is in use by attnmt prepare"):
            RunLock.claim(out)
        seen.append(args[2])
        return real_tokenize(*args, **kwargs)

    monkeypatch.setattr(training_data, "tokenize_corpora", tokenize_while_trying_to_train)
    assert run_cli(prepare_command(tmp_path, out), capsys)[0] == 0
    assert seen == [str(out)] and (out / "header.json").is_file() and not (out / LOCK).exists()
    RunLock.claim(out).release()  # free again
    assert run_cli(prepare_command(tmp_path, out), capsys)[0] == 0  # and prepared again


@pytest.mark.parametrize("given, why", [("run.tar", ", not a file"), ("nosuch", "; there is no such folder"),
                                        ("empty", "; it holds no train.yaml")])
def test_resuming_what_is_no_run_folder_is_refused_naming_resume(tmp_path, capsys, given, why):
    """'attnmt train --resume FILE' said "FILE/train.yaml: cannot read the config (Not a directory)"."""
    (tmp_path / "run.tar").write_bytes(b"an archive of a run")
    (tmp_path / "empty").mkdir()
    folder = tmp_path / given
    code, _, err = run_cli(["train", "--resume", folder], capsys)
    assert code == 2 and err == (f"attnmt: error: --resume {folder}: expected a training run's folder (the out_dir "
                                 f"'attnmt train' wrote){why}\n")


@pytest.mark.parametrize("inside, what", [("checkpoints", "the checkpoints folder"),
                                          ("checkpoints/step_00000020", "a checkpoint")])
def test_resuming_a_folder_inside_a_run_names_the_run_to_resume(tmp_path, capsys, inside, what):
    """It said only "it holds no train.yaml" of a run's checkpoints folder, or of one of its checkpoints."""
    run = tmp_path / "run"
    (run / inside).mkdir(parents=True)
    (run / "train.yaml").write_text("max_steps: 20\n")
    code, _, err = run_cli(["train", "--resume", run / inside], capsys)
    assert code == 2 and err == (f"attnmt: error: --resume {run / inside}: expected a training run's folder (the "
                                 f"out_dir 'attnmt train' wrote); it is {what} of the run {run}: give --resume {run}\n")


def test_a_run_folder_given_as_the_config_is_told_to_resume(tmp_path, capsys):
    """'attnmt train RUN', meaning to continue it, said "RUN: cannot read the config (Is a directory)"."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "train.yaml").write_text("max_steps: 20\n")
    code, _, err = run_cli(["train", run], capsys)
    assert code == 2 and err == (f"attnmt: error: {run}: a training run's folder, not a config: continue the run with "
                                 f"'attnmt train --resume {run}', or give {run / 'train.yaml'} and another --out-dir "
                                 "to start a new one from its config\n")


def test_resume_in_python_names_model_dir(tmp_path):
    with pytest.raises(ModelDirError, match=r"^model_dir .*/nosuch: expected a training run's folder"):
        resume(tmp_path / "nosuch")
