"""Starting from a trained model (init_from), your own vocabulary (any SentencePiece model, training
options, separate source and target vocabularies) and the constant learning rate of fine-tuning."""

import json
import re
import warnings
from pathlib import Path

import pytest
import sentencepiece
import torch
from support import PAIRS, plain_spm_model, tiny_config, write_pairs

from attnmt import checkpoint as ckpt
from attnmt.checkpoint import load_model_dir
from attnmt.cli.main import main
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError, DataError, ModelDirError
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.tokenizer_files import SEPARATE_TOKENIZERS, TOKENIZER
from attnmt.trained_lengths import LENGTHS, read_longest_source, write_longest_source
from attnmt.training.objective import constant_schedule
from attnmt.training.trainer import Trainer, resume
from attnmt.training.training_data import prepare_config

SOURCES = [s for s, _ in PAIRS]
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")


def fine_tune_config(folder: Path, init_from: Path, **changes):
    """The tiny config, starting from ``init_from``: a new dropout, a small constant learning rate."""
    values = dict(init_from=str(init_from), vocab_size=None, model=dict(dropout=0.1), learning_rate=1e-4,
                  warmup_steps=2, max_steps=4, eval_every=2, eval_metric="loss")
    return tiny_config(folder, **{**values, **changes})


def test_constant_schedule_warms_up_linearly_then_stays():
    assert [constant_schedule(step, 4, 1e-4) for step in (1, 2, 4, 100)] == [2.5e-5, 5e-5, 1e-4, 1e-4]
    assert constant_schedule(1, 0, 1e-4) == 1e-4


def test_fine_tuning_starts_from_the_models_weights_shape_and_tokenizer(trained_model, tmp_path):
    trainer = Trainer(fine_tune_config(tmp_path, trained_model), progress=False)
    model, tokenizer = load_model_dir(trained_model)
    for name, tensor in model.state_dict().items():
        assert torch.equal(trainer.model.state_dict()[name], tensor), name
    assert trainer.model.config.dropout == 0.1 and model.config.dropout == 0.0  # the YAML's dropout
    assert trainer.tokenizer.model_protos == tokenizer.model_protos
    assert trainer.learning_rate(1) == 5e-5  # fresh schedule: the constant rate's warm-up
    result = trainer.train()
    assert result.step == 4 and len(ckpt.list_checkpoints(result.model_dir)) == 2
    assert (result.model_dir / TOKENIZER).read_bytes() == (trained_model / TOKENIZER).read_bytes()
    tuned, _ = load_model_dir(result.model_dir, ckpt.list_checkpoints(result.model_dir)[-1] / ckpt.WEIGHTS)
    moved = max((tuned.state_dict()[name] - tensor).abs().max().item() for name, tensor in model.state_dict().items())
    assert 0 < moved < 1e-3  # Adam moves a weight about lr (1e-4) a step: it started from these weights


def test_fine_tuning_may_set_the_activation_dropout_as_it_sets_the_dropout(trained_model, tmp_path):
    config = fine_tune_config(tmp_path, trained_model, model=dict(dropout=0.1, activation_dropout=0.0))
    trainer = Trainer(config, progress=False)
    assert (trainer.model.config.dropout, trainer.model.config.activation_dropout) == (0.1, 0.0)


def test_a_fine_tuning_run_resumes_like_any_run(trained_model, tmp_path):
    config = fine_tune_config(tmp_path, trained_model, max_steps=2)
    Trainer(config, progress=False).train()
    assert resume(config.out_dir, {"max_steps": "4"}, progress=False).step == 4


def test_a_fine_tuned_model_records_the_longer_of_its_base_s_sources_and_its_own(trained_copy, tmp_path):
    """Where the base model has no record (an earlier release's, one imported from Marian), how long a
    source it read is not known, and the fine-tuned model records none: it translates as its base."""
    recorded = []
    for base in (40, 3, None):
        if base is None:
            (trained_copy / LENGTHS).unlink()
        else:
            write_longest_source(trained_copy, base)
        trainer = Trainer(fine_tune_config(tmp_path / str(base), trained_copy), progress=False)
        trainer.lock.release()
        recorded.append(read_longest_source(trainer.dir))
    assert recorded == [40, 15, None]  # the tiny pairs' longest source is 15 pieces


def test_init_from_on_the_command_line(trained_model, tmp_path, capsys):
    config = tiny_config(tmp_path)
    path = tmp_path / "config.yaml"
    path.write_text(json.dumps({**config.to_dict(), "vocab_size": None, "model": {}}))
    assert main(["train", str(path), "--init_from", str(trained_model), "--max_steps", "1",
                 "--learning_rate", "1e-5", "--eval-metric", "loss"]) == 0
    assert f"starting from the weights of {trained_model / ckpt.WEIGHTS}" in capsys.readouterr().out


@pytest.mark.parametrize("changes, message", [
    (dict(model=dict(d_model=32, n_heads=4)), r"model.d_model: 32 differs from the model's 64; .* keeps its shape"),
    (dict(vocab_size=50), "vocab_size: 50 differs from .*'s 81; remove it"),
    (dict(shared_vocab=False), "shared_vocab: False differs from"),
    (dict(tokenizer_options=dict(model_type="bpe")), r"tokenizer_options: \{model_type: bpe\} differs from .*'s "
                                                     r"tokenizer, trained with none \(a unigram model\); init_from "
                                                     "keeps the model's tokenizer: remove tokenizer_options"),
    (dict(max_len=63), r"max_len=63: .*'s model reads at most 62 tokens a sentence \(max_positions 64, BOS and EOS "
                       r"besides\); lower max_len"),
])
def test_init_from_refuses_settings_that_change_the_model(trained_model, tmp_path, changes, message):
    with pytest.raises(ConfigError, match=message):
        Trainer(fine_tune_config(tmp_path, trained_model, **changes), progress=False)


def test_init_from_takes_tokenizer_options_that_are_the_models_own(trained_model, tmp_path):
    """The docs allow tokenizer_options that are the model's own; any at all were refused."""
    own = dict(model_type="Unigram", character_coverage="1e0")  # the tiny model's, spelled otherwise
    trainer = Trainer(fine_tune_config(tmp_path, trained_model, tokenizer_options=own), progress=False)
    trainer.lock.release()
    assert trainer.tokenizer.vocab_size == 81


def test_init_from_refuses_a_tokenizer_of_another_vocabulary(trained_model, tmp_path):
    other = tmp_path / "other.model"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a small corpus: fewer pieces than asked
        Tokenizer.train(["ein ganz anderer satz", "mit anderen wörtern"] * 5, vocab_size=30).save(other)
    with pytest.raises(ConfigError, match=r"tokenizer: .*other.model \(2\d pieces\) is not the tokenizer of"):
        Trainer(fine_tune_config(tmp_path, trained_model, tokenizer=str(other)), progress=False)
    same = Trainer(fine_tune_config(tmp_path / "same", trained_model, tokenizer=str(trained_model / TOKENIZER)),
                   progress=False)
    assert same.tokenizer.vocab_size == 81  # repeating the model's own tokenizer is allowed


def train_from(folder: Path, run: Path, capsys) -> str:
    """What `attnmt train` with ``init_from: FOLDER`` (its files in ``run``) says on standard error; it
    must exit 2, and write no model."""
    config = tiny_config(run, init_from=str(folder), vocab_size=None, model={})
    path = run / "config.yaml"
    path.write_text(json.dumps(config.to_dict()))
    assert main(["train", str(path)]) == 2
    assert not Path(config.out_dir).exists()
    return capsys.readouterr().err


def test_init_from_a_directory_that_is_no_model_is_one_line(tmp_path, trained_copy, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    err = train_from(empty, tmp_path / "run", capsys)
    assert err == (f"attnmt: error: init_from: {empty / ckpt.MODEL_CONFIG}: not found; is {empty} an attnmt "
                   "model directory?\n")
    (trained_copy / ckpt.WEIGHTS).unlink()
    err = train_from(trained_copy, tmp_path / "run", capsys)
    assert err == (f"attnmt: error: init_from: {trained_copy} is not a model directory (it needs config.json and "
                   "model.safetensors); give one written by 'attnmt train' or 'attnmt import'\n")


@pytest.mark.parametrize("files", [
    {"model.bin": "", "config.json": {"unk_token": "<unk>", "decoder_start_token": "</s>", "add_source_eos": False}},
    {"model.bin": ""},  # a CTranslate2 converter may write no config.json
    {"pytorch_model.bin": "", "config.json": {"model_type": "marian", "d_model": 512}},
    {"model.safetensors": "", "config.json": {"architectures": ["MarianMTModel"], "d_model": 512}},
    {"model.safetensors": "", "config.json": {"model_type": "bert", "hidden_size": 8}},
], ids=["ctranslate2", "ctranslate2_no_config", "marian", "marian_safetensors", "bert"])
def test_init_from_another_programs_model_says_what_it_is_as_model_does(tmp_path, capsys, files):
    """A CTranslate2 folder, or a Hugging Face Marian one without model.safetensors, was "not a model
    directory (it needs config.json and model.safetensors)", where --model says what it is and what to do."""
    folder = tmp_path / "other"
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_text(json.dumps(content) if isinstance(content, dict) else content)
    said = f"^{re.escape(str(folder))} is a .* model, not an attnmt model: "
    with pytest.raises(ModelDirError, match=said) as refused:
        load_model_dir(folder)
    assert train_from(folder, tmp_path / "run", capsys) == f"attnmt: error: init_from: {refused.value}\n"


def test_any_sentencepiece_model_can_be_the_tokenizer(tmp_path):
    spm_file = plain_spm_model(tmp_path / "plain.model")
    result = Trainer(tiny_config(tmp_path, tokenizer=str(spm_file), vocab_size=None, max_steps=2,
                                 eval_metric="loss"), progress=False).train()
    model, tokenizer = load_model_dir(result.model_dir)
    assert model.config.vocab_size == 61  # 60 pieces and the <pad> attnmt added
    plain = sentencepiece.SentencePieceProcessor(model_file=str(spm_file))
    assert tokenizer.pieces(SOURCES[3])[:-1] == plain.encode(SOURCES[3], out_type=str)


def test_tokenizer_options_reach_sentencepiece(tmp_path):
    trainer = Trainer(tiny_config(tmp_path, tokenizer_options=dict(model_type="bpe", user_defined_symbols=[">>de<<"]),
                                  vocab_size=60, max_steps=1), progress=False)
    assert ">>de<<" in trainer.tokenizer.pieces(">>de<< a dog runs")
    with pytest.raises(ConfigError, match="tokenizer_options: unknown tokenizer option.*coverage"):
        tiny_config(tmp_path / "bad", tokenizer_options=dict(coverage=0.9))  # refused with the config, not later


@pytest.fixture(scope="module")
def separate(tmp_path_factory) -> Path:
    """A tiny model with a source and a target vocabulary of their own, trained a few steps."""
    folder = tmp_path_factory.mktemp("separate")
    config = tiny_config(folder, shared_vocab=False, vocab_size=50, max_steps=30, eval_every=30, eval_metric="loss")
    return Trainer(config, progress=False).train().model_dir


def test_separate_vocabularies_have_their_own_files_and_embeddings(separate):
    model, tokenizer = load_model_dir(separate)
    c = model.config
    assert tokenizer.separate_vocabs and (c.src_vocab_size, c.vocab_size) == (tokenizer.source_vocab_size, 50)
    assert c.src_vocab_size < 50  # the English side of 20 pairs supports fewer pieces
    assert not c.tie_embeddings and c.tie_output  # the target embedding is the output projection
    assert model.src_embed is not model.tgt_embed and model.output.weight is model.tgt_embed.weight
    assert {path.name for path in separate.glob("spm*")} == set(SEPARATE_TOKENIZERS)
    german = Tokenizer(tokenizer.model_protos[1])
    assert tokenizer.encode_target(PAIRS[0][1]) == german.encode_target(PAIRS[0][1])


def test_separate_vocabularies_export_to_marian_and_read_text_with_its_defaults(separate, tmp_path):
    transformers = pytest.importorskip("transformers", reason="transformers is optional: pip install 'attnmt[export]'")
    from attnmt.interop.export import export_marian

    out = export_marian(separate, tmp_path / "marian")
    assert (out / "target_vocab.json").is_file()
    hf_model = transformers.MarianMTModel.from_pretrained(out).eval()
    hf_tokenizer = transformers.MarianTokenizer.from_pretrained(out)
    model, tokenizer = load_model_dir(separate)
    ours = translate(model, tokenizer, SOURCES, Decoding(beam_size=1, max_len_a=0.0, max_len_b=12))
    batch = hf_tokenizer(SOURCES, return_tensors="pt", padding=True)  # defaults: the source ends with </s>
    # 13: Marian forces </s> into the last place; attnmt ends a cut output with one after its 12 tokens
    generated = hf_model.generate(**batch, num_beams=1, max_new_tokens=13)
    assert hf_tokenizer.batch_decode(generated, skip_special_tokens=True) == ours


def test_a_prepared_directory_keeps_separate_vocabularies_and_trains_from_them(tmp_path):
    config = tiny_config(tmp_path, shared_vocab=False, vocab_size=50, max_steps=1, eval_metric="loss",
                         prepared_dir=str(tmp_path / "prepared"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 20 pairs support fewer pieces than asked
        prepare_config(config, config.prepared_dir, log=lambda line: None)
    assert {path.name for path in (tmp_path / "prepared").glob("spm*")} == set(SEPARATE_TOKENIZERS)
    trainer = Trainer(config, progress=False)
    assert trainer.tokenizer.separate_vocabs and trainer.train().step == 1


def test_ids_prepared_with_another_source_convention_are_refused(tmp_path):
    config = tiny_config(tmp_path, max_steps=1, prepared_dir=str(tmp_path / "prepared"))
    prepare_config(config, config.prepared_dir, log=lambda line: None)
    old_style = tiny_config(tmp_path / "old", max_steps=1, prepared_dir=config.prepared_dir,
                            tokenizer=str(tmp_path / "prepared" / TOKENIZER),
                            model={**config.model, "source_eos": False})
    with pytest.raises(DataError, match="prepared with another tokenizer"):
        Trainer(old_style, progress=False)


def tagged_config(folder: Path, **changes):
    """The tiny config, its sources starting with the language tag >>de<<, a piece of its tokenizer."""
    folder.mkdir(parents=True, exist_ok=True)
    src, tgt = write_pairs(folder, "tagged", [(f">>de<< {s}", t) for s, t in PAIRS])
    return tiny_config(folder, train_src=str(src), train_tgt=str(tgt), valid_src=str(src), valid_tgt=str(tgt),
                       max_steps=1, tokenizer_options={"model_type": "bpe", "user_defined_symbols": [">>de<<"]},
                       **changes)


def test_a_new_training_reads_a_leading_language_tag_alone_and_says_so_in_config_json(tmp_path):
    """Its export is read by MarianTokenizer, which reads ">>de<< a dog" as [">>de<<", "▁a", ...]: training reads
    it so too (before, ["▁", ">>de<<", "▁a", ...]); a model without a tag among its pieces writes no such key."""
    config = tagged_config(tmp_path, prepared_dir=str(tmp_path / "prepared"))
    prepare_config(config, config.prepared_dir, log=lambda line: None)
    trainer = Trainer(config, progress=False)
    tokenizer = trainer.tokenizer
    assert json.loads((tmp_path / "model" / "config.json").read_text())["language_token_alone"] is True
    tag = tokenizer.piece_to_id(">>de<<")
    first = trainer.data.corpora[0].examples([0])[0]
    assert first.src == [tag, *tokenizer.encode_target(PAIRS[0][0]), tokenizer.eos_id]
    trainer.train()
    assert load_model_dir(tmp_path / "model")[1].encode(f">>de<< {PAIRS[0][0]}") == first.src
    plain = tiny_config(tmp_path / "plain", max_steps=1)
    Trainer(plain, progress=False).train()
    assert "language_token_alone" not in json.loads((tmp_path / "plain" / "model" / "config.json").read_text())


def test_ids_prepared_reading_a_language_tag_the_other_way_are_refused_naming_that(tmp_path):
    """A folder prepared with the tag read after a "▁" (as for a model trained before language_token_alone)
    was refused as "prepared with another tokenizer", though it was the folder's own; a run reading the tag
    that way (model.language_token_alone: false) still trains on it."""
    old = tagged_config(tmp_path, prepared_dir=str(tmp_path / "prepared"), model={**tiny_config(tmp_path).model,
                                                                                  "language_token_alone": False})
    prepare_config(old, old.prepared_dir, log=lambda line: None)
    new = tagged_config(tmp_path / "new", prepared_dir=old.prepared_dir)
    with pytest.raises(DataError, match=r"^\S*prepared was prepared reading a leading language tag \(>>de<<\) after a "
                                        r"'▁' \(as models from before language_token_alone do\), this run reads it "
                                        r"alone, as Marian reads it: run 'attnmt prepare CONFIG' again$"):
        Trainer(new, progress=False)
    assert Trainer(old, progress=False).train().step == 1
    assert "language_token_alone" not in json.loads((tmp_path / "model" / "config.json").read_text())


def test_separate_vocabularies_smaller_than_asked_say_which_side(tmp_path):
    from attnmt.training.start import new_tokenizer

    said = []
    new_tokenizer(tiny_config(tmp_path, shared_vocab=False, vocab_size=500), said.append)
    assert [line.split(" only")[0] for line in said if line.startswith("warning: ")] == [
        "warning: asked for vocab_size=500, but the source side's training text",
        "warning: asked for vocab_size=500, but the target side's training text"]
