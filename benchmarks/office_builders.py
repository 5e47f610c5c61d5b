"""The files of benchmarks/office.py, built and read back with their own libraries (python-docx,
python-pptx, openpyxl, odfpy): BUILDERS[format](items) -> bytes, and READERS[format](bytes) ->
each paragraph's text and formatted pieces ({"bold": [...], "italic": [...], "link": [...]}),
in the order the builder placed the items."""

from __future__ import annotations

import io

SLIDE_ITEMS = 6  # sentences in a slide's text box; one more goes in its speaker notes


def docx_file(items) -> bytes:
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml.ns import qn

    document = docx.Document()

    def fill(paragraph, item) -> None:
        paragraph.add_run(item.before)
        if item.kind == "link":
            r_id = paragraph.part.relate_to("https://example.org/", RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
            link = paragraph._p.makeelement(qn("w:hyperlink"), {qn("r:id"): r_id})
            run = paragraph.add_run(item.anchor, style=None)
            link.append(run._r)
            paragraph._p.append(link)
        else:
            run = paragraph.add_run(item.anchor)
            run.bold, run.italic = item.kind == "bold", item.kind == "italic"
        paragraph.add_run(item.after)

    section = document.sections[0]
    fill(section.header.paragraphs[0], items[0])
    fill(section.footer.paragraphs[0], items[1])
    table = document.add_table(rows=4, cols=2)
    for cell, item in zip(table._cells, items[2:10], strict=True):
        fill(cell.paragraphs[0], item)
    for item in items[10:]:
        fill(document.add_paragraph(), item)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def docx_read(data: bytes):
    import docx

    document = docx.Document(io.BytesIO(data))
    section = document.sections[0]
    paragraphs = [*section.header.paragraphs, *section.footer.paragraphs,
                  *(p for cell in document.tables[0]._cells for p in cell.paragraphs), *document.paragraphs]
    return [(p.text, {"bold": [r.text for r in p.runs if r.bold], "italic": [r.text for r in p.runs if r.italic],
                      "link": [h.text for h in p.hyperlinks]}) for p in paragraphs if p.text.strip()]


def pptx_file(items) -> bytes:
    import pptx
    from pptx.util import Inches

    deck = pptx.Presentation()
    for first in range(0, len(items), SLIDE_ITEMS + 1):
        chunk = items[first:first + SLIDE_ITEMS + 1]
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        frame = slide.shapes.add_textbox(Inches(0.5), Inches(0.5), Inches(9), Inches(6)).text_frame
        frame.word_wrap = True
        for k, item in enumerate(chunk[:SLIDE_ITEMS]):
            pptx_paragraph(frame.paragraphs[0] if k == 0 else frame.add_paragraph(), item)
        if len(chunk) > SLIDE_ITEMS:
            pptx_paragraph(slide.notes_slide.notes_text_frame.paragraphs[0], chunk[SLIDE_ITEMS])
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def pptx_paragraph(paragraph, item) -> None:
    for text, kind in ((item.before, None), (item.anchor, item.kind), (item.after, None)):
        run = paragraph.add_run()
        run.text = text
        if kind == "bold":
            run.font.bold = True
        elif kind == "italic":
            run.font.italic = True
        elif kind == "link":
            run.hyperlink.address = "https://example.org/"


def pptx_read(data: bytes):
    import pptx

    found = []
    for slide in pptx.Presentation(io.BytesIO(data)).slides:
        paragraphs = [p for shape in slide.shapes if shape.has_text_frame for p in shape.text_frame.paragraphs]
        if slide.has_notes_slide:
            paragraphs += slide.notes_slide.notes_text_frame.paragraphs
        for p in paragraphs:
            runs = p.runs
            found.append(("".join(r.text for r in runs), {
                "bold": [r.text for r in runs if r.font.bold], "italic": [r.text for r in runs if r.font.italic],
                "link": [r.text for r in runs if r.hyperlink.address]}))
    return [(text, pieces) for text, pieces in found if text.strip()]


def xlsx_file(items) -> bytes:
    import openpyxl
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    book = openpyxl.Workbook()
    sheet = book.active
    for row, item in enumerate(items, start=1):
        font = InlineFont(i=True) if item.kind == "italic" else InlineFont(b=True)
        sheet.cell(row=row, column=1).value = CellRichText([item.before, TextBlock(font, item.anchor), item.after])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_read(data: bytes):
    import openpyxl

    sheet = openpyxl.load_workbook(io.BytesIO(data), rich_text=True).active
    found = []
    for (cell,) in sheet.iter_rows(min_col=1, max_col=1):
        value = cell.value
        blocks = [value] if isinstance(value, str) else list(value or [])
        styled = [b for b in blocks if not isinstance(b, str)]
        found.append(("".join(str(b) if isinstance(b, str) else b.text for b in blocks), {
            "bold": [b.text for b in styled if b.font.b], "italic": [b.text for b in styled if b.font.i]}))
    return found


def odt_file(items) -> bytes:
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import A, P, Span

    document = OpenDocumentText()
    styles = {}
    for kind, properties in (("bold", {"fontweight": "bold"}), ("italic", {"fontstyle": "italic"})):
        styles[kind] = Style(name=kind, family="text")
        styles[kind].addElement(TextProperties(**properties))
        document.automaticstyles.addElement(styles[kind])

    def paragraph(item) -> P:
        p = P(text=item.before)
        if item.kind == "link":
            p.addElement(A(href="https://example.org/", type="simple", text=item.anchor))
        else:
            p.addElement(Span(stylename=styles[item.kind], text=item.anchor))
        p.addText(item.after)
        return p

    table = Table(name="T")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    for first in range(0, 8, 2):
        row = TableRow()
        for item in items[first:first + 2]:
            cell = TableCell(valuetype="string")
            cell.addElement(paragraph(item))
            row.addElement(cell)
        table.addElement(row)
    document.text.addElement(table)
    for item in items[8:]:
        document.text.addElement(paragraph(item))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def odt_read(data: bytes):
    from odf import teletype
    from odf.opendocument import load
    from odf.text import P

    document = load(io.BytesIO(data))
    kinds = {}
    for style in document.automaticstyles.childNodes:
        name = style.getAttribute("name") if style.qname[1] == "style" else None
        for properties in style.childNodes:
            if properties.qname[1] == "text-properties":
                if properties.getAttribute("fontweight") == "bold":
                    kinds[name] = "bold"
                elif properties.getAttribute("fontstyle") == "italic":
                    kinds[name] = "italic"
    found = []
    for p in document.getElementsByType(P):
        pieces: dict[str, list[str]] = {"bold": [], "italic": [], "link": []}
        for node in p.childNodes:
            if node.nodeType != node.ELEMENT_NODE:
                continue
            if node.qname[1] == "a":
                pieces["link"].append(teletype.extractText(node))
            elif node.qname[1] == "span" and kinds.get(node.getAttribute("stylename")):
                pieces[kinds[node.getAttribute("stylename")]].append(teletype.extractText(node))
        text = teletype.extractText(p)
        if text.strip():
            found.append((text, pieces))
    return found


BUILDERS = {"docx": docx_file, "pptx": pptx_file, "xlsx": xlsx_file, "odt": odt_file}
READERS = {"docx": docx_read, "pptx": pptx_read, "xlsx": xlsx_read, "odt": odt_read}
