"""A chart's own number formats' quoted words: an axis's or a data label's format typed in the chart
(``<c:numFmt formatCode="0 &quot; items&quot;" sourceLinked="0"/>``) makes Excel, PowerPoint and
LibreOffice write "5 items" at each tick or label, so its words are translated as a workbook's number
formats' are, its codes kept; a format linked to its source (``sourceLinked="1"``) is the cells', and takes
their format's translation where it is their format's code, as LibreOffice draws it.  Read back with openpyxl,
python-pptx and ElementTree.  Mirror: words upper-cased in reverse order."""

import io
import zipfile
from xml.etree import ElementTree

import openpyxl
import pptx
import pytest
from chart_files import SLIDE_CHART, SLIDE_WORKBOOK, chart_slides_with
from chartex_files import CHARTEX, chartex_sheet_file
from conftest import Judging
from lxml import etree
from office_files import SOFFICE, chart_slides_file, docx_bytes, libreoffice_saved, read_members, write_members
from openpyxl.chart import BarChart, Reference
from openpyxl.chart.data_source import NumFmt
from openpyxl.chart.label import DataLabelList

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
CX = "http://schemas.microsoft.com/office/drawing/2014/chartex"
NUMBER = "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
SHEET_CHART = "xl/charts/chart1.xml"


def chart_sheet(axis: str, labels: str | None = None, linked: bool = False, cells: str = "General") -> bytes:
    """A sheet of dogs counted by region, charted in columns titled "Dogs by region", the value axis's numbers
    written in the format ``axis`` (linked to the cells' where ``linked``), its data labels' in ``labels``; the
    counts' cells in the format ``cells``."""
    book = openpyxl.Workbook()
    for row in (("Region", "Dogs"), ("East", 3), ("West", 5)):
        book.active.append(row)
    for cell in ("B2", "B3"):
        book.active[cell].number_format = cells
    chart = BarChart()
    chart.title = "Dogs by region"
    chart.add_data(Reference(book.active, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    chart.set_categories(Reference(book.active, min_col=1, min_row=2, max_row=3))
    chart.y_axis.numFmt = NumFmt(formatCode=axis, sourceLinked=linked)
    if labels is not None:
        chart.dataLabels = DataLabelList(showVal=True, numFmt=labels)
    book.active.add_chart(chart, "D2")
    return docx_bytes(book)


def chart_formats(data: bytes, member: str, namespace: str = C) -> list[str]:
    """The formats of the chart part ``member`` of the file ``data``, in the part's order."""
    root = ElementTree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read(member))
    return [element.get("formatCode", "") for element in root.iter(f"{{{namespace}}}numFmt")]


def test_a_charts_own_formats_words_are_translated_and_its_codes_kept(mirror):
    """The axis said "5 items" under a translated title: only its format's words were left."""
    data = chart_sheet('#,##0 " items";[Red]"minus "0', labels='0.0 "pcs"')
    out = translate_office(data, ".xlsx", mirror, DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0.0 "PCS"', '#,##0 " ITEMS";[Red]"MINUS "0']
    assert openpyxl.load_workbook(io.BytesIO(out)).active._charts[0].y_axis.numFmt.formatCode == (
        '#,##0 " ITEMS";[Red]"MINUS "0')
    assert {"items", "minus", "pcs", "Dogs by region"} <= set(mirror.given)


def test_a_charts_format_linked_to_its_cells_is_left_as_it_is(mirror):
    """A format linked to its source is the one the chart reads from its cells again."""
    out = translate_office(chart_sheet('0 " items"', linked=True), ".xlsx", mirror, DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0 " items"']
    assert "items" not in mirror.given


def test_a_charts_format_linked_to_its_cells_takes_their_formats_translation(mirror):
    """LibreOffice, previews and converters draw the chart's copy of the cells' format, not the cells'."""
    out = translate_office(chart_sheet('0 " items"', linked=True, cells='0 " items"'), ".xlsx", mirror,
                           DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0 " ITEMS"']
    assert openpyxl.load_workbook(io.BytesIO(out)).active["B2"].number_format == '0 " ITEMS"'
    assert mirror.given.count("items") == 1  # the cells' format's word, read once


def test_a_linked_format_that_is_not_the_cells_code_exactly_is_left_as_it_is(mirror):
    out = translate_office(chart_sheet('0" items"', linked=True, cells='0 " items"'), ".xlsx", mirror,
                           DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0" items"']


def test_a_linked_format_whose_cells_word_the_model_garbled_keeps_its_source(mirror):
    judging = Judging(mirror, {"items": 0.1})
    out = translate_office(chart_sheet('0 " items"', linked=True, cells='0 " items"'), ".xlsx", judging,
                           DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0 " items"']


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_draws_a_linked_axis_format_translated(mirror, tmp_path):
    """LibreOffice opening the .xlsx takes the axis's format from the chart part: it showed "5 items"."""
    out = translate_office(chart_sheet('0 " items"', linked=True, cells='0 " items"'), ".xlsx", mirror,
                           DocumentOptions())
    chart = etree.fromstring(read_members(libreoffice_saved(out, ".xlsx", "ods", tmp_path / "saved"))[
        "Object 1/content.xml"])
    assert [text.text.strip() for text in chart.iter(f"{{{NUMBER}}}text")] == ["ITEMS"]


def test_a_presentations_linked_chart_format_follows_its_workbooks_cells(mirror):
    book = openpyxl.load_workbook(io.BytesIO(read_members(chart_slides_file())[SLIDE_WORKBOOK]))
    for cell in ("B2", "B3"):
        book.active[cell].number_format = '0 " items"'
    deck = pptx.Presentation(io.BytesIO(chart_slides_with(docx_bytes(book))))
    chart = next(shape for shape in deck.slides[0].shapes if shape.has_chart).chart
    chart.value_axis.tick_labels.number_format = '0 " items"'
    chart.value_axis.tick_labels.number_format_is_linked = True
    out = translate_office(docx_bytes(deck), ".pptx", mirror, DocumentOptions())
    assert chart_formats(out, SLIDE_CHART) == ['0 " ITEMS"']


def test_an_excel_2016_charts_linked_format_follows_its_cells(mirror):
    members = read_members(chartex_sheet_file())
    members[CHARTEX[".xlsx"]] = members[CHARTEX[".xlsx"]].replace(
        b"</cx:title></cx:axis>", b'</cx:title><cx:numFmt formatCode="0 &quot; items&quot;" sourceLinked="1"/>'
                                  b"</cx:axis>")
    members["xl/styles.xml"] = members["xl/styles.xml"].replace(
        b'<numFmts count="0"/>', b'<numFmts count="1"><numFmt numFmtId="164" formatCode="0 &quot; items&quot;"/>'
                                 b"</numFmts>")
    out = translate_office(write_members(members), ".xlsx", mirror, DocumentOptions())
    assert chart_formats(out, CHARTEX[".xlsx"], CX) == ['0 " ITEMS"']


def test_a_charts_format_without_words_is_left_as_it_is(mirror):
    out = translate_office(chart_sheet('0 "2024";\\k\\g'), ".xlsx", mirror, DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0 "2024";\\k\\g']


def test_a_presentations_chart_formats_words_are_translated(mirror):
    deck = pptx.Presentation(io.BytesIO(chart_slides_file()))
    chart = next(shape for shape in deck.slides[0].shapes if shape.has_chart).chart
    chart.value_axis.tick_labels.number_format = '0 " items"'
    chart.value_axis.tick_labels.number_format_is_linked = False
    saved = io.BytesIO()
    deck.save(saved)
    out = translate_office(saved.getvalue(), ".pptx", mirror, DocumentOptions())
    chart = next(shape for shape in pptx.Presentation(io.BytesIO(out)).slides[0].shapes if shape.has_chart).chart
    assert chart.value_axis.tick_labels.number_format == '0 " ITEMS"'


def test_an_excel_2016_charts_format_words_are_translated(mirror):
    members = read_members(chartex_sheet_file())
    members[CHARTEX[".xlsx"]] = members[CHARTEX[".xlsx"]].replace(
        b"</cx:title></cx:axis>", b'</cx:title><cx:numFmt formatCode="0 &quot; items&quot;" sourceLinked="0"/>'
                                  b"</cx:axis>")
    out = translate_office(write_members(members), ".xlsx", mirror, DocumentOptions())
    assert chart_formats(out, CHARTEX[".xlsx"], CX) == ['0 " ITEMS"']


def test_a_charts_format_word_the_model_garbled_keeps_its_source(mirror):
    """It stands alone beside each number, as a format's word in a cell does."""
    judging = Judging(mirror, {"items": 0.1, "pcs": 0.9})
    out = translate_office(chart_sheet('0 " items"', labels='0 "pcs"'), ".xlsx", judging, DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0 "PCS"', '0 " items"']


def test_a_charts_format_longer_than_excel_takes_keeps_its_source(fixed):
    translator = fixed("Stück " * 50, [(0, 0)])
    with pytest.warns(LeftUntranslated, match=r"xl/charts/chart1.xml: the number format '0 \" items\"'.* 255"):
        out = translate_office(chart_sheet('0 " items"'), ".xlsx", translator, DocumentOptions())
    assert chart_formats(out, SHEET_CHART) == ['0 " items"']
