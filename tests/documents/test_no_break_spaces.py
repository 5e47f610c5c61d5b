"""attnmt.documents.no_break_spaces: a no-break space between two words comes back between their
translations, where the model wrote a plain space."""

from attnmt.documents.flat import FlatText
from attnmt.documents.markup import translate_markup
from attnmt.documents.no_break_spaces import needs_alignment
from attnmt.documents.pipeline import translate_lines


def test_a_unit_stays_bound_to_its_number_in_a_plain_line(fixed):
    translator = fixed("Die Stadt ist 10 km entfernt.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
    assert translate_lines(["The town is 10\u00a0km away."], translator) == ["Die Stadt ist 10\u00a0km entfernt."]


def test_a_title_stays_bound_to_its_translated_name_in_html(fixed):
    translator = fixed("Herr Smith kam heute an.", [(0, 0), (1, 1), (2, 2), (3, 3), (2, 4)])
    assert translate_markup(["<p>Mr.&nbsp;Smith arrived <b>today</b>.</p>"], translator) == [
        "<p>Herr&nbsp;Smith kam <b>heute</b> an.</p>"]  # as the page wrote it


def test_a_narrow_no_break_space_comes_back_as_itself(fixed):
    translator = fixed("Es kostet 5 € heute.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
    assert translate_lines(["It costs 5\u202f€ today."], translator) == ["Es kostet 5\u202f€ heute."]


def test_words_turned_round_keep_the_models_plain_space(mirror):
    assert translate_lines(["The town is 10\u00a0km away."], mirror) == ["AWAY. KM 10 IS TOWN THE"]


def test_a_sentence_with_a_no_break_space_between_words_is_aligned():
    flat = FlatText("Go 10\u00a0km. Stop here.\u00a0", [])
    assert needs_alignment(flat, [(0, 9), (10, 20)]) == [True, False]
