"""An OpenDocument spreadsheet's formulas, conditional formats and validations after its cells are
translated (.ods, .fods), as an .xlsx's are (attnmt.documents.sheet_literals).

LibreOffice writes each in an attribute, its text literals in double quotes: a cell's formula
(``table:formula="of:=COUNTIF([.A2:.A4];&quot;Done&quot;)"``), a validation's condition
(``table:condition="of:cell-content-is-in-list(&quot;Done&quot;;&quot;Open&quot;)"``, one literal an
item), a conditional format's (``calcext:condition calcext:value="contains-text(&quot;Done&quot;)"``,
``calcext:value="=&quot;Done&quot;"``, and the same as ODF's ``style:map style:condition``) and a
named expression's.  Kept as they were while the cells said "Erledigt", the count was nothing, the
highlighting stopped and every translated cell was refused by its list.  So each text literal in
them that reads the whole source text of the spreadsheet's string cells (any sheet's) takes their
translation (attnmt.documents.followed_texts' rule), case apart unless the spreadsheet compares
case (``table:calculation-settings table:case-sensitive``, true where it is not written, as ODF
says); everything else stays as it was written.  The texts a cell's formula gives as its result
(``of:=IF([.B2]>1000;"Above target";"Below target")``, a ``HYPERLINK``'s label) and a list's items
are translated first and count as cells' texts, as in an .xlsx (attnmt.documents.result_literals):
kept, LibreOffice computed "Above target" again beside the translated cells, its cached result
being taken out (attnmt.documents.opendocument_formulas).  A formula's cached text result that is
exactly a literal it now writes otherwise (``of:=&quot;Done&quot;``, which reads no cell and so
keeps its result) takes the translation too.  The source is read from the file as it came: the
archive's content.xml, or a flat file parsed again (attnmt.documents.office.translate_flat).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.followed_texts import LITERAL, Followed, follow_literals
from attnmt.documents.opendocument_code import STYLE, TABLE, TEXT
from attnmt.documents.opendocument_filters import CONTENT, STRING_VALUE, cell_text, spreadsheet_tables
from attnmt.documents.opendocument_formulas import CALCEXT, VALUE_TYPE, formula_body
from attnmt.documents.opendocument_pivots import CELLS, FORMULA
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.result_literals import translate_results, unquoted
from attnmt.documents.review import Review
from attnmt.documents.translators import Translator

CONDITION = f"{{{TABLE}}}condition"  # a validation's
# Each element that holds a formula, with the attribute it is written in.
HOLDERS = {**dict.fromkeys(CELLS, FORMULA), f"{{{TABLE}}}content-validation": CONDITION,
           f"{{{CALCEXT}}}condition": f"{{{CALCEXT}}}value", f"{{{STYLE}}}map": f"{{{STYLE}}}condition",
           f"{{{TABLE}}}named-expression": f"{{{TABLE}}}expression"}
# How a double quote is written in an attribute: a content.xml without either holds no literal.
QUOTES = (b"&quot;", b"&#34;")
LISTED = re.compile(r"\s*cell-content-is-in-list\((.*)\)\s*", re.DOTALL)  # a validation's list, its items inside


def follow_content_literals(archive: Archive, parts: Sequence[Part], translator: Translator,
                            options: DocumentOptions, review: Review | None = None) -> None:
    """The formulas of the spreadsheet in ``parts``' content.xml (its tree translated in place, the
    archive's member as it came) follow their cells and their result texts, which ``translator``
    translates and ``review`` lists (module docstring)."""
    content = next((part for part in parts if part.member == CONTENT), None)
    if content is None or not any(quote in archive.read(CONTENT) for quote in QUOTES):
        return
    content.changed |= follow_formulas(content.tree.getroot(), parse_part(archive, CONTENT).getroot(), translator,
                                       options, CONTENT, review)


def follow_formulas(root: etree._Element, source: etree._Element, translator: Translator,
                    options: DocumentOptions, member: str, review: Review | None = None) -> bool:
    """The text literals of the formulas in ``root`` (a content.xml's or a flat file's, translated)
    that read its cells' source text (``source``: the same, as it came) or a formula's result text or
    a list's item, which ``translator`` translates and ``review`` lists at ``member`` (the part ``root``
    is), following their translation; whether any changed."""
    followed = spreadsheet_cells(root, source)
    translate_results(((member, formula) for formula in cell_formulas(root)), followed, translator, options,
                      [(member, item) for item in listed_items(root)], review)
    if not followed:
        return False
    changed = False
    for element in root.iter(*HOLDERS):
        written = element.get(HOLDERS[element.tag])
        if not written or '"' not in written:
            continue
        text, literals, _ = follow_literals(written, followed)
        if text != written:
            element.set(HOLDERS[element.tag], text)
            changed = True
        if literals and element.tag in CELLS:
            follow_result(element, literals)
    return changed


def spreadsheet_cells(root: etree._Element, source: etree._Element) -> Followed:
    """What each string cell of the spreadsheet in ``source`` showed and shows in ``root`` (their
    sheets paired by name, their cells in order: translation changes no cell's place)."""
    settings = root.find(f".//{{{TABLE}}}calculation-settings")
    followed = Followed(case_sensitive=settings is None or settings.get(f"{{{TABLE}}}case-sensitive") != "false")
    sheets, source_sheets = spreadsheet_tables(root), spreadsheet_tables(source)
    for name, sheet in sheets.items():
        cells, source_cells = list(sheet.iter(*CELLS)), list(source_sheets.get(name, sheet).iter(*CELLS))
        if name not in source_sheets or len(cells) != len(source_cells):
            continue
        for cell, was in zip(cells, source_cells, strict=True):
            if was.get(VALUE_TYPE) == "string" and was.get(FORMULA) is None:
                followed.add(cell_text(was), cell_text(cell))
    return followed


def cell_formulas(root: etree._Element) -> Iterator[str]:
    """The OpenFormula formula of each cell of the spreadsheet in ``root``, without "of:=" (formula_body)."""
    for sheet in spreadsheet_tables(root).values():
        for cell in sheet.iter(*CELLS):
            if (formula := cell.get(FORMULA)) and (body := formula_body(cell, formula)) is not None:
                yield body


def listed_items(root: etree._Element) -> list[str]:
    """Each item of the spreadsheet's list validations written as literals
    (``cell-content-is-in-list("Open";"Done")``): the texts a cell's drop-down offers."""
    items = []
    for validation in root.iter(f"{{{TABLE}}}content-validation"):
        body = formula_body(validation, validation.get(CONDITION, ""))
        if body is not None and (listed := LISTED.fullmatch(body)) is not None:
            items += [unquoted(item.group()) for item in LITERAL.finditer(listed.group(1)) if item.group()[0] == '"']
    return items


def follow_result(cell: etree._Element, literals: dict[str, str]) -> None:
    """A formula cell's cached text result that reads exactly a literal its formula now writes
    otherwise (``literals``: source -> translation) set to the translation, as a value and as its
    one paragraph."""
    if cell.get(VALUE_TYPE) != "string":
        return
    value = cell.get(STRING_VALUE)
    if value is not None and value in literals:
        cell.set(STRING_VALUE, literals[value])
    paragraphs = list(cell.iterchildren(f"{{{TEXT}}}p"))
    if len(paragraphs) == 1 and len(paragraphs[0]) == 0 and (paragraphs[0].text or "") in literals:
        paragraphs[0].text = literals[paragraphs[0].text or ""]
