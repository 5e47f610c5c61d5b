"""A Word document's or a presentation's chart reads a workbook embedded in the file
(attnmt.documents.chart_workbooks): the workbook is translated, and the labels the chart keeps of
its cells follow them.  Mirror: words upper-cased in reverse order."""

import io

import openpyxl
import pptx
import pytest
from chart_files import (
    SLIDE_CHART,
    SLIDE_WORKBOOK,
    WORD_CHART,
    WORD_WORKBOOK,
    chart_slides_with,
    chart_word_file,
    linked_chart_slides_file,
)
from lxml import etree
from office_files import chart_slides_file, read_members, sheet_values
from openpyxl.worksheet.table import Table
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches

from attnmt.decoding.quality import Assessment
from attnmt.documents.flat import Place
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.errors import LeftUntranslated

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"


def cache_texts(chart: bytes, cache: str = "strCache") -> list[list[str]]:
    """Each cache's texts (the series' name's, the categories'), or numbers' (``cache="numCache"``)."""
    return [[v.text for v in found.iter(f"{{{C}}}v")] for found in etree.fromstring(chart).iter(f"{{{C}}}{cache}")]


def test_a_slides_chart_shows_its_categories_and_series_name_translated(mirror):
    """The slide showed its translated title over "East", "West" and "Dogs"."""
    out = translate_office(chart_slides_file(), ".pptx", mirror, DocumentOptions(target_lang="de"))
    chart = next(shape for shape in pptx.Presentation(io.BytesIO(out)).slides[0].shapes if shape.has_chart).chart
    assert chart.chart_title.text_frame.text == "DOGS. OF NUMBER THE"
    assert list(chart.plots[0].categories) == ["EAST", "WEST"]
    assert [series.name for series in chart.plots[0].series] == ["DOGS"]
    assert list(chart.plots[0].series[0].values) == [3.0, 5.0]


def test_a_slides_chart_workbook_is_translated_as_its_labels_are(mirror):
    """Kept in the source, "Edit Data" read the workbook again and the chart went back to it."""
    out = read_members(translate_office(chart_slides_file(), ".pptx", mirror, DocumentOptions()))
    assert sheet_values(out[SLIDE_WORKBOOK]) == [[None, "DOGS"], ["EAST", 3], ["WEST", 5]]
    assert cache_texts(out[SLIDE_CHART], "numCache") == [["3.0", "5.0"]]


def test_a_word_documents_chart_and_its_workbook_are_translated(mirror):
    out = read_members(translate_office(chart_word_file(), ".docx", mirror, DocumentOptions(target_lang="de")))
    assert cache_texts(out[WORD_CHART]) == [["DOGS"], ["EAST", "WEST"]]
    assert sheet_values(out[WORD_WORKBOOK]) == [[None, "DOGS"], ["EAST", 3], ["WEST", 5]]


@pytest.mark.parametrize("build, suffix, chart, workbook", [
    (chart_slides_with, ".pptx", SLIDE_CHART, SLIDE_WORKBOOK),
    (lambda data: chart_word_file(data), ".docx", WORD_CHART, WORD_WORKBOOK)])
def test_a_chart_whose_workbook_is_damaged_keeps_both_with_a_warning(mirror, build, suffix, chart, workbook):
    with pytest.warns(LeftUntranslated, match=f"member {workbook}: not a readable zip archive") as heard:
        out = read_members(translate_office(build(b"PK\x03\x04 cut short"), suffix, mirror, DocumentOptions()))
    assert len(heard) == 1 and "kept as they were" in str(heard[0].message)
    assert out[workbook] == b"PK\x03\x04 cut short"
    assert cache_texts(out[chart]) == [["Dogs"], ["East", "West"]]
    assert b"DOGS. OF NUMBER THE" in out[chart]  # the title, text of the chart's own: translated


def test_a_table_in_a_charts_workbook_takes_its_translated_headers_as_column_names(mirror):
    """PowerPoint writes the chart's data as a table: its columns' names are its header cells' text,
    or Excel finds the workbook damaged on "Edit Data"."""
    book = openpyxl.Workbook()
    book.active.title = "Sheet1"  # the sheet the chart reads
    for row in (["Region", "Dogs"], ["East", 3], ["West", 5]):
        book.active.append(row)
    book.active.add_table(Table(displayName="Table1", ref="A1:B3"))
    data = io.BytesIO()
    book.save(data)
    out = read_members(translate_office(chart_slides_with(data.getvalue()), ".pptx", mirror, DocumentOptions()))
    table = next(iter(openpyxl.load_workbook(io.BytesIO(out[SLIDE_WORKBOOK])).active.tables.values()))
    assert [column.name for column in table.tableColumns] == ["REGION", "DOGS"]
    assert cache_texts(out[SLIDE_CHART]) == [["DOGS"], ["EAST", "WEST"]]


def test_a_slides_chart_of_two_category_levels_shows_both_translated(mirror):
    """python-pptx's categories with sub-categories: a block, East over "Small town" and "Big city"."""
    data = CategoryChartData()
    for region in ("East", "West"):
        category = data.add_category(region)
        for town in ("Small town", "Big city"):
            category.add_sub_category(town)
    data.add_series("Dogs", (1, 2, 3, 4))
    deck = pptx.Presentation()
    deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1), Inches(6), Inches(4), data)
    source = io.BytesIO()
    deck.save(source)
    out = translate_office(source.getvalue(), ".pptx", mirror, DocumentOptions())
    chart = etree.fromstring(read_members(out)[SLIDE_CHART])
    assert [[v.text for v in level.iter(f"{{{C}}}v")] for level in chart.iter(f"{{{C}}}lvl")] == [
        ["TOWN SMALL", "CITY BIG", "TOWN SMALL", "CITY BIG"], ["EAST", "WEST"]]


def test_a_chart_linked_to_a_workbook_outside_the_file_shows_its_labels_translated(mirror):
    """PowerPoint and Word draw a linked chart's cache until its link is updated: with no cells to
    follow, it stayed in the source; its labels are translated as text, its numbers kept."""
    out = read_members(translate_office(linked_chart_slides_file(), ".pptx", mirror, DocumentOptions()))
    assert cache_texts(out[SLIDE_CHART]) == [["DOGS"], ["EAST", "WEST"]]
    assert cache_texts(out[SLIDE_CHART], "numCache") == [["3.0", "5.0"]]
    assert b'TargetMode="External"' in out["ppt/charts/_rels/chart1.xml.rels"]


@pytest.mark.parametrize("build, suffix, chart, workbook", [
    (chart_slides_file, ".pptx", SLIDE_CHART, SLIDE_WORKBOOK),
    (chart_word_file, ".docx", WORD_CHART, WORD_WORKBOOK)])
def test_a_charts_workbook_is_reviewed_at_its_member_and_part(mirror, build, suffix, chart, workbook):
    """Its categories and series name were translated, but --review listed none of them."""
    review = Review(lambda sources, texts: [Assessment(0.2, ["low_quality"], False) for _ in sources], 0.5)
    translate_office(build(), suffix, mirror, DocumentOptions(), review=review)
    strings = f"{workbook}/xl/sharedStrings.xml"
    listed = [(segment.place, segment.source, segment.translation) for segment in review.segments]
    assert listed[-3:] == [(Place(strings, 1), "East", "EAST"), (Place(strings, 2), "West", "WEST"),
                           (Place(strings, 3), "Dogs", "DOGS")]
    assert review.sentences == len(listed) and review.counted[Place(strings, 3)] == 1


def test_a_charts_workbook_string_translated_as_nothing_is_warned_of_in_its_member(mirror):
    """The warning named "xl/sharedStrings.xml, paragraph 1", a part the presentation does not have."""
    class Emptying(type(mirror)):
        def texts(self, sentences):
            return ["" if sentence == "East" else text
                    for sentence, text in zip(sentences, super().texts(sentences), strict=True)]

    with pytest.warns(LeftUntranslated) as heard:
        out = read_members(translate_office(chart_slides_file(), ".pptx", Emptying(), DocumentOptions(), name="d.pptx"))
    assert [str(warning.message) for warning in heard] == [
        f"d.pptx: member {SLIDE_WORKBOOK}: xl/sharedStrings.xml, paragraph 1: the translation of 'East' came back "
        "empty, so its source text is kept there"]
    assert sheet_values(out[SLIDE_WORKBOOK])[1][0] == "East"
