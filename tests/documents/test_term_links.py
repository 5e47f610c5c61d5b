"""A glossary term's source words aligned to the target term the search wrote for them
(attnmt.documents.term_links), so that formatting on a term goes to its target term, with a
stand-in translator whose attention looks where a real model's did on the forced pieces."""

import io

import docx
import pytest
from office_files import docx_bytes

from attnmt.decoding.glossary import Glossary
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.term_links import term_links, with_term_links, word_pairs

SENTENCE = "A man rides a red bike."
# As the model translated it with red bike -> Rennrad: "Mann" attends to "man" and as much to "red"
# (which of all the target words it gives the most), "Rennrad" to "bike." alone.
ATTENTION = ("Ein Mann fährt Rennrad.", [(0, 0), (1, 1), (4, 1), (2, 2), (5, 3)])
BIKES = Glossary.of({"red bike": "Rennrad"})


@pytest.fixture
def termed_known(known):
    translator = known({SENTENCE: ATTENTION})
    translator.glossary = BIKES
    return translator


@pytest.mark.parametrize(("page", "expected"), [
    ("A man rides a <b>red</b> bike.", "Ein Mann fährt <b>Rennrad</b>."),  # was "Ein <b>Mann</b> fährt Rennrad."
    ("A man rides a red <b>bike</b>.", "Ein Mann fährt <b>Rennrad</b>."),
    ("A man rides a <b>red bike</b>.", "Ein Mann fährt <b>Rennrad</b>."),  # was "Ein <b>Mann fährt Rennrad</b>."
    ("A man <b>rides a red</b> bike.", "Ein Mann <b>fährt Rennrad</b>."),
])
def test_a_mark_on_a_terms_source_words_goes_to_its_target_term(termed_known, page, expected):
    assert translate_markup([page], termed_known, DocumentOptions()) == [expected]


def test_a_mark_outside_the_term_keeps_the_models_attention(termed_known):
    assert translate_markup(["A <i>man</i> rides a red bike."], termed_known, DocumentOptions()) == [
        "Ein <i>Mann</i> fährt Rennrad."]


def test_without_the_glossary_the_attention_alone_places_the_mark(termed_known):
    termed_known.glossary = None
    assert translate_markup(["A man rides a <b>red</b> bike."], termed_known, DocumentOptions()) == [
        "Ein <b>Mann</b> fährt Rennrad."]


def test_a_bold_run_on_a_terms_word_in_a_word_file_goes_to_its_target_term(termed_known):
    """The tester's report: runs "Ein " / bold "Mann" / " fährt Rennrad."."""
    assert bold_runs(("A man rides a ", "red", " bike."), termed_known) == [
        ("Ein Mann fährt ", False), ("Rennrad", True), (".", False)]


def bold_runs(parts: tuple[str, str, str], translator) -> list[tuple[str, bool]]:
    """A Word paragraph of ``parts``, the middle one bold, translated: its runs' (text, bold)."""
    document = docx.Document()
    paragraph = document.add_paragraph(parts[0])
    paragraph.add_run(parts[1]).bold = True
    paragraph.add_run(parts[2])
    data = translate_office(docx_bytes(document), ".docx", translator, DocumentOptions())
    return [(run.text, bool(run.bold)) for run in docx.Document(io.BytesIO(data)).paragraphs[0].runs]


# The tester's reports: the forced pieces of each target term attend to "at" / "in" / "love", not to the term.
ACME = ("He works at Acme Corporation today.",
        ("Er arbeitet heute bei Acme Corporation.", [(0, 0), (1, 1), (2, 5), (3, 2), (4, 2), (5, 2)]))
NEW_YORK_CITY = ("He lives in New York City.",
                 ("Er wohnt in New York City.", [(0, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 2)]))
STATES = ("I love the United States.", ("Ich liebe die Vereinigten Staaten.", [(0, 0), (1, 1), (2, 2), (3, 1), (4, 1)]))
NEU_YORK = ("I love New York.", ("Ich liebe Neu York.", [(0, 0), (1, 1), (2, 1), (3, 1)]))
TERMS = Glossary.of({"Acme Corporation": "Acme Corporation", "New York City": "New York City",
                     "United States": "Vereinigten Staaten", "New York": "Neu York"})


@pytest.fixture
def termed_places(known):
    translator = known(dict([ACME, NEW_YORK_CITY, STATES, NEU_YORK]))
    translator.glossary = TERMS
    return translator


@pytest.mark.parametrize(("page", "expected"), [
    # was "Er arbeitet heute bei <b>Acme</b> Corporation."
    ("He works at Acme <b>Corporation</b> today.", "Er arbeitet heute bei Acme <b>Corporation</b>."),
    # was "Er arbeitet heute bei <b>Acme Corporation</b>."
    ("He works at <b>Acme</b> Corporation today.", "Er arbeitet heute bei <b>Acme</b> Corporation."),
    ("He lives in New <i>York</i> City.", "Er wohnt in New <i>York</i> City."),  # was "<i>New</i> York City"
    ("He lives in New York <i>City</i>.", "Er wohnt in New York <i>City</i>."),
    ("I love the United <b>States</b>.", "Ich liebe die Vereinigten <b>Staaten</b>."),
    ("I love the <b>United</b> States.", "Ich liebe die <b>Vereinigten</b> Staaten."),
    ("He works at <b>Acme Corporation</b> today.", "Er arbeitet heute bei <b>Acme Corporation</b>."),
])
def test_a_mark_on_one_word_of_a_term_goes_to_the_target_word_that_translates_it(termed_places, page, expected):
    assert translate_markup([page], termed_places, DocumentOptions()) == [expected]


def test_a_bold_run_on_one_word_of_a_term_in_a_word_file_goes_to_the_word_that_translates_it(termed_places):
    """The tester's report: ``New **York**`` with New York -> Neu York came out ``**Neu** York``."""
    assert bold_runs(("I love New ", "York", "."), termed_places) == [
        ("Ich liebe Neu ", False), ("York", True), (".", False)]


@pytest.mark.parametrize(("source", "target", "pairs"), [
    ("Acme Corporation", "Acme Corporation", [{0}, {1}]),
    ("New York", "Neu York", [{0}, {1}]),  # "York" spelt the same, "Neu" the one left for "New"
    ("Tom and Jerry", "Jerry und Tom", [{2}, {1}, {0}]),  # spelt the same goes before the order
    ("United States", "Vereinigte Staaten", [{0}, {1}]),  # as many words: in order
    ("red bike", "Rennrad", [{0, 1}]),  # not as many: all the source words
    ("bike", "Fahr Rad", [{0}, {0}]),
    ("New York City", "NYC Stadt", [{0, 1, 2}, {0, 1, 2}]),
    ("Acme Corp", "ACME Corp GmbH", [{0}, {1}, {0, 1}]),  # none left for "GmbH": all of them
])
def test_each_target_word_of_a_term_translates_the_source_word_spelt_the_same_else_the_one_at_its_place(
        source, target, pairs):
    assert word_pairs(source.split(), target.split()) == pairs


def test_the_terms_target_words_attend_to_its_source_words_alone_and_evenly():
    weights = [[0, 1, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]  # "Mann" and "Rennrad." of a shorter translation
    linked = with_term_links(SENTENCE, "Mann Rennrad.", weights, BIKES)
    assert linked == [[0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0.5, 0.5]]
    assert weights == [[0, 1, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]  # the weights given are not changed


@pytest.mark.parametrize("weights", [None, [[1.0]]])
def test_weights_stay_as_they_are_without_weights_or_a_term_written(weights):
    assert with_term_links("A red bike.", "Ein rotes Rad.", weights, BIKES) == weights
    assert with_term_links("A red bike.", "Ein Rennrad.", weights, None) == weights


def test_a_target_term_written_once_for_a_source_term_that_occurs_twice_is_left_to_the_attention():
    """Which place it translates is not known: linked to both, it took a mark from the first."""
    assert term_links("red bike or red bike", "Rennrad", BIKES) == {}


def test_a_mark_on_a_term_whose_target_term_translates_another_place_keeps_the_models_attention(known):
    """As the model wrote it: the first "red bike" as "einem roten Fahrrad", the second as the term.
    The bold "red" went to "Rennrad", the translation of the second."""
    translator = known({"A man rides a red bike and a red bike.": (
        "Ein Mann fährt auf einem roten Fahrrad und Rennrad.",
        [(0, 0), (1, 1), (2, 2), (3, 3), (3, 4), (4, 5), (5, 6), (6, 7), (9, 8)])})
    translator.glossary = BIKES
    assert translate_markup(["A man rides a <b>red</b> bike and a red bike."], translator, DocumentOptions()) == [
        "Ein Mann fährt auf einem <b>roten</b> Fahrrad und Rennrad."]


def test_a_target_term_written_at_each_place_pairs_them_in_order():
    assert term_links("red bike or red bike", "Rennrad oder Rennrad", BIKES) == {0: {0, 1}, 2: {3, 4}}


def test_which_target_term_is_which_is_left_to_the_attention_where_the_counts_differ():
    assert term_links("red bike or red bike", "Rennrad, Rennrad, Rennrad", BIKES) == {}


@pytest.mark.parametrize("translation", ["Ein Rennradfahrer.", "Ein Rennrad-Fahrer.", "Ein ElektroRennrad."])
def test_a_target_term_inside_a_longer_word_is_not_the_term(translation):
    assert term_links("A red bike.", translation, BIKES) == {}
