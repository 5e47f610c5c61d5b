"""A workbook's formulas' cached text results taken out, so that its readers compute them from the
translated cells, and the workbook marked to be calculated when Excel opens it.

Excel writes a formula's last result beside it, ``<c r="B1" t="str"><f>A1</f><v>A dog runs.</v></c>``,
and so does LibreOffice.  A reader that does not calculate shows that copy: openpyxl's
``data_only``, previewers and converters, and LibreOffice itself, which by default calculates no
Excel workbook again when it opens one (``fullCalcOnLoad`` included) but does compute a formula
that has no result.  The cells a formula reads are translated and its copy was not, so the file
said two things: "Ein Hund rennt." in A1, "A dog runs." in B1, ``=A1``.  So each cell whose
result is text (``t="str"``: a formula's, or a cell of an array formula's range, which holds its
result without the formula; Excel 365's spilled results are such a range) loses its result and
its type: it is a formula without a result, as openpyxl writes one, which LibreOffice computes
when it opens the file and openpyxl reads as None.  And a workbook whose sheets hold a formula
says ``<calcPr fullCalcOnLoad="1"/>``, so that Excel calculates all of it on opening: a number
computed from text (``COUNTIF`` of a translated word) keeps its cached value until then, as the
result of a translation, not a copy of the source's text.

Left as they are: a formula's number, truth value or error (no text that contradicts a translated
cell), and a ``t="str"`` cell with no formula outside every array formula's range: a writer's plain
text (SheetJS writes text so), the cell's own value, which nothing would compute again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.tables import CELL, column_number, workbook_part, worksheets

# A sheet's bytes that may hold a formula's text result, or any formula (an element f, with a prefix
# or none: x14's xm:f too, a rule's, which only asks Excel to calculate once more than it needs).
STRING_RESULT = re.compile(rb"""\st\s*=\s*["']str["']""")
FORMULA = re.compile(rb"<(?:[\w.-]+:)?f[\s/>]")
# The workbook's elements that come before calcPr (CT_Workbook's sequence), where a new one goes.
BEFORE_CALC = {s(name) for name in ("fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews",
                                    "sheets", "functionGroups", "externalReferences", "definedNames")}
Area = tuple[int, int, int, int]  # an array formula's range: its first column and row, its last column and row


def forget_string_results(archive: Archive, parts: Sequence[Part]) -> list[Part]:
    """Each worksheet's cached text results taken out and the workbook marked to be calculated on
    opening (module docstring), in the trees of ``parts`` where they hold the part, else in one
    parsed from the archive; a part changed is marked so.  Returns the parts changed that ``parts``
    did not hold (sheets, the workbook)."""
    workbook = workbook_part(archive)
    held = {part.member: part for part in parts}
    added: list[Part] = []
    calculated = False
    for member in worksheets(archive, workbook):
        data = archive.read(member)  # as it came: translation changes no formula
        calculated |= FORMULA.search(data) is not None
        if STRING_RESULT.search(data) is None:
            continue
        sheet = held.get(member) or Part(member, parse_part(archive, member))
        if forget_results(sheet.tree.getroot()):
            sheet.changed = True
            added += [] if member in held else [sheet]
    if calculated and workbook is not None:
        book = held.get(workbook) or Part(workbook, parse_part(archive, workbook))
        if calculate_on_load(book.tree.getroot()):
            book.changed = True
            added += [] if workbook in held else [book]
    return added


def forget_results(sheet: etree._Element) -> bool:
    """Each cell of ``sheet`` whose text is a formula's result (a ``t="str"`` cell with a formula,
    or in an array formula's range) without its cached value and type.  True where one changed."""
    areas = array_areas(sheet)
    changed = False
    for cell in sheet.iter(s("c")):
        if cell.get("t") != "str" or (cell.find(s("f")) is None and not in_areas(cell.get("r", ""), areas)):
            continue
        del cell.attrib["t"]
        for value in cell.findall(s("v")):
            cell.remove(value)
        changed = True
    return changed


def array_areas(sheet: etree._Element) -> list[Area]:
    """The ranges of ``sheet``'s array formulas (``<f t="array" ref="B1:B5">``); one that names no
    cells is left out."""
    areas = []
    for formula in sheet.iter(s("f")):
        corners = formula.get("ref", "").replace("$", "").split(":")
        ends = [(column_number(match.group(1)), int(match.group(2)))
                for corner in corners if (match := CELL.fullmatch(corner))]
        if formula.get("t") == "array" and len(ends) == len(corners) <= 2:  # one cell: its own first and last
            (left, top), (right, bottom) = ends[0], ends[-1]
            areas.append((min(left, right), min(top, bottom), max(left, right), max(top, bottom)))
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
