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


def test_a_row_of_a_table_drawn_with_bars_is_translated_cell_by_cell_its_bars_and_numbers_kept(mirror):
    """``| Bread | 2.50 |`` came back ``| | Zwei Gitarristen |`` from the demo model: the row was one sentence, the
    price read as words and a cell lost."""
    lines = ["| Item | Price |", "|------|-------|", "| white bread | 2.50 |", "│ big dog │ the park │",
             "Home | About us | Contact"]
    assert translate_lines(lines, mirror) == ["| ITEM | PRICE |", "|------|-------|", "| BREAD WHITE | 2.50 |",
                                              "│ DOG BIG │ PARK THE │", "HOME | US ABOUT | CONTACT"]
    assert mirror.given == ["Item", "Price", "white bread", "big dog", "the park", "Home", "About us", "Contact"]


def test_a_lone_bar_and_bars_inside_a_word_stay_inside_the_sentence(mirror):
    """One bar is no table ("cats | dogs"), nor is a program's ``x|y|z``: each line is one sentence still."""
    assert translate_lines(["big cats | small dogs", "big x|y|z cats"], mirror) == [
        "DOGS SMALL | CATS BIG", "CATS X|Y|Z BIG"]
