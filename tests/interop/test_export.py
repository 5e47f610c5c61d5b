"""Export to Hugging Face Marian and CTranslate2, import from Marian: the same numbers on both sides.

Every Marian model here is built locally from a small random config; nothing is downloaded.
"""

import json
import os
import sys
import warnings
from pathlib import Path

import pytest
import sentencepiece
import torch
from support import PAIRS, fond_of_pad, write_random_marian

from attnmt.checkpoint import WEIGHTS, load_model_dir, save_model_config, save_weights
from attnmt.cli.main import main
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.forced import forced_passes
from attnmt.decoding.search import beam_search, greedy_search
from attnmt.decoding.translate import translate
from attnmt.errors import ConversionError
from attnmt.interop import export, marian_import
from attnmt.interop.marian import feature_order, marian_config, marian_name, marian_order
from attnmt.layers import sinusoidal_table
from attnmt.model import Transformer, TransformerConfig
from attnmt.text.data import pad_rows
from attnmt.text.tokenizer import Tokenizer

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")

SOURCES = [s for s, _ in PAIRS]
TOLERANCE = 1e-4  # max |logit difference| in fp32
# max |log-prob difference| in fp32: attnmt's reported log-probs against CTranslate2's (measured: up to 7e-7;
# 1.8e-4 on a trained model while attnmt's softmax still counted pad and BOS, whole units on a model fond of them)
LOG_PROB_TOLERANCE = 1e-5


def need(module: str):
    return pytest.importorskip(module, reason=f"{module} is optional: pip install 'attnmt[export]'")


def attnmt_logits(model, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return model(src, tgt_in)


def marian_logits(hf_model, src: torch.Tensor, tgt_in: torch.Tensor, pad_id: int) -> torch.Tensor:
    with torch.no_grad():
        return hf_model(input_ids=src, attention_mask=(src != pad_id).long(), decoder_input_ids=tgt_in).logits


# ---------------------------------------------------------------- the maps, by hand


def test_marian_order_puts_eos_and_unk_first_and_bos_last_as_pad():
    attnmt_ids = TransformerConfig(vocab_size=8, d_model=8, n_heads=2)  # pad 0, unk 1, bos 2, eos 3
    assert marian_order(attnmt_ids) == [3, 1, 4, 5, 6, 7, 2]  # attnmt's pad row is left out
    imported = TransformerConfig(vocab_size=6, d_model=8, n_heads=2, eos_id=0, unk_id=1, pad_id=5, bos_id=5)
    assert marian_order(imported) == [0, 1, 2, 3, 4, 5]


def test_interleaved_positions_are_the_half_layout_with_features_permuted():
    order = feature_order(TransformerConfig(d_model=6, n_heads=2))
    assert order.tolist() == [0, 2, 4, 1, 3, 5]
    torch.testing.assert_close(sinusoidal_table(10, 6, "interleaved")[:, order], sinusoidal_table(10, 6, "half"))
    assert feature_order(TransformerConfig(d_model=6, n_heads=2, positional_layout="half")) is None


def test_parameter_names_map_to_marian():
    assert marian_name("decoder_layers.1.norm2.weight") == "model.decoder.layers.1.encoder_attn_layer_norm.weight"
    assert marian_name("decoder_layers.0.cross_attn.k_proj.bias") == "model.decoder.layers.0.encoder_attn.k_proj.bias"
    assert marian_name("encoder_layers.0.feed_forward.linear2.weight") == "model.encoder.layers.0.fc2.weight"
    assert marian_name("output.bias") == "final_logits_bias"


def test_pre_norm_and_learned_positions_cannot_be_exported():
    for changes in (dict(norm_first=True), dict(positional="learned")):
        with pytest.raises(ConversionError, match="Marian"):
            marian_config(TransformerConfig(d_model=8, n_heads=2, **changes), 8, 8, 7, 0)


def test_cli_says_what_to_install_without_the_export_extra(monkeypatch, capsys, tmp_path):
    for module in ("transformers", "ctranslate2"):
        monkeypatch.setitem(sys.modules, module, None)  # "import transformers" now raises ImportError
    assert main(["export", "--model", str(tmp_path), "--format", "marian", "--out", str(tmp_path / "o")]) == 2
    assert "pip install 'attnmt[export]'" in capsys.readouterr().err
    assert main(["import", "--from-marian", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "needs the 'transformers' package" in capsys.readouterr().err


# ---------------------------------------------------------------- a trained attnmt model, exported


@pytest.fixture(scope="module")
def trained(trained_model) -> Path:
    """A tiny model that knows its 20 training pairs by heart (interleaved positions, tied embeddings)."""
    need("transformers")  # every user of this model exports it
    return trained_model


@pytest.fixture(scope="module")
def exported(trained, tmp_path_factory) -> Path:
    need("transformers")
    return export.export_marian(trained, tmp_path_factory.mktemp("export") / "marian")


@pytest.fixture(scope="module")
def hf(exported):
    """The export as Hugging Face loads it: (MarianMTModel, MarianTokenizer)."""
    transformers = need("transformers")
    return (transformers.MarianMTModel.from_pretrained(exported).eval(),
            transformers.MarianTokenizer.from_pretrained(exported))


def teacher_forced_batch(tokenizer) -> tuple[torch.Tensor, torch.Tensor]:
    """attnmt ids for all pairs: src padded with pad, tgt_in = BOS + target padded with EOS (a real token)."""
    src = pad_rows([tokenizer.encode(s) for s, _ in PAIRS], 0)
    tgt_in = pad_rows([[2, *tokenizer.encode(t)] for _, t in PAIRS], 3)
    return src, tgt_in


def test_marian_export_follows_marian_vocabulary_conventions(trained, exported, hf):
    model, tokenizer = load_model_dir(trained)
    vocab = json.loads((exported / "vocab.json").read_text())
    assert (vocab["</s>"], vocab["<unk>"], vocab["<pad>"]) == (0, 1, model.config.vocab_size - 2)
    assert "<s>" not in vocab and vocab[tokenizer.id_to_piece(4)] == 2
    hf_model, _ = hf
    assert hf_model.config.decoder_start_token_id == hf_model.config.pad_token_id == vocab["<pad>"]
    # Marian's decoder starts from <pad>: that row holds attnmt's BOS embedding (features permuted).
    bos = model.tgt_embed.weight[2][feature_order(model.config)]
    torch.testing.assert_close(hf_model.model.shared.weight[vocab["<pad>"]], bos)


def max_export_difference(model, tokenizer, hf_model) -> float:
    """max |attnmt logits - Marian logits| over all pairs, Marian's vocabulary order applied to attnmt's."""
    order = marian_order(model.config)
    to_marian = {a: m for m, a in enumerate(order)} | {0: len(order) - 1}  # attnmt's pad -> Marian's
    src, tgt_in = teacher_forced_batch(tokenizer)
    ours = attnmt_logits(model, src, tgt_in)
    theirs = marian_logits(hf_model, src.apply_(to_marian.get), tgt_in.apply_(to_marian.get), len(order) - 1)
    return (ours[..., order] - theirs).abs().max().item()


def test_marian_export_gives_the_same_logits(trained, hf):
    model, tokenizer = load_model_dir(trained)
    assert max_export_difference(model, tokenizer, hf[0]) <= TOLERANCE


@pytest.mark.parametrize("beam_size", [1, 4])
def test_marian_export_translates_like_attnmt(trained, hf, beam_size):
    model, tokenizer = load_model_dir(trained)
    hf_model, hf_tokenizer = hf
    ours = translate(model, tokenizer, SOURCES, Decoding(beam_size=beam_size, alpha=0.0))
    # The model reads sources ending with </s>, as MarianTokenizer writes them by default.
    batch = hf_tokenizer(SOURCES, return_tensors="pt", padding=True)
    generated = hf_model.generate(**batch, num_beams=beam_size, length_penalty=0.0)
    assert hf_tokenizer.batch_decode(generated, skip_special_tokens=True) == ours


def test_marian_export_never_generates_the_empty_output_as_attnmt_and_ctranslate2_never_do(exported, hf):
    """generation_config.json holds min_new_tokens=1: a beam search allowed the empty output returned it
    for a long sentence now and then (here forced: </s> first is made the likeliest start)."""
    hf_model, hf_tokenizer = hf
    assert json.loads((exported / "generation_config.json").read_text())["min_new_tokens"] == 1
    bias = hf_model.final_logits_bias.clone()
    with torch.no_grad():
        hf_model.final_logits_bias[0, hf_model.config.eos_token_id] += 50.0
    try:
        generated = hf_model.generate(**hf_tokenizer(SOURCES[:3], return_tensors="pt", padding=True),
                                      num_beams=4, length_penalty=0.0, max_new_tokens=5)
    finally:
        hf_model.final_logits_bias.copy_(bias)
    assert (generated[:, 1] != hf_model.config.eos_token_id).all()  # generated[:, 0]: the start token


@pytest.fixture(scope="module")
def ct2_float32(trained, tmp_path_factory) -> Path:
    need("transformers")
    need("ctranslate2")
    return export.export_ctranslate2(trained, tmp_path_factory.mktemp("ct2") / "float32")


def ct2_translate(folder: Path, sources: list[str], tokenizer: Tokenizer) -> list[str]:
    ctranslate2 = need("ctranslate2")
    translator = ctranslate2.Translator(str(folder), device="cpu", intra_threads=1)
    results = translator.translate_batch([tokenizer.pieces(s) for s in sources], beam_size=1)
    target = sentencepiece.SentencePieceProcessor(model_file=str(folder / "target.spm"))  # carried along
    return [target.decode_pieces(r.hypotheses[0]) for r in results]


def test_ctranslate2_export_gives_the_same_greedy_translations(trained, ct2_float32):
    model, tokenizer = load_model_dir(trained)
    assert ct2_translate(ct2_float32, SOURCES, tokenizer) == translate(model, tokenizer, SOURCES, Decoding(beam_size=1))


def attnmt_log_probs(model, sources: list[list[int]], targets: list[list[int]]) -> list[torch.Tensor]:
    """attnmt's own log-prob of each target id then EOS, per pair (its teacher-forced pass, as score reads)."""
    return [torch.tensor(p.log_probs) for _, p in sorted(forced_passes(model, sources, targets), key=lambda x: x[0])]


def max_ct2_difference(model, tokenizer, folder: Path) -> float:
    """max |attnmt - CTranslate2| log-probability of each reference token (EOS included) over all pairs."""
    ctranslate2 = need("ctranslate2")
    translator = ctranslate2.Translator(str(folder), device="cpu", intra_threads=1)
    scored = translator.score_batch([tokenizer.pieces(s) for s, _ in PAIRS], [tokenizer.pieces(t) for _, t in PAIRS])
    ours = attnmt_log_probs(model, [tokenizer.encode(s) for s, _ in PAIRS], [tokenizer.encode(t) for _, t in PAIRS])
    return max((mine - torch.tensor(result.log_probs)).abs().max().item()
               for mine, result in zip(ours, scored, strict=True))


def test_ctranslate2_export_gives_the_same_log_probs(trained, ct2_float32):
    model, tokenizer = load_model_dir(trained)
    assert max_ct2_difference(model, tokenizer, ct2_float32) <= LOG_PROB_TOLERANCE


def test_a_model_fond_of_pad_and_bos_scores_as_its_exports_and_its_import(tmp_path):
    """The export has no row for pad, and BOS is its <pad>, which CTranslate2 never writes: attnmt's
    log-probs leave both out of the softmax, so a model whose output layer gives them most of each
    step's mass scores a translation as its CTranslate2 export and its export's import do.  Counted
    in attnmt's softmax, every token's log-prob was off by log(1 - p(pad) - p(BOS)): here whole units."""
    need("transformers")
    need("ctranslate2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus is too small for the asked size
        tokenizer = Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=60)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=32, n_heads=4, encoder_layers=1,
                               decoder_layers=2, d_ff=64, dropout=0.0, max_positions=64, output_bias=True)
    torch.manual_seed(0)
    model = fond_of_pad(Transformer(config).eval())
    save_weights(model, tmp_path / "model" / WEIGHTS)
    save_model_config(config, tmp_path / "model")
    tokenizer.save(tmp_path / "model" / "spm.model")
    ct2 = export.export_ctranslate2(tmp_path / "model", tmp_path / "ct2")
    assert max_ct2_difference(model, tokenizer, ct2) <= LOG_PROB_TOLERANCE
    export.export_marian(tmp_path / "model", tmp_path / "marian")
    assert main(["import", "--from-marian", str(tmp_path / "marian"), "--out", str(tmp_path / "back")]) == 0
    back, _ = load_model_dir(tmp_path / "back")  # Marian's ids
    to_marian = {a: m for m, a in enumerate(marian_order(config))}
    sources, targets = [tokenizer.encode(s) for s, _ in PAIRS], [tokenizer.encode(t) for _, t in PAIRS]
    ours = attnmt_log_probs(model, sources, targets)
    theirs = attnmt_log_probs(back, *([[to_marian[i] for i in ids] for ids in side] for side in (sources, targets)))
    assert max((a - b).abs().max().item() for a, b in zip(ours, theirs, strict=True)) <= LOG_PROB_TOLERANCE


@pytest.mark.parametrize("changes", [
    dict(positional_layout="half", activation="gelu", tie_embeddings=False, scale_embeddings=False, output_bias=True),
    dict(activation="swish", tie_embeddings=False, tie_output=True),
], ids=["untied-gelu-unscaled-bias", "tied-output-swish"])
def test_export_of_every_option_marian_has_gives_the_same_numbers(tmp_path, changes):
    transformers = need("transformers")
    need("ctranslate2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus is too small for the asked size
        tokenizer = Tokenizer.train([s for pair in PAIRS for s in pair], vocab_size=60)
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=32, n_heads=4, encoder_layers=1,
                               decoder_layers=2, d_ff=64, dropout=0.0, max_positions=64, **changes)
    torch.manual_seed(0)
    model = Transformer(config).eval()
    if config.output_bias:
        torch.nn.init.normal_(model.output.bias)
    save_weights(model, tmp_path / "model" / WEIGHTS)
    save_model_config(config, tmp_path / "model")
    tokenizer.save(tmp_path / "model" / "spm.model")
    marian = export.export_marian(tmp_path / "model", tmp_path / "marian")
    assert max_export_difference(model, tokenizer, transformers.MarianMTModel.from_pretrained(marian)) <= TOLERANCE
    ct2 = export.export_ctranslate2(tmp_path / "model", tmp_path / "ct2")
    assert max_ct2_difference(model, tokenizer, ct2) <= LOG_PROB_TOLERANCE


def tagged_model(folder: Path, **changes) -> Path:
    """A tiny random model whose SentencePiece model has the language tag >>de<< among its pieces."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the corpus is too small for the asked size
        tokenizer = Tokenizer.train([f">>de<< {s}" for pair in PAIRS for s in pair], vocab_size=60,
                                    user_defined_symbols=[">>de<<"])
    config = TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2, encoder_layers=1,
                               decoder_layers=1, d_ff=32, max_positions=64, **changes)
    save_weights(Transformer(config), folder / WEIGHTS)
    save_model_config(config, folder)
    tokenizer.save(folder / "spm.model")
    return folder


def test_a_model_reading_its_language_tag_alone_reads_the_ids_its_export_and_import_read(tmp_path):
    """attnmt read ">>de<< a dog runs" as ["▁", ">>de<<", "▁a", ...], MarianTokenizer its export as
    [">>de<<", "▁a", ...] (the leading tag split off before SentencePiece): other ids, other translations.
    A model trained since (language_token_alone) reads the tag as MarianTokenizer does."""
    transformers = need("transformers")
    model_dir = tagged_model(tmp_path / "model", language_token_alone=True)
    model, tokenizer = load_model_dir(model_dir)
    marian = export.export_marian(model_dir, tmp_path / "marian")
    _, imported = load_model_dir(marian_import.import_marian(marian, tmp_path / "back"))
    to_marian = {a: m for m, a in enumerate(marian_order(model.config))}
    sentences = [">>de<< a dog runs", ">>de<<a cat sleeps", ">>de<<", "two >>de<< dogs run", " >>de<< a dog runs"]
    expected = transformers.MarianTokenizer.from_pretrained(marian)(sentences)["input_ids"]
    assert [[to_marian[i] for i in tokenizer.encode(s)] for s in sentences] == expected
    assert [imported.encode(s) for s in sentences] == expected
    assert export.reading_notes(model_dir) == []


def test_exporting_a_model_that_reads_its_language_tag_after_a_space_warns_in_one_line(tmp_path):
    """A model trained before language_token_alone (its config.json lacks it) read ">>de<< a dog" as ["▁", ">>de<<",
    "▁a", ...], as it keeps doing; its export is read [">>de<<", "▁a", ...], so ``attnmt export`` says so."""
    model_dir = tagged_model(tmp_path / "model")
    assert "language_token_alone" not in json.loads((model_dir / "config.json").read_text())
    assert load_model_dir(model_dir)[1].pieces(">>de<< a dog")[:2] == ["▁", ">>de<<"]
    assert export.reading_notes(model_dir) == [
        "warning: this model was trained reading a leading language tag (>>de<<) after a '▁'; MarianTokenizer and "
        "CTranslate2's users read it without one, so a line that starts with it may translate differently there"]


def test_ctranslate2_int8_export_is_smaller_and_still_translates(trained, ct2_float32, tmp_path):
    out = tmp_path / "int8"
    assert main(["export", "--model", str(trained), "--format", "ctranslate2", "--quantization", "int8",
                 "--out", str(out)]) == 0
    assert (out / "model.bin").stat().st_size < (ct2_float32 / "model.bin").stat().st_size
    model, tokenizer = load_model_dir(trained)
    reference = translate(model, tokenizer, SOURCES, Decoding(beam_size=1))
    agree = sum(a == b for a, b in zip(ct2_translate(out, SOURCES, tokenizer), reference, strict=True))
    assert agree >= 15  # 20 of 20 measured; int8 rounding may flip a close call


def test_ctranslate2_export_does_not_recommend_sacremoses(trained, tmp_path):
    need("ctranslate2")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # over this module's filter of the hint
        export.export_ctranslate2(trained, tmp_path / "ct2")
    assert [str(warning.message) for warning in caught if "sacremoses" in str(warning.message)] == []


def test_export_refuses_a_directory_that_is_not_empty(trained, tmp_path, capsys):
    need("transformers")
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["export", "--model", str(trained), "--format", "marian", "--out", str(tmp_path)]) == 2
    assert "not an empty directory" in capsys.readouterr().err


def test_export_then_import_gives_back_the_same_model(trained, exported, tmp_path):
    assert main(["import", "--from-marian", str(exported), "--out", str(tmp_path / "back")]) == 0
    model, tokenizer = load_model_dir(trained)
    back, _ = load_model_dir(tmp_path / "back")  # Marian's ids now
    order = marian_order(model.config)
    to_marian = {a: m for m, a in enumerate(order)} | {0: len(order) - 1}
    src, tgt_in = teacher_forced_batch(tokenizer)
    ours = attnmt_logits(model, src, tgt_in)
    ours_beams = [[to_marian[i] for i in h[0].tokens] for h in beam_search(model, src)]
    src, tgt_in = src.apply_(to_marian.get), tgt_in.apply_(to_marian.get)
    assert (ours[..., order] - attnmt_logits(back, src, tgt_in)).abs().max().item() <= TOLERANCE
    assert [h[0].tokens for h in beam_search(back, src)] == ours_beams


@pytest.mark.parametrize("beam_size", [1, 4])
def test_imported_trained_marian_translates_like_transformers(exported, hf, tmp_path, beam_size):
    """Both sides follow Marian's conventions here: the source ends with </s>."""
    model, tokenizer = load_model_dir(marian_import.import_marian(exported, tmp_path / "imported"))
    hf_model, hf_tokenizer = hf
    generated = hf_model.generate(**hf_tokenizer(SOURCES, return_tensors="pt", padding=True),
                                  num_beams=beam_size, length_penalty=0.0)
    expected = hf_tokenizer.batch_decode(generated, skip_special_tokens=True)
    assert translate(model, tokenizer, SOURCES, Decoding(beam_size=beam_size, alpha=0.0)) == expected


# ---------------------------------------------------------------- random Marian models, imported

MARIAN_VARIANTS = {
    # OPUS-MT's own settings: one shared vocabulary, tied embeddings, swish, scaled embeddings.
    "opus-mt": dict(activation_function="swish", scale_embedding=True),
    # OPUS-MT's usual files: a SentencePiece model per side, one vocab.json with the pieces of both.
    "opus-mt-two-models": dict(two_models=True, activation_function="swish", scale_embedding=True),
    "separate-vocabularies": dict(separate=True, activation_function="gelu", scale_embedding=False),
    "untied-output": dict(activation_function="relu", tie_word_embeddings=False),
}


def random_target(rows: int, start: int) -> torch.Tensor:
    """Decoder inputs [rows, 9]: the start token, then random ids valid in every variant's target vocabulary."""
    tgt_in = torch.randint(3, 30, (rows, 9), generator=torch.Generator().manual_seed(0))
    tgt_in[:, 0] = start
    return tgt_in


@pytest.fixture(scope="module", params=sorted(MARIAN_VARIANTS))
def marian(request, tmp_path_factory):
    """(HF directory, MarianMTModel, MarianTokenizer, imported attnmt directory) for one variant."""
    transformers = need("transformers")
    folder = tmp_path_factory.mktemp(request.param)
    hf_dir = write_random_marian(folder / "hf", **MARIAN_VARIANTS[request.param])
    imported = marian_import.import_marian(hf_dir, folder / "attnmt")
    return (hf_dir, transformers.MarianMTModel.from_pretrained(hf_dir).eval(),
            transformers.MarianTokenizer.from_pretrained(hf_dir), imported)


def test_imported_marian_reads_text_like_marian_tokenizer(marian):
    _, _, hf_tokenizer, imported = marian
    _, tokenizer = load_model_dir(imported)
    sentences = [*SOURCES, ">>deu<< a dog runs", "ünknöwn çharacters"]  # a language token, unknown pieces
    assert [tokenizer.encode(s) for s in sentences] == hf_tokenizer(sentences)["input_ids"]


def test_imported_marian_gives_identical_logits(marian):
    _, hf_model, hf_tokenizer, imported = marian
    model, _ = load_model_dir(imported)
    src = hf_tokenizer(SOURCES, return_tensors="pt", padding=True)["input_ids"]
    tgt_in = random_target(len(SOURCES), model.config.bos_id)  # Marian's decoder starts from <pad>
    ours = attnmt_logits(model, src, tgt_in)
    assert (ours - marian_logits(hf_model, src, tgt_in, model.config.pad_id)).abs().max().item() <= TOLERANCE


def test_imported_marian_decodes_greedily_like_transformers(marian):
    _, hf_model, hf_tokenizer, imported = marian
    model, tokenizer = load_model_dir(imported)
    c = model.config
    for sentence in SOURCES[:6]:
        src = torch.tensor([tokenizer.encode(sentence)])
        limit = DEFAULT.max_output_length(src.size(1), c.longest_input)
        generated = hf_model.generate(src, num_beams=1, max_new_tokens=limit, bad_words_ids=[[c.pad_id]])
        theirs = generated[0, 1:].tolist()
        theirs = theirs[: theirs.index(c.eos_id)] if c.eos_id in theirs else theirs
        assert greedy_search(model, src)[0] == theirs


def test_marian_import_then_export_gives_back_the_same_model(marian, tmp_path):
    hf_dir, hf_model, hf_tokenizer, imported = marian
    back = export.export_marian(imported, tmp_path / "back")
    for name in ("vocab.json", "target_vocab.json"):  # the ids are kept
        if (hf_dir / name).exists():
            assert json.loads((back / name).read_text()) == json.loads((hf_dir / name).read_text())
    again = need("transformers").MarianMTModel.from_pretrained(back).eval()
    src = hf_tokenizer(SOURCES, return_tensors="pt", padding=True)["input_ids"]
    tgt_in = random_target(len(SOURCES), hf_model.config.decoder_start_token_id)
    pad = hf_model.config.pad_token_id
    difference = marian_logits(again, src, tgt_in, pad) - marian_logits(hf_model, src, tgt_in, pad)
    assert difference.abs().max().item() <= TOLERANCE


def test_ctranslate2_export_needs_one_shared_vocabulary(tmp_path):
    need("ctranslate2")
    hf_dir = write_random_marian(tmp_path / "hf", separate=True)
    imported = marian_import.import_marian(hf_dir, tmp_path / "attnmt")
    with pytest.raises(ConversionError, match="one vocabulary shared"):
        export.export_ctranslate2(imported, tmp_path / "ct2")
