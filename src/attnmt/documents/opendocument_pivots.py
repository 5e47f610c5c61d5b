"""The header cells a spreadsheet's DataPilot tables read their fields' names from, which keep their source text.

A DataPilot table (LibreOffice's pivot table, ``table:data-pilot-table``) reads its data from a
range of a sheet, ``<table:source-cell-range table:cell-range-address="Data.A1:Data.B3"/>``, whose
first row names its fields, and it names each field it lays out after its header
(``<table:data-pilot-field table:source-field-name="Animal">``).  LibreOffice matches the two by
name when it opens the file: with the headers translated it found none of the fields, and the
pivot table came out empty.  So those header cells are not translated, as the headers an .xlsx's
pivot cache reads keep their source text (attnmt.documents.pivot_caches, whose ``first_row`` reads
the range here too); the cells under them are.

A source range given by name (``table:name``, which LibreOffice writes beside the address from
ODF 1.3 on, and reads before it) is that named range's (``table:named-range``, its name read in
any case); where the document names no such range, the address is the range it stood for when
the file was saved.  A DataPilot table of a database (``table:database-source-*``) keeps nothing.

A field, an item of a field (``table:data-pilot-member``, whose ``table:name`` is the source cells' value,
kept) or a grand total given a name of its own in LibreOffice (``tableooo:display-name``, or ODF 1.3's
``table:display-name`` on a grand total) is a caption that LibreOffice writes in the pivot table's
cells when it lays the table out again: it is translated (pivot_name_jobs) as those cells are.
"""

from __future__ import annotations

import re

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import OFFICE, TABLE
from attnmt.documents.pivot_caches import first_row
from attnmt.documents.tables import CELL, column_number
from attnmt.documents.validations import AttributeJob

# The elements of a spreadsheet's tables read here and by attnmt.documents.opendocument, which imports them.
CELLS = (f"{{{TABLE}}}table-cell", f"{{{TABLE}}}covered-table-cell")
TABLE_ELEMENT = f"{{{TABLE}}}table"  # a sheet, or a chart's data
FORMULA = f"{{{TABLE}}}formula"  # a cell's
ROW = f"{{{TABLE}}}table-row"
NAME = f"{{{TABLE}}}name"
RANGE_ADDRESS = f"{{{TABLE}}}cell-range-address"
# A field's or grand total's own name: LibreOffice's extension, and ODF 1.3's for a grand total.
DISPLAY_NAMES = ("{http://openoffice.org/2009/table}display-name", f"{{{TABLE}}}display-name")
# The cell addresses of ODF's formulas (OpenFormula's "Data.A1:Data.B3", "$'My Sheet'.$A$1:.$B$3"):
# a sheet's name, quoted where it must be (a quote doubled inside), a corner, and the range's other corner.
ADDRESS = re.compile(r"\$?(?:'((?:[^']|'')+)'|([^'.:\s]+))\.(\$?[A-Z]{1,3}\$?\d+)"
                     r"(?::(?:\$?(?:'(?:[^']|'')+'|[^'.:\s]+))?\.(\$?[A-Z]{1,3}\$?\d+))?")


def pivot_header_cells(root: etree._Element) -> set[etree._Element]:
    """The cells (``table:table-cell``) of the spreadsheet in ``root`` (a content.xml's, or a flat
    file's ``office:document``) that head a DataPilot table's source range: the module docstring
    says which; none where ``root`` holds no spreadsheet."""
    spreadsheet = root.find(f"{{{OFFICE}}}body/{{{OFFICE}}}spreadsheet")
    if spreadsheet is None:
        return set()
    sheets = {sheet.get(NAME, "").casefold(): sheet for sheet in spreadsheet.iterchildren(TABLE_ELEMENT)}
    named = {name.get(NAME, "").casefold(): name.get(RANGE_ADDRESS, "")
             for name in spreadsheet.iterfind(f"{{{TABLE}}}named-expressions/{{{TABLE}}}named-range")}
    headers: set[etree._Element] = set()
    for source in spreadsheet.iterfind(f"{{{TABLE}}}data-pilot-tables/{{{TABLE}}}data-pilot-table/"
                                       f"{{{TABLE}}}source-cell-range"):
        address = named.get(source.get(NAME, "").casefold()) or source.get(RANGE_ADDRESS, "")
        match = ADDRESS.fullmatch(address.strip())
        sheet = sheets.get(sheet_name(match).casefold()) if match is not None else None
        if match is not None and sheet is not None:
            first, last = match.group(3, 4)
            headers.update(row_cells(sheet, first_row(f"{first}:{last or first}")))
    return headers


def pivot_name_jobs(root: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for each name a DataPilot table's field, item or grand total was given (the module docstring)
    that has words; the field's ``table:source-field-name``, which names its header, and the item's
    ``table:name``, its value, are kept."""
    named = root.iter(f"{{{TABLE}}}data-pilot-field", f"{{{TABLE}}}data-pilot-grand-total",
                      f"{{{TABLE}}}data-pilot-member")
    return [AttributeJob(element, name, escaped=False) for element in named for name in DISPLAY_NAMES
            if needs_translation(element.get(name, ""), glossary)]


def sheet_name(match: re.Match[str]) -> str:
    """The sheet's name an ADDRESS match gives: a quoted name's doubled quotes read as one."""
    quoted, plain = match.group(1, 2)
    return quoted.replace("''", "'") if quoted is not None else plain


def row_cells(sheet: etree._Element, names: list[str]) -> list[etree._Element]:
    """The cell elements of ``sheet`` at ``names`` (cells of one row: "A1", "B1"), read through
    ``table:number-rows-repeated`` and ``table:number-columns-repeated`` (one element stands for
    a run of alike rows or cells) and the groups rows are in (header rows, row groups)."""
    corners = [corner for name in names if (corner := CELL.fullmatch(name)) is not None]
    row = nth(sheet_rows(sheet), int(corners[0].group(2)), "number-rows-repeated") if corners else None
    cells = list(row.iterchildren(*CELLS)) if row is not None else []
    return [cell for corner in corners
            if (cell := nth(cells, column_number(corner.group(1)), "number-columns-repeated")) is not None]


def sheet_rows(sheet: etree._Element) -> list[etree._Element]:
    """The sheet's rows in order, those in a cell's shape or chart (another table's) left out."""
    return [row for row in sheet.iter(ROW) if next(row.iterancestors(TABLE_ELEMENT)) is sheet]


def nth(elements: list[etree._Element], number: int, attribute: str) -> etree._Element | None:
    """The element of ``elements`` that stands for the ``number``-th (from 1), each standing for as
    many as its ``attribute`` says; None past the last."""
    position = 1
    for element in elements:
        span = repeats(element, attribute)
        if position <= number < position + span:
            return element
        position += span
    return None


def repeats(element: etree._Element, attribute: str) -> int:
    """How many rows or columns ``element`` stands for (its ``table:`` ``attribute``, 1 unless it reads as more:
    config_ranges.written_whole_number, not a superscript "²", which isdigit but int cannot read)."""
    return written_whole_number(element.get(f"{{{TABLE}}}{attribute}", "1")) or 1

