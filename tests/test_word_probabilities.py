"""Word probabilities (attnmt.decoding.quality_measures.word_probabilities): one entry per word of the
translation as written (split at whitespace), the product of the probabilities of the pieces that
stand in it, each piece placed by where it stands in the text (the tokenizers' target_spans), not
by SentencePiece's pieces glued together ("KatzeTM", "<unk>.")."""

import pytest
from support import PAIRS, spm_and_vocab

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.quality import Assessor, assess
from attnmt.decoding.quality_measures import word_probabilities
from attnmt.documents.paragraphs import translate_texts_n_best
from attnmt.documents.pipeline import DocumentOptions
from attnmt.text.tokenizer import Tokenizer
from attnmt.text.vocab_tokenizer import VocabTokenizer

# "™" reads as "TM" (NFKC), "✓" and "\\" are characters the vocabularies lack, the spaces are runs
TEXTS = ["eine katze™ schläft ✓.", "ein hund\\rennt.", "  zwei  hunde\u00a0rennen "]


def test_a_word_probability_is_the_product_of_its_pieces():
    words = word_probabilities("ein hund rennt", [(0, 3), (3, 7), (7, 8), (8, 14)], [0.9, 0.5, 0.5, 1.0, 0.99])
    assert words == [("ein", 0.9), ("hund", 0.25), ("rennt", 1.0)]


def test_the_words_are_the_texts_as_written_whatever_the_pieces_read():
    # SentencePiece's pieces of the text and their spans: ▁Eine ▁Katze T M ▁schläft ▁ <unk> .
    spans = [(0, 4), (4, 10), (10, 10), (10, 11), (11, 19), (19, 20), (20, 21), (21, 22)]
    words = word_probabilities("Eine Katze™ schläft ✓.", spans, [0.9, 0.5, 0.5, 0.5, 0.8, 0.5, 0.5, 0.5, 0.99])
    # "T", made up by normalisation, has an empty span at "™"; the lone "▁" counts for the word after it
    assert words == [("Eine", 0.9), ("Katze™", 0.125), ("schläft", 0.8), ("✓.", 0.125)]


def test_a_word_no_piece_stands_in_gets_none():
    """Words past a translation cut to the model's positions: the model gave them no probability."""
    assert word_probabilities("ein hund rennt", [(0, 3), (3, 7)], [0.9, 0.5, 0.99]) == [
        ("ein", 0.9), ("hund", 0.5), ("rennt", None)]


@pytest.mark.parametrize("invisible", ["\u200b", "\u200e"], ids=["zero-width space", "LRM"])
def test_an_invisible_character_places_no_piece(invisible):
    """"▁rennt" spans the invisible character at the end of "Hund": its probability went to "Hund"."""
    spans = [(0, 3), (3, 8), (8, 15), (15, 16)]  # ▁Ein ▁Hund ▁rennt . of "Ein Hund\u200b rennt."
    assert word_probabilities(f"Ein Hund{invisible} rennt.", spans, [0.9, 0.5, 0.8, 0.5, 0.99]) == [
        ("Ein", 0.9), (f"Hund{invisible}", 0.5), ("rennt.", 0.4)]
    # Alone between spaces it is a word of its own, which the model read no piece of: "▁rennt" spans " \u200b rennt"
    assert word_probabilities(f"Ein {invisible} rennt.", [(0, 3), (3, 11), (11, 12)], [0.9, 0.8, 0.5, 0.99]) == [
        ("Ein", 0.9), (invisible, None), ("rennt.", 0.4)]


@pytest.mark.parametrize("kept", ["\u200d", "\u2060"])
def test_an_invisible_character_read_as_a_piece_counts_in_its_own_word(kept):
    """SentencePiece keeps these as an unknown piece of their own, spanning the character alone:
    that piece went to the word after it ("rennt." got its near-zero probability, "Hund" none of it)."""
    spans = [(0, 3), (3, 8), (8, 9), (9, 15), (15, 16)]  # ▁Ein ▁Hund <unk> ▁rennt . of "Ein Hund\u200d rennt."
    assert word_probabilities(f"Ein Hund{kept} rennt.", spans, [0.9, 0.5, 0.01, 0.8, 0.5, 0.99]) == [
        ("Ein", 0.9), (f"Hund{kept}", 0.005), ("rennt.", 0.4)]


@pytest.fixture(scope="module")
def tokenizers() -> list:
    """attnmt's Tokenizer, and a Marian VocabTokenizer whose vocabulary lacks a piece its
    SentencePiece model writes for TEXTS ("▁hund"), so that the piece is read as <unk>."""
    sentences = [side for pair in PAIRS for side in pair]
    spm, vocab = spm_and_vocab(sentences, 60, None)
    lacking = {piece: i for piece, i in vocab.items() if piece != "▁hund"}
    return [Tokenizer.train(sentences, vocab_size=60), VocabTokenizer(spm, spm, lacking)]


@pytest.mark.parametrize("kind", [0, 1], ids=["Tokenizer", "VocabTokenizer"])
@pytest.mark.parametrize("text", TEXTS)
def test_each_tokenizers_pieces_give_each_word_of_the_text_its_entry(tokenizers, kind, text):
    tokenizer = tokenizers[kind]
    ids, spans = tokenizer.encode_target(text), tokenizer.target_spans(text)
    assert len(spans) == len(ids)
    assert all(0 <= begin <= end <= len(text) for begin, end in spans)
    words = word_probabilities(text, spans, [0.5] * len(ids) + [1.0])
    assert [w for w, _ in words] == text.split()
    assert all(p is not None and p > 0 for _, p in words)  # every word gets a piece, an unknown one too


@pytest.mark.parametrize("kind", [0, 1], ids=["Tokenizer", "VocabTokenizer"])
@pytest.mark.parametrize("text", ["ein hund\u200b rennt.", "ein hund\u200e rennt.", "ein\u200b hund \u200e rennt."])
def test_each_tokenizers_words_keep_their_probabilities_around_invisible_characters(tokenizers, kind, text):
    """The words of ``text`` get those of the text without its invisible characters (the same pieces);
    an invisible character alone gets None."""
    tokenizer = tokenizers[kind]
    shown = " ".join(text.replace("\u200b", "").replace("\u200e", "").split())
    assert tokenizer.encode_target(text) == tokenizer.encode_target(shown)
    probs = [0.5 ** (i + 1) for i in range(len(tokenizer.encode_target(text)) + 1)]  # each piece's own
    words = word_probabilities(text, tokenizer.target_spans(text), probs)
    seen = [(word.strip("\u200b\u200e"), p) for word, p in words]
    assert [(word, p) for word, p in seen if word] == word_probabilities(shown, tokenizer.target_spans(shown), probs)
    assert all(p is None for word, p in seen if not word)


def test_a_piece_the_marian_vocabulary_lacks_is_placed_too(tokenizers):
    marian = tokenizers[1]
    text = "ein hund rennt"
    assert marian.encode_target(text)[1] == marian.unk_id
    assert [text[begin:end] for begin, end in marian.target_spans(text)][:2] == ["ein", " hund"]


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def test_assess_gives_the_words_of_the_translation_as_written(model_and_tokenizer):
    """They were SentencePiece's normalised pieces glued back: "katzeTM", "<unk>."."""
    model, tokenizer = model_and_tokenizer
    found = assess(model, tokenizer, ["a cat sleeps", "a dog runs"], ["eine katze™ schläft ✓.", "ein hund\\rennt."])
    for a, text in zip(found, ["eine katze™ schläft ✓.", "ein hund\\rennt."], strict=True):
        assert [w for w, _ in a.words] == text.split() and None not in [p for _, p in a.words]


def test_a_translated_texts_words_are_those_of_the_text_it_became(model_and_tokenizer):
    """Sentences that touch share a word, and a URL, taken out of the sentence the model read, is a
    word of the text too (None: the model gave it no probability)."""
    model, tokenizer = model_and_tokenizer
    texts = ["a dog runs.A cat sleeps.", "a dog runs https://a.org/x now. a cat sleeps."]
    paragraphs = translate_texts_n_best(model, tokenizer, texts, Decoding(beam_size=2, n_best=2), DocumentOptions(),
                                        quality=Assessor())
    for paragraph in paragraphs:
        for hypothesis in paragraph.hypotheses:
            assert [w for w, _ in hypothesis.assessment.words] == hypothesis.text.split()
    words = dict(paragraphs[1].hypotheses[0].assessment.words)
    assert words["https://a.org/x"] is None
