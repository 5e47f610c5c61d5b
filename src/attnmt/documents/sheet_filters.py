"""A worksheet's AutoFilter, and a table's, after the cells are translated.  The values a filter
shows (``<filter val="East side"/>``, a custom filter's ``<customFilter val="East side"/>``) are
the text of cells of its column, which Excel compares, case apart, with what the cells show.
Kept as they were, they named a text no cell holds any longer: Excel's list of the column's values
showed the translated ones unticked, and reapplying the filter (Data > Reapply) hid every row.
So a value that reads the source text of cells of its column (below the filter's header row)
takes their translation, where those cells all show one; any other value (a wildcard's
``*side``, a number, a text no cell held) is kept as it was.  attnmt.documents.office calls
``follow_filters`` once the cells' text is final (attnmt.documents.tables)."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.tables import (
    CELL,
    cell_text,
    column_name,
    column_number,
    sheet_tables,
    string_texts,
    workbook_part,
    worksheets,
)
from attnmt.documents.xstring import escape, unescape

VALUES = (s("filter"), s("customFilter"))  # the values a filter column shows, each in ``val``


def follow_filters(archive: Archive, parts: Sequence[Part]) -> list[Part]:
    """Each filter's values in the sheets and tables of ``parts`` (their trees translated in place,
    the archive's members as they came) follow their cells (module docstring).  Returns the parts
    it changed that ``parts`` did not hold."""
    held = {part.member: part for part in parts}
    strings = next((part for part in parts if part.tree.getroot().tag == s("sst")), None)
    translated = string_texts(strings.tree.getroot()) if strings is not None else []
    sources = string_texts(parse_part(archive, strings.member).getroot()) if strings is not None else []
    tables = sheet_tables(archive)
    added: dict[str, Part] = {}

    def part(member: str) -> Part:
        return held.get(member) or added.setdefault(member, Part(member, parse_part(archive, member)))

    for sheet in worksheets(archive, workbook_part(archive)):
        holders = [member for member in (sheet, *tables.get(sheet, [])) if b"autoFilter" in archive.read(member)]
        if not holders:
            continue
        cells = Cells(part(sheet).tree.getroot(), parse_part(archive, sheet).getroot(), translated, sources)
        for member in holders:
            holder = part(member)
            holder.changed |= follow(holder.tree.getroot(), cells)
    return [part for part in added.values() if part.changed]


class Cells:
    """A sheet's cells, as translated (``sheet``) and as they came (``source``), read by reference
    with the shared strings of each (``translated``, ``sources``: tables.string_texts)."""

    def __init__(self, sheet: etree._Element, source: etree._Element, translated: Sequence[str],
                 sources: Sequence[str]) -> None:
        self.cells = {cell.get("r"): cell for cell in sheet.iter(s("c"))}
        self.source = {cell.get("r"): cell for cell in source.iter(s("c"))}
        self.translated, self.sources = translated, sources

    def translations(self, column: str, rows: range) -> dict[str, set[str]]:
        """What the cells of ``column`` in ``rows`` showed (casefolded) -> what they show now."""
        found: dict[str, set[str]] = {}
        for reference, cell in self.cells.items():  # the cells there are: a filter's range may be a whole column
            place = CELL.fullmatch(reference or "")
            if place is None or place.group(1) != column or int(place.group(2)) not in rows:
                continue
            source = self.source.get(reference)
            if source is None or cell.get("t") not in ("s", "inlineStr"):
                continue
            found.setdefault(cell_text(source, self.sources).casefold(), set()).add(cell_text(cell, self.translated))
        return found


def follow(holder: etree._Element, cells: Cells) -> bool:
    """The values of ``holder``'s AutoFilter (a sheet's or a table's) set to their cells'
    translations (module docstring); whether any changed."""
    changed = False
    for auto_filter in holder.iter(s("autoFilter")):
        first, _, last = auto_filter.get("ref", "").partition(":")
        start, end = CELL.fullmatch(first), CELL.fullmatch(last or first)
        if start is None or end is None:
            continue
        rows = range(int(start.group(2)) + 1, int(end.group(2)) + 1)  # below the header row
        for column in auto_filter.iter(s("filterColumn")):
            offset = written_whole_number(column.get("colId", ""))
            if offset is None:
                continue
            texts = cells.translations(column_name(column_number(start.group(1)) + offset), rows)
            for value in column.iter(*VALUES):
                shown = texts.get(unescape(value.get("val", "")).casefold(), set())
                if len(shown) == 1 and (text := next(iter(shown))) != unescape(value.get("val", "")):
                    value.set("val", escape(text, attribute=True))
                    changed = True
    return changed
