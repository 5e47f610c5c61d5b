"""A question or an exclamation keeps its mark where the model ended its translation with a full stop
(attnmt.text.sentence_ends.with_source_mark): in a text line, a server's text and ``attnmt.translate`` alike."""

import pytest

from attnmt.documents.pipeline import translate_lines, translate_paragraphs
from attnmt.text.sentence_ends import ended_as_source


class Stating:
    """Each sentence upper-cased and ended with a full stop, as the demo model ends nearly every one."""

    glossary = None

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list]:
        return [s.upper().rstrip("?!？！.,").rstrip() + "." for s in sentences], [None] * len(sentences)


def test_a_questions_and_an_exclamations_mark_comes_back_where_the_model_wrote_a_full_stop():
    """"Does a man walk?" came back "Ein Mann geht an einem Mann vorbei." from the demo model: a question told as a
    statement; "A cat sleeps!" as "Eine Katze schläft."."""
    lines = ["Does a man walk? A dog runs. Where is it?!", "Sit down!", "Is it far？", "A dog runs."]
    assert translate_lines(lines, Stating()) == [
        "DOES A MAN WALK? A DOG RUNS. WHERE IS IT?!", "SIT DOWN!", "IS IT FAR?", "A DOG RUNS."]
    assert translate_paragraphs(["Hi Tom,\n\nare you there?\nCall me!"], Stating()) == [
        "HI TOM,\n\nARE YOU THERE?\nCALL ME!"]


@pytest.mark.parametrize("source, translation, ended", [
    ("Why?", "Warum...", "Warum..."),  # an ellipsis the model wrote stays
    ("Why?", "Warum?", "Warum?"), ("Stop!", "Halt", "Halt"),  # a mark, or none, the model wrote
    ("你好吗？", "你好吗。", "你好吗？"),  # after a full-width stop, the source's full-width mark
    ('"Is it far?"', '"Ist es weit?".', '"Ist es weit?".'),  # the mark written inside the quotes
    ("Dear team,", "Liebes Team,.", "Liebes Team,"),  # a stop after the source's own pause goes, the pause once
])
def test_a_mark_the_model_wrote_or_a_full_width_stop_is_read_as_written(source, translation, ended):
    assert ended_as_source(source, translation) == ended
