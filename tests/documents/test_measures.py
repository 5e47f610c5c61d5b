"""A number with a sign the model's vocabulary cannot write ("12 °C", "5 €", "½") is kept whole as one atom,
not its sign alone with the number left to the model (attnmt.documents.measures)."""

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnmt.checkpoint import load_model_dir
from attnmt.documents import translate_text
from attnmt.documents.markup import translate_markup
from attnmt.documents.measures import _GAP, _JOINED, CURRENCY, MEASURE, measure_runs
from attnmt.documents.pipeline import translate_lines

MEASURES = ["12 °C", "12°C", "12°Celsius", "12 ° Fahrenheit", "-5 °C", "350 °F", "12 ° C", "25°", "90°", "20–25 °C",
            "12 °C (54 °F)",
            "5 €", "€5", "€ 5", "£1,000.50", "1 000 €", "50 µm", "2 × 4", "5 ± 1 °C", "½", "3½",
            "12 345,50 €", "~5 €", "≥ 12", "§ 5", "№ 5", "3 €/kg", "5 µg/ml", "12°C/54°F",
            "20 m²", "5 cm³", "30 × 40 cm", "≥ 5 km"]


@pytest.mark.parametrize("measure", MEASURES)
def test_a_measure_with_a_sign_the_vocabulary_lacks_is_kept_whole_by_its_words(unitless, measure):
    """The sign alone was taken out: the model read "It is 12 C outside.", and the demo model wrote
    "Es ist im °Freien zu sehen.", the number lost and the sign glued to another word."""
    line = f"It is {measure} outside."
    assert translate_lines([line], unitless) == [line]
    assert unitless.given == ["It is outside."]


@pytest.mark.parametrize("measure", ["30 × 2 yd", "≥ 5 lb", "3 × 10 t", "20 × 5 gal", "2 × 4 oz", "5 ± 1 mcg"])
def test_any_known_length_weight_or_volume_spaced_after_a_kept_measure_stays_in_it(unitless, measure):
    """The units a measure keeps spaced after its last number are attnmt.text.units' lengths, weights and volumes:
    a short list of its own left "yd" or "lb" to the model, which read "The rope is yd long." and the demo model
    wrote "The rope is 30 × 2 yd long." as "Der 30 × 2 Seil.", the unit lost."""
    line = f"The rope is {measure} long."
    assert translate_lines([line], unitless) == [line]
    assert unitless.given == ["The rope is long."]


@pytest.mark.parametrize("line, read", [("In 2019 150 € were paid.", "In 2019 were paid."),
                                        ("In 2019 1 500 € were paid.", "In 2019 were paid."),
                                        ("On page 12 5 € are listed.", "On page 12 are listed.")])
def test_a_number_before_a_price_is_no_group_of_its_digits(unitless, line, read):
    """"2019 150 €" was one atom, read as a number in groups of digits: the model read "In were paid."."""
    assert translate_lines([line], unitless) == [line]
    assert unitless.given == [read]


def test_the_hyphen_that_glues_a_measure_to_a_word_goes_with_it(unitless):
    """Left behind, the model read "Draw a -angle." and the demo model wrote "Auf einem 25° Deuner."."""
    assert translate_lines(["Draw a 25°-angle."], unitless) == ["Draw a 25°-angle."]
    assert unitless.given == ["Draw a angle."]


def test_a_number_sign_the_vocabulary_reads_as_letters_is_kept_with_its_number(unitless):
    """The vocabulary writes "№" as NFKC reads it, "No": the demo model wrote "The dog is in room № 5." as "Der Hund
    befindet sich in einem Raum.", the sign and the number lost."""
    assert translate_lines(["The dog is in room № 5."], unitless) == ["The dog is in room № 5."]
    assert unitless.given == ["The dog is in room ."]


def test_a_measure_at_a_sentence_end_keeps_the_stop_for_the_model(unitless):
    assert translate_lines(["The water boils at 100 °C."], unitless) == ["The water boils at 100 °C."]
    assert unitless.given == ["The water boils at ."]


@pytest.mark.parametrize("line, read", [("Pay 5 €, then go.", "Pay, then go."),
                                        ("It costs 3 €; that is cheap.", "It costs; that is cheap."),
                                        ("A dog 🐕, a cat and 20 m² (all of it) here.",
                                         "A dog, a cat and (all of it) here."),
                                        ("Take 5 €), then go.", "Take), then go.")])
def test_a_kept_measure_or_emoji_before_a_comma_leaves_no_space_before_it(unitless, line, read):
    """"Pay 5 €, then go." read "Pay , then go.", a space before the comma, which the model copied or lost the
    comma with: the space goes out with the atom, which writes it back, as a URL's does (closing_marks)."""
    assert translate_lines([line], unitless) == [line]
    assert unitless.given == [read]


@pytest.mark.parametrize("page, read", [("<p><b>runs 👍🏽</b>, fast.</p>", "runs, fast."),
                                        ("<p>Pay <b>only 5 €</b>, then go.</p>", "Pay only, then go."),
                                        ("<p>A <i>dog 🐕</i>; a cat.</p>", "A dog; a cat.")])
def test_a_kept_measure_or_emoji_ending_an_element_before_a_comma_leaves_no_space_before_it(unitless, page, read):
    """The comma after the element's end: the model read "runs , fast."."""
    assert translate_markup([page], unitless) == [page]
    assert unitless.given == [read]


@pytest.mark.parametrize("page", ["<p>Pay <b>5 €</b>,<b>6 €</b>, then go.</p>",
                                  "<p>Open <i>9:00</i>,<span>17:30</span>.</p>",
                                  "<p><a href='x'>20 %</a>,<a href='y'>-5 %</a>,<b>2024-05-01</b> now.</p>",
                                  "<p>Pay 5 €,<b>6 €</b> now.</p>",
                                  "<p>At <b>12:30</b>/<b>1,5 °C</b> and <i>3:15</i>:<i>4:45</i>.</p>"])
def test_a_measure_or_number_a_mark_parts_from_a_separator_before_it_is_kept(unitless, page):
    """Glued to the comma before it, "6 €" read as the decimals of "5,6 €" and neither was a measure: the demo model
    read "Pay 5,6 €, then go." and wrote "Spielen €", each number lost.  The element's edge parts them."""
    assert translate_markup([page], unitless) == [page]
    assert not any(c.isdigit() for c in unitless.given[0])


def test_a_separator_no_mark_parts_from_a_number_joins_it():
    """Without an edge, "5,6 €" is one price, and "1,000" one number."""
    unwritten = lambda text: "€" not in text  # noqa: E731
    assert measure_runs("Pay 5,6 € or 1,000 €.", set(), unwritten) == [(4, 9), (13, 20)]
    assert measure_runs("Pay 5,6 € or 1,000 €.", {6}, unwritten) == [(6, 9), (13, 20)]


def test_numbers_and_prices_the_vocabulary_writes_go_to_the_model(unitless):
    line = "A man pays $5 for 3 cakes at 12 C, 1,000.50 in all, 2019."
    assert translate_lines([line], unitless) == [line]
    assert unitless.given == [line]


def test_a_measure_a_mark_cuts_is_kept_in_its_pieces(unitless):
    """"<b>12</b> °C": the sign alone was taken out, and the demo model wrote "Es ist im °Freien <b>zu sehen</b>."."""
    [translated] = translate_markup(["<p>It is <b>12</b> °C outside.</p>"], unitless)
    assert "<b>12</b> °C outside." in translated and unitless.given[0].split() == ["It", "is", "outside."]
    assert measure_runs("It is 12 °C.", {8}, lambda text: "°" not in text) == [(6, 8), (9, 11)]
    assert measure_runs("It is 12 °C.", {6, 11}, lambda text: "°" not in text) == [(6, 11)]


def test_a_measure_the_vocabulary_writes_is_not_taken():
    assert measure_runs("It is 12 °C, 5 €.", set(), lambda text: True) == []


def test_the_tiny_model_reads_no_temperature_and_writes_it_back(trained_model, reached):
    model, tokenizer = load_model_dir(trained_model)
    [found] = translate_text(model, tokenizer, ["a dog runs at -5 °C"])
    assert reached == ["a dog runs at"] and "-5 °C" in found


def test_the_currency_signs_are_every_currency_sign_of_the_plane():
    """The readable reference of CURRENCY, which skips the blocks of ideographs (attnmt.text.code_points): every code
    point of the Basic Multilingual Plane scanned."""
    assert CURRENCY == "".join(c for c in map(chr, range(0x10000)) if unicodedata.category(c) == "Sc")


# MEASURE as it reads: a measure in brackets, or one with its conversion in brackets after it, if any; MEASURE writes it
# with the measure twice, not three times (a third less to compile at every start: issue 44).
READABLE_MEASURE = re.compile(rf"(?:\({_JOINED}\)|{_JOINED}(?:{_GAP}?\({_JOINED}\))?)(?!\w)(?:-(?=[^\W\d_]))?")
MEASURE_CHARACTERS = "0123456789 \u00a0\u2009,.-–−+()°CFc€£$µm²×±~§/kg½ae"


def found(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("around", ["{}", "({})", "({}", "{})", "{} ({})", "{}({})", "({}) ({})", "a {}-a", "({} (x)"])
def test_measure_finds_the_spans_its_readable_form_finds_around_each_measure(measure, around):
    text = around.format(measure, measure)
    assert found(MEASURE, text) == found(READABLE_MEASURE, text)


@settings(max_examples=2000, deadline=None)
@given(st.text(MEASURE_CHARACTERS, max_size=40))
def test_measure_finds_the_spans_its_readable_form_finds(text):
    assert found(MEASURE, text) == found(READABLE_MEASURE, text)
