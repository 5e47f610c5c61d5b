"""Inline HTML in a Markdown run (attnmt.documents.markdown_html): a paired element that says it is kept from
translation (``translate="no"``, class ``notranslate``) is read as a page's is (attnmt.documents.kept_names): a name
or an identifier of one word with its sentence, written back as it came over its copy; a passage of several words
kept out of it.  Same records what it is given; Known gives each sentence the model reads its translation."""

import pytest

from attnmt.documents.markdown import translate_markdown


@pytest.mark.parametrize("text, sentence", [
    ('Model number <span translate="no">AZ-2040-X</span> ships today.', "Model number AZ-2040-X ships today."),
    ("The <i translate='no'>X-200</i> camera is **new**.", "The X-200 camera is new."),
    ("- Order <span translate=no>SKU-1234-B</span> before noon.", "Order SKU-1234-B before noon."),
])
def test_a_kept_name_in_inline_html_is_read_with_its_sentence(same, text, sentence):
    """Its attribute was not read: the identifier was taken out of the sentence ("Model number ships today.")."""
    assert translate_markdown(text, same) == text
    assert same.given == [sentence]


@pytest.mark.parametrize("text, name", [
    ('Sign in to <b class="brand notranslate">GitHub</b> today.', '<b class="brand notranslate">GitHub</b>'),
    ("1. Order <span translate=no>Qx7</span> before noon.", "<span translate=no>Qx7</span>"),
])
def test_a_kept_name_in_inline_html_comes_back_as_written(upper, text, name):
    """Read as a mark around words, the name was translated with them ("GITHUB")."""
    out = translate_markdown(text, upper)
    assert name in out and ("TODAY" in out or "NOON" in out)


def test_a_kept_passage_of_several_words_in_inline_html_is_not_translated(upper):
    text = 'Keep <span translate="no">this part exactly</span> as it is, *please*.'
    out = translate_markdown(text, upper)
    assert '<span translate="no">this part exactly</span>' in out and "KEEP" in out and "*PLEASE*" in out


def test_a_kept_identifier_in_inline_html_goes_over_its_copy(known):
    translator = known({"Model number AZ-2040-X ships today.": (
        "Die Modellnummer AZ-2040-X wird heute geliefert.", [(0, 1), (1, 1), (2, 2), (3, 4), (4, 5)])})
    out = translate_markdown('Model number <span translate="no">AZ-2040-X</span> ships today.', translator)
    assert out == 'Die Modellnummer <span translate="no">AZ-2040-X</span> wird heute geliefert.'
