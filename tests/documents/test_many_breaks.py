"""A paragraph of thousands of lines or fields, each ending with a stop kept in markup (``A
b<b>.</b><br/>``, a cell's ``Name<b>.</b><tab/>``) or with no letter after its line break
(``-<br/>``), is parted into sentences with work in proportion to them, and where the readable code
below, kept here as the reference, parts it: each break placed in the text read with its stops,
after the stops at its place, and each line break ending its sentence where the first letter after
it is no lower-case one."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from support import lines_run

from attnmt.documents import sentences
from attnmt.documents.bidi import edges
from attnmt.documents.markup import translate_markup
from attnmt.documents.wrapped_lines import ended_lines, listed_breaks


def readable_with_stops(text, language, breaks, stops):
    """with_stops as it was: for each break, every character read and every stop gone through."""
    shown, places, ends = [], [], []
    pending = sorted(stops)
    for position in range(len(text) + 1):
        while pending and pending[0][0] <= position:
            characters = pending.pop(0)[1]
            shown += characters
            places += [position] * len(characters)
            ends += [position] * len(characters)
        if position < len(text):
            shown.append(text[position])
            places.append(position)
            ends.append(position + 1)
    read = "".join(shown)
    moved = [len([p for p in places if p < b]) + sum(len(c) for p, c in stops if p == b) for b in breaks]
    spans = [edges(text, places[s] if s < len(places) else len(text), ends[e - 1])
             for s, e in sentences.segmented(read, language, True, moved, ())]
    return [span for span in spans if span[0] < span[1]]


TEXT = st.lists(st.sampled_from(["A", "b", "Mr", "cat", "x", "2", " ", "  ", "\t", "\n", "\u2067", "\u2069",
                                 "¹", "."]), max_size=40).map("".join)
STOP = st.sampled_from([".", "!", "?", "...", ". ", "。"])


@settings(max_examples=50, deadline=None)
@given(text=TEXT, data=st.data())
def test_a_text_with_stops_and_breaks_is_parted_where_the_readable_code_parts_it(text, data):
    """Stops and breaks anywhere from the text's start to its end, several at one place, a break
    where a stop stands or not, breaks in any order."""
    n = len(text)
    stops = data.draw(st.lists(st.tuples(st.integers(0, n), STOP), max_size=8))
    breaks = data.draw(st.lists(st.integers(0, n), max_size=8))
    assert sentences.with_stops(text, "en", breaks, stops) == readable_with_stops(text, "en", breaks, stops)


def test_a_paragraph_of_lines_each_ending_with_a_stop_in_markup_takes_steps_in_proportion_to_them(same):
    """``A b<b>.</b><br/>`` 300 and 1,200 times: each line break (a capital after it starts a new
    sentence) went through every character read before it and every stop of the paragraph for its
    place in the text read with the stops (growth near 10 for 4 times the lines); now it is found
    by bisection (growth near 4)."""
    few, many = (lines_run(lambda n=n: translate_markup(["<p>" + "A b<b>.</b><br/>" * n + "</p>"], same))
                 for n in (300, 1200))
    assert many / few < 4.5


def readable_ended_lines(text, line_breaks):
    """ended_lines as it was: the rest of the text copied at each break and read to its first letter (a list's
    items typed a line each, listed_breaks, end theirs too)."""
    in_a_row = {at for pair in pairwise(line_breaks) if not text[slice(*pair)].strip() for at in pair}
    in_a_row |= listed_breaks(text, line_breaks)
    return [at for at in line_breaks
            if at in in_a_row or not next((ch for ch in text[at:] if ch.isalnum()), "").islower()]


# Letters and digits of every kind str.isalnum takes (lower, upper and title case, a script without
# case, a superscript digit, a Roman numeral) beside what it does not (the underscore, punctuation).
LINES = st.lists(st.sampled_from(["a", "B", "2", "ß", "é", "É", "ǅ", "中", "²", "Ⅻ", "_", "-", ".", " ", "\n"]),
                 max_size=30).map("".join)


@settings(max_examples=50, deadline=None)
@given(text=LINES, data=st.data())
def test_the_line_breaks_that_end_a_sentence_are_those_the_readable_code_finds(text, data):
    """Breaks anywhere from the text's start to its end, several at one place."""
    line_breaks = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=10)))
    assert ended_lines(text, line_breaks) == readable_ended_lines(text, line_breaks)


def test_a_paragraph_of_line_breaks_with_no_letter_after_them_takes_steps_in_proportion_to_them(same):
    """``-<br/>`` 300 and 1,200 times: each line break read the whole rest of the paragraph for a
    letter after it, and found none (growth near 9 for 4 times the lines); now each reads only as
    far as the next break (growth near 4)."""
    few, many = (lines_run(lambda n=n: translate_markup(["<p>" + "-<br/>" * n + "</p>"], same))
                 for n in (300, 1200))
    assert many / few < 4.5


class Counted(str):
    """A text that counts the characters taken out of it (one at a time or in slices)."""

    taken = 0

    def __getitem__(self, index):
        found = super().__getitem__(index)
        Counted.taken += len(found)
        return found


def test_the_text_is_read_once_for_the_first_letter_after_each_line_break():
    """2,000 lines of 100 characters, each starting with a capital: each break copied the whole rest
    of the text to read its first letter, 200 million characters taken; now each break's letter is
    read in place, and only the text between two breaks is taken, to learn whether it is blank."""
    text = Counted(("A" + "b" * 98 + "\n") * 2_000)
    line_breaks = list(range(99, len(text), 100))
    Counted.taken = 0
    assert ended_lines(text, line_breaks) == line_breaks
    assert Counted.taken <= len(text)
