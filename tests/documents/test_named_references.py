"""attnmt.documents.named_references: the characters an HTML page writes as named references come
back as those references, in its translated text and in the text left as it was."""

from attnmt.documents.markup import translate_markup
from attnmt.documents.named_references import named_again, named_characters


def test_named_references_in_translated_text_are_written_as_they_came(upper):
    assert translate_markup(["<p>The caf&eacute; opens at 9&nbsp;am &mdash; every day.</p>"], upper) == [
        "<p>THE CAFÉ OPENS AT 9&nbsp;AM &mdash; EVERY DAY.</p>"]  # É: a character the page never named


def test_a_page_keeps_its_references_outside_the_translated_text(same):
    page = ("<!DOCTYPE html>\n<html><head><title>Menu</title></head><body>\n"
            "<p>&copy; 2024 Caf&eacute; Ltd.</p>\n<pre>x &lt; y &mdash; z</pre>\n</body></html>\n")
    written = translate_markup([page], same)[0]
    assert "<p>&copy; 2024 Caf&eacute; Ltd.</p>" in written and "<pre>x &lt; y &mdash; z</pre>" in written


def test_a_character_also_written_as_itself_stays_itself(same):
    assert translate_markup(["<p>A &mdash; and a — dash.</p>"], same) == ["<p>A — and a — dash.</p>"]


def test_scripts_and_comments_are_left_as_the_writer_gives_them():
    names = named_characters("<p>&copy; &eacute;</p>")
    written = '<p>©</p><!-- © --><script>var s = "©é";</script><style>p::after{content:"é"}</style>é'
    assert named_again(written, names) == (
        '<p>&copy;</p><!-- © --><script>var s = "©é";</script><style>p::after{content:"é"}</style>&eacute;')


def test_a_quoted_attribute_value_keeps_its_references(same):
    text = '<p>A <a data-label="Caf&eacute; &amp; bar" href="/x">caf&eacute;</a> menu.</p>'
    assert translate_markup([text], same) == [text]


def test_only_references_to_one_character_other_than_the_writers_own_are_named():
    assert named_characters("&amp; &lt; &quot; &nbsp; &hellip; &#x2014; &mdash; &unknown;") == {
        "\u00a0": "&nbsp;", "…": "&hellip;"}
