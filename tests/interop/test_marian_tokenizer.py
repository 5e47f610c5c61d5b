"""An imported Marian model writes its translations' text as MarianTokenizer does, in OPUS-MT's usual
layout too: a source and a target SentencePiece model and one vocab.json holding the pieces of both."""

import os
import random

import pytest
from support import write_random_marian

from attnmt.errors import ConfigError
from attnmt.text.vocab_tokenizer import VocabTokenizer

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never reach the Hub
pytestmark = pytest.mark.filterwarnings("ignore:Recommended. pip install sacremoses")


@pytest.fixture(scope="module", params=["two-models", "shared", "separate"])
def tokenizers(request, tmp_path_factory):
    """(attnmt's VocabTokenizer, transformers' MarianTokenizer) of one tiny Marian directory."""
    transformers = pytest.importorskip("transformers", reason="transformers is optional: pip install 'attnmt[export]'")
    layout = {"two-models": dict(two_models=True), "shared": {}, "separate": dict(separate=True)}[request.param]
    hf_dir = write_random_marian(tmp_path_factory.mktemp(request.param) / "hf", **layout)
    return VocabTokenizer.load(hf_dir), transformers.MarianTokenizer.from_pretrained(hf_dir)


def test_decode_writes_what_marian_tokenizer_writes_for_any_ids(tokenizers):
    ours, theirs = tokenizers
    rng = random.Random(0)
    words = [i for i in ours.target_vocab.values() if i != ours.eos_id]  # <pad> and <unk> among them
    for _ in range(2000):
        ids = rng.choices(words, k=rng.randrange(12))
        after = rng.choices(words, k=2)  # attnmt stops at </s>; transformers leaves out every special id
        assert ours.decode([*ids, ours.eos_id, *after]) == theirs.decode(ids, skip_special_tokens=True), ids


def test_a_piece_only_the_source_model_knows_is_written_with_spaces_and_unk_is_left_out(tmp_path):
    hf_dir = write_random_marian(tmp_path / "hf", two_models=True)
    tokenizer = VocabTokenizer.load(hf_dir)
    ids = [tokenizer.target_vocab[p] for p in ("▁ein", "▁dog", "<unk>", "▁sing", "s")]  # ▁dog, ▁sing: English's
    assert tokenizer.decode([*ids, tokenizer.eos_id]) == "ein dog sings"


@pytest.mark.parametrize("method", ["encode_batch", "encode_target_batch"])
def test_one_string_given_to_a_batch_encoder_is_refused(tmp_path, method):
    tokenizer = VocabTokenizer.load(write_random_marian(tmp_path / "hf"))
    with pytest.raises(ConfigError, match=r"^texts: expected a list of texts, got str; pass \[text\] for one$"):
        getattr(tokenizer, method)("A dog")
