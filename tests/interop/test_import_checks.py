"""Importing a stranger's Marian directory: absurd sizes and pickled weights are refused in one line,
before transformers or attnmt allocate anything (model directories from strangers are part of the
threat model, as the pickle refusals of attnmt's own directories show)."""

import json
import os
import re
import resource

import pytest
import torch
from support import write_random_marian

from attnmt.cli.main import main
from attnmt.errors import AttnmtWarning
from attnmt.model import TransformerConfig

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub


def import_cli(hf_dir, out, capsys) -> tuple[int, str, int]:
    """`attnmt import --from-marian`: (exit status, stderr, bytes by which the peak memory grew)."""
    capsys.readouterr()  # what making the directory printed
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    code = main(["import", "--from-marian", str(hf_dir), "--out", str(out)])
    grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # Linux counts KiB
    return code, capsys.readouterr().err, grew


def test_absurd_positions_in_a_marian_config_are_refused_before_transformers_allocates(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "max_position_embeddings": 10**8}))
    code, err, grew = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"{hf_dir}/config.json: max_position_embeddings=100000000: must be a whole number from 1 to 65,536" in err
    assert grew < 200 * 2**20 and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("changes", "message"), [
    ({"encoder_ffn_dim": 10**7, "decoder_ffn_dim": 10**7}, "encoder_ffn_dim=10000000: must be a whole number from 1"),
    ({"encoder_attention_heads": 0, "decoder_attention_heads": 0}, "encoder_attention_heads=0: must be a whole"),
    ({"encoder_attention_heads": 5, "decoder_attention_heads": 5}, "is not divisible by encoder_attention_heads=5"),
])
def test_a_marian_config_value_attnmt_refuses_is_named_by_the_key_config_json_holds(tmp_path, capsys, changes,
                                                                                     message):
    """It named attnmt's keys (d_ff, n_heads, max_positions), which the Marian config.json does not hold."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, **changes}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"attnmt: error: {hf_dir}/config.json: ")
    assert message in err and not re.search(r"\b(d_ff|n_heads|max_positions)\b", err)
    assert not (tmp_path / "out").exists()


def test_a_marian_model_whose_pad_and_eos_are_one_id_is_refused_in_its_keys(tmp_path, capsys):
    """Its vocabulary and config.json agree, but padding is masked out: every </s> would be too."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    vocab = json.loads((hf_dir / "vocab.json").read_text())
    eos = vocab["</s>"]
    (hf_dir / "vocab.json").write_text(json.dumps({**vocab, "<pad>": eos}))
    (hf_dir / "config.json").write_text(json.dumps({**config, "pad_token_id": eos, "decoder_start_token_id": eos}))
    (hf_dir / "generation_config.json").unlink(missing_ok=True)
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"attnmt: error: {hf_dir}/config.json: pad_token_id and eos_token_id are both {eos}: ")
    assert "only decoder_start_token_id may be pad_token_id" in err and not (tmp_path / "out").exists()


def test_a_marian_config_larger_than_its_weights_is_refused(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "d_model": 4096, "encoder_ffn_dim": 16384,
                                                    "decoder_ffn_dim": 16384}))
    code, err, grew = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert "model.safetensors: holds" in err and "they come from different models" in err
    assert grew < 200 * 2**20


def test_pickled_marian_weights_are_refused_unread(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    from safetensors.torch import load_file

    torch.save(load_file(hf_dir / "model.safetensors"), hf_dir / "pytorch_model.bin")
    (hf_dir / "model.safetensors").unlink()
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "pytorch_model.bin is a pickle, which attnmt never loads" in err


def test_weights_pickled_in_shards_are_refused_unread_with_the_hint_to_convert_them(tmp_path, capsys):
    """transformers 4's save_pretrained(safe_serialization=False) shards them beside
    pytorch_model.bin.index.json: the import said the folder held no weights."""
    hf_dir = write_random_marian(tmp_path / "hf")
    from safetensors.torch import load_file

    shard = "pytorch_model-00001-of-00001.bin"
    weights = load_file(hf_dir / "model.safetensors")
    torch.save(weights, hf_dir / shard)
    (hf_dir / "pytorch_model.bin.index.json").write_text(json.dumps({"weight_map": dict.fromkeys(weights, shard)}))
    (hf_dir / "model.safetensors").unlink()
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "pytorch_model.bin.index.json lists pickled shards, which attnmt never loads" in err
    assert "convert the weights to safetensors" in err and "holds no weights" not in err


def test_a_marian_config_value_of_the_wrong_type_and_a_broken_vocabulary_are_one_line(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "d_model": "x"}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"attnmt: error: {hf_dir}/config.json: ")
    (hf_dir / "config.json").write_text(json.dumps(config))
    (hf_dir / "vocab.json").write_text("{not json")
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {hf_dir}/vocab.json: not a JSON vocabulary (")
    assert not (tmp_path / "out").exists()


def test_a_broken_sentencepiece_model_or_a_vocabulary_without_pad_is_one_line_naming_the_file(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    spm = (hf_dir / "source.spm").read_bytes()
    (hf_dir / "source.spm").write_bytes(b"\x00 not a SentencePiece model")
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"attnmt: error: {hf_dir}/source.spm: not a SentencePiece model (")
    (hf_dir / "source.spm").write_bytes(spm)
    vocab = json.loads((hf_dir / "vocab.json").read_text())
    del vocab["<pad>"]
    (hf_dir / "vocab.json").write_text(json.dumps(vocab))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"attnmt: error: {hf_dir}/vocab.json: has no '<pad>' entry; Marian vocabularies need")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("separate", [False, True])
def test_a_vocabulary_with_ids_beyond_the_embeddings_is_refused_before_anything_is_written(tmp_path, capsys, separate):
    hf_dir = write_random_marian(tmp_path / "hf", separate=separate)
    vocab = json.loads((hf_dir / "vocab.json").read_text())
    (hf_dir / "vocab.json").write_text(json.dumps({**vocab, "▁zzzz": 5000}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert err == (f"attnmt: error: {hf_dir}/vocab.json: has ids up to 5000 but {hf_dir}/config.json says "
                   f"vocab_size={len(vocab)}; they come from different models\n")
    assert not (tmp_path / "out").exists()


def test_a_config_vocab_size_below_the_vocabulary_is_named_by_marian_keys_not_attnmt_pad_id(tmp_path, capsys):
    """It said "config.json: pad_id=53: use an id from 0 to 49 (below vocab_size)": attnmt's key, which
    config.json does not hold, from the attnmt config's range check run before the vocabulary's."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    largest = max(json.loads((hf_dir / "vocab.json").read_text()).values())
    (hf_dir / "config.json").write_text(json.dumps({**config, "vocab_size": largest - 3}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert err == (f"attnmt: error: {hf_dir}/vocab.json: has ids up to {largest} but {hf_dir}/config.json says "
                   f"vocab_size={largest - 3}; they come from different models\n")
    (hf_dir / "config.json").write_text(json.dumps({**config, "pad_token_id": 99, "decoder_start_token_id": 99}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    refusal = err.splitlines()[-1]  # under transformers' own warning that 99 lies beyond vocab_size
    assert code == 2 and "pad_id" not in refusal
    assert refusal.endswith("config.json has pad_token_id=99, eos_token_id=0")
    assert not (tmp_path / "out").exists()


def test_a_renamed_tensor_is_refused_not_imported_with_random_weights(tmp_path, capsys):
    from safetensors.torch import load_file, save_file

    hf_dir = write_random_marian(tmp_path / "hf")
    weights = load_file(hf_dir / "model.safetensors")
    weights["model.decoder.layers.1.fc1_typo.weight"] = weights.pop("model.decoder.layers.1.fc1.weight")
    save_file(weights, hf_dir / "model.safetensors", metadata={"format": "pt"})
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1  # no report from transformers, no progress bar
    assert err.startswith(f"attnmt: error: {hf_dir}/model.safetensors: has no model.decoder.layers.1.fc1.weight, "
                          "which config.json's model needs; holds model.decoder.layers.1.fc1_typo.weight, which")
    assert not (tmp_path / "out").exists()


def test_weights_of_more_layers_than_the_config_says_are_refused(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")  # 2 decoder layers, of 26 tensors each
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "decoder_layers": 1}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert "model.safetensors: holds model.decoder.layers.1.encoder_attn.k_proj.bias (and 25 more), " in err


def test_a_config_whose_d_model_does_not_fit_the_weights_names_the_key_and_the_tensor(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")  # d_model 32, 4 heads
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "d_model": 16}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    shared = config["vocab_size"]
    assert err == (f"attnmt: error: {hf_dir}/model.safetensors: model.shared.weight has shape ({shared}, 32), but "
                   f"{hf_dir}/config.json (d_model=16) makes it ({shared}, 16); they come from different models\n")


def test_a_shape_that_does_not_fit_is_named_in_a_marian_model_checkpoint_without_the_model_prefix(tmp_path, capsys):
    """MarianModel saves its tensors without "model."; the check matched none, and transformers'
    report, which its error points to, was held back: the error pointed at nothing."""
    from safetensors.torch import load_file, save_file

    hf_dir = write_random_marian(tmp_path / "hf")
    weights = load_file(str(hf_dir / "model.safetensors"))
    save_file({name.removeprefix("model."): tensor for name, tensor in weights.items()},
              str(hf_dir / "model.safetensors"), metadata={"format": "pt"})
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "encoder_ffn_dim": 16, "decoder_ffn_dim": 16}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert "encoder.layers.0.fc1.weight has shape" in err and "encoder_ffn_dim=16" in err


def test_normalize_before_true_is_imported_as_transformers_reads_it_with_a_warning(tmp_path):
    from attnmt.interop.marian_import import import_marian

    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "normalize_before": True}))
    with pytest.warns(AttnmtWarning, match=r"config.json: normalize_before: true is ignored, as transformers'"):
        import_marian(hf_dir, tmp_path / "out")
    assert json.loads((tmp_path / "out" / "config.json").read_text())["norm_first"] is False


@pytest.mark.parametrize("bad", [-5, True], ids=["negative", "bool"])
def test_a_vocabulary_id_that_is_negative_or_a_bool_is_refused_naming_the_piece(tmp_path, capsys, bad):
    """Such an id was imported, and translating then failed (isinstance(True, int) holds too)."""
    hf_dir = write_random_marian(tmp_path / "hf")
    vocab = json.loads((hf_dir / "vocab.json").read_text())
    (hf_dir / "vocab.json").write_text(json.dumps({**vocab, "▁dog": bad}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert err == (f"attnmt: error: {hf_dir}/vocab.json: the piece '▁dog' has id {json.dumps(bad)}; "
                   "ids are whole numbers from 0\n")
    assert not (tmp_path / "out").exists()


def test_sharded_weights_are_refused_saying_so_and_how_to_merge_them(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "hf")
    (hf_dir / "model.safetensors").rename(hf_dir / "model-00001-of-00001.safetensors")
    (hf_dir / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {}}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert "the weights are sharded (model.safetensors.index.json)" in err and "max_shard_size=" in err
    assert "convert the weights to safetensors" not in err


def test_weights_that_do_not_fit_the_attnmt_model_are_one_line_not_a_traceback(tmp_path, capsys, monkeypatch):
    """The checks before it leave nothing that fails here; should one miss a case, the user still
    gets one line, not PyTorch's report of every tensor."""
    from attnmt.interop import marian_import

    fitting = marian_import.attnmt_weights
    monkeypatch.setattr(marian_import, "attnmt_weights",
                        lambda model, weights: {**fitting(model, weights), "output.bias": torch.zeros(3)})
    hf_dir = write_random_marian(tmp_path / "hf")
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"attnmt: error: {hf_dir}: the weights do not fit {hf_dir}/config.json (size mismatch for "
                          "output.bias")


@pytest.mark.parametrize("start", [0, 5], ids=["eos", "a_piece"])
def test_a_decoder_that_starts_from_another_token_than_pad_is_refused_naming_the_key(tmp_path, capsys, start):
    """Such a model was imported with that token as BOS: one starting from </s> (fairseq's way) never
    ended a sentence, as attnmt rules BOS out, and an export renamed the token <pad>."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "decoder_start_token_id": start}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"attnmt: error: {hf_dir}/config.json: decoder_start_token_id={start} differs from "
                          f"pad_token_id={config['pad_token_id']}; attnmt imports Marian models, whose decoder ")
    assert not (tmp_path / "out").exists()


def test_a_generation_config_starting_the_decoder_from_another_token_than_pad_is_refused(tmp_path, capsys):
    """transformers' generate() starts from generation_config.json's decoder_start_token_id, config.json's aside."""
    hf_dir = write_random_marian(tmp_path / "hf")
    generation = json.loads((hf_dir / "generation_config.json").read_text())
    (hf_dir / "generation_config.json").write_text(json.dumps({**generation, "decoder_start_token_id": 0}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    pad = json.loads((hf_dir / "config.json").read_text())["pad_token_id"]
    assert err.startswith(f"attnmt: error: {hf_dir}/generation_config.json: decoder_start_token_id=0 differs from "
                          f"config.json pad_token_id={pad}; ")
    assert not (tmp_path / "out").exists()


def test_an_odd_d_model_is_refused_in_one_line_naming_the_key_before_anything_is_built(tmp_path, capsys):
    """It stopped with a ValueError traceback from attnmt's positional table (transformers has one
    more sine than cosine)."""
    hf_dir = write_random_marian(tmp_path / "hf", d_model=33, encoder_attention_heads=3, decoder_attention_heads=3)
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert (code, err) == (2, f"attnmt: error: {hf_dir}/config.json: d_model=33: attnmt's sinusoidal positions "
                              "need an even d_model, so it cannot import this model\n")


def test_a_marian_config_value_of_the_wrong_type_is_one_line_that_says_why(tmp_path, capsys):
    """Only the heading of transformers' message was kept: "Validation error for field '...':" and no reason."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "encoder_attention_heads": "4"}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and err.count("\n") == 1
    assert "'encoder_attention_heads'; " in err and "expected int, got str" in err


def test_an_attnmt_model_directory_given_to_the_import_is_named_as_one(tmp_path, capsys):
    """transformers read attnmt's config.json as a Marian one with every key defaulted, and the import
    refused it for pad_id=58100, transformers' default."""
    hf_dir = write_random_marian(tmp_path / "model")
    (hf_dir / "config.json").write_text(json.dumps(TransformerConfig(vocab_size=60, d_model=32, n_heads=4).to_dict()))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2
    assert err == f"attnmt: error: {hf_dir} is already an attnmt model directory (give it to --model)\n"


@pytest.mark.parametrize("model_type", ["bert", "t5", "bart"])
def test_another_model_type_is_refused_before_transformers_reads_it(tmp_path, capsys, model_type):
    """MarianConfig read a BERT's config.json with two warnings, and the import wrote a model."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "model_type": model_type}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2 and not (tmp_path / "out").exists()
    assert err == (f"attnmt: error: {hf_dir} is a Hugging Face {model_type} model; only Marian (OPUS-MT) models "
                   "can be imported\n")


def test_a_ctranslate2_folder_given_to_the_import_is_named_as_one(tmp_path, capsys):
    hf_dir = write_random_marian(tmp_path / "ct2")
    (hf_dir / "vocab.json").unlink()  # what CTranslate2's converter writes: model.bin, config.json and the models
    (hf_dir / "model.bin").write_bytes(b"\0" * 16)
    (hf_dir / "config.json").write_text(json.dumps({"unk_token": "<unk>", "decoder_start_token": "</s>"}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2
    assert err == f"attnmt: error: {hf_dir} is a CTranslate2 model; only Marian (OPUS-MT) models can be imported\n"


def test_a_marian_config_without_model_type_is_imported_as_marian_config_reads_it(tmp_path, capsys):
    """An OPUS-MT folder always names its model_type; one without is read as MarianConfig reads it,
    and the checks of its sizes and tensors refuse one that is not Marian's."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({k: v for k, v in config.items() if k != "model_type"}))
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 0 and (tmp_path / "out" / "model.safetensors").is_file()


def test_a_folder_without_weights_is_refused_without_the_hint_to_convert_them(tmp_path, capsys):
    """It said to convert the weights to safetensors, where there were none to convert."""
    hf_dir = write_random_marian(tmp_path / "hf")
    (hf_dir / "model.safetensors").unlink()
    code, err, _ = import_cli(hf_dir, tmp_path / "out", capsys)
    assert code == 2
    assert err == f"attnmt: error: {hf_dir}/model.safetensors: not found; {hf_dir} holds no weights\n"


def test_a_file_or_a_missing_folder_given_to_the_import_is_named_as_such(tmp_path, capsys):
    """A weights file given for the folder was answered 'FILE/config.json: not found; is FILE a Hugging
    Face Marian model directory?', a path that cannot exist."""
    hf_dir = write_random_marian(tmp_path / "hf")
    weights = next(hf_dir.glob("*.safetensors"))
    code, err, _ = import_cli(weights, tmp_path / "out", capsys)
    assert code == 2 and not (tmp_path / "out").exists()
    assert err.startswith(f"attnmt: error: {weights} is a file, not a model directory; ") and err.count("\n") == 1
    code, err, _ = import_cli(tmp_path / "nowhere", tmp_path / "out", capsys)
    assert code == 2 and err.startswith(f"attnmt: error: {tmp_path / 'nowhere'}: no such folder; ")
