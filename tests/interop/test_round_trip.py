"""The round trip users of the peers ask for: a Marian (OPUS-MT-style) model -> attnmt import ->
fine-tune on your own pairs -> export to Marian and to CTranslate2 -> the same greedy translations
in every tool, each reading the text with its own default tokenization for Marian models.

The Marian model is made here with random weights and a vocabulary trained on 300 Multi30k
pairs: nothing is downloaded.
"""

import json
import os
from pathlib import Path

import pytest
from support import tiny_config, write_pairs, write_random_marian

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.interop import export, marian_import
from attnmt.text.parallel_text import read_parallel
from attnmt.training.trainer import Trainer

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")

MULTI30K = Path(__file__).parents[2] / "data" / "multi30k"
LIMIT = 12  # output tokens at most: a model fine-tuned this briefly need not stop by itself


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory):
    """(the imported model, the fine-tuned one, validation loss before and after, validation sources)."""
    pytest.importorskip("transformers", reason="transformers is optional: pip install 'attnmt[export]'")
    folder = tmp_path_factory.mktemp("round_trip")
    pairs, _ = read_parallel(MULTI30K / "train.en.gz", MULTI30K / "train.de.gz")
    train_pairs, valid_pairs = pairs[:300], pairs[300:330]
    hf_dir = write_random_marian(folder / "hf", pairs=train_pairs, size=200,
                                 activation_function="swish", scale_embedding=True)  # OPUS-MT's settings
    imported = marian_import.import_marian(hf_dir, folder / "imported")
    train_src, train_tgt = write_pairs(folder, "train", train_pairs)
    valid_src, valid_tgt = write_pairs(folder, "valid", valid_pairs)
    config = tiny_config(folder, init_from=str(imported), vocab_size=None, model={}, train_src=str(train_src),
                         train_tgt=str(train_tgt), valid_src=str(valid_src), valid_tgt=str(valid_tgt),
                         learning_rate=1e-3, warmup_steps=10, max_steps=50, eval_every=50, eval_metric="loss",
                         max_len=62)  # the imported model reads 62 tokens (64 positions)
    trainer = Trainer(config, progress=False)
    before = trainer.validation_loss()
    tuned = trainer.train().model_dir
    losses = [json.loads(line)["valid_loss"] for line in (tuned / "log.jsonl").read_text().splitlines()
              if "valid_loss" in line]
    return imported, tuned, before, losses, [s for s, _ in valid_pairs[:12]]


def test_fine_tuning_an_imported_marian_model_lowers_the_validation_loss(round_trip):
    _, _, before, losses, _ = round_trip
    assert len(losses) == 1 and losses[0] < before - 0.3, (before, losses)


def test_the_fine_tuned_model_keeps_marians_ids_and_files(round_trip):
    imported, tuned, *_ = round_trip
    for name in ("vocab.json", "source.spm", "target.spm"):
        assert (tuned / name).read_bytes() == (imported / name).read_bytes()
    assert json.loads((tuned / "config.json").read_text()) == json.loads((imported / "config.json").read_text())
    model, _ = load_model_dir(tuned)
    assert model.config.bos_id == model.config.pad_id  # Marian's decoder starts from <pad>


def attnmt_greedy(model_dir: Path, sources: list[str]) -> list[str]:
    model, tokenizer = load_model_dir(model_dir)
    return translate(model, tokenizer, sources, Decoding(beam_size=1, max_len_a=0.0, max_len_b=LIMIT))


def test_the_marian_export_translates_like_attnmt_through_marian_tokenizer_defaults(round_trip, tmp_path):
    transformers = pytest.importorskip("transformers")
    _, tuned, _, _, sources = round_trip
    out = export.export_marian(tuned, tmp_path / "marian")
    hf_model = transformers.MarianMTModel.from_pretrained(out).eval()
    hf_tokenizer = transformers.MarianTokenizer.from_pretrained(out)
    batch = hf_tokenizer(sources, return_tensors="pt", padding=True)
    # LIMIT + 1: Marian forces </s> into the last place, attnmt ends a cut output after LIMIT tokens
    generated = hf_model.generate(**batch, num_beams=1, max_new_tokens=LIMIT + 1)
    translations = hf_tokenizer.batch_decode(generated, skip_special_tokens=True)
    assert translations == attnmt_greedy(tuned, sources)
    assert len(set(translations)) > 1  # the sentences do not all come out alike


def test_the_ctranslate2_export_translates_like_attnmt_with_its_documented_tokenization(round_trip, tmp_path):
    ctranslate2 = pytest.importorskip("ctranslate2", reason="ctranslate2 is optional: pip install 'attnmt[export]'")
    transformers = pytest.importorskip("transformers")
    _, tuned, _, _, sources = round_trip
    marian = export.export_marian(tuned, tmp_path / "marian")
    out = export.export_ctranslate2(tuned, tmp_path / "ct2")
    # CTranslate2's guide for Marian models: the Hugging Face tokenizer's tokens, </s> included.
    hf_tokenizer = transformers.MarianTokenizer.from_pretrained(marian)
    translator = ctranslate2.Translator(str(out), device="cpu", intra_threads=1)
    tokens = [hf_tokenizer.convert_ids_to_tokens(hf_tokenizer.encode(s)) for s in sources]
    results = translator.translate_batch(tokens, beam_size=1, max_decoding_length=LIMIT)
    translations = [hf_tokenizer.decode(hf_tokenizer.convert_tokens_to_ids(r.hypotheses[0]), skip_special_tokens=True)
                    for r in results]
    assert translations == attnmt_greedy(tuned, sources)
