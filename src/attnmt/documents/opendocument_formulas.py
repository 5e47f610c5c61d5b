"""An OpenDocument spreadsheet's formulas' cached text results taken out (.ods, .fods), so that
LibreOffice computes them from the translated cells, as an .xlsx's are (attnmt.documents.formula_results).

A formula cell keeps its last result, ``<table:table-cell table:formula="of:=[.A1]"
office:value-type="string" office:string-value="A dog runs."><text:p>A dog runs.</text:p>``, and
LibreOffice shows it: by default it calculates no ODF file again when it opens one, whoever wrote it,
and ODF has no flag that asks it to.  The cells a formula reads are translated and its copy was not, so
the translated file showed "A dog runs." beside "Ein Hund rennt." in A1.  LibreOffice computes a text
formula that has no ``office:string-value``, but every other reader (odfpy, pandas) shows its paragraph.
So a cell whose result is text loses its value type, its ``office:string-value`` and its paragraphs
where the formula reads the file's cells and calls only standard functions
(formula_reading.read_opendocument_formula, with formula_reading.STANDARD, the .xlsx's list), and reads
no named expression that calls another: LibreOffice computes it on opening, and a reader that does not
calculate shows an empty cell, not the source's text.  Left as they are, as in an .xlsx: a formula's
number, date, truth value or error (LibreOffice keeps them until it calculates), a formula that reads
no cell (``="Total"``), another file, or calls a function off the list (``NOW``, ``INDIRECT``, an
extension's), whose result would otherwise be lost or ``#NAME?``, and a formula of another syntax
than OpenFormula's (``msoxl:``).  A cell inside an array formula's range holds its value without
the formula and is translated as a string cell is.
"""

from __future__ import annotations

import re

from lxml import etree

from attnmt.documents.formula_reading import Formula, read_opendocument_formula
from attnmt.documents.opendocument_code import OFFICE, TABLE, TEXT
from attnmt.documents.opendocument_pivots import CELLS, FORMULA

CALCEXT = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
VALUE_TYPE = f"{{{OFFICE}}}value-type"
# A text result: its type (LibreOffice writes it twice), its value, and the paragraphs that show it.
RESULT = (VALUE_TYPE, f"{{{CALCEXT}}}value-type", f"{{{OFFICE}}}string-value")
SHOWN = (f"{{{TEXT}}}p", f"{{{TEXT}}}h", f"{{{TEXT}}}list")
# The namespaces of OpenFormula and of OpenOffice's formulas before it, which write references alike.
OPEN_FORMULA = ("urn:oasis:names:tc:opendocument:xmlns:of:1.2", "http://openoffice.org/2004/calc")
PREFIXED = re.compile(r"([\w.-]+):")  # "of:=[.A1]"'s "of:"; a formula may have none: "=[.A1]"


def forget_cell_results(root: etree._Element) -> bool:
    """Each formula cell of the spreadsheet in ``root`` (a content.xml's, or a flat file's
    ``office:document``) whose text result can be computed again without it (the module docstring).
    True where one changed."""
    unknown = unknown_names(root)
    changed = False
    for cell in root.iter(*CELLS):
        if cell.get(VALUE_TYPE) != "string" or cell.get(FORMULA) is None:
            continue
        formula = read_cell_formula(cell, cell.get(FORMULA, ""))
        if formula is None or not formula.reads_cells or not formula.standard(unknown):
            continue
        for name in RESULT:
            cell.attrib.pop(name, None)
        for shown in [child for child in cell if child.tag in SHOWN]:
            cell.remove(shown)
        changed = True
    return changed


def read_cell_formula(element: etree._Element, text: str) -> Formula | None:
    """What the formula ``text`` (as ``element`` holds it: formula_body) calls and reads; None where
    its namespace prefix names another syntax than OpenFormula."""
    body = formula_body(element, text)
    return None if body is None else read_opendocument_formula(body)


def formula_body(element: etree._Element, text: str) -> str | None:
    """The formula ``text`` (as ``element``, a cell or a named expression, holds it: "of:=[.A1]",
    "UPPER([.A1])") without its namespace prefix and "="; None where the prefix names another syntax
    than OpenFormula."""
    prefixed = PREFIXED.match(text)
    if prefixed and element.nsmap.get(prefixed.group(1)) not in OPEN_FORMULA:
        return None
    return text[prefixed.end() if prefixed else 0:].removeprefix("=")


def unknown_names(root: etree._Element) -> frozenset[str]:
    """The spreadsheet's named expressions (``table:named-expression``, the file's or a sheet's;
    upper-cased, as LibreOffice compares them) whose formula is not standard, or not OpenFormula's:
    a formula that reads one is not computed again.  A name defined twice counts where either is."""
    unknown = set()
    for named in root.iter(f"{{{TABLE}}}named-expression"):
        formula = read_cell_formula(named, named.get(f"{{{TABLE}}}expression", ""))
        if formula is None or not formula.standard():
            unknown.add(named.get(f"{{{TABLE}}}name", "").upper())
    return frozenset(unknown)
