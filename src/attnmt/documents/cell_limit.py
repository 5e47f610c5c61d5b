"""Excel's limit on the text of a cell: CELL_CHARACTERS (32,767), counted as Excel counts, in
UTF-16 code units (a character outside the Basic Multilingual Plane, an emoji, is two).  A
translation runs longer than its source (German a third longer than English), and a cell near
the limit went over it: nothing in the file says so, and Excel, opening it, reports the
workbook as damaged and cuts the cell.  So a workbook's string (shared or inline) whose
translation is over the limit keeps its source text, with one warning naming the file and the
string's place (LeftUntranslated), and a review does not list it (the workbook shows the source).
"""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.archive import Job
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import INLINE_STRING, SHARED_STRING, s
from attnmt.documents.spans import Nested, plain
from attnmt.errors import LeftUntranslated, warn

CELL_CHARACTERS = 32_767  # Excel's "Total number of characters that a cell can contain"


def over_cell_limit(job: Job, results: Sequence[Sequence[str | Nested]], name: str) -> bool:
    """Whether ``job`` is a workbook's string whose translation (``results``, as Job.finish is
    given them) is longer than a cell may hold; warned about, naming the file ``name``, where it is."""
    if not isinstance(job, ParagraphJob) or job.dialect not in (SHARED_STRING, INLINE_STRING):
        return False
    length = utf16_length(plain(results[0]))
    if length <= CELL_CHARACTERS:
        return False
    warn(f"{name}: {string_place(job)}: its translation is {length:,} characters long, more than the "
         f"{CELL_CHARACTERS:,} Excel allows in a cell, so the source text is kept there", category=LeftUntranslated)
    return True


def utf16_length(text: str) -> int:
    """The length of ``text`` as Excel counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def string_place(job: ParagraphJob) -> str:
    """Where the string is: a shared string by its index (which the cells' ``<v>`` give), an
    inline one by its cell and sheet's member."""
    member = job.flat.place.part if job.flat.place is not None else None
    if job.dialect is SHARED_STRING:
        index = sum(1 for _ in job.paragraph.itersiblings(s("si"), preceding=True))
        return f"shared string {index} of {member or 'the shared strings'}"
    cell = job.paragraph.getparent()
    return f"cell {cell.get('r') if cell is not None else '?'} of {member or 'its sheet'}"
