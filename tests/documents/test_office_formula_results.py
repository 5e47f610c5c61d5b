"""A workbook's formulas' cached text results are taken out (attnmt.documents.formula_results), so
that no reader shows the source's text beside the translated cells, and Excel is asked to calculate
the workbook on opening.  openpyxl writes formulas without results, so the sheet is written again by
hand as Excel writes it.  Mirror: words upper-cased in reverse order."""

import io
import shutil
import subprocess

import openpyxl
import pytest
from lxml import etree
from office_files import docx_bytes, read_members, write_members

from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
SHEET = "xl/worksheets/sheet1.xml"
WORKBOOK = "xl/workbook.xml"
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def calc_file(cells: str, calc: str = '<calcPr calcId="191029"/>') -> bytes:
    """A sheet whose row 1 is "A dog runs." (A1) then ``cells`` (as Excel writes them, each with its
    cached result), and whose workbook's calcPr is ``calc`` (Excel's, which asks for no recalculation)."""
    book = openpyxl.Workbook()
    book.active["A1"] = "A dog runs."
    members = read_members(docx_bytes(book))
    sheet = members[SHEET].decode()
    start, end = sheet.index('<c r="A1"'), sheet.index("</row>")
    members[SHEET] = (sheet[:start] + sheet[start:end] + cells + sheet[end:]).encode()
    workbook = members[WORKBOOK].decode()
    start, end = workbook.index("<calcPr"), workbook.index("/>", workbook.index("<calcPr")) + 2
    members[WORKBOOK] = (workbook[:start] + calc + workbook[end:]).encode()
    return write_members(members)


COPY = '<c r="B1" t="str"><f>A1</f><v>A dog runs.</v></c>'  # =A1, with the result Excel cached


def translated(data: bytes, translator) -> tuple[openpyxl.Workbook, openpyxl.Workbook]:
    """The translated workbook as openpyxl reads it: its formulas, and their cached results (data_only)."""
    out = translate_office(data, ".xlsx", translator, DocumentOptions())
    return openpyxl.load_workbook(io.BytesIO(out)), openpyxl.load_workbook(io.BytesIO(out), data_only=True)


def calc_settings(data: bytes) -> etree._Element:
    return etree.fromstring(read_members(data)[WORKBOOK]).find(f"{{{S}}}calcPr")


def test_a_formulas_cached_text_is_taken_out_where_its_cell_is_translated(mirror):
    """B1 (=A1) still read "A dog runs." beside "RUNS. DOG A" to every reader that does not calculate."""
    formulas, results = translated(calc_file(COPY), mirror)
    assert formulas.active["B1"].value == "=A1"
    assert [results.active["A1"].value, results.active["B1"].value] == ["RUNS. DOG A", None]


def test_a_workbook_with_formulas_is_calculated_when_excel_opens_it(mirror):
    out = translate_office(calc_file(COPY), ".xlsx", mirror, DocumentOptions())
    assert calc_settings(out).attrib == {"calcId": "191029", "fullCalcOnLoad": "1"}


def test_a_workbook_without_calculation_settings_gets_them_after_its_sheets(mirror):
    out = translate_office(calc_file(COPY, calc=""), ".xlsx", mirror, DocumentOptions())
    workbook = etree.fromstring(read_members(out)[WORKBOOK])
    names = [etree.QName(child).localname for child in workbook]
    assert names[names.index("calcPr") - 1] == "definedNames"  # its place in the schema's order
    assert calc_settings(out).attrib == {"fullCalcOnLoad": "1"}


def test_a_workbook_without_formulas_keeps_its_workbook_part(mirror):
    data = calc_file('<c r="B1"><v>7</v></c>')
    out = translate_office(data, ".xlsx", mirror, DocumentOptions())
    assert read_members(out)[WORKBOOK] == read_members(data)[WORKBOOK]


def test_numbers_truth_values_and_errors_keep_their_cached_results(mirror):
    cells = ('<c r="B1"><f>LEN(A1)</f><v>11</v></c><c r="C1" t="b"><f>ISTEXT(A1)</f><v>1</v></c>'
             '<c r="D1" t="e"><f>1/0</f><v>#DIV/0!</v></c>')
    _, results = translated(calc_file(cells), mirror)
    assert [results.active[name].value for name in ("B1", "C1", "D1")] == [11, True, "#DIV/0!"]


def test_an_array_formulas_text_results_are_taken_out_in_all_its_cells(mirror):
    """Its first cell holds the formula, the others only their results (Excel 365's spilled ones too)."""
    cells = ('<c r="B1" t="str"><f t="array" ref="B1:C1">UPPER(A1:A1)&amp;{"",""}</f><v>A DOG RUNS.</v></c>'
             '<c r="C1" t="str"><v>A DOG RUNS.</v></c>')
    out = translate_office(calc_file(cells), ".xlsx", mirror, DocumentOptions())
    row = etree.fromstring(read_members(out)[SHEET]).find(f".//{{{S}}}row")
    assert [(cell.get("r"), cell.get("t"), cell.findtext(f"{{{S}}}v")) for cell in row][1:] == [
        ("B1", None, None), ("C1", None, None)]


def test_a_string_cell_without_a_formula_keeps_its_text(mirror):
    """A writer's plain text (SheetJS writes t="str" so) is the cell's value: nothing would compute it again."""
    _, results = translated(calc_file('<c r="B1" t="str"><v>Kept as written.</v></c>'), mirror)
    assert results.active["B1"].value == "Kept as written."


def test_a_sheet_of_shared_strings_only_loses_its_cached_text_too(mirror):
    """Such a sheet holds no text to translate, so it was not even parsed; its formula reads a translated string."""
    members = read_members(calc_file(COPY))
    sheet = members[SHEET].decode()
    start = sheet.index('<c r="A1"')
    members[SHEET] = (sheet[:start] + '<c r="A1" t="s"><v>0</v></c>' + sheet[sheet.index("</c>", start) + 4:]).encode()
    members["xl/sharedStrings.xml"] = (f'<sst xmlns="{S}" count="1" uniqueCount="1"><si><t>A dog runs.</t></si>'
                                       '</sst>').encode()
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(b"</Types>", (
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        b'spreadsheetml.sharedStrings+xml"/></Types>'))
    members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(b"</Relationships>", (
        b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        b'sharedStrings" Target="sharedStrings.xml"/></Relationships>'))
    _, results = translated(write_members(members), mirror)
    assert [results.active["A1"].value, results.active["B1"].value] == ["RUNS. DOG A", None]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_the_formulas_result_computed_from_the_translated_cell(mirror, tmp_path):
    """LibreOffice calculates no Excel workbook again on opening (fullCalcOnLoad aside): it showed
    the cached "A dog runs."; a formula without a result it computes."""
    (tmp_path / "calc.xlsx").write_bytes(translate_office(calc_file(COPY), ".xlsx", mirror, DocumentOptions()))
    profile = (tmp_path / "profile").as_uri()  # a profile of its own: never the user's, never shared
    run = subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "csv",
                          "--outdir", str(tmp_path / "csv"), "calc.xlsx"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "csv" / "calc.csv").read_text(encoding="utf-8").strip() == "RUNS. DOG A,RUNS. DOG A"
