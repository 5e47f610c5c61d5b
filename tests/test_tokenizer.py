import pytest

from attnmt.tokenizer import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Tokenizer, sample_sentences

CORPUS = [
    "A man rides a bike down the street.",
    "Ein Mann fährt mit dem Fahrrad die Straße hinunter.",
    "Two dogs are playing in the snow.",
    "Zwei Hunde spielen im Schnee.",
    "A little girl climbs into a wooden playhouse.",
    "Ein kleines Mädchen klettert in ein Spielhaus aus Holz.",
    "A woman is reading a book on a bench.",
    "Eine Frau liest ein Buch auf einer Bank.",
    "Children are running across the green field.",
    "Kinder laufen über die grüne Wiese.",
    "An old man sells fruit at the market.",
    "Ein älterer Mann verkauft Obst auf dem Markt.",
    "The boy jumps into the cold lake.",
    "Der Junge springt in den kalten See.",
    "A group of people stand outside a café.",
    "Eine Gruppe von Menschen steht vor einem Café.",
    "Two women are talking on the phone.",
    "Zwei Frauen telefonieren miteinander.",
    "A musician plays the guitar on stage.",
    "Ein Musiker spielt auf der Bühne Gitarre.",
]


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    return Tokenizer.train(CORPUS, vocab_size=100)


def test_decode_of_encode_gives_back_the_text(tokenizer):
    for sentence in ["Zwei Hunde spielen im Schnee.", "Ein älterer Mann verkauft Obst.",
                     "Kinder laufen über die grüne Wiese.", "A woman is reading a book."]:
        assert tokenizer.decode(tokenizer.encode(sentence)) == sentence


def test_special_ids_are_0_to_3_with_their_pieces(tokenizer):
    assert (PAD_ID, UNK_ID, BOS_ID, EOS_ID) == (0, 1, 2, 3)
    pieces = [tokenizer.id_to_piece(i) for i in range(4)]
    assert pieces == ["<pad>", "<unk>", "<s>", "</s>"]


def test_encode_adds_no_bos_or_eos(tokenizer):
    ids = tokenizer.encode("Two dogs are playing in the snow.")
    assert BOS_ID not in ids and EOS_ID not in ids


def test_unseen_character_encodes_as_unk(tokenizer):
    assert UNK_ID in tokenizer.encode("€")


def test_training_twice_gives_the_same_model(tokenizer):
    again = Tokenizer.train(CORPUS, vocab_size=100)
    assert again.model_proto == tokenizer.model_proto
    assert again.encode_batch(CORPUS) == tokenizer.encode_batch(CORPUS)


def test_sample_of_a_small_corpus_is_all_of_it_in_order():
    assert sample_sentences(iter(CORPUS), k=100, seed=0) == CORPUS


def test_sample_of_a_large_corpus_has_k_distinct_sentences_chosen_by_the_seed():
    corpus = [f"sentence {i}" for i in range(1000)]
    sample = sample_sentences(iter(corpus), k=10, seed=0)
    assert len(set(sample)) == 10 and set(sample) <= set(corpus)
    assert sample_sentences(iter(corpus), k=10, seed=0) == sample
    assert sample_sentences(iter(corpus), k=10, seed=1) != sample


def test_training_on_a_subsampled_corpus_is_deterministic(monkeypatch):
    monkeypatch.setattr("attnmt.tokenizer.MAX_TRAINING_SENTENCES", 12)
    first = Tokenizer.train(CORPUS, vocab_size=60)
    assert Tokenizer.train(CORPUS, vocab_size=60).model_proto == first.model_proto


def test_vocab_size_is_what_was_asked_when_the_corpus_allows_it(tokenizer):
    assert tokenizer.vocab_size == 100


def test_tiny_corpus_with_vocab_8000_trains_with_a_smaller_vocab_and_warns():
    with pytest.warns(UserWarning, match="vocab_size=8000"):
        tok = Tokenizer.train(CORPUS, vocab_size=8000)
    assert 4 < tok.vocab_size < 8000
    assert tok.decode(tok.encode(CORPUS[1])) == CORPUS[1]


def test_bpe_model_type_trains(tokenizer):
    tok = Tokenizer.train(CORPUS, vocab_size=100, model_type="bpe")
    assert tok.decode(tok.encode(CORPUS[3])) == CORPUS[3]


def test_encode_batch_matches_encode(tokenizer):
    assert tokenizer.encode_batch(CORPUS[:3]) == [tokenizer.encode(s) for s in CORPUS[:3]]


def test_save_then_load_gives_the_same_tokenizer(tokenizer, tmp_path):
    path = tmp_path / "spm.model"
    tokenizer.save(path)
    loaded = Tokenizer.load(path)
    assert loaded.model_proto == tokenizer.model_proto
    assert loaded.encode(CORPUS[0]) == tokenizer.encode(CORPUS[0])
    assert [p.name for p in tmp_path.iterdir()] == ["spm.model"]  # no temporary file left


def test_load_of_missing_file_names_the_path(tmp_path):
    path = tmp_path / "missing.model"
    with pytest.raises(FileNotFoundError, match="missing.model"):
        Tokenizer.load(path)


def test_load_of_garbage_file_names_the_path(tmp_path):
    path = tmp_path / "garbage.model"
    path.write_bytes(b"this is not a sentencepiece model")
    with pytest.raises(ValueError, match="garbage.model"):
        Tokenizer.load(path)


def test_decode_skips_pad_and_bos_and_stops_at_eos(tokenizer):
    ids = tokenizer.encode("Zwei Hunde")
    after_eos = tokenizer.encode("im Schnee")
    assert tokenizer.decode([BOS_ID, *ids, EOS_ID, *after_eos, PAD_ID]) == "Zwei Hunde"
    assert tokenizer.decode([BOS_ID, *ids, PAD_ID, PAD_ID]) == "Zwei Hunde"


def test_pieces_concatenate_to_the_text(tokenizer):
    pieces = tokenizer.pieces("Zwei Hunde spielen")
    assert len(pieces) == len(tokenizer.encode("Zwei Hunde spielen"))
    assert "".join(pieces).replace("\u2581", " ").strip() == "Zwei Hunde spielen"


def test_id_to_piece_out_of_range_raises(tokenizer):
    with pytest.raises(IndexError, match="outside the vocabulary"):
        tokenizer.id_to_piece(tokenizer.vocab_size)
