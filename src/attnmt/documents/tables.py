"""Excel tables (Insert > Table: ``xl/tables/tableN.xml``), kept whole through translation.

A table names each of its columns (``tableColumn name="Price"``), and Excel holds each name
equal to the text of the column's header cell: a file where they differ is "repaired" when it
opens, the table's formatting lost.  So once the cells are translated, each table's column
names become its header cells' new texts.  Where that cannot be done safely, the header cells
keep their source text instead, with its runs' formatting and phonetic guides (the source string
written as an inline string, the shared string left to the other cells that use it):

- a formula refers to the table's columns by name (``=SUM(Sales[Price])``, ``[@Price]``), which
  renamed columns would break: a cell's, a defined name's, a table's calculated column's or totals
  row's, or a rule's (a data validation list, ``INDIRECT("Sales[Colour]")``, a conditional
  format, and the same in Excel 2010's extension, ``xm:f``, which Excel writes for a list on
  another sheet), the table's name written in any case (Excel reads ``sales[Price]`` as
  ``Sales[Price]``);
- two headers would get one name (Excel's names are unique, whatever their case), or one
  none;
- a pivot cache names its fields after the headers (attnmt.documents.pivot_caches).

A name is an escaped string (attnmt.documents.xstring): a header of two lines is named
``Unit_x000A_price``, so names are read and written escaped.  A totals row's labels
(``totalsRowLabel="Total"``) follow its translated cells as the names follow the headers.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from copy import deepcopy
from functools import cached_property
from itertools import chain
from typing import NamedTuple

from lxml import etree

from attnmt.config_ranges import written_whole_number
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.xstring import escape, text_in, unescape

RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
TABLE_RELATIONSHIP = "/table"  # how a sheet's relationship to one of its tables ends its Type
WORKBOOK_RELATIONSHIP = "/officeDocument"  # how the package's relationship to its main part ends its Type
WORKSHEET_RELATIONSHIP = "/worksheet"  # how the workbook's relationship to one of its sheets ends its Type
CELL = re.compile(r"([A-Z]+)(\d+)")
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# Where a formula is written (module docstring): cells, defined names, tables' columns, data
# validations (formula1, formula2), conditional formats (formula), and x14 rules (xm:f).
FORMULAS = (s("f"), s("definedName"), s("calculatedColumnFormula"), s("totalsRowFormula"), s("formula1"),
            s("formula2"), s("formula"), "{http://schemas.microsoft.com/office/excel/2006/main}f")


def keep_tables_whole(archive: Archive, parts: list[Part],
                      read: dict[str, dict[str, str]]) -> tuple[list[Part], list[etree._Element]]:
    """After the cells are translated (``parts``, their trees changed in place): each table's column
    names follow its header cells, or its header cells keep their source text, and its totals row's
    labels follow that row's cells (module docstring).  ``read``: by sheet, the cells whose source
    text another part reads as a name (a pivot cache's fields: attnmt.documents.pivot_caches) -> that
    text, which they keep, their table its names too.
    Returns the parts it changed that ``parts`` did not hold (tables, sheets), and the strings whose
    translation the file shows no longer (``no_longer_shown``): a review takes their rows back."""
    tables = sheet_tables(archive)
    if not tables and not read:
        return [], []
    held = {part.member: part for part in parts}
    strings = next((p for p in parts if p.tree.getroot().tag == s("sst")), None)
    shared = list(strings.tree.getroot().iter(s("si"))) if strings is not None else []
    translated = string_texts(strings.tree.getroot()) if strings is not None else []
    workbook = workbook_part(archive)
    sheets = worksheets(archive, workbook)
    formulas = formula_texts(archive, held, [*([workbook] if workbook else []), *sheets, *chain(*tables.values())])
    added: dict[str, Part] = {}
    replaced: list[etree._Element] = []  # the strings the header cells given back their source showed
    sources = SourceStrings(archive, strings.member if strings is not None else None)

    def part(member: str) -> Part:
        return held.get(member) or added.setdefault(member, Part(member, parse_part(archive, member)))

    def keep(sheet: Part, cell: etree._Element, text: str) -> None:
        string = shown_string(cell, shared)
        if keep_source(cell, text, translated, lambda: sources.shown(sheet.member, cell)):
            sheet.changed = True
            replaced.extend([string] if string is not None else [])

    for sheet, members in tables.items():
        sheet_part = part(sheet)
        for member in members:
            table_part = part(member)
            sheet_root, table = sheet_part.tree.getroot(), table_part.tree.getroot()
            columns = list(table.iter(s("tableColumn")))
            cells = row_cells(sheet_root, table, "header")
            names = [cell_text(cell, translated) for cell in cells or ()]
            pinned = any(cell.get("r") in read.get(sheet, {}) for cell in cells or ())
            if cells is not None and not pinned and renamable(table, names, columns, formulas):
                for column, name in zip(columns, names, strict=True):
                    table_part.changed |= set_name(column, "name", name)
            elif cells is not None:
                # A header a pivot cache reads keeps the text the cache reads, which the loop over
                # ``read`` below then finds written: each cell is written once.
                pivot = read.get(sheet, {})
                for cell, column in zip(cells, columns, strict=True):
                    keep(sheet_part, cell, pivot.get(cell.get("r", ""), unescape(column.get("name", ""))))
            totals = row_cells(sheet_root, table, "totals")
            for cell, column in zip(totals or [], columns if totals else [], strict=True):
                label = cell_text(cell, translated)
                if column.get("totalsRowLabel") is not None and label.strip():
                    table_part.changed |= set_name(column, "totalsRowLabel", label)
    for sheet, texts in read.items():
        sheet_part = part(sheet)
        for cell in sheet_part.tree.getroot().iter(s("c")):
            if cell.get("r") in texts:
                keep(sheet_part, cell, texts[cell.get("r")])
    return ([part for part in added.values() if part.changed],
            no_longer_shown(archive, sheets, replaced, shared, {**held, **added}))


def shown_string(cell: etree._Element, shared: Sequence[etree._Element]) -> etree._Element | None:
    """The string a cell shows: its inline string (``is``), or its shared string (``si`` of
    ``shared``, the shared strings in order); None for a cell of neither."""
    if cell.get("t") == "inlineStr":
        return cell.find(s("is"))
    index = written_whole_number(cell.findtext(s("v")) or "") if cell.get("t") == "s" else None
    return shared[index] if index is not None and index < len(shared) else None


def no_longer_shown(archive: Archive, sheets: list[str], replaced: list[etree._Element],
                    shared: Sequence[etree._Element], parts: dict[str, Part]) -> list[etree._Element]:
    """Of the strings that header cells showed before they were given back their source
    (``replaced``), those whose translation no cell shows now: each inline string, and each shared
    string that no other cell of any sheet (``sheets``: worksheets) uses (``parts``: the parts
    parsed, read from their trees)."""
    inline = [string for string in replaced if string.tag == s("is")]
    gone = set(replaced)
    indexes = {string: str(number) for number, string in enumerate(shared) if string in gone}
    if not indexes:
        return inline
    used = set()
    for member in sheets:
        root = parts[member].tree.getroot() if member in parts else parse_part(archive, member).getroot()
        used |= {cell.findtext(s("v")) for cell in root.iter(s("c")) if cell.get("t") == "s"}
    return inline + [string for string, index in indexes.items() if index not in used]


def sheet_tables(archive: Archive) -> dict[str, list[str]]:
    """Each sheet that holds tables -> the tables' members, from the sheets' relationships."""
    tables: dict[str, list[str]] = {}
    for rels in archive.names():
        folder, _, name = rels.rpartition("_rels/")
        if not name.endswith(".rels") or "/" in name or not folder.endswith("/") and folder:
            continue
        sheet = folder + name.removesuffix(".rels")
        if sheet not in archive:
            continue
        for related in relationships(archive, sheet).values():
            if related.kind.endswith(TABLE_RELATIONSHIP) and related.mode is None and related.member in archive:
                tables.setdefault(sheet, []).append(related.member)
    return tables


class Relationship(NamedTuple):
    """One of a part's relationships (a ``Relationship`` of its ``.rels`` part)."""

    kind: str  # its Type, a URI: "…/relationships/table"
    member: str  # the member it targets, resolved from the part's folder or the archive's root
    mode: str | None  # its TargetMode: "External" for a link out of the archive, None for a member


def relationships(archive: Archive, member: str) -> dict[str, Relationship]:
    """``member``'s relationships, by id; {} where it has none.  A target is the member that is
    that part, its name's case apart (``Archive.part``), or as the target names it where none is."""
    folder = posixpath.dirname(member)
    rels = archive.part(posixpath.join(folder, "_rels", posixpath.basename(member) + ".rels"))
    if rels is None:
        return {}
    found = {}
    for relationship in parse_part(archive, rels).getroot().iter(f"{{{RELATIONSHIPS}}}Relationship"):
        target = relationship.get("Target", "")  # relative to the member's folder, or to the archive's root
        targeted = target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        found[relationship.get("Id")] = Relationship(relationship.get("Type", ""), archive.part(targeted) or targeted,
                                                     relationship.get("TargetMode"))
    return found


def string_texts(sst: etree._Element) -> list[str]:
    """The shared strings' texts as Excel shows them, by index (string_text)."""
    return [string_text(si) for si in sst.iter(s("si"))]


def string_text(string: etree._Element) -> str:
    """A string's text as Excel shows it, a shared string (``si``) or an inline one (``is``): its
    runs' text, escapes read, phonetic guides and XML comments left out (xstring.text_in)."""
    return "".join(unescape(text_in(t)) for t in string.iter(s("t")) if t.getparent().tag != s("rPh"))


def workbook_part(archive: Archive) -> str | None:
    """The workbook's member: the package's main part, as its relationships (``_rels/.rels``) name
    it, whatever it is called (Excel writes xl/workbook.xml; another writer may not); None for a
    package without one."""
    return next((related.member for related in relationships(archive, "").values()
                 if related.kind.endswith(WORKBOOK_RELATIONSHIP) and related.member in archive), None)


def worksheets(archive: Archive, workbook: str | None) -> list[str]:
    """The members of the workbook's worksheets, as its relationships name them (not its chart
    sheets); none for a package without a workbook (``workbook_part``)."""
    return [related.member for related in relationships(archive, workbook).values()
            if related.kind.endswith(WORKSHEET_RELATIONSHIP) and related.mode is None
            and related.member in archive] if workbook is not None else []


def formula_texts(archive: Archive, held: dict[str, Part], members: Sequence[str]) -> str:
    """The text of every formula that may name a table's columns (one with a "["), in ``members``
    (the workbook, its sheets and tables: FORMULAS), as one text to search.  A part already parsed
    (``held``) is read from its tree (translation changed only its strings); a member with no "["
    in its bytes is not parsed."""
    found = []
    for member in dict.fromkeys(members):
        if member in held:
            root = held[member].tree.getroot()
        elif any(mark in archive.read(member) for mark in (b"[", b"&#")):  # "[" may be a reference, &#91;
            root = parse_part(archive, member).getroot()
        else:
            continue
        found += [e.text or "" for e in root.iter(*FORMULAS) if "[" in (e.text or "")]
    return "\n".join(found)


def row_cells(sheet: etree._Element, table: etree._Element, row: str) -> list[etree._Element] | None:
    """The cells of the table's ``row``, "header" (its first) or "totals" (its last), one a column (a
    missing one made empty), or None for a table without that row or a range that does not read."""
    first, _, last = table.get("ref", "").partition(":")
    start, end = CELL.fullmatch(first), CELL.fullmatch(last or first)
    shown = table.get("headerRowCount", "1") != "0" if row == "header" else table.get("totalsRowCount", "0") == "1"
    if start is None or end is None or not shown:
        return None
    number = (start if row == "header" else end).group(2)
    columns = range(column_number(start.group(1)), column_number(end.group(1)) + 1)
    if len(columns) != len(list(table.iter(s("tableColumn")))):
        return None
    cells = {cell.get("r"): cell for r in sheet.iter(s("row")) if r.get("r") == number for cell in r.iter(s("c"))}
    return [cells.get(f"{column_name(c)}{number}", etree.Element(s("c"))) for c in columns]


def column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def column_name(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell_text(cell: etree._Element, strings: Sequence[str]) -> str:
    """What a cell shows as text: its shared string (``strings``: string_texts), inline string, or value."""
    value = cell.findtext(s("v")) or ""
    if cell.get("t") == "s":
        index = written_whole_number(value)
        return strings[index] if index is not None and index < len(strings) else ""
    if cell.get("t") == "inlineStr":
        return string_text(cell)
    return value


def renamable(table: etree._Element, names: list[str], columns: list[etree._Element], formulas: str) -> bool:
    """Whether the columns may take ``names``: none empty, no two alike, and no formula naming the
    table's columns (``Table[...]``, in any case, as Excel reads ``table[...]`` too; or ``[@...]``
    inside the table)."""
    if any(not name.strip() for name in names) or len({name.casefold() for name in names}) < len(names):
        return False
    if [unescape(column.get("name", "")) for column in columns] == names:
        return True
    referred = {f"{table.get(key)}[".casefold() for key in ("name", "displayName") if table.get(key)}
    folded = formulas.casefold()
    return not any(name in folded for name in referred) and "[@" not in formulas and "[#" not in formulas


def set_name(column: etree._Element, key: str, name: str) -> bool:
    """Sets a column's ``key`` (its name, its totals row's label) to ``name``, escaped as Excel
    escapes an attribute (a line break in a header is ``_x000A_``), where it says something else;
    whether it did."""
    if unescape(column.get(key, "")) == name:
        return False
    column.set(key, escape(name, attribute=True))
    return True


def keep_source(cell: etree._Element, name: str, translated: Sequence[str],
                source: Callable[[], etree._Element | None]) -> bool:
    """Writes the column's name (its header's source text) back into its header cell, as an inline
    string, where the translation changed the cell; whether it did.  The string the cell showed in
    the source (``source``: SourceStrings.shown, read only here) is copied whole where it reads
    ``name``, so that its runs keep their formatting (a bold "Unit" in "Unit price") and its
    phonetic guides; otherwise the name is written as plain text."""
    if cell.getparent() is None or cell_text(cell, translated) == name:
        return False
    shown = source()
    for child in list(cell):
        cell.remove(child)
    cell.set("t", "inlineStr")
    string = etree.SubElement(cell, s("is"))
    if shown is not None and string_text(shown) == name:
        string.extend(deepcopy(child) for child in shown)
        return True
    text = etree.SubElement(string, s("t"))
    text.text = escape(name)
    text.set(XML_SPACE, "preserve")
    return True


class SourceStrings:
    """The strings cells showed before translation, read from the archive's members as they came (the
    trees in hand were translated in place): a sheet's, and the shared strings (``strings``, the
    member; None where the file has none).  Each member is parsed once, when a cell first needs it."""

    def __init__(self, archive: Archive, strings: str | None) -> None:
        self.archive, self.strings = archive, strings
        self.roots: dict[str, etree._Element] = {}

    def root(self, member: str) -> etree._Element:
        if member not in self.roots:
            self.roots[member] = parse_part(self.archive, member).getroot()
        return self.roots[member]

    def shown(self, sheet: str, cell: etree._Element) -> etree._Element | None:
        """The string ``cell`` of ``sheet`` showed in the source: its inline string (the source cell of
        its reference's), or its shared string (its index is not translated); None for neither."""
        if cell.get("t") == "inlineStr":
            source = next((c for c in self.root(sheet).iter(s("c")) if c.get("r") == cell.get("r")), None)
            return source.find(s("is")) if source is not None and source.get("t") == "inlineStr" else None
        if cell.get("t") == "s" and self.strings is not None:
            return shown_string(cell, self.shared)
        return None

    @cached_property
    def shared(self) -> list[etree._Element]:
        return list(self.root(self.strings or "").iter(s("si")))
