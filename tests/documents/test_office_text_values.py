"""A cell's text value without a formula (``<c t="str"><v>A dog runs.</v></c>``), as SheetJS, the
JavaScript library many web applications export their spreadsheets with, writes every string
(attnmt.documents.validations.ValueJob): translated as a string cell is, and followed by the
workbook's filters and formulas.  The sheets below are SheetJS 0.18.5's output for
``aoa_to_sheet`` (``XLSX.writeFile``), byte for byte apart from the rows.  Mirror: words
upper-cased in reverse order."""


import openpyxl
import pytest
from office_files import SOFFICE, docx_bytes, libreoffice_csv, read_members, sheet_values, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

SHEET = "xl/worksheets/sheet1.xml"
HEAD = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/'
        'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<dimension ref="A1:C4"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetData>')
TAIL = ('</sheetData><autoFilter ref="A1:B4"/><ignoredErrors><ignoredError numberStoredAsText="1" sqref="A1:C4"/>'
        '</ignoredErrors></worksheet>')
ROWS = ('<row r="1"><c r="A1" t="str"><v>Status</v></c><c r="B1" t="str"><v>Count</v></c>'
        '<c r="C1"><f>COUNTIF(A2:A4,&quot;A dog runs.&quot;)</f></c></row>'
        '<row r="2"><c r="A2" t="str"><v>A dog runs.</v></c><c r="B2"><v>3</v></c></row>'
        '<row r="3"><c r="A3" t="str"><v>The man laughs.</v></c><c r="B3"><v>0</v></c></row>'
        '<row r="4"><c r="A4" t="str"><v>A dog runs.</v></c><c r="B4"><v>1</v></c></row>')


def sheetjs_file(rows: str = ROWS) -> bytes:
    """A workbook whose sheet is written as SheetJS writes one: every string a ``t="str"`` value."""
    members = read_members(docx_bytes(openpyxl.Workbook()))
    members[SHEET] = (HEAD + rows + TAIL).encode()
    return write_members(members)


def translate(data: bytes, translator) -> bytes:
    return translate_office(data, ".xlsx", translator, DocumentOptions())


def test_a_text_value_without_a_formula_is_translated(mirror):
    """Such a workbook came back as it went: not one of its cells was translated."""
    out = translate(sheetjs_file(), mirror)
    assert sheet_values(out) == [["STATUS", "COUNT", '=COUNTIF(A2:A4,"RUNS. DOG A")'], ["RUNS. DOG A", 3, None],
                           ["LAUGHS. MAN THE", 0, None], ["RUNS. DOG A", 1, None]]
    assert '<c r="A2" t="str"><v>RUNS. DOG A</v></c>' in read_members(out)[SHEET].decode()


def test_a_formulas_result_and_an_array_formulas_cells_are_no_text_values(mirror):
    """A cached result (with its formula, or in an array formula's range) is the formula's, never translated:
    the one that can be computed again is taken out (attnmt.documents.formula_results), the other kept."""
    rows = ('<row r="1"><c r="A1" t="str"><v>A dog runs.</v></c>'
            '<c r="B1" t="str"><f>MYUDF(A1)</f><v>The man laughs.</v></c>'
            '<c r="C1" t="str"><f t="array" ref="C1:D1">MYUDF(A1:B1)</f><v>The man laughs.</v></c>'
            '<c r="D1" t="str"><v>The cat sleeps.</v></c></row>')
    out = translate(sheetjs_file(rows), mirror)
    assert sheet_values(out)[0][0] == "RUNS. DOG A"
    sheet = read_members(out)[SHEET].decode()
    assert '<v>The man laughs.</v></c><c r="C1"' in sheet and '<c r="D1" t="str"><v>The cat sleeps.</v>' in sheet
    assert set(mirror.given) == {"A dog runs."}


def test_escapes_in_a_text_value_are_read_and_written_again(mirror):
    """A value's line break escaped as Excel escapes it (``_x000D_``) is no word; each line is translated."""
    rows = '<row r="1"><c r="A1" t="str"><v>A dog runs._x000D_\nThe cat sleeps.</v></c></row>'
    out = translate(sheetjs_file(rows), mirror)
    assert set(mirror.given) == {"A dog runs.", "The cat sleeps."}
    assert "<v>RUNS. DOG A&#13;\nSLEEPS. CAT THE</v>" in read_members(out)[SHEET].decode()  # as openpyxl reads it


def test_a_text_value_over_excels_cell_limit_keeps_its_source(known):
    over = "\U0001F600" * 16_384  # 32,768 UTF-16 code units: one over
    rows = ('<row r="1"><c r="A1" t="str"><v>A dog runs.</v></c></row>'
            '<row r="2"><c r="A2" t="str"><v>The cat sleeps.</v></c></row>')
    translator = known({"A dog runs.": (over, [(0, 0)]), "The cat sleeps.": ("Die Katze schläft.", [(0, 0)])})
    with pytest.warns(UserWarning, match=r"^the \.xlsx file: cell A1 of xl/worksheets/sheet1\.xml: .* 32,768 "):
        out = translate(sheetjs_file(rows), translator)
    assert sheet_values(out) == [["A dog runs."], ["Die Katze schläft."]]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_the_translated_values_and_counts_them(mirror, tmp_path):
    out = translate(sheetjs_file(), mirror)
    assert libreoffice_csv(out, ".xlsx", tmp_path) == ["STATUS,COUNT,2", "RUNS. DOG A,3,", "LAUGHS. MAN THE,0,",
                                                       "RUNS. DOG A,1,"]
