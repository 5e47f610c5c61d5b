"""The header cells a workbook's pivot caches read their fields' names from, which keep their source text.

A pivot table reads its data through a pivot cache (``xl/pivotCache/pivotCacheDefinitionN.xml``),
whose source is a range of a sheet: ``<worksheetSource ref="A1:C4" sheet="Data"/>``, or a table or
defined name, ``<worksheetSource name="Fruits"/>``.  The range's first row names the cache's fields
(``<cacheField name="Fruit">``), and when Excel refreshes the pivot table it matches the fields by
those names: a field whose header reads otherwise is taken out of the layout, so a translated
header would empty the pivot table.  So those header cells keep their source text, as a table's
header that a formula names does (attnmt.documents.tables, which gives them back their text).

The cache's copy of the cells' values (``sharedItems``, ``pivotCacheRecords``) is left as it is:
a refresh reads it again from the translated cells.  A source in another workbook (``r:id``), one
that is not a worksheet's range (a consolidation, an external database), and a defined name that
is not one plain range (``OFFSET(...)``) keep nothing.
"""

from __future__ import annotations

import re

from lxml import etree

from attnmt.documents.archive import Archive, parse_part
from attnmt.documents.chart_cells import REFERENCE, reference_sheet, sheet_members
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.tables import (
    cell_text,
    column_name,
    column_number,
    relationships,
    sheet_tables,
    string_texts,
    workbook_part,
)
from attnmt.documents.wordml import RELATIONSHIP_ID

PIVOT_CACHE_RELATIONSHIP = "/pivotCacheDefinition"  # how the workbook's relationship to a cache ends its Type
SHARED_STRINGS_RELATIONSHIP = "/sharedStrings"
# A range's corner, its "$" signs read as none; a whole column (A:C) starts at row 1.
CORNER = re.compile(r"([A-Z]{1,3})(\d*)")


def pivot_headers(archive: Archive) -> dict[str, dict[str, str]]:
    """Each sheet (its member) -> the cells of it (their names, "A1") that head a pivot cache's
    source -> the text the cache reads there as a field's name: the cell's source text, as the
    archive holds it (module docstring); {} for a workbook without pivot caches."""
    workbook = workbook_part(archive)
    parts = [related for related in relationships(archive, workbook).values()
             if related.mode is None and related.member in archive] if workbook is not None else []
    caches = [related.member for related in parts if related.kind.endswith(PIVOT_CACHE_RELATIONSHIP)]
    if workbook is None or not caches:
        return {}
    sheets = sheet_members(archive)
    ranges = named_ranges(archive, workbook, sheets)
    sources = [ranges.get(source.get("name", "").casefold()) if source.get("name")
               else sheet_range(sheets, source.get("sheet", ""), source.get("ref", ""))
               for cache in caches if (source := worksheet_source(archive, cache)) is not None]
    strings = next((string_texts(parse_part(archive, related.member).getroot())
                    for related in parts if related.kind.endswith(SHARED_STRINGS_RELATIONSHIP)), [])
    # Each sheet's header cells gathered first, so that a sheet several caches read is parsed once.
    wanted: dict[str, set[str]] = {}
    for sheet, row in (source for source in sources if source is not None and source[0] in archive):
        wanted.setdefault(sheet, set()).update(row)
    headers: dict[str, dict[str, str]] = {}
    for sheet, cells in wanted.items():
        root = parse_part(archive, sheet).getroot()
        headers[sheet] = {cell.get("r"): cell_text(cell, strings)
                          for cell in root.iter(s("c")) if cell.get("r") in cells}
    return headers


def worksheet_source(archive: Archive, cache: str) -> etree._Element | None:
    """A cache's ``worksheetSource``: where in this workbook it reads its data; None for a cache
    of another kind of source, or of another workbook's sheet (``r:id``)."""
    source = parse_part(archive, cache).getroot().find(f"{s('cacheSource')}/{s('worksheetSource')}")
    return source if source is not None and source.get(RELATIONSHIP_ID) is None else None


def named_ranges(archive: Archive, workbook: str, sheets: dict[str, str]) -> dict[str, tuple[str, list[str]]]:
    """Each name a cache's source may give, case-folded (Excel reads names in any case) -> its sheet's
    member and its range's first row: the workbook's tables (their header row) and its defined names
    of one plain range (``Data!$A$1:$C$4``); ``sheets``: the workbook's sheets (``sheet_members``)."""
    ranges = {}
    for name in parse_part(archive, workbook).getroot().iter(s("definedName")):
        match = REFERENCE.fullmatch((name.text or "").strip())
        if match is not None and name.get("localSheetId") is None:
            left, top, right, bottom = match.group(3, 4, 5, 6)
            found = sheet_range(sheets, reference_sheet(match), f"{left}{top}:{right or left}{bottom or top}")
            ranges.update({name.get("name", "").casefold(): found} if found else {})
    for sheet, members in sheet_tables(archive).items():
        for member in members:
            table = parse_part(archive, member).getroot()
            if table.get("headerRowCount", "1") != "0":
                ranges.update({table.get(key, "").casefold(): (sheet, first_row(table.get("ref", "")))
                               for key in ("name", "displayName") if table.get(key)})
    return ranges


def sheet_range(sheets: dict[str, str], sheet: str, ref: str) -> tuple[str, list[str]] | None:
    """The member of the sheet named ``sheet`` (in any case; ``sheets``: sheet_members) and the
    cells of ``ref``'s first row; None where the workbook lists no such sheet."""
    member = sheets.get(sheet.casefold())
    return (member, first_row(ref)) if member is not None else None


def first_row(ref: str) -> list[str]:
    """The cells of a range's first row ("A1:C4" -> A1, B1, C1; "$A:$C" -> A1, B1, C1); none for a
    range that does not read."""
    first, _, last = ref.replace("$", "").partition(":")
    start, end = CORNER.fullmatch(first), CORNER.fullmatch(last or first)
    if start is None or end is None:
        return []
    row = start.group(2) or "1"
    return [f"{column_name(column)}{row}" for column in range(column_number(start.group(1)),
                                                               column_number(end.group(1)) + 1)]
