"""Excel 2016's charts (chartEx: waterfall, funnel, treemap, sunburst, histogram, box and whisker)
are translated as a chart is: titles; in a workbook, the cached labels follow their translated cells
(attnmt.documents.chart_cells), and in a presentation they follow its embedded workbook, translated.
Mirror: words upper-cased in reverse order."""

import io
import re

import openpyxl
from chartex_files import CHARTEX, CX, chartex_sheet_file, chartex_slides_file
from lxml import etree
from office_files import read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def chartex_texts(out: bytes, suffix: str) -> tuple[list[str], list[str], list[str]]:
    """The translated chart's titles' texts, its categories' cached points and its series' name."""
    chart = etree.fromstring(read_members(out)[CHARTEX[suffix]])
    titles = [t.text for t in chart.iter(f"{{{A}}}t")]
    categories = [pt.text for dim in chart.iter(f"{{{CX}}}strDim") for pt in dim.iter(f"{{{CX}}}pt")]
    return titles, categories, [v.text for v in chart.iter(f"{{{CX}}}v")]


def test_a_workbooks_chartex_titles_are_translated_and_its_labels_follow_their_cells(mirror):
    """The chart was not translated at all: its title stayed, and its labels "A red car." while
    the cells they are read from were translated; only the fallback text box was."""
    out = translate_office(chartex_sheet_file(), ".xlsx", mirror, DocumentOptions(target_lang="de"))
    sheet = openpyxl.load_workbook(io.BytesIO(out))["My data"]
    assert [sheet["B1"].value, sheet["A2"].value] == ["SEEN. DOGS", "CAR. RED A"]
    assert chartex_texts(out, ".xlsx") == (["DOGS. OF NUMBER THE", "DOGS."], ["CAR. RED A", "CAR. BLUE A", "7"],
                                           ["SEEN. DOGS"])
    drawing = etree.fromstring(read_members(out)["xl/drawings/drawing1.xml"])
    assert [t.text for t in drawing.iter(f"{{{A}}}t")] == ["AVAILABLE. NOT IS CHART THIS"]  # the fallback's


def test_a_presentations_chartex_title_and_labels_are_translated_as_its_workbook_is(mirror):
    """As a chart's categories are: PowerPoint reads them from the workbook it embeds, which is
    translated (attnmt.documents.chart_workbooks), though the chart names it by no cx:externalData."""
    out = translate_office(chartex_slides_file(), ".pptx", mirror, DocumentOptions(target_lang="de"))
    assert chartex_texts(out, ".pptx") == (["DOGS. OF NUMBER THE", "DOGS."], ["CAR. RED A", "CAR. BLUE A", "7"],
                                           ["SEEN. DOGS"])


def test_a_treemaps_categories_of_two_levels_follow_their_cells(mirror):
    """A block of two columns, a cx:lvl each (the innermost first): its labels stayed in the source."""
    members = read_members(chartex_sheet_file())
    levels = ('<cx:strDim type="cat"><cx:f>\'My data\'!$A$1:$B$2</cx:f><cx:lvl ptCount="2"><cx:pt idx="0">Dogs seen.'
              '</cx:pt><cx:pt idx="1">3</cx:pt></cx:lvl><cx:lvl ptCount="2"><cx:pt idx="0">Item</cx:pt>'
              '<cx:pt idx="1">A red car.</cx:pt></cx:lvl></cx:strDim>')
    members[CHARTEX[".xlsx"]] = re.sub(rb'<cx:strDim type="cat">.*?</cx:strDim>', levels.encode(),
                                       members[CHARTEX[".xlsx"]])
    out = translate_office(write_members(members), ".xlsx", mirror, DocumentOptions())
    assert chartex_texts(out, ".xlsx")[1] == ["SEEN. DOGS", "3", "ITEM", "CAR. RED A"]
