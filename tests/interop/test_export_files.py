"""What a Marian export writes besides the numbers: a vocab.json for every id, files anyone may read.

The Marian model is made here with random weights; nothing is downloaded.
"""

import io
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
from support import PAIRS, write_random_marian

from attnmt.checkpoint import WEIGHTS, load_model_dir, save_model_config, save_weights
from attnmt.cli.main import main
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.interop import export, marian_import
from attnmt.interop.marian import marian_config
from attnmt.model import Transformer, TransformerConfig
from attnmt.text.tokenizer import Tokenizer
from attnmt.trained_lengths import LENGTHS, read_longest_source, write_longest_source

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")

GAP = 5  # the id the imported vocab.json gives no piece


def imported_marian(folder, gap: bool):
    """An imported Marian model; with ``gap``, its vocab.json has no piece with id GAP (the embeddings
    have its row)."""
    hf_dir = write_random_marian(folder / "hf")
    if gap:
        vocab = json.loads((hf_dir / "vocab.json").read_text())
        (hf_dir / "vocab.json").write_text(json.dumps({piece: i for piece, i in vocab.items() if i != GAP}))
    return marian_import.import_marian(hf_dir, folder / "imported")


@pytest.fixture(scope="module")
def imported_with_a_gap(tmp_path_factory):
    return imported_marian(tmp_path_factory.mktemp("gap"), gap=True)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    return imported_marian(tmp_path_factory.mktemp("imported"), gap=False)


def greedy(model_dir) -> list[str]:
    model, tokenizer = load_model_dir(model_dir)
    return translate(model, tokenizer, [s for s, _ in PAIRS], Decoding(beam_size=1, max_len_a=0.0, max_len_b=8))


def test_an_id_without_a_piece_is_exported_as_unused_and_comes_back_translating_alike(imported_with_a_gap, tmp_path):
    """id_to_piece gives <unk> for such an id: the export failed with "repeated pieces ['<unk>']"."""
    out = export.export_marian(imported_with_a_gap, tmp_path / "marian")
    vocab = json.loads((out / "vocab.json").read_text())
    assert vocab[f"<unused{GAP}>"] == GAP and vocab["<unk>"] == 1
    assert sorted(vocab.values()) == list(range(len(vocab)))
    again = marian_import.import_marian(out, tmp_path / "again")
    assert greedy(again) == greedy(imported_with_a_gap)
    weights, weights_again = (load_model_dir(model)[0].state_dict() for model in (imported_with_a_gap, again))
    assert all(torch.equal(weights[name], weights_again[name]) for name in weights)


def test_the_marian_export_files_follow_the_umask_like_any_tools(imported, tmp_path):
    """transformers' save_pretrained wrote model.safetensors 0600, the other files 0644."""
    previous = os.umask(0o027)
    try:
        out = export.export_marian(imported, tmp_path / "marian")
    finally:
        os.umask(previous)
    modes = {path.name: path.stat().st_mode & 0o777 for path in out.iterdir()}
    assert "model.safetensors" in modes and set(modes.values()) == {0o640}, modes


def test_marians_activation_dropout_is_imported_and_exported_apart_from_dropout(tmp_path):
    """OPUS-MT has activation_dropout 0.0 beside dropout 0.1: the import read dropout's 0.1 into the
    feed-forward (fine-tuning dropped out where Marian does not), and the export wrote it back as 0.1."""
    hf_dir = write_random_marian(tmp_path / "hf", dropout=0.1, activation_dropout=0.0)
    imported = marian_import.import_marian(hf_dir, tmp_path / "imported")
    model, _ = load_model_dir(imported)
    assert (model.config.dropout, model.config.activation_dropout) == (0.1, 0.0)
    out = export.export_marian(imported, tmp_path / "marian")
    settings = json.loads((out / "config.json").read_text())
    assert (settings["dropout"], settings["activation_dropout"]) == (0.1, 0.0)


@pytest.mark.parametrize(("activation_dropout", "written"), [(None, 0.2), (0.0, 0.0)])
def test_the_export_writes_the_feed_forwards_dropout_the_model_applies(activation_dropout, written):
    config = TransformerConfig(vocab_size=8, d_model=8, n_heads=2, dropout=0.2, activation_dropout=activation_dropout)
    assert marian_config(config, 7, 7, pad_id=6, eos_id=0)["activation_dropout"] == written


@pytest.mark.parametrize("form", ["marian", "ctranslate2"])
def test_export_prints_its_own_line_alone_and_leaves_transformers_progress_bars_as_they_were(imported, tmp_path,
                                                                                             capsys, form):
    """transformers' "Writing model shards" and "Loading weights" bars came out on stderr."""
    pytest.importorskip(form if form == "ctranslate2" else "transformers")
    from transformers.utils import logging as hf_logging

    shown = hf_logging.is_progress_bar_enabled()
    hf_logging.enable_progress_bar()
    try:
        assert main(["export", "--model", str(imported), "--format", form, "--out", str(tmp_path / "out")]) == 0
        assert hf_logging.is_progress_bar_enabled()
    finally:
        if not shown:
            hf_logging.disable_progress_bar()
    assert capsys.readouterr() == (f"wrote a {form} model to {tmp_path / 'out'}\n", "")


def test_the_import_suggests_a_translate_command_that_reads_a_folder_with_a_space_as_one(tmp_path, capsys):
    """It said "try: attnmt translate --model opus models/en-de": pasted, two arguments."""
    hf_dir = write_random_marian(tmp_path / "hf")
    out = tmp_path / "opus models" / "en-de"
    capsys.readouterr()  # what making the directory printed
    assert main(["import", "--from-marian", str(hf_dir), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said == f"wrote an attnmt model directory to {out}; try: attnmt translate --model '{out}'\n"


@pytest.mark.parametrize("lost", ["vocab.json", "target.spm"])
def test_an_imported_model_missing_a_vocabulary_file_names_that_file(imported, tmp_path, capsys, monkeypatch, lost):
    """Without vocab.json the model was read as one of attnmt's, and spm.model, which an imported
    model never has, was named as the file missing."""
    model_dir = tmp_path / "model"
    shutil.copytree(imported, model_dir)
    (model_dir / lost).unlink()
    monkeypatch.setattr("sys.stdin", io.StringIO("A dog.\n"))
    assert main(["translate", "--model", str(model_dir)]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: {model_dir / lost}: not found; a model imported from Marian "
                                       "needs source.spm, target.spm, vocab.json\n")


@pytest.mark.parametrize("command", ["export", "import"])
def test_an_out_that_is_a_file_or_empty_is_refused_in_one_line_saying_so(tmp_path, capsys, command):
    """A file was "afile already exists and is not an empty directory", and --out "" was ". already
    exists ...": the working folder, which the user never named."""
    source = ["--from-marian", str(write_random_marian(tmp_path / "hf"))] if command == "import" else [
        "--model", str(tmp_path / "model"), "--format", "marian"]
    (tmp_path / "afile").write_text("kept\n")
    capsys.readouterr()
    for out, says in ((tmp_path / "afile", f"{tmp_path / 'afile'} is a file, not a folder: choose a new --out"),
                      ("", "--out is empty: give the name of a new folder")):
        assert main([command, *source, "--out", str(out)]) == 2
        assert capsys.readouterr().err == f"attnmt: error: {says}\n"
    assert (tmp_path / "afile").read_text() == "kept\n"


def test_an_out_holding_only_what_a_killed_export_left_is_taken_and_a_running_ones_is_refused(tmp_path):
    """A SIGKILL leaves the hidden folder that an export or import fills in an empty --out
    (attnmt.files.fill_inside): the next run deletes it, but not a living process's."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    out = tmp_path / "out"
    (out / f".attnmt-{int(gone.stdout)}-k2j4x9a1").mkdir(parents=True)
    export.check_empty(out)
    assert list(out.iterdir()) == []
    (out / f".attnmt-{os.getpid()}-q1w2e3r4").mkdir()
    with pytest.raises(export.ConversionError, match="already exists and is not an empty directory"):
        export.check_empty(out)


def interrupted(*args, **kwargs):
    raise KeyboardInterrupt


class CutConverter:
    """CTranslate2's converter, interrupted after writing part of its output."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def convert(self, output_dir: str, **kwargs) -> None:
        (Path(output_dir) / "model.bin").write_bytes(b"half")
        raise KeyboardInterrupt


@pytest.mark.parametrize("command", ["export marian", "export ctranslate2", "import"])
def test_an_interrupted_export_or_import_leaves_no_out_and_runs_again_into_it(imported, tmp_path, capsys, monkeypatch,
                                                                              command):
    """Ctrl-C left a half-written --out (config.json and generation_config.json; an import's without
    spm.model or vocab.json), which the next run refused as "not an empty directory"."""
    if command == "import":
        monkeypatch.setattr(marian_import, "save_model_config", interrupted)  # after model.safetensors
        args = ["import", "--from-marian", str(write_random_marian(tmp_path / "hf"))]
    else:
        form = command.split()[1]
        pytest.importorskip(form if form == "ctranslate2" else "transformers")
        if form == "marian":
            monkeypatch.setattr(export, "write_marian_tokenizer", interrupted)  # after save_pretrained's files
        else:
            monkeypatch.setattr(export, "zero_start_converter", lambda ctranslate2: CutConverter)
        args = ["export", "--model", str(imported), "--format", form]
    out = tmp_path / "out"
    out.mkdir()  # an empty --out is taken, and stays as it was when interrupted
    before = sorted(tmp_path.iterdir())
    capsys.readouterr()  # write_random_marian's progress bars
    assert main([*args, "--out", str(out)]) == 130
    assert capsys.readouterr().err == "attnmt: interrupted\n"
    assert sorted(tmp_path.iterdir()) == before and not any(out.iterdir())
    monkeypatch.undo()
    assert main([*args, "--out", str(out)]) == 0
    assert (out / "config.json").is_file()


def recorded_model(folder: Path, longest: int) -> Path:
    """A tiny random attnmt model whose lengths.json records ``longest`` pieces, as training writes it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus is too small for the asked size
        tokenizer = Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=60)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2, encoder_layers=1,
                               decoder_layers=1, d_ff=32, max_positions=64)
    save_weights(Transformer(config), folder / WEIGHTS)
    save_model_config(config, folder)
    tokenizer.save(folder / "spm.model")
    write_longest_source(folder, longest)
    return folder


def test_the_longest_training_source_is_exported_and_imported_back(tmp_path, capsys):
    """The exports had no lengths.json, so a model exported and imported again lost its record and
    read a sentence far longer than it was trained on whole, where its trained self parted it."""
    pytest.importorskip("ctranslate2")
    model_dir = recorded_model(tmp_path / "model", longest=9)
    for form in ("marian", "ctranslate2"):
        assert main(["export", "--model", str(model_dir), "--format", form, "--out", str(tmp_path / form)]) == 0
        assert read_longest_source(tmp_path / form) == 9
    assert main(["import", "--from-marian", str(tmp_path / "marian"), "--out", str(tmp_path / "back")]) == 0
    assert read_longest_source(tmp_path / "back") == 9
    assert load_model_dir(tmp_path / "back")[0].longest_trained == 9


def test_a_model_without_the_record_is_exported_and_imported_without_one(imported, tmp_path):
    out = export.export_marian(imported, tmp_path / "marian")
    back = marian_import.import_marian(out, tmp_path / "back")
    assert not (out / LENGTHS).exists() and not (back / LENGTHS).exists()


def test_an_import_refuses_a_record_it_cannot_read_in_one_line_naming_it(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    (hf_dir / LENGTHS).write_text('{"longest_source": 0}\n')
    capsys.readouterr()  # write_random_marian's progress bars
    assert main(["import", "--from-marian", str(hf_dir), "--out", str(tmp_path / "back")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"attnmt: error: {hf_dir / LENGTHS}: longest_source must be a whole number") and \
        err.count("\n") == 1
    assert not (tmp_path / "back").exists()
