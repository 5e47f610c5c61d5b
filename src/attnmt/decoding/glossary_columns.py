"""A glossary sheet's columns past its two terms (attnmt.decoding.glossary_files): those its header names (notes,
a term's status), and the language columns of a termbase exported as a sheet, whose header names the language of
each term's column among its other fields' (memoQ's
``Entry_ID;English_United_States;English_United_States_Def;German;German_Def``, Crowdin's ``Term [en],Description
[en],Term [de],Description [de]``), and a row whose target cell is empty.  DeepL's four fields: glossary_deepl."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

from attnmt.decoding.glossary_headers import (
    SOURCE_COLUMNS,
    TARGET_COLUMNS,
    column_name,
    csv_header,
    heading,
    language_name,
)
from attnmt.decoding.term_forms import normal
from attnmt.decoding.termbase import NOT_USED, status_of
from attnmt.errors import DataError, value_shown, warn
from attnmt.text.language_codes import is_iso_639_1_code, is_language_code, names_language, variety
from attnmt.text.language_codes import primary_subtag as primary
from attnmt.text.language_names import plain

Fields = tuple[str, list[str]]  # (place "terms.csv:3", a row's fields)
Row = tuple[str, str, str]  # (place "terms.csv:3", source term, target term)


def with_both_terms(rows: Iterator[Row], path: str | Path) -> Iterator[Row]:
    """A CSV or TSV glossary's ``rows`` without those whose target cell is empty (``dog,``: a row not translated
    yet) or whose source cell is (``,Hund``), counted in one warning for each side naming the first, as a
    termbase's entries without a term in one of the languages are skipped (attnmt.decoding.termbase): such a row
    stopped the whole file.  A file no row of which has both terms (its one column alone) is a DataError naming
    its first row."""
    skipped: dict[str, list[Row]] = {"target": [], "source": []}
    count, first = 0, ""  # the side the first row skipped lacks
    for row in rows:
        count += 1
        side = "source" if not normal(row[1]) else "target" if not normal(row[2]) else None
        if side is None:
            yield row
            continue
        skipped[side].append(row)
        first = first or side
    if count and sum(map(len, skipped.values())) == count:
        where, source, target = skipped[first][0]
        raise DataError(f"{where}: empty {first} term (beside {value_shown(source if first == 'target' else target)}), "
                        "and no row of the file has both terms: give each source term its target term after it")
    for side, missing in skipped.items():
        if missing:
            warn(f"{path}: {len(missing)} of {count} rows skipped, without a {side} term (the first: {missing[0][0]})")


def sheet_rows(rows: Iterator[Fields], path: str | Path, source_lang: str | None,
               target_lang: str | None) -> Iterator[Fields]:
    """A sheet's ``rows`` as they are; but where the first heads a termbase's language columns (``language_columns``),
    each row after it as its two terms, those of the columns, a row without both (an entry the termbase holds in
    one of the languages alone) skipped, and such rows counted in one warning naming the first, as are those whose
    target term a column marks not to use (``marking_columns``: Lokalise's "forbidden", TRUE; Crowdin's "Status [de]",
    "not recommended"; memoQ's "Term_Info" after the target term: ``term_infos``, an entry's next target term then its
    target), which a translation must not use (a term a TRANSLATABLE column says is not, FALSE,
    is its own target where its target cell is empty); a source term's synonym, in a column headed as its own (memoQ
    repeats an entry's term columns for its second term), is a source term of the row's target too; those a
    CASE_SENSITIVE column marks are read,
    and counted in one warning: a glossary matches a term in any case.  Read as a sheet of two columns, the export
    was refused ("expected 2 fields … got 5").  A sheet whose header names notes past its two terms' columns
    (``noted_header``) is its rows' first two fields."""
    first = next(rows, None)
    if first is None:
        return
    header = first[1]
    columns = language_columns(header, source_lang, target_lang)
    if columns is None:
        check_languages_header(header, first[0], source_lang, target_lang)
        yield from named_rows(chain([first], rows), path, source_lang, target_lang)
        return
    case, translatable = (
        next((k for k, cell in enumerate(header) if plain(cell.replace("\ufeff", "").strip()) in names), -1)
        for names in (CASE_SENSITIVE, TRANSLATABLE))
    marks = marking_columns(header, target_lang)
    infos = term_infos(header, columns[1])
    synonyms = [k for k, cell in enumerate(header) if k != columns[0] and cell.strip() == header[columns[0]].strip()]
    skipped, banned, cased, count = [], [], [], 0
    for where, fields in rows:
        count += 1
        terms = [fields[column] if column < len(fields) else "" for column in columns]
        terms[1], forbidden = allowed_target(fields, infos) if infos else (terms[1], None)
        if 0 <= translatable < len(fields) and plain(fields[translatable].strip()) in FALSE and not terms[1].strip():
            terms[1] = terms[0]  # a term kept as it is ("PNG"), its target cell left empty
        if (marked := marking_column(fields, marks) if forbidden is None else forbidden) is not None:
            banned.append((where, marked))
        elif all(term.strip() for term in terms):
            if 0 <= case < len(fields) and plain(fields[case].strip()) in TRUE:
                cased.append(where)
            yield where, terms
            yield from ((where, [fields[k], terms[1]]) for k in synonyms if k < len(fields) and fields[k].strip())
        else:
            skipped.append(where)
    warn_banned(path, banned, count, header)
    if cased:
        warn(f"{path}: {len(cased)} of {count} rows mark their terms case sensitive in the {header[case].strip()} "
             f"column (the first: {cased[0]}), and a term is matched in any case (an acronym in capitals alone): give "
             "its other cases targets of their own (word,Wort beside Word,Word)")
    if skipped:
        named = [header[column].replace("\ufeff", "").strip() for column in columns]
        warn(f"{path}: {len(skipped)} of {count} rows skipped, without a term in both the {named[0]} and the "
             f"{named[1]} column (the first: {skipped[0]})")


# A term base sheet's column marking the terms not to use (Lokalise's "forbidden"), one marking those matched in their
# own case alone (Phrase's "case sensitive"), and the values that mark one.
FORBIDDEN = frozenset({"forbidden", "forbidden term", "do not use", "verboten"})
# A column giving a term's status (Crowdin's "Status [de]"), whose value says not to use it as a TBX status does
STATUS = frozenset({"status", "term status", "usage", "usage status", "administrative status"})
CASE_SENSITIVE = frozenset({"case sensitive", "casesensitive", "case-sensitive", "case sensitivity", "match case"})
TRUE = frozenset({"1", "true", "yes", "y", "x", "wahr", "ja"})
# A column saying whether a term is translated (Phrase's and Lokalise's "translatable"), and the values that say not:
# such a term is its own target, its target cell left empty.
TRANSLATABLE = frozenset({"translatable", "translate"})
FALSE = frozenset({"0", "false", "no", "n", "falsch", "nein"})


# The names a sheet's header gives a column of notes on a term, as ``plain`` reads a cell: English, German, French,
# Spanish, Italian, Portuguese and Dutch ones, as a glossary made by hand heads its third column.
NOTE_COLUMNS = frozenset({
    "comment", "comments", "note", "notes", "definition", "definitions", "description", "context", "remark",
    "remarks", "example", "examples", "usage note", "info", "kommentar", "kommentare", "anmerkung", "anmerkungen",
    "bemerkung", "bemerkungen", "hinweis", "hinweise", "beschreibung", "beispiel", "kontext", "commentaire",
    "commentaires", "remarque", "remarques", "exemple", "comentario", "comentarios", "nota", "notas", "definicion",
    "descripcion", "ejemplo", "commento", "commenti", "descrizione", "definizione", "esempio", "observacao",
    "observacoes", "descricao", "definicao", "exemplo", "opmerking", "opmerkingen", "toelichting", "beschrijving",
    "voorbeeld"})


def check_languages_header(header: list[str], where: str, source_lang: str | None, target_lang: str | None) -> None:
    """A DataError naming ``where`` for a first row ``header`` that names a language in each of its three columns or
    more (Google Cloud Translation's equivalent term sets, ``en,de,fr``; ``English;German;French``) where the
    languages translated are not known, asking for them, or where one of them has no column, naming it: read as a
    row of three fields, it was "expected 2 fields … got 3 in 'en,de,fr'"."""
    cells = [heading(field.replace("\ufeff", "").strip()) for field in header]
    if len(cells) < 3 or not all(is_language_code(cell) and is_iso_639_1_code(cell) or language_name(cell)
                                 for cell in cells):
        return
    shown = ", ".join(field.replace("\ufeff", "").strip() for field in header)
    if target_lang is None:
        raise DataError(f"{where}: the header names the columns of several languages ({shown}), and the target "
                        "language is not known: give it (--target-lang; read_glossary(path, target_lang=...))")
    if source_lang is None:
        raise DataError(f"{where}: the header names the columns of several languages ({shown}), and the source "
                        "language is not known: give it (--source-lang; read_glossary(path, source_lang=...))")
    missing = [lang for lang in (source_lang, target_lang) if column(cells, lang) is None]
    raise DataError(f"{where}: the header names the columns of the languages {shown}, and the terms are wanted "
                    f"{source_lang} -> {target_lang}: no column is headed {' or '.join(missing)}")


def named_rows(rows: Iterator[Fields], path: str | Path, source_lang: str | None,
               target_lang: str | None) -> Iterator[Fields]:
    """A sheet's ``rows`` as they are, its header first; but where the header names its terms' columns
    (``named_columns``), each row as its two terms, those of the columns, less the rows whose target term a column
    marks not to use (``marking_columns``: ``source,target,status`` of "forbidden"), counted in one warning.  A row
    of more fields than the header names is a DataError naming it and the header, as a delimiter in a cell may have
    moved the terms ("New York, NY"), but where the header names the terms first and notes alone after them
    (``source,target,note``, ``target,source,note``: ``notes_only``), whose cells the fields past the header are of:
    under a header naming the target first, such a row stopped with "expected 2 fields (source,target) or DeepL's
    4", the order the header had not, and ``Katze,cat,de,en`` was read as DeepL's, Katze -> cat."""
    place, header = next(rows)
    by_name = named_columns(header, place, source_lang, target_lang)
    if by_name is None:
        yield place, header
        yield from rows
        return
    yield place, [field_at(header, k) for k in by_name]
    marks, banned, count = marking_columns(header, target_lang), [], 0
    noted = sorted(by_name) == [0, 1] and notes_only(header[2:])  # a row's fields past the header: a note's
    for where, fields in rows:
        count += 1
        if len(fields) > len(header) and not noted:
            shown = ", ".join(cell.replace("\ufeff", "").strip() for cell in header)
            raise DataError(f"{where}: {len(fields)} fields, and the header ({place}) names {len(header)} columns "
                            f"({shown}): give the row one cell a column (a cell that holds the delimiter in quotes)")
        if (marked := marking_column(fields, marks)) is not None:
            banned.append((where, marked))
            continue
        yield where, [field_at(fields, k) for k in by_name]
    warn_banned(path, banned, count, header)


def warn_banned(path: str | Path, banned: list[tuple[str, int]], count: int, header: list[str]) -> None:
    """One warning counting the rows of ``count`` skipped for a target term marked not to use, ``banned``'s (place,
    index of the column marking it), naming the first and its column."""
    if banned:
        where, marked = banned[0]
        warn(f"{path}: {len(banned)} of {count} rows skipped, their terms marked forbidden in the "
             f"{header[marked].replace(chr(0xFEFF), '').strip()} column (the first: {where})")


def named_columns(header: list[str], where: str, source_lang: str | None,
                  target_lang: str | None) -> tuple[int, int] | None:
    """The indices of the source and the target term's columns where a sheet's first row ``header`` of more than two
    names them, each once, by the names SOURCE_COLUMNS and TARGET_COLUMNS give (``source,target,comment,domain``:
    its other columns, whatever their names, hold no term; ``comment;source;target``), or heads them and notes
    (``noted_header``): ``source,target,comment,domain`` was read as DeepL's four fields ("field 3 is 'WLAN
    hardware', not a language code"); or where a header of two names the target's first (``target,source``, whose
    header was a term and whose terms were read the other way round, Hund -> dog).  None for another row, and for
    one naming a language among its other columns (``source,target,en``): its file's columns are read as they
    stand."""
    cells = [column_name(field.replace("\ufeff", "").strip()) for field in header]
    sources = [k for k, cell in enumerate(cells) if cell in SOURCE_COLUMNS]
    targets = [k for k, cell in enumerate(cells) if cell in TARGET_COLUMNS]
    others = [heading(field.replace("\ufeff", "").strip()) for k, field in enumerate(header)
              if k not in (*sources, *targets)]
    if len(sources) == len(targets) == 1 and (others and not any(map(is_language_code, others)) and not any(
            map(language_name, others)) or not others and targets[0] < sources[0]):  # a language's column
        return sources[0], targets[0]  # (``source,target,en``) may hold a term: read as it is
    return (0, 1) if noted_header(header, where, source_lang, target_lang) else None


def field_at(fields: list[str], index: int) -> str:
    """A row's field at ``index``, empty where the row is shorter (a spreadsheet's empty cells at a row's end)."""
    return fields[index] if index < len(fields) else ""


def noted_header(header: list[str], where: str, source_lang: str | None, target_lang: str | None) -> bool:
    """Whether a sheet's first row ``header`` heads its two terms' columns (``csv_header``: ``source;target``,
    ``English,German``) and columns of notes alone after them (NOTE_COLUMNS: ``source;target;comment``, a glossary
    made by hand), which hold no term: the file was refused ("expected 2 fields … got 3")."""
    return notes_only(header[2:]) and csv_header(header[:2], where, source_lang, target_lang)


def notes_only(cells: list[str]) -> bool:
    """Whether a header's ``cells`` past its terms' columns name notes (NOTE_COLUMNS), one at least, and no other."""
    notes = [plain(cell.strip()) for cell in cells]
    return any(notes) and all(note in NOTE_COLUMNS for note in notes if note)


def language_columns(fields: list[str], source_lang: str | None, target_lang: str | None) -> tuple[int, int] | None:
    """Where a first row of more than two ``fields`` heads a termbase's export, the index of its source term's column,
    the first whose cell names the source language (``names``), and its target term's, the first other naming the
    target language.  None for a row that heads no such columns: the languages not known, a cell naming a column
    the target (``source;target;notes``: its first two are the terms), DeepL's four fields (``dog,Hund,en,de``),
    or no cell naming one of the languages.  A column named the term alone (Phrase's ``term,description,…,en,de``:
    the entry's name) says nothing of the others: it was read as ``source;target;notes`` and the file refused."""
    if source_lang is None or target_lang is None or len(fields) < 3:
        return None
    cells = [heading(field.replace("\ufeff", "").strip()) for field in fields]
    if (len(fields) == 4 and all(map(is_language_code, cells[2:]))
            or any(column_name(cell) in TARGET_COLUMNS for cell in cells)):
        return None
    source = column(cells, source_lang)
    target = None if source is None else column(cells, target_lang, source)
    return None if source is None or target is None else (source, target)


def column(cells: list[str], lang: str, taken: int | None = None) -> int | None:
    """The index of the first of a header's ``cells`` but ``taken`` that names ``lang`` (``names``): one naming it by
    its name before one by a code (``ID;English;Indonesian`` translating Indonesian: "ID" numbers the rows), then its
    own variety's (``en-GB;en-US`` translating en-US to en-GB: en-US's is the source column); None for none."""
    named = [index for index, cell in enumerate(cells) if index != taken and names(cell, lang)]
    return min(named, key=lambda index: (is_language_code(cells[index]), variety(cells[index]) != variety(lang),
                                         index), default=None)


def names(cell: str, lang: str) -> bool:
    """Whether a header's ``cell`` (as ``heading`` reads it) names the language ``lang``: by a code ISO 639-1 lists, of
    its primary subtag (``en``, ``en-US``), or by its name (``English``, ``Englisch``: ``names_language``)."""
    if is_language_code(cell) and is_iso_639_1_code(cell):
        return primary(cell) == primary(lang)
    return names_language(cell, lang)


# A column of one language's field, as a term base sheet heads it: Crowdin's "Status [de]" (the field, then the
# language in brackets), or the language, then the field after a "_" ("de_forbidden", "German_Forbidden")
LANGUAGE_FIELD = re.compile(r"(?P<field>[^][]+?)\s*\[\s*(?P<lang>[^][]+?)\s*\]|(?P<in>.+)_(?P<of>[^_]+)")


def marking_columns(header: list[str], target_lang: str | None) -> list[tuple[int, frozenset[str]]]:
    """The columns of a termbase sheet's ``header`` that mark a row's target term not to use, each with the field's
    names (FORBIDDEN: its value TRUE; STATUS: a deprecated one, ``termbase.status_of``): one of the whole row
    (Lokalise's "forbidden"), or one of the target language's field (LANGUAGE_FIELD: "de_forbidden", Crowdin's
    "Status [de]").  A source term's field says nothing: a source term not to use is recognised all the same, as a
    termbase's deprecated one is (attnmt.decoding.termbase)."""
    marks = []
    for index, cell in enumerate(header):
        cell = cell.replace("\ufeff", "").strip()
        of_language = LANGUAGE_FIELD.fullmatch(cell)
        field, lang = (plain(cell), None) if of_language is None else (
            plain(of_language["field"] or of_language["of"]), of_language["lang"] or of_language["in"])
        wanted = lang is None or target_lang is not None and names(heading(lang), target_lang)
        if wanted and (names_of := next((kind for kind in (FORBIDDEN, STATUS) if field in kind), None)):
            marks.append((index, names_of))
    return marks


def marking_column(fields: list[str], marks: list[tuple[int, frozenset[str]]]) -> int | None:
    """The index of the first of ``marks`` (``marking_columns``) whose cell in a row's ``fields`` marks its target
    term not to use; None for none."""
    for index, kind in marks:
        value = fields[index] if index < len(fields) else ""
        if plain(value.strip()) in TRUE if kind is FORBIDDEN else status_of(value) in NOT_USED:
            return index
    return None


# A term's field of its own, as memoQ writes it after the term's column, that says how the term is used: "Forbidden",
# among its other flags and notes.
TERM_INFO = "term info"


def term_infos(header: list[str], target: int) -> list[tuple[int, int]]:
    """The columns of a termbase sheet's target terms, the ``target`` column and those headed as it (memoQ repeats an
    entry's term columns for its second term), each with its term's own info column (TERM_INFO: memoQ's "Term_Info"
    among the "Term_" fields after it), -1 where it has none; empty where no target term has one."""
    names = [plain(cell.replace("\ufeff", "").strip()).replace("_", " ") for cell in header]
    infos = []
    for column in (k for k in range(target, len(header)) if names[k] == names[target]):
        own = next((k for k in range(column + 1, len(header)) if not names[k].startswith("term ")
                    or names[k] == TERM_INFO), -1)
        infos.append((column, own if own >= 0 and names[own] == TERM_INFO else -1))
    return infos if any(info >= 0 for _, info in infos) else []


def allowed_target(fields: list[str], infos: list[tuple[int, int]]) -> tuple[str, int | None]:
    """A row's first target term whose info (``term_infos``) does not forbid it (``forbids``), and None; where each
    target term it holds is forbidden, "" and the index of the first one's info column: memoQ's "Term_Info" was not
    read, and a term marked forbidden there was forced into translations."""
    forbidden = None
    for column, info in infos:
        term = field_at(fields, column)
        if term.strip() and info >= 0 and forbids(field_at(fields, info)):
            forbidden = info if forbidden is None else forbidden
        elif term.strip():
            return term, None
    return "", forbidden


def forbids(info: str) -> bool:
    """Whether a term's info cell marks it not to use: one of its parts ("|", ";" or "," between them) a status not
    to use ("Forbidden", "deprecated": ``termbase.status_of``), or such a status set as a flag ("Forbidden=1", not
    "Forbidden: false")."""
    for part in re.split(r"[|;,]", info):
        name, _, flag = part.replace(":", "=").partition("=")
        if status_of(name) in NOT_USED and plain(flag.strip()) not in FALSE:
            return True
    return False
