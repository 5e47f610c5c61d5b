"""Which elements a sentence reads inline, which are kept whole (atoms) and which are blocks
(attnmt.documents.markup.Vocabulary), in HTML and in XML, with stand-in translators whose
alignments are known."""

import pytest

from attnmt.documents.markup import translate_markup


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


@pytest.mark.parametrize("translation, stop", [("ein Hund in den Händen.", "."), ("ein Hund in den Händen!", "."),
                                               ("ein Hund in den Händen", "."), ("ein Hund in den Händen.", "!")])
def test_a_kept_stop_after_a_sentence_is_not_doubled_by_the_models(fixed, translation, stop):
    """The model, given "a dog in his hands", ends it with a stop of its own: "Händen</b>.<i>.</i>"."""
    translator = fixed(translation, [(k, k) for k in range(5)])
    out = one(f"<p>a dog in his <b>hands</b><i>{stop}</i></p>", translator)
    assert out == f"<p>ein Hund in den <b>Händen</b><i>{stop}</i></p>"
    assert translator.given == ["a dog in his hands"]


def test_a_sentence_with_a_stop_of_its_own_keeps_the_models(fixed):
    translator = fixed("ein Hund rennt.", [(0, 0), (1, 1), (2, 2)])
    assert one("<p>a dog runs.<i>!</i></p>", translator) == "<p>ein Hund rennt.<i>!</i></p>"
