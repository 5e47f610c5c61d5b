"""The files a glossary is read from, by their extension: attnmt's TSV, a CSV file as DeepL's
glossaries and spreadsheets write it, and a TBX termbase (attnmt.decoding.termbase).

Each reader gives the file's terms as rows, (place, source term, target term), the place naming
the file and line ("terms.csv:3"); attnmt.decoding.glossary.read_glossaries adds every format's
rows to a glossary one way (``add_term``), so the rules for terms hold alike whatever the file.

- ``.tsv`` and any other name: ``source term<TAB>target term`` a line; blank lines and lines
  starting with ``#`` are skipped.
- ``.csv``: ``source,target`` a row, quoted as RFC 4180 quotes (``"New York, NY",New York``, a
  ``"`` inside a quoted field doubled), or DeepL's four fields ``source,target,en,de``, whose
  languages are then the same on every row and, where the languages are known, those translated.
  Blank rows are skipped; ``#`` starts no comment (``#hashtag`` is a term).  The first row is a
  header, and skipped, only when it is clearly one (``csv_header``): it names the columns
  (``source,target``; ``source term,target term``; ``src,tgt``; ``term,translation``) or two
  different languages (``en,de``; ``en-US,de-DE``), the languages translated where they are known.
- ``.tbx``, and ``.xml`` whose first element is a TBX root (``martif``, ``tbx``): a termbase.

A ``.gz`` ending is read through (``terms.csv.gz`` is a CSV file), as read_lines reads it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from attnmt.decoding.termbase import is_termbase, termbase_rows
from attnmt.errors import DataError
from attnmt.text.data import read_lines
from attnmt.text.language_codes import is_language_code
from attnmt.text.language_codes import primary_subtag as primary

Row = tuple[str, str, str]  # (place "terms.csv:3", source term, target term)

# A CSV file's header: the first two fields naming the source and the target column, case aside.
SOURCE_COLUMNS = ("source", "source term", "src", "term")
TARGET_COLUMNS = ("target", "target term", "tgt", "translation")


def glossary_rows(path: str | Path, source_lang: str | None = None, target_lang: str | None = None) -> Iterator[Row]:
    """The terms of the glossary file ``path``, read by its extension (the module docstring):
    (place, source term, target term) in the file's order.  ``source_lang`` and ``target_lang``
    (BCP 47 codes, matched by their primary subtags: en-US is en) choose a termbase's languages and
    check a CSV file's; None where not known.  A malformed file is a DataError naming file:line."""
    suffix = format_suffix(path)
    if suffix == ".csv":
        return csv_rows(path, source_lang, target_lang)
    if suffix == ".tbx" or (suffix == ".xml" and is_termbase(path)):
        return termbase_rows(path, source_lang, target_lang)
    return tsv_rows(path)


def format_suffix(path: str | Path) -> str:
    """The extension that says a glossary file's format, in lower case, past a ``.gz``."""
    name = Path(path).name.lower().removesuffix(".gz")
    return Path(name).suffix


def tsv_rows(path: str | Path) -> Iterator[Row]:
    """The terms of a TSV glossary: ``source term<TAB>target term`` a line, blank and ``#`` lines skipped."""
    for number, line in enumerate(read_lines(path), start=1):
        line = line.replace("\ufeff", " ")  # as term_text: a second file's "\ufeff# …", where files were joined
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2:
            raise DataError(f"{path}:{number}: expected 'source term<TAB>target term', got {len(fields) - 1} "
                            f"TABs in {line!r}")
        yield f"{path}:{number}", fields[0], fields[1]


def csv_rows(path: str | Path, source_lang: str | None, target_lang: str | None) -> Iterator[Row]:
    """The terms of a CSV glossary (the module docstring), its header skipped (``csv_header``)."""
    reader = csv.reader(read_lines(path), strict=True)  # strict: a stray quote is an error, not a term
    languages: tuple[str, str] | None = None  # a four-field file's, from its first row
    first, start = True, 1
    try:
        for fields in reader:
            where, start = f"{path}:{start}", reader.line_num + 1  # a quoted field may span lines
            if not fields:
                continue
            if len(fields) not in (2, 4):
                raise DataError(f"{where}: expected 2 fields (source,target) or 4 (source,target,source language,"
                                f"target language), got {len(fields)} in {','.join(fields)!r:.80}")
            if first and csv_header(fields, where, source_lang, target_lang):
                first = False
                continue
            first = False
            if len(fields) == 4:
                languages = languages or row_languages(fields, where, source_lang, target_lang)
                if tuple(map(primary, fields[2:])) != languages:
                    raise DataError(f"{where}: the terms are {fields[2]} -> {fields[3]}, and the file's first are "
                                    f"{languages[0]} -> {languages[1]}: one glossary holds one language pair")
            yield where, fields[0], fields[1]
    except csv.Error as error:
        raise DataError(f"{path}:{reader.line_num}: not valid CSV: {error}") from None


def csv_header(fields: list[str], where: str, source_lang: str | None, target_lang: str | None) -> bool:
    """Whether a CSV file's first row ``fields`` is a header: its first two fields name the columns
    (SOURCE_COLUMNS, TARGET_COLUMNS) or two languages (``en,de``), different ones, and where the
    languages translated are known, those; a term pair such as ``UK,GB`` is then a term.  A header
    naming them the wrong way round (``de,en`` translating en -> de) is a DataError: the columns are
    swapped."""
    source, target = (field.replace("\ufeff", "").strip() for field in fields[:2])
    if source.casefold() in SOURCE_COLUMNS and target.casefold() in TARGET_COLUMNS:
        return True
    if not (is_language_code(source) and is_language_code(target)) or primary(source) == primary(target):
        return False
    if source_lang is None or target_lang is None:
        return True
    wanted = (primary(source_lang), primary(target_lang))
    if (primary(target), primary(source)) == wanted:
        raise DataError(f"{where}: the header names the columns {source} -> {target}, and the terms are wanted "
                        f"{source_lang} -> {target_lang}: swap the columns")
    return (primary(source), primary(target)) == wanted


def row_languages(fields: list[str], where: str, source_lang: str | None,
                  target_lang: str | None) -> tuple[str, str]:
    """The language pair of a four-field CSV file's first row, as primary subtags; a DataError
    where the languages translated are known and are others."""
    languages = (primary(fields[2]), primary(fields[3]))
    if source_lang is not None and target_lang is not None and languages != (primary(source_lang),
                                                                              primary(target_lang)):
        raise DataError(f"{where}: the terms are {fields[2]} -> {fields[3]}, and the translation is "
                        f"{source_lang} -> {target_lang}")
    return languages
