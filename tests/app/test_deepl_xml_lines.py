"""DeepL's split_sentences with tag_handling=xml: a line break in an element's text ends its sentence by default
(``1``), as DeepL's documentation says it does ("newlines will split sentences"); ``nonewlines`` and ``0``
read it as a space, as before (test_deepl_api)."""

import functools

import pytest
from support import deepl_text

xml = functools.partial(deepl_text, tag_handling="xml")


@pytest.mark.parametrize("split", [{}, {"split_sentences": "1"}, {"split_sentences": 1}])
@pytest.mark.parametrize(("sent", "alone"), [
    ("<p>a dog runs\na cat sleeps</p>", ["<p>a dog runs</p>", "<p>a cat sleeps</p>"]),
    ("<s>the boy laughs\n  two men walk</s>", ["<s>the boy laughs</s>", "<s>two men walk</s>"]),
    ("<p>a <b>dog</b> runs\na cat sleeps</p>", ["<p>a <b>dog</b> runs</p>", "<p>a cat sleeps</p>"])])
def test_a_line_break_in_an_elements_text_ends_its_sentence_by_default(deepl_client, split, sent, alone):
    """It was read as a space: the two lines went to the model as one sentence."""
    first, second = (xml(deepl_client, text) for text in alone)
    tag = first[1:first.index(">")]
    lines = xml(deepl_client, sent, **split).removeprefix(f"<{tag}>").removesuffix(f"</{tag}>").split("\n")
    assert [line.strip() for line in lines] == [first.removeprefix(f"<{tag}>").removesuffix(f"</{tag}>"),
                                                second.removeprefix(f"<{tag}>").removesuffix(f"</{tag}>")]

