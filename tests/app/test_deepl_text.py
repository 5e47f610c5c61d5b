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


def test_split_sentences_sent_as_a_json_number_is_read_as_its_digit():
    """A JSON 0 was read as DeepL's default, "1": the sentence wrapped over two lines split in two."""
    assert as_split(["a man rides\na bike"], {"split_sentences": 0}) == ["a man rides a bike"]
    assert as_split(["a man rides\na bike"], {"split_sentences": 1}) == ["a man rides\na bike"]


@pytest.mark.parametrize(("sent", "translated", "kept"), [
    ("Save changes", "Änderungen speichern.", "Änderungen speichern"),  # a full stop the source never had
    ("a dog runs.", "ein hund rennt", "ein hund rennt."),  # the one the model left out
    ("Save\nCancel", "Speichern.\nAbbrechen.", "Speichern\nAbbrechen"),  # line by line
    ("Delete it?", "Löschen?", "Löschen?"),
    ("(optional)", "(optional).", "(optional)"),
    ("Name:", "Name.", "Name."),  # another mark: as the model wrote it
    ("Save changes ", "Änderungen speichern. ", "Änderungen speichern "),
    ("a man is riding a bike...", "ein Mann fährt Fahrrad.", "ein Mann fährt Fahrrad..."),  # the ellipsis
    ("To be continued…", "Fortsetzung folgt", "Fortsetzung folgt…"),
    ("Loading…", "Wird geladen...", "Wird geladen..."), ("Wait...", "Warten?", "Warten?")])
def test_preserve_formatting_ends_a_line_in_a_full_stop_where_its_source_does(sent, translated, kept):
    assert as_formatted([sent], [translated], {"preserve_formatting": True}) == [kept]
    assert as_formatted([sent], [translated], {"preserve_formatting": "1"}) == [kept]  # deepl-node's form
    assert as_formatted([sent], [translated], {}) == [translated]


@pytest.mark.parametrize(("sent", "translated", "kept"), [
    ("hello world.", "Hallo Welt.", "hallo Welt."),  # a capital its source never had
    ("a man rides a bike\nthe woman cooks", "Ein Mann fährt Rad\nDie Frau kocht", "ein Mann fährt Rad\ndie Frau kocht"),
    ("Two dogs play.", "zwei Hunde spielen.", "Zwei Hunde spielen."),  # the capital the model left out
    ('"hello," she said.', '„Hallo", sagte sie.', '„hallo", sagte sie.'),  # after a quote
    ("- buy milk", "- Milch kaufen", "- milch kaufen"),  # after a bullet
    ("apple pie\nfresh bread", "Apfelkuchen\nFrisches Brot", "apfelkuchen\nfrisches Brot"),  # a noun too, as DeepL
    ("ok, go", "OK, los", "OK, los"),  # a word cased otherwise, as the model wrote it
    ("The iPhone", "iPhone", "iPhone"),
    ("e-mail address", "E-Mail-Adresse", "E-Mail-Adresse"), ("e-mail", "E-mail", "e-mail"),  # a compound
    ("3 dogs", "3 Hunde", "3 Hunde"),  # no letter first
    ("你好", "Hallo", "Hallo"),  # no case in the source
    ("hey. how are you? fine, thanks.", "Hey. Wie geht es dir? Gut, danke.", "hey. wie geht es dir? gut, danke."),
    ("ok. see you tomorrow.", "OK. Bis morgen.", "OK. bis morgen."),  # each sentence's start
    ("hello. bye.", "Hallo und tschüss.", "hallo und tschüss.")])  # sentences not matched: the first alone
def test_preserve_formatting_starts_a_line_with_a_letter_in_its_source_lines_case(sent, translated, kept):
    assert as_formatted([sent], [translated], {"preserve_formatting": True}) == [kept]
    assert as_formatted([sent], [translated], {}) == [translated]


@pytest.mark.parametrize(("sent", "translated", "kept"), [
    ('"two dogs play in the snow"', "Zwei Hunde spielen im Schnee.", '"zwei Hunde spielen im Schnee"'),
    ('"Stop."', "Halt", '"Halt."'),  # the full stop inside the quotes
    ("(optional)", "optional.", "(optional)"),
    ("«A dog runs.»", "Ein Hund rennt.", "«Ein Hund rennt.»"),
    (" [Save] ", " Speichern. ", " [Speichern] "),  # the spaces around the line as the model wrote them
    ('"Stop."', "„Halt.“", "„Halt.“"),  # the model's own quotes
    ('"Stop," she said.', "Halt, sagte sie.", "Halt, sagte sie."),  # a quote that ends inside the line
    ("the dogs' ball", "der Ball der Hunde", "der Ball der Hunde")])
def test_preserve_formatting_keeps_the_quotes_or_brackets_around_a_line(sent, translated, kept):
    assert as_formatted([sent], [translated], {"preserve_formatting": True}) == [kept]
    assert as_formatted([sent], [translated], {}) == [translated]
