"""A worksheet's print headers and footers, and a chart sheet's (``headerFooter``'s ``oddHeader``, ``oddFooter``,
``evenHeader``, ``evenFooter``, ``firstHeader``, ``firstFooter``), which Excel prints on each page, as
an .ods's are translated.  Each is one string of Excel's codes and text:
``&L&"Arial,Bold"Confidential&RPage &P of &N`` is "Confidential" on the left in bold Arial and
"Page 3 of 9" on the right.  Its sections (``&L``, ``&C``, ``&R``; text before any is centred) are
translated each apart, line by line, and every code is an atom kept exactly as written where the
translation puts it (CODE: a field, ``&P``, ``&N``, ``&D``, ``&T``, ``&F``, ``&A``, ``&Z``, a
picture, ``&G``; a font, ``&"Arial,Bold"``, a size, ``&12``, a colour, ``&K00FF00``; bold, italic
and the like, ``&B``, ``&I``, ``&U``).  ``&&`` is a literal ampersand: read as "&", and every "&"
of the translation written "&&" again, as Excel would otherwise read it as a code.

A review shows a line as a reader of the printed page sees it (SHOWN): a field as what it prints,
"Page <page> of <pages>", a look's code as nothing; Excel's ``&"DejaVu Serif,Book"&12Page &P`` was no
words for a reviewer to read.

Excel takes a header or footer of at most 255 characters (LIMIT): one whose translation is longer
keeps its source text, with one warning naming the file, the sheet and the header (``over_header_limit``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.cell_limit import utf16_length
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_dialects import s
from attnmt.documents.spans import Nested, plain
from attnmt.documents.xstring import escape, text_in, unescape
from attnmt.errors import LeftUntranslated, warn

HEADERS = tuple(s(f"{page}{kind}") for page in ("odd", "even", "first") for kind in ("Header", "Footer"))
LIMIT = 255  # the characters Excel takes in a header or a footer, codes and all
# One of Excel's codes: a font in quotes, a size, a colour (RGB or a theme's), a page number with an
# offset (&P+1), any other letter; a lone "&" at the end, which Excel ignores, is kept as written too.
CODE = re.compile(r'&(?:"[^"]*"?|\d+|K(?:[0-9A-Fa-f]{6}|\d\d[+-]\d{3})|[PN](?:[+-]\d+)?|[A-Za-z]|$)')
# What a reader of the printed page sees of a field (the review's line: flat.atom_text); a look's code shows nothing
SHOWN = {"&P": "<page>", "&N": "<pages>", "&D": "<date>", "&T": "<time>", "&F": "<file>", "&Z": "<folder>",
         "&A": "<sheet>", "&G": "<picture>"}
SECTIONS = re.compile(r"&[LCR]")  # where a section starts: left, centre, right
MARKS = re.compile(r"&&|&[LCR]")  # a section's start, or a literal "&" (of "&&L", no start)


class HeaderJob:
    """One header or footer (an element of HEADERS): each line of each of its sections a flat text
    (module docstring), written again with its codes and section marks as they were."""

    def __init__(self, element: etree._Element) -> None:
        self.element = element
        self.text = unescape(text_in(element))
        # The header's pieces: section marks, kept, and each section's lines, translated
        self.pieces = sections(self.text)
        self.lines = {(number, line): flat_line(text) for number, piece in enumerate(self.pieces)
                      if not SECTIONS.fullmatch(piece) for line, text in enumerate(piece.split("\n"))}

    def needs_translation(self, glossary: Glossary | None) -> bool:
        return any(needs_translation(flat.text, glossary) for flat in self.lines.values())

    def flats(self) -> list[FlatText]:
        return list(self.lines.values())

    def translation(self, results: Sequence[Sequence[str | Nested]]) -> str:
        """The header as Excel reads it, its lines' translations (``results``) in place of their text."""
        translated = dict(zip(self.lines, (written(content) for content in results), strict=True))
        return "".join(piece if SECTIONS.fullmatch(piece) else "\n".join(
            translated[number, line] for line in range(piece.count("\n") + 1))
            for number, piece in enumerate(self.pieces))

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        del self.element[:]
        self.element.text = escape(self.translation(results))


def sections(text: str) -> list[str]:
    """``text``'s pieces: each section's start (SECTIONS) and the text of each section, in order."""
    pieces, position = [], 0
    for mark in (mark for mark in MARKS.finditer(text) if SECTIONS.fullmatch(mark.group())):
        pieces += [text[position:mark.start()], mark.group()]
        position = mark.end()
    return [piece for piece in (*pieces, text[position:]) if piece]


def flat_line(text: str) -> FlatText:
    """A line of a section: its text ("&&" read as "&") and its codes as atoms."""
    builder, position = FlatBuilder(collapse=False), 0
    for code in CODE.finditer(text.replace("&&", "\0\0")):  # a literal "&" starts no code
        builder.add_text(text[position:code.start()].replace("&&", "&"))
        builder.add_atom(literal=code.group(), shown=shown_code(code.group()))
        position = code.end()
    builder.add_text(text[position:].replace("&&", "&"))
    return builder.build()


def shown_code(code: str) -> str:
    """What a reader sees of ``code`` on the printed page (SHOWN): a page number with an offset as
    ``<page>+1``, a look's code as nothing."""
    field = SHOWN.get(code[:2], "")
    return field + code[2:] if field else ""


def written(content: Sequence[str | Nested]) -> str:
    """A translated line as Excel reads it: its text's "&" written "&&", its codes as they were, and a
    space (as openpyxl writes one after every size) between a code and text that would read as more of
    it: a size before the number a translation starts with (``&12`` then "2024 FOR REPORT" read as
    ``&122024``, a size, and LibreOffice printed " FOR REPORT"), a page's field before an offset's sign."""
    line, code = "", ""
    for piece in (piece if isinstance(piece, str) else plain(piece.content) for piece in content):
        if CODE.fullmatch(piece) and type(piece) is not str:
            line, code = line + piece, piece
            continue
        text = piece.replace("&", "&&")
        line, code = line + (" " if code and lengthens(code, text) else "") + text, "" if text else code
    return line


def lengthens(code: str, text: str) -> bool:
    """Whether ``text`` written right after ``code`` would be read as more of it (``&12`` and "2024")."""
    read = CODE.match(code + text)
    return read is not None and read.end() > len(code)


def header_jobs(root: etree._Element, glossary: Glossary | None) -> list[Job]:
    """A job for each of a worksheet's headers and footers with words to translate."""
    return [job for job in map(HeaderJob, root.iter(*HEADERS)) if job.needs_translation(glossary)]


class ChartSheet:
    """A chart sheet's texts: its print headers and footers (its chart is a part of its own)."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        return header_jobs(root, glossary)


CHART_SHEET = ChartSheet()


def over_header_limit(job: Job, results: Sequence[Sequence[str | Nested]], name: str) -> bool:
    """Whether ``job`` is a header or footer whose translation is longer than Excel takes (LIMIT);
    warned about, naming the file ``name``, where it is."""
    if not isinstance(job, HeaderJob):
        return False
    length = utf16_length(job.translation(results))
    if length <= LIMIT:
        return False
    place = job.lines[next(iter(job.lines))].place
    warn(f"{name}: {place.part if place is not None else 'a sheet'}, its {etree.QName(job.element).localname}: "
         f"its translation is {length} characters long, more than the {LIMIT} Excel allows, so the source text "
         "is kept there", category=LeftUntranslated)
    return True
