"""DeepL's split_sentences with tag_handling=html: a line break is a space by default (``nonewlines``, DeepL's
default for HTML), in a text without a tag too, which DeepL reads as HTML; ``1`` ends a sentence at each line
break, which stays where it stood (docs/serving.md, DeepL's clients)."""

import functools

import pytest
from support import deepl_text

WRAPPED, SENTENCE = "a man walks in the park and a\nwoman reads.", "a man walks in the park and a woman reads."


html = functools.partial(deepl_text, tag_handling="html")


@pytest.mark.parametrize("split", [{"split_sentences": "1"}, {"split_sentences": 1}])
@pytest.mark.parametrize(("sent", "lines", "written"), [
    ("<p>a dog runs\na cat sleeps</p>", ["a dog runs", "a cat sleeps"], "<p>{}\n{}</p>"),
    ("<li>the boy <b>laughs</b>\r\n  two men walk</li>", ["the boy laughs", "two men walk"], "<li>{}\r\n  {}</li>")])
def test_split_sentences_1_ends_a_sentence_at_each_line_break_and_keeps_it(deepl_client, reached, split, sent,
                                                                           lines, written):
    """It was read as a space in an element's text: the two lines went to the model as one sentence."""
    alone = [html(deepl_client, line) for line in lines]
    reached.clear()
    answer = html(deepl_client, sent, **split)
    assert set(lines) <= set(reached) and " ".join(lines) not in reached
    assert answer.replace("<b>", "").replace("</b>", "") == written.format(*alone)


@pytest.mark.parametrize("split", [{}, {"split_sentences": "nonewlines"}, {"split_sentences": "0"}])
@pytest.mark.parametrize("sent", [WRAPPED, "a man walks in the park and a\r\n  woman reads."])
def test_a_text_without_tags_is_html_its_line_break_inside_a_sentence_a_space(deepl_client, reached, split, sent):
    """DeepL reads every text sent with tag_handling=html as HTML: each line of it was translated alone, as a plain
    text's are by default, where HTML's line break is a space and DeepL's default for HTML splits at none."""
    answer = html(deepl_client, sent, **split)
    assert SENTENCE in reached and not {"a man walks in the park and a", "woman reads."} & set(reached)
    assert "\n" not in answer and answer == html(deepl_client, SENTENCE)


@pytest.mark.parametrize("split", [{}, {"split_sentences": "1"}])
def test_a_comparison_in_an_html_text_stays_whole_where_it_stood(deepl_client, reached, split):
    """The model read "a b and a dog runs", and the sign came back alone before the translation of all: the demo
    model's "&lt; Ein Är und ein Pren"."""
    answer = html(deepl_client, "a < b\nand a dog runs", **split)
    assert answer.startswith("a &lt; b") and not any(sentence.startswith("a b") for sentence in reached)
