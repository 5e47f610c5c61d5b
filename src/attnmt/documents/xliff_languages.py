"""The languages an XLIFF file names (attnmt.documents.xliff): what its sources are in (1.2's
``source-language`` on each ``<file>``, XLIFF 2's ``srcLang`` on ``<xliff>``) and what its targets
are for (``target-language``, ``trgLang``), each checked against the language translated from or
into, by its primary subtag (``en-US`` is ``en``).

A file for another target language is refused: its existing targets are in its language.  A file
in another source language is refused too: read by the model as its own language, a French file
was "translated" by an English model into nonsense, said to be a machine's suggestion.
"""

from __future__ import annotations

from lxml import etree

from attnmt.documents.language import primary
from attnmt.documents.pipeline import DocumentOptions
from attnmt.errors import DataError, UserError


def say_languages(root: etree._Element, version_2: bool, options: DocumentOptions, where: str) -> None:
    """The file's source language checked (say_source_language, where ``options`` knows it), and its
    target language checked or written (say_target_language)."""
    if options.source_lang_known:
        say_source_language(root, version_2, options.source_lang, where, options.source_lang_option,
                            options.source_lang_asked)
    say_target_language(root, version_2, options.target_lang, where, options.target_lang_option)


def holders(root: etree._Element, version_2: bool) -> list[etree._Element]:
    """The elements that name the file's languages: XLIFF 2's ``<xliff>``, each 1.2 ``<file>``."""
    return [root] if version_2 else list(root.iter("{*}file"))


def say_source_language(root: etree._Element, version_2: bool, lang: str, where: str,
                        option: str | None = None, asked: bool = True) -> None:
    """UserError where a 1.2 ``<file>``'s ``source-language`` (XLIFF 2's ``srcLang``) names another
    language than ``lang`` (by its primary subtag); one that names none is left so.  ``option``
    (DocumentOptions.source_lang_option): ``lang`` is the model's, not asked for, and the refusal says so
    and how to ask for another; not ``asked`` (DocumentOptions.source_lang_asked): it is the model's,
    and no option asks for another (a server's model)."""
    name = "srcLang" if version_2 else "source-language"
    for holder in holders(root, version_2):
        written = holder.get(name, "").strip()
        if written and primary(written) != primary(lang):
            raise UserError(f"{where}: the file's {name} is {written}, {source_advice(written, lang, option, asked)}")


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
        if lang and written and primary(written) != primary(lang):
            raise UserError(f"{where}: the file's {name} is {written}, " + (
                f"the model's target language (from its train.yaml) is {lang}: give {option} {written} to "
                f"translate it into {written}, or take a file for {lang}" if option else
                f"the target language asked for {lang}: translate it into {written}, or take a file for {lang}"))
        if lang and not written:
            holder.set(name, lang)
        elif version_2 and not written:
            raise DataError(f"{where}: an XLIFF 2 file names its target language in trgLang on <xliff>, and "
                            "this one has none: give the target language (--target-lang)")
