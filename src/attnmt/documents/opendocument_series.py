"""A chart's series name typed as text in LibreOffice: no cell's, so no table's, it is held in the
series as a string literal, ``<chart:series loext:label-string="&quot;Sales numbers&quot;">`` (a
quote in it doubled, as in a formula), and shown in the legend.  It stayed in the source while the
chart's titles around it were translated; it is now plain text, translated line by line (QuotedJob),
where it has words, as an OOXML chart's literal name is (attnmt.documents.chart_literals).

A chart's table keeps, beside each of its cells' values, the range of the sheet it was read from, as a
description of an empty group: ``<table:table-cell><text:p>Price</text:p><draw:g><svg:desc>Sheet1.B1:Sheet1.B1
</svg:desc></draw:g></table:table-cell>``, which LibreOffice writes and reads back to tie the series to the sheet
again.  It is no alt text, and is kept (``is_cell_range``): translated, "DATA.B1:DATA.B1" (or the model's
"Daten.B1") named no range."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import LOEXT, TABLE
from attnmt.documents.validations import AttributeJob

SERIES = "{urn:oasis:names:tc:opendocument:xmlns:chart:1.0}series"
LABEL_STRING = f"{{{LOEXT}}}label-string"
TABLE_ELEMENT = f"{{{TABLE}}}table"  # a chart's table is its chart:chart's child; a text's or a sheet's is not
CHART = "{urn:oasis:names:tc:opendocument:xmlns:chart:1.0}chart"


class QuotedJob(AttributeJob):
    """A series' ``loext:label-string``: the text the quotes hold, written back quoted."""

    def __init__(self, series: etree._Element) -> None:
        super().__init__(series, LABEL_STRING, escaped=False)

    def written(self) -> str:
        return unquoted(self.element.get(self.name, "")) or ""

    def write(self, text: str) -> None:
        self.element.set(self.name, '"' + text.replace('"', '""') + '"')


def series_name_jobs(root: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for each series of the chart ``root`` named by one string literal that has words."""
    return [QuotedJob(series) for series in root.iter(SERIES)
            if needs_translation(unquoted(series.get(LABEL_STRING, "")) or "", glossary)]


def unquoted(literal: str) -> str | None:
    """The text of the string literal ``literal`` (``"Dogs ""seen""."`` -> ``Dogs "seen".``); None
    where it is not one (several literals joined, a reference)."""
    inner = literal[1:-1]
    whole = len(literal) >= 2 and literal[0] == literal[-1] == '"' and '"' not in inner.replace('""', "")
    return inner.replace('""', '"') if whole else None


def is_cell_range(alt: etree._Element) -> bool:
    """Whether an ``svg:desc`` or ``svg:title`` is a chart's cell's range (the module docstring): in a chart's
    table, not in a picture's frame in a text's table."""
    table = next(alt.iterancestors(TABLE_ELEMENT), None)
    return table is not None and table.getparent() is not None and table.getparent().tag == CHART
