"""The verbatim rule: a translation whose URLs, e-mail addresses or numbers differ from its source's."""

import pytest

from attnmt.decoding.quality import Assessment
from attnmt.decoding.quality_joined import joined, read_whole
from attnmt.decoding.verbatim import differs, number_key


@pytest.mark.parametrize("source, translation", [
    ("A dog runs in http://example.com/park today.", "Ein Hund rennt heute."),  # a URL dropped
    ("A dog runs in the park.", "Ein Hund rennt im Park. http://evil.example/x"),  # a URL added
    ("Go to http://a.org/x now.", "Geh jetzt zu http://a.org/y."),  # a URL changed
    ("Write to ann@example.com.", "Schreib an bob@example.com."),  # an address changed
    ("3 dogs run.", "5 Hunde rennen."),  # a number changed
    ("3 dogs run.", "Hunde rennen."),  # a number dropped
    ("Dogs run.", "12 Hunde rennen."),  # a number added
    ("2 dogs and 2 cats.", "2 Hunde und Katzen."),  # one of two dropped
])
def test_a_url_address_or_number_that_differs_breaks_the_rule(source, translation):
    assert differs(source, translation)


@pytest.mark.parametrize("source, translation", [
    ("See http://example.com/park, 3 dogs.", "Siehe http://example.com/park, 3 Hunde."),
    ("It weighs 1,000.5 kg.", "Es wiegt 1.000,5 kg."),  # localised separators
    ("It weighs 1,000.5 kg.", "Es wiegt 1 000,5 kg."),
    ("3.5 m", "3,5 m"),
    ("2 dogs run.", "Zwei Hunde rennen."),  # a number in words on the other side
    ("Two dogs run.", "2 Hunde rennen."),
    ("25 dogs run.", "Fünfundzwanzig Hunde rennen."),
    ("2 females, 1 from Germany and 1 from China.", "Zwei Frauen, eine aus Deutschland und eine aus China."),
    ("He came 1st.", "Er wurde Erster."),
    ("Read http://a.org/v2 now.", "Lies jetzt http://a.org/v2."),  # a URL's digits are no number of the text
])
def test_a_good_translation_keeps_the_rule(source, translation):
    assert not differs(source, translation)


def test_a_number_is_its_digits_without_separators_or_leading_zeros():
    assert number_key("1,000.5") == number_key("1.000,5") == number_key("1\u202f000,5") == "10005"
    assert number_key("08") == "8" and number_key("000") == "0"


def test_a_text_read_sentence_by_sentence_is_read_whole_for_the_verbatim_rule():
    """The sentences the model read have no URL, so the rule fires over the whole text alone; and a
    number in another sentence of the translation than of the source is there all the same."""
    parts = [Assessment(0.9, [], False), Assessment(0.8, ["verbatim"], False)]
    dropped = read_whole(joined(parts[:1]), "A dog runs in http://example.com/park today.", "Ein Hund rennt heute.")
    moved = read_whole(joined(parts), "Dogs run. I saw 3.", "3 Hunde rennen. Ich sah sie.")
    assert dropped.flags == ["verbatim"] and dropped.quality == 0.9  # a rule flag: the quality stays
    assert moved.flags == [] and moved.quality == 0.8
    assert read_whole(None, "a", "b") is None
