"""The question rule (attnmt.decoding.quality_measures.question_differs): a question translated as a statement,
or a statement as a question, is flagged ``question``; a question mark of another script, or one in a URL, is
read as what it is."""

import pytest

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_measures import question_differs


@pytest.fixture(scope="module")
def model_and_tokenizer(trained_model):
    return load_model_dir(trained_model)


@pytest.mark.parametrize(("source", "translation"), [
    ("Is the man sleeping on a couch?", "Der Mann schläft auf einem Sofa."),  # a question as a statement
    ("Where is the dog?", "Der Hund ist hier."),
    ("The dog is here.", "Ist der Hund hier?"),  # a statement as a question
    ("Who is there?", "Ποιος είναι εκεί."),
])
def test_a_question_and_a_statement_differ(source, translation):
    assert question_differs(source, translation)


@pytest.mark.parametrize(("source", "translation"), [
    ("Is the man sleeping on a couch?", "Schläft der Mann auf einem Sofa?"),
    ("Who is there?", "Ποιος είναι εκεί;"),  # Greek's question mark is ";"
    ("Where is it?", "¿Dónde está?"),
    ("Where is he?", "أين هو؟"),
    ("Why?", "为什么？"),
    ('He asked: "Why?"', "Er fragte: „Warum?“"),
    ("Set the value;", "Setzen Sie den Wert."),  # a semicolon, no Greek
    ("See https://example.com/?q=1 now.", "Siehe https://example.com/ jetzt."),  # a URL's query asks nothing
    ("A dog runs.", "Ein Hund rennt."),
])
def test_two_questions_or_two_statements_do_not(source, translation):
    assert not question_differs(source, translation)


def test_assess_flags_a_question_translated_as_a_statement(model_and_tokenizer):
    model, tokenizer = model_and_tokenizer
    statement, question = assess(model, tokenizer, ["does a dog run?"] * 2, ["ein hund rennt", "rennt ein hund?"])
    assert "question" in statement.flags and "question" not in question.flags
