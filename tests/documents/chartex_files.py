"""Office files holding an Excel 2016 chart (chartEx: a waterfall), for the office tests to
translate and read back.  No library writes one, so the chart's part, and the graphic frame that
shows it, are written by hand as Excel and PowerPoint write them: the frame inside
mc:AlternateContent, with a text box as the fallback an older application shows instead.

A plain module (not a test module): the tests import the builders from here.
"""

from __future__ import annotations

import openpyxl
from comment_files import HEAD, RELATIONSHIPS, add_part, relate
from office_files import docx_bytes, read_members, slides_file, write_members

CX = "http://schemas.microsoft.com/office/drawing/2014/chartex"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
CHARTEX_TYPE = "application/vnd.ms-office.chartex+xml"
CHARTEX = {".xlsx": "xl/charts/chartEx1.xml", ".pptx": "ppt/charts/chartEx1.xml"}
FALLBACK = "This chart is not available."


def rich(text: str) -> str:
    """A title's text, as rich text (a DrawingML paragraph)."""
    return f'<cx:tx><cx:rich><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>{text}</a:t></a:r></a:p></cx:rich></cx:tx>'


def chartex_xml(sheet: str) -> str:
    """A waterfall titled "The number of dogs." over the categories "A red car.", "A blue car." and
    7 (``sheet``'s A2:A4, their cached points), of the series named by B1 ("Dogs seen.", its cached
    value), its values B2:B4, its value axis titled "Dogs."."""
    points = "".join(f'<cx:pt idx="{number}">{text}</cx:pt>' for number, text in enumerate(
        ("A red car.", "A blue car.", "7")))
    values = "".join(f'<cx:pt idx="{number}">{value}</cx:pt>' for number, value in enumerate((3, 5, 2)))
    return (f'{HEAD}<cx:chartSpace xmlns:a="{A}" xmlns:cx="{CX}"><cx:chartData><cx:data id="0">'
            f'<cx:strDim type="cat"><cx:f>{sheet}!$A$2:$A$4</cx:f><cx:lvl ptCount="3">{points}</cx:lvl></cx:strDim>'
            f'<cx:numDim type="val"><cx:f>{sheet}!$B$2:$B$4</cx:f><cx:lvl ptCount="3" formatCode="General">{values}'
            f'</cx:lvl></cx:numDim></cx:data></cx:chartData><cx:chart><cx:title pos="t" align="ctr" overlay="0">'
            f'{rich("The number of dogs.")}</cx:title><cx:plotArea><cx:plotAreaRegion>'
            f'<cx:series layoutId="waterfall" uniqueId="{{00000000-0000-0000-0000-000000000001}}">'
            f'<cx:tx><cx:txData><cx:f>{sheet}!$B$1</cx:f><cx:v>Dogs seen.</cx:v></cx:txData></cx:tx>'
            '<cx:dataId val="0"/></cx:series></cx:plotAreaRegion><cx:axis id="0"><cx:catScaling/></cx:axis>'
            f'<cx:axis id="1"><cx:valScaling/><cx:title>{rich("Dogs.")}</cx:title></cx:axis></cx:plotArea>'
            '</cx:chart></cx:chartSpace>')


def alternate(frame: str, fallback: str) -> str:
    """The chartEx graphic ``frame``, with ``fallback`` for an application that does not know it."""
    return (f'<mc:AlternateContent xmlns:mc="{MC}"><mc:Choice xmlns:cx1="{CX}" Requires="cx1">{frame}</mc:Choice>'
            f'<mc:Fallback>{fallback}</mc:Fallback></mc:AlternateContent>')


GRAPHIC = (f'<a:graphic xmlns:a="{A}"><a:graphicData uri="{CX}"><cx:chart xmlns:cx="{CX}" '
           f'xmlns:r="{RELATIONSHIPS}" r:id="rIdC9"/></a:graphicData></a:graphic>')


def chartex_sheet_file() -> bytes:
    """A sheet "My data": "A red car.", "A blue car." and the number 7 in A2:A4, their counts in
    B2:B4 under "Dogs seen." (B1), charted in a waterfall (chartex_xml) drawn on the sheet."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "My data"
    for row in (["Item", "Dogs seen."], ["A red car.", 3], ["A blue car.", 5], [7, 2]):
        sheet.append(row)
    members = read_members(docx_bytes(book))
    add_part(members, CHARTEX[".xlsx"], chartex_xml("'My data'"), CHARTEX_TYPE)
    frame = ('<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/>'
             '<xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/>'
             f'</xdr:xfrm>{GRAPHIC}</xdr:graphicFrame>')
    fallback = ('<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="3" name="Fallback"/><xdr:cNvSpPr>'
                '<a:spLocks noTextEdit="1"/></xdr:cNvSpPr></xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="0" y="0"/>'
                '<a:ext cx="4572000" cy="2743200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr>'
                f'<xdr:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>{FALLBACK}</a:t></a:r></a:p>'
                '</xdr:txBody></xdr:sp>')
    drawing = (f'{HEAD}<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" '
               f'xmlns:a="{A}"><xdr:twoCellAnchor><xdr:from><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff>'
               '<xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>10</xdr:col>'
               '<xdr:colOff>0</xdr:colOff><xdr:row>15</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>'
               f'{alternate(frame, fallback)}<xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>')
    add_part(members, "xl/drawings/drawing1.xml", drawing, "application/vnd.openxmlformats-officedocument.drawing+xml")
    relate(members, "xl/drawings/_rels/drawing1.xml.rels", 9, "http://schemas.microsoft.com/office/2014/relationships/"
           "chartEx", "../charts/chartEx1.xml")
    relate(members, "xl/worksheets/_rels/sheet1.xml.rels", 1, f"{RELATIONSHIPS}/drawing", "../drawings/drawing1.xml")
    members["xl/worksheets/sheet1.xml"] = members["xl/worksheets/sheet1.xml"].replace(
        b"</worksheet>", f'<drawing xmlns:r="{RELATIONSHIPS}" r:id="rIdC1"/></worksheet>'.encode())
    return write_members(members)


def chartex_slides_file() -> bytes:
    """The slides file (office_files.slides_file) with a waterfall (chartex_xml) on its slide, read
    from the workbook PowerPoint embeds with it (Sheet1, the same cells as chartex_sheet_file's)."""
    members = read_members(slides_file())
    book = openpyxl.Workbook()
    book.active.title = "Sheet1"  # as PowerPoint names it, and the chart reads it
    for row in (["Item", "Dogs seen."], ["A red car.", 3], ["A blue car.", 5], [7, 2]):
        book.active.append(row)
    members["ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx"] = docx_bytes(book)
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(b"</Types>", (
        b'<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>'
        b'</Types>'))
    add_part(members, CHARTEX[".pptx"], chartex_xml("Sheet1"), CHARTEX_TYPE)
    relate(members, "ppt/charts/_rels/chartEx1.xml.rels", 1, f"{RELATIONSHIPS}/package",
           "../embeddings/Microsoft_Excel_Worksheet1.xlsx")
    relate(members, "ppt/slides/_rels/slide1.xml.rels", 9, "http://schemas.microsoft.com/office/2014/relationships/"
           "chartEx", "../charts/chartEx1.xml")
    frame = ('<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="90" name="Chart 90"/><p:cNvGraphicFramePr/><p:nvPr/>'
             '</p:nvGraphicFramePr><p:xfrm><a:off x="914400" y="3200400"/><a:ext cx="4572000" cy="2743200"/></p:xfrm>'
             f'{GRAPHIC}</p:graphicFrame>')
    fallback = ('<p:sp><p:nvSpPr><p:cNvPr id="91" name="Fallback"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>'
                '<a:xfrm><a:off x="914400" y="3200400"/><a:ext cx="4572000" cy="2743200"/></a:xfrm><a:prstGeom '
                f'prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr '
                f'lang="en-US"/><a:t>{FALLBACK}</a:t></a:r></a:p></p:txBody></p:sp>')
    head, _, tail = members["ppt/slides/slide1.xml"].decode().rpartition("</p:spTree>")
    members["ppt/slides/slide1.xml"] = (head + alternate(frame, fallback) + "</p:spTree>" + tail).encode()
    return write_members(members)
