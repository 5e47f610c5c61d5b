"""An OpenDocument spreadsheet's data styles' words (``<number:text> items</number:text>``), which
LibreOffice shows in the cell beside its number, "5 items": translated, the style's digits kept.
Mirror: words upper-cased in reverse order."""

import pytest
from conftest import Judging
from lxml import etree
from office_files import SOFFICE, libreoffice_saved, odf_bytes, read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

NUMBER = "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


def counted_sheet() -> bytes:
    """An .ods of one number, 5, in a cell whose data style writes it "~ 5 items"."""
    from odf.number import Number, NumberStyle, Text
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.style import Style
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    counted = NumberStyle(name="N1")
    counted.addElement(Text(text="~ "))
    counted.addElement(Number(decimalplaces="0", minintegerdigits="1"))
    counted.addElement(Text(text=" items"))
    cell_style = Style(name="ce1", family="table-cell", datastylename="N1")
    for style in (counted, cell_style):
        document.automaticstyles.addElement(style)
    table, row = Table(name="S"), TableRow()
    cell = TableCell(valuetype="float", value="5", stylename="ce1")
    cell.addElement(P(text="~ 5 items"))
    row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    return odf_bytes(document)


def test_a_data_styles_words_are_translated_and_its_digits_kept(mirror):
    """The cell showed "5 items" in a translated spreadsheet: the style's words were left."""
    content = etree.fromstring(read_members(translate_office(counted_sheet(), ".ods", mirror,
                                                             DocumentOptions()))["content.xml"])
    assert [text.text for text in content.iter(f"{{{NUMBER}}}text")] == ["~ ", " ITEMS"]
    assert len(list(content.iter(f"{{{NUMBER}}}number"))) == 1
    assert mirror.given == ["items"]


def test_a_data_styles_word_the_model_garbled_keeps_its_source(mirror):
    judging = Judging(mirror, {"items": 0.1})
    content = etree.fromstring(read_members(translate_office(counted_sheet(), ".ods", judging,
                                                             DocumentOptions()))["content.xml"])
    assert [text.text for text in content.iter(f"{{{NUMBER}}}text")] == ["~ ", " items"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_shows_a_data_styles_translated_words(mirror, tmp_path):
    out = translate_office(counted_sheet(), ".ods", mirror, DocumentOptions())
    content = etree.fromstring(read_members(libreoffice_saved(out, ".ods", "ods", tmp_path / "saved"))["content.xml"])
    assert ["".join(cell.itertext()) for cell in content.iter(f"{{{TABLE}}}table-cell")
            if cell.get(f"{{{OFFICE}}}value-type")] == ["~ 5 ITEMS"]
