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
and are kept.  A chart linked to a workbook outside the file (what Word's paste of an Excel chart
does by default) has no cells here to follow: its cached labels are translated as text (cache_jobs).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Part, parse_part, read_archive
from attnmt.documents.chart_cells import CACHED, c, cached_points, cx, follow_cells, sheet_members
from attnmt.documents.comments import TextJob
from attnmt.documents.letterless import needs_translation
from attnmt.documents.number_formats import follow_cell_formats
from attnmt.documents.tables import relationships, workbook_part
from attnmt.documents.xstring import text_in

WORKBOOKS = (".xlsx", ".xlsm")  # the embedded packages read as workbooks (an old .xls is an OLE file: cache_jobs)
CHARTS = (c("chartSpace"), cx("chartSpace"))


def chart_workbooks(archive: Archive, parts: Sequence[Part]) -> dict[str, list[Part]]:
    """Each workbook embedded in the file that charts among ``parts`` read (workbook_of) -> those charts' parts."""
    found: dict[str, list[Part]] = {}
    for part in parts:
        workbook = workbook_of(archive, part.member) if part.tree.getroot().tag in CHARTS else None
        if workbook is not None:
            found.setdefault(workbook, []).append(part)
    return found


def workbook_of(archive: Archive, chart: str) -> str | None:
    """The member of the workbook (WORKBOOKS) embedded in the file that the chart part ``chart``
    reads: a chart's relationship to a package is to its data (its ``externalData`` names it; an
    Excel 2016 chart's, ``cx:externalData``, may be left out); None for a chart with none.  A
    linked workbook (a file outside this one, an ``oleObject`` relationship) is no member."""
    return next((related.member for related in relationships(archive, chart).values()
                 if related.mode is None and related.kind.endswith("/package") and related.member in archive
                 and PurePosixPath(related.member).suffix.lower() in WORKBOOKS), None)


def cache_jobs(archive: Archive, member: str, root: etree._Element, glossary: Glossary | None) -> list[TextJob]:
    """A job for each cached label with words (or a term of ``glossary``) of the chart ``root`` of a
    Word document or a presentation (its member ``member``) that reads no workbook embedded in the file:
    one linked to a workbook outside it (Word's and PowerPoint's paste of an Excel chart "Link Data"), an
    old embedded .xls, or none.  Nothing here can follow their cells, and Word and PowerPoint draw the
    labels from the cache until the link is updated, so each is translated as plain text (comments.TextJob);
    updated, the chart reads the linked workbook's cells again.  None for a part that is no chart."""
    if root.tag not in CHARTS or workbook_of(archive, member) is not None:
        return []
    labels = [value for kind in CACHED for reference in root.iter(kind.reference)
              for cache in reference.iter(kind.cache) for _, value in cached_points(kind, cache)]
    return [TextJob(label) for label in labels if label is not None and needs_translation(text_in(label), glossary)]


def follow_workbook(charts: Sequence[Part], source: bytes, translated: bytes, name: str) -> None:
    """The cached labels of ``charts`` made to follow the cells of the workbook they read, whose
    bytes are ``source`` as it came and ``translated`` (chart_cells.follow_cells, given the source
    workbook and its translated sheets and shared strings as the parts that hold them), and their
    formats linked to the cells the cells' formats (number_formats.follow_cell_formats, given its
    translated styles); a chart changed is marked so.  ``name``: the workbook's, for errors."""
    before, after = read_archive(source, name, ".xlsx"), read_archive(translated, name, ".xlsx")
    members = list(sheet_members(before).values())
    workbook = workbook_part(before)
    if workbook is not None:
        members += [related.member for related in relationships(before, workbook).values()
                    if related.kind.endswith(("/sharedStrings", "/styles")) and related.mode is None]
    held = [Part(member, parse_part(after, member)) for member in members if member in after]
    follow_cells(before, [*held, *charts])
    follow_cell_formats(before, [*held, *charts])
