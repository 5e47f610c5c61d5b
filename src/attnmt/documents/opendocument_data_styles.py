"""An OpenDocument file's data styles' words: a number's, a currency's, a date's or a percentage's style
(``number:number-style``...) may write text beside the value, ``<number:text> items</number:text>``, which
LibreOffice shows in the cell or the field, "5 items", as an .xlsx's quoted literal of a number format
(attnmt.documents.number_formats).  Each such text with words is translated as a line of plain text,
its spaces kept, its source kept where the model garbled it, as a cell's short label's is
(attnmt.documents.office_labels); the style's other elements (the number's digits, a currency's symbol, a date's
parts) are kept.  A chart's own data styles (its axis's "5 items") are translated so too; one that only styles
linked to their source use (``chart:link-data-style-to-source="true"``) is a copy of the cells', which the chart
shows in its place, and is left (``unlinked``), as an .xlsx chart's linked format is."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.comments import TextJob
from attnmt.documents.letterless import needs_translation
from attnmt.documents.xstring import text_in

NUMBER = "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
CHART = "urn:oasis:names:tc:opendocument:xmlns:chart:1.0"
STYLE_TEXT = f"{{{NUMBER}}}text"


class DataStyleJob(TextJob):
    """A data style's text (``number:text``), which its cell or field shows alone beside the value: a short label
    (attnmt.documents.office_labels)."""


def data_style_jobs(texts: list[etree._Element], glossary: Glossary | None) -> list[DataStyleJob]:
    """A job for each of the data styles' ``texts`` (``number:text``) that has words to translate."""
    return [DataStyleJob(text) for text in texts if needs_translation(text_in(text), glossary)]


def unlinked(texts: list[etree._Element], chart: etree._Element) -> list[etree._Element]:
    """The data styles' ``texts`` of the chart ``chart`` but those of a data style that only styles linked to
    their source name (the module docstring)."""
    linked: set[str] = set()
    own: set[str] = set()
    for style in chart.iter(f"{{{STYLE}}}style"):
        name, properties = style.get(f"{{{STYLE}}}data-style-name"), style.find(f"{{{STYLE}}}chart-properties")
        if name is not None:
            is_linked = properties is not None and properties.get(f"{{{CHART}}}link-data-style-to-source") == "true"
            (linked if is_linked else own).add(name)
    left = linked - own
    return [text for text in texts if text.getparent().get(f"{{{STYLE}}}name") not in left]
