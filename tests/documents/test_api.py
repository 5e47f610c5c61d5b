"""The Python API of attnmt.documents on the tiny model that knows the 20 pairs."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.documents import translate_html, translate_subtitles, translate_text, translate_xml


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


def test_text_html_xml_and_subtitles_through_the_model(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    greedy = Decoding(beam_size=1)
    assert translate_text(model, tokenizer, ["a dog runs", ""], greedy) == ["ein hund rennt", ""]
    assert translate_html(model, tokenizer, "<p>the boy laughs</p>", greedy) == "<p>der junge lacht</p>"
    assert translate_xml(model, tokenizer, "<s>a cat sleeps</s>", greedy) == "<s>eine katze schläft</s>"
    cue = "3\n00:00:01,000 --> 00:00:02,000\ntwo dogs run\n"
    assert translate_subtitles(model, tokenizer, cue, greedy) == "3\n00:00:01,000 --> 00:00:02,000\nzwei hunde rennen\n"
