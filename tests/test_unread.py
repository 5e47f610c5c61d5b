"""The sentences ``translate`` passes through unread (attnmt.decoding.unread): without letters or of one letter,
as ``attnmt translate`` (attnmt.documents.translate_text) passes them through."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.translate import translate
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
