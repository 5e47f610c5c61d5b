"""A spreadsheet cell's or note's sentence wrapped by hand over its lines, in an .ods: LibreOffice makes each line of
a cell a paragraph of its own (``text:p``), and read a paragraph at a time, "A man in a red shirt" / "is playing the
guitar." was translated line by line ("Eine Band spielt Gitarre.").  Two paragraphs of one look in a row, the second
going on in lower case (wrapped_lines.ended_lines, as an .xlsx cell's line feed does: ooxml_dialects.typed_lines),
are joined into one with a line break (``text:line-break``) between: read as one sentence, its break placed between
the translation's words; the part is written with the joined paragraph parted again at its line breaks (LinedPart:
Calc shows no ``text:line-break`` in a cell, and "Hemd" and "spielt" came back glued).  The paragraph is found by the
mark its break carries (JOINED), not kept by name: a translated paragraph writes a copy of what it holds, and a
.fodt's sheet in a frame beside a paragraph's words came back as a copy whose cell kept its break.  A list, an
address, a line starting anew, a header's unit in brackets ("Total" / "(in euros)") stay paragraphs of their own.  A
flat .fods's cells and notes are joined and parted so too (read a paragraph at a time, its wrapped sentence came back
as two).  A cell whose text is its ``office:string-value`` alone is given its paragraphs first (cell_lines), and
joined so too."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from copy import copy
from itertools import accumulate

from lxml import etree

from attnmt.documents.archive import Part
from attnmt.documents.opendocument_cells import value_paragraphs
from attnmt.documents.opendocument_code import OFFICE, TEXT
from attnmt.documents.opendocument_note_labels import is_author_label
from attnmt.documents.opendocument_package import CHART
from attnmt.documents.opendocument_pivots import CELLS
from attnmt.documents.wrapped_lines import ended_lines

PARAGRAPH = f"{{{TEXT}}}p"
LINE_BREAK = f"{{{TEXT}}}line-break"
ANNOTATION = f"{{{OFFICE}}}annotation"  # a cell's note, its lines paragraphs too
DOCUMENT, MIMETYPE = f"{{{OFFICE}}}document", f"{{{OFFICE}}}mimetype"  # a flat file's root, and each chart's in it
# The mark of a line break join puts between two lines, in a namespace of its own: never written, part_lines takes
# each out with its break.
JOINED = "{urn:attnmt:cell-lines}joined"


class LinedPart(Part):
    """A part whose joined paragraphs (join_wrapped_lines) are parted again at their line breaks when written."""

    def written(self, original: bytes) -> bytes:
        self.part_lines()
        return super().written(original)

    def part_lines(self) -> None:
        """Each paragraph that holds a line break marked JOINED parted again at its line breaks, once: a flat file's
        tree is written whole, not by its parts (attnmt.documents.office.translate_flat); a mark left on a break
        that no paragraph holds as its own (inside a span) taken out, and its namespace with it."""
        marked = [line_break for line_break in self.tree.iter(LINE_BREAK) if line_break.get(JOINED) is not None]
        for paragraph in dict.fromkeys(line_break.getparent() for line_break in marked):
            if paragraph is not None and paragraph.tag == PARAGRAPH:
                parted(paragraph)
        for line_break in marked:
            line_break.attrib.pop(JOINED, None)
            etree.cleanup_namespaces(line_break)  # the mark's namespace declared on it


def line_holders(root: etree._Element) -> Iterator[etree._Element]:
    """The cells and notes of ``root`` whose paragraphs are lines: not those of a chart's document inside it (a flat
    file's), whose table is its series' names and values, as an archive's chart's part is never joined."""
    for holder in root.iter(*CELLS, ANNOTATION):
        document = next(holder.iterancestors(DOCUMENT), None)
        if document is None or document.get(MIMETYPE, "").strip() != CHART:
            yield holder


def cell_lines(root: etree._Element) -> list[etree._Element]:
    """The paragraphs of ``root``'s cells and notes (line_holders) made ready to read: a paragraph for each line of a
    string cell's ``office:string-value`` where it has none (opendocument_cells.value_paragraphs), then each cell's
    and note's wrapped lines joined (join_wrapped_lines); the paragraphs added.  Added after the
    joining, a value's "A man in a red shirt" / "is playing the guitar." went to the model as two sentences."""
    holders = list(line_holders(root))
    added = value_paragraphs(holder for holder in holders if holder.tag in CELLS)
    join_wrapped_lines(holders)
    return added


def join_wrapped_lines(holders: Iterable[etree._Element]) -> None:
    """Each paragraph of a cell or a note (``holders``: line_holders) that goes on from the one before it
    (``went_on``) joined to it, a line break between."""
    for holder in holders:
        paragraphs = [child for child in holder if child.tag == PARAGRAPH]
        joined = paragraphs[0] if paragraphs else None
        for after, goes_on in zip(paragraphs[1:], went_on(paragraphs), strict=True):
            if (after.getprevious() is joined and goes_on and dict(joined.attrib) == dict(after.attrib)
                    and not is_author_label(joined)):  # a note's "Ann:" stays a line of its own, kept
                join(holder, joined, after)
            else:
                joined = after


def went_on(paragraphs: list[etree._Element]) -> list[bool]:
    """Whether each paragraph after the first goes on from the one before it, as an .xlsx cell's line after its line
    feed does: ended_lines of the lines of all of them, one text, for which lines end their sentence is a matter of
    the whole cell (wrapped_lines.listed_breaks: a list typed a line an item).  Two at a time, "Fruit" / "3 apples" /
    "pears" read "3 apples pears", where the .xlsx cell of the same lines is a list."""
    lines = ["".join(paragraph.itertext()) for paragraph in paragraphs]
    breaks = list(accumulate(len(line) + 1 for line in lines[:-1]))
    ended = set(ended_lines("\n".join(lines), [at - 1 for at in breaks]))
    return [at - 1 not in ended for at in breaks]


def join(holder: etree._Element, before: etree._Element, after: etree._Element) -> None:
    """``after``'s text and elements moved to the end of ``before``, after a line break marked JOINED; ``after``
    taken out of ``holder``."""
    line_break = etree.SubElement(before, LINE_BREAK, {JOINED: ""})
    line_break.tail = after.text
    before.extend(list(after))
    holder.remove(after)


def parted(paragraph: etree._Element) -> None:
    """``paragraph`` parted into paragraphs of its look at each line break among its children, each taken out."""
    holder, breaks = paragraph.getparent(), [child for child in paragraph if child.tag == LINE_BREAK]
    if holder is None:
        return
    for line_break in reversed(breaks):
        line = copy(paragraph)  # its attributes, and then only what follows the break
        line[:] = list(line_break.itersiblings())
        line.text, line.tail = line_break.tail, None
        paragraph.remove(line_break)
        paragraph.addnext(line)
