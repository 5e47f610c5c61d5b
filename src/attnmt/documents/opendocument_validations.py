"""The titles of a spreadsheet's validity messages, which LibreOffice shows beside a cell.

A validity rule (``table:content-validation``) has a help message, shown when its cell is selected,
and an error message, shown when a value the rule refuses is typed; each has a title in an
attribute (``<table:help-message table:title="The answer">``) above its paragraphs.  The paragraphs
are translated as every paragraph is (attnmt.documents.opendocument); the titles stayed in the
source's language above them.  They are plain text, translated line by line as an .xlsx's
``promptTitle`` and ``errorTitle`` are (attnmt.documents.validations); LibreOffice sets no limit on
their length, so none is kept here.
"""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.letterless import needs_translation
from attnmt.documents.opendocument_code import TABLE
from attnmt.documents.validations import AttributeJob

MESSAGES = (f"{{{TABLE}}}help-message", f"{{{TABLE}}}error-message")
TITLE = f"{{{TABLE}}}title"


def message_title_jobs(root: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for the title of each validity message in ``root`` that has words to translate."""
    return [AttributeJob(message, TITLE, escaped=False) for message in root.iter(*MESSAGES)
            if needs_translation(message.get(TITLE, ""), glossary)]
