"""The languages an XLIFF file names (attnmt.documents.xliff): what its sources are in (1.2's
``source-language`` on each ``<file>``, XLIFF 2's ``srcLang`` on ``<xliff>``) and what its targets
are for (``target-language``, ``trgLang``), each checked against the language translated from or
into, by its primary subtag (``en-US`` is ``en``), a three-letter one read as its two-letter code
(text.language_codes.language_of): memoQ's ``.mqxliff`` says ``source-language="eng"``
``target-language="ger"``, and was refused as a file in another language than ``en``.

A file for another target language is refused: its existing targets are in its language.  A file
in another source language is refused too: read by the model as its own language, a French file
was "translated" by an English model into nonsense, said to be a machine's suggestion.  So is a
source to translate whose own ``xml:lang`` (1.2's ``<source>`` or ``<seg-source>``, XLIFF 2's
segment's ``<source>``) names another language (say_sources_language): the file's language said
nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from attnmt.documents.language import names_no_language
from attnmt.documents.pages import local_name
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import DataError, UserError
from attnmt.text.language_codes import language_of

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# The elements of a unit (1.2) or segment (2) that hold the text translated, and may say its language.
SOURCES = frozenset(("source", "seg-source"))


def say_languages(root: etree._Element, version_2: bool, options: DocumentOptions, where: str,
                  holders_translated: Iterable[etree._Element] = (), first_line: int = 1) -> None:
    """The file's source language checked (say_source_language, where ``options`` knows it), then that
    of the sources of ``holders_translated`` (the 1.2 units or XLIFF 2 segments given targets:
    say_sources_language; ``first_line``: the file's line the parsed text starts on), and its
    target language checked or written (say_target_language)."""
    if options.source_lang_known:
        say_source_language(root, version_2, options.source_lang, where, options.source_lang_option,
                            options.source_lang_asked)
        say_sources_language(holders_translated, options.source_lang, where, first_line,
                             options.source_lang_option, options.source_lang_asked)
    say_target_language(root, version_2, options.target_lang, where, options.target_lang_option)


def holders(root: etree._Element, version_2: bool) -> list[etree._Element]:
    """The elements that name the file's languages: XLIFF 2's ``<xliff>``, each 1.2 ``<file>``."""
    return [root] if version_2 else list(root.iter("{*}file"))


def say_source_language(root: etree._Element, version_2: bool, lang: str, where: str,
                        option: str | None = None, asked: bool = True) -> None:
    """UserError where a 1.2 ``<file>``'s ``source-language`` (XLIFF 2's ``srcLang``) names another
    language than ``lang`` (by its primary subtag, or its two-letter code: language_of); one that names none is
    left so.  ``option``
    (DocumentOptions.source_lang_option): ``lang`` is the model's, not asked for, and the refusal says so
    and how to ask for another; not ``asked`` (DocumentOptions.source_lang_asked): it is the model's,
    and no option asks for another (a server's model)."""
    name = "srcLang" if version_2 else "source-language"
    for holder in holders(root, version_2):
        written = holder.get(name, "").strip()
        if written and language_of(written) != language_of(lang):
            raise UserError(f"{where}: the file's {name} is {written}, {source_advice(written, lang, option, asked)}")


def say_sources_language(holders_translated: Iterable[etree._Element], lang: str, where: str, first_line: int = 1,
                         option: str | None = None, asked: bool = True) -> None:
    """UserError, naming its line, where a ``<source>`` or ``<seg-source>`` of a unit or segment to
    translate says in ``xml:lang`` another language than ``lang`` (by its primary subtag), as
    say_source_language refuses the file's; one that names none, or no language (``und``, ``zxx``),
    is left so."""
    for holder in holders_translated:
        for source in holder.iterchildren(etree.Element):
            written = source.get(XML_LANG, "").strip() if local_name(source) in SOURCES else ""
            if written and not names_no_language(written) and language_of(written) != language_of(lang):
                line = f"line {source.sourceline + first_line - 1}: " if source.sourceline else ""
                raise UserError(f"{where}: {line}the <{local_name(source)}>'s xml:lang is {written}, "
                                f"{source_advice(written, lang, option, asked)}")


def source_advice(written: str, lang: str, option: str | None, asked: bool) -> str:
    """What a refusal of a file in ``written`` says of ``lang`` and what to do (say_source_language)."""
    if option:
        return (f"the model's source language (from its train.yaml) is {lang}: translate it with a model "
                f"from {written} (or give {option} {written} where this one reads it), or take a file in {lang}")
    if not asked:
        return f"the model translates from {lang}: translate it with a model from {written}, or take a file in {lang}"
    return f"the source language asked for {lang}: translate it from {written}, or take a file in {lang}"


def say_target_language(root: etree._Element, version_2: bool, lang: str | None, where: str,
                        option: str | None = None) -> None:
    """Each 1.2 ``<file>``'s ``target-language`` (XLIFF 2's ``trgLang`` on ``<xliff>``) says ``lang``
    where the file names none; one that names ``lang`` (by its primary subtag: ``de-DE`` is ``de``)
    stays as written, one that names another refuses ``lang`` (the file's existing targets are
    in its language).  ``option`` (DocumentOptions.target_lang_option): ``lang`` is the model's, not
    asked for, and the refusal says so and how to ask for the file's."""
    name = "trgLang" if version_2 else "target-language"
    for holder in holders(root, version_2):
        written = holder.get(name, "").strip()
        if lang and written and language_of(written) != language_of(lang):
            raise UserError(f"{where}: the file's {name} is {written}, " + (
                f"the model's target language (from its train.yaml) is {lang}: give {option} {written} to "
                f"translate it into {written}, or take a file for {lang}" if option else
                f"the target language asked for {lang}: translate it into {written}, or take a file for {lang}"))
        if lang and not written:
            holder.set(name, lang)
        elif version_2 and not written:
            raise DataError(f"{where}: an XLIFF 2 file names its target language in trgLang on <xliff>, and "
                            "this one has none: give the target language (--target-lang)")
