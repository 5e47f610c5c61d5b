"""What the server writes of a client's text where it was not asked to (attnmt.server.client_text)."""

import time

import pytest

from attnmt.server.client_text import without_text

SECRET = "Geheimprojekt Käse läuft"  # what no log line or error answer may hold without --log-text
LINES = "Erste Zeile des Plans\n  Zweite Zeile des Plans  \n"


@pytest.mark.parametrize(("message", "texts", "written"), [
    (f"the search broke on {SECRET} here", [SECRET], "the search broke on <24 characters> here"),
    (f"the search broke on '{SECRET}'", [SECRET], "the search broke on <24 characters>"),
    (f'the search broke on ["{SECRET}"]', [SECRET], "the search broke on [<24 characters>]"),
    (f"{SECRET}, then {SECRET}!{SECRET}", [SECRET, SECRET],
     "<24 characters>, then <24 characters>!<24 characters>"),
    (f"failed: {LINES} and again: Zweite Zeile des Plans.", [LINES],
     "failed: <49 characters> and again: <22 characters>."),
])
def test_without_text_hides_every_occurrence_of_each_text_quoted_or_not(message, texts, written):
    """Only quoted texts were hidden: a message holding the text bare kept it.  A text's lines
    (stripped, as the model is handed them) are hidden too."""
    assert without_text(message, texts) == written


def test_without_text_hides_a_multiline_text_repr_wrote_with_its_escapes():
    written = without_text(f"failed on {LINES!r}: {LINES.upper()}", [LINES])
    assert "Zeile" not in written and "Plans" not in written and written.startswith("failed on <")


def test_without_text_hides_a_longer_text_whole_and_joins_overlapping_ones():
    """A text inside a longer one leaves nothing of the longer; overlapping texts are one stretch."""
    assert without_text("on a dog runs fast, dog runs", ["dog runs", "a dog runs fast"]) == (
        "on <15 characters>, <8 characters>")
    assert without_text("on a dog runs fast", ["a dog runs", "runs fast"]) == "on <15 characters>"


def test_without_text_hides_a_text_where_it_stands_as_whole_words():
    """A text "a" hid every "a" of the message: "CUDA out of memory" came out "CUD<1 character> out of memory"."""
    message = "CUDA out of memory. Tried to allocate a tensor for 'a'"
    assert without_text(message, ["a", "memory"]) == "CUDA out of <6 characters>. Tried to allocate <1 character> " \
                                                     "tensor for <1 character>"


def test_without_text_leaves_a_message_alone_for_a_blank_text():
    assert without_text("out of memory", ["", "   ", "\n"]) == "out of memory"


def test_without_text_hides_what_follows_a_quote_never_closed():
    """It was kept whole: the text may be cut short, its closing quote with it."""
    assert without_text(f"failed on '{SECRET[:10]}") == "failed on <text>"


@pytest.mark.parametrize("message, texts", [
    ("'" + "\\'" * 200_000, []),  # quotes never closed: each one searched to the message's end was quadratic
    ("a " * 100_000, ["a " * 50_000 + "b", "a " * 30_000 + "c"]),  # long texts that almost occur everywhere
    ("ab " * 100_000, [f"ab x{i}" for i in range(20_000)]),  # many texts
])
def test_without_text_takes_time_in_proportion_to_its_input(message, texts):
    start = time.perf_counter()
    without_text(message, texts)
    assert time.perf_counter() - start < 10
