"""A spreadsheet's filters after its cells are translated, as an .xlsx's AutoFilter's
(attnmt.documents.sheet_filters).

LibreOffice saves an AutoFilter or a standard filter as a database range
(``<table:database-range table:target-range-address="Data.A1:Data.B4">``) whose conditions
(``table:filter-condition``) each name a column (``table:field-number``, counted from the range's
first) and the text its cells are compared with (``table:value``; an AutoFilter's list of ticked
values, each ``table:filter-set-item``'s).  Kept as they were, they named a text no cell held any
longer, and the filter, applied again, hid every row.  So a value that reads the source text of
cells of its column (below the range's header row, where it has one) takes their translation,
by attnmt.documents.followed_texts' rule; any other value (a number's, a regular expression's, a text no
cell held) is kept.  A flat .fods's filters are read against the file parsed again as it came
(attnmt.documents.office.translate_flat), its tree having been translated in place."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.followed_texts import Followed
from attnmt.documents.opendocument_code import OFFICE, TABLE, TEXT
from attnmt.documents.opendocument_pivots import (
    ADDRESS,
    CELLS,
    FORMULA,
    NAME,
    TABLE_ELEMENT,
    nth,
    repeats,
    sheet_name,
    sheet_rows,
)
from attnmt.documents.tables import CELL, column_number

CONTENT = "content.xml"
DATABASE_RANGE = f"{{{TABLE}}}database-range"
CONDITION = f"{{{TABLE}}}filter-condition"
SET_ITEM = f"{{{TABLE}}}filter-set-item"
VALUE = f"{{{TABLE}}}value"
STRING_VALUE = f"{{{OFFICE}}}string-value"


def follow_database_filters(archive: Archive, parts: Sequence[Part]) -> None:
    """The filters of the spreadsheet in ``parts``' content.xml (its tree translated in place, the
    archive's member as it came) follow their cells (module docstring)."""
    content = next((part for part in parts if part.member == CONTENT), None)
    if content is None or b"database-range" not in archive.read(CONTENT):
        return
    content.changed |= follow_ranges(content.tree.getroot(), parse_part(archive, CONTENT).getroot())


def follow_ranges(root: etree._Element, source: etree._Element) -> bool:
    """The values of the filters in ``root`` (a content.xml's, translated) set to their cells'
    translations, read against ``source`` (the same, as it came); whether any changed."""
    sheets, source_sheets = spreadsheet_tables(root), spreadsheet_tables(source)
    changed = False
    for database_range in root.iter(DATABASE_RANGE):
        match = ADDRESS.fullmatch(database_range.get(f"{{{TABLE}}}target-range-address", "").strip())
        name = sheet_name(match).casefold() if match is not None else ""
        if match is None or name not in sheets or name not in source_sheets:
            continue
        first, last = (corner.replace("$", "") for corner in (match.group(3), match.group(4) or match.group(3)))
        start, end = CELL.fullmatch(first), CELL.fullmatch(last)
        if start is None or end is None:
            continue
        headed = database_range.get(f"{{{TABLE}}}contains-header", "true") != "false"
        rows = range(int(start.group(2)) + headed, int(end.group(2)) + 1)
        for condition in database_range.iter(CONDITION):
            field = written_whole_number(condition.get(f"{{{TABLE}}}field-number", ""))
            if field is None or condition.get(f"{{{TABLE}}}data-type") == "number":
                continue
            column = column_number(start.group(1)) + field
            texts = Followed()
            now = column_texts(sheets[name], column, rows)
            for row, was in column_texts(source_sheets[name], column, rows).items():
                if row in now:
                    texts.add(was, now[row])
            for holder in (condition, *condition.iter(SET_ITEM)):
                value = holder.get(VALUE)
                if value is not None and (text := texts.of(value)) is not None:
                    holder.set(VALUE, text)
                    changed = True
    return changed


def spreadsheet_tables(root: etree._Element) -> dict[str, etree._Element]:
    """The sheets of the spreadsheet in ``root``, by their names casefolded."""
    spreadsheet = root.find(f"{{{OFFICE}}}body/{{{OFFICE}}}spreadsheet")
    return {} if spreadsheet is None else {sheet.get(NAME, "").casefold(): sheet
                                          for sheet in spreadsheet.iterchildren(TABLE_ELEMENT)}


def column_texts(sheet: etree._Element, column: int, rows: range) -> dict[int, str]:
    """The text of each string cell (not a formula's) of ``sheet`` in ``column`` (from 1) and ``rows``, by the number of
    the first row its row element stands for (a run of alike rows, ``number-rows-repeated``, is one)."""
    texts = {}
    position = 1
    for row in sheet_rows(sheet):
        span = repeats(row, "number-rows-repeated")
        if position + span > rows.start and position < rows.stop:
            cell = nth(list(row.iterchildren(*CELLS)), column, "number-columns-repeated")
            # a formula's text result may have been taken out, to be computed again (opendocument_formulas)
            string = cell is not None and cell.get(f"{{{OFFICE}}}value-type", "string") == "string"
            if cell is not None and string and cell.get(FORMULA) is None:
                texts[position] = cell_text(cell)
        position += span
        if position >= rows.stop:
            break
    return texts



def cell_text(cell: etree._Element) -> str:
    """The text a string cell shows: its ``office:string-value``, which LibreOffice shows in place of
    its paragraphs (odfpy writes it without them), else its paragraphs' text, a line each."""
    value = cell.get(STRING_VALUE)
    return value if value is not None else "\n".join("".join(p.itertext()) for p in cell.iterchildren(f"{{{TEXT}}}p"))
