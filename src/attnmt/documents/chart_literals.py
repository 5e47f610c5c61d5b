"""The labels a chart holds as text of its own, not read from cells: a series' name typed in
Excel's "Edit Series" as ``="Dogs seen."`` (``<c:ser><c:tx><c:v>Dogs seen.</c:v></c:tx>``), a
trendline's name (``c:trendline/c:name``, shown in the legend), and categories or series names
given as a list (``={"East","West"}``: ``c:strLit``'s points), and a series' name LibreOffice
writes as a reference to a string literal (``<c:strRef><c:f>"Dogs seen."</c:f>``, its one point
cached), whose formula is written again from the translation (QuotedJob) as Excel reads the name
from it.  They are no paragraphs (a title's ``c:rich`` is, and is translated with DrawingML's) and
no copy of a cell (attnmt.documents.chart_cells), so they stayed in the source while the chart's
title around them was translated; each is plain text, translated line by line (comments.TextJob), where it
has words (a year, "2024", does not).
"""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.chart_cells import c
from attnmt.documents.comments import TextJob
from attnmt.documents.letterless import needs_translation


def literal_jobs(root: etree._Element, glossary: Glossary | None) -> list[TextJob]:
    """A job for each literal label of the chart ``root`` (is_literal) with words, or a term of
    ``glossary`` (letterless.needs_translation), in document order; none for another part."""
    if root.tag != c("chartSpace"):
        return []
    jobs = [QuotedJob(element, formula) if (formula := quoted_formula(element)) is not None else TextJob(element)
            for element in root.iter(c("v"), c("name")) if is_literal(element) or quoted_formula(element) is not None]
    return [job for job in jobs if needs_translation(job.text, glossary)]


class QuotedJob(TextJob):
    """The cached point of a reference to a string literal (quoted_formula): the formula ``f``
    is written again as the quoted translation, so that Excel, which reads the formula, and a
    previewer, which reads the point, show the same name."""

    def __init__(self, element: etree._Element, f: etree._Element) -> None:
        super().__init__(element)
        self.f = f

    def write(self, text: str) -> None:
        super().write(text)
        self.f.text = '"' + text.replace('"', '""') + '"'


def quoted_formula(element: etree._Element) -> etree._Element | None:
    """The ``c:f`` of the ``c:strRef`` whose only cached point is ``element``, where that formula
    is one string literal (``"Dogs seen."``, a quote in it doubled) that reads as the point's text;
    else None."""
    point = element.getparent()
    cache = point.getparent() if point is not None and element.tag == c("v") else None
    if cache is None or cache.tag != c("strCache") or len(cache.findall(c("pt"))) != 1:
        return None
    reference = cache.getparent()
    if reference is None or reference.tag != c("strRef"):
        return None
    f = reference.find(c("f"))
    written = f.text if f is not None else None
    if written is None or not (len(written) >= 2 and written[0] == written[-1] == '"'):
        return None
    return f if written[1:-1].replace('""', '"') == (element.text or "") else None


def is_literal(element: etree._Element) -> bool:
    """Whether a ``c:v`` or ``c:name`` is a label of the chart's own: a series' literal name, a
    trendline's name, a point of a literal list."""
    parent = element.getparent()
    grand = parent.getparent() if parent is not None else None
    if parent is None or grand is None:
        return False
    if element.tag == c("name"):
        return parent.tag == c("trendline")
    return (parent.tag, grand.tag) in ((c("tx"), c("ser")), (c("pt"), c("strLit")))
