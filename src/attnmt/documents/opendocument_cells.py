"""A spreadsheet cell's paragraphs in an .ods, and its value.  A cell whose value is not a string (a number, a date,
a formula's) is not translated (is_value; an annotation or a shape on it is: its paragraphs are not the cell's,
holding_cell).  A translated string cell loses its ``office:string-value``, the source text LibreOffice would show in
place of its paragraphs (drop_string_values).  A string cell with that attribute and no paragraph (odfpy's
``TableCell(valuetype="string", stringvalue=…)``) is given a paragraph of it, one a line (value_paragraphs),
translated as any paragraph is: the cell LibreOffice itself writes; where nothing of it is translated, the cell is
given back as it was (take_back)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from attnmt.documents.opendocument_code import OFFICE, TEXT
from attnmt.documents.opendocument_pivots import CELLS, FORMULA

STRING_VALUE = f"{{{OFFICE}}}string-value"


def is_value(paragraph: etree._Element) -> bool:
    """Whether the paragraph shows a spreadsheet cell's number, date or formula result."""
    cell = holding_cell(paragraph)
    if cell is None:
        return False
    kind = cell.get(f"{{{OFFICE}}}value-type")
    return cell.get(FORMULA) is not None or kind not in (None, "string")


def holding_cell(paragraph: etree._Element) -> etree._Element | None:
    """The spreadsheet cell whose content the paragraph is: the cell holds it, with only text
    elements (a list) between (an annotation or a shape in between holds words of its own)."""
    cell = next((e for e in paragraph.iterancestors() if not e.tag.startswith(f"{{{TEXT}}}")), None)
    return cell if cell is not None and cell.tag in CELLS else None


def drop_string_values(paragraphs: list[etree._Element]) -> None:
    """The ``office:string-value`` of the string cells that hold the translated ``paragraphs`` taken out: where a
    cell has one, LibreOffice shows it, not the paragraphs (odfpy writes it, and pandas through it), so the cell
    showed its source text.  Without it the cell's value is its text, as ODF says, and the file stays valid."""
    for paragraph in paragraphs:
        cell = holding_cell(paragraph)
        if cell is not None:
            cell.attrib.pop(STRING_VALUE, None)


def value_paragraphs(cells: Iterable[etree._Element]) -> list[etree._Element]:
    """A paragraph for each line of ``office:string-value`` in each string cell of ``cells`` that has no paragraph
    (the module docstring), added to the cell; those added, which ``take_back`` takes out again where the cell keeps
    the attribute (nothing of it was translated)."""
    added = []
    for cell in cells:
        value = cell.get(STRING_VALUE)
        if (not value or cell.get(f"{{{OFFICE}}}value-type") != "string" or cell.get(FORMULA) is not None
                or any(isinstance(child.tag, str) and child.tag.startswith(f"{{{TEXT}}}") for child in cell)):
            continue
        for line in value.split("\n"):
            added.append(etree.SubElement(cell, f"{{{TEXT}}}p"))
            write_spaced(added[-1], line)
    return added


def write_spaced(paragraph: etree._Element, text: str) -> None:
    """``text`` into an empty paragraph as ODF keeps its spacing, for a paragraph's spaces collapse:
    each tab a ``text:tab``, a run of spaces at an end all ``text:s``, a run of them between words
    a space and a ``text:s`` for the rest."""
    last: etree._Element | None = None  # the element whose tail the text after it goes into
    position = 0
    for match in re.finditer(r"\t| {2,}|^ +| +$", text):
        add_text(paragraph, last, text[position:match.start()])
        position = match.end()
        if match.group() == "\t":
            last = etree.SubElement(paragraph, f"{{{TEXT}}}tab")
            continue
        between = 0 < match.start() and match.end() < len(text)
        add_text(paragraph, last, " " if between else "")
        last = etree.SubElement(paragraph, f"{{{TEXT}}}s")
        if len(match.group()) - between > 1:
            last.set(f"{{{TEXT}}}c", str(len(match.group()) - between))
    add_text(paragraph, last, text[position:])


def add_text(paragraph: etree._Element, last: etree._Element | None, text: str) -> None:
    """``text`` after the paragraph's last child ``last`` (into its tail), or into the paragraph where it has none."""
    if last is None:
        paragraph.text = (paragraph.text or "") + text
    else:
        last.tail = (last.tail or "") + text


def take_back(added: list[etree._Element]) -> None:
    """The paragraphs ``value_paragraphs`` added taken out of the cells that keep their ``office:string-value``; one
    already out (joined to the line before it: opendocument_cell_lines.cell_lines) left so."""
    for paragraph in added:
        cell = paragraph.getparent()
        if cell is not None and cell.get(STRING_VALUE) is not None:
            cell.remove(paragraph)
