"""Word's styles (attnmt.documents.word_styles): an underline a run takes from a style keeps the
word gap before a separately formatted run plain, as one of its own does (the formatting tests
of test_office_word.py, with the underline coming from styles.xml)."""

import io

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from lxml import etree
from office_files import docx_bytes

from attnmt.decoding.glossary import Glossary
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions, FoundTranslations
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import w

EURO = FoundTranslations({}, glossary=Glossary.of({"2012": "zweitausendzwölf", "€": "Euro"}))


def underlined_by(where: str) -> docx.document.Document:
    """``2012`` underlined by a style (``where``: the paragraph's own style, a character style on
    the run, or Normal, the default paragraph style) and `` €`` after it in a run of its own that
    takes the underline off (``w:u w:val="none"``)."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    if where == "paragraph style":
        paragraph.style = document.styles.add_style("Underlined", WD_STYLE_TYPE.PARAGRAPH)
        paragraph.style.font.underline = True
    elif where == "Normal":
        document.styles["Normal"].font.underline = True
    year = paragraph.add_run("2012")
    if where == "character style":
        year.style = document.styles.add_style("Underlined Char", WD_STYLE_TYPE.CHARACTER)
        year.style.font.underline = True
    paragraph.add_run(" €").underline = False
    return document


@pytest.mark.parametrize("where", ["paragraph style", "character style", "Normal"])
def test_a_plain_space_stays_out_of_an_underline_that_comes_from_a_style(where):
    """Put in the base run, the space took the style's underline, drawn across the word gap."""
    data = translate_office(docx_bytes(underlined_by(where)), ".docx", EURO, DocumentOptions())
    paragraph = docx.Document(io.BytesIO(data)).paragraphs[0]
    assert [(run.text, run.underline) for run in paragraph.runs] == [("zweitausendzwölf", None), (" Euro", False)]


STYLES = f"""<w:styles xmlns:w="{w("")[1:-1]}">
  <w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>
  <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:rPr><w:b/></w:rPr></w:style>
  <w:style w:type="paragraph" w:styleId="Quote"><w:basedOn w:val="Normal"/><w:rPr><w:i/></w:rPr></w:style>
  <w:style w:type="character" w:styleId="Link"><w:basedOn w:val="Link"/><w:rPr><w:u w:val="single"/></w:rPr></w:style>
</w:styles>"""


def test_a_runs_look_comes_from_the_defaults_its_paragraphs_style_its_character_style_and_its_own():
    styles = WordStyles.of(etree.fromstring(STYLES))
    paragraph = etree.fromstring(f'<w:p xmlns:w="{w("")[1:-1]}"><w:pPr><w:pStyle w:val="Quote"/></w:pPr>'
                                 '<w:r><w:rPr><w:rStyle w:val="Link"/><w:u w:val="none"/></w:rPr></w:r></w:p>')
    layers = styles.layers(paragraph.find(w("r")), paragraph)
    # sz (defaults), b (Normal, which Quote is based on), i (Quote), u (Link, based on itself: once), the run's own
    assert [[etree.QName(child).localname for child in layer] for layer in layers] == [
        ["sz"], ["b"], ["i"], ["u"], ["rStyle", "u"]]
