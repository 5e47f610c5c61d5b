"""A spreadsheet cell whose text is its ``office:string-value`` alone (odfpy's ``TableCell(stringvalue=…)``), read as
the same text in paragraphs is.  Mirror: words upper-cased in reverse order, each aligned to its source word."""

import io

import pytest
from flat_files import NAMESPACES, flat_file
from lxml import etree
from office_files import SOFFICE, libreoffice_csv, odf_bytes

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT, OFFICE, TABLE = NAMESPACES["text"], NAMESPACES["office"], NAMESPACES["table"]
WRAPPED = "A man in a red shirt\nis playing the guitar."
# What LibreOffice shows of the two cells: each the wrapped sentence's translation over the cell's two lines.
SHOWN = ['"GUITAR. THE PLAYING', 'IS SHIRT RED A IN MAN A","GUITAR. THE PLAYING', 'IS SHIRT RED A IN MAN A"']


def value_and_paragraphs_sheet() -> bytes:
    """An .ods of one row as odfpy writes it: WRAPPED as a cell's ``office:string-value`` alone, then as a cell's two
    paragraphs."""
    from odf import table, text
    from odf.opendocument import OpenDocumentSpreadsheet

    document = OpenDocumentSpreadsheet()
    sheet, row = table.Table(name="S"), table.TableRow()
    row.addElement(table.TableCell(valuetype="string", stringvalue=WRAPPED))
    lined = table.TableCell(valuetype="string")
    for line in WRAPPED.split("\n"):
        lined.addElement(text.P(text=line))
    row.addElement(lined)
    sheet.addElement(row)
    document.spreadsheet.addElement(sheet)
    return odf_bytes(document)


def flat_value_and_paragraphs_sheet() -> bytes:
    """The same row in a .fods."""
    value = WRAPPED.replace("\n", "&#10;")
    lines = "".join(f"<text:p>{line}</text:p>" for line in WRAPPED.split("\n"))
    return flat_file("spreadsheet", '<office:spreadsheet><table:table table:name="S"><table:table-row>'
                     f'<table:table-cell office:value-type="string" office:string-value="{value}"/>'
                     f'<table:table-cell office:value-type="string">{lines}</table:table-cell>'
                     '</table:table-row></table:table></office:spreadsheet>')


def written_cells(out: bytes, suffix: str) -> list[tuple[list[str], str | None]]:
    """Each cell's paragraphs' text and its ``office:string-value``, as odfpy reads the written file (a .fods
    parsed as it is: odfpy reads no flat file)."""
    if suffix == ".fods":
        root = etree.fromstring(out)
        return [(["".join(p.itertext()) for p in cell.iter(f"{{{TEXT}}}p")], cell.get(f"{{{OFFICE}}}string-value"))
                for cell in root.iter(f"{{{TABLE}}}table-cell")]
    from odf import table, text
    from odf.opendocument import load

    return [([str(p) for p in cell.getElementsByType(text.P)], cell.getAttribute("stringvalue"))
            for cell in load(io.BytesIO(out)).spreadsheet.getElementsByType(table.TableCell)]


@pytest.mark.parametrize("suffix, sheet", [(".ods", value_and_paragraphs_sheet),
                                           (".fods", flat_value_and_paragraphs_sheet)])
def test_a_string_values_sentence_wrapped_over_its_lines_is_read_whole_as_its_paragraphs_are(mirror, suffix, sheet):
    """A cell's ``office:string-value`` "A man in a red shirt" / "is playing the guitar." was given its paragraphs
    after a cell's wrapped lines were joined, and went to the model as two sentences ("SHIRT RED A IN MAN A",
    "GUITAR. THE PLAYING IS"), where the same lines in paragraphs are read as one.  Both read alike now; the
    value, which LibreOffice would show in place of the translation, is taken out of both."""
    out = translate_office(sheet(), suffix, mirror, DocumentOptions())
    assert [given for given in mirror.given if "guitar" in given or "shirt" in given] == [WRAPPED.replace("\n", " ")]
    assert written_cells(out, suffix) == [(["GUITAR. THE PLAYING", "IS SHIRT RED A IN MAN A"], None)] * 2


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.parametrize("suffix, sheet", [(".ods", value_and_paragraphs_sheet),
                                           (".fods", flat_value_and_paragraphs_sheet)])
def test_libreoffice_shows_a_string_values_wrapped_sentence_as_its_paragraphs_translation(mirror, suffix, sheet,
                                                                                           tmp_path):
    out = translate_office(sheet(), suffix, mirror, DocumentOptions())
    assert libreoffice_csv(out, suffix, tmp_path) == SHOWN



LISTED = "Fruit\n3 apples\npears"  # a list typed an item a line: three items of three words at most, no stop


def listed_sheets() -> tuple[bytes, bytes]:
    """LISTED in cell A1 and in its note, as openpyxl writes an .xlsx and odfpy an .ods (a paragraph a line, as
    LibreOffice writes a cell's and a note's lines)."""
    import openpyxl
    from odf import office, table, text
    from odf.opendocument import OpenDocumentSpreadsheet
    from openpyxl.comments import Comment

    book = openpyxl.Workbook()
    book.active["A1"] = LISTED
    book.active["A1"].comment = Comment(LISTED, "Ann")
    xlsx = io.BytesIO()
    book.save(xlsx)
    document = OpenDocumentSpreadsheet()
    sheet, row, cell = table.Table(name="S"), table.TableRow(), table.TableCell(valuetype="string")
    note = office.Annotation()
    for line in LISTED.split("\n"):
        note.addElement(text.P(text=line))
    cell.addElement(note)
    for line in LISTED.split("\n"):
        cell.addElement(text.P(text=line))
    row.addElement(cell)
    sheet.addElement(row)
    document.spreadsheet.addElement(sheet)
    return xlsx.getvalue(), odf_bytes(document)


def test_a_cells_and_notes_list_of_lines_is_read_as_the_same_xlsx_cells_and_notes(mirror):
    """An .ods cell's lines were joined two at a time, each pair going on in lower case read as one sentence: "3
    apples" / "pears" went to the model as "3 apples pears" and came back "PEARS" / "APPLES 3", where the .xlsx cell
    of the same lines is read whole, a list, an item a line.  Lines are joined as the whole cell's text says now."""
    import openpyxl
    from odf import office, table, text
    from odf.opendocument import load

    xlsx, ods = listed_sheets()
    written = openpyxl.load_workbook(io.BytesIO(translate_office(xlsx, ".xlsx", mirror, DocumentOptions()))).active
    given, mirror.given = mirror.given, []
    assert (written["A1"].value, written["A1"].comment.text) == ("FRUIT\nAPPLES 3\nPEARS",) * 2
    cell = load(io.BytesIO(translate_office(ods, ".ods", mirror, DocumentOptions()))).spreadsheet.getElementsByType(
        table.TableCell)[0]
    note = cell.getElementsByType(office.Annotation)[0]
    assert [str(p) for p in note.getElementsByType(text.P)] == ["FRUIT", "APPLES 3", "PEARS"]
    assert [str(p) for p in cell.getElementsByType(text.P)] == ["FRUIT", "APPLES 3", "PEARS"] * 2  # the note's first
    assert mirror.given == given == ["Fruit", "3 apples", "pears"]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_a_cells_list_of_lines_an_item_a_line(mirror, tmp_path):
    out = translate_office(listed_sheets()[1], ".ods", mirror, DocumentOptions())
    assert libreoffice_csv(out, ".ods", tmp_path) == ['"FRUIT', "APPLES 3", 'PEARS"']
