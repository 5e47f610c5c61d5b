"""An OpenDocument spreadsheet's data styles' words (``<number:text> items</number:text>``), which
LibreOffice shows in the cell beside its number, "5 items", and a chart's at each tick of its axis:
translated, the style's digits kept.  Mirror: words upper-cased in reverse order."""

import pytest
from comment_files import chart_text_file
from conftest import Judging
from lxml import etree
from office_files import SOFFICE, libreoffice_saved, odf_bytes, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

NUMBER = "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
CHART_STYLES = ('<office:automatic-styles xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0">'
                '<number:number-style style:name="N1"><number:number number:min-integer-digits="1"/>'
                '<number:text> items</number:text></number:number-style>'
                '<number:number-style style:name="N2"><number:number number:min-integer-digits="1"/>'
                '<number:text> pcs</number:text></number:number-style>'
                '<style:style style:name="ch1" style:family="chart" style:data-style-name="N1">'
                '<style:chart-properties chart:link-data-style-to-source="false"/></style:style>'
                '<style:style style:name="ch2" style:family="chart" style:data-style-name="N2">'
                '<style:chart-properties chart:link-data-style-to-source="true"/></style:style>'
                '</office:automatic-styles>')


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


def styled_chart_file() -> bytes:
    """A text's chart (chart_text_file), its y axis's numbers written "5 items" (its own data style), its series'
    "5 pcs" in a style linked to the source's (the cells' format, which the chart shows in its place)."""
    members = read_members(chart_text_file())
    chart = members["Object 1/content.xml"].decode().replace("<office:automatic-styles/>", CHART_STYLES)
    chart = chart.replace('chart:name="primary-y"', 'chart:name="primary-y" chart:style-name="ch1"')
    members["Object 1/content.xml"] = chart.replace('<chart:series ', '<chart:series chart:style-name="ch2" ').encode()
    return write_members(members)


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


def test_a_charts_own_data_styles_words_are_translated(mirror):
    """The axis said "5 items" under a translated title; a style linked to the source's is the cells', left."""
    out = translate_office(styled_chart_file(), ".odt", mirror, DocumentOptions())
    chart = read_members(out)["Object 1/content.xml"]
    assert [text.text for text in etree.fromstring(chart).iter(f"{{{NUMBER}}}text")] == [" ITEMS", " pcs"]
    assert "pcs" not in mirror.given


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_shows_a_data_styles_translated_words(mirror, tmp_path):
    out = translate_office(counted_sheet(), ".ods", mirror, DocumentOptions())
    content = etree.fromstring(read_members(libreoffice_saved(out, ".ods", "ods", tmp_path / "saved"))["content.xml"])
    assert ["".join(cell.itertext()) for cell in content.iter(f"{{{TABLE}}}table-cell")
            if cell.get(f"{{{OFFICE}}}value-type")] == ["~ 5 ITEMS"]
