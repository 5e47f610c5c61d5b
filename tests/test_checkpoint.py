"""Model directories: one written by an earlier release keeps loading, with the same numbers; one with
absurd sizes in its config is refused before anything is allocated; averaging its checkpoints never
writes over one of its files."""

import errno
import io
import json
import os
import pickle
import re
import resource
import shutil
import threading
import warnings
from pathlib import Path

import pytest
import torch
from support import PAIRS, held_on_a_thread
from torch import nn

from attnmt import checkpoint, files, load_model_dir
from attnmt.cli.main import main
from attnmt.config import TransformerConfig
from attnmt.errors import ConfigError, ModelDirError
from attnmt.fast.prepared import load_int8, load_packed
from attnmt.model import Transformer
from attnmt.text.tokenizer import EOS_ID, Tokenizer
from attnmt.uninitialised import uninitialised

RELEASE_0_1_0 = Path(__file__).parent / "fixtures" / "model_0.1.0"


def test_a_model_directory_written_by_release_0_1_0_loads_and_computes_the_same_logits():
    # Written by attnmt 0.1.0 before the package was reorganised (a random tiny model);
    # expected.json holds the logits that release computed for one sentence pair.
    model, tokenizer = load_model_dir(RELEASE_0_1_0)
    expected = json.loads((RELEASE_0_1_0 / "expected.json").read_text())
    assert tokenizer.encode("a dog runs") == expected["src"][0]
    with torch.inference_mode():
        logits = model(torch.tensor(expected["src"]), torch.tensor(expected["tgt_in"]))
    torch.testing.assert_close(logits[0], torch.tensor(expected["logits"]), atol=1e-4, rtol=1e-4)


def test_a_config_json_without_source_eos_was_written_by_release_0_1_0_and_reads_as_false():
    assert checkpoint.load_model_config(RELEASE_0_1_0).source_eos is False
    assert TransformerConfig.from_saved({"vocab_size": 8}).source_eos is False


def test_a_new_model_reads_its_sources_with_eos_by_default_and_saves_that():
    assert TransformerConfig.from_dict({"vocab_size": 8}).source_eos is True
    saved = TransformerConfig.from_dict({"vocab_size": 8}).to_dict()
    assert TransformerConfig.from_saved(saved).source_eos is True


# What config.json held for TransformerConfig() before activation_dropout was added (a3d27b9).
DEFAULT_CONFIG_JSON = {
    "vocab_size": 8000, "d_model": 512, "n_heads": 8, "encoder_layers": 6, "decoder_layers": 6, "d_ff": 2048,
    "dropout": 0.1, "attention_dropout": 0.0, "max_positions": 1024, "norm_first": False, "positional": "sinusoidal",
    "positional_layout": "interleaved", "activation": "relu", "tie_embeddings": True, "scale_embeddings": True,
    "src_vocab_size": None, "tie_output": False, "output_bias": False, "pad_id": 0, "unk_id": 1, "bos_id": 2,
    "eos_id": 3, "source_eos": True,
}


def test_a_config_json_without_activation_dropout_set_is_the_one_written_before_it_existed(tmp_path):
    """Every config.json had "activation_dropout": null, which an earlier attnmt refuses as an unknown key."""
    checkpoint.save_model_config(TransformerConfig(), tmp_path)
    assert json.loads((tmp_path / "config.json").read_text()) == DEFAULT_CONFIG_JSON
    assert checkpoint.load_model_config(tmp_path) == TransformerConfig()


def test_a_config_json_without_language_token_alone_reads_a_leading_tag_as_its_model_was_trained(tmp_path):
    """A model trained with a >>de<< piece before language_token_alone read ">>de<< a dog" after a "▁", as
    SentencePiece does: its config.json, without the key, keeps it so; one saved with it true reads the tag alone."""
    tokenizer = Tokenizer.train([f">>de<< {s}" for pair in PAIRS for s in pair], vocab_size=60,
                                user_defined_symbols=[">>de<<"])
    tokenizer.save(tmp_path / "spm.model")
    tag, space, rest = tokenizer.piece_to_id(">>de<<"), tokenizer.piece_to_id("▁"), tokenizer.encode_target("a dog")
    for config, ids in ((TransformerConfig(vocab_size=tokenizer.vocab_size), [space, tag, *rest, EOS_ID]),
                        (TransformerConfig(vocab_size=tokenizer.vocab_size, language_token_alone=True),
                         [tag, *rest, EOS_ID])):
        checkpoint.save_model_config(config, tmp_path)
        saved = json.loads((tmp_path / "config.json").read_text())
        assert saved.get("language_token_alone", "left out") == (config.language_token_alone or "left out")
        assert checkpoint.load_model_config(tmp_path) == config
        assert checkpoint.load_tokenizer(tmp_path, config).encode(">>de<< a dog") == ids


def test_a_set_activation_dropout_is_saved_and_read_back(tmp_path):
    checkpoint.save_model_config(TransformerConfig(activation_dropout=0.0), tmp_path)
    assert json.loads((tmp_path / "config.json").read_text()) == {**DEFAULT_CONFIG_JSON, "activation_dropout": 0.0}
    assert checkpoint.load_model_config(tmp_path).activation_dropout == 0.0


def copy_with_config(tmp_path: Path, **changes) -> Path:
    """The 0.1.0 model directory, copied, with ``changes`` in its config.json."""
    folder = tmp_path / "model"
    shutil.copytree(RELEASE_0_1_0, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, **changes}))
    return folder


def peak_memory_growth(action) -> int:
    """Bytes by which the process's peak resident memory grew while ``action`` ran."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    action()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # Linux counts KiB


@pytest.mark.parametrize("changes, message", [
    (dict(max_positions=4_000_000), "config.json: max_positions=4000000: must be a whole number from 1 to 65,536"),
    (dict(d_model=1_000_000_000), "config.json: d_model=1000000000: must be a whole number from 1 to 32,768"),
    # within the limits, but far more than the weights file holds (1 + 1 layers of d_model 16, d_ff 32)
    (dict(d_model=4096, d_ff=16384, encoder_layers=8, decoder_layers=8),
     "model.safetensors: holds 6,144 numbers but {folder}/config.json describes a model of 3,759,292,416 "
     "parameters; they come from different models"),
])
def test_absurd_sizes_in_a_config_are_one_line_before_anything_is_allocated(tmp_path, capsys, changes, message):
    folder = copy_with_config(tmp_path, **changes)
    codes = []
    grew = peak_memory_growth(lambda: codes.append(main(["translate", "--model", str(folder), os.devnull])))
    err = capsys.readouterr().err
    assert codes == [2] and err.count("\n") == 1 and message.format(folder=folder) in err
    assert grew < 200 * 2**20


@pytest.mark.parametrize("changes, message", [
    (dict(activation="tanh"), "activation='tanh': use 'relu', 'gelu' or 'swish'"),
    (dict(positional_layout="xx"), "positional_layout='xx': use 'interleaved' or 'half'"),
    (dict(norm_first="no"), "norm_first must be true or false, got 'no'"),
])
def test_a_config_json_naming_a_part_attnmt_lacks_is_refused_naming_the_file_and_key(tmp_path, changes, message):
    """An unknown activation or layout was a traceback from deep in attnmt.layers, naming neither."""
    folder = copy_with_config(tmp_path, **changes)
    with pytest.raises(ModelDirError, match=f"^{re.escape(str(folder / 'config.json'))}: {re.escape(message)}$"):
        load_model_dir(folder)


@pytest.mark.parametrize("model_dir", [None, ""])
def test_a_model_dir_that_is_no_path_or_an_empty_one_is_named(monkeypatch, model_dir):
    """None was a TypeError from pathlib; "" loaded the model in the current directory."""
    monkeypatch.chdir(RELEASE_0_1_0)  # a model directory, which "" read
    with pytest.raises(ConfigError, match=rf"^model_dir: expected the path of a model directory, got {model_dir!r}$"):
        load_model_dir(model_dir)


def test_weights_given_as_a_folder_are_named_as_one_with_the_weights_file_in_it(tmp_path, capsys):
    folder = tmp_path / "checkpoints" / "step_00001000"  # what --weights was given, a checkpoint's folder
    folder.mkdir(parents=True)
    above = re.escape(str(tmp_path / "checkpoints"))
    with pytest.raises(ModelDirError, match=rf"^{above}: is a folder, not a weights file; give a weights file "
                                            r"\(.safetensors\), e.g. a checkpoint's model.safetensors$"):
        load_model_dir(RELEASE_0_1_0, tmp_path / "checkpoints")
    shutil.copy(RELEASE_0_1_0 / checkpoint.WEIGHTS, folder / checkpoint.WEIGHTS)
    argv = ["attention", "--model", str(RELEASE_0_1_0), "--weights", str(folder), "a dog runs", "--out", str(tmp_path)]
    assert main(argv) == 2  # was "cannot load weights (No such device (os error 19))"
    assert capsys.readouterr().err == (f"attnmt: error: {folder}: is a folder, not a weights file; give the weights "
                                       f"file in it, {folder / checkpoint.WEIGHTS}\n")
    assert load_model_dir(RELEASE_0_1_0, folder / checkpoint.WEIGHTS)[0].config.vocab_size > 0


def larger_weights(tmp_path: Path) -> Path:
    """Weights of a model like 0.1.0's but of d_model 32 and d_ff 64: more numbers than it needs."""
    values = {**checkpoint.load_model_config(RELEASE_0_1_0).to_dict(), "d_model": 32, "d_ff": 64}
    path = tmp_path / "larger.safetensors"
    checkpoint.save_weights(Transformer(TransformerConfig(**values)), path)
    return path


@pytest.mark.parametrize("load", [load_model_dir, load_packed, load_int8])  # ATTNMT_FUSED=0 loads the first
def test_weights_of_a_larger_model_are_one_line_naming_the_first_tensor_that_differs(tmp_path, load, cache):
    """They hold numbers enough for check_weights_size: loading them was torch's "size mismatch", once a tensor."""
    weights = larger_weights(tmp_path)
    message = (f"{weights}: encoder_layers.0.self_attn.q_proj.weight has the shape [32, 32], but the model "
               f"{RELEASE_0_1_0 / 'config.json'} describes has [16, 16]; they come from different models")
    with pytest.raises(ModelDirError, match=f"^{re.escape(message)}$"):
        load(RELEASE_0_1_0, weights)


def test_translate_with_weights_of_a_larger_model_says_so_in_one_line_with_status_2(tmp_path, capsys):
    weights = larger_weights(tmp_path)
    assert main(["translate", "--model", str(RELEASE_0_1_0), "--weights", str(weights), os.devnull]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"attnmt: error: {weights}: encoder_layers.0.self_attn.q_proj")


def test_a_model_larger_than_the_machines_memory_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoint, "physical_memory", lambda: 2**30)  # a machine with 1 GiB
    folder = copy_with_config(tmp_path, d_model=8192, d_ff=32768, encoder_layers=6, decoder_layers=6)
    with pytest.raises(ModelDirError, match=r"config.json: describes a model of 11,276,156,928 parameters "
                                            r"\(42\.0 GiB\), more than this machine's memory \(1\.0 GiB\)"):
        load_model_dir(folder)


class FillingDisk(io.BytesIO):
    """A file on a disk with ``room`` bytes left: the write that would pass it fails with ENOSPC."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, data) -> int:
        if self.tell() + len(data) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(data)


def test_a_disk_that_fills_during_a_checkpoint_save_is_no_space_left_not_torchs_own_error(tmp_path, monkeypatch):
    model, _ = load_model_dir(RELEASE_0_1_0)
    # With 1,000 bytes left, torch.save's zip writer turns the ENOSPC of a 400 KB tensor's write into
    # "RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598".
    checkpoint.save_checkpoint(tmp_path, 2, model, {"step": 2})
    monkeypatch.setattr(files, "open", lambda path, mode: FillingDisk(room=1000), raising=False)  # save_state's
    with pytest.raises(ModelDirError, match="step_00000003: no space left on device; the previous version is intact"):
        checkpoint.save_checkpoint(tmp_path, 3, model, {"step": 3, "optimizer": torch.zeros(100_000)})
    assert [p.name for p in (tmp_path / "checkpoints").iterdir()] == ["step_00000002"]  # nothing half-written left


def test_a_disk_full_at_the_first_checkpoint_does_not_say_a_previous_version_is_intact(tmp_path, monkeypatch):
    model, _ = load_model_dir(RELEASE_0_1_0)
    monkeypatch.setattr(files, "open", lambda path, mode: FillingDisk(room=1000), raising=False)  # save_state's
    with pytest.raises(ModelDirError, match="^could not write .*step_00000003: no space left on device$"):
        checkpoint.save_checkpoint(tmp_path, 3, model, {"step": 3, "optimizer": torch.zeros(100_000)})
    assert not list((tmp_path / "checkpoints").iterdir())


@pytest.fixture
def torch_init_restored(monkeypatch) -> dict:
    """torch.nn.init's functions as they are now, put back after the test whatever it did to them."""
    originals = {name: getattr(nn.init, name) for name in dir(nn.init) if name.endswith("_")}
    for name, function in originals.items():
        monkeypatch.setattr(nn.init, name, function)  # restored at teardown: a failure here must not spread
    return originals


def test_two_loads_that_overlap_leave_torch_init_as_it_was(torch_init_restored):
    # The first load in, the second in, the first out, the second out: a load that swapped
    # torch.nn.init's functions for no-ops and back left the no-ops in place for good.
    first_in, first_out, second_in, second_out = (threading.Event() for _ in range(4))
    first = held_on_a_thread(uninitialised, first_in, first_out)
    second = held_on_a_thread(uninitialised, second_in, second_out)
    first_out.set(), first.join()
    second_out.set(), second.join()
    assert {name: getattr(nn.init, name) for name in torch_init_restored} == torch_init_restored
    assert torch.equal(nn.init.zeros_(torch.ones(2)), torch.zeros(2))


def test_a_module_built_on_another_thread_during_a_load_is_initialised(torch_init_restored):
    torch.manual_seed(0)
    expected = nn.Linear(8, 8).weight
    entered, leave = threading.Event(), threading.Event()
    loading = held_on_a_thread(uninitialised, entered, leave)
    try:
        torch.manual_seed(0)
        built = nn.Linear(8, 8).weight
    finally:
        leave.set(), loading.join()
    assert torch.equal(built, expected)


def test_a_model_built_uninitialised_draws_no_random_numbers():
    state = torch.get_rng_state()
    with uninitialised():
        Transformer(TransformerConfig(vocab_size=50, d_model=16, n_heads=2, d_ff=32))
    assert torch.equal(torch.get_rng_state(), state)


@pytest.mark.parametrize("default", [torch.float64, torch.bfloat16])
def test_a_model_is_loaded_in_its_files_float32_whatever_torchs_default_dtype(trained_model, host_default_dtype,
                                                                             default):
    """A host program whose default dtype was float64 got a float64 model (twice the memory), which
    attnmt.fast.prepare then refused; the host's default is left as it was."""
    host_default_dtype(default)
    model, _ = load_model_dir(trained_model)
    assert {tensor.dtype for tensor in model.state_dict().values()} == {torch.float32}
    assert torch.get_default_dtype() == default


def test_models_loaded_on_two_threads_at_once_equal_one_loaded_alone(torch_init_restored):
    alone, _ = load_model_dir(RELEASE_0_1_0)
    loaded, building, stop = [], [], threading.Event()

    def load() -> None:
        loaded.extend(load_model_dir(RELEASE_0_1_0)[0] for _ in range(5))

    def build() -> None:  # a user's own module, built while the loads run
        while not stop.is_set():
            weight = nn.Linear(64, 64).weight
            building.append(bool(weight.abs().max() <= 0.125 and weight.std() > 1e-3))

    threads = [threading.Thread(target=load), threading.Thread(target=load), threading.Thread(target=build)]
    for thread in threads:
        thread.start()
    for thread in threads[:2]:
        thread.join()
    stop.set(), threads[2].join()
    assert len(loaded) == 10 and all(building)
    for model in loaded:
        assert model.state_dict().keys() == alone.state_dict().keys()
        assert all(torch.equal(model.state_dict()[name], tensor) for name, tensor in alone.state_dict().items())
    assert {name: getattr(nn.init, name) for name in torch_init_restored} == torch_init_restored


def test_averaging_checkpoints_of_two_models_names_the_odd_one_in_one_line(tmp_path):
    """Checked among themselves (``attnmt average`` checks a run's against its config.json first)."""
    from safetensors.torch import save_file

    from attnmt.training.averaging import average_checkpoints

    folders = [checkpoint.checkpoint_path(tmp_path, step) for step in (1, 2, 3)]
    for folder, vocab in zip(folders, (250, 250, 300), strict=True):  # step 3 of a run with another vocabulary
        folder.mkdir(parents=True)
        save_file({"embed.weight": torch.zeros(vocab, 4), "norm.weight": torch.ones(4)}, folder / checkpoint.WEIGHTS)
    with pytest.raises(ModelDirError, match=re.escape(
            f"{folders[2]}: its weights do not match {folders[0]}'s (embed.weight: [300, 4] against [250, 4]); it is "
            "of another model (another vocabulary or shape): average checkpoints of one run")):
        average_checkpoints(folders, tmp_path / "averaged.safetensors")
    assert not (tmp_path / "averaged.safetensors").exists()


def a_run_of_two_checkpoints(folder: Path) -> Path:
    """A run's directory as averaging sees it: two checkpoints' weights and state, the run's other files
    and corpora.json naming the corpus it trained on, folder/train.src (whose bytes no test reads)."""
    model_dir = folder / "model"
    config = TransformerConfig(vocab_size=8, d_model=4, n_heads=1, encoder_layers=1, decoder_layers=1, d_ff=4)
    model = Transformer(config)
    for step in (1, 2):
        checkpoint.checkpoint_path(model_dir, step).mkdir(parents=True)
        model.encoder_layers[0].norm1.bias.data.fill_(step)
        checkpoint.save_weights(model, checkpoint.checkpoint_path(model_dir, step) / checkpoint.WEIGHTS)
        (checkpoint.checkpoint_path(model_dir, step) / checkpoint.TRAINER_STATE).write_bytes(b"state")
    checkpoint.save_model_config(config, model_dir)  # averaging checks the checkpoints against it
    for name in ("spm.model", "quality.json", "train.yaml", "log.jsonl"):
        (model_dir / name).write_text(name)
    (folder / "train.src").write_text("train.src")
    files = {"corpus0.src": {"given": "train.src", "path": str(folder / "train.src")}}
    (model_dir / "corpora.json").write_text(json.dumps({"cwd": str(folder), "files": files}))
    return model_dir


@pytest.mark.parametrize(("out", "named"), [
    ("model/spm.model", "the model's spm.model"), ("model/config.json", "the model's config.json"),
    ("model/quality.json", "the model's quality.json"), ("model/train.yaml", "the model's train.yaml"),
    ("model/checkpoints/step_00000002/model.safetensors", "the checkpoint step_00000002's model.safetensors"),
    ("model/checkpoints/step_00000001/trainer_state.pt", "the checkpoint step_00000001's trainer_state.pt"),
    ("model/../train.src", "the run's training data (corpus0.src)"),
])
def test_average_refuses_an_out_that_is_a_file_of_the_run(tmp_path, capsys, out, named):
    """These were written over with the average, exit 0: a model that no longer loads, a run that no
    longer resumes, a corpus lost."""
    model_dir = a_run_of_two_checkpoints(tmp_path)
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert main(["average", "--model", str(model_dir), "--last", "2", "--out", str(tmp_path / out)]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: the --out {tmp_path / out} is {named} file: give it a file "
                                       "of its own (averaged.safetensors)\n")
    assert {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("command", [
    ["translate", "in.en"], ["score", "--src", "in.en", "--hyp", "in.en", "--output"],
    ["shortlist", "--source", "in.en", "--target", "in.en", "--out"]], ids=["translate", "score", "shortlist"])
@pytest.mark.parametrize(("out", "named"), [
    ("model/train.yaml", "the model's train.yaml"), ("model/log.jsonl", "the model's log.jsonl"),
    ("model/checkpoints/step_00000002/model.safetensors", "the checkpoint step_00000002's model.safetensors"),
    ("model/checkpoints/step_00000001/trainer_state.pt", "the checkpoint step_00000001's trainer_state.pt"),
    ("model/averaged_last3.safetensors", "the model's averaged_last3.safetensors"),
    ("model/checkpoints/step_00000003/model.safetensors", "the checkpoint step_00000003's model.safetensors"),
])
def test_an_output_beside_a_training_run_is_refused_over_the_runs_own_files(tmp_path, capsys, monkeypatch, command,
                                                                            out, named):
    """translate, score and shortlist wrote over these, exit 0: a run that no longer resumes or averages,
    or weights --weights loads lost (the demo's average, a checkpoint's weights kept without its state)."""
    model_dir = a_run_of_two_checkpoints(tmp_path)
    (model_dir / "checkpoints/step_00000003").mkdir()
    for weights in ("averaged_last3.safetensors", "checkpoints/step_00000003/model.safetensors"):
        shutil.copy(model_dir / "checkpoints/step_00000002/model.safetensors", model_dir / weights)
    (tmp_path / "in.en").write_text("a dog\n")
    monkeypatch.chdir(tmp_path)
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert main([command[0], "--model", str(model_dir), *command[1:], out]) == 2
    option = {"translate": "output", "score": "--output", "shortlist": "--out"}[command[0]]
    assert f"attnmt: error: the {option} {out} is {named} file: give it a file of its own" in capsys.readouterr().err
    assert {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("command", [
    ["translate", "in.en"], ["score", "--src", "in.en", "--hyp", "in.en", "--output"],
    ["shortlist", "--source", "in.en", "--target", "in.en", "--out"]], ids=["translate", "score", "shortlist"])
@pytest.mark.parametrize("record", ["", "{oops", '{"cwd": "/x"}', '{"files": {}}', "[]"],
                         ids=["empty", "malformed", "no files", "no cwd", "a list"])
def test_a_corpora_json_that_cannot_be_read_protects_nothing_and_stops_no_model(tmp_path, capsys, monkeypatch,
                                                                                 command, record):
    """translate, score and shortlist stopped with a JSONDecodeError or KeyError traceback on such a
    model, which loads without it; its own files are still kept from an output."""
    model_dir = a_run_of_two_checkpoints(tmp_path)
    (model_dir / "corpora.json").write_text(record)
    (tmp_path / "in.en").write_text("a dog\n")
    monkeypatch.chdir(tmp_path)
    assert main([command[0], "--model", str(model_dir), *command[1:], "model/train.yaml"]) == 2
    assert "is the model's train.yaml file: give it a file of its own" in capsys.readouterr().err


@pytest.mark.parametrize(("record", "why"), [
    ("{oops", "cannot read the record of the corpora this run trained on (Expecting property name"),
    ('{"cwd": "/x"}', "not the record of the corpora 'attnmt train' writes"),
], ids=["malformed", "no files"])
def test_average_is_refused_where_it_cannot_read_what_the_run_trained_on(tmp_path, capsys, record, why):
    """Its --out must not be a corpus the run trained on, which corpora.json names (was a traceback)."""
    model_dir = a_run_of_two_checkpoints(tmp_path)
    (model_dir / "corpora.json").write_text(record)
    assert main(["average", "--model", str(model_dir), "--last", "2"]) == 2
    assert capsys.readouterr().err.startswith(f"attnmt: error: {model_dir / 'corpora.json'}: {why}")
    assert not (model_dir / "averaged.safetensors").exists()


@pytest.mark.parametrize("command", ["average", "translate"])
@pytest.mark.parametrize(("out", "named"), [
    ("va.en", "the run's validation data (valid_src)"), ("va.de", "the run's validation data (valid_tgt)"),
    ("news_dev.en", "the run's validation data (train[0].valid_src)"),
    ("tok/spm.model", "the run's tokenizer (tokenizer)"), ("tok/de.model", "the run's tokenizer (target_tokenizer)"),
])
def test_an_output_is_refused_over_the_validation_sets_and_tokenizers_the_run_names(tmp_path, capsys, monkeypatch,
                                                                                     command, out, named):
    """average --out wrote weights over them, exit 0; the run's resume then failed."""
    model_dir = a_run_of_two_checkpoints(tmp_path)
    (model_dir / "train.yaml").write_text(
        "valid_src: va.en\nvalid_tgt: va.de\ntokenizer: tok/spm.model\ntarget_tokenizer: tok/de.model\n"
        "train: [{src: train.src, tgt: train.src, valid_src: news_dev.en, valid_tgt: news_dev.de}]\n")
    (tmp_path / "tok").mkdir()
    for name in ("in.en", "va.en", "va.de", "news_dev.en", "tok/spm.model", "tok/de.model"):
        (tmp_path / name).write_text(name)
    monkeypatch.chdir(tmp_path.parent)  # train.yaml's paths are relative to where the run started
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    written, given = tmp_path / out, {"average": ["--last", "2", "--out"], "translate": [str(tmp_path / "in.en")]}
    assert main([command, "--model", str(model_dir), *given[command], str(written)]) == 2
    option = {"average": "--out", "translate": "output"}[command]
    assert f"attnmt: error: the {option} {written} is {named} file: give it a file of its own" in \
        capsys.readouterr().err
    assert {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()} == before


def test_an_output_is_refused_over_the_validation_set_of_a_moved_run_found_from_here(tmp_path, capsys, monkeypatch):
    """The folder the run started in is gone, the run's moved with its files: train.yaml's va.en was kept
    only where the run started, and average --out va.en wrote weights over the set a resume reads here."""
    model_dir = a_run_of_two_checkpoints(tmp_path / "started")
    (model_dir / "train.yaml").write_text("valid_src: va.en\nvalid_tgt: va.de\n")
    (tmp_path / "started" / "va.en").write_text("va.en")
    (tmp_path / "started").rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path / "moved")
    assert main(["average", "--model", "model", "--last", "2", "--out", "va.en"]) == 2
    assert capsys.readouterr().err == ("attnmt: error: the --out va.en is the run's validation data (valid_src, as "
                                       "found from here) file: give it a file of its own (averaged.safetensors)\n")
    assert (tmp_path / "moved" / "va.en").read_text() == "va.en"


def test_average_may_replace_the_models_weights_with_the_average(tmp_path):
    model_dir = a_run_of_two_checkpoints(tmp_path)
    out = model_dir / "model.safetensors"  # no checkpoint's: attnmt demo keeps an average there
    assert main(["average", "--model", str(model_dir), "--last", "2", "--out", str(out)]) == 0
    assert checkpoint.read_tensors(model_dir / "model.safetensors")["encoder_layers.0.norm1.bias"].tolist() == [1.5] * 4


def hugging_face_marian_folder(folder: Path, **says) -> Path:
    """The files of a Hugging Face Marian model as the Hub holds them (the weights a stand-in)."""
    folder.mkdir()
    settings = {"d_model": 512, "encoder_layers": 6, "decoder_start_token_id": 58100, "vocab_size": 58101, **says}
    (folder / "config.json").write_text(json.dumps(settings))
    for name in ("pytorch_model.bin", "vocab.json", "source.spm", "target.spm"):
        (folder / name).write_bytes(b"{}")
    return folder


@pytest.mark.parametrize("says", [{"model_type": "marian"}, {"architectures": ["MarianMTModel"]}])
def test_a_hugging_face_marian_folder_is_named_as_one_with_the_import_to_run(tmp_path, capsys, monkeypatch, says):
    """It listed config.json's Marian keys as unknown attnmt keys, and said nothing of the import."""
    folder = hugging_face_marian_folder(tmp_path / "opus-mt-en-de", **says)
    message = (f"{folder} is a Hugging Face Marian model, not an attnmt model: run "
               f"`attnmt import --from-marian {folder} --out NEWDIR` first")
    with pytest.raises(ModelDirError, match=f"^{re.escape(message)}$"):
        load_model_dir(folder)
    monkeypatch.setattr("sys.stdin", io.StringIO("Hello.\n"))
    assert main(["translate", "--model", str(folder)]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {message}\n"


@pytest.mark.parametrize("says, kind", [
    ({"model_type": "bert", "architectures": ["BertModel"]}, "bert"), ({"model_type": "mbart"}, "mbart"),
    ({"architectures": ["T5Model"]}, "T5Model"),
])
def test_another_hugging_face_model_folder_is_named_with_its_type_and_what_can_be_imported(tmp_path, capsys,
                                                                                        monkeypatch, says, kind):
    """It listed config.json's keys (architectures, hidden_size, model_type) as unknown attnmt keys."""
    folder = tmp_path / "bert-base"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"hidden_size": 8, **says}))
    message = (f"{folder} is a Hugging Face {kind} model, not an attnmt model: only Marian models can be imported "
               "(attnmt import --from-marian)")
    with pytest.raises(ModelDirError, match=f"^{re.escape(message)}$"):
        load_model_dir(folder)
    monkeypatch.setattr("sys.stdin", io.StringIO("Hello.\n"))
    assert main(["translate", "--model", str(folder)]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {message}\n"


def test_opening_a_model_directory_imports_no_compiler(trained_model):
    """The weights' shapes are checked against a model built with no random draws, not one on the
    meta device: there torch's arange and normal_ go through torch._refs, and importing
    torch._dynamo with them added 1.6 s to every start (a one-line job went from 1.35 to 2.2 s)."""
    import subprocess
    import sys

    code = ("import sys; from attnmt import load_model_dir; load_model_dir(sys.argv[1]); "
            "print(sorted(m for m in sys.modules if m.startswith(('torch._dynamo', 'sympy'))))")
    done = subprocess.run([sys.executable, "-c", code, str(trained_model)], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


class RunsCode:
    def __reduce__(self):
        return (os.system, ("touch ran",))


@pytest.mark.parametrize("damaged", [b"", "half", "its end", b"not a torch file at all"],
                         ids=["empty", "cut in half", "its last 22 bytes gone", "another file"])
def test_a_damaged_trainer_state_is_one_line_saying_so(tmp_path, damaged):
    """It was "cannot read trainer state (EOFError: )" for an empty file, PyTorch's advice on its zip archive's
    "internal miniz error" for one cut short, and lines of advice to load another file with weights_only=False."""
    step = tmp_path / "step_00000002"
    step.mkdir()
    torch.save({"step": 2, "optimizer": {"state": {0: torch.zeros(500)}}}, step / checkpoint.TRAINER_STATE)
    whole = (step / checkpoint.TRAINER_STATE).read_bytes()
    cut = {"half": whole[:len(whole) // 2], "its end": whole[:-22]}
    (step / checkpoint.TRAINER_STATE).write_bytes(cut.get(damaged, damaged))
    with pytest.raises(ModelDirError) as refused:
        checkpoint.load_trainer_state(step)
    said = str(refused.value)
    assert said.startswith(f"{step / checkpoint.TRAINER_STATE}: cannot read trainer state: the file is damaged, "
                           "cut short or none torch.save wrote (")
    assert "\n" not in said and len(said) < len(str(step)) + 250 and "miniz" not in said


@pytest.mark.parametrize("protocol, name", [(2, "posix.system"), ("torch", "posix.system"),
                                            ("class", "test_checkpoint.RunsCode")])
def test_a_trainer_state_holding_code_is_one_line_that_never_advises_running_it(tmp_path, monkeypatch, protocol,
                                                                                 name):
    """PyTorch's error was five lines or more, advising to load the file again with weights_only=False, which
    runs its code, and a UserWarning of the pickle's protocol came before it."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / checkpoint.TRAINER_STATE
    if protocol == "torch":
        torch.save({"step": RunsCode()}, path)
    elif protocol == "class":
        torch.save({"step": RunsCode}, path)
    else:
        path.write_bytes(pickle.dumps({"step": RunsCode()}, protocol=protocol))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ModelDirError) as refused:
            checkpoint.load_trainer_state(tmp_path)
    assert str(refused.value) == (
        f"{tmp_path / checkpoint.TRAINER_STATE}: cannot read trainer state: it names {name}, an object besides "
        "tensors and plain values, which attnmt never unpickles (it could run code)")
    assert not (tmp_path / "ran").exists()
