"""An OpenDocument spreadsheet's formulas' cached text results are taken out
(attnmt.documents.opendocument_formulas), so that LibreOffice computes them from the translated cells,
as an .xlsx's are.  The cells are written as LibreOffice writes them, each formula with its result.
Mirror: words upper-cased in reverse order."""

import html

import pytest
from flat_files import flat_file, zipped_file
from lxml import etree
from office_files import SOFFICE, libreoffice_csv, read_members

from attnmt.documents.formula_reading import read_opendocument_formula
from attnmt.documents.office import translate_office
from attnmt.documents.pipeline import DocumentOptions

OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
FORMULAS = ('xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
            'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
            'xmlns:msoxl="http://schemas.microsoft.com/office/excel/formula"')


def result(formula: str, shown: str, kind: str = "string") -> str:
    """A formula cell as LibreOffice writes it: ``formula`` and its cached result ``shown``."""
    value = f'office:string-value="{shown}"' if kind == "string" else f'office:value="{shown}"'
    return (f'<table:table-cell table:formula="{html.escape(formula)}" office:value-type="{kind}" {value} '
            f'calcext:value-type="{kind}"><text:p>{shown}</text:p></table:table-cell>')


def sheet(cells: str, names: str = "") -> str:
    """A spreadsheet whose row 1 is "A dog runs." (A1) then ``cells``, with the named expressions ``names``."""
    return (f'<office:spreadsheet {FORMULAS}><table:table table:name="Sheet1"><table:table-row>'
            '<table:table-cell office:value-type="string" calcext:value-type="string"><text:p>A dog runs.</text:p>'
            f'</table:table-cell>{cells}</table:table-row></table:table>'
            f'<table:named-expressions>{names}</table:named-expressions></office:spreadsheet>')


def translated_cells(body: str, suffix: str, translator) -> list[etree._Element]:
    """Row 1's cells of the translated file of ``body`` (.ods or flat .fods)."""
    if suffix == ".fods":
        out = etree.fromstring(translate_office(flat_file("spreadsheet", body=body), suffix, translator,
                                                DocumentOptions()))
    else:
        out = etree.fromstring(read_members(translate_office(zipped_file("spreadsheet", body=body), suffix,
                                                             translator, DocumentOptions()))["content.xml"])
    return list(next(out.iter(f"{{{TABLE}}}table-row")))


def cached(cell: etree._Element) -> tuple[str | None, str | None, list[str]]:
    """The cell's value type, its text value and its paragraphs' text: what a reader shows without calculating."""
    return (cell.get(f"{{{OFFICE}}}value-type"), cell.get(f"{{{OFFICE}}}string-value"),
            ["".join(child.itertext()) for child in cell])


COMPUTED = ["of:=[.A1]", 'of:=IF([.A1]<>"";"yes";"no")', 'of:=[.A1]&" total"', "of:=UPPER([$'My sheet'.A1:.A2])",
            "of:=Shout", 'of:=COM.MICROSOFT.CONCAT([.A1];"!")', "=[.A1]"]


@pytest.mark.parametrize("suffix", [".ods", ".fods"])
@pytest.mark.parametrize("formula", COMPUTED)
def test_a_standard_formula_reading_the_files_cells_loses_its_cached_text(mirror, suffix, formula):
    """LibreOffice showed the cached "A dog runs." beside "RUNS. DOG A" in A1: it calculates no ODF
    file again on opening.  Without its result it computes the formula; the formula itself is kept."""
    names = '<table:named-expression table:name="Shout" table:expression="of:=UPPER([.A1])"/>'
    first, cell = translated_cells(sheet(result(formula, "A dog runs."), names), suffix, mirror)
    assert cached(first) == ("string", None, ["RUNS. DOG A"])
    assert cached(cell) == (None, None, [])
    assert etree.tostring(cell).decode().count('table:formula="') == 1


# 'of:="A cat sleeps."': a literal that is no cell's text (one that is follows its translation:
# test_office_opendocument_literals)
CACHED = ['of:="A cat sleeps."', 'of:=TEXT(NOW();"mmmm")', "of:=ORG.OPENOFFICE.WEEKS([.A1];1;0)",
          "of:=COM.MICROSOFT.XLOOKUP([.A1];[.A1];[.A1])", "of:=UPPER(['file:///b.ods'#$Sheet1.A1])", "of:=Spoken",
          "msoxl:=A1"]


@pytest.mark.parametrize("formula", CACHED)
def test_a_result_that_cannot_be_computed_again_keeps_its_cached_text(mirror, formula):
    """Taken out, it would be lost or #NAME?: a formula that reads no cell, a volatile or unknown
    function, another file, a named expression calling one, another syntax than OpenFormula's."""
    names = '<table:named-expression table:name="Spoken" table:expression="of:=ORG.OPENOFFICE.WEEKS([.A1];1;0)"/>'
    _, cell = translated_cells(sheet(result(formula, "A dog runs."), names), ".ods", mirror)
    assert cached(cell) == ("string", "A dog runs.", ["A dog runs."])


def test_a_formulas_number_keeps_its_cached_result(mirror):
    _, cell = translated_cells(sheet(result("of:=LEN([.A1])", "11", kind="float")), ".ods", mirror)
    assert (cell.get(f"{{{OFFICE}}}value"), cached(cell)) == ("11", ("float", None, ["11"]))


@pytest.mark.parametrize("text, calls", [('COM.MICROSOFT.CONCAT([.A1];"!")', {"_XLFN.CONCAT"}),
                                         ('IFNA([.A1];"UPPER([.B1])")', {"_XLFN.IFNA"}), ("TRUE()", {"TRUE"}),
                                         ("ORG.OPENOFFICE.WEEKS([.A1];1;0)", {"ORG.OPENOFFICE.WEEKS"})])
def test_an_opendocument_formulas_functions_are_named_as_an_xlsx_names_them(text, calls):
    """formula_reading.STANDARD, the .xlsx's list, names LibreOffice's ODF names as Excel's file does."""
    assert read_opendocument_formula(text).calls == calls


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.parametrize("suffix", [".ods", ".fods"])
def test_libreoffice_shows_the_formulas_results_computed_from_the_translated_cell(mirror, tmp_path, suffix):
    cells = (result("of:=[.A1]", "A dog runs.") + result('of:=[.A1]&" total"', "A dog runs. total")
             + result('of:="Total"', "Total"))
    body = sheet(cells)
    made = flat_file("spreadsheet", body=body) if suffix == ".fods" else zipped_file("spreadsheet", body=body)
    out = translate_office(made, suffix, mirror, DocumentOptions())
    # " total", a piece of a text, is kept; "Total", the whole result, is translated (attnmt.documents.result_literals)
    assert libreoffice_csv(out, suffix, tmp_path) == ["RUNS. DOG A,RUNS. DOG A,RUNS. DOG A total,TOTAL"]
