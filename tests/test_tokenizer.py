import io
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import sentencepiece
import torch

from attnmt.errors import ConfigError, DataError
from attnmt.text import tokenizer_training
from attnmt.text.tokenizer import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Tokenizer
from attnmt.text.tokenizer_files import read_tokenizer
from attnmt.text.tokenizer_training import as_trained, sample_sentences, train_sentencepiece, trained_options

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


def test_the_source_ends_with_eos_and_the_target_has_neither(tokenizer):
    source = tokenizer.encode("Two dogs are playing in the snow.")
    target = tokenizer.encode_target("Two dogs are playing in the snow.")
    assert source == [*target, EOS_ID] and BOS_ID not in source
    assert EOS_ID not in target and BOS_ID not in target


def test_without_source_eos_the_source_reads_as_before_0_2(tokenizer):
    old_style = Tokenizer(tokenizer.model_proto, source_eos=False)
    assert old_style.encode(CORPUS[2]) == tokenizer.encode_target(CORPUS[2])
    assert old_style.pieces(CORPUS[2])[-1] != "</s>"


def test_text_with_no_pieces_stays_empty(tokenizer):
    assert tokenizer.encode("  \u200b ") == [] and tokenizer.pieces("") == []


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
    monkeypatch.setattr("attnmt.text.tokenizer_training.MAX_TRAINING_SENTENCES", 12)
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


def test_pieces_concatenate_to_the_text_then_eos(tokenizer):
    pieces = tokenizer.pieces("Zwei Hunde spielen")
    assert len(pieces) == len(tokenizer.encode("Zwei Hunde spielen"))
    assert "".join(pieces[:-1]).replace("\u2581", " ").strip() == "Zwei Hunde spielen"
    assert pieces[-1] == "</s>"


def test_id_to_piece_out_of_range_raises(tokenizer):
    with pytest.raises(IndexError, match="outside the vocabulary"):
        tokenizer.id_to_piece(tokenizer.vocab_size)


@pytest.mark.parametrize("bad", [99999, -5])
def test_decode_of_an_id_out_of_range_names_it(tokenizer, bad):
    with pytest.raises(IndexError, match=rf"^token id {bad} is outside the vocabulary 0\.\.99$"):
        tokenizer.decode([5, bad])


# any SentencePiece model, options, separate vocabularies


def spm_train_defaults(**options) -> bytes:
    """A model as `spm_train` makes it by default: <unk>=0, <s>=1, </s>=2 and no <pad>."""
    writer = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(sentence_iterator=iter(CORPUS), model_writer=writer,
                                             vocab_size=60, minloglevel=2, **options)
    return writer.getvalue()


@pytest.mark.parametrize("model_type", ["unigram", "bpe", "char", "word"])
def test_a_plain_sentencepiece_model_is_renumbered_and_segments_as_before(model_type):
    proto = spm_train_defaults(model_type=model_type)
    plain = sentencepiece.SentencePieceProcessor(model_proto=proto)
    assert (plain.unk_id(), plain.bos_id(), plain.eos_id(), plain.pad_id()) == (0, 1, 2, -1)
    tokenizer = Tokenizer(proto)
    assert [tokenizer.id_to_piece(i) for i in range(4)] == ["<pad>", "<unk>", "<s>", "</s>"]
    assert tokenizer.vocab_size == plain.get_piece_size() + 1  # <pad> added
    for sentence in [*CORPUS, "Ünbekannte Wörter €"]:
        assert tokenizer.pieces(sentence)[:-1] == plain.encode(sentence, out_type=str)
        assert tokenizer.decode(tokenizer.encode(sentence)) == plain.decode(plain.encode(sentence)).strip()
    assert Tokenizer(tokenizer.model_proto).model_proto == tokenizer.model_proto  # already in the layout


def test_a_model_whose_ordinary_piece_is_named_like_a_special_one_is_refused():
    proto = spm_train_defaults(user_defined_symbols=["<pad>"])
    with pytest.raises(ValueError, match="'<pad>' is an ordinary piece"):
        Tokenizer(proto)


def test_user_defined_symbols_stay_whole():
    tok = Tokenizer.train([f">>de<< {s}" for s in CORPUS], vocab_size=100, user_defined_symbols=[">>de<<", ">>fr<<"])
    assert ">>fr<<" in tok.pieces(">>fr<< Two dogs")  # one piece, though no training sentence had it


def test_a_leading_language_token_is_read_alone_as_marian_tokenizer_reads_it_with_language_token_alone():
    """SentencePiece alone reads ">>de<< Two dogs" as ["▁", ">>de<<", "▁Two", ...], MarianTokenizer (reading an
    export) as [">>de<<", "▁Two", ...]: with language_token_alone (new trainings) attnmt reads it as Marian does."""
    tok = Tokenizer.train([f">>de<< {s}" for s in CORPUS], vocab_size=100, user_defined_symbols=[">>de<<"],
                          language_token_alone=True)
    plain = sentencepiece.SentencePieceProcessor(model_proto=tok.model_proto)
    assert tok.pieces(">>de<< Two dogs") == [">>de<<", *plain.encode("Two dogs", out_type=str), "</s>"]
    assert tok.pieces(">>de<<Two dogs") == tok.pieces(">>de<< Two dogs")  # the rest is read as a text of its own
    assert tok.encode(">>de<< Two dogs") == [tok.piece_to_id(">>de<<"), *plain.encode("Two dogs"), EOS_ID]
    assert tok.encode_batch([">>de<< Two dogs", "Two dogs"]) == [tok.encode(">>de<< Two dogs"), tok.encode("Two dogs")]
    assert tok.encode(">>de<<") == [tok.piece_to_id(">>de<<"), EOS_ID]
    spans = tok.source_spans(">>de<< Two dogs")  # the token's, then the rest's moved past it
    assert spans == [(0, 6), *((begin + 6, end + 6) for begin, end in tok.source_spans(" Two dogs"))]
    assert len(spans) == len(tok.pieces(">>de<< Two dogs")) - 1
    for text in ("Two >>de<< dogs", " >>de<< Two dogs", ">>fr<< Two dogs"):  # not leading, or no piece
        assert tok.pieces(text)[:-1] == plain.encode(text, out_type=str)
    assert tok.decode(tok.encode_target(">>de<< Two dogs")) == ">>de<< Two dogs"  # targets are SentencePiece's
    assert tok.language_tokens == {">>de<<"}


def test_without_language_token_alone_a_leading_language_token_is_read_as_sentencepiece_reads_it():
    """Models trained before language_token_alone (and a Tokenizer not asked for it) keep their ids."""
    tok = Tokenizer.train([f">>de<< {s}" for s in CORPUS], vocab_size=100, user_defined_symbols=[">>de<<"])
    plain = sentencepiece.SentencePieceProcessor(model_proto=tok.model_proto)
    assert tok.pieces(">>de<< Two dogs") == [*plain.encode(">>de<< Two dogs", out_type=str), "</s>"]
    assert tok.pieces(">>de<< Two dogs")[:2] == ["▁", ">>de<<"]
    assert tok.encode_batch([">>de<< Two dogs"]) == [[*plain.encode(">>de<< Two dogs"), EOS_ID]]


def test_character_coverage_below_one_leaves_rare_characters_unknown():
    corpus = [*CORPUS, "Ein Drache: 龍"]
    assert UNK_ID not in Tokenizer.train(corpus, vocab_size=100).encode("龍")
    assert UNK_ID in Tokenizer.train(corpus, vocab_size=100, character_coverage=0.99).encode("龍")


def test_an_unknown_training_option_is_named():
    with pytest.raises(ValueError, match="unknown tokenizer option.*vocabulary_type.*valid: model_type"):
        train_sentencepiece(CORPUS, 60, vocabulary_type="bpe")


def test_a_vocab_size_below_the_texts_characters_names_the_smallest_that_works():
    with pytest.raises(ConfigError, match=r"^vocab_size=10: the training text needs at least \d+ pieces") as refused:
        train_sentencepiece(CORPUS, 10)
    needed = int(re.search(r"use vocab_size (\d+) or more", str(refused.value))[1])
    assert Tokenizer(train_sentencepiece(CORPUS, needed)).vocab_size == needed
    with pytest.raises(ConfigError, match=f"vocab_size={needed - 1}: .* use vocab_size {needed} or more"):
        train_sentencepiece(CORPUS, needed - 1)


def test_separate_vocabularies_read_each_side_with_its_own_model():
    english = train_sentencepiece(CORPUS[0::2], 60)
    german = train_sentencepiece(CORPUS[1::2], 70)
    tok = Tokenizer(english, german)
    assert tok.separate_vocabs and (tok.source_vocab_size, tok.vocab_size) == (60, 70)
    assert tok.pieces("Two dogs")[:-1] == Tokenizer(english).pieces("Two dogs")[:-1]
    ids = tok.encode_target("Zwei Hunde")
    assert ids == Tokenizer(german).encode_target("Zwei Hunde") and tok.decode(ids) == "Zwei Hunde"
    with pytest.raises(ValueError, match="source and a target model"):
        tok.save("anywhere.model")


def test_a_marian_tokenizer_loads_one_sentencepiece_model_shared_by_both_sides_once():
    from support import spm_and_vocab

    from attnmt.text.vocab_tokenizer import VocabTokenizer

    shared, vocab = spm_and_vocab(CORPUS, 60, None)
    english, english_vocab = spm_and_vocab(CORPUS[0::2], 50, None)
    one, two = VocabTokenizer(shared, shared, vocab), VocabTokenizer(english, shared, english_vocab, vocab)
    assert one._source is one._target and two._source is not two._target
    assert one.pieces("Two dogs")[-1] == "</s>" and two.pieces("Two dogs")[-1] == "</s>"
    assert two.decode(two.encode_target("Zwei Hunde")) == one.decode(one.encode_target("Zwei Hunde")) == "Zwei Hunde"


def test_the_repr_names_the_file_read_and_the_number_of_pieces(tokenizer, tmp_path):
    n = tokenizer.vocab_size
    tokenizer.save(tmp_path / "spm.model")
    assert repr(Tokenizer.load(tmp_path / "spm.model")) == f"<Tokenizer {tmp_path}/spm.model: {n} pieces>"
    assert repr(tokenizer) == f"<Tokenizer in memory: {n} pieces>"
    (tmp_path / "spm.source.model").write_bytes(tokenizer.model_proto)
    (tmp_path / "spm.target.model").write_bytes(tokenizer.model_proto)
    separate = read_tokenizer(tmp_path, source_eos=True)
    assert repr(separate) == f"<Tokenizer {tmp_path}/spm.source.model + {tmp_path}/spm.target.model: {n} + {n} pieces>"


def test_decode_leaves_no_space_at_the_end_where_a_lone_word_start_piece_is_last(tokenizer):
    word_start = tokenizer.piece_to_id("▁")
    assert word_start != UNK_ID  # the corpus's numbers and punctuation after a space need it
    ids = tokenizer.encode_target("Zwei Hunde")
    assert tokenizer.decode([*ids, word_start, EOS_ID]) == "Zwei Hunde"


@pytest.mark.parametrize("method", ["encode_batch", "encode_target_batch"])
def test_one_string_given_to_a_batch_encoder_is_refused_not_encoded_a_character_a_line(tokenizer, method):
    with pytest.raises(ConfigError, match=r"^texts: expected a list of texts, got str; pass \[text\] for one$"):
        getattr(tokenizer, method)("A dog")


@pytest.mark.parametrize("train", [Tokenizer.train, train_sentencepiece])
def test_one_string_given_to_train_on_is_refused_not_trained_on_a_character_a_line(train):
    with pytest.raises(ConfigError, match=r"^sentences: expected a list of texts, got str; pass \[text\] for one$"):
        train("data/corpus.en", vocab_size=100)


@pytest.mark.parametrize("sentences", [[], ["", "  "], iter([])])
def test_training_on_no_sentences_says_there_are_none(sentences):
    with pytest.raises(ConfigError, match=r"^the training text has no sentences \(or only empty ones\)"):
        Tokenizer.train(sentences, vocab_size=100)


def unread_sentences():
    """Sentences that fail the test if read: an argument error must come before the corpus is."""
    pytest.fail("the sentences were read")
    yield "never"


@pytest.mark.parametrize("vocab_size", [0, -1, 4, "60", 60.5, True, None])
def test_a_vocab_size_that_is_no_count_of_pieces_is_named_before_the_sentences_are_read(vocab_size):
    """0 and -1 were SentencePiece's C++ ("trainer_interface.cc(78)"), 60.5 and True its "cannot parse
    as int", and "60" trained the whole tokenizer before a TypeError."""
    with pytest.raises(ConfigError, match=r"^vocab_size must be a whole number from 5 to 2,097,152 \(the 4 special "
                                          rf"pieces and at least one more\), got {re.escape(repr(vocab_size))}$"):
        train_sentencepiece(unread_sentences(), vocab_size)


def test_a_whole_vocab_size_of_another_numeric_type_is_taken():
    assert Tokenizer(train_sentencepiece(CORPUS, np.int64(60))).vocab_size == Tokenizer(
        train_sentencepiece(CORPUS, 60.0)).vocab_size == 60


@pytest.mark.parametrize("seed", ["x", None, 1.5, True, 1 << 63])
def test_a_seed_that_is_no_whole_number_is_named_before_the_sentences_are_read(seed):
    """Python's random takes any value as a seed: "x" and None were taken without a word."""
    with pytest.raises(ConfigError, match=r"^seed must be a whole number from -9,223,372,036,854,775,808 to "
                                          rf"9,223,372,036,854,775,807, got {re.escape(repr(seed))}$"):
        train_sentencepiece(unread_sentences(), 60, seed=seed)


@pytest.mark.parametrize("say, shown", [("x", "str 'x'"), (True, "bool True")])
def test_a_say_that_is_no_function_is_named_before_the_sentences_are_read(say, shown):
    """It was taken, and failed as "'str' object is not callable" once the tokenizer was trained."""
    with pytest.raises(ConfigError, match=rf"^say: expected None or a function say\(line\), got {shown}$"):
        train_sentencepiece(unread_sentences(), 60, say=say)


@pytest.mark.parametrize("text, shown", [(3, "int 3"), (None, "NoneType None"), (b"x", "bytes b'x'")])
def test_a_text_name_that_is_no_str_or_path_is_named_before_the_sentences_are_read(text, shown):
    """3 was taken, and named the sentences "3" in the messages that followed."""
    with pytest.raises(ConfigError, match=rf"^text: expected a str or a Path, .*, got {re.escape(shown)}$"):
        train_sentencepiece(unread_sentences(), 60, text=text)


def test_a_text_name_that_is_a_path_names_the_sentences():
    with pytest.raises(ConfigError, match=r"^corpus\.en has no sentences"):
        train_sentencepiece(["", " "], 60, text=Path("corpus.en"))


PARAGRAPH = " ".join(["A dog runs through the park."] * 150)  # 4,349 bytes: a paragraph a line


def test_sentences_each_longer_than_sentencepiece_trains_on_are_refused_saying_so():
    """SentencePiece leaves out every sentence over 4,192 bytes: with none left, its error was "INTERNAL:
    src/trainer_interface.cc(467) [!sentences_.empty()]"."""
    assert len(PARAGRAPH.encode()) == 4349
    with pytest.raises(ConfigError, match=r"^corpus\.en: every sentence is longer than the 4,192 bytes SentencePiece "
                                          r"trains on \(the shortest has 4,349\): give one sentence a line, not a "
                                          "paragraph or a document$"):
        train_sentencepiece([PARAGRAPH, PARAGRAPH + " Again.", ""], 60, text=Path("corpus.en"))


def test_a_few_long_sentences_among_short_ones_are_left_out_of_training_not_refused():
    assert Tokenizer(train_sentencepiece([PARAGRAPH, *CORPUS], 60)).vocab_size == 60


def test_a_whole_seed_of_another_numeric_type_samples_as_that_int():
    assert train_sentencepiece(CORPUS, 60, seed=np.int64(3)) == train_sentencepiece(CORPUS, 60, seed=3.0)


@pytest.mark.parametrize("item, message", [(None, "expected a str, got NoneType"), (7, "expected a str, got int")])
def test_a_sentence_that_is_no_text_is_named_by_its_place(item, message):
    """It was SentencePiece's "Iterator must return str or bytes", with no place."""
    with pytest.raises(ConfigError, match=rf"^sentences\[2\]: {message}$"):
        train_sentencepiece(iter([CORPUS[0], CORPUS[1], item, CORPUS[2]]), 60)


@pytest.mark.parametrize("train", [Tokenizer.train, train_sentencepiece])
def test_a_sentence_that_is_not_valid_unicode_is_named_by_its_place_before_training(train, monkeypatch):
    """A lone surrogate ("\\ud800", as JSON can spell one) was pybind11's "Unable to cast Python
    instance of type <class 'str'> to C++ type '?'", with no place, from inside the training."""
    monkeypatch.setattr(tokenizer_training, "trained_model", lambda *sample, **options: pytest.fail("trained"))
    with pytest.raises(DataError, match=r"^sentences\[2\] is not valid Unicode \(it has an unpaired surrogate\)$"):
        train(iter([CORPUS[0], CORPUS[1], "a \ud800 dog", CORPUS[2]]), vocab_size=60)


def test_a_sentence_given_as_utf8_bytes_is_its_text():
    assert train_sentencepiece([s.encode() for s in CORPUS], 60) == train_sentencepiece(CORPUS, 60)


@pytest.mark.parametrize("symbols, message", [
    ([">>de<<", ">>fr<<", ">>de<<"], r"user_defined_symbols\[2\] is '>>de<<', as user_defined_symbols\[0\] is: "
                                     "give each symbol once"),
    (">>de<<,>>de<<", r"user_defined_symbols\[1\] is '>>de<<', as user_defined_symbols\[0\] is"),
    ([2020, "2020"], r"user_defined_symbols\[1\] is '2020', as user_defined_symbols\[0\] is"),
    ([">>de<<", ""], r"user_defined_symbols\[1\] is empty: leave it out"),
    (">>de<<,,>>fr<<", r"user_defined_symbols\[1\] is empty"),
])
def test_a_user_defined_symbol_given_twice_or_empty_is_named_before_the_sentences_are_read(symbols, message):
    """SentencePiece refused them in its own words: ">>de<< is already defined", "[!sp->piece().empty()]"."""
    with pytest.raises(ConfigError, match=rf"^tokenizer_options: {message}"):
        train_sentencepiece(unread_sentences(), 60, user_defined_symbols=symbols)


@pytest.mark.parametrize("method", ["encode", "encode_target"])
def test_a_list_given_to_a_one_text_encoder_is_refused_not_encoded_as_a_batch(tokenizer, method):
    """encode(["A dog"]) was SentencePiece's batch with attnmt's EOS after it: [[9, 70], 3]."""
    with pytest.raises(ConfigError, match=r"^text: expected a str, got list$"):
        getattr(tokenizer, method)(["A dog"])


def test_a_string_given_to_decode_is_refused_not_read_a_character_an_id(tokenizer):
    with pytest.raises(ConfigError, match=r"^ids: expected token ids \(a list of ints or a 1-D tensor\), got str"):
        tokenizer.decode("123")


def test_a_batch_tensor_given_to_decode_names_its_shape(tokenizer):
    ids = tokenizer.encode_target("Zwei Hunde")
    with pytest.raises(ConfigError, match=rf"^ids: .*got a tensor of shape \[2, {len(ids)}\]; decode a batch one row"):
        tokenizer.decode(torch.tensor([ids, ids]))
    with pytest.raises(ConfigError, match=rf"^ids: .*got a tensor of shape \[1, {len(ids)}, 1\]; decode a batch one"):
        tokenizer.decode(torch.tensor([ids]).unsqueeze(-1))
    assert tokenizer.decode(torch.tensor(ids)) == tokenizer.decode(np.array(ids)) == "Zwei Hunde"


@pytest.mark.parametrize("shaped", [lambda ids: torch.tensor(ids).unsqueeze(1), lambda ids: torch.tensor([ids]),
                                    lambda ids: np.array(ids).reshape(-1, 1)])
def test_a_tensor_of_one_column_or_one_row_is_decoded_as_the_sentence_it_holds(tokenizer, shaped):
    """A greedy loop's torch.cat of [1, 1] steps is [n, 1]: decoded before ids were checked, then refused."""
    assert tokenizer.decode(shaped(tokenizer.encode_target("Zwei Hunde"))) == "Zwei Hunde"


def test_one_id_in_a_0d_tensor_is_refused_as_one_id_not_a_batch(tokenizer):
    with pytest.raises(ConfigError, match=r"^ids: expected a sentence's token ids .*got one id, tensor\(9\); pass "
                                          r"\[id\] for a sentence of one$"):
        tokenizer.decode(torch.tensor(9))


def test_a_marian_tokenizer_refuses_a_list_to_encode_and_a_string_or_floats_to_decode():
    from support import spm_and_vocab

    from attnmt.text.vocab_tokenizer import VocabTokenizer

    shared, vocab = spm_and_vocab(CORPUS, 60, None)
    tok = VocabTokenizer(shared, shared, vocab)
    with pytest.raises(ConfigError, match=r"^text: expected a str, got list$"):
        tok.encode(["A dog"])
    with pytest.raises(ConfigError, match=r"^ids: expected token ids .*got str"):
        tok.decode("123")
    ids = tok.encode_target("a dog runs")
    assert tok.decode(torch.tensor(ids).unsqueeze(1)) == tok.decode(ids)  # a greedy loop's [n, 1]
    with pytest.raises(ConfigError, match=r"^text: expected a str, got list$"):
        tok.pieces(["A dog"])
    with pytest.raises(ConfigError, match=r"^ids: expected token ids of an integer type, got 5\.0 \(float\); "):
        tok.decode([5.0])


@pytest.mark.parametrize("method", ["pieces", "source_spans", "target_spans"])
@pytest.mark.parametrize(("text", "error", "message"), [
    (["A dog.", "Two cats."], ConfigError, r"^text: expected a str, got list$"),
    (None, ConfigError, r"^text: expected a str, got NoneType$"),
    ("a\ud800b", DataError, r"^text is not valid Unicode \(it has an unpaired surrogate\)$"),
])
def test_pieces_and_spans_take_one_text_as_encode_does(tokenizer, method, text, error, message):
    """pieces(["A dog.", "Two cats."]) was SentencePiece's batch, lists of pieces with "</s>" after
    them; None and a lone surrogate failed inside SentencePiece."""
    with pytest.raises(error, match=message):
        getattr(tokenizer, method)(text)


def test_source_spans_place_each_source_piece_in_the_text_as_given(tokenizer):
    """Word alignments number a source piece by the word of the text it stands in
    (attnmt.inspect.trace.span_words): "´" is read as a space and an accent, the "▁" made up empty."""
    from support import spm_and_vocab

    from attnmt.text.vocab_tokenizer import VocabTokenizer

    text = "A dog´s ball"
    spans = tokenizer.source_spans(text)
    assert len(spans) == len(tokenizer.pieces(text)) - 1  # "</s>" aside
    assert "".join(text[begin:end] for begin, end in spans) == text
    shared, vocab = spm_and_vocab(CORPUS, 60, None)
    marian = VocabTokenizer(shared, shared, vocab)
    text = f">>de<< {text}"  # the language token is one piece; SentencePiece reads the rest without its first space
    spans = marian.source_spans(text)
    assert len(spans) == len(marian.pieces(text)) - 1 and spans[0] == (0, 6)
    assert "".join(text[begin:end] for begin, end in spans) == ">>de<<A dog´s ball"


@pytest.mark.parametrize("ids", [[5.0, 6.7], torch.tensor([5.0, 6.0]), np.array([5.5])])
def test_ids_that_are_no_whole_numbers_are_refused_not_cut_to_ints(tokenizer, ids):
    """decode([5.0, 6.7]) read 6.7 as 6, without a word."""
    refused = r"^ids: expected token ids of an integer type, got 5\.[05] \(float\); a float array of ids needs "
    with pytest.raises(ConfigError, match=refused + r"\.astype\(int\) \(NumPy\) or \.long\(\) \(torch\)$"):
        tokenizer.decode(ids)
    assert tokenizer.decode([np.int64(50), torch.tensor(60)]) == tokenizer.decode([50, 60])


def test_the_training_functions_import_from_their_old_module_with_a_warning():
    """train_sentencepiece and its helpers moved to attnmt.text.tokenizer_training (documented there)."""
    import attnmt.text.tokenizer as old
    from attnmt.text import tokenizer_training

    with pytest.warns(DeprecationWarning, match=r"^attnmt\.text\.tokenizer\.train_sentencepiece is now attnmt\.text\."
                                                r"tokenizer_training\.train_sentencepiece; the old path goes"):
        assert old.train_sentencepiece is tokenizer_training.train_sentencepiece
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        old.no_such_name  # noqa: B018


def test_a_protobuf_too_old_for_sentencepieces_generated_code_is_one_line_when_first_needed(monkeypatch, tokenizer):
    """sentencepiece's generated modules were imported with attnmt: an older protobuf (which pip
    lets stand) failed every command, --version too, with protobuf's traceback."""
    from attnmt.text import tokenizer as module

    module.protobuf_messages.cache_clear()
    monkeypatch.setitem(sys.modules, "sentencepiece.sentencepiece_pb2", None)  # as a failed import leaves it
    monkeypatch.delattr(sentencepiece, "sentencepiece_pb2", raising=False)
    try:
        with pytest.raises(ConfigError, match=r"^sentencepiece \S+ cannot read its models with protobuf \S+ \(.*\): "
                                              r"install a newer protobuf \(pip install -U protobuf\)"):
            module.piece_spans(tokenizer._source, "a dog")
    finally:
        module.protobuf_messages.cache_clear()


@pytest.mark.parametrize(("options", "needed", "pieces"), [
    ({}, 7, "one per character it has and the special pieces"),
    ({"byte_fallback": True}, 263, "one per character it has, the special pieces and byte_fallback's 256 byte pieces"),
    ({"user_defined_symbols": [">>de<<", ">>fr<<"]}, 9, "one per character it has, the special pieces and "
                                                        "2 symbols of user_defined_symbols"),
    ({"user_defined_symbols": [">>de<<"]}, 8, "one per character it has, the special pieces and 1 symbol of "
                                              "user_defined_symbols"),
    ({"user_defined_symbols": ["a", ">>de<<"]}, 8, "one per character it has, the special pieces and 1 symbol of "
                                                   "user_defined_symbols"),  # "a" is one of the text's characters
])
def test_too_small_a_vocab_size_names_every_kind_of_piece_it_counts(options, needed, pieces):
    """"ab ba" has 3 characters (a, b and the word boundary ▁) and there are 4 special pieces: 7.  With
    byte_fallback, 263 were said to be "one per character it has, and the special pieces".  A symbol that
    is one of the text's characters adds no piece, and was counted; one symbol was "1 user_defined_symbols"."""
    message = (f"vocab_size=5: the training text needs at least {needed} pieces ({pieces}); use vocab_size "
               f"{needed} or more")
    with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
        train_sentencepiece(["ab ba"], vocab_size=5, **options)


def test_a_tokenizer_gives_back_the_options_it_was_trained_with():
    """What a fine-tune's tokenizer_options are compared with: 0.9995, kept as a 32-bit float, reads 0.9995."""
    options = dict(model_type="bpe", character_coverage=0.9995, user_defined_symbols=[">>de<<"], byte_fallback=True)
    proto = train_sentencepiece(["ein kleiner satz", "noch ein satz"] * 20, vocab_size=300, **options)
    assert trained_options(proto) == as_trained(options)
    assert trained_options(proto) != as_trained({**options, "character_coverage": 0.9996})


@pytest.mark.parametrize("space", ["\x0b", "\x1c", "\x1d", "\x1e", "\x1f", "\x85"])
def test_white_space_sentencepiece_leaves_out_parts_two_words_as_a_space_does(tokenizer, space):
    """A vertical tab, a separator or NEL between two words: SentencePiece dropped it, "Two\\x0bdogs" was
    "Twodogs" to the model (or NEL an unknown piece); each is read as a space, by both tokenizers and both sides."""
    from support import spm_and_vocab

    from attnmt.text.vocab_tokenizer import VocabTokenizer

    shared, vocab = spm_and_vocab(CORPUS, 60, None)
    marian = VocabTokenizer(shared, shared, vocab)
    text = f"Two{space}dogs are playing."
    for tok in (tokenizer, marian):
        assert tok.pieces(text) == tok.pieces("Two dogs are playing.")
        assert tok.encode(text) == tok.encode("Two dogs are playing.")
        assert tok.encode_target(text) == tok.encode_target("Two dogs are playing.")
        assert tok.source_spans(text) == tok.source_spans("Two dogs are playing.")
    assert tokenizer.encode_batch([text]) == [tokenizer.encode("Two dogs are playing.")]
    assert tokenizer.encode_target_batch([text]) == [tokenizer.encode_target("Two dogs are playing.")]


# The training child's stand-in: it says it has begun, then holds out 8 s, deaf to Ctrl-C, as SentencePiece's
# one C++ call is.
LONG_TRAINING = """
import os, pathlib, signal, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
pathlib.Path({started!r}).write_text(str(os.getpid()), encoding="utf-8")
time.sleep(8)
"""


def test_a_ctrl_c_during_tokenizer_training_stops_it_at_once(monkeypatch, tmp_path, pythons_ctrl_c):
    """SentencePiece's trainer is one C++ call, which held a Ctrl-C until it ended (39 s on 870,000 lines).  The
    training, in a child process, stops within a second or two, the child is gone, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    started = tmp_path / "started"
    stand_in = tmp_path / "stand_in" / "long_training.py"
    stand_in.parent.mkdir()
    stand_in.write_text(LONG_TRAINING.format(started=str(started)), encoding="utf-8")
    monkeypatch.setattr(tokenizer_training, "CHILD", stand_in)

    def press_ctrl_c(main: int) -> None:
        while not started.exists():
            time.sleep(0.01)
        signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=press_ctrl_c, args=(threading.main_thread().ident,), daemon=True).start()
    begun = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        train_sentencepiece(CORPUS, vocab_size=60)
    assert time.monotonic() - begun < 4
    with pytest.raises(ProcessLookupError):
        os.kill(int(started.read_text(encoding="utf-8")), 0)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["stand_in", "started"]


# A program that trains a tokenizer at its top level, without `if __name__ == "__main__":`, under the start
# method macOS and Windows use.
UNGUARDED = """
import multiprocessing
multiprocessing.set_start_method("spawn")
from attnmt.text.tokenizer import Tokenizer
print("top level")
print(Tokenizer.train({corpus!r}, vocab_size=60).vocab_size)
"""


def test_a_script_without_a_main_guard_trains_a_tokenizer_under_the_spawn_start_method(tmp_path):
    """A spawned child imports the program again: the script's top level ran a second time, called
    Tokenizer.train there, and the first one failed in "its process ended with status 1 before the model was
    made".  The tokenizer now trains in a child that imports neither the program nor attnmt."""
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED.format(corpus=CORPUS), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(Path(tokenizer_training.__file__).parents[2])})
    assert (run.returncode, run.stdout) == (0, f"top level\n{Tokenizer.train(CORPUS, vocab_size=60).vocab_size}\n")


def test_a_pool_worker_trains_a_tokenizer():
    """A daemonic process may start no multiprocessing child of its own: training in a Pool's worker was an
    AssertionError ("daemonic processes are not allowed to have children")."""
    with multiprocessing.Pool(1) as pool:
        proto = pool.apply(train_sentencepiece, (CORPUS,), {"vocab_size": 60})
    assert proto == train_sentencepiece(CORPUS, vocab_size=60)
