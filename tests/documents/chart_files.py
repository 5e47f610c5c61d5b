"""Word documents and presentations holding a chart that reads a workbook embedded in the file,
for the office tests to translate and read back.  python-docx cannot make a chart, so the Word
document's is the one python-pptx writes for a slide (chart_slides_file: "The number of dogs.",
categories "East" and "West", series "Dogs" of 3 and 5, its workbook beside it), its part and its
drawing in the body written by hand as Word writes them.

A plain module (not a test module): the tests import the builders from here.
"""

from __future__ import annotations

import re

import docx
from comment_files import RELATIONSHIPS, add_part, relate
from office_files import chart_slides_file, docx_bytes, read_members, write_members

SLIDE_CHART, SLIDE_WORKBOOK = "ppt/charts/chart1.xml", "ppt/embeddings/Microsoft_Excel_Sheet1.xlsx"
WORD_CHART, WORD_WORKBOOK = "word/charts/chart1.xml", "word/embeddings/Microsoft_Excel_Worksheet1.xlsx"
CHART_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
WORKBOOK_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DRAWING = ('<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
           ' distT="0" distB="0" distL="0" distR="0"><wp:extent cx="5486400" cy="3200400"/>'
           '<wp:docPr id="1" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
           '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
           f'<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="{RELATIONSHIPS}" '
           'r:id="rIdC1"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')


def chart_word_file(workbook: bytes | None = None) -> bytes:
    """A Word document: "The dogs are counted." and, in a paragraph of its own, the slide's chart
    (chart_slides_file), which reads its workbook (WORD_WORKBOOK; ``workbook``: those bytes in its place)."""
    document = docx.Document()
    document.add_paragraph("The dogs are counted.")
    members = read_members(docx_bytes(document))
    body = members["word/document.xml"].decode()
    members["word/document.xml"] = body.replace("<w:sectPr", f"<w:p>{DRAWING}</w:p><w:sectPr", 1).encode()
    slide = read_members(chart_slides_file())
    add_part(members, WORD_CHART, slide[SLIDE_CHART].decode(), CHART_TYPE)
    members[WORD_WORKBOOK] = slide[SLIDE_WORKBOOK] if workbook is None else workbook
    types = members["[Content_Types].xml"].decode()
    if 'Extension="xlsx"' not in types:
        members["[Content_Types].xml"] = types.replace(
            "</Types>", f'<Default Extension="xlsx" ContentType="{WORKBOOK_TYPE}"/></Types>').encode()
    relate(members, "word/_rels/document.xml.rels", 1, f"{RELATIONSHIPS}/chart", "charts/chart1.xml")
    relate(members, "word/charts/_rels/chart1.xml.rels", 1, f"{RELATIONSHIPS}/package",
           "../embeddings/Microsoft_Excel_Worksheet1.xlsx")
    members[WORD_CHART] = members[WORD_CHART].replace(b'r:id="rId1"', b'r:id="rIdC1"')
    return write_members(members)


def chart_slides_with(workbook: bytes) -> bytes:
    """The slide's chart (chart_slides_file), its workbook's bytes ``workbook``."""
    members = read_members(chart_slides_file())
    members[SLIDE_WORKBOOK] = workbook
    return write_members(members)



def literal_chart_slides_file() -> bytes:
    """The slide's chart (chart_slides_file), its series named "Dogs seen." as Excel's "Edit Series"
    writes a name typed as text (``c:tx/c:v``), with a trendline named "The trend line.", over
    categories typed as a list (``c:strLit``): "Red car" and "2024"."""
    members = read_members(chart_slides_file())
    chart = members[SLIDE_CHART].decode()
    chart = re.sub(r"<c:tx><c:strRef>.*?</c:strRef></c:tx>",
                   "<c:tx><c:v>Dogs seen.</c:v></c:tx>", chart)
    chart = re.sub(r"<c:cat>.*?</c:cat>", '<c:trendline><c:name>The trend line.</c:name><c:trendlineType '
                   'val="linear"/></c:trendline><c:cat><c:strLit><c:ptCount val="2"/><c:pt idx="0"><c:v>Red car</c:v>'
                   '</c:pt><c:pt idx="1"><c:v>2024</c:v></c:pt></c:strLit></c:cat>', chart)
    members[SLIDE_CHART] = chart.encode()
    return write_members(members)


def quoted_name_chart_slides_file(name: str, slides: bytes | None = None) -> bytes:
    """The slide's chart (chart_slides_file; ``slides``: that file's bytes instead), its series named
    ``name`` as LibreOffice writes a name typed as text: a reference whose formula is a string
    literal, with its one point cached (``<c:strRef><c:f>"Dogs seen."</c:f><c:strCache>…<c:v>Dogs seen.</c:v>``)."""
    members = read_members(chart_slides_file() if slides is None else slides)
    quoted = '"' + name.replace('"', '""') + '"'
    members[SLIDE_CHART] = re.sub(
        r"<c:tx><c:strRef>.*?</c:strRef></c:tx>", lambda _: (
            f'<c:tx><c:strRef><c:f>{quoted}</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">'
            f"<c:v>{name}</c:v></c:pt></c:strCache></c:strRef></c:tx>"), members[SLIDE_CHART].decode()).encode()
    return write_members(members)


def linked_chart_slides_file() -> bytes:
    """The slide's chart (chart_slides_file) linked to a workbook outside the file, as PowerPoint
    writes a chart pasted with "Link Data": an external oleObject relationship, no embedded workbook."""
    members = read_members(chart_slides_file())
    del members[SLIDE_WORKBOOK]
    members["ppt/charts/_rels/chart1.xml.rels"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.'
        b'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/oleObject" Target="file:///C:\\Reports\\Dogs.xlsx" TargetMode="External"/>'
        b'</Relationships>')
    return write_members(members)
