"""The spacing between translated sentences: the source's, but a space where a script written
without spaces parted two sentences with nothing and their translations are in a spaced script."""

import pytest

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.sentence_gaps import parts_unspaced, sentence_gap
from attnmt.documents.translators import FoundTranslations

ZH = DocumentOptions(source_lang="zh")
ENGLISH = FoundTranslations({"我在東京住。": "I live in Tokyo.", "他很好！": "He is well!"})
JAPANESE = FoundTranslations({"我在東京住。": "私は東京に住んでいる。", "他很好！": "彼は元気だ！"})


def test_sentences_of_an_unspaced_script_translated_into_a_spaced_one_get_a_space_between():
    assert translate_lines(["我在東京住。他很好！"], ENGLISH, ZH) == ["I live in Tokyo. He is well!"]


def test_translations_into_an_unspaced_script_stay_without_a_space():
    assert translate_lines(["我在東京住。他很好！"], JAPANESE, ZH) == ["私は東京に住んでいる。彼は元気だ！"]


def test_a_gap_the_source_had_is_kept_as_it_was():
    assert translate_lines(["我在東京住。  他很好！"], ENGLISH, ZH) == ["I live in Tokyo.  He is well!"]


@pytest.mark.parametrize(("page", "expected"), [
    ("<p><b>我在東京住。</b>他很好！</p>", "<p><b>I live in Tokyo.</b> He is well!</p>"),
    ("<p>我在東京住。<b>他很好！</b></p>", "<p>I live in Tokyo. <b>He is well!</b></p>"),
    ("<p>我在東京住。<br>他很好！</p>", "<p>I live in Tokyo.<br>He is well!</p>"),
])
def test_the_space_goes_outside_the_markup_between_the_sentences(page, expected):
    assert translate_markup([page], ENGLISH, ZH) == [expected]


def test_spaced_sentences_that_markup_alone_parts_get_no_space(same):
    assert translate_markup(["<p>One.<br>Two.</p>", "<p><b>One.</b><i>Two.</i></p>"], same) == [
        "<p>One.<br>Two.</p>", "<p><b>One.</b><i>Two.</i></p>"]


@pytest.mark.parametrize(("source", "at", "expected"), [
    ("我在東京住。他很好！", 6, True),  # an ideographic full stop
    ("他很好!Yes.", 4, True),  # an ASCII stop after a Han letter
    ("他说“好。”她笑了。", 6, True),  # a closing quote after the stop
    ("I live in Tokyo.他很好！", 16, True),  # the sentence after in Han
    ("One.Two.", 4, False),
    ("Один.Два.", 5, False),
])
def test_sentences_meet_unspaced_where_either_side_is_of_a_script_without_spaces(source, at, expected):
    assert parts_unspaced(source, at) is expected


@pytest.mark.parametrize(("before", "after", "expected"), [
    ("He teaches.", "He learns.", " "),
    ("He teaches.", "", ""),  # a sentence that came back empty
    ("", "He learns.", ""),  # the first sentence: nothing before it
    ("He teaches. ", "He learns.", ""),  # a translation that ends with a space already
    ("He teaches.", "他很好！", ""),
    ("他很好。", "He learns.", ""),
])
def test_a_space_only_between_two_translations_of_a_spaced_script(before, after, expected):
    assert sentence_gap("好。好。", 2, 2, before, after) == expected


@pytest.mark.parametrize(("line", "expected"), [
    ("我在東京住。¹他很好！", "I live in Tokyo.¹ He is well!"),
    ("我在東京住。¹²他很好！", "I live in Tokyo.¹² He is well!"),
    ("他很好！³", "He is well!³"),
])
def test_a_note_number_glued_to_an_unspaced_stop_stays_glued_to_its_translation(line, expected):
    """A space was put between the stop and the note's number ("Tokyo. ¹ He"), cutting the note off
    its sentence: the source has none there, in any script (sentences.note_after_stop)."""
    assert translate_lines([line], ENGLISH, ZH) == [expected]
