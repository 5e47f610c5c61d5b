"""An OpenDocument file's data styles' words: a number's, a currency's, a date's or a percentage's style
(``number:number-style``...) may write text beside the value, ``<number:text> items</number:text>``, which
LibreOffice shows in the cell or the field, "5 items", as an .xlsx's quoted literal of a number format
(attnmt.documents.number_formats).  Each such text with words is translated as a line of plain text,
its spaces kept, its source kept where the model garbled it, as a cell's short label's is
(attnmt.documents.office_labels); the style's other elements (the number's digits, a currency's symbol, a date's
parts) are kept."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.comments import TextJob
from attnmt.documents.letterless import needs_translation
from attnmt.documents.xstring import text_in

NUMBER = "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
STYLE_TEXT = f"{{{NUMBER}}}text"


class DataStyleJob(TextJob):
    """A data style's text (``number:text``), which its cell or field shows alone beside the value: a short label
    (attnmt.documents.office_labels)."""


def data_style_jobs(texts: list[etree._Element], glossary: Glossary | None) -> list[DataStyleJob]:
    """A job for each of the data styles' ``texts`` (``number:text``) that has words to translate."""
    return [DataStyleJob(text) for text in texts if needs_translation(text_in(text), glossary)]
