"""A model's language pair from the names of the files it was trained on (attnmt.model_languages),
which the server and ``attnmt translate`` both read."""

import subprocess
import sys

import pytest
import yaml

from attnmt.checkpoint import load_model_dir
from attnmt.fast.prepared import load_int8, load_packed
from attnmt.fast.transformer import prepare
from attnmt.model_languages import code_in_name, languages_from_training


@pytest.mark.parametrize("name, code", [("train.en.gz", "en"), ("data/val.de", "de"), ("corpus.de.xz", "de"),
                                        ("train.src", None), ("train.gz", None), ("en", None)])
def test_the_language_code_in_a_file_name(name, code):
    assert code_in_name(name) == code


@pytest.mark.parametrize("config, pair", [
    ({"train_src": "data/multi30k/train.en.gz", "train_tgt": "data/multi30k/train.de.gz"}, ("en", "de")),
    ({"train": [{"src": "a.fr", "tgt": "a.en"}, {"tsv": "b.tsv"}]}, ("fr", "en")),
    ({"train_src": "train.src", "train_tgt": "train.tgt"}, (None, None)),
    ({"train_src": "x.en", "train_tgt": "y.en"}, (None, None)),
    ({"train": [{"src": "a.en", "tgt": "a.de"}, {"src": "b.en", "tgt": "b.de"}]}, ("en", "de")),
    ({"train_tsv": "fr-en.tsv", "train_src": "data/multi30k/train.en.gz", "train_tgt": "data/multi30k/train.de.gz",
      "valid_src": "dev.src", "valid_tgt": "dev.tgt", "source_lang": None, "target_lang": None}, (None, None)),
    ({"train_tsv": "fr-en.tsv", "train_src": "data/multi30k/train.en.gz", "train_tgt": "data/multi30k/train.de.gz",
      "valid_src": "dev.fr", "valid_tgt": "dev.en"}, ("fr", "en")),
    ({"train_tsv": "memory.tmx", "train_src": "data/multi30k/train.en.gz", "train_tgt": "data/multi30k/train.de.gz",
      "source_lang": "fr", "target_lang": "en"}, ("fr", "en")),
])
def test_a_models_languages_come_from_its_training_files(tmp_path, config, pair):
    (tmp_path / "train.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    assert languages_from_training(tmp_path) == pair


def test_a_model_without_a_training_config_has_no_languages(tmp_path):
    assert languages_from_training(tmp_path) == (None, None)


@pytest.mark.parametrize("written", [b"train_src: x.en\ntrain_tgt: y.\xe9\n", b"- train.en\n- train.de\n", b"42\n",
                                     b"train: [x.en, y.de]\n", b"train: [[a.en, a.de]]\n"])
def test_a_training_config_that_names_no_files_gives_no_languages(tmp_path, written):
    """Not UTF-8, a list, a scalar, or train entries that are not mappings: the model is named by its folder."""
    (tmp_path / "train.yaml").write_bytes(written)
    assert languages_from_training(tmp_path) == (None, None)


@pytest.mark.parametrize("train", [
    [{"src": "a.en", "tgt": "a.de"}, {"src": "b.en", "tgt": "b.fr"}],  # one source, two targets (>>fr<< tokens)
    [{"src": "a.en", "tgt": "a.de"}, {"tsv": "b.tsv"}, {"src": "b.fr", "tgt": "b.de"}],  # two sources
])
def test_a_multilingual_model_has_no_one_pair(tmp_path, train):
    """The first train: entry alone was read: an en->de, en->fr model was "de", and the command line
    refused its XLIFF files for fr as asked for de, which no one had asked for."""
    (tmp_path / "train.yaml").write_text(yaml.safe_dump({"train": train}), encoding="utf-8")
    assert languages_from_training(tmp_path) == (None, None)


def trained_into_french(model_dir) -> None:
    """``model_dir``'s train.yaml made to name train.en and train.fr: an en-fr model's record."""
    record = model_dir / "train.yaml"
    config = yaml.safe_load(record.read_text(encoding="utf-8"))
    record.write_text(yaml.safe_dump({**config, "train_src": "train.en", "train_tgt": "train.fr"}), encoding="utf-8")


def test_a_loaded_model_knows_the_language_its_training_record_names(trained_copy):
    """Glossary terms follow German's rules for a German target alone (Transformer.target_lang): a model and its
    inference copy know the target language its train.yaml names, and none where it names none."""
    assert load_model_dir(trained_copy)[0].target_lang is None  # the tiny model's files name no language
    trained_into_french(trained_copy)
    model = load_model_dir(trained_copy)[0]
    assert model.target_lang == "fr" and prepare(model).target_lang == "fr"


def test_the_cpu_copies_know_the_target_language_built_and_mapped_from_the_cache(trained_copy, cache):
    trained_into_french(trained_copy)
    for _ in range(2):  # built and stored, then mapped from the cache
        assert load_packed(trained_copy)[0].target_lang == "fr"
        assert load_int8(trained_copy)[0].target_lang == "fr"


# A model directory's languages and the files a translation with it must not write over, found in a fresh process,
# and whether that loaded YAML's reader.
WITHOUT_A_RECORD = """
import sys
from pathlib import Path
from attnmt.model_languages import languages_from_training
from attnmt.training.run_dir import model_inputs
folder = Path(sys.argv[1])
model_inputs(folder)
print(languages_from_training(folder), "yaml" in sys.modules)
"""


def test_a_model_without_a_training_record_is_read_without_loading_yamls_reader(tmp_path):
    """A model imported from Marian has no train.yaml: importing YAML's reader anyway took some 0.015 s of its
    one-line job's start (issue 44)."""
    run = subprocess.run([sys.executable, "-c", WITHOUT_A_RECORD, str(tmp_path)], capture_output=True, text=True,
                         check=True)
    assert run.stdout == "(None, None) False\n"
