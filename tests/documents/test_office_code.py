"""Code in an office file (attnmt.documents.code_look): a run in a monospaced font or in a style
meant for code is kept as it is, an atom as HTML's inline ``<code>`` is, and a paragraph of code
alone is kept whole; the Upper stand-in upper-cases every word it is given, so a command it read
would come back in capitals.  Files built with python-docx, python-pptx and openpyxl."""

import io

import docx
import openpyxl
import pptx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.ns import qn
from lxml import etree
from office_files import docx_bytes
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from pptx.util import Inches

from attnmt.documents.code_look import font_of, is_code_style
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.wordml import w

COMMAND = ("Type ", "ls -l /tmp", " to list the files.")  # the command in code, the rest prose


def translate(data: bytes, suffix: str, translator) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions())


def word_command(look) -> docx.document.Document:
    """COMMAND in a Word paragraph, ``look(document, run)`` giving the command's run its look."""
    document = docx.Document()
    paragraph = document.add_paragraph(COMMAND[0])
    look(document, paragraph.add_run(COMMAND[1]))
    paragraph.add_run(COMMAND[2])
    return document


def courier(document, run) -> None:
    run.font.name = "Courier New"


def character_style(name: str, based_on: str | None = None):
    """A look: a character style ``name`` of no font of its own (based on one named ``based_on``)."""
    def look(document, run) -> None:
        style = document.styles.add_style(name, WD_STYLE_TYPE.CHARACTER)
        if based_on is not None:
            style.base_style = document.styles.add_style(based_on, WD_STYLE_TYPE.CHARACTER)
        run.style = style
    return look


def texts(data: bytes) -> list[str]:
    return [run.text for run in docx.Document(io.BytesIO(data)).paragraphs[0].runs]


@pytest.mark.parametrize("look", [courier, character_style("HTML Code"), character_style("Verbatim Char"),
                                  character_style("KeywordTok", based_on="Verbatim Char")],
                         ids=["Courier New", "HTML Code", "Verbatim Char", "based on Verbatim Char"])
def test_a_run_of_code_in_a_word_paragraph_is_kept_as_it_is(upper, look):
    """Read as words, the command was translated ("in einem stellen") and lost."""
    data = translate(docx_bytes(word_command(look)), ".docx", upper)
    assert texts(data) == ["TYPE ", "ls -l /tmp", " TO LIST THE FILES."]
    assert not any("ls" in sentence for sentence in upper.given)


def test_a_paragraph_in_a_code_style_is_kept_whole(upper):
    """pandoc's code block: a "Source Code" paragraph (its runs of no look of their own)."""
    document = docx.Document()
    document.add_paragraph("for line in open(path): print(line)",
                           document.styles.add_style("Source Code", WD_STYLE_TYPE.PARAGRAPH))
    document.add_paragraph("The loop prints each line.")
    paragraphs = docx.Document(io.BytesIO(translate(docx_bytes(document), ".docx", upper))).paragraphs
    assert [p.text for p in paragraphs] == ["for line in open(path): print(line)", "THE LOOP PRINTS EACH LINE."]
    assert upper.given == ["The loop prints each line."]


def test_a_document_typed_in_courier_is_translated(upper):
    """Normal's own font is the document's look (a manuscript), not code's."""
    document = word_command(courier)
    document.styles["Normal"].font.name = "Courier New"
    assert "".join(texts(translate(docx_bytes(document), ".docx", upper))) == "TYPE LS -L /TMP TO LIST THE FILES."


def test_a_theme_font_is_no_monospaced_one(upper):
    """``w:asciiTheme`` names the theme's body font, whatever ``w:ascii`` says beside it."""
    document = word_command(courier)
    fonts = document.paragraphs[0].runs[1]._r.rPr.find(qn("w:rFonts"))
    fonts.set(qn("w:asciiTheme"), "minorHAnsi")
    assert "".join(texts(translate(docx_bytes(document), ".docx", upper))) == "TYPE LS -L /TMP TO LIST THE FILES."


def test_code_on_a_slide_and_in_a_cell_is_kept_as_it_is(upper):
    """The same font rule, from the run's own properties: a slide's ``a:latin``, a cell's ``rFont``."""
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_textbox(0, 0, Inches(6), Inches(1))
    for text in COMMAND:
        run = box.text_frame.paragraphs[0].add_run()
        run.text = text
        if text == COMMAND[1]:
            run.font.name = "Consolas"
    slide = pptx.Presentation(io.BytesIO(translate(docx_bytes(deck), ".pptx", upper))).slides[0]
    assert [run.text for run in slide.shapes[0].text_frame.paragraphs[0].runs] == [
        "TYPE ", "ls -l /tmp", " TO LIST THE FILES."]
    book = openpyxl.Workbook()
    book.active["A1"] = CellRichText([COMMAND[0], TextBlock(InlineFont(rFont="Menlo"), COMMAND[1]), COMMAND[2]])
    cell = openpyxl.load_workbook(io.BytesIO(translate(docx_bytes(book), ".xlsx", upper)), rich_text=True).active["A1"]
    assert str(cell.value) == "TYPE ls -l /tmp TO LIST THE FILES."


def test_the_font_is_the_last_layer_that_names_one():
    def layer(fonts: str) -> etree._Element:
        return etree.fromstring(f'<w:rPr xmlns:w="{w("")[1:-1]}">{fonts}</w:rPr>')

    courier_new, theme = layer('<w:rFonts w:ascii="Courier New"/>'), layer('<w:rFonts w:asciiTheme="minorHAnsi"/>')
    assert font_of([courier_new, layer("<w:b/>")]) == "Courier New"
    assert font_of([courier_new, theme]) == ""
    assert font_of([layer("<w:b/>")]) is None


def test_code_styles_are_told_by_name_without_case_or_spaces():
    assert [is_code_style(name) for name in ("HTML Code", "VerbatimChar", "source code", "HTML Variable")] == [
        True, True, True, False]
