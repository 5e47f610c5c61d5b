"""Import from Marian follows what transformers reads, where a config.json or a stray file says more:
decoder_vocab_size with shared embeddings, target_vocab.json without separate_vocabs, shared
embeddings with an untied output; and an export of a model that reads sources without </s> comes back
reading them so."""

import json
import os
import shutil

import pytest
import torch
from support import PAIRS, write_random_marian

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning
from attnmt.interop import export, marian_import

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")

SOURCES = [s for s, _ in PAIRS[:6]]


def transformers_and_ours(hf_dir, imported):
    """Logits of the Marian directory as transformers loads it, and of the imported model, for SOURCES."""
    transformers = pytest.importorskip("transformers")
    hf_model = transformers.MarianMTModel.from_pretrained(hf_dir).eval()
    src = transformers.MarianTokenizer.from_pretrained(hf_dir)(SOURCES, return_tensors="pt", padding=True)
    model, _ = load_model_dir(imported)
    tgt_in = torch.randint(3, 30, (len(SOURCES), 7), generator=torch.Generator().manual_seed(0))
    tgt_in[:, 0] = model.config.bos_id
    with torch.no_grad():
        theirs = hf_model(**src, decoder_input_ids=tgt_in).logits
        ours = model(src["input_ids"], tgt_in)
    return theirs, ours


def test_decoder_vocab_size_is_ignored_with_shared_embeddings_as_transformers_ignores_it(tmp_path):
    """The import crashed with PyTorch's report of three tensors' sizes."""
    hf_dir = write_random_marian(tmp_path / "hf")
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "decoder_vocab_size": config["vocab_size"] + 7}))
    imported = marian_import.import_marian(hf_dir, tmp_path / "attnmt")
    theirs, ours = transformers_and_ours(hf_dir, imported)
    assert ours.shape[-1] == config["vocab_size"] and (ours - theirs).abs().max().item() <= 1e-4


def test_a_decoder_vocab_size_without_room_for_pad_is_one_line_as_transformers_cannot_build_it(tmp_path):
    """transformers builds the decoder's own embeddings (then replaced by the shared ones) around <pad>."""
    hf_dir = write_random_marian(tmp_path / "hf")  # <pad> last
    config = json.loads((hf_dir / "config.json").read_text())
    (hf_dir / "config.json").write_text(json.dumps({**config, "decoder_vocab_size": config["vocab_size"] - 5}))
    with pytest.raises(marian_import.ConversionError, match=r"config.json: transformers cannot build the model it "
                                                            r"describes \(Padding_idx must be within num_embeddings"):
        marian_import.import_marian(hf_dir, tmp_path / "attnmt")


def test_target_vocab_json_is_ignored_unless_tokenizer_config_says_separate_vocabs(tmp_path):
    """A stray target_vocab.json renumbered the target's pieces: "Katze" came out for "Hund"."""
    hf_dir = write_random_marian(tmp_path / "hf")
    vocab = json.loads((hf_dir / "vocab.json").read_text())
    assert json.loads((hf_dir / "tokenizer_config.json").read_text())["separate_vocabs"] is False
    swapped = {**vocab, "<unk>": vocab["<pad>"], "<pad>": vocab["<unk>"]}
    (hf_dir / "target_vocab.json").write_text(json.dumps(swapped))
    with pytest.warns(AttnmtWarning, match=r"target_vocab.json: ignored, as tokenizer_config.json does not say"):
        imported = marian_import.import_marian(hf_dir, tmp_path / "attnmt")
    _, tokenizer = load_model_dir(imported)
    assert tokenizer.target_vocab == vocab and not (imported / "target_vocab.json").exists()


def test_separate_vocabs_without_target_vocab_json_is_one_line_naming_the_file(tmp_path):
    hf_dir = write_random_marian(tmp_path / "hf", separate=True)
    (hf_dir / "target_vocab.json").unlink()
    with pytest.raises(marian_import.ConversionError, match=r"target_vocab.json: not found, but .*says separate_"):
        marian_import.import_marian(hf_dir, tmp_path / "attnmt")


def test_shared_embeddings_with_an_untied_output_are_imported_with_a_warning(tmp_path):
    hf_dir = write_random_marian(tmp_path / "hf", tie_word_embeddings=False)
    with pytest.warns(AttnmtWarning, match=r"config.json: attnmt has no model that shares the source and target "):
        imported = marian_import.import_marian(hf_dir, tmp_path / "attnmt")
    theirs, ours = transformers_and_ours(hf_dir, imported)
    assert (ours - theirs).abs().max().item() <= 1e-4


def test_a_model_reading_sources_without_eos_comes_back_from_its_export_reading_them_so(trained_model, tmp_path):
    """The import added </s> to every source: after export and import, many translations changed."""
    transformers = pytest.importorskip("transformers")
    old = shutil.copytree(trained_model, tmp_path / "old")
    config = json.loads((old / "config.json").read_text())
    (old / "config.json").write_text(json.dumps({k: v for k, v in config.items() if k != "source_eos"}))
    marian = export.export_marian(old, tmp_path / "marian")
    assert json.loads((marian / "config.json").read_text())["attnmt_source_eos"] is False
    back = marian_import.import_marian(marian, tmp_path / "back")
    model, tokenizer = load_model_dir(back)
    hf_tokenizer = transformers.MarianTokenizer.from_pretrained(marian)
    assert [tokenizer.encode(s) for s in SOURCES] == hf_tokenizer(SOURCES, add_special_tokens=False)["input_ids"]
    assert export.reading_notes(back)  # exported again, it says so again
    decoding = Decoding(beam_size=1)
    assert translate(model, tokenizer, SOURCES, decoding) == translate(*load_model_dir(old), SOURCES, decoding)
