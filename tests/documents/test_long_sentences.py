"""A sentence longer than the model reads is parted, before translation, into sentences that each
fit it (attnmt.documents.sentences.fitting_parts): at a clause's end first, then at a space, and
inside a word only as a last resort.  Cut to the model's length instead, the rest of it was lost,
with its markup.  ``same`` (conftest): each sentence translated as itself, what it was given recorded."""

import pytest
from support import at_most

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.sentences import sentence_spans

OPTIONS = DocumentOptions()


def parts(text: str, characters: int) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text, "en", True, reads=at_most(characters))]


def test_a_sentence_that_fits_is_not_parted():
    assert parts("A dog runs, and a cat sleeps.", 29) == ["A dog runs, and a cat sleeps."]


def test_a_long_sentence_is_parted_at_its_last_clause_end_that_fits():
    text = "A dog runs in the park, a cat sleeps; a bird sings: the sun shines – and the day ends."
    assert parts(text, 40) == ["A dog runs in the park, a cat sleeps;", "a bird sings: the sun shines –",
                               "and the day ends."]


def test_a_long_sentence_without_clauses_is_parted_at_a_space_and_a_long_word_inside_it():
    assert parts("one two three four five six", 10) == ["one two", "three four", "five six"]
    assert parts("Donaudampfschifffahrt is long", 10) == ["Donaudampf", "schifffahr", "t is long"]


def test_nothing_of_a_long_line_is_lost_and_each_part_fits(same):
    same.fits = at_most(30)
    line = "Two men stand in a pool, a dog runs along the side, and a boy laughs at the end. A cat sleeps."
    assert translate_lines([line], same, OPTIONS) == [line]
    assert same.given == ["Two men stand in a pool,", "a dog runs along the side,", "and a boy laughs at the end.",
                          "A cat sleeps."]


def test_the_marks_of_a_long_html_paragraph_are_all_kept(same):
    """A 12,000-character paragraph came out as 191 characters, its ``<b>red car</b>`` an empty ``<b></b>``."""
    same.fits = at_most(40)
    page = ("<p>A man <b>in a hat</b> walks, a woman sits on a bench by the water, "
            "and a child points at a <b>red car</b> at the end.</p>")
    assert translate_markup([page], same, OPTIONS) == [page]
    assert same.given == ["A man in a hat walks,", "a woman sits on a bench by the water,",
                          "and a child points at a red car at the", "end."]


@pytest.mark.filterwarnings("error")
def test_a_translator_without_fits_is_given_a_long_sentence_whole(same):
    """It reads what it is given as it chooses: the 1,000-byte guess it is split by (within_bytes) parts none."""
    line = "A man " + "really " * 200 + "reads."
    assert translate_lines([line], same, OPTIONS) == [line]
    assert same.given == [line]
