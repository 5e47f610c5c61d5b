"""A link whose translation an earlier sibling holds whole goes around that sibling (attnmt.documents.links:
around_held_words), with stand-in translators whose word alignments are given."""

import io
import zipfile

import docx
import pytest
from office_files import add_hyperlink, docx_bytes, word_children

from attnmt.documents.markdown import translate_markdown
from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

LOT = "They wait in a parking lot."
PARKPLATZ = "Sie warten auf einem Parkplatz."
LOT_ALIGNMENT = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 4)]  # (source word, target word): one word for two


@pytest.mark.parametrize(("page", "out"), [
    ('<p>They wait in a <b>parking</b> <a href="/lot">lot.</a></p>',
     '<p>Sie warten auf einem <a href="/lot"><b>Parkplatz</b></a>.</p>'),
    ('<p>They wait in a <em>parking</em> <a href="/lot">lot</a>.</p>',
     '<p>Sie warten auf einem <a href="/lot"><em>Parkplatz</em></a>.</p>'),
    # a label read with its sentence, which a reader clicks as a link: it was left around the stop alone
    ('<p>They wait in a <b>parking</b> <label for="lot">lot.</label></p>',
     '<p>Sie warten auf einem <label for="lot"><b>Parkplatz</b></label>.</p>'),
], ids=["stop-inside", "stop-outside", "label"])
def test_a_link_whose_word_a_sibling_holds_goes_around_it_not_over_the_stop_alone(known, page, out):
    """"Parkplatz." translates "parking lot.": the <b> got the word, and the link the stop alone, ``<b>Parkplatz</b><a
    href="/lot">.</a>``, or its English text after the word."""
    translator = known({LOT: (PARKPLATZ, LOT_ALIGNMENT)})
    assert translate_markup([page], translator) == [out]


@pytest.mark.parametrize(("page", "out"), [
    ('<p>They wait in <b>a parking</b> <a href="/lot">lot</a>.</p>',
     '<p>Sie warten auf <a href="/lot"><b>einem Parkplatz</b></a>.</p>'),
    ('<p>They wait <i>in a parking</i> <a href="/lot">lot</a>.</p>',
     '<p>Sie warten <a href="/lot"><i>auf einem Parkplatz</i></a>.</p>'),
], ids=["article", "preposition"])
def test_a_link_whose_word_a_sibling_holds_with_more_words_goes_around_that_sibling(known, page, out):
    """The <b> over "a parking" holds "einem Parkplatz", reaching past the link's word: the link came back as its
    English text after it, ``<b>einem Parkplatz</b> <a href="/lot">lot</a>``."""
    assert translate_markup([page], known({LOT: (PARKPLATZ, LOT_ALIGNMENT)})) == [out]


def test_a_markdown_link_goes_around_the_emphasis_holding_its_word(known):
    translator = known({LOT: (PARKPLATZ, LOT_ALIGNMENT)})
    out = translate_markdown("They wait in a **parking** [lot](https://x.org).\n", translator)
    assert out == "Sie warten auf einem [**Parkplatz**](https://x.org).\n"


def test_a_word_files_hyperlink_goes_around_the_bold_run_holding_its_word(known):
    document = docx.Document()
    paragraph = document.add_paragraph("They wait in a ")
    paragraph.add_run("parking").bold = True
    paragraph.add_run(" ")
    add_hyperlink(paragraph, "lot", "https://example.org/lot")
    paragraph.add_run(".")
    out = translate_office(docx_bytes(document), ".docx", known({LOT: (PARKPLATZ, LOT_ALIGNMENT)}), DocumentOptions())
    assert word_children(out) == [("r", "Sie warten auf einem "), ("hyperlink", "Parkplatz"), ("r", ".")]
    body = zipfile.ZipFile(io.BytesIO(out)).read("word/document.xml").decode()
    assert '<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Parkplatz</w:t></w:r></w:hyperlink>' in body
