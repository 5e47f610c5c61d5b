"""attnmt.documents.quote_forms: the quotes around a whole sentence in the target language's usual form."""

import pytest

from attnmt.documents.pipeline import DocumentOptions, translate_lines
from attnmt.documents.quote_forms import in_target_form


@pytest.mark.parametrize("source, translation, target, written", [
    ("“A dog.”", "“Ein Hund.”", "de", "„Ein Hund.“"),
    ("«A dog.»", "«Ein Hund.»", "de-DE", "„Ein Hund.“"),
    ("“A dog.”", "“Ein Hund.”", "de-CH", "«Ein Hund.»"),
    ("‘A dog.’", "‘Ein Hund.’", "de", "‚Ein Hund.‘"),
    ("„Ein Hund.“", "„A dog.“", "en", "“A dog.”"),
    ("  “A dog.” ", "  “Ein Hund.” ", "de", "  „Ein Hund.“ "),
])
def test_typographic_quotes_around_a_sentence_are_written_as_the_target_language_writes_them(
        source, translation, target, written):
    assert in_target_form(source, translation, target) == written


@pytest.mark.parametrize("source, translation, target", [
    ('"A dog."', '"Ein Hund."', "de"),  # straight quotes, typed so, stay straight
    ("(A dog.)", "(Ein Hund.)", "de"),
    ("“A dog.”", "“Ein Hund.”", None),  # no target language known
    ("“A dog.”", "“Ein Hund.”", "xx"),  # one without a form here
    ("“A dog.”", "Ein Hund.", "de"),  # the translation is not between them
])
def test_straight_quotes_brackets_and_quotes_of_no_known_form_stay_as_they_are(source, translation, target):
    assert in_target_form(source, translation, target) == translation


def test_a_line_quoted_in_english_comes_back_quoted_in_german(known):
    """The server wrote '“Zwei Hunde spielen im Schnee.”' for '“Two dogs play in the snow.”': English quotes in
    a German text."""
    translator = known({"“Two dogs play.”": ("“Zwei Hunde spielen.”", [(0, 0), (1, 1), (2, 2)])})
    options = DocumentOptions(target_lang="de")
    assert translate_lines(["“Two dogs play.”"], translator, options) == ["„Zwei Hunde spielen.“"]
    assert translate_lines(["“Two dogs play.”"], translator) == ["“Zwei Hunde spielen.”"]
