"""The languages of DeepL's four fields, a CSV glossary's ``source,target,en,de`` rows (attnmt.decoding.glossary_files):
checked to be language codes, and the rows of the pair translated kept."""

from __future__ import annotations

from pathlib import Path

from attnmt.errors import DataError, warn
from attnmt.text.language_codes import is_language_code
from attnmt.text.language_codes import primary_subtag as primary


def language_fields(fields: list[str], where: str, shown: str) -> tuple[str, str]:
    """The language pair of a four-field CSV row, DeepL's ``source,target,en,de``, as primary
    subtags; a DataError naming the field where field 3 or 4 is empty or no language code, as a
    sheet of other columns has (``dog,Hund,noun,masc``; ``dog,Hund,,``), written with ``shown``
    between the fields."""
    for number, field in enumerate(fields[2:], start=3):
        if not is_language_code(field.strip()):
            got = "is empty" if not field.strip() else f"is {field!r:.40}, not a language code"
            raise DataError(f"{where}: field {number} {got}: expected 2 fields (source{shown}target) or DeepL's 4 "
                            f"(source{shown}target{shown}source language{shown}target language)")
    return primary(fields[2]), primary(fields[3])


class LanguagePairs:
    """The language pairs of a CSV file's four-field rows (DeepL's ``source,target,en,de``).  Where the languages
    translated are known, the rows of that pair are the glossary and the others are skipped, counted in one warning
    (``report``): DeepL's web app exports a multilingual glossary as one file of several pairs' rows, which stopped
    ("the terms are DE -> EN, and the file's first are en -> de"); a file of no row of the pair is a DataError
    naming its first.  Where they are not known, every row must be of the first row's pair."""

    def __init__(self, path: str | Path, shown: str, source_lang: str | None, target_lang: str | None) -> None:
        self.path, self.shown, self.languages = path, shown, (source_lang, target_lang)
        self.first: tuple[str, str] | None = None  # the first row's pair, as primary subtags
        self.skipped: list[tuple[str, list[str]]] = []  # (place, fields) of the rows of another pair
        self.kept = 0

    def wanted(self, fields: list[str], where: str) -> bool:
        """Whether a four-field row's terms are of the pair translated (``language_fields`` checks its languages)."""
        pair = language_fields(fields, where, self.shown)
        source_lang, target_lang = self.languages
        if source_lang is None or target_lang is None:
            self.first = self.first or pair
            if pair != self.first:
                raise DataError(f"{where}: the terms are {fields[2]} -> {fields[3]}, and the file's first are "
                                f"{self.first[0]} -> {self.first[1]}: one glossary holds one language pair")
        elif pair != (primary(source_lang), primary(target_lang)):
            self.skipped.append((where, fields))
            return False
        self.kept += 1
        return True

    def report(self) -> None:
        """One warning counting the rows skipped; a DataError naming the first where no row was kept."""
        if not self.skipped:
            return
        (where, fields), (source_lang, target_lang) = self.skipped[0], self.languages
        if not self.kept:
            raise DataError(f"{where}: the terms are {fields[2]} -> {fields[3]}, and the translation is "
                            f"{source_lang} -> {target_lang}")
        warn(f"{self.path}: {len(self.skipped)} of {len(self.skipped) + self.kept} rows skipped, their terms of "
             f"another language pair than {source_lang} -> {target_lang} (the first: {where}, {fields[2]} -> "
             f"{fields[3]})")
