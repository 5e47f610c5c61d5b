"""A list typed in the lines of one cell or paragraph, each item after a line break and a list's mark ("- ", "• ",
"1. "): each line an item of its own whatever case it goes on in, its mark kept where it stood, in every format with
line breaks inside a cell or a paragraph (.xlsx, .ods, .docx ``w:br``, .odt ``text:line-break``, .pptx ``a:br``)."""

import io

import docx
import openpyxl
import pptx
import pytest
from lxml import etree
from office_files import SOFFICE, docx_bytes, libreoffice_csv, odf_bytes, ods_of_cells, read_members

from attnmt.documents.markup import translate_markup
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
# Each a cell's or paragraph's lines, and Mirror's translation of them line by line, each mark kept at its line's
# start.  Before, the first came back "BRING:\nSUNSCREEN -\nWATER -\nHAT A -" (each dash read as a word), and the
# third, two items after a heading, was read as one sentence: "WATER • SUNSCREEN\n\n• BRING:".
LISTS = [(["Bring:", "- sunscreen", "- water", "- a hat"], ["BRING:", "- SUNSCREEN", "- WATER", "- HAT A"]),
         (["- apples", "- pears", "- milk"], ["- APPLES", "- PEARS", "- MILK"]),
         (["Bring:", "• sunscreen", "• water"], ["BRING:", "• SUNSCREEN", "• WATER"]),
         (["Steps:", "1. open the box", "– take the lid off"], ["STEPS:", "1. BOX THE OPEN", "– OFF LID THE TAKE"])]
# What the model reads: each item alone, without its mark (each text once)
GIVEN = ["Bring:", "sunscreen", "water", "a hat", "apples", "pears", "milk", "Steps:", "open the box",
         "take the lid off"]


def test_a_cells_list_with_marks_keeps_its_lines_and_its_marks(mirror):
    book = openpyxl.Workbook()
    for row, (lines, _) in enumerate(LISTS, 1):
        book.active[f"A{row}"] = "\n".join(lines)
    out = translate_office(docx_bytes(book), ".xlsx", mirror, DocumentOptions())
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [sheet[f"A{row}"].value.split("\n") for row in range(1, len(LISTS) + 1)] == [lines for _, lines in LISTS]
    assert mirror.given == GIVEN


def test_a_word_paragraphs_list_over_its_line_breaks_keeps_its_lines_and_its_marks(mirror):
    document = docx.Document()
    for lines, _ in LISTS:
        run = document.add_paragraph().add_run(lines[0])
        for line in lines[1:]:
            run.add_break()
            run.add_text(line)
    out = translate_office(docx_bytes(document), ".docx", mirror, DocumentOptions())
    paragraphs = docx.Document(io.BytesIO(out)).paragraphs
    assert [paragraph.text.split("\n") for paragraph in paragraphs] == [lines for _, lines in LISTS]
    assert mirror.given == GIVEN


def test_a_slides_list_over_its_line_breaks_keeps_its_lines_and_its_marks(mirror):
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for lines, _ in LISTS:
        slide.shapes.add_textbox(0, 0, 100, 100).text_frame.text = "\v".join(lines)  # "\v": an a:br
    out = translate_office(docx_bytes(deck), ".pptx", mirror, DocumentOptions())
    shapes = pptx.Presentation(io.BytesIO(out)).slides[0].shapes
    assert [shape.text_frame.text.split("\v") for shape in shapes] == [lines for _, lines in LISTS]
    assert mirror.given == GIVEN


def test_an_odt_paragraphs_list_over_its_line_breaks_keeps_its_lines_and_its_marks(mirror):
    from odf.opendocument import OpenDocumentText
    from odf.text import LineBreak, P

    document = OpenDocumentText()
    for lines, _ in LISTS:
        paragraph = P(text=lines[0])
        for line in lines[1:]:
            paragraph.addElement(LineBreak())
            paragraph.addText(line)
        document.text.addElement(paragraph)
    out = translate_office(odf_bytes(document), ".odt", mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"])
    paragraphs = [[(element.tail or "") if element.tag == f"{{{TEXT}}}line-break" else element.text
                   for element in paragraph.iter()] for paragraph in content.iter(f"{{{TEXT}}}p")]
    assert paragraphs == [lines for _, lines in LISTS]
    assert mirror.given == GIVEN


def test_an_ods_cells_list_a_paragraph_an_item_stays_paragraph_by_paragraph(mirror):
    """LibreOffice makes each line of a cell a paragraph: "Bring:" / "• sunscreen" / "• water", whose items go on in
    lower case, were joined into one sentence."""
    out = translate_office(ods_of_cells([lines for lines, _ in LISTS]), ".ods", mirror, DocumentOptions())
    content = etree.fromstring(read_members(out)["content.xml"])
    cells = [["".join(p.itertext()) for p in cell.iter(f"{{{TEXT}}}p")]
             for cell in content.iter("{urn:oasis:names:tc:opendocument:xmlns:table:1.0}table-cell")]
    assert cells == [lines for _, lines in LISTS]


def test_a_pages_list_over_its_line_breaks_keeps_its_lines_and_its_marks(mirror):
    assert translate_markup(["<p>Bring:<br>• sunscreen<br>• water</p>", "<p>A man<br>- is walking</p>"], mirror) == [
        "<p>BRING:<br>• SUNSCREEN<br>• WATER</p>", "<p>MAN A<br>- WALKING IS</p>"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_a_cells_list_with_marks_shows_its_lines_in_libreoffice(mirror, tmp_path):
    book = openpyxl.Workbook()
    book.active["A1"] = "Bring:\n- sunscreen\n- water"
    out = translate_office(docx_bytes(book), ".xlsx", mirror, DocumentOptions())
    assert libreoffice_csv(out, ".xlsx", tmp_path) == ['"BRING:', "- SUNSCREEN", '- WATER"']
