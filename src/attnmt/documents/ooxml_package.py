"""An Office Open XML file's package: each member's content type ([Content_Types].xml), the parts
that hold text by their types (OOXML_PARTS), and the checks that the file is the one its extension
says, whole, and in Transitional XML; a file that fails one is refused with one line, where it would
otherwise come back untranslated with no word said.  attnmt.documents.ooxml_parts finds the parts
with them, and attnmt.documents.office translates them."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import Protocol

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Job, Part, parse_part
from attnmt.documents.comments import CELL_COMMENTS, POWERPOINT_COMMENTS, THREADED_COMMENTS
from attnmt.documents.number_formats import NUMBER_FORMATS
from attnmt.documents.ooxml_dialects import DRAWING, SHARED_STRING, WORD, s
from attnmt.documents.pivot_captions import PIVOT_CAPTIONS
from attnmt.documents.sheet_headers import CHART_SHEET
from attnmt.documents.slide_masters import MASTER_SHAPES
from attnmt.documents.slide_sections import SLIDE_SECTIONS
from attnmt.documents.tables import Relationship, relationships
from attnmt.documents.validations import WORKSHEET
from attnmt.documents.word_numbering import WORD_NUMBERING
from attnmt.documents.wordml import RELATIONSHIP_ID
from attnmt.documents.workbook_names import WORKBOOK_NAMES
from attnmt.errors import DataError
from attnmt.text.xml_start import first_element

CONTENT_TYPES = "[Content_Types].xml"
TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
# Charts' titles and labels written as text, Excel 2016's charts' too (chartEx: waterfall, funnel,
# treemap, sunburst, histogram, box and whisker; cx:rich), the text boxes and shapes drawn on a chart
# (its "user shapes": cdr:sp/cdr:txBody, a part of their own), and SmartArt (its data, and the
# drawing made of it that Office shows), in any of the three formats: DrawingML paragraphs.
CHARTS_AND_SMARTART = tuple((end, DRAWING) for end in (".drawingml.chart+xml", ".ms-office.chartex+xml",
                                                       ".drawingml.chartshapes+xml", ".drawingml.diagramData+xml",
                                                       ".drawingml.diagramDrawing+xml"))


class Texts(Protocol):
    """How a part's text is found: its paragraphs' dialect (attnmt.documents.ooxml_dialects.Dialect), or
    its comments' kind (attnmt.documents.comments)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> Sequence[Job]:
        """A job for each text of ``root`` with words, or a term of ``glossary`` (letterless.needs_translation)."""
        ...


# The content types of the parts that hold text, by how their type ends, with how their text is found,
# in the order a reader meets them (``reading_order``).  PowerPoint's modern comments
# ("vnd.ms-powerpoint.comments+xml") hold DrawingML paragraphs; slide masters and layouts the shapes
# they draw on the slides, and the notes and handout masters those on printed pages, not their
# placeholders (attnmt.documents.slide_masters); a worksheet, its inline strings
# and its data validations' messages (attnmt.documents.validations); a pivot table, its captions
# (attnmt.documents.pivot_captions); a chart sheet, its print headers and footers
# (attnmt.documents.sheet_headers); the presentation itself, its sections' names
# (attnmt.documents.slide_sections); the workbook itself, its defined names' comments
# (attnmt.documents.workbook_names); its styles, the words of its number formats
# (attnmt.documents.number_formats).  A Word document's glossary document holds the placeholders its
# content controls show while empty ("Click or tap here to enter text."), and its building blocks.
OOXML_PARTS: dict[str, tuple[tuple[str, Texts], ...]] = {
    ".docx": (*((end, WORD) for end in (".main+xml", ".header+xml", ".footer+xml", ".footnotes+xml",
                                        ".endnotes+xml", ".comments+xml", ".glossary+xml")),
              (".numbering+xml", WORD_NUMBERING), *CHARTS_AND_SMARTART),
    ".pptx": ((".slide+xml", DRAWING), (".notesSlide+xml", DRAWING),
              (".presentationml.comments+xml", POWERPOINT_COMMENTS), (".ms-powerpoint.comments+xml", DRAWING),
              *((end, MASTER_SHAPES) for end in (".slideMaster+xml", ".slideLayout+xml", ".notesMaster+xml",
                                                 ".handoutMaster+xml")), *CHARTS_AND_SMARTART,
              (".main+xml", SLIDE_SECTIONS)),
    ".xlsx": ((".sharedStrings+xml", SHARED_STRING), (".worksheet+xml", WORKSHEET),
              (".comments+xml", CELL_COMMENTS), (".threadedcomments+xml", THREADED_COMMENTS),
              ("-officedocument.drawing+xml", DRAWING), (".pivotTable+xml", PIVOT_CAPTIONS), *CHARTS_AND_SMARTART,
              (".chartsheet+xml", CHART_SHEET), (".main+xml", WORKBOOK_NAMES), (".styles+xml", NUMBER_FORMATS)),
}


# What each format's main part's content type names (also in its macro and template variants:
# ms-word.document.macroEnabled.main+xml, wordprocessingml.template.main+xml, ...), and what the file is.
APPLICATIONS = {".docx": ("wordprocessingml", "ms-word"), ".pptx": ("presentationml", "ms-powerpoint"),
                ".xlsx": ("spreadsheetml", "ms-excel")}
KINDS = {".docx": "a Word document", ".pptx": "a PowerPoint presentation", ".xlsx": "an Excel workbook"}
# ISO/IEC 29500 Strict's namespaces (Word's "Strict Open XML Document"), where Transitional's are
# http://schemas.openxmlformats.org/...: the same parts, whose elements the dialects do not name.
STRICT = "http://purl.oclc.org/ooxml/"
STRICT_HEAD = 65536  # bytes of a main part read for its root element, namespaces and all
# A cell that shows a shared string (t="s"): a sheet without one is not read for check_shared_string_cells.
SHARED_CELL = re.compile(rb"""\st\s*=\s*["']s["']""")
# A shared string cell as Excel and LibreOffice write it, its index: <c r="A2" s="1" t="s"><v>7</v></c> (all_within).
SHARED_VALUE = re.compile(rb"""<(?:[\w.-]+:)?c\s[^<>]*?\st\s*=\s*["']s["'][^<>]*(?<!/)>"""
                          rb"""\s*<(?:[\w.-]+:)?v>\s*([0-9]+)\s*<""")
INTEGER = re.compile(r"-?[0-9]+")  # a shared string's index as a cell's <v> holds it (-1: one some writers leave)
SAVE_AS = {".docx": "a Word Document (.docx)", ".pptx": "a PowerPoint Presentation (.pptx)",
           ".xlsx": "an Excel Workbook (.xlsx)"}


def content_types(archive: Archive, types: etree._Element) -> dict[str, str]:
    """Each member's content type: its ``Override``'s (the part it names, its name's case apart:
    ``Archive.part``), in their order, then, for the members that have none, their extension's
    ``Default`` (an XML part may take its type from there)."""
    kinds = {}
    for override in types.iterchildren(f"{{{TYPES}}}Override"):
        member = archive.part(override.get("PartName", "").lstrip("/"))
        if member is not None:
            kinds[member] = override.get("ContentType", "")
    defaults = {d.get("Extension", "").lower(): d.get("ContentType", "")
                for d in types.iterchildren(f"{{{TYPES}}}Default")}
    for member in archive.names():
        extension = PurePosixPath(member).suffix.lstrip(".").lower()
        if member not in kinds and extension in defaults:
            kinds[member] = defaults[extension]
    return kinds


def check_main_part(archive: Archive, kinds: dict[str, str], suffix: str, named: str) -> str:
    """The file's main part (its member); DataError where it is not its extension's (a workbook
    named .docx would come back untranslated), naming what the file is."""
    mains = {member: kind for member, kind in kinds.items() if kind.endswith(".main+xml")}

    def of(app: str) -> str | None:
        return next((member for member, kind in mains.items() if any(mark in kind for mark in APPLICATIONS[app])),
                    None)

    main = of(suffix)
    if main is not None:
        return main
    found = next((app for app in APPLICATIONS if of(app)), None)
    if found:
        raise DataError(f"{archive.name}: the file is {KINDS[found]}, not a {named} file: give it its own "
                        f"extension ({found}) and translate it again")
    raise DataError(f"{archive.name}: no part of the file is {KINDS[suffix]}'s main part (its document, "
                    f"presentation or workbook); this is not a {named} file")


def check_transitional(archive: Archive, main: str, suffix: str) -> None:
    """DataError where the main part is in Strict Open XML's namespaces (STRICT): none of its
    paragraphs would be found, and it came back untranslated, as it was.  Only the root's start
    is read (a document's body may be megabytes); a part that does not start as XML is left to
    the reading of its text."""
    root = first_element(archive.read(main, STRICT_HEAD))
    if root is None:
        return
    if root.tag.startswith(f"{{{STRICT}"):
        raise DataError(f"{archive.name}: the file uses Strict Open XML (member {main}), which attnmt does "
                        f"not read; save it as {SAVE_AS[suffix]} and translate it again")


def check_text_parts(archive: Archive, types: etree._Element, main: str, suffix: str) -> None:
    """DataError where a part that holds text (OOXML_PARTS) is missing though [Content_Types].xml
    gives its type and the main part's relationships name it (a workbook's xl/sharedStrings.xml):
    its text, and every cell that points into it, came back untranslated, with no word said.  Part
    names are compared as the Open Packaging Conventions compare them, case-insensitively: a
    member xl/SharedStrings.xml is the xl/sharedStrings.xml they name, and is translated."""
    holding = {override.get("PartName", "").lstrip("/").casefold()
               for override in types.iterchildren(f"{{{TYPES}}}Override")
               if any(override.get("ContentType", "").endswith(end) for end, _ in OOXML_PARTS[suffix])}
    for related in relationships(archive, main).values():
        if related.mode is None and related.member.casefold() in holding and related.member not in archive:
            raise DataError(f"{archive.name}: member {related.member} is missing, though {main} and "
                            f"{CONTENT_TYPES} name it; the file is damaged")


def check_shared_string_cells(archive: Archive, main: str, parts: Sequence[Part]) -> None:
    """DataError naming the sheet and the cell where a workbook's cell (``t="s"``) points to a shared
    string it does not have (``parts``: the workbook's, its shared strings among them; ``main``: the
    workbook part): past the last of xl/sharedStrings.xml's, or any where it has none.  Such a workbook
    came back translated, exit 0, with the cell as empty as LibreOffice shows it; Excel says the file is
    damaged and repairs it, dropping the cell."""
    targets = relationships(archive, main)
    strings = shared_strings(archive, targets, parts)
    held = "the workbook has no shared strings part" if strings is None else f"{strings[0]} holds {strings[1]}"
    count = 0 if strings is None else strings[1]
    for sheet in parse_part(archive, main).getroot().iter(s("sheet")):
        related = targets.get(sheet.get(RELATIONSHIP_ID))
        if related is None or related.mode is not None or related.member not in archive:
            continue
        data = archive.read(related.member)
        if not SHARED_CELL.search(data) or all_within(data, count):
            continue
        for cell, index in shared_string_indexes(data):
            if not 0 <= index < count:
                raise DataError(f"{archive.name}: cell {cell} of sheet {sheet.get('name')!r} ({related.member}) "
                                f"refers to shared string {index}, but {held}; the file is damaged (Excel repairs it, "
                                "dropping the cell): open it in Excel or LibreOffice, save it again and translate that")


def shared_strings(archive: Archive, targets: dict[str, Relationship], parts: Sequence[Part]) -> tuple[str, int] | None:
    """The workbook's shared strings part (among ``parts``, else as the workbook's relationships,
    ``targets``, name it: Excel reads one that [Content_Types].xml gives no type) and how many
    strings it holds; None where it has none."""
    found = next((part for part in parts if part.tree.getroot().tag == s("sst")), None)
    if found is not None:
        return found.member, sum(1 for _ in found.tree.getroot().iterchildren(s("si")))
    member = next((related.member for related in targets.values() if related.kind.endswith("/sharedStrings")
                   and related.mode is None and related.member in archive), None)
    if member is None:
        return None
    return member, sum(1 for _ in parse_part(archive, member).getroot().iterchildren(s("si")))


def all_within(data: bytes, count: int) -> bool:
    """Whether every ``t="s"`` of a sheet's bytes is a cell whose first child is a ``<v>`` of an index
    under ``count``, as Excel and LibreOffice write them (SHARED_VALUE): the check at a regular
    expression's speed, where parsing the cells (shared_string_indexes) took 0.68 of the 1.09 s that a
    workbook of 20,000 rows of shared strings took to translate.  False where any is not so found (a
    comment, an entity, a self-closing cell): the cells are then parsed, and the one at fault named."""
    found = 0
    for match in SHARED_VALUE.finditer(data):
        if int(match[1]) >= count:
            return False
        found += 1
    return found == len(SHARED_CELL.findall(data))


def shared_string_indexes(data: bytes) -> Iterator[tuple[str, int]]:
    """Each cell of a sheet's bytes that shows a shared string: its name (A2) and index (its ``<v>``,
    an integer; one that is none, a "²", is read as no string, as chart_cells reads it), read as a
    stream: a sheet of numbers may be megabytes, and is not otherwise parsed (WORKSHEET.may_hold_text).
    A sheet that is not well-formed XML ends it: its reading as a part says so, where it is read."""
    cells = etree.iterparse(io.BytesIO(data), events=("end",), tag=s("c"), resolve_entities=False, no_network=True,
                            load_dtd=False)
    try:
        for _, cell in cells:
            value = (cell.findtext(s("v")) or "").strip()
            if cell.get("t") == "s" and INTEGER.fullmatch(value):
                yield cell.get("r", "?"), int(value)
            cell.clear()
            while cell.getprevious() is not None:
                del cell.getparent()[0]
    except etree.XMLSyntaxError:
        return
