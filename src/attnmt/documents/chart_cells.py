"""A workbook's charts' cached labels (``c:strCache``, Excel 2013's data labels from cells,
``c15:dlblRangeCache``, and Excel 2016's charts' ``cx:lvl`` and ``cx:txData``) and its sheets' text
boxes linked to a cell, made to follow the translated cells they are read from.

A chart on a sheet reads its categories, series names and a title taken from a cell out of the
workbook's cells, and keeps a copy of what it read: ``<c:cat><c:strRef><c:f>Data!$A$2:$A$5</c:f>
<c:strCache><c:pt idx="0"><c:v>Item 2</c:v>…``; so do data labels whose text is read from
cells (Excel 2013's "Value From Cells": ``<c15:datalabelsRange><c15:f>…</c15:f>
<c15:dlblRangeCache>``, points as a strCache holds them), and so do Excel 2016's charts
(chartEx: waterfall, funnel, treemap, sunburst, histogram, box and whisker), whose categories keep
their points' text in a level, ``<cx:strDim type="cat"><cx:f>…</cx:f><cx:lvl ptCount="2"><cx:pt
idx="0">Item 2</cx:pt>…``, and a series' name or a title read from a cell its one text, ``<cx:txData>
<cx:f>…</cx:f><cx:v>Dogs</cx:v>``.  The cells are translated (they are the workbook's strings) and
Excel reads them again when it draws the chart; but previewers, converters and libraries draw from
the copy, which kept the source text, so the file said two things.  So once the cells' text is
final (after attnmt.documents.tables, which may give a header cell back its source, as
--below-quality source gives a string), each cached point whose cell shows a string (shared or
inline) takes that string's text.  A cache that holds a point for each of the reference's cells
(its ``ptCount``, a level's attribute, or where it has none, its highest ``idx`` and one) is read
by number: the point ``idx="1"`` is the second cell.  One that holds fewer left some out: the
cells in a hidden row or column, which Excel (unless the chart plots hidden cells) and LibreOffice
do not cache, so the second point may be the third cell; there a point is the cell whose source
text it holds.  So is a point of categories of several levels (``<c:multiLvlStrRef><c:f>Data!$A$2:$B$5
</c:f><c:multiLvlStrCache>``, a level of points for each column, the innermost first, its outer
levels' points only where a cell holds a label), and of a chartEx chart's (a treemap's, a sunburst's:
a ``cx:lvl`` for each column): their reference is a block of cells.

A text box drawn on a sheet may show a cell's text (``=$A$1`` in the formula bar, ``<xdr:sp
textlink="$A$1">``) and keeps a copy of it in a field, ``<a:fld type="TxLink"><a:t>…``, which
LibreOffice draws; the field takes its cell's text as a cached point does.  The link names a cell
of the sheet the text box is drawn on (the sheet whose relationship names the drawing part),
unless it names a sheet.

Left as they are: a point whose cell holds a number, a formula's result or nothing (its cached
value was not translated), a text box linked to such a cell or to more than one, a point of a
cache that left some out whose text no cell held (or cells that now show different texts: its
cell is not certain), and every reference that does not plainly name cells of this workbook
(REFERENCE): another workbook's (``[1]Data!$A$1``), a defined name, several areas, a block of
more than one row and column but for categories of several levels, a sheet the workbook does not
list.  A chart in a Word or PowerPoint file reads a workbook embedded in it, translated on its
own, which its copy follows as here (attnmt.documents.chart_workbooks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.ooxml_dialects import a, s
from attnmt.documents.tables import column_name, column_number, relationships, string_texts, workbook_part
from attnmt.documents.wordml import RELATIONSHIP_ID
from attnmt.documents.xstring import UNWRITABLE, escape, text_in, unescape

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
C15 = "http://schemas.microsoft.com/office/drawing/2012/chart"
CX = "http://schemas.microsoft.com/office/drawing/2014/chartex"
XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
# What XML 1.0 cannot hold in a text box's text, where no escape stands for it as in a cell's.
NOT_XML = re.compile(f"[{UNWRITABLE}]")


def c(name: str) -> str:
    return f"{{{C}}}{name}"


def cx(name: str) -> str:
    return f"{{{CX}}}{name}"


class Cached(NamedTuple):
    """A kind of chart reference that caches its cells' text: its element, its formula's and its
    cache's, the cache's points (None: the cache is one point, which holds one cell's text) and a
    point's text's element (None: the point holds its text itself)."""

    reference: str
    formula: str
    cache: str
    point: str | None = None
    value: str | None = None
    block: bool = False  # it may name a block of cells, categories of several levels: its points matched by text


# A series' categories, name or title (c:strRef), categories of several levels (c:multiLvlStrRef, a
# block of cells: its levels' points held as a strCache holds them), Excel 2013's data labels read from cells
# (c15:datalabelsRange, in the series' extensions), whose cache holds its points as a strCache does;
# a chartEx chart's categories (cx:strDim, its level's points holding their text) and a series'
# name or a title read from a cell (cx:txData, its one value).
CACHED = (Cached(c("strRef"), c("f"), c("strCache"), c("pt"), c("v")),
          Cached(c("multiLvlStrRef"), c("f"), c("multiLvlStrCache"), c("pt"), c("v"), block=True),
          Cached(f"{{{C15}}}datalabelsRange", f"{{{C15}}}f", f"{{{C15}}}dlblRangeCache", c("pt"), c("v")),
          Cached(cx("strDim"), cx("f"), cx("lvl"), cx("pt"), block=True),
          Cached(cx("txData"), cx("f"), cx("v")))
Point = tuple[int | None, etree._Element | None]  # a cached point's number and the element holding its text
# One sheet's cell or range of cells: the sheet's name, quoted where it holds a space or other
# sign (a quote in it doubled), then a cell, or two, ``$`` or not.  No "[" (another workbook's
# sheet, ``[1]Data``), ":" in the name (a range of sheets), "(" or "," (several areas).
REFERENCE = re.compile(r"(?:'((?:[^'\[\]:]|'')+)'|([^'!\[\]:(),\s]+))!"
                       r"\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?")


def follow_cells(archive: Archive, parts: Sequence[Part]) -> None:
    """Each chart's cached labels and each sheet's text box linked to a cell (``parts``' charts and
    drawings) become the text of the cells they name (module docstring), read from the trees in
    ``parts`` as translated, else from the archive; a part changed is marked so (Part.changed)."""
    charts = [part for part in parts if part.tree.getroot().tag in (c("chartSpace"), cx("chartSpace"))]
    references = chart_references(charts)
    drawings = [part for part in parts if part.tree.getroot().tag == f"{{{XDR}}}wsDr"
                and any(shape.get("textlink") for shape in part.tree.getroot().iter(f"{{{XDR}}}sp"))]
    if not references and not drawings:
        return
    members = sheet_members(archive)
    links = text_links(archive, drawings, members)
    wanted: dict[str, set[str]] = {}
    read = [(sheet, cells) for _, _, sheet, cells, _ in references] + [(sheet, cells) for _, _, sheet, cells in links]
    for sheet, cells in read:
        if sheet in members:
            wanted.setdefault(members[sheet], set()).update(cells)
    held = {part.member: part for part in parts}
    strings = next((part for part in parts if part.tree.getroot().tag == s("sst")), None)
    translated = string_texts(strings.tree.getroot()) if strings is not None else []
    roots = {member: sheet_root(archive, held, member) for member in wanted if member in archive}
    texts = {member: shown_texts(root, wanted[member], translated) for member, root in roots.items()}
    # The cells' source text, for the caches that left some cells out (module docstring): read
    # from the archive, which holds every part as it came until the translated ones are written
    # (a sheet not held is the tree read above).
    partial = {members[sheet] for _, _, sheet, _, whole in references if sheet in members and not whole}
    source = string_texts(parse_part(archive, strings.member).getroot()) if strings is not None and partial else []
    sources = {member: shown_texts(parse_part(archive, member).getroot() if member in held else roots[member],
                                   wanted[member], source) for member in partial if member in roots}
    for part, points, sheet, cells, whole in references:
        member = members.get(sheet, "")
        part.changed |= follow_points(points, cells, whole, texts.get(member, {}), sources.get(member, {}))
    for part, field, sheet, cells in links:
        part.changed |= follow_link(field, texts.get(members.get(sheet, ""), {}).get(cells[0]))


def chart_references(charts: Sequence[Part]) -> list[tuple[Part, list[Point], str, list[str], bool]]:
    """Each reference of ``charts`` (CACHED) that holds its cache and names one row or column of
    a sheet (or a block of them, for categories of several levels): its part, its cache's points
    (cached_points), its sheet and cells (referred_cells), and whether the cache holds a point for
    each cell (point_count), which a block's, its levels' points together, does not: each is its
    cells' whose source text it holds."""
    found = []
    for part in charts:
        for kind in CACHED:
            for reference in part.tree.getroot().iter(kind.reference):
                formula, caches = reference.findtext(kind.formula) or "", list(reference.iterchildren(kind.cache))
                named = referred_cells(formula)
                if caches and named is not None:
                    points = cached_points(kind, caches[0])
                    found.append((part, points, *named, point_count(caches[0], points) == len(named[1])))
                elif caches and kind.block and (named := referred_cells(formula, block=True)) is not None:
                    points = [point for cache in caches for point in cached_points(kind, cache)]
                    found.append((part, points, *named, False))
    return found


def text_links(archive: Archive, drawings: Sequence[Part], members: dict[str, str]
               ) -> list[tuple[Part, etree._Element, str, list[str]]]:
    """Each text box of ``drawings`` linked to a cell (``textlink``) that shows it in a TxLink field:
    its part, the field, and the cell's sheet (case-folded) and cell, as referred_cells names them.
    A link names a cell of the sheet whose drawing the part is (the sheet's relationship to it)
    unless it names a sheet; one to no single cell of a sheet is left out."""
    sheets = {related.member: name for name, member in members.items()
              for related in relationships(archive, member).values() if related.kind.endswith("/drawing")}
    found = []
    for part in drawings:
        for shape in part.tree.getroot().iter(f"{{{XDR}}}sp"):
            link = (shape.get("textlink") or "").lstrip("=")
            if "!" not in link and part.member in sheets:
                link = "'" + sheets[part.member].replace("'", "''") + "'!" + link
            field = next((field for field in shape.iter(a("fld")) if field.get("type") == "TxLink"), None)
            named = referred_cells(link) if link and field is not None else None
            if named is not None and len(named[1]) == 1:
                found.append((part, field, *named))
    return found


def follow_link(field: etree._Element, text: str | None) -> bool:
    """A TxLink field's text becomes its cell's ``text`` (None: the cell shows no string, and the
    field keeps what it shows; so does one whose text XML cannot hold).  True where it changed."""
    shown = field.find(a("t"))
    if text is None or shown is None or shown.text == text or NOT_XML.search(text):
        return False
    shown.text = text
    return True


def follow_points(points: list[Point], cells: list[str], whole: bool, shown: dict[str, str],
                  source: dict[str, str]) -> bool:
    """Each of a cache's ``points`` (cached_points) takes the ``shown`` text of its cell (of ``cells``,
    the reference's in order): by its number where the cache holds a point for each cell (``whole``:
    point_count), else the cells whose ``source`` text it holds, where they show one text (module
    docstring).  True where one changed."""
    holding = {} if whole else cells_by_text(cells, source)
    changed = False
    for index, value in points:
        if index is None or value is None:
            continue
        matched = cells[index:index + 1] if whole else holding.get(value.text, [])
        texts = {shown.get(cell) for cell in matched}
        text = texts.pop() if len(texts) == 1 else None
        if text is not None and value.text != escape(text):
            value.text = escape(text)
            changed = True
    return changed


def cells_by_text(cells: list[str], source: dict[str, str]) -> dict[str | None, list[str]]:
    """Each ``source`` text of ``cells``, escaped as a cache writes it -> the cells that hold it, in
    order.  Gathered once for a cache: read again for each point, a range of thousands of cells
    took thousands of times as long."""
    holding: dict[str | None, list[str]] = {}
    for cell in cells:
        if cell in source:
            holding.setdefault(escape(source[cell]), []).append(cell)
    return holding


def cached_points(kind: Cached, cache: etree._Element) -> list[Point]:
    """A cache's points, each its number (its ``idx``; None where that is no number) and the element
    that holds its text (None where it has none); a cache that is one point is the first."""
    if kind.point is None:
        return [(0, cache)]
    return [(written_whole_number(point.get("idx", "")), point if kind.value is None else point.find(kind.value))
            for point in cache.iter(kind.point)]


def point_count(cache: etree._Element, points: list[Point]) -> int | None:
    """The number of points a cache says it holds (``c:ptCount``, a chartEx level's ``ptCount``), None
    where its count is no number.  The schema lets a strCache's count out; then it is the highest
    point's number and one, so a cache whose last point is its reference's last cell is read by
    number, as one that holds each cell, and one whose points stop short of it left some cells out."""
    count = cache.find(c("ptCount"))
    if count is not None or cache.get("ptCount") is not None:
        return written_whole_number(count.get("val", "") if count is not None else cache.get("ptCount", ""))
    return max((number + 1 for number, _ in points if number is not None), default=0)


def referred_cells(formula: str, block: bool = False) -> tuple[str, list[str]] | None:
    """The sheet a chart's reference names (its name case-folded: Excel's sheet names are one in
    any case) and its cells, in the order the chart reads them (along the row or down the
    column); None for one that is not a single row or column of one sheet of this workbook
    (but for a ``block``, whose cells are its columns' one after another)."""
    match = REFERENCE.fullmatch(formula.strip())
    if match is None:
        return None
    first_column, first_row, last_column, last_row = match.group(3, 4, 5, 6)
    sheet = reference_sheet(match)
    columns = sorted((column_number(first_column), column_number(last_column or first_column)))
    rows = sorted((int(first_row), int(last_row or first_row)))
    if columns[0] != columns[1] and rows[0] != rows[1] and not block:
        return None
    cells = [f"{column_name(column)}{row}" for column in range(columns[0], columns[1] + 1)
             for row in range(rows[0], rows[1] + 1)]
    return sheet.casefold(), cells


def reference_sheet(match: re.Match[str]) -> str:
    """The sheet's name a REFERENCE match gives: a quoted name's doubled quotes read as one."""
    quoted, plain = match.group(1, 2)
    return quoted.replace("''", "'") if quoted is not None else plain


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
            texts[name] = "".join(unescape(text_in(t)) for t in cell.iter(s("t")) if t.getparent().tag != s("rPh"))
    return texts
