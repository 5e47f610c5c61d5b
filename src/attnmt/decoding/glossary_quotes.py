"""The quotes of a glossary sheet's cells (attnmt.decoding.glossary_files): a TSV field wholly in quotes, as a
spreadsheet quotes one (``unquoted``), and a stray quote at a term's edge (``StrayQuotes``), which a CSV export
leaves: ``"cat<TAB>Katze`` was the term '"cat', which no sentence holds, with no word said."""

from __future__ import annotations

import re
from pathlib import Path

from attnmt.errors import value_shown, warn

# A TSV field as a spreadsheet quotes one holding a quote or a line break (Excel's "Unicode Text"): in
# quotes, each quote inside doubled.
QUOTED_FIELD = re.compile(r'"((?:[^"]|"")*)"')
# A line break, with the spaces and other breaks around it (a cell's blank line in it).
LINE_BREAK = re.compile(r"\s*[\r\n]\s*")


def unquoted(field: str) -> str:
    """A TSV field without the quotes a spreadsheet put around it (QUOTED_FIELD): Excel saves the cell
    ``say "hi"`` in quotes, its quote doubled, which was read as the term, quotes and all, so no sentence
    held it and its target term was written into the translation so.  A quote elsewhere (``5" screen``)
    is the term's; a line break in the quotes is a space (``one_line``), as in a CSV file's field."""
    quoted = QUOTED_FIELD.fullmatch(field.strip())
    return field if quoted is None else one_line(quoted[1].replace('""', '"'))


def one_line(field: str) -> str:
    """A CSV field with each line break in it, and the spaces around it, as one space: a quoted
    field may hold one (a cell's Alt+Enter in Excel), a term cannot, and "Hund<break>Bello" was read
    as "HundBello".  Its other spaces stay as a TSV file's do (matching reads a run of them as one)."""
    return LINE_BREAK.sub(" ", field)


def without_stray_quote(term: str) -> str:
    """``term`` without a quote at its start or end that no other quote in it pairs (an odd number of them): one a
    CSV export left when it quoted the cell and the quote's other half was lost, or a cell typed with one (``"cat``,
    ``Katze"``).  Not a quote after a digit at its end, an inch's or a second's mark (``24"``, ``Bildschirm 5"``),
    nor one inside it (``5" screen``), which are the term's.  A header is read so too (``"source<TAB>target``), and
    skipped: read as a row, the term 'source' (its quote dropped) asked every "source" to be translated "target"."""
    stripped = term.strip()
    if stripped.count('"') % 2 == 0:
        return term
    if stripped.startswith('"'):
        return stripped[1:].strip()
    if stripped.endswith('"') and not stripped[-2:-1].isdigit():
        return stripped[:-1].strip()
    return term


class StrayQuotes:
    """The terms of one glossary file read without a stray quote at their edge (``without_stray_quote``), reported
    in one warning naming the first (file:line) and how many.  Dropped rather than kept: kept, '"cat' matched no
    sentence's "cat", and a target term 'Katze"' was forced into every translation, quote and all; the warning names
    the line to mend."""

    def __init__(self, path: str | Path) -> None:
        self.path, self.first, self.count = path, "", 0

    def terms(self, where: str, source: str, target: str) -> tuple[str, str, str]:
        """The row (``where``, ``source``, ``target``) with its terms' stray quotes dropped, each counted."""
        kept = without_stray_quote(source), without_stray_quote(target)
        for given, term in zip((source, target), kept, strict=True):
            if term != given:
                self.count += 1
                self.first = self.first or f"{where}: {value_shown(given.strip())} read as {value_shown(term)}"
        return where, *kept

    def report(self) -> None:
        """One warning for the terms read without a stray quote, if any."""
        if self.count:
            more = f" ({self.count - 1} more term{'s' if self.count > 2 else ''} so in {self.path})" if (
                self.count > 1) else ""
            warn(f"{self.first}: an unpaired quote at a term's edge, as a CSV export leaves one, is dropped{more}")
