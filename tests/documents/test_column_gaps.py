"""A table drawn in spaces keeps its columns: a gap of three or more spaces ends a sentence, as a tab
does (attnmt.documents.column_gaps)."""

from attnmt.documents.pipeline import translate_lines


def test_a_row_of_a_table_drawn_in_spaces_is_translated_cell_by_cell(mirror):
    """Read as one sentence, a row came back as one sentence made of its cells' words, its columns lost."""
    lines = ["Name        Animal     Place", "John Smith   big dog    the park"]
    assert translate_lines(lines, mirror) == ["NAME        ANIMAL     PLACE", "SMITH JOHN   DOG BIG    PARK THE"]
    assert mirror.given == ["Name", "Animal", "Place", "John Smith", "big dog", "the park"]


def test_two_spaces_after_a_full_stop_stay_inside_the_line_read_as_one(mirror):
    """A typist's two spaces after a full stop part sentences, not columns: the sentence split reads them."""
    assert translate_lines(["A dog runs.  A cat sleeps."], mirror) == ["RUNS. DOG A  SLEEPS. CAT A"]
