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


def test_bars_a_sentence_goes_on_past_are_no_columns(mirror):
    """Split at its bars, "Use | to pipe: ls | grep txt" was three sentences ("Use", "to pipe: ls", "grep txt"): a
    bar named in prose or piping a command has lower-case words after it, a menu's and a row's cells do not."""
    prose = ["Use | to pipe: ls | grep txt", "Run cat notes | sort | uniq -c to count.",
             "Öffne die Datei | ändere sie | speichere"]
    rows = ["Home | About us | Contact", "home | about | contact", "Anna | Berlin | teacher"]
    out = translate_lines(prose + rows, mirror)
    assert mirror.given[:3] == prose
    assert out[0] == "TXT GREP | LS PIPE: TO | USE"  # each bar between the words it stood between
    assert mirror.given[3:] == ["Home", "About us", "Contact", "home", "about", "contact", "Anna", "Berlin", "teacher"]
