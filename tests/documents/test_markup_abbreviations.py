"""An abbreviation's element (attnmt.documents.abbreviations): ``<abbr>`` and ``<acronym>`` kept whole,
their ``title`` translated; one that spells words out (a microformat's date) read with its sentence.
Upper: every sentence upper-cased, so a kept abbreviation keeps its case; Same records what it is given."""

import pytest

from attnmt.documents.abbreviations import spells_out
from attnmt.documents.markup import translate_markup
from attnmt.documents.pipeline import DocumentOptions


def one(text, translator, **options):
    return translate_markup([text], translator, **options)[0]


@pytest.mark.parametrize("abbreviation, title", [
    ("WHO", "World Health Organization"),
    ("HTML5", "HyperText Markup Language, version 5"),
    ("U.S.", "United States"),
    ("km", "kilometres"),
    ("e.g.", "for example"),
    ("approx.", "approximately"),
    ("et al.", "and others"),
])
def test_an_abbreviation_is_not_given_to_the_model_and_its_title_is(same, abbreviation, title):
    """Read with its sentence, the demo model put "Kinder" in the <abbr> of "WHO": the short form is a name."""
    page = f'<p>The report of the <abbr title="{title}">{abbreviation}</abbr> was read by many people today.</p>'
    assert one(page, same) == page
    assert not any(abbreviation in sentence for sentence in same.given)
    assert title in same.given and "The report of the was read by many people today." in same.given


@pytest.mark.parametrize("tag", ["abbr", "acronym"])
def test_an_abbreviation_keeps_its_letters_as_written_and_its_title_is_translated(upper, tag):
    out = one(f'<p>Walk 5 <{tag} title="kilometres per day">km</{tag}> a day, as the doctors say.</p>', upper)
    assert f'<{tag} title="KILOMETRES PER DAY">km</{tag}>' in out
    assert out.startswith("<p>WALK 5 ") and out.endswith(" A DAY, AS THE DOCTORS SAY.</p>")


def test_an_abbreviation_without_a_title_is_kept_too(upper):
    assert one("<li>Drive at 30 <abbr>mph</abbr> here.</li>", upper) == "<li>DRIVE AT 30 <abbr>mph</abbr> HERE.</li>"


def test_an_abbreviations_title_stays_where_attributes_are_not_translated(upper):
    out = one('<p>Fruit, <abbr title="for example">e.g.</abbr> apples, is good.</p>', upper,
              options=DocumentOptions(attributes=()))
    assert '<abbr title="for example">e.g.</abbr>' in out and "GOOD." in out


def test_an_abbr_around_a_date_in_words_is_read_with_its_sentence(same):
    """An old microformat's misuse (hCalendar's ``<abbr class="dtstart" title="…">``): words, no short form."""
    page = ('<p>We open on <abbr class="dtstart" title="2008-01-01">January 1, 2008</abbr> at noon '
            '<abbr title="Coordinated Universal Time">UTC</abbr>.</p>')
    assert one(page, same) == page
    assert same.given == ["Coordinated Universal Time", "We open on January 1, 2008 at noon."]


@pytest.mark.parametrize("text, spelled", [
    ("WHO", False), ("e.g.", False), ("approx.", False), ("Sept", False), ("et al.", False), ("Ph. D.", False),
    ("kg/m²", False), ("GmbH", False), ("January 1, 2008", True), ("rest", True), ("Straße", True),
])
def test_a_text_spells_out_a_word_of_four_lower_case_letters_in_a_row_not_cut_short(text, spelled):
    assert spells_out(text) is spelled
