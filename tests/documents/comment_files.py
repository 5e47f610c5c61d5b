"""Office files with review comments, annotations, speaker notes and charts, for the office tests
to translate and read back: built with their own libraries (openpyxl, odfpy) where these can make
them, the parts written by hand where they cannot (python-pptx makes no comments, openpyxl no
threaded comments).

A plain module (not a test module): the tests import the builders from here.
"""

from __future__ import annotations

import io

import openpyxl
from office_files import (
    chart_slides_file,
    docx_bytes,
    odf_bytes,
    presentation_file,
    read_members,
    sheet_file,
    slides_file,
    write_members,
)

P = "http://schemas.openxmlformats.org/presentationml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P188 = "http://schemas.microsoft.com/office/powerpoint/2018/8/main"
THREADED = "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

COMMENT_AUTHORS = (f'{HEAD}<p:cmAuthorLst xmlns:p="{P}"><p:cmAuthor id="0" name="Ann Smith" initials="AS" '
                   'lastIdx="1" clrIdx="0"/></p:cmAuthorLst>')
COMMENTS = (f'{HEAD}<p:cmLst xmlns:p="{P}"><p:cm authorId="0" dt="2024-05-01T10:00:00.000" idx="1">'
            '<p:pos x="10" y="10"/><p:text>Check the red car.\nIt is parked.</p:text></p:cm></p:cmLst>')
AUTHORS = (f'{HEAD}<p188:authorLst xmlns:p188="{P188}"><p188:author id="{{A1}}" name="Bob Jones" initials="BJ" '
           'userId="bob@example.org" providerId="None"/></p188:authorLst>')
MODERN_COMMENTS = (
    f'{HEAD}<p188:cmLst xmlns:a="{A}" xmlns:r="{RELATIONSHIPS}" xmlns:p188="{P188}">'
    '<p188:cm id="{C1}" authorId="{A1}" created="2024-05-01T10:00:00.000">'
    '<pc:sldMkLst xmlns:pc="http://schemas.microsoft.com/office/powerpoint/2013/main/command"><pc:docMk/>'
    '<pc:sldMk cId="0" sldId="256"/></pc:sldMkLst>'
    '<p188:replyLst><p188:reply id="{R1}" authorId="{A1}" created="2024-05-01T11:00:00.000"><p188:txBody>'
    '<a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>It is fixed.</a:t></a:r></a:p></p188:txBody>'
    '</p188:reply></p188:replyLst>'
    '<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t xml:space="preserve">Move the </a:t>'
    '</a:r><a:r><a:rPr lang="en-US" b="1"/><a:t>blue</a:t></a:r><a:r><a:rPr lang="en-US"/>'
    '<a:t xml:space="preserve"> box.</a:t></a:r></a:p></p188:txBody></p188:cm></p188:cmLst>')


def add_part(members: dict[str, bytes], member: str, data: str, content_type: str) -> None:
    """``member`` added to the archive's members, with its content type."""
    members[member] = data.encode()
    types = members["[Content_Types].xml"].decode()
    members["[Content_Types].xml"] = types.replace(
        "</Types>", f'<Override PartName="/{member}" ContentType="{content_type}"/></Types>').encode()


def relate(members: dict[str, bytes], rels: str, number: int, kind: str, target: str) -> None:
    """A relationship (Id ``rIdC{number}``) of type ``kind`` added to the relationships part ``rels``."""
    head = f'{HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    old = members.get(rels, (head + "</Relationships>").encode()).decode()
    members[rels] = old.replace("</Relationships>", f'<Relationship Id="rIdC{number}" Type="{kind}" '
                                f'Target="{target}"/></Relationships>').encode()


def commented_slides_file() -> bytes:
    """The slides file with two comments on its slide: a classic one by Ann Smith, "Check the red
    car." and "It is parked." on two lines, and a modern one by Bob Jones, "Move the blue box." with
    "blue" bold, and its reply "It is fixed."."""
    members = read_members(slides_file())
    presentation = "application/vnd.openxmlformats-officedocument.presentationml"
    add_part(members, "ppt/commentAuthors.xml", COMMENT_AUTHORS, f"{presentation}.commentAuthors+xml")
    add_part(members, "ppt/comments/comment1.xml", COMMENTS, f"{presentation}.comments+xml")
    add_part(members, "ppt/authors.xml", AUTHORS, "application/vnd.ms-powerpoint.authors+xml")
    add_part(members, "ppt/comments/modernComment_100_1.xml", MODERN_COMMENTS,
             "application/vnd.ms-powerpoint.comments+xml")
    relate(members, "ppt/_rels/presentation.xml.rels", 1, f"{RELATIONSHIPS}/commentAuthors", "commentAuthors.xml")
    relate(members, "ppt/_rels/presentation.xml.rels", 2, "http://schemas.microsoft.com/office/2018/10/"
           "relationships/authors", "authors.xml")
    relate(members, "ppt/slides/_rels/slide1.xml.rels", 3, f"{RELATIONSHIPS}/comments", "../comments/comment1.xml")
    relate(members, "ppt/slides/_rels/slide1.xml.rels", 4, "http://schemas.microsoft.com/office/2018/10/"
           "relationships/comments", "../comments/modernComment_100_1.xml")
    return write_members(members)


THREAD, REPLY = "{7A1B2C3D-0000-4000-8000-000000000001}", "{7A1B2C3D-0000-4000-8000-000000000002}"
REPLY_TEXT = "\N{THUMBS UP SIGN} Ask @Ann Smith about the \N{THUMBS UP SIGN} car."
# What Excel writes in the note it keeps beside a thread, for its older versions.
NOTE = ("[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any edits "
        "to it will get removed if the file is opened in a newer version of Excel. Learn more: "
        f"https://go.microsoft.com/fwlink/?linkid=870924\n\nComment:\n    Check the red car.\nReply:\n    {REPLY_TEXT}")
THREADED_COMMENTS = (
    f'{HEAD}<ThreadedComments xmlns="{THREADED}" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    f'<threadedComment ref="A1" dT="2024-05-01T10:00:00.00" personId="{{P1}}" id="{THREAD}">'
    '<text>Check the red car.</text></threadedComment>'
    f'<threadedComment ref="A1" dT="2024-05-01T11:00:00.00" personId="{{P2}}" id="{REPLY}" parentId="{THREAD}">'
    f'<text>{REPLY_TEXT}</text><mentions><mention mentionpersonId="{{P1}}" mentionId="{{M1}}" startIndex="7" '
    'length="10"/></mentions></threadedComment></ThreadedComments>')
PERSONS = (f'{HEAD}<personList xmlns="{THREADED}" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
           '<person displayName="Ann Smith" id="{P1}" userId="ann@example.org" providerId="None"/>'
           '<person displayName="Bob Jones" id="{P2}" userId="bob@example.org" providerId="None"/></personList>')


def threaded_sheet_file() -> bytes:
    """The sheet file with a thread on A1: Ann's "Check the red car." and Bob's reply, "👍 Ask @Ann
    Smith about the 👍 car." (a mention of Ann, at UTF-16 unit 7: 👍 is a character outside the
    BMP, two units); and the note Excel writes beside it (NOTE, its author ``tc={the thread's id}``)."""
    from openpyxl.comments import Comment

    book = openpyxl.load_workbook(io.BytesIO(sheet_file()))
    book.active["A1"].comment = Comment(NOTE, f"tc={THREAD}")
    members = read_members(docx_bytes(book))
    add_part(members, "xl/threadedComments/threadedComment1.xml", THREADED_COMMENTS,
             "application/vnd.ms-excel.threadedcomments+xml")
    add_part(members, "xl/persons/person.xml", PERSONS, "application/vnd.ms-excel.person+xml")
    relate(members, "xl/worksheets/_rels/sheet1.xml.rels", 1, "http://schemas.microsoft.com/office/2017/10/"
           "relationships/threadedComment", "../threadedComments/threadedComment1.xml")
    relate(members, "xl/_rels/workbook.xml.rels", 2, "http://schemas.microsoft.com/office/2017/10/relationships/"
           "person", "persons/person.xml")
    return write_members(members)


def annotated_calc_file() -> bytes:
    """An OpenDocument spreadsheet: a text cell annotated "Check the red car." and a number cell
    (12) annotated "Count the dogs again.", both by Ann on 2024-05-01."""
    from odf.dc import Creator, Date
    from odf.office import Annotation
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P as Paragraph

    document = OpenDocumentSpreadsheet()
    table = Table(name="S")
    row = TableRow()
    for attributes, shown, note in (({"valuetype": "string"}, "A dog runs.", "Check the red car."),
                                    ({"valuetype": "float", "value": "12"}, "12", "Count the dogs again.")):
        cell = TableCell(**attributes)
        annotation = Annotation()
        annotation.addElement(Creator(text="Ann"))
        annotation.addElement(Date(text="2024-05-01T10:00:00"))
        annotation.addElement(Paragraph(text=note))
        cell.addElement(annotation)
        cell.addElement(Paragraph(text=shown))
        row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    return odf_bytes(document)


def noted_presentation_file() -> bytes:
    """The OpenDocument presentation with speaker notes on its slide: "Say hello to the people."."""
    from odf.draw import Frame, Page, TextBox
    from odf.opendocument import load
    from odf.presentation import Notes
    from odf.text import P as Paragraph

    document = load(io.BytesIO(presentation_file()))
    notes = Notes()
    frame = Frame(width="16cm", height="10cm", x="2cm", y="14cm", attributes={"class": "notes"})
    box = TextBox()
    box.addElement(Paragraph(text="Say hello to the people."))
    frame.addElement(box)
    notes.addElement(frame)
    document.getElementsByType(Page)[0].addElement(notes)
    return odf_bytes(document)


def chart_text_file() -> bytes:
    """An OpenDocument text with a column chart (an embedded object, ``Object 1``) titled "The
    number of dogs.", subtitled "Two towns.", its y axis "Dogs seen."; its table: a series "Dogs"
    over "East" and "West", 3 and 5."""
    from odf.chart import Axis, Categories, Chart, PlotArea, Series, Subtitle, Title
    from odf.draw import Frame, Object
    from odf.opendocument import OpenDocumentChart, OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableHeaderRows, TableRow, TableRows
    from odf.text import P as Paragraph

    def titled(element, text: str):
        element.addElement(Paragraph(text=text))
        return element

    chart_document = OpenDocumentChart()
    chart = Chart(width="12cm", height="8cm", attributes={"class": "chart:bar"})
    chart.addElement(titled(Title(), "The number of dogs."))
    chart.addElement(titled(Subtitle(), "Two towns."))
    plot = PlotArea(datasourcehaslabels="both")
    x_axis = Axis(dimension="x", name="primary-x")
    x_axis.addElement(Categories(cellrangeaddress="local-table.A2:A3"))
    plot.addElement(x_axis)
    y_axis = Axis(dimension="y", name="primary-y")
    y_axis.addElement(titled(Title(), "Dogs seen."))
    plot.addElement(y_axis)
    plot.addElement(Series(valuescellrangeaddress="local-table.B2:B3", labelcelladdress="local-table.B1",
                           attributes={"class": "chart:bar"}))
    chart.addElement(plot)
    table = Table(name="local-table")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    header, rows = TableHeaderRows(), TableRows()
    for values, holder in (([None, "Dogs"], header), (["East", 3], rows), (["West", 5], rows)):
        row = TableRow()
        for value in values:
            if value is None:
                cell = TableCell()
            elif isinstance(value, str):
                cell = TableCell(valuetype="string")
            else:
                cell = TableCell(valuetype="float", value=value)
            if value is not None:
                cell.addElement(Paragraph(text=str(value)))
            row.addElement(cell)
        holder.addElement(row)
    table.addElement(header)
    table.addElement(rows)
    chart.addElement(table)
    chart_document.chart.addElement(chart)

    document = OpenDocumentText()
    name = document.addObject(chart_document)
    paragraph = Paragraph(text="A chart follows.")
    frame = Frame(width="12cm", height="8cm", anchortype="paragraph")
    frame.addElement(Object(href=name))
    paragraph.addElement(frame)
    document.text.addElement(paragraph)
    return odf_bytes(document)


CHART_SHAPES = (
    f'{HEAD}<c:userShapes xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
    f'xmlns:cdr="http://schemas.openxmlformats.org/drawingml/2006/chartDrawing" xmlns:a="{A}"><cdr:relSizeAnchor>'
    '<cdr:from><cdr:x>0.1</cdr:x><cdr:y>0.1</cdr:y></cdr:from><cdr:to><cdr:x>0.5</cdr:x><cdr:y>0.2</cdr:y></cdr:to>'
    '<cdr:sp macro="" textlink=""><cdr:nvSpPr><cdr:cNvPr id="2" name="TextBox 1"/><cdr:cNvSpPr txBox="1"/>'
    '</cdr:nvSpPr><cdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1000000" cy="300000"/></a:xfrm>'
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></cdr:spPr><cdr:txBody><a:bodyPr wrap="square"/><a:lstStyle/>'
    '<a:p><a:r><a:rPr lang="en-US"/><a:t>The dog is sleeping.</a:t></a:r></a:p></cdr:txBody></cdr:sp>'
    '</cdr:relSizeAnchor></c:userShapes>')
CHART_SHAPES_MEMBERS = {".xlsx": "xl/drawings/drawing9.xml", ".pptx": "ppt/drawings/drawing9.xml"}


def chart_shapes_file(suffix: str) -> bytes:
    """A chart with a text box drawn on it, "The dog is sleeping.": its "user shapes", a part of
    their own (CHART_SHAPES_MEMBERS) that the chart relates to, as Excel, PowerPoint and Word write
    them.  On a slide (chart_slides_file), or on a sheet (".xlsx": an openpyxl bar chart of 3 and 5)."""
    from openpyxl.chart import BarChart, Reference

    if suffix == ".pptx":
        members, chart = read_members(chart_slides_file()), "ppt/charts/chart1.xml"
    else:
        book = openpyxl.Workbook()
        book.active.append([3, 5])
        bars = BarChart()
        bars.add_data(Reference(book.active, min_col=1, max_col=2, min_row=1))
        book.active.add_chart(bars, "D2")
        members, chart = read_members(docx_bytes(book)), "xl/charts/chart1.xml"
    add_part(members, CHART_SHAPES_MEMBERS[suffix], CHART_SHAPES,
             "application/vnd.openxmlformats-officedocument.drawingml.chartshapes+xml")
    folder, _, name = chart.rpartition("/")
    relate(members, f"{folder}/_rels/{name}.rels", 1, f"{RELATIONSHIPS}/chartUserShapes", "../drawings/drawing9.xml")
    head, _, tail = members[chart].rpartition(b"</")  # the shapes come last in the chart, before its end tag
    members[chart] = head + (f'<c:userShapes xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
                             f'xmlns:r="{RELATIONSHIPS}" r:id="rIdC1"/></').encode() + tail
    return write_members(members)


def doctype_manifest(data: bytes) -> bytes:
    """The OpenDocument file with the DOCTYPE OpenOffice.org 1 and 2 wrote in META-INF/manifest.xml."""
    members = read_members(data)
    manifest = members["META-INF/manifest.xml"].decode()
    start = manifest.index("<manifest:manifest")
    members["META-INF/manifest.xml"] = (manifest[:start] + '<!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//'
                                        'DTD Manifest 1.0//EN" "Manifest.dtd">\n' + manifest[start:]).encode()
    return write_members(members)
