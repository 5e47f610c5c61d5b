"""A glossary file's header: the first row of a CSV file, or the first line of terms of a TSV one, that names
its columns or their languages rather than holding a term (attnmt.decoding.glossary_files), in English or in
the language of the sheet's user ("Quelle;Ziel", "Englisch;Deutsch", as a German user heads a sheet)."""

from __future__ import annotations

import re

from attnmt.errors import DataError
from attnmt.text.language_codes import (
    LANGUAGE_NAMES,
    is_iso_639_1_code,
    is_language_code,
    names_languages,
    variety,
)
from attnmt.text.language_codes import primary_subtag as primary
from attnmt.text.language_names import OTHER_NAMES, other_names, plain

# The names a header gives the source and the target column, as ``plain`` reads a cell (lower case, no accents):
# English, German, French, Spanish, Italian, Portuguese and Dutch ones.
SOURCE_COLUMNS = frozenset({
    "source", "source term", "src", "term", "source text", "source language",
    "quelle", "quellsprache", "ausgangssprache", "quelltext", "ausgangstext", "quellbegriff", "ausgangsbegriff",
    "quellterm", "terme source", "langue source", "texte source", "origen", "fuente", "termino de origen",
    "idioma de origen", "texto de origen", "origine", "sorgente", "termine di origine", "lingua di origine",
    "origem", "termo de origem", "idioma de origem", "bron", "bronterm", "brontaal", "brontekst"})
TARGET_COLUMNS = frozenset({
    "target", "target term", "tgt", "translation", "target text", "target language",
    "ziel", "zielsprache", "zieltext", "zielbegriff", "zielterm", "ubersetzung", "cible", "terme cible",
    "langue cible", "texte cible", "traduction", "destino", "termino de destino", "idioma de destino",
    "texto de destino", "traduccion", "destinazione", "termine di destinazione", "lingua di destinazione",
    "traduzione", "termo de destino", "traducao", "doel", "doelterm", "doeltaal",
    "doeltekst", "vertaling"})


def csv_header(fields: list[str], where: str, source_lang: str | None, target_lang: str | None) -> bool:
    """Whether a CSV file's first row ``fields`` (or a TSV file's first line of terms) is a header:
    its first two fields name the columns (SOURCE_COLUMNS, TARGET_COLUMNS, as ``column_name`` reads a cell:
    ``Quelle;Ziel``, ``source_term;target_term``) or two languages (``en,de``; by name, ``names_languages``),
    different ones, and where the languages translated are known, those; a term pair such as ``UK,GB`` is then a
    term.
    Where a language is not known, the two must be codes ISO 639-1 lists (``en``, ``de-DE``):
    ``dog,wau`` and ``car<TAB>PKW`` have a code's form but are terms, and so is ``uk,gb`` (``gb`` is
    no language's).  A header naming them the wrong way round (``de,en`` translating en -> de;
    ``Deutsch,Englisch``) is a DataError: the columns are swapped; and so is one naming two codes ISO
    639-1 lists, one of them the language translated at its place and the other not (``en,fr``,
    ``fr,de``), whose terms would be put into the translation as they are.  Two codes of which
    neither is (``it,es``, ``to,zu`` translating en -> de: "it" is "es") are a term.  Each cell is read as
    ``heading`` reads it (Crowdin's ``Term [en]``, memoQ's ``English_United_States``); two codes of one language
    as ``names_varieties`` reads them (``en-US,en-GB``)."""
    shown = [field.replace("\ufeff", "").strip() for field in fields[:2]]
    source, target = map(heading, shown)
    if (column_name(source) in SOURCE_COLUMNS and column_name(target) in TARGET_COLUMNS
            or names_languages(source, target, source_lang, target_lang)):  # English,German
        return True
    if source_lang and target_lang and names_languages(source, target, target_lang, source_lang):
        raise DataError(f"{where}: the header names the columns {shown[0]} -> {shown[1]}, and the terms are wanted "
                        f"{source_lang} -> {target_lang}: swap the columns")
    if not (is_language_code(source) and is_language_code(target)):
        return False
    if primary(source) == primary(target):
        return names_varieties(source, target, where, source_lang, target_lang)
    if source_lang is None or target_lang is None:  # nothing to compare with: two real languages' codes
        return is_iso_639_1_code(source) and is_iso_639_1_code(target)
    wanted = (primary(source_lang), primary(target_lang))
    if (primary(target), primary(source)) == wanted:
        raise DataError(f"{where}: the header names the columns {shown[0]} -> {shown[1]}, and the terms are wanted "
                        f"{source_lang} -> {target_lang}: swap the columns")
    if ((primary(source) == wanted[0]) != (primary(target) == wanted[1])
            and is_iso_639_1_code(source) and is_iso_639_1_code(target)):
        raise DataError(f"{where}: the header names the terms {shown[0]} -> {shown[1]}, and the translation is "
                        f"{source_lang} -> {target_lang}: give a glossary of {source_lang} -> {target_lang} terms "
                        "(where this row is a term, put a header such as source,target above it)")
    return (primary(source), primary(target)) == wanted


def column_name(cell: str) -> str:
    """A header's ``cell`` as SOURCE_COLUMNS and TARGET_COLUMNS hold the names of columns: ``plain``, its words parted
    by an underscore or a hyphen as by a space ("source_term", "Target-Text", as a program's export names its columns,
    which were read as a term)."""
    return " ".join(word for word in re.split(r"[\s_-]+", plain(cell)) if word)


# A column's heading as Crowdin's export writes it, its language's code in brackets: "Term [en]", "Term [pt-BR]".
TERM_COLUMN = re.compile(r"terms?\s*\[\s*([^][]+?)\s*\]", re.IGNORECASE)


def heading(cell: str) -> str:
    """A header's ``cell`` as the code or the name of the language it heads where a tool's export writes it so:
    Crowdin's "Term [en]" is "en" (TERM_COLUMN), memoQ's "English_United_States" (a language's name, then its
    region's after a "_") "English"; any other cell as it is.  Either was read as a term, and a header naming
    the columns the wrong way round was not refused.  A language's field (LANGUAGE_FIELDS: memoQ's
    "English_United_States_Def", which it writes before the term's column) heads no term: read as the
    language's, its definitions were forced into translations as terms."""
    if tagged := TERM_COLUMN.fullmatch(cell):
        return tagged[1]
    name, _, region = cell.partition("_")
    if plain(region.rpartition("_")[2]) in LANGUAGE_FIELDS:
        return cell
    return name if region and language_name(name) else cell


# The fields a term base export heads with a language's name and a "_" before them, which hold no term.
LANGUAGE_FIELDS = frozenset({"def", "definition", "description", "example", "note"})


def language_name(name: str) -> bool:
    """Whether ``name`` is a language's name in English or another language (``names_language``'s names)."""
    return plain(name) in LANGUAGE_NAMES.values() or any(plain(name) in other_names(code) for code in OTHER_NAMES)


def names_varieties(source: str, target: str, where: str, source_lang: str | None, target_lang: str | None) -> bool:
    """Whether two codes of one language head the columns of two of its varieties (``en-US,en-GB``, ``pt-PT;pt-BR``):
    different varieties of a language ISO 639-1 lists, those translated where they are known (``es,es`` is a term), a
    language as a whole any of its varieties (``pt-PT;pt-BR`` for pt to pt-BR).  Named the wrong way round, a
    DataError: the columns are swapped."""
    if variety(source) == variety(target) or not is_iso_639_1_code(source):
        return False
    if source_lang is None or target_lang is None:
        return True
    if is_variety(target, source_lang) and is_variety(source, target_lang):
        raise DataError(f"{where}: the header names the columns {source} -> {target}, and the terms are wanted "
                        f"{source_lang} -> {target_lang}: swap the columns")
    return is_variety(source, source_lang) and is_variety(target, target_lang)


def is_variety(code: str, wanted: str) -> bool:
    """Whether the language code ``code`` is one of the variety ``wanted`` (``pt-BR``), or of the language where
    ``wanted`` is the language as a whole (``pt``: ``pt-PT`` and ``pt-BR`` are)."""
    return variety(code) == variety(wanted) or (variety(wanted) == primary(wanted) == primary(code))
