"""The workbooks that a Word document's or a presentation's charts read, and the labels the charts
keep of them.

A chart in a .docx or .pptx reads its categories, series names and a title taken from a cell
out of a workbook embedded in the file (``ppt/embeddings/Microsoft_Excel_Worksheet.xlsx``, the
chart's relationship to a package), and keeps a copy of what it read in its
own part (``c:strCache``), which PowerPoint, Word and LibreOffice draw until the data is edited.
The chart's titles were translated and its labels kept: the slide showed "Verkäufe nach
Region" over "East" and "West".  So the workbook is translated as an .xlsx file is (its
strings, its tables' column names following their headers, ...: attnmt.documents.office),
and the chart's copy then follows its translated cells (attnmt.documents.chart_cells), so
the two agree and "Edit Data" does not bring the source text back.  Numbers are no strings,
and are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from attnmt.documents.archive import Archive, Part, parse_part, read_archive
from attnmt.documents.chart_cells import c, cx, follow_cells, sheet_members
from attnmt.documents.tables import relationships, workbook_part

WORKBOOKS = (".xlsx", ".xlsm")  # the embedded packages read as workbooks (an old .xls is an OLE file: kept)


def chart_workbooks(archive: Archive, parts: Sequence[Part]) -> dict[str, list[Part]]:
    """Each workbook embedded in the file (WORKBOOKS) that charts among ``parts`` read -> those
    charts' parts: a chart's relationship to a package is to its data (its ``externalData`` names
    it; an Excel 2016 chart's, ``cx:externalData``, may be left out).  A linked workbook (a file
    outside this one) is no member, and is not read."""
    found: dict[str, list[Part]] = {}
    for part in parts:
        if part.tree.getroot().tag not in (c("chartSpace"), cx("chartSpace")):
            continue
        for related in relationships(archive, part.member).values():
            if (related.mode is None and related.kind.endswith("/package") and related.member in archive
                    and PurePosixPath(related.member).suffix.lower() in WORKBOOKS):
                found.setdefault(related.member, []).append(part)
    return found


def follow_workbook(charts: Sequence[Part], source: bytes, translated: bytes, name: str) -> None:
    """The cached labels of ``charts`` made to follow the cells of the workbook they read, whose
    bytes are ``source`` as it came and ``translated`` (chart_cells.follow_cells, given the source
    workbook and its translated sheets and shared strings as the parts that hold them); a chart
    changed is marked so.  ``name``: the workbook's, for errors."""
    before, after = read_archive(source, name, ".xlsx"), read_archive(translated, name, ".xlsx")
    members = list(sheet_members(before).values())
    workbook = workbook_part(before)
    if workbook is not None:
        members += [related.member for related in relationships(before, workbook).values()
                    if related.kind.endswith("/sharedStrings") and related.mode is None]
    held = [Part(member, parse_part(after, member)) for member in members if member in after]
    follow_cells(before, [*held, *charts])
