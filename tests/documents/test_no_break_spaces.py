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


def test_a_run_of_no_break_spaces_between_words_keeps_its_length_in_html(fixed):
    """The demo model wrote ``A dog&nbsp;&nbsp;&nbsp;runs in the park.`` as "Ein Hund rennt im Park.": the page's
    spacing was one plain space."""
    translator = fixed("Ein Hund rennt im Park.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3), (5, 4)])
    assert translate_markup(["<p>A dog&nbsp;&nbsp;&nbsp;runs in the park.</p>"], translator) == [
        "<p>Ein Hund&nbsp;&nbsp;&nbsp;rennt im Park.</p>"]


def test_a_run_with_plain_spaces_in_it_comes_back_as_written_in_a_plain_line(fixed):
    translator = fixed("Eins zwei", [(0, 0), (1, 1)])
    assert translate_lines(["One \u00a0 two"], translator) == ["Eins \u00a0 zwei"]


def test_the_marks_after_a_run_stay_around_their_words(fixed):
    translator = fixed("Ein Hund rennt in dem Park.", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
    page = "<p>A <b>dog</b>&nbsp;&nbsp;<i>runs</i> in&nbsp;&nbsp;&nbsp;the <a>park</a>.</p>"
    assert translate_markup([page], translator) == [
        "<p>Ein <b>Hund</b>&nbsp;&nbsp;<i>rennt</i> in&nbsp;&nbsp;&nbsp;dem <a>Park</a>.</p>"]


def test_a_run_at_the_edge_of_an_element_stays_at_that_edge(fixed):
    translator = fixed("Name: John rennt", [(0, 0), (1, 1), (2, 2)])
    pages = ["<p><b>Name:&nbsp;&nbsp;&nbsp;</b>John runs</p>", "<p>Name:<b>&nbsp;&nbsp;&nbsp;John runs</b></p>"]
    assert translate_markup(pages, translator) == ["<p><b>Name:&nbsp;&nbsp;&nbsp;</b>John rennt</p>",
                                                   "<p>Name:<b>&nbsp;&nbsp;&nbsp;John rennt</b></p>"]


def test_each_sentence_after_a_run_keeps_its_marks(fixed):
    translator = fixed("Ein Hund rennt.", [(0, 0), (1, 1), (2, 2)])
    assert translate_markup(["<p>A dog&nbsp;&nbsp;runs. A <b>cat</b>&nbsp;&nbsp;sleeps.</p>"], translator) == [
        "<p>Ein Hund&nbsp;&nbsp;rennt. Ein <b>Hund</b>&nbsp;&nbsp;rennt.</p>"]


def test_a_run_between_words_turned_round_leaves_the_models_space(mirror):
    assert translate_lines(["The town is 10\u00a0\u00a0km away."], mirror) == ["AWAY. KM 10 IS TOWN THE"]
