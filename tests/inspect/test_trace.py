"""One translation's attention (attnmt.inspect.trace): the input it reads, and as the server sends it, JSON text."""

import json

import pytest
import torch

from attnmt.decoding import Decoding
from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning, ConfigError
from attnmt.inspect.align import cross_attention_batches
from attnmt.inspect.trace import KINDS, TranslationAttention, trace_translation
from attnmt.model import Transformer, TransformerConfig
from attnmt.text.tokenizer import Tokenizer


def test_to_json_holds_what_to_dict_holds_its_weights_rounded_to_three_places():
    torch.manual_seed(0)
    pieces = ["▁Ein", '▁"Mann"', "</s>"]
    trace = TranslationAttention(
        sentence='A "man"', translation='Ein "Mann"', source=["▁A", '▁"man"', "</s>"], target_in=["<s>", *pieces[:2]],
        target_out=pieces, encoder=torch.rand(2, 3, 3, 3).softmax(-1), decoder_self=torch.rand(2, 3, 3, 3).softmax(-1),
        cross=torch.rand(2, 3, 3, 3).softmax(-1))
    sent, plain = json.loads(trace.to_json()), trace.to_dict()
    for kind in KINDS:
        weights, rounded = (torch.tensor(d["kinds"][kind].pop("weights"), dtype=torch.float64) for d in (sent, plain))
        assert torch.allclose(weights, trace.weights(kind).double(), atol=0.0005 + 1e-9)
        assert torch.allclose(weights, rounded, atol=1e-9)
    assert sent == plain


CORPUS = ["a man rides a bike", "ein mann fährt ein fahrrad", "two dogs play in the snow",
          "zwei hunde spielen im schnee", "the child plays", "das kind spielt"]
LONG = "a man rides a bike and two dogs play in the snow"  # 20 to 40 pieces: more than 10


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    return Tokenizer.train(CORPUS * 4, vocab_size=50)


@pytest.fixture(scope="module")
def short_model(tokenizer) -> Transformer:
    """Untrained, seeded, with 12 positions: a source or target of at most 10 pieces."""
    torch.manual_seed(0)
    return Transformer(TransformerConfig(vocab_size=tokenizer.vocab_size, d_model=16, n_heads=2, encoder_layers=1,
                                         decoder_layers=1, d_ff=32, max_positions=12)).eval()


def test_a_trace_of_utf8_bytes_is_the_trace_of_their_text(short_model, tokenizer):
    traced = trace_translation(short_model, tokenizer, "ein mann fährt".encode(), target=b"zwei hunde")
    expected = trace_translation(short_model, tokenizer, "ein mann fährt", target="zwei hunde")
    assert (traced.sentence, traced.translation, traced.source) == ("ein mann fährt", "zwei hunde", expected.source)
    assert torch.equal(traced.cross, expected.cross)


def test_a_long_sentence_is_cut_as_translate_cuts_it_its_end_of_sentence_kept_with_its_warning(short_model, tokenizer):
    with pytest.warns(AttnmtWarning, match="^1 of the 1 distinct sentences translated were longer than 10 tokens"):
        trace = trace_translation(short_model, tokenizer, LONG, decoding=Decoding(beam_size=1))
    assert trace.source == [*tokenizer.pieces(LONG)[:9], "</s>"]
    assert trace.cross.shape[-1] == 10
    with pytest.warns(AttnmtWarning):
        assert trace.translation == translate(short_model, tokenizer, [LONG], Decoding(beam_size=1))[0]


def test_a_long_target_is_cut_to_the_models_positions_with_a_warning(short_model, tokenizer):
    with pytest.warns(AttnmtWarning, match="^1 of the 1 distinct translations given were longer than 10 tokens"):
        trace = trace_translation(short_model, tokenizer, "the child plays", target=LONG)
    assert trace.target_out == [*(tokenizer.id_to_piece(i) for i in tokenizer.encode_target(LONG)[:10]), "</s>"]


def test_alignments_read_a_long_source_as_translate_does(short_model, tokenizer):
    with pytest.warns(AttnmtWarning, match="^1 of the 1 distinct sentences translated were longer than 10 tokens"):
        [(_, cross, source_pieces, _)] = cross_attention_batches(short_model, tokenizer, [LONG], ["das kind spielt"],
                                                                 -1, None, 4096)
    assert source_pieces == tokenizer.pieces(LONG)[:9]  # its </s>, the 10th piece read, is no word
    assert cross.shape[-1] == 10


@pytest.mark.parametrize("sentence", ["\u200b", "\x01"])
def test_a_sentence_with_no_pieces_is_one_config_error(short_model, tokenizer, sentence):
    with pytest.raises(ConfigError, match="^nothing to show: the sentence has no pieces to translate"):
        trace_translation(short_model, tokenizer, sentence)
