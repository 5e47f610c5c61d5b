"""Documents, not lines: paragraphs split into sentences, inline markup carried through translation
by word alignments, HTML pages and subtitle files (docs/documents.md).

    translate_text(model, tokenizer, lines)      plain text, each line split into sentences
    translate_html(model, tokenizer, text)       an HTML fragment or whole document
    translate_html_texts(model, tokenizer, texts)  several, batched together (the server's "format": "html")
    translate_xml(model, tokenizer, text)        an XML fragment with inline elements
    translate_xml_texts(model, tokenizer, texts)  several, batched together (the server's DeepL tag_handling=xml)
    translate_subtitles(model, tokenizer, text)  an SRT, WebVTT or ASS/SSA file
    translate_file(model, tokenizer, source, output)  a file, in the format its extension names:
        .txt .html .xml .xlf .srt .vtt .ass, and Word, PowerPoint, Excel, OpenDocument and EPUB (office.SUFFIXES)
    office.translate_office(data, suffix, translator, options)  a .docx, .pptx, .xlsx, .odt, .odp, .ods, .epub,
        or a flat .fodt, .fodp or .fods
    review.model_review(model, tokenizer, calibration, min_quality)  what translate_file(..., review=) fills:
        the sentences under a quality, each with where it is (review.segments; review.write(path): a TSV)
    review.reviewing(translator, calibration, min_quality)  the same, assessed from a ModelTranslator's search

Each takes a ``Decoding`` (how to search), ``DocumentOptions`` (how to cut up and rebuild)
and a ``Glossary`` (terms every translation must use; matched on the text a reader sees,
tags taken out, so a term in ``<b>red</b> car`` is found as "red car").  Where the model fails
on sentences, SentencesFailed names the input texts that hold them (a page or a subtitle file is
one text, which fails whole) and holds the others' translations, those texts' "" (failed.by_text);
translate_file's names the file (failed.FileFailed), and nothing is written.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.documents.failed import by_text, one_text
from attnmt.documents.line_ends import with_line_ends
from attnmt.documents.pipeline import DEFAULT_OPTIONS, DocumentOptions, check_inputs, check_options, translate_lines
from attnmt.documents.translators import ModelTranslator
from attnmt.errors import ConfigError, OutputError, UserError
from attnmt.inspect.trace import PieceCodec
from attnmt.model import Transformer
from attnmt.text.data import given_texts
from attnmt.text.encodings import given_text

# A review's names, imported where first used: its module loads quality estimation, which a document translated
# without a review never needs (issue 44).  translate_file's annotation names it by its path, which the package
# imports when the annotation is read (``__getattr__``: ``typing.get_type_hints`` reads them).
_REVIEW_NAMES = ("Review", "model_review", "reviewing")
if TYPE_CHECKING:
    import attnmt.documents.review
    from attnmt.documents.review import Review, model_review, reviewing
else:
    import attnmt

__all__ = ["DocumentOptions", "Review", "model_review", "reviewing", "translate_file", "translate_html",
           "translate_html_texts", "translate_subtitles", "translate_text", "translate_xml",
           "translate_xml_texts"]


def translate_html(model: Transformer, tokenizer: PieceCodec, text: str | bytes, decoding: Decoding = DEFAULT,
                   options: DocumentOptions = DEFAULT_OPTIONS,
                   glossary: Glossary | Mapping[str, str] | None = None) -> str:
    """An HTML fragment (``A <b>red</b> car``) or whole document, translated with its markup."""
    from attnmt.documents.markup import translate_markup  # lxml: loaded for markup only (plain text starts faster)

    translator = model_translator(model, tokenizer, decoding, options, glossary)
    return one_text(lambda each, texts: with_line_ends(texts, lambda lf: translate_markup(lf, each, options)),
                    given_text(text), translator)


def translate_html_texts(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str | bytes],
                         decoding: Decoding = DEFAULT, options: DocumentOptions = DEFAULT_OPTIONS,
                         glossary: Glossary | Mapping[str, str] | None = None, *, as_sent: bool = False) -> list[str]:
    """Several HTML fragments or documents, translated together in one batched pass (the server's
    ``"format": "html"``); ``as_sent``: each page given back as it came but for its text, no ``<meta charset>``
    added, its ``<html>`` stating the target language only where it stated one (attnmt.documents.page_root)."""
    from attnmt.documents.markup import translate_markup

    translator = model_translator(model, tokenizer, decoding, options, glossary)
    return by_text(lambda each, some: with_line_ends(some, lambda lf: translate_markup(lf, each, options,
                                                                                     as_sent=as_sent)),
                   given_texts(texts, "texts"), translator)


def translate_xml_texts(model: Transformer, tokenizer: PieceCodec, texts: Sequence[str | bytes],
                        decoding: Decoding = DEFAULT, options: DocumentOptions = DEFAULT_OPTIONS,
                        glossary: Glossary | Mapping[str, str] | None = None) -> list[str]:
    """Several XML fragments with inline elements, translated together in one batched pass and
    written back as XML (the server's DeepL ``tag_handling=xml``: an empty ``<x/>`` stays one)."""
    from attnmt.documents.markup import translate_markup

    translator = model_translator(model, tokenizer, decoding, options, glossary)
    return by_text(lambda each, some: with_line_ends(some, lambda lf: translate_markup(lf, each, options, xml=True)),
                   given_texts(texts, "texts"), translator)


def translate_xml(model: Transformer, tokenizer: PieceCodec, text: str | bytes, decoding: Decoding = DEFAULT,
                  options: DocumentOptions = DEFAULT_OPTIONS,
                  glossary: Glossary | Mapping[str, str] | None = None) -> str:
    """An XML fragment with inline elements, translated with its markup."""
    translator = model_translator(model, tokenizer, decoding, options, glossary)
    from attnmt.documents.markup import translate_markup

    return one_text(lambda each, texts: with_line_ends(texts, lambda lf: translate_markup(lf, each, options, xml=True)),
                    given_text(text), translator)


def translate_text(model: Transformer, tokenizer: PieceCodec, lines: Sequence[str | bytes],
                   decoding: Decoding = DEFAULT, options: DocumentOptions = DEFAULT_OPTIONS,
                   glossary: Glossary | Mapping[str, str] | None = None) -> list[str]:
    """Plain text lines, each split into sentences; URLs, e-mail addresses and file names kept as they are."""
    translator = model_translator(model, tokenizer, decoding, options, glossary)
    return by_text(lambda each, some: translate_lines(some, each, options), given_texts(lines, "lines"), translator)


def translate_subtitles(model: Transformer, tokenizer: PieceCodec, text: str | bytes, decoding: Decoding = DEFAULT,
                        options: DocumentOptions = DEFAULT_OPTIONS,
                        glossary: Glossary | Mapping[str, str] | None = None) -> str:
    """An SRT or WebVTT file's text: cue text translated, numbering, timings and notes kept; or an
    ASS/SSA file's (it starts with ``[Script Info]``): each Dialogue's Text translated, all else kept."""
    from attnmt.documents.ass_subtitles import is_ass, translate_ass_text  # loaded for subtitles only (issue 44)
    from attnmt.documents.subtitles import translate_subtitle_text

    translator = model_translator(model, tokenizer, decoding, options, glossary)
    given = given_text(text)
    read = translate_ass_text if is_ass(given) else translate_subtitle_text
    return one_text(lambda each, texts: [read(texts[0], each, options)], given, translator)


def translate_file(model: Transformer, tokenizer: PieceCodec, source: str | Path, output: str | Path,
                   decoding: Decoding = DEFAULT, options: DocumentOptions = DEFAULT_OPTIONS,
                   glossary: Glossary | Mapping[str, str] | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   review: attnmt.documents.review.Review | None = None) -> None:
    """The file ``source`` translated into ``output`` (written whole or not at all), in the format
    the source's extension names (attnmt.documents.files); UserError, one line naming the file,
    for a format it does not know or a file it cannot read; ConfigError, before any work, for a
    ``source`` or ``output`` that is no path (bytes, None), an ``output`` that is ``source`` (the
    same file, however named) or that names another format's file (files.check_output_name: a
    .docx into ``report.odt``), a ``progress`` that is no function or a ``review`` that is no Review.
    Where the model fails on some of its sentences, the file fails whole and nothing is written:
    ``attnmt.documents.failed.FileFailed``, a SentencesFailed whose one line names the file
    (``failures`` {0: the first error}, ``outputs`` None; its ``__cause__`` the SentencesFailed of the
    sentences themselves).  ``review`` (``model_review``) collects the sentences that need review,
    each with its place in the file::

        review = model_review(model, tokenizer, load_calibration(model_dir), min_quality=0.6)
        translate_file(model, tokenizer, "report.docx", "report.de.docx", review=review)
        review.write("report.review.tsv")  # or read review.segments
    """
    from attnmt.documents.files import check_output_name, translate_file_bytes, translated_name
    from attnmt.files import write_bytes
    from attnmt.output_checks import check_not_overwritten

    for name, path in (("source", source), ("output", output)):  # bytes, None: a TypeError from pathlib
        if not isinstance(path, str | os.PathLike) or not isinstance(os.fspath(path), str) or not os.fspath(path):
            raise ConfigError(f"{name}: expected the path of a file (a str or a pathlib.Path), got {path!r}")
    translator = model_translator(model, tokenizer, decoding, options, glossary)
    check_inputs(translator, options, review, progress)
    # as ``attnmt translate`` refuses it: written over its source, the file would be lost for its translation
    instead = translated_name(str(source), options.target_lang or "translated")
    check_not_overwritten(output, "output", {"source": source}, instead)
    check_output_name(os.fspath(source), os.fspath(output))
    source = Path(source)
    try:
        data = source.read_bytes()
    except OSError as error:
        raise UserError(f"{source}: {error.strerror or error}") from None
    translated = translate_file_bytes(data, source.name, translator, options, progress, review=review,
                                      where=str(source))
    write_bytes(Path(output), translated, OutputError)


def model_translator(model: Transformer, tokenizer: PieceCodec, decoding: Decoding, options: DocumentOptions,
                     glossary: Glossary | Mapping[str, str] | None) -> ModelTranslator:
    """The translator each function here works with, after one clear error for options that are
    not DocumentOptions (a dict was an AttributeError deep in a parser), or a tokenizer, decoding or
    glossary of another type (ModelTranslator)."""
    check_options(options)
    return ModelTranslator(model, tokenizer, decoding, glossary=glossary)


def __getattr__(name: str) -> object:
    """The module ``review``, or one of ``_REVIEW_NAMES`` from it, imported now (the names kept)."""
    if name != "review" and name not in _REVIEW_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    review: ModuleType = importlib.import_module(f"{__name__}.review")
    if name == "review":
        return review
    globals()[name] = value = getattr(review, name)
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_REVIEW_NAMES})
