"""A workbook's number formats' quoted words (``0 " items"``, ``#,##0 "pcs"``): Excel and LibreOffice
show them in the cell beside its number, "5 items", so a translated workbook translates them; the
format's codes are kept exactly, and a quote in a translation written as Excel reads one.  Mirror: words
upper-cased in reverse order."""

import io

import openpyxl
import pytest
from conftest import Judging
from lxml import etree
from office_files import SOFFICE, docx_bytes, libreoffice_saved, read_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import LeftUntranslated

TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
FORMATS = {"A1": (5, '0 " items"'), "A2": (1234, '#,##0 "pcs"'), "A3": (3, '0" Stück"'),
           "A4": (7, '"Total: "0;[Red]"minus "0'), "A5": (2.5, "0.00"), "A6": (8, r"0\ \k\g"),
           "A7": (9, '[$€-407]#,##0.00'), "A8": (4, '0 "2024"')}


def formatted_sheet(formats: dict[str, tuple[float, str]]) -> bytes:
    """A sheet of numbers, each cell with its number format."""
    book = openpyxl.Workbook()
    for cell, (value, code) in formats.items():
        book.active[cell] = value
        book.active[cell].number_format = code
    return docx_bytes(book)


def formats_of(data: bytes) -> list[str]:
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    return [sheet[cell].number_format for cell in FORMATS]


def test_a_number_formats_quoted_words_are_translated_and_its_codes_kept(mirror):
    """The cells showed "5 items" in a translated workbook: only their format's words were left."""
    out = translate_office(formatted_sheet(FORMATS), ".xlsx", mirror, DocumentOptions())
    assert formats_of(out) == ['0 " ITEMS"', '#,##0 "PCS"', '0" STÜCK"', '"TOTAL: "0;[Red]"MINUS "0', "0.00",
                               r"0\ \k\g", "[$€-407]#,##0.00", '0 "2024"']
    assert sorted(mirror.given) == sorted(["items", "pcs", "Stück", "Total:", "minus"])


def test_a_quote_in_a_formats_translation_is_written_as_excel_reads_one(known):
    """A format's literal holds no straight quote: one in the translation closes it, is written ``\\"``, and
    the literal opens again after it."""
    translator = known({"items": ('Stück "neu"', [(0, 0)])})
    out = translate_office(formatted_sheet({"A1": (5, '0 " items"')}), ".xlsx", translator, DocumentOptions())
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].number_format == r'0 " Stück "\""neu"\"'


def test_a_format_whose_translation_is_longer_than_excel_takes_keeps_its_source(fixed):
    """Excel takes a number format of at most 255 characters."""
    translator = fixed("Stück " * 50, [(0, 0)])
    with pytest.warns(LeftUntranslated, match=r"xl/styles.xml: the number format '0 \" items\"'.* 255"):
        out = translate_office(formatted_sheet({"A1": (5, '0 " items"')}), ".xlsx", translator, DocumentOptions())
    assert openpyxl.load_workbook(io.BytesIO(out)).active["A1"].number_format == '0 " items"'


def test_a_formats_word_the_model_garbled_keeps_its_source(mirror):
    """A format's word stands alone beside the number, as a column's header does: kept where the model's
    translation of it is implausible, as a header's is."""
    judging = Judging(mirror, {"items": 0.1, "pcs": 0.9})
    out = translate_office(formatted_sheet({"A1": (5, '0 " items"'), "A2": (6, '0 "pcs"')}), ".xlsx", judging,
                           DocumentOptions())
    sheet = openpyxl.load_workbook(io.BytesIO(out)).active
    assert [sheet["A1"].number_format, sheet["A2"].number_format] == ['0 " items"', '0 "PCS"']


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_libreoffice_shows_the_translated_words_beside_the_numbers(known, tmp_path):
    translator = known({"items": ("Stück", [(0, 0)]), "Total:": ('Summe "alle":', [(0, 0)])})
    formats = {"A1": (5, '0 " items"'), "A2": (1234, '#,##0 " items"'), "A3": (7, '"Total: "0')}
    out = translate_office(formatted_sheet(formats), ".xlsx", translator, DocumentOptions())
    content = etree.fromstring(read_members(libreoffice_saved(out, ".xlsx", "ods", tmp_path / "saved"))["content.xml"])
    shown = ["".join(cell.itertext()) for cell in content.iter(f"{{{TABLE}}}table-cell")  # the text each shows
             if cell.get(f"{{{OFFICE}}}value-type")]
    assert shown == ["5 Stück", "1,234 Stück", 'Summe "alle": 7']
