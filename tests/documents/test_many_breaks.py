"""A paragraph of thousands of lines or fields, each ending with a stop kept in markup (``A
b<b>.</b><br/>``, a cell's ``Name<b>.</b><tab/>``), is parted into sentences with work in
proportion to them, and where the readable code below, kept here as the reference, parts it: each
break placed in the text read with its stops, after the stops at its place."""

from hypothesis import given, settings
from hypothesis import strategies as st
from support import lines_run

from attnmt.documents import sentences
from attnmt.documents.bidi import edges
from attnmt.documents.markup import translate_markup


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
