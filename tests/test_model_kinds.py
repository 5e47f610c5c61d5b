"""Another program's model folder given to --model is named for what it is in one line, with what to
do instead, not refused for the keys of its config.json that attnmt does not know."""

import io
import json
import re
from pathlib import Path

import pytest

from attnmt import load_model_dir
from attnmt.cli.main import main
from attnmt.errors import ModelDirError
from attnmt.model_kinds import hugging_face_kind, is_attnmt_config

# What CTranslate2's converter writes for a Marian model (attnmt export --format ctranslate2).
CTRANSLATE2_CONFIG = {"add_source_bos": False, "add_source_eos": False, "bos_token": "<s>",
                      "decoder_start_token": "</s>", "eos_token": "</s>", "layer_norm_epsilon": None,
                      "multi_query_attention": False, "unk_token": "<unk>"}


def ctranslate2_folder(folder: Path, config: dict | None = CTRANSLATE2_CONFIG) -> Path:
    """The files of a CTranslate2 model (the weights a stand-in); ``config`` None: no config.json."""
    folder.mkdir()
    (folder / "model.bin").write_bytes(b"\0" * 16)
    (folder / "shared_vocabulary.json").write_text(json.dumps(["<unk>", "</s>", "▁Hallo"]))
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config))
    return folder


@pytest.mark.parametrize("config", [CTRANSLATE2_CONFIG, None], ids=["config", "no_config"])
@pytest.mark.parametrize("command", ["translate", "export"])
def test_a_ctranslate2_folder_given_to_model_is_named_as_one_with_what_to_do(tmp_path, capsys, monkeypatch,
                                                                            config, command):
    """It listed the config's eight keys as unknown attnmt keys, then attnmt's 24 valid ones."""
    folder = ctranslate2_folder(tmp_path / "ct2", config)
    message = (f"{folder} is a CTranslate2 model, not an attnmt model: run it with ctranslate2, or give attnmt "
               "the model it was exported from")
    with pytest.raises(ModelDirError, match=f"^{re.escape(message)}$"):
        load_model_dir(folder)
    monkeypatch.setattr("sys.stdin", io.StringIO("Hello.\n"))
    argv = {"translate": ["translate", "--model", str(folder)],
            "export": ["export", "--model", str(folder), "--format", "marian", "--out", str(tmp_path / "out")]}
    assert main(argv[command]) == 2
    assert capsys.readouterr().err == f"attnmt: error: {message}\n"


def test_a_folder_with_model_bin_but_an_attnmt_config_is_read_as_attnmt_s(tmp_path, capsys):
    """model.bin alone does not make a CTranslate2 model: the config's own errors are reported."""
    folder = ctranslate2_folder(tmp_path / "model", {"d_model": 7})
    with pytest.raises(ModelDirError, match=r"config\.json: d_model=7"):
        load_model_dir(folder)


@pytest.mark.parametrize("values, kind", [
    ({"model_type": "bert", "architectures": ["MarianMTModel"]}, "bert"),  # AutoConfig goes by model_type
    ({"architectures": ["MarianMTModel"]}, "marian"), ({"architectures": ["T5Model"]}, "T5Model"),
    ({"d_model": 512}, None), (["marian"], None),
])
def test_the_hugging_face_kind_is_the_model_type_else_the_architecture(values, kind):
    assert hugging_face_kind(values) == kind


@pytest.mark.parametrize("values, attnmt", [
    ({"n_heads": 4, "d_ff": 64, "vocab_size": 100}, True),
    ({"n_heads": 4, "model_type": "distilbert"}, False),  # DistilBERT's config says n_heads too
    ({"d_model": 512, "encoder_attention_heads": 8}, False),  # Marian's, without model_type
])
def test_an_attnmt_config_is_told_by_its_own_keys(values, attnmt):
    assert is_attnmt_config(values) is attnmt


def test_the_import_a_marian_folder_is_told_to_run_names_a_folder_with_a_space_as_one_argument(tmp_path):
    """The command to paste read `attnmt import --from-marian opus models/en-de --out NEWDIR`: two arguments."""
    folder = tmp_path / "opus models" / "en-de"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"model_type": "marian"}))
    with pytest.raises(ModelDirError) as refusal:
        load_model_dir(folder)
    assert f"`attnmt import --from-marian '{folder}' --out NEWDIR` first" in str(refusal.value)
