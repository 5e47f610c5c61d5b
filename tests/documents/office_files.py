"""Small office files and e-books built with their own libraries (python-docx, python-pptx,
openpyxl, odfpy, ebooklib), for the office tests to translate and read back.

A plain module (not a test module): the tests import the builders from here.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile

import docx
import openpyxl
import pptx
from docx.oxml.ns import qn
from docx.shared import RGBColor
from lxml import etree
from pptx.util import Inches

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
# a 1x1 PNG, the smallest picture python-docx and python-pptx take
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c"
                    "63606060000000040001f61738550000000049454e44ae426082")


def docx_bytes(document) -> bytes:
    """The bytes of a python-docx Document (or anything else with a ``save(file)``: a workbook)."""
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def add_hyperlink(paragraph, text: str, url: str) -> None:
    """A w:hyperlink around one run (python-docx has no call for it)."""
    r_id = paragraph.part.relate_to(url, docx.opc.constants.RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = paragraph._p.makeelement(qn("w:hyperlink"), {qn("r:id"): r_id})
    run = paragraph.add_run(text)
    run.underline = True
    link.append(run._r)
    paragraph._p.append(link)


def word_paragraph(*paragraphs: str) -> bytes:
    """A Word file of a paragraph for each of ``paragraphs``, its content (w: and w14: names)."""
    document = docx.Document()
    for runs in paragraphs:
        paragraph = document.add_paragraph()._p
        paragraph.extend(list(etree.fromstring(f'<w:p xmlns:w="{W}" xmlns:w14="{W14}">{runs}</w:p>')))
    return docx_bytes(document)


def w(name: str) -> str:
    """``name`` in WordprocessingML's namespace, as lxml spells it: w("t") is "{http://…/main}t"."""
    return f"{{{W}}}{name}"


def text_run(text: str, look: str = "") -> str:
    """A Word run of ``text``, its spaces kept, after its properties ``look`` (a w:rPr) if any."""
    return f'<w:r>{look}<w:t xml:space="preserve">{text}</w:t></w:r>'


def field_char(kind: str) -> str:
    """The run of a complex field's character of ``kind``: begin, separate or end."""
    return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'


def code_run(code: str) -> str:
    """The run of a complex field's ``code``, as given: Word writes it between spaces (" PAGE ")."""
    return f'<w:r><w:instrText xml:space="preserve">{code}</w:instrText></w:r>'


def complex_field(code: str, result: str) -> str:
    """A complex field of ``code`` showing ``result``, as Word writes it: its begin, code, separator, result and end,
    a run each."""
    return field_char("begin") + code_run(code) + field_char("separate") + text_run(result) + field_char("end")


def word_children(data: bytes) -> list[tuple[str, str]]:
    """(name, text) of each child of the first paragraph of a Word file's body."""
    paragraph = etree.fromstring(read_members(data)["word/document.xml"]).find(f".//{{{W}}}p")
    return [(etree.QName(child).localname, "".join(t.text or "" for t in child.iter(f"{{{W}}}t")))
            for child in paragraph]


def paragraph_texts(data: bytes) -> list[str]:
    """The text of each paragraph of a Word file's body."""
    body = etree.fromstring(read_members(data)["word/document.xml"])
    return ["".join(t.text or "" for t in p.iter(f"{{{W}}}t")) for p in body.iter(f"{{{W}}}p")]


def run_texts(data: bytes) -> list[str]:
    """The text of each run of a Word file's first paragraph."""
    return [run.text for run in docx.Document(io.BytesIO(data)).paragraphs[0].runs]


def sheet_values(data: bytes) -> list[list[object]]:
    """The value of each cell of a workbook's active sheet, row by row."""
    return [[cell.value for cell in row] for row in openpyxl.load_workbook(io.BytesIO(data)).active.iter_rows()]


def word_file() -> bytes:
    """A Word file: a bold word, a coloured run, a hyperlink, a tab, a table, a header and a footer
    with a page-number field."""
    document = docx.Document()
    first = document.add_paragraph("A dog runs on the ")
    first.add_run("green").bold = True
    first.add_run(" grass.")
    second = document.add_paragraph("Two men ")
    second.add_run("are talking").font.color.rgb = RGBColor(0xFF, 0, 0)
    second.add_run(" here\tnow.")
    third = document.add_paragraph("Read the ")
    add_hyperlink(third, "guide", "https://example.org/guide")
    third.add_run(" first.")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "A cat sleeps."
    table.cell(0, 1).text = "42"
    section = document.sections[0]
    section.header.paragraphs[0].text = "The header text."
    footer = section.footer.paragraphs[0]
    footer.text = "Page "
    field = footer._p.makeelement(qn("w:fldSimple"), {qn("w:instr"): "PAGE"})
    footer._p.append(field)
    return docx_bytes(document)


def split_runs_file() -> bytes:
    """One sentence Word split into three runs of the same formatting, with a spelling mark between."""
    document = docx.Document()
    paragraph = document.add_paragraph()
    for text in ("The do", "g runs ", "fast."):
        paragraph.add_run(text).italic = True
    paragraph._p.insert(2, paragraph._p.makeelement(qn("w:proofErr"), {qn("w:type"): "spellStart"}))
    return docx_bytes(document)


def slides_file() -> bytes:
    """A slide with a title, a text box whose second word is bold, and speaker notes."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "The boy laughs."
    box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(1)).text_frame.paragraphs[0]
    for text, bold in (("A ", False), ("red", True), (" car stops.", False)):
        run = box.add_run()
        run.text, run.font.bold = text, bold
    slide.notes_slide.notes_text_frame.text = "Say hello to the people."
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def sheet_file() -> bytes:
    """Text cells (inline strings, as openpyxl writes them), a number, a date and a formula."""
    import datetime

    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["A2"], sheet["B1"] = "A dog runs.", "The cat sleeps.", 3.5
    sheet["B2"], sheet["C1"] = datetime.date(2024, 5, 1), '=CONCAT("a ","dog")'
    return docx_bytes(book)


SHARED_STRINGS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">'
                  '<si><r><t xml:space="preserve">A </t></r><r><rPr><b/></rPr><t>red</t></r>'
                  '<r><t xml:space="preserve"> car stops.</t></r></si></sst>')


def shared_string_sheet(sheet_bytes: bytes, strings: str = SHARED_STRINGS, cell: str = "A2") -> bytes:
    """The sheet file with ``cell`` (whatever it held) the first shared string of ``strings`` (by default
    three runs, the middle one bold; openpyxl writes inline strings only, Excel and LibreOffice shared ones)."""
    members = read_members(sheet_bytes)
    sheet = members["xl/worksheets/sheet1.xml"].decode()
    start = sheet.index(f'<c r="{cell}"')
    end = sheet.index("</c>", start) + len("</c>")
    members["xl/worksheets/sheet1.xml"] = (sheet[:start] + f'<c r="{cell}" t="s"><v>0</v></c>' + sheet[end:]).encode()
    members["xl/sharedStrings.xml"] = strings.encode()
    types = members["[Content_Types].xml"].decode()
    members["[Content_Types].xml"] = types.replace("</Types>", '<Override PartName="/xl/sharedStrings.xml" '
                                                   'ContentType="application/vnd.openxmlformats-officedocument.'
                                                   'spreadsheetml.sharedStrings+xml"/></Types>').encode()
    rels = members["xl/_rels/workbook.xml.rels"].decode()
    members["xl/_rels/workbook.xml.rels"] = rels.replace("</Relationships>", '<Relationship Id="rIdS" Type="http://'
                                                         'schemas.openxmlformats.org/officeDocument/2006/relationships/'
                                                         'sharedStrings" Target="sharedStrings.xml"/></Relationships>'
                                                         ).encode()
    return write_members(members)


def text_file() -> bytes:
    """An OpenDocument text: a heading, a paragraph with a bold span, a table of a word and a number."""
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P, Span

    document = OpenDocumentText()
    bold = Style(name="Bold", family="text")
    bold.addElement(TextProperties(fontweight="bold", language="en", country="US"))
    document.automaticstyles.addElement(bold)
    document.text.addElement(H(outlinelevel=1, text="The title here."))
    paragraph = P(text="A dog runs on the ")
    paragraph.addElement(Span(stylename=bold, text="green"))
    paragraph.addText(" grass.")
    document.text.addElement(paragraph)
    table = Table(name="T")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    row = TableRow()
    for value in ("A cat sleeps.", 7):
        cell = TableCell(valuetype="string") if isinstance(value, str) else TableCell(valuetype="float", value=value)
        cell.addElement(P(text=str(value)))
        row.addElement(cell)
    table.addElement(row)
    document.text.addElement(table)
    return odf_bytes(document)


def framed_text_file(desc: str, title: str | None = None) -> bytes:
    """text_file with a frame in its heading, named Image1, whose alt text is ``title`` (if any) and ``desc``: the
    svg:title and svg:desc LibreOffice writes."""
    members = read_members(text_file())
    content = etree.fromstring(members["content.xml"])
    heading = content.find(".//{urn:oasis:names:tc:opendocument:xmlns:text:1.0}h")
    frame = etree.SubElement(heading, f"{{{DRAW}}}frame", {f"{{{DRAW}}}name": "Image1"})
    if title is not None:
        etree.SubElement(frame, f"{{{SVG}}}title").text = title
    etree.SubElement(frame, f"{{{SVG}}}desc").text = desc
    members["content.xml"] = etree.tostring(content, xml_declaration=True, encoding="UTF-8")
    return write_members(members)


def embedded_sheet_file() -> bytes:
    """An OpenDocument text holding a spreadsheet as an object (``Object 1/``, Insert > Object > OLE Object, as
    odfpy's addObject writes it): a paragraph, then the object's sheet of a word and a number."""
    from odf.draw import Frame, Object
    from odf.opendocument import OpenDocumentSpreadsheet, OpenDocumentText
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document, sheet = OpenDocumentText(), OpenDocumentSpreadsheet()
    document.text.addElement(P(text="The table below shows the prices."))
    table, row = Table(name="Prices"), TableRow()
    for cell, text in ((TableCell(valuetype="string"), "Green apples"), (TableCell(valuetype="float", value=3), "3")):
        cell.addElement(P(text=text))
        row.addElement(cell)
    table.addElement(row)
    sheet.spreadsheet.addElement(table)
    frame = Frame(width="6cm", height="2cm", anchortype="as-char")
    frame.addElement(Object(href=document.addObject(sheet)))
    holder = P()
    holder.addElement(frame)
    document.text.addElement(holder)
    return odf_bytes(document)


def presentation_file() -> bytes:
    """An OpenDocument presentation: one slide with a text frame."""
    from odf.draw import Frame, Page, TextBox
    from odf.opendocument import OpenDocumentPresentation
    from odf.style import MasterPage, PageLayout
    from odf.text import P

    document = OpenDocumentPresentation()
    layout = PageLayout(name="L")
    document.automaticstyles.addElement(layout)
    master = MasterPage(name="M", pagelayoutname=layout)
    document.masterstyles.addElement(master)
    page = Page(masterpagename=master)
    frame = Frame(width="20cm", height="3cm", x="1cm", y="1cm")
    box = TextBox()
    box.addElement(P(text="The boy laughs."))
    frame.addElement(box)
    page.addElement(frame)
    document.presentation.addElement(page)
    return odf_bytes(document)


def master_page_file(suffix: str) -> bytes:
    """An OpenDocument presentation (``suffix`` .odp) whose master page holds a title placeholder
    with LibreOffice's prompt, or a text (.odt) whose master page has a header; one paragraph of
    the document's own on a slide or in the body."""
    from odf.draw import Frame, Page, TextBox
    from odf.namespaces import PRESENTATIONNS
    from odf.opendocument import OpenDocumentPresentation, OpenDocumentText
    from odf.style import Header, MasterPage, PageLayout
    from odf.text import P

    document = OpenDocumentPresentation() if suffix == ".odp" else OpenDocumentText()
    layout = PageLayout(name="L")
    document.automaticstyles.addElement(layout)
    master = MasterPage(name="M", pagelayoutname=layout)
    document.masterstyles.addElement(master)
    if suffix == ".odp":
        frame, box = Frame(width="20cm", height="3cm", x="1cm", y="1cm"), TextBox()
        frame.setAttrNS(PRESENTATIONNS, "class", "title")  # odfpy has no keyword for it
        box.addElement(P(text="Click to edit the title text format"))
        frame.addElement(box)
        master.addElement(frame)
        page, frame, box = Page(masterpagename=master), Frame(width="20cm", height="3cm", x="1cm", y="1cm"), TextBox()
        box.addElement(P(text="The boy laughs."))
        frame.addElement(box)
        page.addElement(frame)
        document.presentation.addElement(page)
    else:
        header = Header()
        header.addElement(P(text="The header text."))
        master.addElement(header)
        document.text.addElement(P(text="A dog runs."))
    return odf_bytes(document)


def calc_file() -> bytes:
    """An OpenDocument spreadsheet: a text cell, a number and a date."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="S")
    row = TableRow()
    for kind, shown, value in (("string", "A dog runs.", None), ("float", "12", "12"),
                               ("date", "May first", "2024-05-01")):
        attributes = {"valuetype": kind}
        if kind == "float":
            attributes["value"] = value
        elif kind == "date":
            attributes["datevalue"] = value
        cell = TableCell(**attributes)
        cell.addElement(P(text=shown))
        row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    return odf_bytes(document)


def odf_bytes(document) -> bytes:
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def ods_of_cells(cells) -> bytes:
    """An .ods of one string cell a row, each a paragraph a line of ``cells``' (as LibreOffice writes a cell's
    lines)."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="Sheet1")
    for lines in cells:
        row, cell = TableRow(), TableCell(valuetype="string")
        for line in lines:
            cell.addElement(P(text=line))
        row.addElement(cell)
        table.addElement(row)
    document.spreadsheet.addElement(table)
    return odf_bytes(document)


def odt_span(before: str, inside: str, after: str, **properties: str) -> bytes:
    """An .odt of one paragraph: ``inside`` in a span whose automatic text style has ``properties``
    (odfpy's TextProperties: ``color="#ff0000"``, ``textposition="super 58%"``) between plain
    ``before`` and ``after``."""
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties
    from odf.text import P, Span

    document = OpenDocumentText()
    style = Style(name="T1", family="text")
    style.addElement(TextProperties(**properties))
    document.automaticstyles.addElement(style)
    paragraph = P(text=before)
    paragraph.addElement(Span(stylename=style, text=inside))
    paragraph.addText(after)
    document.text.addElement(paragraph)
    return odf_bytes(document)


def book_file() -> bytes:
    """An EPUB book: one chapter with a bold word, an EPUB 3 navigation page and toc.ncx."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("id-1")
    book.set_title("A book")
    book.set_language("en")
    chapter = epub.EpubHtml(title="The first chapter", file_name="one.xhtml", lang="en")
    chapter.content = "<h1>The first chapter</h1><p>A dog runs on the <b>green</b> grass.</p>"
    return written_book(book, chapter, [epub.Link("one.xhtml", "The first chapter", "one")])


def written_book(book, chapter, toc: list | None = None) -> bytes:
    """``book`` (an ebooklib EpubBook) with its one ``chapter``, ``toc`` (ebooklib Links) where given, toc.ncx and
    the navigation page, as ebooklib writes it."""
    from ebooklib import epub

    book.add_item(chapter)
    if toc is not None:
        book.toc = toc
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", chapter]
    out = io.BytesIO()
    epub.write_epub(out, book)
    return out.getvalue()


EPUB2_PAGE = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>One</title></head>
<body><p>A dog runs on the grass.</p></body></html>
"""


def epub2_file() -> bytes:
    """An EPUB 2 book, as older tools write them: XHTML 1.1 pages (no ``lang`` attribute there), one
    of them in a file whose name has a space, linked from the manifest as an IRI (``%20``)."""
    container = ('<?xml version="1.0"?>'
                 '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
                 '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
                 "</rootfiles></container>")
    package = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="i">'
               '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="i">x</dc:identifier>'
               "<dc:language>en</dc:language></metadata><manifest>"
               '<item id="a" href="Text/chapter%201.xhtml" media-type="application/xhtml+xml"/></manifest>'
               '<spine><itemref idref="a"/></spine></package>')
    return write_members({"mimetype": b"application/epub+zip", "META-INF/container.xml": container.encode(),
                          "OEBPS/content.opf": package.encode(), "OEBPS/Text/chapter 1.xhtml": EPUB2_PAGE.encode()})


def svg_page_book(picture: bytes) -> bytes:
    """epub2_file with ``picture`` as its member OEBPS/Text/pic.svg, which its spine lists as a page after the
    chapter (EPUB 3's SVG content document: a comic's page)."""
    members = read_members(epub2_file())
    members["OEBPS/content.opf"] = members["OEBPS/content.opf"].replace(
        b"</manifest>", b'<item id="s" href="Text/pic.svg" media-type="image/svg+xml"/></manifest>').replace(
        b"</spine>", b'<itemref idref="s"/></spine>')
    members["OEBPS/Text/pic.svg"] = picture
    return write_members(members)


def chart_slides_file() -> bytes:
    """A slide with a column chart titled "The number of dogs." (two categories, one series)."""
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    data = CategoryChartData()
    data.categories = ["East", "West"]
    data.add_series("Dogs", (3.0, 5.0))
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1), Inches(6), Inches(4),
                                   data).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "The number of dogs."
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


DIAGRAM_DATA = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                '<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
                'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>'
                '<dgm:pt modelId="{1}" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr '
                'lang="en-US"/></a:p></dgm:t></dgm:pt>'
                '<dgm:pt modelId="{2}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/>'
                '<a:t>The girl sings.</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst><dgm:cxnLst/></dgm:dataModel>')


def smartart_slides_file() -> bytes:
    """The slides file with a SmartArt data part holding one node, "The girl sings." (the part
    alone, as its content type names it: python-pptx cannot make SmartArt)."""
    members = read_members(slides_file())
    members["ppt/diagrams/data1.xml"] = DIAGRAM_DATA.encode()
    types = members["[Content_Types].xml"].decode()
    members["[Content_Types].xml"] = types.replace("</Types>", '<Override PartName="/ppt/diagrams/data1.xml" '
                                                   'ContentType="application/vnd.openxmlformats-officedocument.'
                                                   'drawingml.diagramData+xml"/></Types>').encode()
    return write_members(members)


def commented_sheet_file() -> bytes:
    """The sheet file with a comment on A1: "Check the red car." by Ann."""
    from openpyxl.comments import Comment

    book = openpyxl.load_workbook(io.BytesIO(sheet_file()))
    book.active["A1"].comment = Comment("Check the red car.", "Ann")
    return docx_bytes(book)


def content_control_file() -> bytes:
    """A Word paragraph "Send it to the red car today." whose "red car" sits in a content control
    (w:sdt, a plain-text control with an alias), as Word's forms and templates hold them."""
    document = docx.Document()
    paragraph = document.add_paragraph("Send it to the ")
    sdt = paragraph._p.makeelement(qn("w:sdt"), {})
    properties = sdt.makeelement(qn("w:sdtPr"), {})
    properties.append(properties.makeelement(qn("w:alias"), {qn("w:val"): "Target"}))
    properties.append(properties.makeelement(qn("w:text"), {}))
    content = sdt.makeelement(qn("w:sdtContent"), {})
    run = paragraph.add_run("red car")
    content.append(run._r)
    sdt.extend([properties, content])
    paragraph._p.append(sdt)
    paragraph.add_run(" today.")
    return docx_bytes(document)


def read_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def write_members(members: dict[str, bytes], stored: tuple[str, ...] = ("mimetype",)) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)
    return out.getvalue()


CHUNK_PAGE = b"<html><body><p>A woman is reading a book.</p></body></html>"  # an imported HTML chunk's


def chunked_word_file(chunk: bytes, content_type: str, name: str = "chunk.htm", in_header: bool = False) -> bytes:
    """A Word file "A man is walking." importing ``chunk`` (w:altChunk, Word shows it inline), a
    part /word/``name`` of ``content_type``: after the body's paragraph, or in its header."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    document = docx.Document()
    document.add_paragraph("A man is walking.")
    holder = document.sections[0].header if in_header else document
    part = Part(PackURI(f"/word/{name}"), content_type, chunk, document.part.package)
    imported = holder.part.relate_to(part, RELATIONSHIP_TYPE.A_F_CHUNK)
    element = holder._element.body if holder is document else holder._element
    element.insert(len(element) - (holder is document), element.makeelement(qn("w:altChunk"), {qn("r:id"): imported}))
    return docx_bytes(document)


def libreoffice_csv(data: bytes, suffix: str, tmp_path) -> list[str]:
    """The spreadsheet ``data`` (a file of ``suffix``: .xlsx, .ods, .fods) as LibreOffice shows its
    first sheet, converted to CSV: its lines."""
    (tmp_path / f"calc{suffix}").write_bytes(data)
    profile = (tmp_path / "profile").as_uri()  # a profile of its own: never the user's, never shared
    run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "csv",
                          "--outdir", str(tmp_path / "csv"), f"calc{suffix}"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return (tmp_path / "csv" / "calc.csv").read_text(encoding="utf-8").splitlines()


def libreoffice_saved(data: bytes, suffix: str, to: str, tmp_path) -> bytes:
    """``data`` (a file of ``suffix``) as LibreOffice saves it in the format ``to`` (docx, odt, pptx, xlsx, odp,
    ods)."""
    tmp_path.mkdir()
    (tmp_path / f"in{suffix}").write_bytes(data)
    profile = (tmp_path / "profile").as_uri()  # a profile of its own: never the user's, never shared
    run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", to,
                          "--outdir", str(tmp_path / to), f"in{suffix}"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return (tmp_path / to / f"in.{to}").read_bytes()
