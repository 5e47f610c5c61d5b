"""A chart's series name typed as text in LibreOffice: no cell's, so no table's, it is held in the
series as a string literal, ``<chart:series loext:label-string="&quot;Sales numbers&quot;">`` (a
quote in it doubled, as in a formula), and shown in the legend.  It stayed in the source while the
chart's titles around it were translated; it is now plain text, translated line by line (QuotedJob),
where it has words, as an OOXML chart's literal name is (attnmt.documents.chart_literals)."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import LOEXT
from attnmt.documents.validations import AttributeJob

SERIES = "{urn:oasis:names:tc:opendocument:xmlns:chart:1.0}series"
LABEL_STRING = f"{{{LOEXT}}}label-string"


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
