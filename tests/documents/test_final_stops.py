"""Atoms with only their sentence's stop after them end its translation, before its stop
(attnmt.documents.final_stops): the model's attention to the stop chose their place before."""

import pytest
from lxml import html

from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import translate_lines

# "It is ." as the demo model read it: its stop aligned to its first word, as the demo model's was.
IT_IS = [(0, 2), (1, 1), (2, 0)]


def test_a_measure_before_the_stop_ends_the_translation(known_unitless):
    """The demo model wrote "It is 12 °C. Tomorrow it rains." as "12 °C Es ist ein Objekt. ..."."""
    translator = known_unitless({"It is .": ("Heute ist es.", IT_IS),
                                 "Tomorrow it rains.": ("Morgen regnet es.", [(0, 0), (1, 2), (2, 1)])})
    assert translate_lines(["It is 12 °C. Tomorrow it rains."], translator) == [
        "Heute ist es 12 °C. Morgen regnet es."]
    assert translator.given == ["It is .", "Tomorrow it rains."]


def test_an_emoji_before_the_stop_ends_the_translation_inside_its_quotes(known_unitless):
    translator = known_unitless({"“It is .”": ("„Heute ist es.“", IT_IS)})
    assert translate_lines(["“It is 👍🏽.”"], translator) == ["„Heute ist es 👍🏽.“"]


def test_a_translation_without_a_final_stop_leaves_the_atom_to_the_stops_word(known_unitless):
    translator = known_unitless({"It is .": ("Heute ist es", IT_IS)})
    assert translate_lines(["It is 12 °C."], translator) == ["12 °C Heute ist es"]


@pytest.mark.parametrize("page, words", [
    ("<p>Add <b>1/2 cup</b> of milk. Stir.</p>", "Add of milk."),  # the measure kept whole, its words after it
    ("<p>Add <b>a cup</b> of milk. Stir.</p>", "Add a cup of milk."),  # a mark over words aligned to nothing
])
def test_a_mark_whose_following_words_went_nowhere_stays_before_its_sentences_stop(page, words, known_unitless):
    """"of milk." got no attention from the model's words ("Füge hinzu."): the mark went to the end of the
    translation, after its stop, into the next sentence (``Füge hinzu. <b>1/2 cup</b> Rühre.``)."""
    translator = known_unitless({words: ("Füge hinzu.", [(0, 0), (0, 1)]), "Stir.": ("Rühre.", [(0, 0)])})
    [written] = translate_markup([page], translator)
    [bold] = html.fragment_fromstring(written).findall("b")
    assert bold.getparent().text.rstrip() == "Füge hinzu" and bold.tail == ". Rühre."
