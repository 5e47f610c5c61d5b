"""attnmt.documents.direction_controls: the bidirectional controls inside a sentence, which no model
writes back, come back around the translation of the words they held."""

import pytest

from attnmt.documents.direction_controls import take_out_controls
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import flat_line, translate_lines


@pytest.mark.parametrize("line, expected", [
    ("He said \u2067שלום עליכם\u2069 to us.", "HE SAID \u2067שלום עליכם\u2069 TO US."),
    ("Press \u202aCtrl+S\u202c to save the file.", "PRESS \u202aCtrl+S\u202c TO SAVE THE FILE."),
    ("The file report.pdf\u200e was saved.", "THE FILE report.pdf\u200e WAS SAVED."),
    ("She wrote \u2067\u202bאב\u202c גד\u2069 here.", "SHE WROTE \u2067\u202bאב\u202c גד\u2069 HERE."),
], ids=["isolate", "embedding", "mark-after-a-file-name", "nested"])
def test_controls_inside_a_line_come_back_where_they_stood(undirected, line, expected):
    assert translate_lines([line], undirected) == [expected]


def test_an_isolate_goes_around_its_words_where_the_translation_moves_them(known):
    translator = known({"He said hello to us.": ("Er hat uns hallo gesagt.", [(0, 0), (1, 4), (2, 3), (3, 2), (4, 2)])})
    translator.writes = lambda text: True
    assert translate_lines(["He said \u2066hello\u2069 to us."], translator) == ["Er hat uns \u2066hallo\u2069 gesagt."]


def test_controls_in_html_come_back_with_their_words(undirected):
    assert translate_markup(["<p>The file &lrm;report.pdf&lrm; was <b>saved</b>.</p>"], undirected) == [
        "<p>THE FILE &lrm;report.pdf&lrm; WAS <b>SAVED</b>.</p>"]  # as the page wrote them (named_references)


def test_an_opening_control_and_its_closing_one_are_a_range():
    flat = flat_line("Say \u2067hi there\u2069 now.")
    take_out_controls(flat)
    assert flat.text == "Say hi there now."
    assert [(mark.start, mark.literal, mark.opened_by) for mark in flat.marks] == [
        (4, "\u2067", None), (12, "\u2069", 0)]


def test_controls_at_a_lines_edges_are_left_in_its_text():
    flat = flat_line("\u2067A whole line.\u2069")
    take_out_controls(flat)
    assert (flat.text, flat.marks) == ("\u2067A whole line.\u2069", [])
