"""The files a glossary is read from, by their extension: attnmt's TSV, a CSV file as DeepL's
glossaries and spreadsheets write it, and a TBX termbase (attnmt.decoding.termbase).

Each reader gives the file's terms as rows, (place, source term, target term), the place naming
the file and line ("terms.csv:3"); attnmt.decoding.glossary.read_glossaries adds every format's
rows to a glossary one way (``add_term``), so the rules for terms hold alike whatever the file.

- ``.tsv`` and any other name: ``source term<TAB>target term`` a line, a field in quotes read as a
  spreadsheet quotes it (``unquoted``; a cell's line breaks in it are spaces), empty fields after the
  second skipped (``filled``: a sheet's empty columns, as in a CSV file's rows), an unpaired quote at a term's
  edge dropped with a warning, in a CSV file's terms too (glossary_quotes.StrayQuotes: ``"cat``); blank lines and lines
  starting with ``#`` are skipped, and the first other line is a header, and skipped, where a CSV
  file's would be (``csv_header``: ``source<TAB>target``, as Google Sheets and Excel save a sheet).
- ``.csv``: ``source,target`` a row, quoted as RFC 4180 quotes (``"New York, NY",New York``, a
  ``"`` inside a quoted field doubled, a field quoted after a delimiter's spaces too: ``"dog", "Hund"``), or
  DeepL's four fields ``source,target,en,de``, the rows of
  the pair translated where it is known (others skipped: glossary_deepl.LanguagePairs), else of one pair; or a
  termbase's export, its first row heading its language columns (glossary_columns.sheet_rows; TSV too).
  A line break inside a quoted field (a cell's Alt+Enter in Excel) is a space: a term is one line.
  Blank rows, empty or of blank fields alone (``,`` or ``;``, a spreadsheet's empty row), are skipped; ``#`` starts no
  comment (``#hashtag`` is a term).  The first row is a header, and skipped, only when it is clearly one
  (``csv_header``, attnmt.decoding.glossary_headers): it names the columns (``source,target``; ``source term,target
  term``; ``src,tgt``; ``term,translation``; ``Quelle;Ziel``) or two different languages (``en,de``;
  ``en-US,de-DE``; ``English,German``; ``Englisch;Deutsch``; Crowdin's ``Term [en],Term [de]``, memoQ's
  ``English_United_States;German``), the languages translated where they are known, else
  two that ISO 639-1 lists (so ``dog,wau`` is a term); two that ISO 639-1 lists, others than those translated
  (``en,fr`` translating en -> de), are refused, as DeepL's four fields are. A CSV file's delimiter is a comma, a
  semicolon (what Excel writes where the decimal mark is a comma: German, French, Dutch settings) or a tab, read
  from the file (``csv_delimiter``): the one under which the most rows, from the first, hold 2 or 4 fields, the
  comma where two read as far, but one a row has a space after. A row that does not fit is then named with the
  delimiter assumed.  A first line that states the delimiter as Excel reads one (``sep=;``) is followed, and skipped.
- ``.tbx``, and ``.xml`` whose first element is a TBX root (``martif``, ``tbx``): a termbase, as is a file
  of any other name but ``.csv`` that starts with an XML declaration (``glossary_kinds.declares_xml``: a TBX
  export saved as ``terms.txt``), or MultiTerm's own XML (``mtf``, termbase.py).  An XML file with another root
  (a translation memory's ``<tmx>``) is refused naming it.
- ``.json``: an object ``{"dog": "Hund"}`` or a list of ``{"source": …, "target": …}`` (attnmt.decoding.glossary_json).

A CSV, TSV or JSON file is UTF-8, or UTF-16 where it starts with that encoding's byte order mark, as
Excel's "Unicode Text" saves a sheet (tabs between the cells: a ``.txt`` or ``.tsv`` file is read as TSV, a ``.csv``
one as CSV with tabs).  A ``.gz`` ending is read through (``terms.csv.gz`` is a CSV file), as read_lines reads it.
Its lines end in LF or CRLF, or in CR alone where no LF parts them (as classic Mac OS, and Excel's "CSV (Macintosh)",
save a file; in a CSV file, no LF outside a quoted field, where it is a cell's line break).  A spreadsheet or
document (an ``.xlsx``, ``.ods``, ``.docx`` or ``.xls`` file, by its first bytes) is refused asking for a CSV file,
and MultiTerm's own termbase (an ``.sdltb`` file, an Access database) asking for TBX, a PDF or RTF document asking
for its terms in a CSV or TSV file (glossary_kinds.NOT_TEXT).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.decoding.glossary_columns import sheet_rows, with_both_terms
from attnmt.decoding.glossary_deepl import LanguagePairs
from attnmt.decoding.glossary_headers import csv_header
from attnmt.decoding.glossary_json import json_rows
from attnmt.decoding.glossary_kinds import check_text, declares_xml, kept_as_is, other_format
from attnmt.decoding.glossary_quotes import QUOTED_FIELD, StrayQuotes, one_line, unquoted, without_stray_quote
from attnmt.decoding.termbase import ROOTS, termbase_rows, xml_root
from attnmt.errors import ConfigError, DataError, value_shown
from attnmt.text.data import (
    BROKEN_STREAM,
    GZIP_MAGIC,
    cannot_read,
    decode_lines,
    gzip_without_gz,
    is_gzip_name,
    not_gzip,
    open_bytes,
)
from attnmt.text.encodings import UNICODE_BOMS
from attnmt.text.language_codes import is_language_code

if TYPE_CHECKING:
    import _csv

Row = tuple[str, str, str]  # (place "terms.csv:3", source term, target term)

# The delimiters a CSV file may have, each with its name, in the order preferred where several fit.
DELIMITERS = {",": "a comma", ";": "a semicolon", "\t": "a tab"}


def glossary_rows(path: str | Path, source_lang: str | None = None, target_lang: str | None = None) -> Iterator[Row]:
    """The terms of the glossary file ``path``, read by its extension (the module docstring):
    (place, source term, target term) in the file's order.  ``source_lang`` and ``target_lang``
    (BCP 47 codes, matched by their primary subtags: en-US is en) choose a termbase's languages and
    check a CSV file's; None where not known.  A malformed file is a DataError naming file:line, one
    without a term (``with_terms``; termbase_rows: of no entries) naming the file."""
    suffix = format_suffix(path)
    if suffix == ".json":
        return with_terms(with_both_terms(json_rows(text_lines(path), path), path), path)
    if suffix == ".csv":
        return with_terms(with_both_terms(csv_rows(path, source_lang, target_lang), path), path)
    root = xml_root(path) if suffix in XML_SUFFIXES or (suffix != ".tbx" and declares_xml(path)) else None
    if suffix == ".tbx" or root in ROOTS:
        return termbase_rows(path, source_lang, target_lang)
    if root is not None:  # XML, but no termbase: its lines are no terms either
        raise DataError(f"{path}: a <{root}> file, not TBX (whose root is <martif> or <tbx>) nor MultiTerm XML "
                        "(<mtf>): export the termbase as TBX, or the terms as CSV")
    return with_terms(with_both_terms(tsv_rows(path, source_lang, target_lang), path), path)


# The names of files that are XML whether or not they start with a declaration (a translation memory, an XLIFF file
# written without one: "memory.tmx:1: expected 'source term<TAB>target term', got 0 TABs in '<tmx …'")
XML_SUFFIXES = (".xml", ".tmx", ".xlf", ".xliff")


def with_terms(rows: Iterator[Row], path: str | Path) -> Iterator[Row]:
    """``rows``; a DataError naming ``path`` for none (the wrong file given, its comments or header alone)."""
    first = next(rows, None)
    if first is None:
        raise DataError(f"{path}: no glossary terms in the file (it is empty, or holds only blank lines, "
                        "comments or a header): give the glossary meant, a term a line ('source<TAB>target')")
    yield first
    yield from rows


def format_suffix(path: str | Path) -> str:
    """The extension that says a glossary file's format, in lower case, past a ``.gz``."""
    name = Path(path).name.lower().removesuffix(".gz")
    return Path(name).suffix


def check_languages(source_lang: object, target_lang: object) -> None:
    """One clear error for a ``source_lang`` or ``target_lang`` that is neither None nor a language code
    ("en", "pt-BR"), before any file is read: 3 was an AttributeError in a termbase's sections, and
    "English" was read as a code that no entry's language matched."""
    for name, lang in (("source_lang", source_lang), ("target_lang", target_lang)):
        if lang is not None and not is_language_code(lang):
            raise ConfigError(f"{name}: expected a language code such as 'en', 'de' or 'pt-BR' (or None: not "
                              f"known), got {lang!r:.60}")


def tsv_rows(path: str | Path, source_lang: str | None = None, target_lang: str | None = None) -> Iterator[Row]:
    """The terms of a TSV glossary: ``source term<TAB>target term`` a line, blank and ``#`` lines
    skipped, and the first other line where it is a header as a CSV file's first row is
    (``csv_header``, with ``source_lang`` and ``target_lang``), or heads a termbase's language columns
    (glossary_columns.sheet_rows)."""
    first, quotes = True, StrayQuotes(path)
    for where, fields in sheet_rows(tsv_fields(path), path, source_lang, target_lang):
        if len(fields) != 2:
            hint = other_format(fields[0]) if len(fields) == 1 else ""
            raise DataError(f"{where}: expected 'source term<TAB>target term', got {len(fields) - 1} "
                            f"TABs in {value_shown(chr(9).join(fields))}{hint}")
        if first:
            first = False
            if csv_header(list(map(without_stray_quote, fields)), where, source_lang, target_lang):
                continue
        yield quotes.terms(where, fields[0], fields[1])
    quotes.report()


def tsv_fields(path: str | Path) -> Iterator[tuple[str, list[str]]]:
    """A TSV file's lines of terms as (place, fields), blank lines and ``#`` lines skipped."""
    for number, line in tsv_lines(text_lines(path)):
        line = line.replace("\ufeff", " ")  # as term_text: a second file's "\ufeff# …", where files were joined
        if line.strip() and not line.lstrip().startswith("#"):
            yield f"{path}:{number}", filled([unquoted(field) for field in line.split("\t")])


def tsv_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """A TSV file's ``lines``, each with its number, and with the lines after it that a quoted cell
    holding line breaks goes on to (``quoted_cell_lines``), as one: Excel's "Unicode Text" writes a
    cell's Alt+Enter so, and the file stopped with "got 0 TABs in '"New'"."""
    number = 0
    while number < len(lines):
        taken = quoted_cell_lines(lines, number)
        yield number + 1, "\n".join(lines[number:number + taken])
        number += taken


def quoted_cell_lines(lines: list[str], start: int) -> int:
    """How many of ``lines`` from ``start`` on one TSV row spans: more than one where its last field
    opens a quoted cell (QUOTED_FIELD) that a later line closes, two fields in all; else one."""
    last = lines[start].split("\t")[-1]
    if not last.lstrip().startswith('"') or last.count('"') % 2 == 0:
        return 1
    end = next((k for k in range(start + 1, len(lines)) if lines[k].count('"') % 2), None)
    if end is None:
        return 1
    fields = "\n".join(lines[start:end + 1]).split("\t")
    quoted = all(QUOTED_FIELD.fullmatch(field.strip()) for field in fields if "\n" in field)
    return end + 1 - start if len(fields) == 2 and quoted else 1


def csv_rows(path: str | Path, source_lang: str | None, target_lang: str | None) -> Iterator[Row]:
    """The terms of a CSV glossary (the module docstring), its header skipped (``csv_header``)."""
    lines = [line + "\n" for line in csv_lines(text_lines(path))]  # with their ends: a quoted field's break is one
    delimiter = stated_delimiter(lines, path) or csv_delimiter(lines)
    shown, assumed = "<TAB>" if delimiter == "\t" else delimiter, f"{DELIMITERS[delimiter]} as the delimiter"
    reader = csv_reader(lines, delimiter)
    pairs = LanguagePairs(path, shown, source_lang, target_lang)  # a four-field file's
    first, quotes = True, StrayQuotes(path)
    try:
        for where, fields in sheet_rows(csv_fields(reader, path), path, source_lang, target_lang):
            if len(fields) not in (2, 4):
                raise DataError(f"{where}: expected 2 fields (source{shown}target) or 4 (source{shown}target"
                                f"{shown}source language{shown}target language), got {len(fields)} in "
                                f"{delimiter.join(fields)!r:.80} (read with {assumed})"
                                + (kept_as_is(fields[0], shown) if len(fields) == 1 else ""))
            if first and csv_header(list(map(without_stray_quote, fields)), where, source_lang, target_lang):
                first = False
                continue
            first = False
            if len(fields) == 2 or pairs.wanted(fields, where):
                yield quotes.terms(where, fields[0], fields[1])
        pairs.report()
        quotes.report()
    except csv.Error as error:
        raise DataError(f"{path}:{reader.line_num}: not valid CSV: {csv_fault(error)} (read with {assumed})") from None


def csv_fields(reader: _csv.Reader, path: str | Path) -> Iterator[tuple[str, list[str]]]:
    """A CSV file's rows as (place of its first line, fields), blank ones skipped (``blank_row``)."""
    start = 1
    for fields in reader:
        where, start = f"{path}:{start}", reader.line_num + 1  # a quoted field may span lines
        if not blank_row(fields := filled([one_line(field) for field in fields])):
            yield where, fields


def csv_reader(lines: list[str], delimiter: str) -> _csv.Reader:
    """The rows of a CSV file of ``lines`` read with ``delimiter``: strict, so that a stray quote is an error,
    not a term; the spaces after a delimiter skipped, so that a field quoted after one (``"dog", "Hund"``, as a
    file written by hand has it) is read without its quotes, as a TSV file's is (``unquoted``): its quotes were
    the term's, and '"Hund"' was forced into the translation.  An unquoted field loses nothing by it: a term is
    stripped."""
    return csv.reader(lines, delimiter=delimiter, strict=True, skipinitialspace=True)


def csv_fault(error: csv.Error) -> str:
    """What a csv.Error says, but for a CR inside a line (of a file whose other lines end in LF, so
    that ``cr_ended`` leaves it): Python's words for it ask for a universal-newline mode."""
    if "new-line character" in str(error):
        return "a line break (CR) inside an unquoted field: save the file with LF or CRLF line ends"
    return str(error)


def filled(fields: list[str]) -> list[str]:
    """A row's fields, its first two alone where those after them are empty (``dog<TAB>Hund<TAB>``, ``dog,Hund,,``:
    the empty columns a spreadsheet leaves after the last it holds), which were refused though they hold nothing."""
    return fields[:2] if len(fields) > 2 and not "".join(fields[2:]).strip() else fields


def blank_row(fields: list[str]) -> bool:
    """Whether a CSV row holds no term: no fields (an empty line), or spaces and delimiters alone (``,``, ``;``,
    ``;;;``: a spreadsheet's empty row, whatever the file's delimiter), as a TSV line of spaces and tabs is."""
    return all(character.isspace() or character in DELIMITERS for character in "".join(fields))


# The first line of a CSV file written for Excel that states its delimiter, which Excel reads and never shows.
STATED_DELIMITER = re.compile(r"sep=(.)", re.IGNORECASE)


def stated_delimiter(lines: list[str], path: str | Path) -> str | None:
    """The delimiter the first of ``lines`` states as Excel reads one (``sep=;``), that line then made
    blank, so that it is skipped as a blank row and the rows keep their numbers; None where it states
    none (it was read as a term: "terms.csv:1: empty target term (beside 'sep=')").  A DataError for
    a delimiter other than DELIMITERS'."""
    stated = STATED_DELIMITER.fullmatch(lines[0].lstrip("\ufeff").rstrip("\r\n")) if lines else None
    if stated is None:
        return None
    if stated[1] not in DELIMITERS:
        raise DataError(f"{path}:1: the file states its delimiter is {stated[1]!r} ({stated[0]}), and a glossary's is "
                        "a comma, a semicolon or a tab")
    lines[0] = "\n"
    return stated[1]


def csv_delimiter(lines: list[str]) -> str:
    """The delimiter of a CSV file of ``lines`` (each with its line end): of DELIMITERS, the one
    under which the most rows, from the first, hold 2 or 4 fields (a blank row fits any), the first
    of them where several read as far.  So ``Hund;dog`` is a semicolon's row and ``"Hund; der",dog`` a comma's, and a
    semicolon file whose first term holds a comma (``Hund;dog, hound``) is one still where a later
    row has none.  Of those that read as far, the one that parts the row where they stop into the
    most fields, so that a sheet of three columns (``e-mail;E-Mail;``, Excel's empty third column) is
    named as read with its own delimiter, not with a comma ("got 1 in 'e-mail;E-Mail;'").  Then one no row has a
    space after: a comma between words ("Hund, der;dog" on every row) is a term's, not the delimiter of a sheet."""
    return max(DELIMITERS, key=lambda delimiter: (*fitting_rows(lines, delimiter),
                                                 not any(f"{delimiter} " in line for line in lines)))


def fitting_rows(lines: list[str], delimiter: str) -> tuple[int, int]:
    """How many rows of a CSV file of ``lines`` (each with its line end), from the first, hold 2 or 4
    fields (or are blank: ``blank_row``) when read with ``delimiter``, and how many fields the row after
    them holds where they are more than two (0 for none, for one field, which the delimiter did not part,
    and for a row that is no valid CSV with it, which ends them)."""
    fitting = 0
    try:
        for fields in map(filled, csv_reader(lines, delimiter)):
            if len(fields) not in (2, 4) and not blank_row(fields):
                return fitting, len(fields) if len(fields) > 2 else 0
            fitting += 1
    except csv.Error:
        pass
    return fitting, 0


def text_lines(path: str | Path) -> list[str]:
    """The lines of a CSV or TSV glossary (the module docstring): UTF-8, as read_lines reads it, or
    UTF-16 where the file starts with that encoding's byte order mark.  The file is read once, so
    that a named pipe (``--glossary <(…)``) is read whole."""
    try:
        with open_bytes(path) as file:
            data = file.read()
    except BROKEN_STREAM as error:
        raise not_gzip(path, error) from None
    except OSError as error:  # missing, a folder, unreadable
        raise cannot_read(path, error) from None
    if data.startswith(GZIP_MAGIC) and not is_gzip_name(Path(path)):
        raise gzip_without_gz(Path(path))
    check_text(data, path)
    if next((name for bom, name in UNICODE_BOMS.items() if data.startswith(bom)), None) != "UTF-16":
        return cr_ended(utf8_lines(data, path))
    try:
        text = data.decode("utf-16")  # the byte order mark says which byte comes first, and is dropped
    except UnicodeDecodeError as error:
        line = data[:error.start].decode("utf-16", "replace").count("\n") + 1
        raise DataError(f"{path}:{line}: invalid UTF-16 ({error.reason}); save the file again, or convert it "
                        "to UTF-8, e.g. with iconv -f UTF-16 -t UTF-8") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return cr_ended([line.removesuffix("\r") for line in lines])


def utf8_lines(data: bytes, path: str | Path) -> list[str]:
    """The lines of a UTF-8 glossary, as decode_lines reads them (UTF-32 and UTF-16 without a byte order mark are
    named there); invalid UTF-8 is named saying how to save the sheet from Excel too: its "CSV (Comma delimited)"
    writes Windows-1252, and "invalid UTF-8 (byte 0xfc); convert the file …" said nothing to a user of Excel."""
    try:
        return decode_lines(data, str(path))
    except DataError as error:
        if "invalid UTF-8" not in str(error):
            raise
        raise DataError(f'{error}; from Excel, save the sheet as "CSV UTF-8 (Comma delimited)" (or "Unicode Text" '
                        "for tabs)") from None


def cr_ended(lines: list[str]) -> list[str]:
    """The lines of a file, ``lines`` as split at LF, split at CR too where LF made one line of
    them: the file's lines end in CR alone, as classic Mac OS and Excel's "CSV (Macintosh)" save
    them, and were read as one line ("got 2 TABs in 'dog\\tHund\\rcat\\tKatze'").  A file of
    lines ending in LF keeps a CR inside a line, which is then named where it does not fit."""
    if len(lines) != 1 or "\r" not in lines[0]:
        return lines
    return lines[0].split("\r")


def csv_lines(lines: list[str]) -> list[str]:
    """The lines of a CSV file, ``lines`` as text_lines gives them, split at CR instead of LF where
    each LF lies in a quoted field: the file's rows end in CR alone and a cell holds a line break
    (an LF, as Excel's "CSV (Macintosh)" writes Alt+Enter), which ``cr_ended`` took for a line end
    and so left the CRs inside lines ("a line break (CR) inside an unquoted field").  So split, the
    lines must read as CSV (``reads_as_csv``) with the delimiter the reader then finds in them
    (``csv_delimiter``): the csv module refuses an LF outside a quoted field, and a quote opens one
    only at a field's start (the inch mark of ``screen 5",Bildschirm`` opens none).  A file of
    LF-ended rows with a CR in a quoted cell (``dog,"Hund<CR>"``) does not: split there, the quote
    after its CR opens a field that never closes."""
    if not any("\r" in line for line in lines):
        return lines
    split = "\n".join(lines).split("\r")
    ended = [line + "\n" for line in split]  # as csv_rows reads them
    if not reads_as_csv(ended, csv_delimiter(ended)):
        return lines  # an LF ends a row: the file's lines end in LF, and a CR in one is named
    return split


def reads_as_csv(lines: list[str], delimiter: str) -> bool:
    """Whether ``lines`` (each with its line end) read as CSV with ``delimiter``, to their end."""
    try:
        for _ in csv_reader(lines, delimiter):
            pass
    except csv.Error:
        return False
    return True
