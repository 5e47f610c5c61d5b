"""A workbook's defined names' comments (``definedName``'s ``comment`` in workbook.xml): what Excel's Name Manager
shows beside each name ("The tax rate of the year"), and the tip it shows beside the name while someone types a
formula.  Words for the reader, they stayed in the source's language in a translated workbook; each is translated
as a line of plain text, as a data validation's message is (validations.AttributeJob).  The name itself and what
it refers to are kept: formulas name it (``=B1*TaxRate``), and so may a macro or another workbook.

Excel's Name Manager takes a comment of at most 255 characters (COMMENT_LIMIT, UTF-16 code units, as Excel
counts); a translation longer than that keeps its source, with a warning naming the file and the name
(``over_comment_limit``), as a validation's message does over its limit."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.cell_limit import utf16_length
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.spans import Nested, plain
from attnmt.documents.validations import AttributeJob
from attnmt.errors import LeftUntranslated, warn

COMMENT = "comment"
COMMENT_LIMIT = 255


class NameCommentJob(AttributeJob):
    """A defined name's comment, escaped as SpreadsheetML's attributes are."""

    def __init__(self, defined: etree._Element) -> None:
        super().__init__(defined, COMMENT)


class WorkbookNames:
    """The workbook part's defined names' comments (the module docstring)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        return [NameCommentJob(defined) for defined in root.iter(s("definedName"))
                if needs_translation(defined.get(COMMENT, ""), glossary)]


def over_comment_limit(job: Job, results: Sequence[Sequence[str | Nested]], name: str) -> bool:
    """Whether ``job`` is a defined name's comment whose translation (``results``, as Job.finish is given them)
    is longer than Excel takes; warned about, naming the file ``name``, where it is."""
    if not isinstance(job, NameCommentJob):
        return False
    length = utf16_length("\n".join(plain(line) for line in results))
    if length <= COMMENT_LIMIT:
        return False
    place = job.lines[0].place
    warn(f"{name}: {place.part if place is not None else 'the workbook'}, the defined name "
         f"{job.element.get('name', '?')}: the translation of its comment is {length} characters long, more than "
         f"the {COMMENT_LIMIT} Excel allows, so the source text is kept there", category=LeftUntranslated)
    return True


WORKBOOK_NAMES = WorkbookNames()
