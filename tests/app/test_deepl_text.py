"""DeepL's split_sentences and preserve_formatting on a plain text, as deepl-python and deepl-node send them."""

import pytest

from attnmt.server.deepl_text import as_formatted, as_split


@pytest.mark.parametrize(("sent", "read"), [
    ("A man in a blue shirt is standing\non a ladder.", "A man in a blue shirt is standing on a ladder."),
    ("wrapped\r\nhere", "wrapped here"),
    ("One ends.\nTwo", "One ends.\nTwo"),
    ('He said "stop."\nThen', 'He said "stop."\nThen'),
    ("a paragraph\n\nanother", "a paragraph\n\nanother")])
def test_nonewlines_reads_a_line_break_inside_a_sentence_as_a_space(sent, read):
    assert as_split([sent], {"split_sentences": "nonewlines"}) == as_split([sent], {"split_sentences": "0"}) == [read]
    assert as_split([sent], {"split_sentences": "1"}) == [sent]


@pytest.mark.parametrize(("sent", "translated", "kept"), [
    ("Save changes", "Änderungen speichern.", "Änderungen speichern"),  # a full stop the source never had
    ("A dog runs.", "ein hund rennt", "ein hund rennt."),  # the one the model left out
    ("Save\nCancel", "Speichern.\nAbbrechen.", "Speichern\nAbbrechen"),  # line by line
    ("Delete it?", "Löschen?", "Löschen?"),
    ("(optional)", "(optional).", "(optional)"),
    ("Name:", "Name.", "Name."),  # another mark: as the model wrote it
    ("Save changes ", "Änderungen speichern. ", "Änderungen speichern ")])
def test_preserve_formatting_ends_a_line_in_a_full_stop_where_its_source_does(sent, translated, kept):
    assert as_formatted([sent], [translated], {"preserve_formatting": True}) == [kept]
    assert as_formatted([sent], [translated], {"preserve_formatting": "1"}) == [kept]  # deepl-node's form
    assert as_formatted([sent], [translated], {}) == [translated]
