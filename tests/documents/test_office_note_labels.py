"""An .xlsx legacy note's author label ("Ann:" on a line of its own, as Excel writes "Author:\\n" in the note) is kept
in an .xlsx, and in the .ods LibreOffice converts it to, where it is the annotation's first paragraph."""

import io

import openpyxl
import openpyxl.comments
import pytest
from lxml import etree
from office_files import SOFFICE, docx_bytes, libreoffice_saved, odf_bytes, read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def annotated_sheet(notes: list[tuple[str | None, list[str]]]) -> bytes:
    """An .ods of a row of text cells, each annotated by (its author or None, its paragraphs), as LibreOffice
    converts an .xlsx's legacy note: a date, no author where the .xlsx named none it reads."""
    from odf.dc import Creator, Date
    from odf.office import Annotation
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table, row = Table(name="Sheet1"), TableRow()
    for author, paragraphs in notes:
        cell, annotation = TableCell(valuetype="string"), Annotation()
        if author is not None:
            annotation.addElement(Creator(text=author))
        annotation.addElement(Date(text="2026-12-07T00:00:00"))
        for paragraph in paragraphs:
            annotation.addElement(P(text=paragraph))
        cell.addElement(annotation)
        cell.addElement(P(text="A dog runs."))
        row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    return odf_bytes(document)


def annotations(ods: bytes) -> list[list[str]]:
    """The paragraphs of each annotation of ``ods``'s content, as written."""
    content = etree.fromstring(read_members(ods)["content.xml"])
    return [["".join(p.itertext()) for p in note.iter(f"{TEXT}p")] for note in content.iter(f"{OFFICE}annotation")]


def test_an_ods_notes_author_label_is_kept_and_its_lines_translated(mirror):
    """The label was translated as a paragraph ("ANN:"), and one before a line in lower case was read with it."""
    out = translate_office(annotated_sheet([(None, ["Ann:", "Check the red car."]),
                                            ("Peter Brown", ["Peter Brown:", "the car is parked."]),
                                            (None, ["Note:", "Check the red car."]),
                                            ("Ann", ["Tom:", "The car is red."])]), ".ods", mirror, DocumentOptions())
    assert annotations(out) == [["Ann:", "CAR. RED THE CHECK"], ["Peter Brown:", "PARKED. IS CAR THE"],
                                ["NOTE:", "CAR. RED THE CHECK"], ["TOM:", "RED. IS CAR THE"]]
    assert "Ann:" not in mirror.given and "Peter Brown:" not in mirror.given


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_an_xlsx_notes_author_label_is_kept_in_the_xlsx_and_in_the_ods_libreoffice_makes_of_it(mirror, tmp_path):
    book = openpyxl.Workbook()
    book.active["A1"] = "A dog runs."
    book.active["A1"].comment = openpyxl.comments.Comment("Ann:\nCheck the red car.", "Ann")
    xlsx = translate_office(docx_bytes(book), ".xlsx", mirror, DocumentOptions())
    assert openpyxl.load_workbook(io.BytesIO(xlsx)).active["A1"].comment.text == "Ann:\nCAR. RED THE CHECK"
    ods = translate_office(libreoffice_saved(docx_bytes(book), ".xlsx", "ods", tmp_path / "to_ods"), ".ods", mirror,
                           DocumentOptions())
    assert annotations(ods) == [["Ann:", "CAR. RED THE CHECK"]]
    opened = libreoffice_saved(ods, ".ods", "xlsx", tmp_path / "opened")  # LibreOffice opens the translated file
    assert openpyxl.load_workbook(io.BytesIO(opened)).active["A1"].comment.text.startswith("Ann:\nCAR. RED THE CHECK")
    assert "Ann:" not in mirror.given
