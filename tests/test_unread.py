"""The sentences ``translate`` passes through unread (attnmt.decoding.unread): without letters or of one letter,
as ``attnmt translate`` (attnmt.documents.translate_text) passes them through."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.quality import Assessor
from attnmt.decoding.translate import Translation, translate, translate_n_best
from attnmt.documents import translate_text

UNREAD = ["42", "A", "- 42", "(b)", "12/05/2012", "!!!"]


@pytest.fixture(scope="module")
def loaded(trained_model):
    return load_model_dir(trained_model)


def test_a_sentence_without_letters_or_of_one_letter_is_its_own_translation_as_the_command_s(loaded, reached):
    """The model wrote "422." for "42" and "Ein Mann befindet sich." for "A"; the command wrote them as given."""
    model, tokenizer = loaded
    sentences = [*UNREAD, "a dog runs", "  "]
    translated = translate(model, tokenizer, sentences)
    assert [text for text in reached if text.strip()] == ["a dog runs"]
    assert translated == [*UNREAD, "ein hund rennt", ""]
    assert translated[:-1] == translate_text(model, tokenizer, sentences[:-1])


def test_a_sentence_without_letters_holding_a_glossary_term_is_searched(loaded, reached):
    model, tokenizer = loaded
    translate(model, tokenizer, ["42", "7"], glossary={"42": "hund"})
    assert [text for text in reached if text.strip()] == ["42"]


def test_n_best_lists_hold_a_sentence_without_letters_or_of_one_letter_alone_as_translate_gives_it(loaded, reached):
    """translate_n_best sent them to the model: the demo model listed "422." and "42 tragen andere Personen." for
    "42"; each is now its one hypothesis, scored as no model's word (0), with quality 1 and no flag where asked."""
    model, tokenizer = loaded
    sentences = [*UNREAD, "a dog runs"]
    found = translate_n_best(model, tokenizer, sentences, Decoding(beam_size=3, n_best=2))
    assert [text for text in reached if text.strip()] == ["a dog runs"]
    assert found[:-1] == [[Translation(sentence, 0.0, 0.0)] for sentence in UNREAD]
    assert len(found[-1]) == 2 and found[-1][0].text == translate(model, tokenizer, sentences)[-1]
    assessed = translate_n_best(model, tokenizer, ["A", "12/05/2012"], quality=Assessor())
    assert [(h.text, h.quality, h.flags) for [h] in assessed] == [("A", 1.0, []), ("12/05/2012", 1.0, [])]
