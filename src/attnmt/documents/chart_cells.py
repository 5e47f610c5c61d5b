"""A workbook's charts' cached labels (``c:strCache``), made to follow the translated cells they
are read from.

A chart on a sheet reads its categories, series names and a title taken from a cell out of the
workbook's cells, and keeps a copy of what it read: ``<c:cat><c:strRef><c:f>Data!$A$2:$A$5</c:f>
<c:strCache><c:pt idx="0"><c:v>Item 2</c:v>…``.  The cells are translated (they are the workbook's
strings) and Excel reads them again when it draws the chart; but previewers, converters and
libraries draw from the copy, which kept the source text, so the file said two things.  So once
the cells' text is final (after attnmt.documents.tables, which may give a header cell back its
source, as --below-quality source gives a string), each cached point whose cell shows a string
(shared or inline) takes that string's text.

Left as they are: a point whose cell holds a number, a formula's result or nothing (its cached
value was not translated), and every reference that does not plainly name cells of this
workbook (REFERENCE): another workbook's (``[1]Data!$A$1``), a defined name, several areas, a
block of more than one row and column, a sheet the workbook does not list.  Only a workbook's
own charts: a chart in a Word or PowerPoint file reads an embedded workbook, which is kept as it
was, so its copy agrees with it already.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.tables import column_name, column_number, relationships, string_texts, workbook_part
from attnmt.documents.xstring import escape, unescape

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
RELATIONSHIP_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
# One sheet's cell or range of cells: the sheet's name, quoted where it holds a space or other
# sign (a quote in it doubled), then a cell, or two, ``$`` or not.  No "[" (another workbook's
# sheet, ``[1]Data``), ":" in the name (a range of sheets), "(" or "," (several areas).
REFERENCE = re.compile(r"(?:'((?:[^'\[\]:]|'')+)'|([^'!\[\]:(),\s]+))!"
                       r"\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?")


def c(name: str) -> str:
    return f"{{{C}}}{name}"


def follow_cells(archive: Archive, parts: Sequence[Part]) -> None:
    """Each chart's cached labels (``parts``' charts) become the text of the cells their references
    name (module docstring), read from the trees in ``parts`` as translated, else from the archive;
    a chart changed is marked so (Part.changed)."""
    charts = [part for part in parts if part.tree.getroot().tag == c("chartSpace")]
    references = [(part, cache, *named) for part in charts for ref in part.tree.getroot().iter(c("strRef"))
                  if (cache := ref.find(c("strCache"))) is not None
                  and (named := referred_cells(ref.findtext(c("f")) or "")) is not None]
    if not references:
        return
    members = sheet_members(archive)
    wanted: dict[str, set[str]] = {}
    for _, _, sheet, cells in references:
        if sheet in members:
            wanted.setdefault(members[sheet], set()).update(cells)
    held = {part.member: part for part in parts}
    strings = next((part for part in parts if part.tree.getroot().tag == s("sst")), None)
    translated = string_texts(strings.tree.getroot()) if strings is not None else []
    texts = {member: shown_texts(sheet_root(archive, held, member), cells, translated)
             for member, cells in wanted.items() if member in archive}
    for part, cache, sheet, cells in references:
        shown = texts.get(members.get(sheet, ""), {})
        for point in cache.iter(c("pt")):
            index, value = written_whole_number(point.get("idx", "")), point.find(c("v"))
            text = shown.get(cells[index]) if index is not None and index < len(cells) else None
            if value is not None and text is not None and value.text != escape(text):
                value.text = escape(text)
                part.changed = True


def referred_cells(formula: str) -> tuple[str, list[str]] | None:
    """The sheet a chart's reference names (its name case-folded: Excel's sheet names are one in
    any case) and its cells, in the order the chart reads them (along the row or down the
    column); None for one that is not a single row or column of one sheet of this workbook."""
    match = REFERENCE.fullmatch(formula.strip())
    if match is None:
        return None
    quoted, plain, first_column, first_row, last_column, last_row = match.groups()
    sheet = quoted.replace("''", "'") if quoted is not None else plain
    columns = sorted((column_number(first_column), column_number(last_column or first_column)))
    rows = sorted((int(first_row), int(last_row or first_row)))
    if columns[0] != columns[1] and rows[0] != rows[1]:
        return None
    cells = [f"{column_name(column)}{row}" for column in range(columns[0], columns[1] + 1)
             for row in range(rows[0], rows[1] + 1)]
    return sheet.casefold(), cells


def sheet_members(archive: Archive) -> dict[str, str]:
    """Each sheet's name, case-folded, -> its member, as the workbook (the package's main part,
    found through its relationships) lists them; {} for a package without one."""
    workbook = workbook_part(archive)
    if workbook is None:
        return {}
    targets = relationships(archive, workbook)
    return {sheet.get("name", "").casefold(): targets[sheet.get(RELATIONSHIP_ID)].member
            for sheet in parse_part(archive, workbook).getroot().iter(s("sheet"))
            if sheet.get(RELATIONSHIP_ID) in targets}


def sheet_root(archive: Archive, held: dict[str, Part], member: str) -> etree._Element:
    """A sheet as the output holds it: its tree in ``held`` (translated, or changed by
    attnmt.documents.tables), else as the archive has it (a sheet of shared strings only)."""
    return held[member].tree.getroot() if member in held else parse_part(archive, member).getroot()


def shown_texts(sheet: etree._Element, cells: set[str], translated: Sequence[str]) -> dict[str, str]:
    """Of a sheet's ``cells`` (their names, "A2"), those that show a string -> its text: a shared
    string's (``translated``: string_texts, by index) or an inline string's."""
    texts = {}
    for cell in sheet.iter(s("c")):
        name, kind = cell.get("r"), cell.get("t")
        if name not in cells:
            continue
        index = written_whole_number(cell.findtext(s("v")) or "")
        if kind == "s" and index is not None and index < len(translated):
            texts[name] = translated[index]
        elif kind == "inlineStr":
            texts[name] = "".join(unescape(t.text or "") for t in cell.iter(s("t")) if t.getparent().tag != s("rPh"))
    return texts
