"""A field's value that is a count in English words (attnmt.text.count_values): its shapes, and a count alone in one
word written in the target language's word."""

import pytest

from attnmt.text.count_values import count_in, counted_measure, counted_things


@pytest.mark.parametrize("value, language, written", [
    ("Three.", "de", "Drei."),
    ("Twelve", "de-CH", "Zwölf"),  # a region's code reads as its language's
    ("TWENTY", "fr", "VINGT"),  # the source's capitals
    ("(four)", "es", "(cuatro)"),  # its marks around it
    ("Seventeen!", "fr", "Dix-sept!"),
    ("Zero", "nl", "Nul"),
    ("eleven", "it", "undici"),
])
def test_a_count_alone_in_one_word_is_written_in_the_target_languages_word_and_the_sources_case(
        value, language, written):
    """The demo model wrote "Twelve" as "Es" and gave "Three." back in English."""
    assert count_in(value, language) == written


@pytest.mark.parametrize("value, language", [
    ("Three.", None), ("Three.", "ja"),  # no language, or one without the table
    ("Forty-five", "de"), ("Two to four", "de"), ("A dozen", "de"),  # no count of one word to twenty
    ("Three dogs.", "de"), ("Once", "de"),  # English's "once" is no count
])
def test_any_other_value_or_language_has_no_count_written(value, language):
    assert count_in(value, language) is None


@pytest.mark.parametrize("value, measure", [
    ("Twenty minutes", True), ("Forty-five minutes", True), ("Ten millilitres.", True), ("One hour", True),
    ("Twenty dogs", False), ("Ten dollars", False), ("Twenty minutes later, she left.", False), ("Minutes", False),
])
def test_a_count_in_words_and_a_units_name_is_a_measure(value, measure):
    assert counted_measure(value) is measure


@pytest.mark.parametrize("value, things", [
    ("Two men.", True), ("One suitcase", True), ("Three adult tickets", True),
    ("A man.", False), ("Two men ride horses.", False), ("Three.", False), ("Men, two.", False),
])
def test_a_count_in_words_then_two_words_at_most_counts_things(value, things):
    assert counted_things(value) is things
