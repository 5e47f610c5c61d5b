"""A workbook's number formats' words (``numFmt``'s ``formatCode`` in xl/styles.xml): a format may write
text beside a cell's number, quoted, ``0 " items"``, ``#,##0 "pcs"``, ``"Total: "0``, and Excel and
LibreOffice show it in the cell, "5 items".  Kept, a translated sheet said "5 items" under translated
headers; so each quoted literal with words is translated as a line of plain text, its spaces kept, its
source kept where the model garbled it, as a cell's short label's is (attnmt.documents.office_labels).
The format's codes (numbers, colours, conditions and a currency's ``[$€-407]``) are kept exactly, and so
is a character escaped alone, ``\\k``, and a quoted literal without letters, ``"2024"``.

A quoted literal ends at the next quote: Excel reads a quote inside one as ``\\"``, the literal closed
before it and opened again after it, and a translation's quotes are written so (``written_literal``).
Excel takes a format of at most 255 characters (FORMAT_LIMIT); a format whose translation is longer
keeps its source, with a warning naming the file and the format (``over_format_limit``).

A chart's axis or data labels may have a format of their own, written so in the chart's part and
translated as a cell's is (``chart_format_jobs``).  One linked to its source (``sourceLinked="1"``) is a
copy of the cells' format, which Excel reads again from them; but LibreOffice, previews and converters
draw the copy, so where it is a translated cell format's source code it takes that format's translation
(``follow_cell_formats``), as a chart's cached labels follow their cells (attnmt.documents.chart_cells)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Job, Part, parse_part
from attnmt.documents.chart_cells import c, cx
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.spans import Nested, plain
from attnmt.errors import LeftUntranslated, warn

FORMAT_CODE = "formatCode"
FORMAT_LIMIT = 255  # the characters Excel takes in a number format
# A format's pieces: a quoted literal (its text the group), a character escaped by \, a space as wide as
# a character (_x), a character repeated to fill the cell (*x), a bracket's code ([Red], [$€-407], [>=10]),
# or any other character.
PIECES = re.compile(r'"([^"]*)"?|\\.|_.|\*.|\[[^\]]*\]?|.', re.DOTALL)


class FormatJob:
    """One number format's quoted literals with words, each a line of plain text (the module docstring)."""

    def __init__(self, element: etree._Element, glossary: Glossary | None) -> None:
        self.element, self.source = element, element.get(FORMAT_CODE, "")
        self.pieces = [match.group(0) for match in PIECES.finditer(self.source)]
        self.literals = [number for number, piece in enumerate(self.pieces)
                         if piece.startswith('"') and needs_translation(literal_text(piece), glossary)]
        self.lines = [literal_line(literal_text(self.pieces[number])) for number in self.literals]

    def flats(self) -> list[FlatText]:
        return self.lines

    def translated(self, results: Sequence[Sequence[str | Nested]]) -> str:
        """The format with the translations (``results``: one a literal) in its literals' places."""
        pieces = list(self.pieces)
        for number, result in zip(self.literals, results, strict=True):
            pieces[number] = written_literal(plain(result))
        return "".join(pieces)

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        self.element.set(FORMAT_CODE, self.translated(results))


def literal_text(piece: str) -> str:
    """A quoted literal's text (one the format left unclosed runs to its end)."""
    return piece[1:-1] if len(piece) > 1 and piece.endswith('"') else piece[1:]


def literal_line(text: str) -> FlatText:
    builder = FlatBuilder(collapse=False)
    builder.add_text(text)
    return builder.build()


def written_literal(text: str) -> str:
    """``text`` as a format's literal: quoted, each quote in it written ``\\"`` between quoted parts."""
    return '\\"'.join(f'"{part}"' if part else "" for part in text.split('"'))


class NumberFormats:
    """The styles part's number formats with words (the module docstring): the cells' formats
    (``numFmts``) and those of conditional formats and tables (``dxf``'s ``numFmt``)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        jobs = [FormatJob(element, glossary) for element in root.iter(s("numFmt"))]
        return [job for job in jobs if job.literals]


def chart_format_jobs(root: etree._Element, glossary: Glossary | None) -> list[FormatJob]:
    """A job for each number format with words that the chart ``root`` writes itself, "5 items" at each tick of
    an axis or on each data label (``c:numFmt``, Excel 2016's charts' ``cx:numFmt``); none for another part.
    A format linked to its source (``sourceLinked="1"``) is the cells' (translated in the workbook's styles),
    which it follows once they are (``follow_cell_formats``); one that does not say is the chart's."""
    if root.tag not in (c("chartSpace"), cx("chartSpace")):
        return []
    jobs = [FormatJob(element, glossary) for element in root.iter(c("numFmt"), cx("numFmt"))
            if element.get("sourceLinked") not in ("1", "true")]
    return [job for job in jobs if job.literals]


def follow_cell_formats(archive: Archive, parts: Sequence[Part]) -> None:
    """Each chart format linked to its source (of ``parts``' charts) whose code is, exactly, one of the
    cells' formats as the workbook's styles part came (in ``archive``, which holds every part as it came until
    the translated ones are written), takes that format's translation (the styles part among ``parts``:
    ``translated_formats``); a chart changed is marked so (Part.changed).  Another code is left as it is."""
    styles = next((part for part in parts if part.tree.getroot().tag == s("styleSheet")), None)
    if styles is None:
        return
    translations = translated_formats(parse_part(archive, styles.member).getroot(), styles.tree.getroot())
    for part in (part for part in parts if part.tree.getroot().tag in (c("chartSpace"), cx("chartSpace"))):
        for element in part.tree.getroot().iter(c("numFmt"), cx("numFmt")):
            code = element.get(FORMAT_CODE, "")
            if element.get("sourceLinked") in ("1", "true") and code in translations:
                element.set(FORMAT_CODE, translations[code])
                part.changed = True


def translated_formats(source: etree._Element, translated: etree._Element) -> dict[str, str]:
    """Each cells' format's code (a styles part's ``numFmts``, by their ``numFmtId``, ``source`` as it came)
    -> its code in ``translated``, where the two differ; a code that two formats translate differently (one's
    garbled word kept) is left out, its cells' format not certain."""
    codes = {element.get("numFmtId"): element.get(FORMAT_CODE, "") for element in cell_formats(source)}
    found: dict[str, set[str]] = {}
    for element in cell_formats(translated):
        if element.get("numFmtId") in codes:
            found.setdefault(codes[element.get("numFmtId")], set()).add(element.get(FORMAT_CODE, ""))
    return {code: next(iter(written)) for code, written in found.items() if len(written) == 1 and code not in written}


def cell_formats(root: etree._Element) -> list[etree._Element]:
    """A styles part's cells' number formats (its ``numFmts``; not a conditional format's, ``dxf``'s)."""
    return [element for formats in root.iterchildren(s("numFmts")) for element in formats.iterchildren(s("numFmt"))]


def over_format_limit(job: Job, results: Sequence[Sequence[str | Nested]], name: str) -> bool:
    """Whether ``job`` is a number format whose translation (``results``, as Job.finish is given them) is longer
    than Excel takes; warned about, naming the file ``name``, where it is."""
    if not isinstance(job, FormatJob):
        return False
    length = len(job.translated(results))
    if length <= FORMAT_LIMIT:
        return False
    place = job.lines[0].place
    warn(f"{name}: {place.part if place is not None else 'the styles'}: the number format {job.source!r} "
         f"translated is {length} characters long, more than the {FORMAT_LIMIT} Excel allows, so the source "
         "text is kept there", category=LeftUntranslated)
    return True


NUMBER_FORMATS = NumberFormats()
