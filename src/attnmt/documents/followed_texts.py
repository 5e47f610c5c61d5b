"""The one rule by which a spreadsheet's words that name its cells' text follow those cells'
translation: a filter's values (attnmt.documents.sheet_filters, opendocument_filters), and a
formula's text literals, a conditional format's text and a validation's list
(attnmt.documents.sheet_literals, opendocument_literals).

Excel and LibreOffice compare a text with a cell's case apart (``COUNTIF(A2:A4,"done")`` counts
"Done"; LibreOffice only where the spreadsheet says so: ``Followed``'s ``case_sensitive``), so a
text that reads, case apart, the whole source text of cells takes their translation,
where those cells all show one (case apart: "Done" -> "Erledigt" and "done" -> "erledigt" are one;
where they differ, the text of a cell whose source read exactly the same is taken).  Any other text
(one no cell held, a part of a cell's text, a wildcard's ``*side``, one whose cells were translated
two ways) is kept as it was: nothing that no cell's translation decides is changed.  A formula's
criterion that compares for equality (``COUNTIF(A:A,"<>Done")``, ``"=Done"``) is read as its operator
and the text it compares with, which follows the cells as a literal does; a literal a function reads
as a keyword, a format or a reference (``CELL("address")``, ``INDIRECT("Summary")``: KEYWORDS) never
does, whatever a cell says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from attnmt.documents.cell_limit import utf16_length

# A formula's text literal ("a ""b"""), and a quoted sheet or file name ('My "big" sheet'), which is
# matched so that a double quote inside it is not read as a literal's: Excel's and OpenFormula's alike.
LITERAL = re.compile(r""""(?:[^"]|"")*"|'(?:[^']|'')*'""")
# The arguments (from 0) that a function reads as a keyword, a format, a unit or a reference, never as
# a cell's text: CELL("address"), INFO("system"), INDIRECT("Summary!A1"), HYPERLINK("#Sheet2!A1"),
# DATEDIF's "Y", TEXT's "dd mmm", CONVERT's "km", ADDRESS's sheet name.  Named as the file writes them,
# without Excel's "_xlfn." or LibreOffice's "COM.MICROSOFT.".
KEYWORDS = {"CELL": {0}, "INFO": {0}, "INDIRECT": {0}, "HYPERLINK": {0}, "DATEDIF": {2}, "TEXT": {1},
            "CONVERT": {1, 2}, "ADDRESS": {4}}
# What a formula is read by to know which argument of which function a literal is: a literal, a quoted
# name, the brackets that open and close a call, an array or a reference, and the separators.
TOKEN = re.compile(rf"{LITERAL.pattern}|[(){{}}\[\],;]")
CALLED = re.compile(r"([A-Za-z_][\w.]*)\s*$")  # the function named before "("
# How a criterion (COUNTIF's, SUMIF's, COUNTIFS', a database function's) that compares for equality begins.
EQUALITY = ("<>", "=")


class Followed:
    """What cells showed (their source text) and show now (their translation), by source text as
    it is compared: casefolded, or as it is where the file compares case (``case_sensitive``: an
    OpenDocument spreadsheet's ``table:case-sensitive``, which LibreOffice honours)."""

    def __init__(self, case_sensitive: bool = False) -> None:
        self.shown: dict[str, set[tuple[str, str]]] = {}
        self.compared: Callable[[str], str] = str if case_sensitive else str.casefold

    def add(self, was: str, now: str) -> None:
        """One cell, whose source text ``was`` is translated ``now``; an empty cell is none: an empty
        literal (``A1=""``) asks whether a cell is empty, whatever the cells say."""
        if was:
            self.shown.setdefault(self.compared(was), set()).add((was, now))

    def of(self, text: str) -> str | None:
        """The translation ``text`` takes (module docstring); None where it is kept as it was."""
        pairs = self.shown.get(self.compared(text), set())
        if len({self.compared(now) for _, now in pairs}) != 1:
            return None
        exact = sorted(now for was, now in pairs if was == text)
        now = exact[0] if exact else min(now for _, now in pairs)
        return None if now == text else now

    def holds(self, text: str) -> bool:
        """Whether a cell showed ``text``, as it is compared."""
        return self.compared(text) in self.shown

    def __bool__(self) -> bool:
        return bool(self.shown)


class Literals(NamedTuple):
    """A formula with its text literals followed (``follow_literals``)."""

    text: str  # the formula as it is now written
    changed: dict[str, str]  # each literal's text that changed -> its translation
    too_long: dict[str, str]  # each literal's text whose translation was over the limit -> that translation


def follow_literals(formula: str, followed: Followed, longest: int | None = None) -> Literals:
    """``formula`` with each text literal that reads cells' source text (``Followed.of``) written as
    their translation, its double quotes doubled, and so each criterion that compares for equality
    with it (``"<>Done"``, ``"=Done"``: its operator kept); every other character as it was, and a
    literal a function reads as a keyword (KEYWORDS).  A translation
    longer than ``longest`` (Excel's 255 in a literal, counted as Excel counts: cell_limit.utf16_length)
    is not taken."""
    changed: dict[str, str] = {}
    too_long: dict[str, str] = {}
    keywords = keyword_literals(formula)

    def literal(match: re.Match[str]) -> str:
        token = match.group()
        if token.startswith("'") or match.start() in keywords:
            return token
        text = token[1:-1].replace('""', '"')
        operator = next((sign for sign in EQUALITY if text.startswith(sign)), "")
        now = followed.of(text)
        if now is None and operator and (rest := followed.of(text[len(operator):])) is not None:
            now = operator + rest  # a criterion: COUNTIF(A:A,"<>Done")
        if now is not None and longest is not None and utf16_length(now) > longest:
            too_long[text] = now
            return token
        if now is None:
            return token
        changed[text] = now
        return '"' + now.replace('"', '""') + '"'

    return Literals(LITERAL.sub(literal, formula), changed, too_long)


def keyword_literals(formula: str) -> set[int]:
    """Where the literals of ``formula`` begin that a function reads as a keyword (KEYWORDS): each
    call's arguments counted by its separators ("," in Excel's formulas, ";" in OpenFormula's), those
    inside an array's braces or a reference's brackets (``Sales[[#This Row],[Name]]``) apart."""
    calls: list[tuple[str, int]] = []  # each call (or array, or brackets: "") open, and its argument now
    found = set()
    for match in TOKEN.finditer(formula):
        token = match.group()
        if token.startswith('"') and calls and calls[-1][1] in KEYWORDS.get(calls[-1][0], ()):
            found.add(match.start())
        elif token in "({[":
            calls.append((called_function(formula, match.start()) if token == "(" else "", 0))
        elif token in ")}]" and calls:
            calls.pop()
        elif token in ",;" and calls:
            calls[-1] = (calls[-1][0], calls[-1][1] + 1)
    return found


def called_function(formula: str, bracket: int) -> str:
    """The function whose call opens at ``formula[bracket]`` ("("), upper-cased, without Excel's
    "_xlfn." or LibreOffice's "COM.MICROSOFT." (``_xlfn.IFS`` is IFS); "" for a bracket of no call."""
    called = CALLED.search(formula, 0, bracket)
    return called.group(1).upper().removeprefix("_XLFN.").removeprefix("COM.MICROSOFT.") if called else ""
