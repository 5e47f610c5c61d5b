"""A terminal's escape codes at a text's edges, apart from the words they enclose (attnmt.text.terminal_codes)."""

import pytest

from attnmt.text.terminal_codes import Edges, at_edges


@pytest.mark.parametrize("text, edges", [
    ("\x1b[1mA dog runs.\x1b[0m", ("\x1b[1m", "A dog runs.", "\x1b[0m")),
    ("\x1b[31m \x1b[1mWarning: disk full\x1b(B\x1b[m\n", ("\x1b[31m \x1b[1m", "Warning: disk full", "\x1b(B\x1b[m\n")),
    ("A \x1b[31mred\x1b[0m car.", ("", "A \x1b[31mred\x1b[0m car.", "")),
    ("\x1b]8;;https://example.org\x1b\\Docs\x1b]8;;\x1b\\", ("\x1b]8;;https://example.org\x1b\\", "Docs",
                                                           "\x1b]8;;\x1b\\")),
    ("A dog runs.", ("", "A dog runs.", "")),
    ("\x1b[0m", ("\x1b[0m", "", "")),
])
def test_the_codes_at_a_text_s_edges_are_told_apart_from_what_they_enclose(text, edges):
    assert at_edges(text) == edges
    assert "".join(at_edges(text)) == text


def test_a_translation_goes_between_the_edges_and_an_empty_one_stays_empty():
    edges = Edges("\x1b[1m", "A dog runs.", "\x1b[0m")
    assert edges.around("Ein Hund rennt.") == "\x1b[1mEin Hund rennt.\x1b[0m"
    assert edges.around("") == ""
