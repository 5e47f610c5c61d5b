"""A workbook's formulas' cached text results taken out, so that its readers compute them from the
translated cells, and the workbook marked to be calculated when Excel opens it.

Excel writes a formula's last result beside it, ``<c r="B1" t="str"><f>A1</f><v>A dog runs.</v></c>``,
and so does LibreOffice.  A reader that does not calculate shows that copy: openpyxl's
``data_only``, previewers and converters, and LibreOffice itself, which by default calculates no
Excel workbook again when it opens one (``fullCalcOnLoad`` included) but does compute a formula
that has no result.  The cells a formula reads are translated and its copy was not, so the file
said two things: "Ein Hund rennt." in A1, "A dog runs." in B1, ``=A1``.  So each cell whose
result is text (``t="str"``: a formula's, or a cell of an array formula's range, which holds its
result without the formula) loses its result and its type where that result can be computed
again from the file and depends on its text: the formula reads a cell, range, table or defined
name of the workbook, and every function it calls is one that Excel and LibreOffice both compute
(formula_reading.STANDARD: ``=A1``, ``=UPPER(A1)``, ``=VLOOKUP(A1,Words,2,FALSE)``).  It is then a
formula without a result, as openpyxl writes one, which LibreOffice computes when it opens the file
and openpyxl reads as None.  Where a formula of its sheets reads the workbook's cells, whether or
not a text result was taken out, and no formula of the workbook (a cell's, a rule's, a defined
name's) calls another function, the workbook says ``<calcPr fullCalcOnLoad="1"/>``, so that Excel
calculates all of it on opening: a number computed from text (``=LEN(A1)``, ``COUNTIF`` of a
translated word) keeps its cached value until then.

Left as they are: a formula's number, truth value or error (no text that contradicts a translated
cell); a ``t="str"`` cell with no formula outside every such array formula's range (a writer's
plain text, as SheetJS writes it: the cell's own value, which nothing would compute again, and which
is translated as a string is: attnmt.documents.validations.ValueJob); and
the text result of a formula that could not be computed again, which would become ``#NAME?``: one
that calls an add-in's or a macro's function (``=MYUDF(A1)``), a function LibreOffice 7.4 does not
know (``_xlfn.TEXTBEFORE``, ``_xlfn.XLOOKUP``, Excel 365's spilling ones), a cube function, a
volatile one (``INDIRECT``), a defined name whose formula does, or another workbook
(``[1]Sheet1!A1``), or one that reads nothing of the file (``="Total"``).  A workbook with such a
function is not calculated on opening either: Excel without the add-in would show ``#NAME?`` in
place of its results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.formula_reading import STANDARD, Formula, read_formula
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.tables import CELL, column_number, workbook_part, worksheets

# A sheet's bytes that may hold a formula's text result, or any formula (an element f, with a prefix
# or none: x14's xm:f too, a rule's, whose functions count as a cell's do).
STRING_RESULT = re.compile(rb"""\st\s*=\s*["']str["']""")
FORMULA = re.compile(rb"<(?:[\w.-]+:)?f[\s/>]")
# The workbook's elements that come before calcPr (CT_Workbook's sequence), where a new one goes.
BEFORE_CALC = {s(name) for name in ("fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews",
                                    "sheets", "functionGroups", "externalReferences", "definedNames")}
Area = tuple[int, int, int, int]  # an array formula's range: its first column and row, its last column and row


def forget_string_results(archive: Archive, parts: Sequence[Part]) -> list[Part]:
    """Each worksheet's cached text results that can be computed again taken out, and the workbook
    marked to be calculated on opening where that is safe (module docstring), in the trees of
    ``parts`` where they hold the part, else in one parsed from the archive; a part changed is
    marked so.  Returns the parts changed that ``parts`` did not hold (sheets, the workbook)."""
    workbook = workbook_part(archive)
    held = {part.member: part for part in parts}
    # As the sheets came: translation changes no formula.  Each sheet is unzipped once (Archive.read keeps
    # nothing), for whether it holds a formula and a text result.
    found = {member: (bool(FORMULA.search(data)), bool(STRING_RESULT.search(data)))
             for member, data in ((member, archive.read(member)) for member in worksheets(archive, workbook))}
    sheets = [member for member, (formula, _) in found.items() if formula]
    if workbook is None or not sheets:
        return []

    def part(member: str) -> Part:
        if member not in held:
            held[member] = Part(member, parse_part(archive, member))
        return held[member]

    names = defined_names(part(workbook).tree.getroot())
    unknown = frozenset(name for name, formula in names.items() if not formula.standard())
    results = [member for member in sheets if found[member][1]]
    changed = [sheet for sheet in map(part, results) if forget_results(sheet.tree.getroot(), unknown)]
    formulas = [read_formula(formula.text or "") for member in sheets
                for formula in part(member).tree.getroot().iter("{*}f")]
    if calculable(formulas, list(names.values())) and calculate_on_load(part(workbook).tree.getroot()):
        changed.append(part(workbook))
    original = {part.member for part in parts}
    for sheet in changed:
        sheet.changed = True
    return [part for part in changed if part.member not in original]


def calculable(formulas: Sequence[Formula], names: Sequence[Formula]) -> bool:
    """Whether Excel may calculate the whole workbook on opening: one of its sheets' ``formulas``
    (cells' and rules') reads the file, so that a cached result may be stale, a text result taken
    out or a number computed from translated text, and none of them nor of its defined ``names``
    calls a function off STANDARD, whose result would become ``#NAME?`` without its add-in."""
    reads = any(formula.reads_cells and not formula.external for formula in formulas)
    return reads and all(formula.calls <= STANDARD for formula in [*formulas, *names])


def defined_names(workbook: etree._Element) -> dict[str, Formula]:
    """The workbook's defined names (upper-cased, as Excel compares them) and what each one's formula
    reads and calls; a name defined for one sheet and for another is read as both."""
    names: dict[str, Formula] = {}
    for defined in workbook.iter(s("definedName")):
        name, formula = defined.get("name", "").upper(), read_formula(defined.text or "")
        if name not in names or names[name].standard():
            names[name] = formula
    return names


def forget_results(sheet: etree._Element, unknown: frozenset[str] = frozenset()) -> bool:
    """Each cell of ``sheet`` whose text is the result of a formula that can be computed again
    (``recomputable``: a ``t="str"`` cell with such a formula, or in such an array formula's range)
    without its cached value and type.  True where one changed."""
    shared = {formula.get("si"): formula.text for formula in sheet.iter(s("f"))
              if formula.get("t") == "shared" and formula.text}
    areas = [area for area, formula in array_areas(sheet) if recomputable(formula, shared, unknown)]
    changed = False
    for cell in sheet.iter(s("c")):
        formula = cell.find(s("f"))
        if cell.get("t") != "str" or not (recomputable(formula, shared, unknown) if formula is not None
                                          else in_areas(cell.get("r", ""), areas)):
            continue
        del cell.attrib["t"]
        for value in cell.findall(s("v")):
            cell.remove(value)
        changed = True
    return changed


def recomputable(formula: etree._Element, shared: dict[str | None, str], unknown: frozenset[str]) -> bool:
    """Whether the result of ``formula`` (an element f; a shared formula's other cells read their
    first cell's text, ``shared`` by ``si``) is computed again from the file: it reads a cell,
    range, table or defined name of the file and calls only standard functions (Formula.standard,
    with the defined names whose own formula is not standard, ``unknown``)."""
    text = formula.text or (shared.get(formula.get("si"), "") if formula.get("t") == "shared" else "")
    read = read_formula(text)
    return read.reads_cells and read.standard(unknown)


def array_areas(sheet: etree._Element) -> list[tuple[Area, etree._Element]]:
    """The ranges of ``sheet``'s array formulas (``<f t="array" ref="B1:B5">``), each with its
    formula; one that names no cells is left out."""
    areas = []
    for formula in sheet.iter(s("f")):
        corners = formula.get("ref", "").replace("$", "").split(":")
        ends = [(column_number(match.group(1)), int(match.group(2)))
                for corner in corners if (match := CELL.fullmatch(corner))]
        if formula.get("t") == "array" and len(ends) == len(corners) <= 2:  # one cell: its own first and last
            (left, top), (right, bottom) = ends[0], ends[-1]
            areas.append(((min(left, right), min(top, bottom), max(left, right), max(top, bottom)), formula))
    return areas


def in_areas(name: str, areas: Sequence[Area]) -> bool:
    """Whether the cell ``name`` ("B2") lies in one of ``areas``; a cell without its name does not."""
    match = CELL.fullmatch(name)
    if match is None:
        return False
    column, row = column_number(match.group(1)), int(match.group(2))
    return any(left <= column <= right and top <= row <= bottom for left, top, right, bottom in areas)


def calculate_on_load(workbook: etree._Element) -> bool:
    """The workbook's ``calcPr`` says ``fullCalcOnLoad="1"`` (one added in its place where it has
    none).  True where that changed it."""
    calc = workbook.find(s("calcPr"))
    if calc is None:
        before = [index for index, child in enumerate(workbook) if child.tag in BEFORE_CALC]
        calc = etree.Element(s("calcPr"))
        workbook.insert(before[-1] + 1 if before else 0, calc)
    elif calc.get("fullCalcOnLoad") in ("1", "true"):
        return False
    calc.set("fullCalcOnLoad", "1")
    return True
