"""Training from prepared corpora: the same batches and loss as from text, several corpora drawn by weight,
a validation loss per corpus, exact resume, and one clear line for a prepared directory that does not fit."""

import json
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from support import PAIRS, tiny_config, write_pairs

from attnmt.cli.main import main
from attnmt.errors import ConfigError
from attnmt.text.data import collate, encode_pairs
from attnmt.text.tokenizer import Tokenizer
from attnmt.training import start
from attnmt.training.batching import WeightedBatcher
from attnmt.training.start import run_start
from attnmt.training.trainer import Trainer
from attnmt.training.training_data import load_training_data, prepare_config

SMALL = dict(max_tokens=60, eval_metric="loss", max_steps=4, eval_every=4, warmup_steps=4,
             model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.3))


def two_corpora(folder, **changes):
    """PAIRS split in two corpora, weights 3 and 1; the second with a validation set of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    (a_src, a_tgt), (b_src, b_tgt) = write_pairs(folder, "a", PAIRS[:12]), write_pairs(folder, "b", PAIRS[12:])
    train = [{"src": str(a_src), "tgt": str(a_tgt), "weight": 3, "name": "a"},
             {"src": str(b_src), "tgt": str(b_tgt), "weight": 1, "name": "b",
              "valid_src": str(b_src), "valid_tgt": str(b_tgt)}]
    return tiny_config(folder, **{**SMALL, "train": train, **changes})


def test_prepared_corpus_gives_the_batches_and_first_loss_of_the_in_memory_path(tmp_path):
    no_dropout = {**SMALL, "model": {**SMALL["model"], "dropout": 0.0}}  # the two runs share torch's random state
    from_text = Trainer(tiny_config(tmp_path / "text", **no_dropout), progress=False)
    config = tiny_config(tmp_path / "prepared", **no_dropout, prepared_dir=str(tmp_path / "prepared" / "data"))
    prepare_config(config, config.prepared_dir, log=lambda line: None)
    from_prepared = Trainer(config, progress=False)
    batches = [b.tolist() for b in from_prepared.batcher.epoch_batches(0)]
    assert batches == [b.tolist() for b in from_text.batcher.epoch_batches(0)]
    examples, _ = encode_pairs(PAIRS, from_text.tokenizer, config.max_len)  # the pairs as plain lists
    first = collate([examples[i] for i in batches[0]])
    assert first.src.equal(next(iter(from_prepared.batcher)).src)
    assert from_prepared.train_step([first]) == from_text.train_step([next(iter(from_text.batcher))])


def test_weighted_corpora_resume_exactly_and_log_a_validation_loss_per_corpus(tmp_path):
    straight = Trainer(two_corpora(tmp_path / "a"), progress=False)
    assert isinstance(straight.batcher, WeightedBatcher)
    straight.train()
    Trainer(two_corpora(tmp_path / "b", max_steps=2), progress=False).train()
    resumed = Trainer(two_corpora(tmp_path / "b"), resume=True, progress=False)
    assert resumed.batcher.draws == 2
    resumed.train()
    for (name, a), (_, b) in zip(straight.model.state_dict().items(), resumed.model.state_dict().items(),
                                 strict=True):
        assert torch.equal(a, b), name
    records = [json.loads(line) for line in (tmp_path / "a" / "model" / "log.jsonl").read_text().splitlines()]
    assert [sorted(k for k in r if k.startswith("valid_loss")) for r in records if "valid_loss" in r] == [
        ["valid_loss", "valid_loss_b"]]


def test_prepare_then_train_from_the_command_line(tmp_path, capsys):
    config = tiny_config(tmp_path, **SMALL)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["prepare", str(path), "--out", str(tmp_path / "data")]) == 0
    assert "corpus0: read 20 pairs, kept 20" in capsys.readouterr().out
    assert main(["train", str(path), "--prepared_dir", str(tmp_path / "data"), "--max_steps", "2"]) == 0


def test_prepare_suggests_a_train_command_that_repeats_its_overrides(tmp_path, capsys):
    config = tiny_config(tmp_path, **SMALL)
    path, data = tmp_path / "config.json", tmp_path / "prepared data"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["prepare", str(path), "--out", str(data), "--vocab-size", "1000", "--max_steps=2"]) == 0
    out = capsys.readouterr().out
    assert "warning: asked for vocab_size=1000" in out  # the 20 pairs have fewer pieces
    suggested = out.splitlines()[-1].split("train from it with: ")[1]
    assert suggested == f"attnmt train {path} --vocab-size 1000 --max-steps 2 --prepared-dir '{data}'"
    assert main(shlex.split(suggested)[1:]) == 0


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_corpora_without_a_sentence_to_train_the_tokenizer_on_are_named(tmp_path, capsys, text):
    (tmp_path / "empty.en").write_text(text)
    (tmp_path / "empty.de").write_text(text)
    config = tiny_config(tmp_path, train_src=str(tmp_path / "empty.en"), train_tgt=str(tmp_path / "empty.de"))
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(path)]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: {tmp_path}/empty.en, {tmp_path}/empty.de: no pair with "
                                       "text on both sides to train the tokenizer on; give training corpora that "
                                       "have some\n")


def test_corpora_of_lines_too_long_to_read_are_named_so_not_as_without_text(tmp_path, capsys):
    """A document a line: it was "no pair with text on both sides", in files of megabytes of text."""
    (tmp_path / "doc.en").write_text("A dog runs. " * 100_000 + "\n")
    (tmp_path / "doc.de").write_text("Ein Hund rennt. " * 100_000 + "\n")
    config = tiny_config(tmp_path, train_src=str(tmp_path / "doc.en"), train_tgt=str(tmp_path / "doc.de"))
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(path)]) == 2
    assert capsys.readouterr().err.endswith("no pair with text on both sides to train the tokenizer on (1 with a "
                                            "line over 1 MiB, which is no sentence: give one sentence a line); give "
                                            "training corpora that have some\n")


@pytest.mark.parametrize("key, value, message", [
    ("vocab_size", "500", "vocab_size: 500, but {data} was prepared with a 81-piece tokenizer, which a run from it "
                          "keeps; remove vocab_size, or run 'attnmt prepare' again with it"),
    ("shared_vocab", "false", "shared_vocab: false, but {data} was prepared with one joint vocabulary, which a run "
                              "from it keeps; remove shared_vocab, or run 'attnmt prepare' again with it"),
    ("tokenizer_options", "{model_type: bpe}", "tokenizer_options: {{model_type: bpe}}, but {data} was prepared with "
                                               "none (a unigram model), whose tokenizer a run from it keeps; give the "
                                               "tokenizer_options it was prepared with, or run 'attnmt prepare' "
                                               "again with these"),
])
def test_a_vocabulary_other_than_the_prepared_directorys_is_refused(tmp_path, capsys, key, value, message):
    config = tiny_config(tmp_path, **SMALL)
    path, data = tmp_path / "config.json", tmp_path / "data"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["prepare", str(path), "--out", str(data)]) == 0
    capsys.readouterr()
    assert main(["train", str(path), "--prepared_dir", str(data), f"--{key}", value]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {message.format(data=data)}\n"
    assert not (tmp_path / "model").exists()


def test_the_tokenizer_options_a_directory_was_prepared_with_fit_it_however_written(tmp_path):
    config = tiny_config(tmp_path, **SMALL, tokenizer_options={"model_type": "bpe"})
    prepare_config(config, tmp_path / "data", log=lambda line: None)
    spelt_out = {"model_type": "bpe", "character_coverage": 1.0}  # attnmt's default coverage, written
    start = run_start(replace(config, prepared_dir=str(tmp_path / "data"), tokenizer_options=spelt_out), say=print)
    assert start.tokenizer.vocab_size == 81
    with pytest.raises(ConfigError, match=r"^tokenizer_options: none \(a unigram model\), but .*data was prepared "
                                          r"with {model_type: bpe}, whose tokenizer"):
        run_start(replace(config, prepared_dir=str(tmp_path / "data"), tokenizer_options={}), say=print)


@pytest.mark.parametrize("spelt", [
    {"model_type": "BPE"},  # refused: the lower-cased type was compared as written
    {"character_coverage": "1e0"},  # refused: YAML reads 1e0 as text, which SentencePiece reads as 1.0
    {"user_defined_symbols": ">>de<<,>>fr<<"},  # refused: SentencePiece's own form, the list's as one text
])
def test_tokenizer_options_spelt_another_way_fit_the_directory_prepared_with_them(tmp_path, spelt):
    """The directory records its options as SentencePiece was given them; a run's are compared so too."""
    options = {"model_type": "bpe", "character_coverage": 1.0, "user_defined_symbols": [">>de<<", ">>fr<<"]}
    config = tiny_config(tmp_path, **SMALL, tokenizer_options={**options, **spelt})
    prepare_config(config, tmp_path / "data", log=lambda line: None)
    assert json.loads((tmp_path / "data" / "header.json").read_text())["tokenizer_options"] == options
    start = run_start(replace(config, prepared_dir=str(tmp_path / "data"), tokenizer_options=options), say=print)
    assert start.tokenizer.piece_to_id(">>fr<<") != start.tokenizer.unk_id  # the directory's, symbols kept whole
    header = json.loads((tmp_path / "data" / "header.json").read_text())
    header["tokenizer_options"] = {**options, **spelt}  # as the release before recorded them, as written
    (tmp_path / "data" / "header.json").write_text(json.dumps(header))
    run_start(replace(config, prepared_dir=str(tmp_path / "data"), tokenizer_options=options), say=print)


def test_a_directory_prepared_before_tokenizer_options_were_recorded_still_fits(tmp_path):
    config = tiny_config(tmp_path, **SMALL, tokenizer_options={"model_type": "bpe"})
    prepare_config(config, tmp_path / "data", log=lambda line: None)
    header = json.loads((tmp_path / "data" / "header.json").read_text())
    del header["tokenizer_options"]  # as an earlier attnmt wrote it
    (tmp_path / "data" / "header.json").write_text(json.dumps(header))
    said = []
    run_start(replace(config, prepared_dir=str(tmp_path / "data")), say=said.append)
    assert said == [f"{tmp_path / 'data'} does not record the tokenizer_options it was prepared with (an earlier "
                    "attnmt prepared it): this run keeps its tokenizer, whatever tokenizer_options says"]


def test_a_vocab_size_the_text_could_not_fill_still_fits_the_directory_prepared_with_it(tmp_path):
    config = tiny_config(tmp_path, **{**SMALL, "vocab_size": 1000})  # the 20 pairs have fewer pieces
    said = []
    prepare_config(config, tmp_path / "data", log=said.append)
    assert any(line.startswith("warning: asked for vocab_size=1000") for line in said)
    start = run_start(replace(config, prepared_dir=str(tmp_path / "data")), say=lambda line: None)
    assert start.tokenizer.vocab_size < 1000


@pytest.mark.parametrize("damage, message", [
    (lambda data: (data / "corpus0" / "src.starts").write_bytes(b"\0" * 8), "src.starts: 8 bytes, the header says"),
    (lambda data: (data / "header.json").write_text('{"version": 0}'), "format version 0"),
    (lambda data: (data / "header.json").write_text('{"version": 1}'), "header.json: lacks corpora, max_len"),
])
def test_a_damaged_prepared_directory_is_one_line_and_trains_nothing(tmp_path, capsys, damage, message):
    config = tiny_config(tmp_path, **SMALL)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["prepare", str(path), "--out", str(tmp_path / "data")]) == 0
    damage(tmp_path / "data")
    capsys.readouterr()
    assert main(["train", str(path), "--prepared_dir", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "model").exists()


@pytest.mark.parametrize("folder, why", [("nosuch", "there is no such folder"), ("empty", "no header.json")])
def test_a_prepared_dir_missing_or_not_prepared_is_refused_before_a_tokenizer_is_trained(tmp_path, capsys,
                                                                                         monkeypatch, folder, why):
    """It was refused only after SentencePiece was trained on the corpora (minutes on a big one)."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps(tiny_config(tmp_path, **SMALL).to_dict()))
    (tmp_path / "empty").mkdir()
    monkeypatch.setattr(start, "train_sentencepiece", lambda *args, **kwargs: pytest.fail("a tokenizer was trained"))
    assert main(["train", str(path), "--prepared_dir", str(tmp_path / folder)]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: {tmp_path / folder}: not a prepared corpus directory ({why}); "
                                       "run 'attnmt prepare CONFIG' again\n")
    assert not (tmp_path / "model").exists()


def test_a_corpus_changed_since_it_was_prepared_is_named(tmp_path, capsys):
    """The line was "DIR was prepared from [{'src': …, 'tgt': …}], which have changed since": a repr, no file named."""
    config = tiny_config(tmp_path, **SMALL)
    path, data = tmp_path / "config.json", tmp_path / "data"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["prepare", str(path), "--out", str(data)]) == 0
    write_pairs(tmp_path, "train", [(src, tgt + "!") for src, tgt in PAIRS])  # the target side edited
    capsys.readouterr()
    assert main(["train", str(path), "--prepared_dir", str(data)]) == 2
    assert capsys.readouterr().err == (f"attnmt: error: {config.train_tgt}: changed since {data} was prepared from "
                                       "it: run 'attnmt prepare CONFIG' again\n")


def test_a_run_from_a_prepared_directory_resumes_after_its_text_changed(tmp_path, capsys):
    """It was "train.tgt: changed since data was prepared from it: run 'attnmt prepare CONFIG' again", and a
    directory prepared again was then refused as not the data the run trained on: the run reads the arrays,
    which its resume checks by header.json's bytes."""
    valid_src, valid_tgt = write_pairs(tmp_path, "valid", PAIRS[:4])
    config = tiny_config(tmp_path, **SMALL, valid_src=str(valid_src), valid_tgt=str(valid_tgt))
    path, data = tmp_path / "config.json", tmp_path / "data"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["prepare", str(path), "--out", str(data)]) == 0
    assert main(["train", str(path), "--prepared_dir", str(data), "--max_steps", "2"]) == 0
    write_pairs(tmp_path, "train", [(src, tgt + "!") for src, tgt in PAIRS])  # the target side edited
    assert main(["train", "--resume", config.out_dir, "--max_steps", "4"]) == 0
    assert "stopped at step 4 (max_steps)" in capsys.readouterr().out
    assert main(["train", "--resume", config.out_dir, "--max_steps", "6", "--train_tgt", str(valid_tgt)]) == 2
    assert "the config asks for" in capsys.readouterr().err  # another file than the directory's is no edit


def test_a_preparation_left_by_a_killed_run_is_removed_by_the_next_run(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    killed = tmp_path / f"attnmt-prepared-{int(ended.stdout)}-k2j4x9a1"  # its process is gone
    running = tmp_path / f"attnmt-prepared-{os.getpid()}-q1w2e3r4"  # this process's: in use
    killed.mkdir()
    running.mkdir()
    config = tiny_config(tmp_path / "run")
    lines = []
    data = load_training_data(config, Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=81),
                              lines.append)
    assert not killed.exists() and running.exists()
    assert f"removed {killed}, left by a run that was killed" in lines
    assert Path(data.scratch.name).name.startswith(f"attnmt-prepared-{os.getpid()}-")
