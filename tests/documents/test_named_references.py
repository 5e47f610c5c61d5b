"""attnmt.documents.named_references: the characters an HTML page writes as named references come
back as those references, in its translated text and in the text left as it was."""

from attnmt.documents.markup import translate_markup
from attnmt.documents.named_references import reference_forms, referenced_again


def test_named_references_in_translated_text_are_written_as_they_came(upper):
    assert translate_markup(["<p>The caf&eacute; opens at 9&nbsp;am &mdash; every day.</p>"], upper) == [
        "<p>THE CAFÉ OPENS AT 9&nbsp;AM &mdash; EVERY DAY.</p>"]  # É: a character the page never named


def test_a_page_keeps_its_references_outside_the_translated_text(same):
    page = ("<!DOCTYPE html>\n<html><head><title>Menu</title></head><body>\n"
            "<p>&copy; 2024 Caf&eacute; Ltd.</p>\n<pre>x &lt; y &mdash; z</pre>\n</body></html>\n")
    written = translate_markup([page], same)[0]
    assert "<p>&copy; 2024 Caf&eacute; Ltd.</p>" in written and "<pre>x &lt; y &mdash; z</pre>" in written


def test_a_character_written_both_ways_keeps_each_copys_form(same, upper):
    page = '<p title="&copy; Acme">&copy; 2024 Acme. All rights reserved © Acme Inc.</p>'
    assert translate_markup([page], same) == [page]
    assert translate_markup([page], upper) == [
        '<p title="&copy; ACME">&copy; 2024 ACME. ALL RIGHTS RESERVED © ACME INC.</p>']


def test_a_translation_with_another_count_of_a_character_written_both_ways_has_it_as_written(fixed):
    translator = fixed("— A — and a — dash.", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
    assert translate_markup(["<p>A &mdash; and a — dash.</p>"], translator) == ["<p>— A — and a — dash.</p>"]


def test_numeric_references_are_written_as_they_came(upper):
    assert translate_markup(["<p>&#169; 2024 Acme &#x2014; caf&#233;</p>"], upper) == [
        "<p>&#169; 2024 ACME &#x2014; CAFÉ</p>"]  # É: a character the page never wrote


def test_scripts_and_comments_are_left_as_the_writer_gives_them():
    names = reference_forms("<p>&copy; &eacute;</p>")
    written = '<p>©</p><!-- © --><script>var s = "©é";</script><style>p::after{content:"é"}</style>é'
    assert referenced_again(written, names) == (
        '<p>&copy;</p><!-- © --><script>var s = "©é";</script><style>p::after{content:"é"}</style>&eacute;')


def test_a_quoted_attribute_value_keeps_its_references(same):
    text = '<p>A <a data-label="Caf&eacute; &amp; bar" href="/x">caf&eacute;</a> menu.</p>'
    assert translate_markup([text], same) == [text]


def test_references_to_one_character_other_than_the_writers_own_and_ascii_are_kept():
    assert reference_forms("&amp; &lt; &quot; &#65; &#1; &nbsp; &hellip; &#x2014; &mdash; &unknown; —") == {
        "\u00a0": ["&nbsp;"], "…": ["&hellip;"], "—": ["&#x2014;", "&mdash;", "—"]}
