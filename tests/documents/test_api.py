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


def test_a_glossary_term_inside_tagged_text_is_written_and_the_markup_stays_whole(model_and_tokenizer):
    from lxml import etree

    from attnmt.decoding.glossary import Glossary

    model, tokenizer = model_and_tokenizer
    glossary = Glossary.of({"dog runs": "katze rennt"})  # spans the end of <b>: matched on the text a reader sees
    out = translate_html(model, tokenizer, "<p>a <b>dog</b> runs. the boy laughs</p>", Decoding(beam_size=2),
                         glossary=glossary)
    root = etree.fromstring(out)
    assert "katze rennt" in "".join(root.itertext()) and len(root.findall("b")) == 1
    assert "junge" in "".join(root.itertext())  # the other sentence, without the term, translated as before
    cue = "1\n00:00:01,000 --> 00:00:02,000\n<i>a dog runs</i>\n"
    subtitles = translate_subtitles(model, tokenizer, cue, glossary=glossary)
    assert subtitles.startswith("1\n00:00:01,000 --> 00:00:02,000\n<i>") and "katze rennt" in subtitles
