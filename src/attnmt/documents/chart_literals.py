"""The labels a chart holds as text of its own, not read from cells: a series' name typed in
Excel's "Edit Series" as ``="Dogs seen."`` (``<c:ser><c:tx><c:v>Dogs seen.</c:v></c:tx>``), a
trendline's name (``c:trendline/c:name``, shown in the legend), and categories or series names
given as a list (``={"East","West"}``: ``c:strLit``'s points).  They are no paragraphs (a title's
``c:rich`` is, and is translated with DrawingML's) and no copy of a cell (attnmt.documents.chart_cells),
so they stayed in the source while the chart's title around them was translated; each is plain
text, translated line by line (comments.TextJob), where it has words (a year, "2024", does not).
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
    return [TextJob(element) for element in root.iter(c("v"), c("name")) if is_literal(element)
            and needs_translation(element.text or "", glossary)]


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
