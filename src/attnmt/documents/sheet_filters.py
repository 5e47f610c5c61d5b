"""A worksheet's AutoFilter, and a table's, after the cells are translated.  The values a filter
shows (``<filter val="East side"/>``, a custom filter's ``<customFilter val="East side"/>``) are
the text of cells of its column, which Excel compares, case apart, with what the cells show.
Kept as they were, they named a text no cell holds any longer: Excel's list of the column's values
showed the translated ones unticked, and reapplying the filter (Data > Reapply) hid every row.
So a value that reads the source text of cells of its column (below the filter's header row)
takes their translation, by attnmt.documents.followed_texts' rule; any other value (a wildcard's
``*side``, a number, a text no cell held) is kept as it was.  So does a hyperlink's ``display``, the
text its cell showed when the link was made (``<hyperlink ref="A4" display="Back to the top."/>``),
which Excel's Edit Hyperlink dialog shows and writes back into the cell: one that reads its cell's
source text takes the cell's translation; any other is kept.  attnmt.documents.office calls
``follow_filters`` once the cells' text is final (attnmt.documents.tables)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.followed_texts import Followed
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
STRINGS = ("s", "inlineStr")  # the types of a cell that shows a string: shared, inline


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
        linked = b"display" in archive.read(sheet)
        if not holders and not linked:
            continue
        cells = Cells(part(sheet).tree.getroot(), parse_part(archive, sheet).getroot(), translated, sources)
        for member in holders:
            holder = part(member)
            holder.changed |= follow(holder.tree.getroot(), cells)
        if linked:
            part(sheet).changed |= follow_links(part(sheet).tree.getroot(), cells)
    return [part for part in added.values() if part.changed]


class Cells:
    """A sheet's cells, as translated (``sheet``) and as they came (``source``), read by reference
    with the shared strings of each (``translated``, ``sources``: tables.string_texts)."""

    def __init__(self, sheet: etree._Element, source: etree._Element, translated: Sequence[str],
                 sources: Sequence[str]) -> None:
        self.cells = {cell.get("r"): cell for cell in sheet.iter(s("c"))}
        self.source = {cell.get("r"): cell for cell in source.iter(s("c"))}
        self.translated, self.sources = translated, sources

    def pairs(self) -> Iterator[tuple[str, str, str]]:
        """Each string cell's reference, source text and text now; a cell of another kind (a number's,
        a formula's) is left out."""
        for reference, cell in self.cells.items():
            source = self.source.get(reference)
            if reference and source is not None and shows_string(cell) and shows_string(source):
                yield reference, cell_text(source, self.sources), cell_text(cell, self.translated)

    def translations(self, column: str, rows: range) -> Followed:
        """What the cells of ``column`` in ``rows`` showed and show now."""
        found = Followed()
        for reference, was, now in self.pairs():  # the cells there are: a filter's range may be a whole column
            place = CELL.fullmatch(reference)
            if place is not None and place.group(1) == column and int(place.group(2)) in rows:
                found.add(was, now)
        return found


def shows_string(cell: etree._Element) -> bool:
    """Whether ``cell`` shows a string of its own: a shared or an inline one (STRINGS), or a text
    value without a formula (``t="str"``, as SheetJS writes text: attnmt.documents.validations)."""
    return cell.get("t") in STRINGS or cell.get("t") == "str" and cell.find(s("f")) is None


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
                if (text := texts.of(unescape(value.get("val", "")))) is not None:
                    value.set("val", escape(text, attribute=True))
                    changed = True
    return changed


def follow_links(sheet: etree._Element, cells: Cells) -> bool:
    """The ``display`` of each of ``sheet``'s hyperlinks that reads its cell's source text (the first
    cell of its ``ref``) set to the cell's text now; whether any changed."""
    shown = {reference: (was, now) for reference, was, now in cells.pairs()}
    changed = False
    for link in sheet.iter(s("hyperlink")):
        was, now = shown.get(link.get("ref", "").partition(":")[0], ("", ""))
        if was and was != now and unescape(link.get("display", "")) == was:
            link.set("display", escape(now, attribute=True))
            changed = True
    return changed
