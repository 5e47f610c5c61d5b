"""PowerPoint, Excel, OpenDocument and EPUB files translated (attnmt.documents.office), each read
back with its own library (python-pptx, openpyxl, odfpy, ebooklib).  Mirror: words upper-cased
in reverse order, each aligned to its source word."""

import datetime
import io
import zipfile

import openpyxl
import pptx
import pytest
from lxml import etree
from office_files import (
    EPUB2_PAGE,
    book_file,
    calc_file,
    epub2_file,
    odf_bytes,
    presentation_file,
    read_members,
    shared_string_sheet,
    sheet_file,
    slides_file,
    text_file,
    write_members,
)
from pptx.util import Pt

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def translate(data: bytes, suffix: str, translator, **options) -> bytes:
    return translate_office(data, suffix, translator, DocumentOptions(**options))


def test_slides_and_speaker_notes_are_translated_with_their_bold_word(mirror):
    deck = pptx.Presentation(io.BytesIO(translate(slides_file(), ".pptx", mirror)))
    slide = deck.slides[0]
    title, box = slide.shapes
    assert title.text_frame.text == "LAUGHS. BOY THE"
    assert [(r.text, r.font.bold) for r in box.text_frame.paragraphs[0].runs] == [
        ("STOPS. CAR ", False), ("RED", True), (" A", False)]
    assert slide.notes_slide.notes_text_frame.text == "PEOPLE. THE TO HELLO SAY"


PHOTOS, WEB = "https://example.org/photos", "https://example.org/web"


def linked_slide_file(runs=(("See ", None), ("the photo gallery", PHOTOS), (" online.", None))) -> bytes:
    """A slide with a text box of one paragraph of ``runs`` (text, the link's address or None), 24 pt:
    by default "See the photo gallery online.", its link over most of the words."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    box = slide.shapes.add_textbox(0, 0, 100, 100).text_frame.paragraphs[0]
    for text, url in runs:
        run = box.add_run()
        run.text, run.hyperlink.address, run.font.size = text, url, Pt(24)
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def slide_runs(data: bytes) -> list[tuple[str, str | None]]:
    paragraph = pptx.Presentation(io.BytesIO(data)).slides[0].shapes[0].text_frame.paragraphs[0]
    assert {run.font.size.pt for run in paragraph.runs} == {24}
    return [(run.text, run.hyperlink.address) for run in paragraph.runs]


def test_a_slide_link_over_most_of_a_paragraph_stays_on_its_words(fixed):
    """The link is in its run's formatting: were it the paragraph's base, the plain words around it
    would be the marks, and the link would go to every word the model wrote outside them ("Bitte",
    aligned to no source word, here)."""
    translator = fixed("Bitte siehe die Fotogalerie online.", [(0, 1), (1, 2), (2, 3), (3, 3), (4, 4)])
    assert slide_runs(translate(linked_slide_file(), ".pptx", translator)) == [
        ("Bitte siehe ", None), ("die Fotogalerie", PHOTOS), (" online.", None)]


def test_a_word_outside_every_link_of_an_all_linked_paragraph_is_plain_with_their_look(fixed):
    """Where every run is a link, the base is the longest one's look without its link: a word the
    model wrote aligned to none ("bitte") goes to no link, and keeps the links' size."""
    data = linked_slide_file((("the photo gallery", PHOTOS), (" online.", WEB)))
    translator = fixed("die Fotogalerie online bitte", [(0, 0), (1, 1), (2, 1), (3, 2)])
    assert slide_runs(translate(data, ".pptx", translator)) == [
        ("die Fotogalerie", PHOTOS), (" online", WEB), (" bitte", None)]


def test_a_slide_run_language_becomes_the_target_language(mirror):
    members = read_members(slides_file())
    slide = members["ppt/slides/slide1.xml"].replace(b"<a:rPr ", b'<a:rPr lang="en-US" ', 1)
    members["ppt/slides/slide1.xml"] = slide
    out = read_members(translate(write_members(members), ".pptx", mirror, target_lang="de"))["ppt/slides/slide1.xml"]
    assert b'lang="de"' in out and b'lang="en-US"' not in out


def test_a_slide_run_that_names_no_language_keeps_it(mirror):
    """A run that says ``lang="zxx"`` (no language: code, not checked for spelling) came out "de"."""
    members = read_members(slides_file())
    members["ppt/slides/slide1.xml"] = members["ppt/slides/slide1.xml"].replace(b"<a:rPr ", b'<a:rPr lang="zxx" ', 1)
    out = read_members(translate(write_members(members), ".pptx", mirror, target_lang="de"))["ppt/slides/slide1.xml"]
    assert out.count(b'lang="zxx"') == 1 and b'lang="de"' in out


@pytest.mark.parametrize("make", [slides_file, lambda: linked_slide_file((("the photos", PHOTOS), (" here.", WEB)))],
                         ids=["plain", "every-run-linked"])
def test_every_translated_slide_run_states_the_target_language(mirror, make):
    """python-pptx writes runs with no ``lang`` (a title's with no properties at all): they kept
    the master's language (en-US), where Word's take the target's from its styles."""
    out = read_members(translate(make(), ".pptx", mirror, target_lang="de"))
    runs = [run for member, data in out.items() if member.startswith(("ppt/slides/", "ppt/notesSlides/"))
            and member.endswith(".xml") for run in etree.fromstring(data).iter(f"{A}r")]
    assert len(runs) >= 2 and [run.find(f"{A}rPr").get("lang") for run in runs] == ["de"] * len(runs)


def test_strings_are_translated_and_numbers_dates_and_formulas_kept(mirror):
    book = openpyxl.load_workbook(io.BytesIO(translate(shared_string_sheet(sheet_file()), ".xlsx", mirror)),
                                  rich_text=True)
    sheet = book.active
    assert sheet["A1"].value == "RUNS. DOG A"  # an inline string
    rich = sheet["A2"].value  # a shared string of three runs, the middle one bold
    assert [(str(block.text), block.font.b) if hasattr(block, "font") else (block, None) for block in rich] == [
        ("STOPS. CAR ", None), ("RED", True), (" A", None)]
    assert (sheet["B1"].value, sheet["B2"].value) == (3.5, datetime.datetime(2024, 5, 1))
    assert sheet["C1"].value == '=CONCAT("a ","dog")'


def odf_paragraphs(data: bytes) -> list[str]:
    from odf import teletype, text
    from odf.opendocument import load

    document = load(io.BytesIO(data))
    return [teletype.extractText(p) for kind in (text.H, text.P) for p in document.getElementsByType(kind)]


def test_an_opendocument_text_keeps_its_span_and_leaves_numbers(mirror):
    out = translate(text_file(), ".odt", mirror, target_lang="de-DE")
    assert odf_paragraphs(out) == ["HERE. TITLE THE", "GRASS. GREEN THE ON RUNS DOG A", "SLEEPS. CAT A", "7"]
    content = etree.fromstring(read_members(out)["content.xml"])
    spans = content.findall(".//{urn:oasis:names:tc:opendocument:xmlns:text:1.0}span")
    assert [(span.text, span.get("{urn:oasis:names:tc:opendocument:xmlns:text:1.0}style-name")) for span in spans] == [
        ("GREEN", "Bold")]
    properties = content.find(".//{urn:oasis:names:tc:opendocument:xmlns:style:1.0}text-properties")
    fo = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
    assert (properties.get(fo + "language"), properties.get(fo + "country")) == ("de", "DE")


def test_a_soft_hyphen_in_opendocument_text_is_dropped_before_translation(same):
    members = read_members(text_file())
    members["content.xml"] = members["content.xml"].replace(b"The title here.", "The ti\u00adtle here.".encode())
    out = translate(write_members(members), ".odt", same)
    assert same.given[0] == "The title here."  # U+00AD would reach the model as a piece it does not know
    assert odf_paragraphs(out)[0] == "The title here."


def test_an_opendocument_annotation_and_bookmark_keep_their_ends_after_their_starts(mirror):
    members = read_members(text_file())
    office, text = "urn:oasis:names:tc:opendocument:xmlns:office:1.0", "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    ranged = (f'<office:annotation xmlns:office="{office}" office:name="n1"><text:p xmlns:text="{text}">Check.'
              f'</text:p></office:annotation><text:bookmark-start xmlns:text="{text}" text:name="b1"/>')
    ends = (f'<text:bookmark-end xmlns:text="{text}" text:name="b1"/>'
            f'<office:annotation-end xmlns:office="{office}" office:name="n1"/>')
    content = members["content.xml"].decode().replace(">A dog runs on the <", f">A dog {ranged}runs on{ends} the <", 1)
    assert ranged in content
    members["content.xml"] = content.encode()
    out = etree.fromstring(read_members(translate(write_members(members), ".odt", mirror))["content.xml"])
    names = [etree.QName(e).localname for e in out.iter() if etree.QName(e).localname in (
        "annotation", "bookmark-start", "bookmark-end", "annotation-end")]
    assert names == ["annotation", "bookmark-start", "bookmark-end", "annotation-end"]


def test_an_opendocument_presentation_is_translated(mirror):
    assert odf_paragraphs(translate(presentation_file(), ".odp", mirror)) == ["LAUGHS. BOY THE"]


def test_a_spreadsheet_date_shown_in_words_is_not_translated(mirror):
    assert odf_paragraphs(translate(calc_file(), ".ods", mirror)) == ["RUNS. DOG A", "12", "May first"]


def test_a_translated_string_cell_loses_the_source_text_it_held_as_its_value(mirror):
    """odfpy (and pandas through it) writes ``office:string-value``; LibreOffice shows it, not the
    translated paragraph, so the cell still read "A dog runs."."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table, row = Table(name="S"), TableRow()
    for cell in (TableCell(valuetype="string", stringvalue="A dog runs."), TableCell(valuetype="float", value="12")):
        cell.addElement(P(text=cell.getAttribute("stringvalue") or "12"))
        row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    content = etree.fromstring(read_members(translate(odf_bytes(document), ".ods", mirror))["content.xml"])
    office = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
    text, number = content.iter("{urn:oasis:names:tc:opendocument:xmlns:table:1.0}table-cell")
    assert "".join(text.itertext()) == "RUNS. DOG A" and text.get(f"{office}string-value") is None
    assert text.get(f"{office}value-type") == "string" and number.get(f"{office}value") == "12"


def test_an_epub_book_its_pages_and_table_of_contents(mirror):
    from ebooklib import ITEM_DOCUMENT, epub

    out = translate(book_file(), ".epub", mirror, target_lang="de")
    path = io.BytesIO(out)
    book = epub.read_epub(path, {"ignore_ncx": False})
    chapter = next(item for item in book.get_items_of_type(ITEM_DOCUMENT) if item.file_name == "one.xhtml")
    page = etree.fromstring(chapter.content)  # as stored (get_content writes the page anew)
    xhtml = "{http://www.w3.org/1999/xhtml}"
    assert page.get("lang") == page.get("{http://www.w3.org/XML/1998/namespace}lang") == "de"
    paragraph = page.find(f"{xhtml}body/{xhtml}p")
    assert "".join(paragraph.itertext()) == "GRASS. GREEN THE ON RUNS DOG A"
    assert paragraph.find(f"{xhtml}b").text == "GREEN"
    assert [link.title for link in book.toc] == ["CHAPTER FIRST THE"]
    assert book.get_metadata("DC", "language")[0][0] == "de"
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        assert archive.infolist()[0].filename == "mimetype"


def test_an_epub2_page_named_with_a_space_is_translated_and_gets_xml_lang_only(mirror):
    out = read_members(translate(epub2_file(), ".epub", mirror, target_lang="de"))
    page = etree.fromstring(out["OEBPS/Text/chapter 1.xhtml"])
    assert "".join(page.itertext()).strip().endswith("GRASS. THE ON RUNS DOG A")
    assert page.get("{http://www.w3.org/XML/1998/namespace}lang") == "de" and page.get("lang") is None
    assert b"<!DOCTYPE html PUBLIC" in out["OEBPS/Text/chapter 1.xhtml"]


def test_an_epub2_pages_entities_are_read_as_characters_and_kept_as_written(same):
    page = EPUB2_PAGE.replace("A dog runs on the grass.", "A cat&mdash;the black one&mdash;sleeps.")
    members = read_members(epub2_file())
    members["OEBPS/Text/chapter 1.xhtml"] = page.encode()
    out = read_members(translate(write_members(members), ".epub", same))
    assert same.given == ["One", "A cat—the black one—sleeps."]
    written = out["OEBPS/Text/chapter 1.xhtml"].decode()
    assert written.endswith("<p>A cat&mdash;the black one&mdash;sleeps.</p></body></html>")


def test_only_the_contents_entries_and_title_of_toc_ncx_are_translated(mirror):
    """Its docAuthor "Jane Park" became a translation; its pageList's "xii" is a page number.  Its
    docTitle is translated as the package's dc:title is."""
    members = read_members(book_file())
    ncx = members["EPUB/toc.ncx"].decode().replace(
        "</docTitle>", "</docTitle><docAuthor><text>Jane Park</text></docAuthor>").replace(
        "</navMap>", '</navMap><pageList><pageTarget id="p" type="front" value="12"><navLabel><text>xii</text>'
        '</navLabel><content src="one.xhtml#p"/></pageTarget></pageList>'
        '<navList><navLabel><text>Pictures</text></navLabel></navList>')
    members["EPUB/toc.ncx"] = ncx.encode()
    out = read_members(translate(write_members(members), ".epub", mirror))["EPUB/toc.ncx"]
    texts = [text.text for text in etree.fromstring(out).iter("{http://www.daisy.org/z3986/2005/ncx/}text")]
    assert texts == ["BOOK A", "Jane Park", "CHAPTER FIRST THE", "xii", "PICTURES"]


def test_a_line_break_in_a_slide_parts_the_words_around_it(same):
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[5]).shapes.title
    box.text_frame.text = "Quarterly results\vfor the whole company"  # python-pptx writes \v as <a:br/>
    out = io.BytesIO()
    deck.save(out)
    translated = pptx.Presentation(io.BytesIO(translate(out.getvalue(), ".pptx", same)))
    assert same.given == ["Quarterly results for the whole company"]
    assert translated.slides[0].shapes.title.text_frame.text == "Quarterly results\vfor the whole company"


def test_a_run_whose_words_went_to_its_neighbour_leaves_no_empty_run(fixed):
    members = read_members(slides_file())
    slide = members["ppt/slides/slide1.xml"].decode()
    # The text box's runs become "A ", bold "red", " ", italic "car", " stops."
    slide = slide.replace("<a:t> car stops.</a:t>", '<a:t> </a:t></a:r><a:r><a:rPr i="1"/><a:t>car</a:t></a:r>'
                          '<a:r><a:rPr b="0"/><a:t> stops.</a:t>')
    members["ppt/slides/slide1.xml"] = slide.encode()
    # "red" and "car" both align to the one word "ROT": the bold run takes it, the italic one is left empty.
    translator = fixed("ROT", [(1, 0), (3, 0)])
    deck = pptx.Presentation(io.BytesIO(translate(write_members(members), ".pptx", translator)))
    runs = deck.slides[0].shapes[1].text_frame.paragraphs[0].runs
    assert [(run.text, run.font.bold) for run in runs] == [("ROT", True)]


def test_a_footnote_inside_an_opendocument_paragraph_is_translated_once_in_place(mirror):
    from odf.opendocument import OpenDocumentText
    from odf.text import Note, NoteBody, NoteCitation, P

    document = OpenDocumentText()
    paragraph = P(text="A dog runs")
    note = Note(id="n1", noteclass="footnote")
    note.addElement(NoteCitation(text="1"))
    body = NoteBody()
    body.addElement(P(text="The boy laughs."))
    note.addElement(body)
    paragraph.addElement(note)
    paragraph.addText(" fast.")
    document.text.addElement(paragraph)
    content = etree.fromstring(read_members(translate(odf_bytes(document), ".odt", mirror))["content.xml"])
    text = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
    outer = content.find(f".//{{urn:oasis:names:tc:opendocument:xmlns:office:1.0}}text/{text}p")
    notes = outer.findall(f"{text}note")
    assert len(notes) == 1 and notes[0].find(f"{text}note-body/{text}p").text == "LAUGHS. BOY THE"
    assert "".join([outer.text or ""] + [child.tail or "" for child in outer]).split() == ["FAST.", "RUNS", "DOG", "A"]


def test_the_lines_of_a_spreadsheet_cell_are_translated_apart_and_stay_lines(mirror):
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = "Street: a long road\nCity: a big town"
    out = io.BytesIO()
    workbook.save(out)
    translated = openpyxl.load_workbook(io.BytesIO(translate(out.getvalue(), ".xlsx", mirror)))
    assert mirror.given == ["Street: a long road", "City: a big town"]
    assert translated.active["A1"].value == "ROAD LONG A STREET:\nTOWN BIG A CITY:"


def test_a_tab_in_a_slide_parts_fields_that_are_translated_apart(same):
    deck = pptx.Presentation()
    box = deck.slides.add_slide(deck.slide_layouts[5]).shapes.title
    box.text_frame.text = "Welcome and introduction\t9:00"
    out = io.BytesIO()
    deck.save(out)
    translated = pptx.Presentation(io.BytesIO(translate(out.getvalue(), ".pptx", same)))
    assert same.given == ["Welcome and introduction"]  # "9:00" has no words: it stays as it is
    assert translated.slides[0].shapes.title.text_frame.text == "Welcome and introduction\t9:00"


def test_an_opendocument_tab_parts_fields_that_are_translated_apart(mirror):
    members = read_members(text_file())
    content = members["content.xml"].decode().replace(
        ">A dog runs on the <", '>Name:<text:tab/>A dog runs on the <', 1)
    assert "<text:tab/>" in content
    members["content.xml"] = content.encode()
    out = translate(write_members(members), ".odt", mirror)
    assert mirror.given[1:3] == ["Name:", "A dog runs on the green grass."]
    assert odf_paragraphs(out)[1] == "NAME:\tGRASS. GREEN THE ON RUNS DOG A"


def test_a_text_box_drawn_on_a_sheet_is_translated(mirror):
    members = read_members(sheet_file())
    drawing = ('<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" '
               'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><xdr:twoCellAnchor><xdr:sp>'
               "<xdr:txBody><a:bodyPr/><a:p><a:r><a:t>Enter the numbers here.</a:t></a:r></a:p></xdr:txBody>"
               "</xdr:sp></xdr:twoCellAnchor></xdr:wsDr>")
    members["xl/drawings/drawing1.xml"] = drawing.encode()
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(b"</Types>", (
        b'<Override PartName="/xl/drawings/drawing1.xml" '
        b'ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>'))
    out = read_members(translate(write_members(members), ".xlsx", mirror))
    assert b"<a:t>HERE. NUMBERS THE ENTER</a:t>" in out["xl/drawings/drawing1.xml"]


def table_file(formula: str | None = None) -> bytes:
    """A sheet with an Excel table over A1:B3: headers "Dog name" and "Cat name" (and a formula)."""
    from openpyxl.worksheet.table import Table

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in (("Dog name", "Cat name"), ("a big dog", "a small cat"), ("an old dog", "a young cat")):
        sheet.append(row)
    sheet.add_table(Table(displayName="Pets", ref="A1:B3"))
    if formula:
        sheet["D1"] = formula
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_a_tables_column_names_follow_its_translated_headers(mirror):
    """Excel holds each column's name equal to its header cell's text ("repairs" the file otherwise)."""
    out = translate(table_file(), ".xlsx", mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [cell.value for cell in sheet[1]] == ["NAME DOG", "NAME CAT"]
    assert sheet["A2"].value == "DOG BIG A"
    names = [c.get("name") for c in etree.fromstring(read_members(out)["xl/tables/table1.xml"]).iter(
        "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}tableColumn")]
    assert names == ["NAME DOG", "NAME CAT"]


def test_a_table_whose_columns_a_formula_names_keeps_its_headers_source_text(mirror):
    out = translate(table_file('=COUNTA(Pets[Dog name])'), ".xlsx", mirror)
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [cell.value for cell in sheet[1]][:2] == ["Dog name", "Cat name"]
    assert sheet["A2"].value == "DOG BIG A" and sheet["D1"].value == "=COUNTA(Pets[Dog name])"
    names = [c.get("name") for c in etree.fromstring(read_members(out)["xl/tables/table1.xml"]).iter(
        "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}tableColumn")]
    assert names == ["Dog name", "Cat name"]


@pytest.mark.parametrize("formula, header", [(None, "NAME DOG"), ("=COUNTA(Pets[Dog name])", "Dog name")],
                         ids=["renamed", "kept"])
def test_a_table_header_held_as_a_shared_string_follows_the_same_rules(mirror, formula, header):
    data = shared_string_sheet(table_file(formula), SHARED, cell="A1")
    assert b'<c r="A1" t="s">' in read_members(data)["xl/worksheets/sheet1.xml"]
    out = translate(data, ".xlsx", mirror)
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].value == header
    names = [c.get("name") for c in etree.fromstring(read_members(out)["xl/tables/table1.xml"]).iter(
        "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}tableColumn")]
    assert names[0] == header


SHARED = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">'
          "<si><t>Dog name</t></si></sst>")
