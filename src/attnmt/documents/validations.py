"""A worksheet's text: its inline strings (attnmt.documents.ooxml's INLINE_STRING paragraphs), the
text values a writer gives a cell without a formula (``<c t="str"><v>A dog runs.</v></c>``, as
SheetJS writes every string: ``ValueJob``), the
messages of its data validations and its hyperlinks' screen tips, which Excel shows beside a cell:
the input message when the cell is selected (``promptTitle``, ``prompt``), the error when a value
the rule refuses is typed (``errorTitle``, ``error``), and a link's screen tip (``tooltip``) when
the mouse rests on it, as a browser shows an HTML link's ``title``.  Each is plain text in an
attribute of its ``dataValidation`` (Excel 2010's ``x14:dataValidation`` too, which Excel writes
for a list on another sheet) or ``hyperlink``, translated line by line as a comment's text is
(attnmt.documents.comments.TextJob); a rule (``formula1``, ``formula2``) is not translated here,
nor a link's target: a list's item (``"Yes,No"``) that reads a cell's text follows that cell's
translation once the cells are translated (attnmt.documents.sheet_literals), so the rule still
accepts the values its cells hold, and one that no cell holds is translated as the texts a formula
shows are (attnmt.documents.result_literals).

Excel's Data Validation dialog takes a title of at most 32 characters and a message of at most
255 (MESSAGE_LIMITS; XlsxWriter refuses longer ones as over Excel's limit).  A translation runs
longer than its source, so a message whose translation is over its limit keeps its source text,
with one warning naming the file, the sheet and the cells (``over_message_limit``), as a cell's
string does over a cell's limit (attnmt.documents.cell_limit).
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.cell_limit import CELL_CHARACTERS, utf16_length
from attnmt.documents.comments import TextJob
from attnmt.documents.formula_results import array_areas, in_areas
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import INLINE_STRING, s
from attnmt.documents.sheet_headers import header_jobs
from attnmt.documents.spans import Nested, plain
from attnmt.errors import LeftUntranslated, warn

X14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
XM = "http://schemas.microsoft.com/office/excel/2006/main"
# Each message attribute, with the most characters Excel's dialog takes in it (UTF-16 code units, as Excel counts).
MESSAGE_LIMITS = {"promptTitle": 32, "prompt": 255, "errorTitle": 32, "error": 255}
TOOLTIP = "tooltip"  # a hyperlink's screen tip: Excel's Edit Hyperlink dialog names it "ScreenTip"
# What a worksheet holds where it has text to translate: an inline string, a text value (t="str", a
# formula's result too), a message's attribute (a list's validation alone has none), a screen tip or a header;
# one without any is left unparsed.
TEXT_MARKERS = (b"inlineStr", b'"str"', b"'str'", *(name.encode() for name in (*MESSAGE_LIMITS, TOOLTIP)),
                b"Header>", b"Footer>")  # a print header's or footer's end (attnmt.documents.sheet_headers)


class AttributeJob(TextJob):
    """One text held in an attribute (``name``) of ``element``: a data validation's message, a
    hyperlink's screen tip, an OpenDocument link's (attnmt.documents.opendocument); line by line as
    TextJob reads an element's text.  ``escaped``: SpreadsheetML's attributes escape what XML cannot
    hold (``_x0007_``), OpenDocument's do not."""

    def __init__(self, element: etree._Element, name: str, escaped: bool = True) -> None:
        self.name = name
        super().__init__(element, escaped=escaped)

    def written(self) -> str:
        return self.element.get(self.name, "")

    def write(self, text: str) -> None:
        self.element.set(self.name, text)


class ValueJob(TextJob):
    """A cell's text value without a formula (``t="str"``), escaped as SpreadsheetML's strings are:
    the ``<v>`` element's text, line by line as a note's.  Its cell's limit is a string's
    (attnmt.documents.cell_limit)."""

    def __init__(self, value: etree._Element) -> None:
        super().__init__(value, escaped=True)


class Worksheet:
    """A worksheet's texts: its inline strings' paragraphs, its cells' text values, its data
    validations' messages, its hyperlinks' screen tips, then its print headers and footers
    (attnmt.documents.sheet_headers)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        jobs: list[Job] = [*INLINE_STRING.jobs(root, glossary), *value_jobs(root, glossary)]
        for validation in root.iter(s("dataValidation"), f"{{{X14}}}dataValidation"):
            jobs += [AttributeJob(validation, name) for name in MESSAGE_LIMITS
                     if needs_translation(validation.get(name, ""), glossary)]
        jobs += [AttributeJob(link, TOOLTIP) for link in root.iter(s("hyperlink"))
                 if needs_translation(link.get(TOOLTIP, ""), glossary)]
        return jobs + header_jobs(root, glossary)

    @staticmethod
    def may_hold_text(data: bytes) -> bool:
        """Whether a worksheet's bytes may hold text to translate (TEXT_MARKERS): a sheet of numbers
        and shared strings, megabytes of cells, is not parsed."""
        return any(marker in data for marker in TEXT_MARKERS)


def value_jobs(root: etree._Element, glossary: Glossary | None) -> list[Job]:
    """A job for each text value of ``root``'s cells that is no formula's result: a ``t="str"`` cell
    without a formula, outside every array formula's range (whose cells hold its results without
    it: attnmt.documents.formula_results, which takes out those it can compute again)."""
    areas = [area for area, _ in array_areas(root)]
    jobs: list[Job] = []
    for cell in root.iter(s("c")):
        value = cell.find(s("v"))
        if (cell.get("t") != "str" or value is None or cell.find(s("f")) is not None
                or in_areas(cell.get("r", ""), areas)):
            continue
        job = ValueJob(value)
        if needs_translation(job.text, glossary):
            jobs.append(job)
    return jobs


def over_value_limit(job: Job, results: Sequence[Sequence[str | Nested]], name: str) -> bool:
    """Whether ``job`` is a cell's text value whose translation is longer than a cell may hold, as
    cell_limit.over_cell_limit tells for a string; warned about, naming the file ``name``, where it is."""
    if not isinstance(job, ValueJob):
        return False
    length = utf16_length("\n".join(plain(line) for line in results))
    if length <= CELL_CHARACTERS:
        return False
    place, cell = job.lines[0].place, job.element.getparent()
    warn(f"{name}: cell {cell.get('r') if cell is not None else '?'} of "
         f"{place.part if place is not None else 'its sheet'}: its translation is {length:,} characters long, "
         f"more than the {CELL_CHARACTERS:,} Excel allows in a cell, so the source text is kept there",
         category=LeftUntranslated)
    return True


def over_message_limit(job: Job, results: Sequence[Sequence[str | Nested]], name: str) -> bool:
    """Whether ``job`` is a data validation's message whose translation (``results``, as Job.finish
    is given them) is longer than Excel takes; warned about, naming the file ``name``, where it is."""
    # A screen tip has no limit to keep: XlsxWriter, which refuses a message over Excel's, writes one of any length.
    if not isinstance(job, AttributeJob) or job.name not in MESSAGE_LIMITS:
        return False
    length, limit = utf16_length("\n".join(plain(line) for line in results)), MESSAGE_LIMITS[job.name]
    if length <= limit:
        return False
    place = job.lines[0].place
    cells = job.element.get("sqref") or job.element.findtext(f"{{{XM}}}sqref") or "?"
    warn(f"{name}: {place.part if place is not None else 'a sheet'}, the data validation of cells {cells}: "
         f"the translation of its {job.name} is {length} characters long, more than the {limit} Excel allows, "
         "so the source text is kept there", category=LeftUntranslated)
    return True


WORKSHEET = Worksheet()
