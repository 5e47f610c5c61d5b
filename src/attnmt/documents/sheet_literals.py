"""A workbook's formulas, conditional formats and validation lists after its cells are translated:
the words in them that name a cell's text follow the cell (attnmt.documents.followed_texts' rule).

A formula compares cells with text literals (``=COUNTIF(A2:A4,"Done")``, ``=IF(A1="Done",1,0)``,
``=MATCH("Done",A:A,0)``), and so does a conditional format (``<cfRule type="containsText"
text="Done">`` with its formula ``NOT(ISERROR(SEARCH("Done",A1)))``, ``cellIs`` with
``<formula>"Done"</formula>``, ``beginsWith``, ``endsWith``); a list validation offers its words
(``<formula1>"Done,Open"</formula1>``).  Kept as they were while the cells said "Erledigt", the
formula counted nothing, the highlighting stopped and Excel flagged every translated cell of the
list as invalid.  So each text literal of a formula (a cell's, a defined name's, a table's
column's, a rule's, Excel 2010's ``xm:f``), a text rule's ``text`` (Excel 2010's ``x14:cfRule``'s
too) and each item of a list that reads, case apart, the whole source text of cells of the
workbook (any sheet's string cells) or of a formula's result (``IF(…,"Done",…)``, a cell's or a
defined name's a cell may show, ``=Greeting``: shown_names; attnmt.documents.result_literals) takes
their translation; everything else in a formula stays as it was written, and a rule's text that is
a part of a cell's (``beginsWith`` "In") is kept.  A list whose items are a range (``$D$1:$D$3``)
needs nothing: the cells it names are translated.

Excel holds at most 255 characters in a formula's text literal and in a list, and reads a comma
in a list as the end of an item: a literal or list item whose translation would break that keeps
its source (a list: all of it, where its items together are too long), with one warning naming
the file, the part and the cells or the formula's place.  A formula's cached text result that is
exactly a literal it now writes otherwise (``="Done"``, ``IF(…,"Done",…)``) takes the translation
as its result too; any other result is left to attnmt.documents.formula_results, which takes out a
text result computed from cells and asks Excel to calculate the workbook on opening, so that a
count (``COUNTIF``) is computed again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import chain

from lxml import etree

from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.cell_limit import utf16_length
from attnmt.documents.followed_texts import Followed, follow_literals
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.result_literals import translate_results
from attnmt.documents.review import Review
from attnmt.documents.sheet_filters import Cells
from attnmt.documents.tables import FORMULAS, sheet_tables, string_texts, workbook_part, worksheets
from attnmt.documents.translators import Translator
from attnmt.documents.validations import X14, XM
from attnmt.documents.xstring import escape, unescape
from attnmt.errors import LeftUntranslated, warn

TEXT_RULES = ("containsText", "notContainsText", "beginsWith", "endsWith")  # a cfRule whose ``text`` is compared
LIMIT = 255  # the characters Excel holds in a formula's text literal, and in a list validation's items
LIST = re.compile(r'\s*"((?:[^"]|"")*)"\s*')  # a list validation's items, written as one literal
# A part's bytes that may hold a text literal in a formula (a double quote in an element's text) or a text rule.
MARKERS = re.compile(rb'>[^<]*(?:"|&quot;|&#34;)|\stext\s*=')


def follow_sheet_literals(archive: Archive, parts: Sequence[Part], name: str, translator: Translator,
                          options: DocumentOptions, review: Review | None = None) -> list[Part]:
    """The formulas, text rules and validation lists of the workbook in ``parts`` (their trees
    translated in place, the archive's members as they came) follow their cells (module docstring)
    and the result literals of its formulas, which ``translator`` translates and ``review`` lists
    (attnmt.documents.result_literals); ``name`` names the file in warnings.  Returns the parts it
    changed that ``parts`` did not hold."""
    held = {part.member: part for part in parts}
    workbook = workbook_part(archive)
    sheets = worksheets(archive, workbook)
    members = [*([workbook] if workbook else []), *sheets, *chain(*sheet_tables(archive).values())]
    holders = [member for member in dict.fromkeys(members) if MARKERS.search(archive.read(member))]
    if not holders:
        return []
    added: dict[str, Part] = {}

    def part(member: str) -> Part:
        return held.get(member) or added.setdefault(member, Part(member, parse_part(archive, member)))

    followed = workbook_cells(archive, parts, [part(sheet) for sheet in sheets], set(held))
    held_sheets = [part(sheet) for sheet in sheets]
    formulas = chain(((sheet.member, formula.text) for sheet in held_sheets
                      for formula in sheet.tree.getroot().iter(s("f")) if formula.text),
                     shown_names(part(workbook)) if workbook else ())
    translate_results(formulas, followed, translator, options, offered_items(held_sheets), review)
    if not followed:
        return []
    for member in holders:
        holder = part(member)
        holder.changed |= follow_part(holder.tree.getroot(), followed, f"{name}: {member}")
    return [part for part in added.values() if part.changed]


def shown_names(workbook: Part) -> list[tuple[str, str]]:
    """(member, formula) of each defined name of ``workbook`` whose result a cell may show (``=Greeting``,
    the name ``"Good morning."``; ``IF(…,"Open","Closed")``), its result literals translated as a cell's
    formula's are: kept, a translated sheet showed them in the source.  Not a hidden name's (an add-in's
    settings, no reader's), nor a macro's (``function``, ``vbProcedure``)."""
    return [(workbook.member, name.text) for name in workbook.tree.getroot().iter(s("definedName")) if name.text
            and not any(name.get(flag) in ("1", "true") for flag in ("hidden", "function", "vbProcedure"))]


def workbook_cells(archive: Archive, parts: Sequence[Part], sheets: Sequence[Part],
                   translated_in: set[str]) -> Followed:
    """What each string cell of ``sheets`` (each as translated) showed, as the archive holds it, and
    shows now, read with the shared strings of ``parts`` (translated) and of the archive; a sheet whose
    member is not in ``translated_in`` holds its cells as they came."""
    strings = next((part for part in parts if part.tree.getroot().tag == s("sst")), None)
    translated = string_texts(strings.tree.getroot()) if strings is not None else []
    sources = string_texts(parse_part(archive, strings.member).getroot()) if strings is not None else []
    followed = Followed()
    for sheet in sheets:
        source = parse_part(archive, sheet.member).getroot() if sheet.member in translated_in else sheet.tree.getroot()
        cells = Cells(sheet.tree.getroot(), source, translated, sources)
        for _, was, now in cells.pairs():
            followed.add(was, now)
    return followed


def follow_part(root: etree._Element, followed: Followed, where: str) -> bool:
    """The formulas and text rules of ``root`` (a workbook's, a sheet's or a table's) following
    ``followed``; ``where`` ("the.xlsx: xl/worksheets/sheet1.xml") begins each warning.  Whether any changed."""
    changed, sharing = False, shared_cells(root)
    for formula in root.iter(*FORMULAS):
        if formula.text and '"' in formula.text:
            text = follow_formula(formula, followed, where, sharing)
            changed |= text != formula.text
            formula.text = text
    for rule in root.iter(s("cfRule"), f"{{{X14}}}cfRule"):  # Excel 2010's too, which it writes for another sheet
        text = unescape(rule.get("text", ""))
        if rule.get("type") in TEXT_RULES and (now := followed.of(text)) is not None:
            rule.set("text", escape(now, attribute=True))
            changed = True
    return changed


def follow_formula(formula: etree._Element, followed: Followed, where: str,
                   sharing: dict[str, list[etree._Element]]) -> str:
    """The text of ``formula`` (an element of tables.FORMULAS) following ``followed``: a list
    validation's items (follow_list), or its text literals, a literal whose translation is over
    Excel's LIMIT kept (warned about) and the cached text result of its cell following them, and of
    each cell that shares it (``sharing``: shared_cells)."""
    validation = list_validation(formula)
    items = LIST.fullmatch(formula.text or "") if validation is not None else None
    if validation is not None and items is not None:
        return follow_list(formula.text or "", items, followed, f"{where}, the list of cells {cells_of(validation)}")
    text, literals, too_long = follow_literals(formula.text or "", followed, LIMIT)
    for was, now in too_long.items():
        warn(f"{where}, {formula_place(formula)}: the translation of the text {was!r} is {utf16_length(now)} "
             f"characters long, more than the {LIMIT} Excel allows in a formula's text, so the formula keeps it "
             "as it was", category=LeftUntranslated)
    if literals and formula.tag == s("f"):
        shared = sharing.get(formula.get("si", ""), []) if formula.get("t") == "shared" else []
        for cell in (formula.getparent(), *shared):
            follow_result(cell, literals)
    return text


def shared_cells(root: etree._Element) -> dict[str, list[etree._Element]]:
    """The cells of a sheet's ``root`` that share a formula written in another (Excel writes a
    formula filled down once, ``<f t="shared" ref="D2:D9" si="0">``, and ``<f t="shared" si="0"/>``
    in the cells below it), by that formula's ``si``."""
    sharing: dict[str, list[etree._Element]] = {}
    for formula in root.iter(s("f")):
        if formula.get("t") == "shared" and not formula.text and (cell := formula.getparent()) is not None:
            sharing.setdefault(formula.get("si", ""), []).append(cell)
    return sharing


def list_validation(formula: etree._Element) -> etree._Element | None:
    """The list validation whose list ``formula`` is (its ``formula1``, or an Excel 2010 one's ``xm:f``), else None."""
    holder = formula.getparent() if formula.tag == f"{{{XM}}}f" else formula
    validation = holder.getparent() if holder is not None and etree.QName(holder).localname == "formula1" else None
    return validation if validation is not None and validation.get("type") == "list" else None


def offered_items(sheets: Sequence[Part]) -> list[tuple[str, str]]:
    """Each item of the list validations of ``sheets`` written as one literal (``"Open,In progress,Done"``),
    after its sheet's member: the texts a cell's drop-down offers, which a user picks as its text."""
    listed = ((sheet.member, LIST.fullmatch(formula.text or "")) for sheet in sheets
              for formula in sheet.tree.getroot().iter(*FORMULAS) if list_validation(formula) is not None)
    return [(member, item.strip()) for member, items in listed if items is not None
            for item in items.group(1).replace('""', '"').split(",")]


def cells_of(validation: etree._Element) -> str:
    return validation.get("sqref") or validation.findtext(f"{{{XM}}}sqref") or "?"


def formula_place(formula: etree._Element) -> str:
    """Where a formula is, for a warning: its cell, or what holds it (a defined name, a rule)."""
    holder = formula.getparent()
    if formula.tag == s("f") and holder is not None:
        return f"the formula of cell {holder.get('r', '?')}"
    if formula.tag == s("definedName"):
        return f"the defined name {formula.get('name', '?')}"
    return f"a {etree.QName(holder if holder is not None else formula).localname}'s formula"


def follow_list(written: str, items: re.Match[str], followed: Followed, where: str) -> str:
    """A list validation's items (``items``: the literal ``written``) that read cells' text
    following them, each keeping the spaces around it; an item whose translation holds a comma
    keeps its source, and the whole list does where it would be over Excel's LIMIT (warned about)."""
    words, changed = [], False
    for item in items.group(1).replace('""', '"').split(","):
        now = followed.of(item.strip())
        if now is not None and "," in now:
            warn(f"{where}: the translation of the item {item.strip()!r}, {now!r}, holds a comma, which Excel "
                 "reads as the end of an item, so the item is kept as it was", category=LeftUntranslated)
            now = None
        words.append(item if now is None else item.replace(item.strip(), now, 1))
        changed |= now is not None
    listed = ",".join(words)
    if not changed:
        return written
    if utf16_length(listed) > LIMIT:
        warn(f"{where}: its translated items are {utf16_length(listed)} characters long, more than the {LIMIT} "
             "Excel allows in a list, so the list is kept as it was", category=LeftUntranslated)
        return written
    return '"' + listed.replace('"', '""') + '"'


def follow_result(cell: etree._Element | None, literals: dict[str, str]) -> None:
    """A formula cell's cached text result that reads exactly a literal its formula now writes
    otherwise (``literals``: source -> translation) set to the translation."""
    value = cell.find(s("v")) if cell is not None and cell.get("t") == "str" else None
    if value is not None and (now := literals.get(unescape(value.text or ""))) is not None:
        value.text = escape(now)
