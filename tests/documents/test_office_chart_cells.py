"""A workbook's charts' cached labels (attnmt.documents.chart_cells) follow the translated cells
they are read from.  openpyxl writes a chart's references without their caches, so the chart is
written again by hand as Excel and LibreOffice write it.  Mirror: words upper-cased in reverse order."""

import io

import openpyxl
import pytest
from lxml import etree
from office_files import docx_bytes, read_members, write_members
from openpyxl.chart import BarChart, Reference
from openpyxl.worksheet.table import Table

from attnmt.documents import chart_cells
from attnmt.documents.chart_cells import referred_cells
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review
from attnmt.documents.xstring import escape

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
C15 = "http://schemas.microsoft.com/office/drawing/2012/chart"
CHART = "xl/charts/chart1.xml"


def cached(formula: str, *texts: str) -> str:
    """A reference to ``formula`` with its cache of ``texts``, as a chart holds it."""
    points = "".join(f'<c:pt idx="{number}"><c:v>{text}</c:v></c:pt>' for number, text in enumerate(texts))
    return (f'<c:strRef><c:f>{formula}</c:f><c:strCache><c:ptCount val="{len(texts)}"/>{points}'
            f'</c:strCache></c:strRef>')


AXIS = ('<c:{0}><c:axId val="{1}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="l"/>'
        '<c:crossAx val="{2}"/></c:{0}>')


def chart_xml(name: str, categories: str, labels: str = "") -> str:
    """A bar chart of one series named by the reference ``name`` over the categories ``categories``,
    with the series' extensions ``labels`` (data labels from cells)."""
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="{C}"><c:chart>'
            f'<c:plotArea><c:barChart><c:barDir val="col"/><c:ser><c:idx val="0"/><c:order val="0"/>'
            f'<c:tx>{name}</c:tx><c:cat>{categories}</c:cat><c:val><c:numRef><c:f>\'My data\'!$B$2:$B$4</c:f>'
            f'</c:numRef></c:val>{labels}</c:ser><c:axId val="10"/><c:axId val="100"/></c:barChart>'
            f'{AXIS.format("catAx", 10, 100)}{AXIS.format("valAx", 100, 10)}</c:plotArea></c:chart></c:chartSpace>')


NAME = cached("'My data'!$B$1", "Dogs seen.")
CATEGORIES = cached("'My data'!$A$2:$A$4", "A red car.", "A blue car.", "7")


def chart_file(name: str = NAME, categories: str = CATEGORIES, table: bool = False,
               hidden_row: int | None = None, labels: str = "") -> bytes:
    """A sheet "My data": categories "A red car.", "A blue car." and the number 7 in A2:A4, their
    counts in B2:B4 under "Dogs seen." (B1), charted (CHART: ``name``, ``categories``); with
    ``table``, A1:B4 is a table "Seen" and C1 counts its column Seen[Dogs seen.], so its headers
    keep their source text (attnmt.documents.tables); ``hidden_row``: that row hidden; ``labels``:
    the series' extensions (chart_xml)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "My data"
    for row in (["Item", "Dogs seen."], ["A red car.", 3], ["A blue car.", 5], [7, 2]):
        sheet.append(row)
    if hidden_row is not None:
        sheet.row_dimensions[hidden_row].hidden = True
    if table:
        sheet.add_table(Table(displayName="Seen", ref="A1:B4"))
        sheet["C1"] = "=COUNT(Seen[Dogs seen.])"
    bars = BarChart()
    bars.add_data(Reference(sheet, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    sheet.add_chart(bars, "D2")
    members = read_members(docx_bytes(book))
    members[CHART] = chart_xml(name, categories, labels).encode()
    return write_members(members)


def cache_texts(out: bytes) -> list[list[str]]:
    """Each cache's texts in the translated chart, in the order written (the name's, the categories')."""
    chart = etree.fromstring(read_members(out)[CHART])
    return [[v.text for v in cache.iter(f"{{{C}}}v")] for cache in chart.iter(f"{{{C}}}strCache")]


def test_a_charts_categories_and_series_name_cache_their_translated_cells(mirror):
    """The cells were translated and the cache kept "A red car.": previewers drew English labels."""
    out = translate_office(chart_file(), ".xlsx", mirror, DocumentOptions())
    sheet = openpyxl.load_workbook(io.BytesIO(out))["My data"]
    assert [sheet["B1"].value, sheet["A2"].value, sheet["A3"].value] == ["SEEN. DOGS", "CAR. RED A", "CAR. BLUE A"]
    assert cache_texts(out) == [["SEEN. DOGS"], ["CAR. RED A", "CAR. BLUE A", "7"]]  # the number's as it was


@pytest.mark.parametrize("formula", ["[1]Data!$A$2:$A$4", "MyItems", "('My data'!$A$2,'My data'!$A$3)",
                                     "'My data'!$A$2:$B$3", "Other!$A$2:$A$4"])
def test_a_reference_not_to_one_row_or_column_of_this_workbook_keeps_its_cache(mirror, formula):
    """Another workbook's cells, a defined name, two areas, a block, a sheet the workbook has not."""
    out = translate_office(chart_file(categories=cached(formula, "A red car.", "A blue car.")), ".xlsx", mirror,
                           DocumentOptions())
    assert cache_texts(out)[1] == ["A red car.", "A blue car."]


def test_categories_of_two_levels_cache_their_translated_cells(mirror):
    """A block's cache (c:multiLvlStrRef: each level's points, the innermost first) kept every label
    in the source; each point takes the text of the cells whose source text it held."""
    levels = ('<c:lvl><c:pt idx="0"><c:v>Dogs seen.</c:v></c:pt><c:pt idx="1"><c:v>3</c:v></c:pt></c:lvl>'
              '<c:lvl><c:pt idx="0"><c:v>Item</c:v></c:pt><c:pt idx="1"><c:v>A red car.</c:v></c:pt></c:lvl>')
    categories = (f"<c:multiLvlStrRef><c:f>'My data'!$A$1:$B$2</c:f><c:multiLvlStrCache><c:ptCount val=\"2\"/>"
                  f"{levels}</c:multiLvlStrCache></c:multiLvlStrRef>")
    out = translate_office(chart_file(categories=categories), ".xlsx", mirror, DocumentOptions())
    chart = etree.fromstring(read_members(out)[CHART])
    assert [[v.text for v in level.iter(f"{{{C}}}v")] for level in chart.iter(f"{{{C}}}lvl")] == [
        ["SEEN. DOGS", "3"], ["ITEM", "CAR. RED A"]]


def test_a_cache_point_numbered_with_a_superscript_keeps_its_text(mirror):
    """"²" is a digit to str.isdigit but no number to int(): the file stopped with a ValueError."""
    categories = cached("'My data'!$A$2:$A$4", "A red car.", "A blue car.").replace('idx="1"', 'idx="²"')
    out = translate_office(chart_file(categories=categories), ".xlsx", mirror, DocumentOptions())
    assert cache_texts(out)[1] == ["CAR. RED A", "A blue car."]


def test_a_cache_without_a_hidden_rows_point_takes_each_points_own_cells_text(mirror):
    """Row 2 hidden, the cache holds A3 and A4 only (idx 0, 1), as LibreOffice and Excel write it:
    its labels were taken from A2 and A3 by number, the red car's under the blue car's bar."""
    categories = cached("'My data'!$A$2:$A$4", "A blue car.", "7")
    out = translate_office(chart_file(categories=categories, hidden_row=2), ".xlsx", mirror, DocumentOptions())
    assert cache_texts(out)[1] == ["CAR. BLUE A", "7"]


def test_a_point_of_a_cache_without_some_cells_whose_text_no_cell_holds_keeps_it(mirror):
    """Its cell is not certain: a label written wrong is worse than one left in the source."""
    categories = cached("'My data'!$A$2:$A$4", "A green car.", "A red car.")
    out = translate_office(chart_file(categories=categories, hidden_row=3), ".xlsx", mirror, DocumentOptions())
    assert cache_texts(out)[1] == ["A green car.", "CAR. RED A"]


def uncounted(reference: str) -> str:
    """A reference whose cache does not say how many points it holds (the schema lets c:ptCount out)."""
    return reference.replace(f'<c:ptCount val="{reference.count("<c:pt ")}"/>', "")


def test_a_cache_without_a_count_whose_points_reach_the_last_cell_takes_them_by_number(mirror):
    """No count was read as fewer points than cells: the point "Old label", which no cell held,
    kept it where A3's translation belongs (its place, idx 1)."""
    categories = uncounted(cached("'My data'!$A$2:$A$4", "A red car.", "Old label", "7"))
    out = translate_office(chart_file(categories=categories), ".xlsx", mirror, DocumentOptions())
    assert cache_texts(out)[1] == ["CAR. RED A", "CAR. BLUE A", "7"]


def test_a_cache_without_a_count_whose_points_stop_short_takes_each_points_own_cells_text(mirror):
    """Row 2 hidden: two points for three cells, each matched by its text as a counted one is."""
    categories = uncounted(cached("'My data'!$A$2:$A$4", "A blue car.", "7"))
    out = translate_office(chart_file(categories=categories, hidden_row=2), ".xlsx", mirror, DocumentOptions())
    assert cache_texts(out)[1] == ["CAR. BLUE A", "7"]


def items_file(count: int, points: int) -> bytes:
    """A sheet "My data" of ``count`` items, "Item 0" to "Item 4" again and again (A1 down), charted
    with a cache of the first ``points`` items' texts, as one that left the last cells out holds it."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "My data"
    for row in range(count):
        sheet.append([f"Item {row % 5}", row])
    bars = BarChart()
    bars.add_data(Reference(sheet, min_col=2, min_row=1, max_row=count))
    sheet.add_chart(bars, "D2")
    members = read_members(docx_bytes(book))
    categories = cached(f"'My data'!$A$1:$A${count}", *(f"Item {row % 5}" for row in range(points)))
    members[CHART] = chart_xml(NAME, categories).encode()
    return write_members(members)


def test_a_cache_without_some_cells_escapes_each_cells_text_once_not_once_per_point(mirror, monkeypatch):
    """Each point escaped every cell's source text again: 3,000 cells under 2,999 points took 18 s.
    Here 40 cells and 39 points: 40 cells' texts, and each point's translation at most twice."""
    escaped = []

    def counted(text: str) -> str:
        escaped.append(text)
        return escape(text)

    monkeypatch.setattr(chart_cells, "escape", counted)
    out = translate_office(items_file(40, 39), ".xlsx", mirror, DocumentOptions())
    assert cache_texts(out)[1] == [f"{row % 5} ITEM" for row in range(39)]
    assert len(escaped) <= 40 + 2 * 39


def test_data_labels_read_from_cells_cache_their_translated_cells(mirror):
    """Excel 2013's "Value From Cells" labels (c15:datalabelsRange) kept "A red car." over the bars."""
    labels = (f'<c:extLst><c:ext uri="{{02D57815-91ED-43cb-92C2-25804820EDAC}}" xmlns:c15="{C15}">'
              f'<c15:datalabelsRange><c15:f>\'My data\'!$A$2:$A$4</c15:f><c15:dlblRangeCache><c:ptCount val="3"/>'
              '<c:pt idx="0"><c:v>A red car.</c:v></c:pt><c:pt idx="1"><c:v>A blue car.</c:v></c:pt>'
              '<c:pt idx="2"><c:v>7</c:v></c:pt></c15:dlblRangeCache></c15:datalabelsRange></c:ext></c:extLst>')
    out = translate_office(chart_file(labels=labels), ".xlsx", mirror, DocumentOptions())
    chart = etree.fromstring(read_members(out)[CHART])
    assert [v.text for cache in chart.iter(f"{{{C15}}}dlblRangeCache") for v in cache.iter(f"{{{C}}}v")] == [
        "CAR. RED A", "CAR. BLUE A", "7"]


def test_a_header_cell_kept_for_a_tables_formula_is_cached_as_kept(mirror):
    out = translate_office(chart_file(table=True), ".xlsx", mirror, DocumentOptions())
    assert openpyxl.load_workbook(io.BytesIO(out))["My data"]["B1"].value == "Dogs seen."
    assert cache_texts(out) == [["Dogs seen."], ["CAR. RED A", "CAR. BLUE A", "7"]]


def test_a_cell_that_kept_its_source_below_quality_is_cached_as_kept(mirror):
    from attnmt.decoding.quality import Assessment

    def quality(sources, texts):
        return [Assessment(0.2 if "red" in source else 0.9, [], False) for source in sources]

    out = translate_office(chart_file(), ".xlsx", mirror, DocumentOptions(), review=Review(quality, 0.5,
                                                                                          source_below=True))
    assert cache_texts(out)[1] == ["A red car.", "CAR. BLUE A", "7"]


@pytest.mark.parametrize(("formula", "cells"), [
    ("Data!$A$2:$A$4", ("data", ["A2", "A3", "A4"])),
    ("'It''s here'!B1:D1", ("it's here", ["B1", "C1", "D1"])),
    ("Data!$C$7", ("data", ["C7"])),
    ("[1]Data!$A$1", None), ("Data!A1:B2", None), ("'Jan:Mar'!A1", None), ("MyItems", None),
])
def test_a_reference_names_its_sheet_and_cells_in_order(formula, cells):
    assert referred_cells(formula) == cells


XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
DRAWING = "xl/drawings/drawing1.xml"


def linked_box(row: int, link: str, text: str) -> str:
    """A text box anchored at ``row`` showing the cell ``link`` (textlink), its copy ``text``, as Excel writes it."""
    return (f'<xdr:twoCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>{row}</xdr:row>'
            f'<xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>8</xdr:col><xdr:colOff>0</xdr:colOff>'
            f'<xdr:row>{row + 3}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to><xdr:sp macro="" textlink="{link}">'
            f'<xdr:nvSpPr><xdr:cNvPr id="{row + 2}" name="TextBox {row}"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr>'
            '<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr><xdr:txBody><a:bodyPr/>'
            '<a:lstStyle/><a:p><a:fld id="{11111111-2222-3333-4444-555555555555}" type="TxLink"><a:rPr lang="en-US"/>'
            f'<a:pPr/><a:t>{text}</a:t></a:fld><a:endParaRPr lang="en-US"/></a:p></xdr:txBody></xdr:sp>'
            '<xdr:clientData/></xdr:twoCellAnchor>')


def linked_boxes_file(*boxes: str) -> bytes:
    """Sheets "Other" (A1 "A cat sleeps.") and "My data" (A1 "A dog runs.", A2 the number 7), the
    text boxes ``boxes`` (linked_box) drawn on "My data", the second sheet."""
    book = openpyxl.Workbook()
    book.active.title = "Other"
    book.active["A1"] = "A cat sleeps."
    sheet = book.create_sheet("My data")
    sheet["A1"], sheet["A2"] = "A dog runs.", 7
    members = read_members(docx_bytes(book))
    members[DRAWING] = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="{XDR}" '
                        f'xmlns:a="{A}">{"".join(boxes)}</xdr:wsDr>').encode()
    members["xl/worksheets/_rels/sheet2.xml.rels"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats'
        b'.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>')
    members["xl/worksheets/sheet2.xml"] = members["xl/worksheets/sheet2.xml"].replace(b"</worksheet>", (
        b'<drawing xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/>'
        b'</worksheet>'))
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(b"</Types>", (
        b'<Override PartName="/xl/drawings/drawing1.xml" '
        b'ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>'))
    return write_members(members)


def linked_texts(out: bytes) -> list[str]:
    """Each TxLink field's text in the translated drawing, in order."""
    drawing = etree.fromstring(read_members(out)[DRAWING])
    return [field.findtext(f"{{{A}}}t") for field in drawing.iter(f"{{{A}}}fld")]


def test_a_text_box_linked_to_a_cell_shows_its_translated_text(mirror):
    """The cell was translated and the box's TxLink field, which LibreOffice draws, kept "A dog runs."."""
    boxes = [linked_box(1, "$A$1", "A dog runs."), linked_box(5, "Other!$A$1", "A cat sleeps.")]
    out = translate_office(linked_boxes_file(*boxes), ".xlsx", mirror, DocumentOptions())
    assert openpyxl.load_workbook(io.BytesIO(out))["My data"]["A1"].value == "RUNS. DOG A"
    assert linked_texts(out) == ["RUNS. DOG A", "SLEEPS. CAT A"]  # its own sheet's A1 unless it names one


@pytest.mark.parametrize("link", ["$A$2", "$A$1:$A$2", "Missing!$A$1", "MyName"])
def test_a_text_box_linked_to_no_one_string_cell_keeps_its_text(mirror, link):
    """A number (not translated), two cells, a sheet the workbook has not, a defined name."""
    out = translate_office(linked_boxes_file(linked_box(1, link, "Seven.")), ".xlsx", mirror, DocumentOptions())
    assert linked_texts(out) == ["Seven."]
