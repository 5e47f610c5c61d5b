"""What a spreadsheet formula reads and calls, as far as deciding whether its cached result can be
computed again from the file (attnmt.documents.formula_results).

A formula as the file holds it (``_xlfn.CONCAT(A1,"!")``, ``UPPER('My sheet'!A1)``,
``Table1[[#This Row],[Name]]``) is read by its tokens, not parsed: its text literals, quoted sheet
names, a table's bracketed column names and error literals are taken out first, so that nothing
in them looks like a function or a cell; what is left names the functions it calls (a name before
"("), the cells, ranges, tables and defined names it reads, and another workbook where it reads one
(``[1]Sheet1!A1``).  An OpenDocument spreadsheet's formula (OpenFormula: ``IF([.A2]>1;"yes";"no")``) is
read the same way once its references and functions are written as Excel's (read_opendocument_formula).

STANDARD is the allow-list of functions that Excel and LibreOffice both compute, each checked
against LibreOffice 7.4 opening an .xlsx (tests/documents/test_office_formula_results.py):
text, logic, lookup, information, date and time, and the common counting, statistics, arithmetic
and rounding functions, named as the file holds them (Excel writes those newer than its 2007
file format with ``_xlfn.``: ``_xlfn.DAYS``).  Left out: the functions LibreOffice 7.4 does not
know (``_xlfn.XLOOKUP``, ``_xlfn.TEXTBEFORE``, ``_xlfn.LET``, Excel 365's ``_xlfn._xlws.SORT`` and
other spilling ones), cube functions (they read a data source outside the file), volatile ones
(``NOW``, ``TODAY``, ``RAND``, ``RANDBETWEEN``, ``INDIRECT``, ``OFFSET``, ``CELL``, ``INFO``: their
result is not the one cached) and every add-in's or macro's function.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

STANDARD = frozenset((
    # text
    "CONCATENATE", "_XLFN.CONCAT", "_XLFN.TEXTJOIN", "LEFT", "RIGHT", "MID", "LEN", "UPPER", "LOWER",
    "PROPER", "TRIM", "CLEAN", "SUBSTITUTE", "REPLACE", "REPT", "TEXT", "T", "VALUE", "EXACT", "FIND",
    "SEARCH", "CHAR", "CODE", "_XLFN.UNICHAR", "_XLFN.UNICODE", "FIXED", "DOLLAR", "_XLFN.NUMBERVALUE",
    "HYPERLINK",
    # logic
    "IF", "_XLFN.IFS", "IFERROR", "_XLFN.IFNA", "_XLFN.SWITCH", "AND", "OR", "NOT", "_XLFN.XOR", "TRUE",
    "FALSE",
    # lookup and reference
    "VLOOKUP", "HLOOKUP", "LOOKUP", "INDEX", "MATCH", "CHOOSE", "ROW", "COLUMN", "ROWS", "COLUMNS",
    # information
    "ISBLANK", "ISNUMBER", "ISTEXT", "ISNONTEXT", "ISERROR", "ISERR", "ISNA", "ISLOGICAL", "ISREF", "ISEVEN",
    "ISODD", "_XLFN.ISFORMULA", "N", "NA", "TYPE",
    # date and time
    "DATE", "DATEVALUE", "DAY", "MONTH", "YEAR", "HOUR", "MINUTE", "SECOND", "TIME", "TIMEVALUE", "WEEKDAY",
    "WEEKNUM", "_XLFN.ISOWEEKNUM", "EDATE", "EOMONTH", "_XLFN.DAYS", "DAYS360", "DATEDIF", "NETWORKDAYS",
    "WORKDAY", "YEARFRAC",
    # counting, sums and statistics
    "SUM", "SUMIF", "SUMIFS", "SUMPRODUCT", "SUMSQ", "SUBTOTAL", "_XLFN.AGGREGATE", "COUNT", "COUNTA",
    "COUNTBLANK", "COUNTIF", "COUNTIFS", "AVERAGE", "AVERAGEIF", "AVERAGEIFS", "MIN", "MAX", "_XLFN.MINIFS",
    "_XLFN.MAXIFS", "MEDIAN", "LARGE", "SMALL", "RANK",
    # arithmetic and rounding
    "ROUND", "ROUNDUP", "ROUNDDOWN", "INT", "TRUNC", "CEILING", "FLOOR", "EVEN", "ODD", "MOD", "QUOTIENT",
    "ABS", "SIGN", "PRODUCT", "POWER", "SQRT", "EXP", "LN", "LOG", "LOG10", "PI",
))

# Text that holds no function and no reference of its own: a text literal ("a ""b"""), a quoted
# sheet name ('My sheet', '[1]Other book'), and, taken out after them, a table's bracketed column
# name ([#This Row], [Name (EU)]: the innermost brackets) and an error literal (#N/A, #DIV/0!).
LITERAL = re.compile(r""""(?:[^"]|"")*"|'(?:[^']|'')*'""")
BRACKETED = re.compile(r"\[[^\[\]]+\]")
ERROR = re.compile(r"#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|GETTING_DATA)", re.IGNORECASE)
# Another workbook's sheet or name: [1]Sheet1!A1, [1]!Name ('[1]My sheet'!A1 is a quoted name).
EXTERNAL = re.compile(r"\[\d+\][\w.]*!")
# A name (a function's, a cell's, a defined name's, a table's) and what follows it: "(" for a call,
# "!" for a sheet's name; and a range of whole rows (2:2), which names no letters.
NAME = re.compile(r"(?<![\w.$#])(\$?[A-Za-z_\\][\w.$]*)\s*([(!]?)")
ROWS = re.compile(r"(?<![\w.$])\$?\d+:\$?\d+(?![\w.])")
CELL = re.compile(r"[A-Za-z]{1,3}\d+")
# OpenFormula's tokens that Excel writes otherwise: a text literal (kept as it is), a reference in brackets
# ([.A1], [$'My sheet'.A1:.B2], another file's ['file:///b.ods'#$Sheet1.A1]) and a function's name before "(".
OPEN_TOKEN = re.compile(r""""(?:[^"]|"")*"|\[(?:'(?:[^']|'')*'|[^\]'])*\]|(?<![\w.$])[A-Za-z_][\w.]*(?=\s*\()""")
OPEN_EXTERNAL = re.compile(r"\[\$?'(?:[^']|'')*'#")


@dataclass(frozen=True)
class Formula:
    """What one formula calls and reads; names are upper-cased, as Excel compares them."""

    calls: frozenset[str]  # the functions it calls, as the file names them: "_XLFN.CONCAT"
    names: frozenset[str]  # the defined names and tables it reads (and a whole column's letter, A:A)
    reads_cells: bool  # whether it reads a cell, range, table or defined name of the file
    external: bool  # whether it reads another workbook

    def standard(self, unknown_names: frozenset[str] = frozenset()) -> bool:
        """Whether Excel and LibreOffice both compute it from the file alone: it calls only STANDARD
        functions, reads no other workbook and no defined name in ``unknown_names`` (one whose own
        formula is not standard)."""
        return not self.external and self.calls <= STANDARD and not self.names & unknown_names


@functools.lru_cache(maxsize=4096)  # a shared formula's cells all read their first cell's text
def read_formula(text: str) -> Formula:
    """The functions, cells and names that the formula ``text`` (as the file holds it, without
    "=") calls and reads (module docstring)."""
    external = False

    def literal(match: re.Match[str]) -> str:
        nonlocal external
        if match.group().startswith("'"):  # a sheet's quoted name, always followed by "!"
            external |= match.group().startswith("'[")
            return "Sheet"
        return '""'

    text = LITERAL.sub(literal, text)
    external |= EXTERNAL.search(text) is not None
    structured = "[" in text  # a table's columns: Table1[Name], [@Name]
    text = ERROR.sub("", BRACKETED.sub("[]", text))
    calls, names, cells = set(), set(), structured or ROWS.search(text) is not None
    for match in NAME.finditer(text):
        name, after = match.group(1).upper(), match.group(2)
        if after == "(":
            calls.add(name)
        elif after != "!" and name not in ("TRUE", "FALSE"):
            cells = True
            if CELL.fullmatch(name.replace("$", "")) is None:
                names.add(name)
    return Formula(frozenset(calls), frozenset(names), cells, external)


def read_opendocument_formula(text: str) -> Formula:
    """What the OpenFormula ``text`` (an OpenDocument spreadsheet's, without its namespace prefix and
    "=") calls and reads, as read_formula reads Excel's: each reference in brackets is a cell (another
    file's, another workbook's), and each function is named as an .xlsx names it where STANDARD has it
    (LibreOffice writes ``COM.MICROSOFT.CONCAT`` for ``_xlfn.CONCAT``, ``IFNA`` for ``_xlfn.IFNA``)."""
    def as_excel(match: re.Match[str]) -> str:
        token = match.group()
        if token.startswith('"'):
            return token
        if token.startswith("["):
            return "[1]Sheet!A1" if OPEN_EXTERNAL.match(token) else "A1"
        bare = token.upper().removeprefix("COM.MICROSOFT.")
        return next((name for name in (bare, f"_XLFN.{bare}") if name in STANDARD), token)

    return read_formula(OPEN_TOKEN.sub(as_excel, text))
