"""Text outside the body that office files show: charts' titles (OpenDocument's too), SmartArt,
spreadsheet cell comments and Word content controls inside a paragraph, each read back by its own
library (lxml where none reads it)."""

import io

import docx
import openpyxl
import pptx
import pytest
from chart_files import linked_chart_slides_file, literal_chart_slides_file, quoted_name_chart_slides_file
from comment_files import CHART_SHAPES_MEMBERS, chart_shapes_file, chart_text_file, doctype_manifest
from lxml import etree
from office_files import (
    chart_slides_file,
    commented_sheet_file,
    content_control_file,
    master_page_file,
    read_members,
    smartart_slides_file,
    write_members,
)

from attnmt.decoding.quality import Assessment
from attnmt.documents.flat import Place
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.review import Review

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
CHART = "{urn:oasis:names:tc:opendocument:xmlns:chart:1.0}"
C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def test_a_charts_title_is_translated_and_its_numbers_kept(mirror):
    out = translate_office(chart_slides_file(), ".pptx", mirror, DocumentOptions(target_lang="de"))
    chart = next(shape for shape in pptx.Presentation(io.BytesIO(out)).slides[0].shapes if shape.has_chart).chart
    assert chart.chart_title.text_frame.text == "DOGS. OF NUMBER THE"
    assert list(chart.plots[0].categories) == ["EAST", "WEST"]  # as its workbook's cells (chart_workbooks)
    assert list(chart.plots[0].series[0].values) == [3.0, 5.0]


def test_a_charts_labels_typed_as_text_are_translated(mirror):
    """A series' name, a trendline's and categories typed as text, not read from cells, stayed in the source."""
    out = read_members(translate_office(literal_chart_slides_file(), ".pptx", mirror, DocumentOptions()))
    chart = etree.fromstring(out["ppt/charts/chart1.xml"])
    assert [v.text for v in chart.iter(f"{C}v")] == ["SEEN. DOGS", "CAR RED", "2024", "3.0", "5.0"]
    assert chart.findtext(f".//{C}trendline/{C}name") == "LINE. TREND THE"


@pytest.mark.parametrize(("name", "formula"), [("Dogs seen.", '"SEEN. DOGS"'),
                                               ('Dogs "seen".', '"""SEEN"". DOGS"')])
def test_a_series_name_written_as_a_quoted_formula_is_translated_in_its_formula_and_cache(mirror, name, formula):
    """LibreOffice writes a series' name typed as text as a reference to a string literal: its
    formula and its cached point stayed in the source while the chart's other labels were translated."""
    out = translate_office(quoted_name_chart_slides_file(name), ".pptx", mirror, DocumentOptions())
    reference = etree.fromstring(read_members(out)["ppt/charts/chart1.xml"]).find(f".//{C}ser/{C}tx/{C}strRef")
    shown = formula[1:-1].replace('""', '"')
    assert (reference.findtext(f"{C}f"), reference.findtext(f"{C}strCache/{C}pt/{C}v")) == (formula, shown)
    chart = next(shape for shape in pptx.Presentation(io.BytesIO(out)).slides[0].shapes if shape.has_chart).chart
    assert chart.plots[0].series[0].name == shown


def test_a_quoted_series_name_of_a_linked_chart_is_one_sentence_to_review(mirror):
    """A chart linked to a workbook outside the file has its cache translated as text: the quoted
    name's point was read twice, as a literal and as a cached label, and --review listed it twice."""
    review = Review(lambda sources, texts: [Assessment(0.2, ["low_quality"], False) for _ in sources], 0.5)
    data = quoted_name_chart_slides_file("Dogs seen.", linked_chart_slides_file())
    translate_office(data, ".pptx", mirror, DocumentOptions(), review=review)
    assert [segment.source for segment in review.segments] == ["The number of dogs.", "Dogs seen.", "East", "West"]


@pytest.mark.parametrize("suffix", [".xlsx", ".pptx"])
def test_a_text_box_drawn_on_a_chart_is_translated(mirror, suffix):
    """A chart's user shapes are a part of their own (drawingml.chartshapes+xml), which was not
    read: the text box stayed in the source language."""
    out = read_members(translate_office(chart_shapes_file(suffix), suffix, mirror, DocumentOptions(target_lang="de")))
    shapes = etree.fromstring(out[CHART_SHAPES_MEMBERS[suffix]])
    assert [t.text for t in shapes.iter(f"{A}t")] == ["SLEEPING. IS DOG THE"]
    assert [run.get("lang") for run in shapes.iter(f"{A}rPr")] == ["de"]


def test_smartart_nodes_are_translated(mirror):
    out = translate_office(smartart_slides_file(), ".pptx", mirror, DocumentOptions())
    data = etree.fromstring(read_members(out)["ppt/diagrams/data1.xml"])
    assert [t.text for t in data.iter(f"{A}t")] == ["SINGS. GIRL THE"]
    assert len(data.findall(f".//{A}p")) == 2  # the empty document node kept as it was


def test_a_cells_comment_is_translated_and_the_cells_kept(mirror):
    out = translate_office(commented_sheet_file(), ".xlsx", mirror, DocumentOptions())
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert sheet["A1"].comment.text == "CAR. RED THE CHECK"
    assert sheet["A1"].comment.author == "Ann"
    assert sheet["A1"].value == "RUNS. DOG A" and sheet["B1"].value == 3.5


def test_a_content_controls_words_are_translated_inside_it(mirror):
    out = translate_office(content_control_file(), ".docx", mirror, DocumentOptions())
    paragraph = docx.Document(io.BytesIO(out)).paragraphs[0]._p
    assert "".join(t.text for t in paragraph.iter(f"{W}t")) == "TODAY. CAR RED THE TO IT SEND"
    [sdt] = paragraph.findall(f"{W}sdt")
    assert sdt.find(f"{W}sdtPr/{W}alias").get(f"{W}val") == "Target"  # the control's properties, as they were
    assert [child.tag for child in sdt] == [f"{W}sdtPr", f"{W}sdtContent"]
    assert "".join(t.text for t in sdt.iter(f"{W}t")) == "CAR RED"


def chart_texts(out: bytes) -> tuple[list[str], list[str]]:
    """The paragraphs of the OpenDocument chart's titles, and of its table."""
    chart = etree.fromstring(read_members(out)["Object 1/content.xml"])
    titles = [p.text for p in chart.iter(f"{TEXT}p") if next(p.iterancestors(f"{TABLE}table"), None) is None]
    return titles, [p.text for table in chart.iter(f"{TABLE}table") for p in table.iter(f"{TEXT}p")]


def test_an_opendocument_charts_titles_and_labels_are_translated_and_its_numbers_kept(mirror):
    """The categories and the series' name, string cells of the chart's table, stayed in the source
    on its axis and in its legend, where an .xlsx chart's are translated."""
    out = translate_office(chart_text_file(), ".odt", mirror, DocumentOptions(target_lang="de"))
    assert chart_texts(out) == (["DOGS. OF NUMBER THE", "TOWNS. TWO", "SEEN. DOGS"], ["DOGS", "EAST", "3", "WEST", "5"])
    assert [p.text for p in etree.fromstring(read_members(out)["content.xml"]).iter(f"{TEXT}p")] == [
        "FOLLOWS. CHART A"]
    assert read_members(out)["Object 1/styles.xml"] == read_members(chart_text_file())["Object 1/styles.xml"]


LOEXT = "{urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0}"


@pytest.mark.parametrize(("name", "translated"), [('"Dogs seen."', '"SEEN. DOGS"'),
                                                  ('"Dogs ""seen""."', '"""SEEN"". DOGS"')])
def test_a_charts_series_name_typed_as_text_in_libreoffice_is_translated(mirror, name, translated):
    """LibreOffice holds a series' name typed as text as a string literal in the series
    (``loext:label-string``), not in the chart's table: it stayed in the source in its legend."""
    members = read_members(chart_text_file())
    chart = etree.fromstring(members["Object 1/content.xml"])
    series = next(chart.iter(f"{CHART}series"))
    del series.attrib[f"{CHART}label-cell-address"]
    series.set(f"{LOEXT}label-string", name)
    members["Object 1/content.xml"] = etree.tostring(chart)
    out = read_members(translate_office(write_members(members), ".odt", mirror, DocumentOptions()))
    assert next(etree.fromstring(out["Object 1/content.xml"]).iter(f"{CHART}series")).get(
        f"{LOEXT}label-string") == translated


SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"


def test_the_ranges_a_libreoffice_charts_table_keeps_beside_its_cells_are_kept(mirror):
    """LibreOffice writes the sheet range each cell of a chart's table was read from as an empty group's
    description (``<draw:g><svg:desc>Data.B1:Data.B1</svg:desc></draw:g>``), and reads it back to tie the
    series to the sheet: it was translated as a picture's alt text ("DATA.B1:DATA.B1", the demo model
    "Daten.B1")."""
    members = read_members(chart_text_file())
    chart = etree.fromstring(members["Object 1/content.xml"])
    cells = [cell for cell in chart.iter(f"{TABLE}table-cell") if len(cell)]
    for number, cell in enumerate(cells):
        cell.append(etree.fromstring(f'<draw:g xmlns:draw="{DRAW}" xmlns:svg="{SVG}"><svg:desc>Sales figures.B{number}'
                                     f":Sales figures.B{number}</svg:desc></draw:g>"))
    members["Object 1/content.xml"] = etree.tostring(chart)
    out = etree.fromstring(read_members(translate_office(write_members(members), ".odt", mirror,
                                                         DocumentOptions()))["Object 1/content.xml"])
    assert [desc.text for desc in out.iter(f"{{{SVG}}}desc")] == [
        f"Sales figures.B{number}:Sales figures.B{number}" for number in range(len(cells))]
    assert [p.text for p in out.iter(f"{TEXT}p")][-5:] == ["DOGS", "EAST", "3", "WEST", "5"]
    assert not any("Sales" in given for given in mirror.given)


def test_a_manifest_with_a_doctype_as_openoffice_wrote_it_is_read(mirror):
    out = translate_office(doctype_manifest(chart_text_file()), ".odt", mirror, DocumentOptions())
    assert chart_texts(out)[0] == ["DOGS. OF NUMBER THE", "TOWNS. TWO", "SEEN. DOGS"]


def paragraphs(member: bytes) -> list[str]:
    return ["".join(p.itertext()) for p in etree.fromstring(member).iter(f"{TEXT}p")]


def test_an_odp_masters_prompt_is_kept_as_a_pptx_masters_is(mirror):
    """The master page's title placeholder (its prompt, shown only while editing) was translated
    from styles.xml, where PowerPoint's masters and layouts are not (docs/documents.md, Limits)."""
    data = master_page_file(".odp")
    out = read_members(translate_office(data, ".odp", mirror, DocumentOptions()))
    assert paragraphs(out["content.xml"]) == ["LAUGHS. BOY THE"]
    assert out["styles.xml"] == read_members(data)["styles.xml"]


def test_an_odp_masters_text_box_drawn_on_every_slide_is_translated_and_its_prompt_kept(mirror):
    """A frame without a presentation:class is no placeholder: it shows on every slide, and stayed in the source."""
    members = read_members(master_page_file(".odp"))
    styles = members["styles.xml"].decode()
    box = ('<draw:frame svg:width="8cm" svg:height="1cm" svg:x="1cm" svg:y="18cm"><draw:text-box>'
           "<text:p>Only for the team.</text:p></draw:text-box></draw:frame>")
    members["styles.xml"] = styles.replace("</style:master-page>", box + "</style:master-page>").encode()
    out = read_members(translate_office(write_members(members), ".odp", mirror, DocumentOptions()))
    assert paragraphs(out["styles.xml"]) == ["Click to edit the title text format", "TEAM. THE FOR ONLY"]
    assert paragraphs(out["content.xml"]) == ["LAUGHS. BOY THE"]


def test_an_odt_masters_header_is_translated(mirror):
    out = read_members(translate_office(master_page_file(".odt"), ".odt", mirror, DocumentOptions()))
    assert paragraphs(out["styles.xml"]) == ["TEXT. HEADER THE"]
    assert paragraphs(out["content.xml"]) == ["RUNS. DOG A"]


def test_an_odt_first_page_header_written_by_libreoffice_is_translated(mirror):
    """LibreOffice writes a first page's own header as loext:header-first (ODF 1.2 Extended): it is
    the page's text, not a master's shape, and is translated as style:header is."""
    members = read_members(master_page_file(".odt"))
    loext = "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
    members["styles.xml"] = (members["styles.xml"].replace(b"<style:header>", b'<loext:header-first xmlns:loext="%s">'
                                                           % loext.encode())
                             .replace(b"</style:header>", b"</loext:header-first>"))
    assert b"loext:header-first" in members["styles.xml"]
    out = read_members(translate_office(write_members(members), ".odt", mirror, DocumentOptions()))
    assert paragraphs(out["styles.xml"]) == ["TEXT. HEADER THE"]


def test_an_odp_slides_footer_and_fixed_date_are_translated_and_a_current_date_kept(mirror):
    """Impress keeps a slide's header, footer and date (View > Header and Footer) as plain text in
    presentation:*-decl, which the master's placeholders show: the footer stayed in English, where a
    .pptx's footer on the slide is translated.  A date that is the current date is a format, kept."""
    from odf import presentation
    from odf.opendocument import load

    members = read_members(master_page_file(".odp"))
    ns = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
    declarations = (f'<presentation:footer-decl xmlns:presentation="{ns}" presentation:name="ftr1">The annual meeting'
                    f'</presentation:footer-decl><presentation:date-time-decl xmlns:presentation="{ns}" '
                    'presentation:name="dtd1" presentation:source="fixed">First of May</presentation:date-time-decl>'
                    f'<presentation:date-time-decl xmlns:presentation="{ns}" presentation:name="dtd2" '
                    'presentation:source="current-date">Monday</presentation:date-time-decl>')
    members["content.xml"] = members["content.xml"].replace(b"<office:presentation>",
                                                            b"<office:presentation>" + declarations.encode(), 1)
    assert b"footer-decl" in members["content.xml"]
    out = translate_office(write_members(members), ".odp", mirror, DocumentOptions())
    document = load(io.BytesIO(out))
    assert [str(e) for e in document.getElementsByType(presentation.FooterDecl)] == ["MEETING ANNUAL THE"]
    assert [str(e) for e in document.getElementsByType(presentation.DateTimeDecl)] == ["MAY OF FIRST", "Monday"]



DIAGRAM_DRAWING = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" '
                   'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree><dsp:sp modelId="{3}">'
                   '<dsp:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>The girl sings.</a:t></a:r></a:p>'
                   '</dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>')


def test_smartarts_drawn_copy_is_translated_but_reviewed_once(mirror):
    """PowerPoint and Word draw a SmartArt from the copy of its nodes' text they keep beside them
    (diagrams/drawing1.xml): translated, it was listed and counted again in a review, each of its nodes twice."""
    members = read_members(smartart_slides_file())
    members["ppt/diagrams/drawing1.xml"] = DIAGRAM_DRAWING.encode()
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(b"</Types>", (
        b'<Override PartName="/ppt/diagrams/drawing1.xml" '
        b'ContentType="application/vnd.ms-office.drawingml.diagramDrawing+xml"/></Types>'))
    review = Review(lambda sources, texts: [Assessment(0.2, ["low_quality"], False) for _ in sources], 0.5)
    out = read_members(translate_office(write_members(members), ".pptx", mirror, DocumentOptions(), review=review))
    assert [t.text for t in etree.fromstring(out["ppt/diagrams/drawing1.xml"]).iter(f"{A}t")] == ["SINGS. GIRL THE"]
    assert [segment.place for segment in review.segments if segment.source == "The girl sings."] == [
        Place("ppt/diagrams/data1.xml", 1)]
    assert review.sentences == 4  # the slide's title and text box, its notes, the node
