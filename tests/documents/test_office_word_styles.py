"""Word's styles (attnmt.documents.word_styles): an underline a run takes from a style keeps the
word gap before a separately formatted run plain, as one of its own does (the formatting tests
of test_office_word.py, with the underline coming from styles.xml)."""

import io
import zipfile

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.ns import qn
from lxml import etree
from office_files import docx_bytes

from attnmt.decoding.glossary import Glossary
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.translators import FoundTranslations
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import w

EURO = FoundTranslations({}, glossary=Glossary.of({"2012": "zweitausendzwölf", "€": "Euro"}))


def underlined_by(where: str) -> docx.document.Document:
    """``2012`` underlined by a style (``where``: the paragraph's own style, a character style on
    the run, or Normal, the default paragraph style, also of a paragraph whose style the document
    lacks: "unknown paragraph style") and `` €`` after it in a run of its own that takes the
    underline off (``w:u w:val="none"``)."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    if where == "paragraph style":
        paragraph.style = document.styles.add_style("Underlined", WD_STYLE_TYPE.PARAGRAPH)
        paragraph.style.font.underline = True
    elif where in ("Normal", "unknown paragraph style"):
        document.styles["Normal"].font.underline = True
    if where == "unknown paragraph style":
        paragraph._p.get_or_add_pPr().append(paragraph._p.makeelement(qn("w:pStyle"), {qn("w:val"): "NoSuchStyle"}))
    year = paragraph.add_run("2012")
    if where == "character style":
        year.style = document.styles.add_style("Underlined Char", WD_STYLE_TYPE.CHARACTER)
        year.style.font.underline = True
    paragraph.add_run(" €").underline = False
    return document


@pytest.mark.parametrize("where", ["paragraph style", "character style", "Normal", "unknown paragraph style"])
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


def names(layers: list[etree._Element]) -> list[list[str]]:
    """The local names of each layer's properties."""
    return [[etree.QName(child).localname for child in layer] for layer in layers]


def test_a_runs_look_comes_from_the_defaults_its_paragraphs_style_its_character_style_and_its_own():
    styles = WordStyles.of(etree.fromstring(STYLES))
    paragraph = etree.fromstring(f'<w:p xmlns:w="{w("")[1:-1]}"><w:pPr><w:pStyle w:val="Quote"/></w:pPr>'
                                 '<w:r><w:rPr><w:rStyle w:val="Link"/><w:u w:val="none"/></w:rPr></w:r></w:p>')
    layers = styles.layers(paragraph.find(w("r")), paragraph)
    # sz (defaults), b (Normal, which Quote is based on), i (Quote), u (Link, based on itself: once), the run's own
    assert names(layers) == [["sz"], ["b"], ["i"], ["u"], ["rStyle", "u"]]


TABLE_STYLES = """
  <w:style w:type="table" w:styleId="Plain"><w:rPr><w:strike/></w:rPr></w:style>
  <w:style w:type="table" w:styleId="Grid"><w:basedOn w:val="Plain"/><w:rPr><w:u w:val="single"/></w:rPr>
    <w:tblStylePr w:type="firstRow"><w:rPr><w:highlight w:val="yellow"/></w:rPr></w:tblStylePr></w:style>
"""


def test_a_table_style_comes_after_the_defaults_and_before_the_paragraphs_style():
    """Word's order: the defaults, the table's style (its own rPr, after the style it is based on),
    the paragraph's style; outside a table no table style, and in a text box in a table's cell none either."""
    styles = WordStyles.of(etree.fromstring(STYLES.replace("</w:styles>", TABLE_STYLES + "</w:styles>")))
    body = etree.fromstring(f'<w:body xmlns:w="{w("")[1:-1]}"><w:p/><w:tbl><w:tblPr><w:tblStyle w:val="Grid"/>'
                            '</w:tblPr><w:tr><w:tc><w:p/><w:p><w:r><w:txbxContent><w:p/></w:txbxContent></w:r></w:p>'
                            '</w:tc></w:tr></w:tbl></w:body>')
    outside, cell, _, text_box = body.iter(w("p"))
    assert [names(styles.layers(None, paragraph)) for paragraph in (outside, cell, text_box)] == [
        [["sz"], ["b"]], [["sz"], ["strike"], ["u"], ["b"]], [["sz"], ["b"]]]


@pytest.mark.parametrize("stated", ['<w:pStyle w:val="NoSuchStyle"/>', '<w:pStyle w:val="Link"/>'])
def test_a_paragraph_style_the_document_lacks_is_the_default_paragraph_style(stated):
    """Word and LibreOffice show Normal's look there (a character style's id names no paragraph style either)."""
    styles = WordStyles.of(etree.fromstring(STYLES))
    paragraph = etree.fromstring(f'<w:p xmlns:w="{w("")[1:-1]}"><w:pPr>{stated}</w:pPr><w:r/></w:p>')
    assert names(styles.layers(paragraph.find(w("r")), paragraph)) == [["sz"], ["b"]]


def test_a_character_style_the_document_lacks_is_the_default_character_style():
    styles = WordStyles.of(etree.fromstring(STYLES.replace('w:styleId="Link"', 'w:default="1" w:styleId="Link"')))
    paragraph = etree.fromstring(f'<w:p xmlns:w="{w("")[1:-1]}">'
                                 '<w:r><w:rPr><w:rStyle w:val="Gone"/></w:rPr></w:r></w:p>')
    assert names(styles.layers(paragraph.find(w("r")), paragraph)) == [["sz"], ["b"], ["u"], ["rStyle"]]


def in_table_styled(styled: bool) -> bytes:
    """``2012`` in a table's cell and `` €`` after it taking the underline off; ``styled``: the
    table's style (Table Grid) underlined."""
    document = docx.Document()
    table = document.add_table(rows=1, cols=1)
    table.style = document.styles["Table Grid"]
    if styled:
        table.style.font.underline = True
    paragraph = table.cell(0, 0).paragraphs[0]
    paragraph.add_run("2012")
    paragraph.add_run(" €").underline = False
    return docx_bytes(document)


@pytest.mark.parametrize("styled, expected", [
    (True, [("zweitausendzwölf", None), (" Euro", False)]),  # the space out of the table style's underline
    (False, [("zweitausendzwölf ", None), ("Euro", False)]),  # no underline: the space in the base, as before
])
def test_a_plain_space_stays_out_of_an_underline_that_comes_from_the_table_style(styled, expected):
    data = translate_office(in_table_styled(styled), ".docx", EURO, DocumentOptions())
    paragraph = docx.Document(io.BytesIO(data)).tables[0].cell(0, 0).paragraphs[0]
    assert [(run.text, run.underline) for run in paragraph.runs] == expected


@pytest.mark.parametrize("styles", [b"", b"<w:styles", b"garbage"])
def test_a_styles_part_that_does_not_parse_is_read_as_no_styles_and_the_text_translated(styles):
    """Styles only place a run's edge space; an empty or cut styles.xml (Word and LibreOffice open
    the file with their defaults) stopped the translation once they were read for that."""
    source = zipfile.ZipFile(io.BytesIO(docx_bytes(underlined_by("Normal"))))
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w") as archive:
        for item in source.infolist():
            archive.writestr(item, styles if item.filename == "word/styles.xml" else source.read(item))
    data = translate_office(damaged.getvalue(), ".docx", EURO, DocumentOptions())
    paragraph = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()
    assert "zweitausendzwölf" in paragraph and "Euro" in paragraph
