"""A workbook's formulas' cached text results are taken out (attnmt.documents.formula_results), so
that no reader shows the source's text beside the translated cells, and Excel is asked to calculate
the workbook on opening.  openpyxl writes formulas without results, so the sheet is written again by
hand as Excel writes it.  Mirror: words upper-cased in reverse order."""

import io

import openpyxl
import pytest
from lxml import etree
from office_files import SOFFICE, docx_bytes, libreoffice_csv, read_members, shared_string_sheet, write_members

from attnmt.documents.formula_reading import STANDARD
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
SHEET = "xl/worksheets/sheet1.xml"
WORKBOOK = "xl/workbook.xml"


def calc_file(cells: str, calc: str = '<calcPr calcId="191029"/>', names: str = "") -> bytes:
    """A sheet whose row 1 is "A dog runs." (A1) then ``cells`` (as Excel writes them, each with its
    cached result), whose workbook's calcPr is ``calc`` (Excel's, which asks for no recalculation)
    and whose defined names are ``names``."""
    book = openpyxl.Workbook()
    book.active["A1"] = "A dog runs."
    members = read_members(docx_bytes(book))
    sheet = members[SHEET].decode()
    start, end = sheet.index('<c r="A1"'), sheet.index("</row>")
    members[SHEET] = (sheet[:start] + sheet[start:end] + cells + sheet[end:]).encode()
    workbook = members[WORKBOOK].decode()
    start, end = workbook.index("<calcPr"), workbook.index("/>", workbook.index("<calcPr")) + 2
    workbook = workbook[:start] + calc + workbook[end:]
    members[WORKBOOK] = workbook.replace("<definedNames/>", f"<definedNames>{names}</definedNames>").encode()
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


def test_a_workbook_whose_formulas_return_only_numbers_is_calculated_when_excel_opens_it(mirror):
    """No text result to take out, but =LEN(A1) still said 11 of the translated "RUNS. DOG A"."""
    cells = '<c r="B1"><f>LEN(A1)</f><v>11</v></c><c r="C1"><f>COUNTIF(A1:A3,"A dog runs.")</f><v>1</v></c>'
    out = translate_office(calc_file(cells), ".xlsx", mirror, DocumentOptions())
    assert calc_settings(out).attrib == {"calcId": "191029", "fullCalcOnLoad": "1"}


def test_a_workbook_whose_formulas_read_no_cell_keeps_its_workbook_part(mirror):
    """Nothing a translation changes reaches =1+1 or ="Total"."""
    data = calc_file('<c r="B1"><f>1+1</f><v>2</v></c><c r="C1" t="str"><f>"Total"</f><v>Total</v></c>')
    out = translate_office(data, ".xlsx", mirror, DocumentOptions())
    assert read_members(out)[WORKBOOK] == read_members(data)[WORKBOOK]


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


def test_a_string_cell_without_a_formula_keeps_its_text_translated(mirror):
    """A writer's plain text (SheetJS writes t="str" so) is the cell's value, which nothing would compute
    again: it is not taken out, but translated (tests/documents/test_office_text_values.py)."""
    _, results = translated(calc_file('<c r="B1" t="str"><v>Kept as written.</v></c>'), mirror)
    assert results.active["B1"].value == "WRITTEN. AS KEPT"


def test_a_sheet_of_shared_strings_only_loses_its_cached_text_too(mirror):
    """Such a sheet holds no text to translate, so it was not even parsed; its formula reads a translated string."""
    data = shared_string_sheet(calc_file(COPY), f'<sst xmlns="{S}" count="1" uniqueCount="1"><si><t>A dog runs.</t>'
                                                '</si></sst>', cell="A1")
    _, results = translated(data, mirror)
    assert [results.active["A1"].value, results.active["B1"].value] == ["RUNS. DOG A", None]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_the_formulas_result_computed_from_the_translated_cell(mirror, tmp_path):
    """LibreOffice calculates no Excel workbook again on opening (fullCalcOnLoad aside): it showed
    the cached "A dog runs."; a formula without a result it computes."""
    out = translate_office(calc_file(COPY), ".xlsx", mirror, DocumentOptions())
    assert libreoffice_csv(out, ".xlsx", tmp_path) == ["RUNS. DOG A,RUNS. DOG A"]


def cached(out: bytes) -> list[tuple[str | None, str | None, str | None]]:
    """Row 1's cells after A1, as the translated sheet holds them: name, type and cached value."""
    row = etree.fromstring(read_members(out)[SHEET]).find(f".//{{{S}}}row")
    return [(cell.get("r"), cell.get("t"), cell.findtext(f"{{{S}}}v")) for cell in row][1:]


@pytest.mark.parametrize("formula", ["$A$1", "Sheet!A1", "'My sheet'!A1:B2", "Words", "Table1[[#This Row],[Name]]",
                                     '_xlfn.CONCAT(A1,"!")', 'IF(ISTEXT(A1),UPPER(A1),"")',
                                     "VLOOKUP(A1,Sheet!$A$1:$B$9,2,FALSE)", 'IF(MONTH(C1)>2,A1,"")',
                                     'A1&amp;" "&amp;DAY(C1)', "SUBTOTAL(9,C1)&amp;A1"])
def test_a_standard_formula_reading_the_files_cells_loses_its_cached_text(mirror, formula):
    """And the workbook is calculated on opening: it calls no function off STANDARD."""
    data = calc_file(f'<c r="B1" t="str"><f>{formula}</f><v>A dog runs.</v></c>',
                     names='<definedName name="Words">Sheet!$A$1</definedName>')
    out = translate_office(data, ".xlsx", mirror, DocumentOptions())
    assert cached(out) == [("B1", None, None)]
    assert calc_settings(out).get("fullCalcOnLoad") == "1"


@pytest.mark.parametrize("formula", [
    '_xlfn.TEXTBEFORE(A1," ")',  # Excel 365's: LibreOffice 7.4 shows #NAME?
    '_xlfn.CUBEMEMBER("x","y")',  # reads a data source outside the file
    "UNKNOWNUDF(A1)",  # an add-in's or a macro's function
    "[1]Sheet1!A1",  # another workbook
    'INDIRECT("A1")',  # volatile
    'UPPER("dog")',  # reads nothing of the file
    "UdfWords",  # a defined name whose formula calls an add-in's function
])
def test_a_result_that_cannot_be_computed_again_keeps_its_cached_text(mirror, formula):
    """LibreOffice showed #NAME? in place of "A", "Cube" and "udf result", openpyxl's data_only None."""
    data = calc_file(f'<c r="B1" t="str"><f>{formula}</f><v>Kept</v></c>',
                     names='<definedName name="UdfWords">UNKNOWNUDF(Sheet!$A$1)</definedName>')
    out = translate_office(data, ".xlsx", mirror, DocumentOptions())
    assert cached(out) == [("B1", "str", "Kept")]
    assert read_members(out)[WORKBOOK] == read_members(data)[WORKBOOK]  # not calculated on opening either


def test_a_workbook_calling_an_add_ins_function_is_not_calculated_on_opening(mirror):
    """Excel without the add-in would show #NAME? in C1 once made to calculate; B1 is computed all the same."""
    data = calc_file(COPY + '<c r="C1"><f>UNKNOWNUDF(A1)</f><v>3</v></c>')
    out = translate_office(data, ".xlsx", mirror, DocumentOptions())
    assert cached(out) == [("B1", None, None), ("C1", None, "3")]
    assert calc_settings(out).attrib == {"calcId": "191029"}


def test_an_array_formula_that_cannot_be_computed_again_keeps_the_text_of_all_its_cells(mirror):
    """Excel 365's spilled results: LibreOffice 7.4 does not know _xlfn._xlws.SORT."""
    cells = ('<c r="B1" t="str"><f t="array" ref="B1:C1">_xlfn._xlws.SORT(A1:A2)</f><v>A dog runs.</v></c>'
             '<c r="C1" t="str"><v>A man cooks.</v></c>')
    out = translate_office(calc_file(cells), ".xlsx", mirror, DocumentOptions())
    assert cached(out) == [("B1", "str", "A dog runs."), ("C1", "str", "A man cooks.")]


def test_a_shared_formulas_other_cells_follow_its_first_cells_formula(mirror):
    cells = ('<c r="B1" t="str"><f t="shared" ref="B1:C1" si="0">$A$1</f><v>A dog runs.</v></c>'
             '<c r="C1" t="str"><f t="shared" si="0"/><v>A dog runs.</v></c>'
             '<c r="D1" t="str"><f t="shared" ref="D1:E1" si="1">UNKNOWNUDF($A$1)</f><v>udf</v></c>'
             '<c r="E1" t="str"><f t="shared" si="1"/><v>udf</v></c>')
    out = translate_office(calc_file(cells), ".xlsx", mirror, DocumentOptions())
    assert cached(out) == [("B1", None, None), ("C1", None, None), ("D1", "str", "udf"), ("E1", "str", "udf")]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_shows_the_results_that_cannot_be_computed_again_as_cached(mirror, tmp_path):
    """It showed "#NAME?" for each of C1, D1 and E1."""
    cells = (COPY + '<c r="C1" t="str"><f>_xlfn.TEXTBEFORE(A1," ")</f><v>A</v></c>'
             '<c r="D1" t="str"><f>_xlfn.CUBEMEMBER("x","y")</f><v>Cube</v></c>'
             '<c r="E1" t="str"><f>UNKNOWNUDF(A1)</f><v>udf result</v></c>')
    out = translate_office(calc_file(cells), ".xlsx", mirror, DocumentOptions())
    assert libreoffice_csv(out, ".xlsx", tmp_path) == ["RUNS. DOG A,RUNS. DOG A,A,Cube,udf result"]


# One example of each STANDARD function, reading A1 ("A dog runs."), with what LibreOffice computes.
EXAMPLES = {
    "CONCATENATE": ('CONCATENATE(A1,"!")', "A dog runs.!"), "_XLFN.CONCAT": ('_xlfn.CONCAT(A1,"!")', "A dog runs.!"),
    "_XLFN.TEXTJOIN": ('_xlfn.TEXTJOIN("-",TRUE,A1,"x")', "A dog runs.-x"), "LEFT": ("LEFT(A1,3)", "A d"),
    "RIGHT": ("RIGHT(A1,3)", "ns."), "MID": ("MID(A1,3,3)", "dog"), "LEN": ("LEN(A1)", "11"),
    "UPPER": ("UPPER(A1)", "A DOG RUNS."), "LOWER": ("LOWER(A1)", "a dog runs."),
    "PROPER": ("PROPER(A1)", "A Dog Runs."), "TRIM": ('TRIM(" "&A1)', "A dog runs."),
    "CLEAN": ("CLEAN(A1)", "A dog runs."), "SUBSTITUTE": ('SUBSTITUTE(A1,"dog","cat")', "A cat runs."),
    "REPLACE": ('REPLACE(A1,1,1,"Z")', "Z dog runs."), "REPT": ('REPT("ab",2)', "abab"),
    "TEXT": ('TEXT(LEN(A1),"0.0")', "11.0"), "T": ("T(A1)", "A dog runs."), "VALUE": ('VALUE("5")', "5"),
    "EXACT": ("EXACT(A1,A1)", "TRUE"), "FIND": ('FIND("dog",A1)', "3"), "SEARCH": ('SEARCH("DOG",A1)', "3"),
    "CHAR": ("CHAR(65)", "A"), "CODE": ("CODE(A1)", "65"), "_XLFN.UNICHAR": ("_xlfn.UNICHAR(66)", "B"),
    "_XLFN.UNICODE": ("_xlfn.UNICODE(A1)", "65"), "FIXED": ("FIXED(5.4,1)", "5.4"),
    "_XLFN.NUMBERVALUE": ('_xlfn.NUMBERVALUE("7")', "7"),
    "HYPERLINK": ('HYPERLINK("https://example.com",A1)', "A dog runs."), "IF": ('IF(A1<>"",1,2)', "1"),
    "_XLFN.IFS": ('_xlfn.IFS(A1<>"",1)', "1"), "IFERROR": ("IFERROR(1/0,2)", "2"),
    "_XLFN.IFNA": ('_xlfn.IFNA(MATCH("x",A1:A1,0),2)', "2"), "_XLFN.SWITCH": ('_xlfn.SWITCH(A1,"x",1,2)', "2"),
    "AND": ("AND(TRUE,FALSE)", "FALSE"), "OR": ("OR(TRUE,FALSE)", "TRUE"), "NOT": ("NOT(FALSE)", "TRUE"),
    "_XLFN.XOR": ("_xlfn.XOR(TRUE,FALSE)", "TRUE"), "TRUE": ("TRUE()", "TRUE"), "FALSE": ("FALSE()", "FALSE"),
    "VLOOKUP": ("VLOOKUP(A1,A1:A1,1,FALSE)", "A dog runs."), "HLOOKUP": ("HLOOKUP(A1,A1:A1,1,FALSE)", "A dog runs."),
    "LOOKUP": ("LOOKUP(A1,A1:A1)", "A dog runs."), "INDEX": ("INDEX(A1:A1,1)", "A dog runs."),
    "MATCH": ("MATCH(A1,A1:A1,0)", "1"), "CHOOSE": ("CHOOSE(2,1,A1)", "A dog runs."), "ROW": ("ROW(A3)", "3"),
    "COLUMN": ("COLUMN(C1)", "3"), "ROWS": ("ROWS(A1:A3)", "3"), "COLUMNS": ("COLUMNS(A1:C1)", "3"),
    "ISBLANK": ("ISBLANK(A1)", "FALSE"), "ISNUMBER": ("ISNUMBER(A1)", "FALSE"), "ISTEXT": ("ISTEXT(A1)", "TRUE"),
    "ISNONTEXT": ("ISNONTEXT(A1)", "FALSE"), "ISERROR": ("ISERROR(A1)", "FALSE"), "ISERR": ("ISERR(A1)", "FALSE"),
    "ISNA": ("ISNA(A1)", "FALSE"), "ISLOGICAL": ("ISLOGICAL(A1)", "FALSE"), "N": ("N(7)", "7"),
    "SUM": ("SUM(2,3)", "5"), "COUNT": ("COUNT(A1,1)", "1"), "COUNTA": ("COUNTA(A1,1)", "2"),
    "COUNTBLANK": ("COUNTBLANK(A1)", "0"), "COUNTIF": ('COUNTIF(A1:A1,"A*")', "1"),
    "COUNTIFS": ('COUNTIFS(A1:A1,"A*")', "1"), "SUMIF": ('SUMIF(A1:A1,"A*")', "0"),
    "SUMIFS": ('SUMIFS(A1:A1,A1:A1,"A*")', "0"), "AVERAGE": ("AVERAGE(2,4)", "3"),
    "AVERAGEIF": ('AVERAGEIF(A1:A1,"x",A1:A1)', "#DIV/0!"), "MIN": ("MIN(2,4)", "2"), "MAX": ("MAX(2,4)", "4"),
    "ROUND": ("ROUND(2.6,0)", "3"), "ROUNDUP": ("ROUNDUP(2.1,0)", "3"), "ROUNDDOWN": ("ROUNDDOWN(2.9,0)", "2"),
    "ABS": ("ABS(-2)", "2"), "INT": ("INT(2.9)", "2"), "MOD": ("MOD(7,4)", "3"), "PRODUCT": ("PRODUCT(2,3)", "6"),
    "SUMPRODUCT": ("SUMPRODUCT(2,3)", "6"), "DATE": ('TEXT(DATE(2020,1,2),"yyyy")', "2020"),
    "YEAR": ("YEAR(1)", "1899"),
    "DATEVALUE": ('DATEVALUE("2020-03-05")', "43895"), "DAY": ("DAY(DATE(2020,3,5))", "5"),
    "MONTH": ("MONTH(DATE(2020,3,5))", "3"), "HOUR": ("HOUR(TIME(7,8,9))", "7"),
    "MINUTE": ("MINUTE(TIME(7,8,9))", "8"), "SECOND": ("SECOND(TIME(7,8,9))", "9"),
    "TIME": ('TEXT(TIME(7,8,9),"hh:mm:ss")', "07:08:09"), "TIMEVALUE": ('TIMEVALUE("12:00")', "0.5"),
    "WEEKDAY": ("WEEKDAY(DATE(2020,3,5))", "5"), "WEEKNUM": ("WEEKNUM(DATE(2020,3,5))", "10"),
    "_XLFN.ISOWEEKNUM": ("_xlfn.ISOWEEKNUM(DATE(2020,3,5))", "10"),
    "EDATE": ("DAY(EDATE(DATE(2020,1,31),1))", "29"), "EOMONTH": ("DAY(EOMONTH(DATE(2020,2,5),0))", "29"),
    "_XLFN.DAYS": ("_xlfn.DAYS(DATE(2020,3,5),DATE(2020,3,1))", "4"),
    "DATEDIF": ('DATEDIF(DATE(2020,1,1),DATE(2020,3,5),"m")', "2"),
    "DAYS360": ("DAYS360(DATE(2020,1,1),DATE(2020,3,1))", "60"),
    "NETWORKDAYS": ("NETWORKDAYS(DATE(2020,3,2),DATE(2020,3,8))", "5"),
    "WORKDAY": ("DAY(WORKDAY(DATE(2020,3,6),1))", "9"),
    "YEARFRAC": ("YEARFRAC(DATE(2020,1,1),DATE(2020,7,1))", "0.5"), "SUBTOTAL": ("SUBTOTAL(9,2,3)", "5"),
    "_XLFN.AGGREGATE": ("_xlfn.AGGREGATE(9,6,LEN(A1))", "11"),
    "AVERAGEIFS": ('AVERAGEIFS(A1:A1,A1:A1,"x")', "#DIV/0!"),
    "_XLFN.MAXIFS": ('_xlfn.MAXIFS(A1:A1,A1:A1,"x")', "0"), "_XLFN.MINIFS": ('_xlfn.MINIFS(A1:A1,A1:A1,"x")', "0"),
    "MEDIAN": ("MEDIAN(1,2,9)", "2"), "LARGE": ("LARGE({1,2,9},2)", "2"), "SMALL": ("SMALL({1,2,9},2)", "2"),
    "RANK": ("RANK(9,{1,2,9})", "1"), "POWER": ("POWER(2,3)", "8"), "SQRT": ("SQRT(9)", "3"),
    "CEILING": ("CEILING(2.1,1)", "3"), "FLOOR": ("FLOOR(2.9,1)", "2"), "SIGN": ("SIGN(-2)", "-1"),
    "TRUNC": ("TRUNC(-2.9)", "-2"), "EVEN": ("EVEN(3)", "4"), "ODD": ("ODD(2)", "3"),
    "QUOTIENT": ("QUOTIENT(7,2)", "3"), "PI": ("INT(PI())", "3"), "EXP": ("EXP(0)", "1"), "LN": ("LN(1)", "0"),
    "LOG": ("LOG(8,2)", "3"), "LOG10": ("LOG10(100)", "2"), "SUMSQ": ("SUMSQ(1,2)", "5"),
    "DOLLAR": ("ISTEXT(DOLLAR(5))", "TRUE"), "ISREF": ("ISREF(A1)", "TRUE"), "ISEVEN": ("ISEVEN(2)", "TRUE"),
    "ISODD": ("ISODD(2)", "FALSE"), "NA": ("ISNA(NA())", "TRUE"), "TYPE": ("TYPE(A1)", "2"),
    "_XLFN.ISFORMULA": ("_xlfn.ISFORMULA(A1)", "FALSE"),
}


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_computes_every_standard_function(tmp_path):
    """formula_reading.STANDARD names only what LibreOffice (7.4 and later) computes, as Excel does."""
    assert set(EXAMPLES) == STANDARD
    book = openpyxl.Workbook()
    book.active["A1"] = "A dog runs."
    for row, (formula, _) in enumerate(EXAMPLES.values(), start=1):
        book.active.cell(row, 2, f"={formula}")  # openpyxl writes no result: LibreOffice computes each
    lines = libreoffice_csv(docx_bytes(book), ".xlsx", tmp_path)
    assert {name: line.split(",", 1)[1].strip('"') for name, line in zip(EXAMPLES, lines, strict=True)} == {
        name: shown for name, (_, shown) in EXAMPLES.items()}
