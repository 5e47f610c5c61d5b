"""``attnmt translate``'s document options, and what is settled from them before the model loads.

Here (the formats, --input-format's document, markup and office ones, and the extensions that name
them, in attnmt.cli.formats): which format a file is read as, the options (--no-split,
--source-lang, --target-lang, --allow-macros, --attributes, --review) and the DocumentOptions made
of them, and the checks that
refuse what a document cannot be translated with (an office file to stdout, --n-best on HTML,
--review on JSONL, an output or table that is one of the inputs), each with one line naming the
option or file.  Apart from attnmt.cli.document_files, which translates: these read the arguments
(and no more of the input than its first bytes), so that a mistake is named at once, not after
the model has loaded.

- Where ``--input-format`` is left out, the input file's extension chooses (``.html``, ``.htm``,
  ``.xhtml``, ``.xml``, ``.xlf``, ``.xliff``, ``.sdlxliff``, ``.mqxliff``, ``.mxliff``, ``.srt``, ``.vtt``,
  ``.webvtt``, ``.ass``, ``.ssa``, ``.md``, ``.markdown``, ``.mdx``, ``.resx``, ``.ts`` (Qt's alone), also before
  ``.gz``, and the office ones: ``.docx`` …, ``.docm`` and the other files with macros too), and ``.jsonl`` (also
  before ``.gz``) JSONL input; text otherwise.
- Where --source-lang or --target-lang is left out, the model's language stands for it, as the
  server takes it (model_languages): where its training record names one.
- A translation keeps its format: its output file is named for it, an office file goes to a file
  (attnmt.cli.formats.check_output_format), and neither the output nor --review's table is a file
  it is made from.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from pathlib import Path

from attnmt.cli.formats import (
    ARCHIVE_FORMATS,
    DOCUMENT_FORMATS,
    FLAT_FORMATS,
    FORMAT_SUFFIXES,
    MACRO_VARIANTS,
    OFFICE_FORMATS,
    OFFICE_SUFFIXES,
    check_output_format,
)
from attnmt.cli.options import (
    check_not_given,
    file_name,
    glossary_files,
    language_code,
    model_files,
    target_language_code,
)
from attnmt.documents.files import (
    ARCHIVE_STARTS,
    MARKDOWN_EXTRA,
    OLE_SIGNATURE,
    TEXT_SUFFIXES,
    not_qt_ts,
    not_text,
    read_as_text,
    supported_suffixes,
    translated_name,
)
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.refused_formats import old_office_refused, rtf_refused
from attnmt.errors import ConfigError
from attnmt.model_languages import languages_from_training
from attnmt.output_checks import check_not_an_input, check_not_stdout, check_stdout_not_stdin, check_writable
from attnmt.text.data import BROKEN_STREAM, open_bytes, unzipped_name

# How the refusal of a file with macros ends here (DocumentOptions.macros_hint).
MACROS_HINT = "they are refused unless asked for (--allow-macros), and kept as they are then"
# How the refusal of a .xlf file that is no XLIFF ends here (DocumentOptions.xliff_hint).
XLIFF_HINT = "--input-format xml translates it as plain XML"
# --attributes' default: the attributes translated unless told (DocumentOptions.attributes).
ATTRIBUTES = ",".join(DocumentOptions.attributes)
# How a file that cannot be text begins (after a byte order mark and blank space): an XML declaration, a
# DOCTYPE, or a first element that declares a namespace (an .svg, a flat file's <office:document xmlns:office=…>).
# A text may start with "<" as well (a README's <p align="center">, a chat log's <alice>, a comment): it is
# read as text, as before.
MARKUP_START = re.compile(
    rb"(?:\xef\xbb\xbf)?\s*<(?:\?xml|!DOCTYPE|[A-Za-z_][\w.:-]*\s[^<>]*?\bxmlns(?::[\w.-]+)?\s*=)", re.IGNORECASE)
# How much of a file MARKUP_START reads: enough for a first tag's namespace declarations.
MARKUP_HEAD_BYTES = 1024
# How a Rich Text Format document begins (a .rtf, as Word, WordPad and TextEdit save one): its bytes are
# ASCII, so it read as text, and its every line of control words went to the model.
RTF_START = re.compile(rb"(?:\xef\xbb\xbf)?\s*\{\\rtf")
# How a subtitle file of a format attnmt does not read begins, and what it is: read as text, its every line went to
# the model, the timings and styles of ASS's "Dialogue: 0,0:00:01.00,…" and MicroDVD's "{1}{25}" with it.
SUBTITLE_STARTS = {"an ASS/SSA": re.compile(rb"(?:\xef\xbb\xbf)?\s*\[script info\]", re.IGNORECASE),
                   "a MicroDVD": re.compile(rb"(?:\xef\xbb\xbf)?\s*\{\d+\}\{\d*\}")}


def chosen_input_format(args: argparse.Namespace) -> str:
    """--input-format, or where it is left out, the format the input file's extension names, as the
    server chooses a sent file's (attnmt.documents.files): .html and .htm, .xhtml, .xml, .xlf and .xliff
    (.sdlxliff, .mqxliff, .mxliff), .srt, .vtt and .webvtt, .ass and .ssa, .md, .markdown and .mdx (text, with one
    warning, where markdown-it-py is not installed; --input-format markdown is refused then, naming the extra),
    .resx and .ts (xml; a .ts that is no Qt Linguist file is refused: files.not_qt_ts), also before .gz; an
    office format for its extension (docx for .docx and .docm: the input's own is office_suffix's to
    keep); jsonl for a .jsonl file, as ``score`` reads its --src (attnmt.cli.lines.is_jsonl_name); text for any other
    file and for stdin.  Given, --input-format wins over any extension: ``--input-format text`` on a
    .docx reads its lines, as on a .srt."""
    if args.input_format == "markdown" and importlib.util.find_spec("markdown_it") is None:
        raise ConfigError(f"--input-format markdown reads Markdown with markdown-it-py: {MARKDOWN_EXTRA}")
    if args.input_format is not None:
        return args.input_format
    if args.input in (None, "-"):
        return "text"
    last = Path(args.input).suffix.lower()
    if last in OFFICE_SUFFIXES:  # a zip archive or flat XML, never read through gzip
        return MACRO_VARIANTS.get(last, last[1:])
    name = unzipped_name(args.input).lower()  # as attnmt.text.data.read_lines opens it
    if name.endswith(".jsonl"):  # as is_jsonl_name reads a name; it was read as text, JSON syntax and all
        return "jsonl"
    chosen = TEXT_SUFFIXES.get(Path(name).suffix, "text")
    return "text" if read_as_text(chosen, args.input) else chosen


def check_text_input(path: str | None) -> None:
    """ConfigError where a file read as text by default (its extension names no format, or is
    .txt) or as the text format its extension names (.html, .xml, .srt, .vtt, .md, ...) is an office
    file or an archive: its bytes are no text.  Under a text name it is a file saved under the wrong
    name, and the error says what it is (misnamed_archive), as the server does (it was "invalid UTF-8",
    with iconv's advice, for a .docx named .html); under an
    extension attnmt does not know, the error names the extensions it translates.  Under such an
    extension, XML (MARKUP_START: an .svg, a .plist, a LibreOffice flat file under another name) is
    refused too (unknown_markup), and so is a Rich Text Format document (RTF_START) and an ASS/SSA or
    MicroDVD subtitle file (SUBTITLE_STARTS): its every line of tags, control words or timings went to
    the model, and the file came back broken.  A PDF or a picture
    (attnmt.documents.files.not_text) is refused under any name, saying what it is: it was "invalid
    UTF-8", with iconv's advice, which makes no text of it.  A file that merely
    starts with "<" (a README's HTML, a chat log's <name>) is text, and so is a .txt file that starts
    with markup or "{\\rtf", as its name says.  A .gz file is checked by what it holds, as
    attnmt.text.data.read_lines reads it, under the extension before .gz."""
    if path in (None, "-") or not Path(path).is_file():
        return
    head = first_bytes(path)
    suffix = Path(unzipped_name(path)).suffix
    if suffix.lower() not in TEXT_SUFFIXES and MARKUP_START.match(head):
        raise ConfigError(unknown_markup(path, suffix))
    if suffix.lower() not in TEXT_SUFFIXES and RTF_START.match(head):
        raise ConfigError(rtf_refused(path))
    for kind, start in SUBTITLE_STARTS.items():
        if suffix.lower() not in TEXT_SUFFIXES and start.match(head):
            advice = (f"name it {Path(unzipped_name(path)).stem}.ass, or give --input-format ass" if "ASS" in kind
                      else f"convert it to SRT (ffmpeg -i {Path(path).name} {Path(unzipped_name(path)).stem}.srt) "
                      "and translate that")
            raise ConfigError(f"{path} is {kind} subtitle file, not text: {advice}, or give --input-format text to "
                              "translate its lines as they are")
    # a PDF or a picture, whatever its name: not "invalid UTF-8"; a .ts of TypeScript
    if (said := not_text(head, path) or not_qt_ts(head, path, suffix)) is not None:
        raise ConfigError(said)
    if not head.startswith(ARCHIVE_STARTS):
        return
    if suffix.lower() in TEXT_SUFFIXES:  # "does not translate files ending in .txt: it translates .txt", before
        raise ConfigError(misnamed_archive(path, suffix, head))
    if head.startswith(OLE_SIGNATURE) and (said := old_office_refused(path)) is not None:
        raise ConfigError(said)
    raise ConfigError(f"{path} is an office file or an archive, not text, and attnmt does not translate files "
                      f"ending in {suffix or '(no extension)'}: it translates "
                      f"{', '.join(supported_suffixes())} (a template or a copy saved as one of these can be)")


def first_bytes(path: str) -> bytes:
    """The first MARKUP_HEAD_BYTES of the file, decompressed where its name ends in .gz; none where it is no
    valid gzip file, which reading it names in one line."""
    try:
        with open_bytes(path) as f:
            return f.read(MARKUP_HEAD_BYTES)
    except (OSError, *BROKEN_STREAM):
        return b""


def unknown_markup(path: str, suffix: str) -> str:
    """The error for a file of markup (XML, HTML) under an extension that names no format (``suffix``)."""
    return (f"{path} starts with XML or HTML markup, not text, and attnmt does not translate files ending in "
            f"{suffix or '(no extension)'}: give its format with --input-format (xml, html, xhtml or xliff; "
            f"{', '.join(FLAT_FORMATS)} for LibreOffice's flat files), or --input-format text to translate its lines")


def misnamed_archive(path: str, suffix: str, head: bytes) -> str:
    """The error for a zip archive or a compound file (``head``: its first bytes) named as text
    (``suffix``, e.g. .txt): what it is, and how to have it translated."""
    suffixes = ", ".join(f".{name}" for name in ARCHIVE_FORMATS)
    if head.startswith(OLE_SIGNATURE):  # attnmt reads no compound file: it is to be saved anew
        return (f"{path} is a compound file (an old .doc, .xls or .ppt, or a password-protected office file?), "
                f"not text, despite its {suffix} name: attnmt translates {suffixes}; save it as one of these, "
                "without a password")
    return (f"{path} is a zip archive (an office file?), not text, despite its {suffix} name: name it by its "
            f"format ({suffixes}) or give the format with --input-format ({', '.join(ARCHIVE_FORMATS)})")


def office_suffix(args: argparse.Namespace) -> str | None:
    """The office file's extension (``.docx``) where the input is read as an office file (the format
    chosen_input_format settled): the input's own where it is the format's with macros (a .docm
    read as docx), else the format's; None for the other formats.  The extension alone read a
    .docx as an office file under an explicit --input-format text, which was refused three ways."""
    if args.input_format not in OFFICE_FORMATS:
        return None
    suffix = Path(args.input).suffix.lower() if args.input not in (None, "-") else ""
    return suffix if MACRO_VARIANTS.get(suffix) == args.input_format else "." + args.input_format


def check_document_options(args: argparse.Namespace) -> None:
    """Documents come out as documents: one translation, no per-line extras or prefixes (a
    glossary applies to every sentence); an office file goes to a file of its own format."""
    check_output_path(args)
    suffix = office_suffix(args)
    check_document_only_options(args, suffix)
    if suffix and args.output in (None, "-"):
        raise ConfigError(f"a {suffix} file is translated into a file: give the output file after the input "
                          f"(attnmt translate --model M report{suffix} report.de{suffix})")
    check_output_format(args, suffix)
    if (args.input_format in DOCUMENT_FORMATS or suffix) and (args.output_format != "text" or args.n_best > 1
                                                              or args.alignments or args.confidence or args.prefix):
        what = suffix or args.input_format
        chosen = f"--input-format {what} writes the translated {what}"
        if args.format_from_extension:
            chosen = f"{args.input} is translated as {what} ({by_extension(suffix)})"
        raise ConfigError(f"{chosen}: leave out --output-format, --n-best, --alignments, --confidence and --prefix")
    check_review_options(args, suffix or (args.input_format if args.input_format in DOCUMENT_FORMATS else None))


def check_document_only_options(args: argparse.Namespace, suffix: str | None) -> None:
    """--allow-macros reads office files, --attributes markup, and --no-split and --source-lang
    split text into sentences: on an input known to need none of them (a JSONL line is one
    sentence) they would do nothing, and were taken without a word.  Known: an office file is always named by
    --input-format or its extension; plain text or JSONL by --input-format, or by a file's extension
    (stdin without --input-format is text, its tags translated as words: --input-format html reads
    HTML from it)."""
    if args.allow_macros and suffix is None:
        raise ConfigError(f"--allow-macros accepts office files with macros (.docm, .pptm, .xlsm): "
                          f"{input_named(args)} is none, so it would do nothing: leave it out")
    if args.input_format == "jsonl":  # attnmt.documents.whole_sentence: no splitter, no splitter's language
        check_not_given(args, ["no_split", "source_lang"], "a JSONL line's text is one sentence, read whole",
                        "how a line of text is split into sentences")
    unused = read_without_attributes(args, suffix)
    if args.attributes is not None and unused:
        as_html = ", or give --input-format html to read it as HTML" if unused == "text" else ""
        raise ConfigError(f"--attributes chooses the HTML attributes translated on a page: {input_named(args)} "
                          f"is read as {unused}, so it would do nothing: leave it out{as_html}")


def read_without_attributes(args: argparse.Namespace, suffix: str | None) -> str | None:
    """The format the input is known to be read as where it has no HTML attributes: an office
    file but an EPUB (whose pages are HTML), whose paragraphs have none (``docx``, ``odt``, ...),
    plain text or JSONL (stdin without --input-format too: it is read as text), XLIFF or subtitles;
    None where it may have some (a page)."""
    if suffix:
        return None if suffix == ".epub" else suffix[1:]
    if args.input_format in ("text", "jsonl"):
        return args.input_format
    if args.input_format in ("xliff", "srt", "vtt", "ass", "markdown"):  # XLIFF's attributes are its data; cues'
        # tags and Markdown's inline HTML are kept as read
        return args.input_format
    return None


def input_named(args: argparse.Namespace) -> str:
    """The input as an error names it: the file, or stdin (with its format, where --input-format gave it)."""
    if args.input in (None, "-"):
        return f"the {args.input_format} input" if args.input_format_given else "stdin"
    return args.input


def check_review_options(args: argparse.Namespace, document: str | None) -> None:
    """--review lists a document's (or plain text's) sentences that need review; --min-quality sets
    its threshold, and on a document does nothing else but --below-quality source; on lines written
    as text, nothing else but --below-quality mark or source (refused alone, as on a document).
    --below-quality mark marks text output: in tsv and jsonl the low_quality flag is the mark."""
    if args.review is not None:
        if args.input_format == "jsonl":
            taken = f"{args.input} is read as JSONL ({by_extension('jsonl')})" if args.format_from_extension else (
                "it does not take --input-format jsonl")
            raise ConfigError(f"--review lists the sentences of a document or of plain text: {taken}")
        if args.output_format != "text" or args.n_best > 1 or args.alignments or args.confidence or args.prefix:
            raise ConfigError("--review writes the sentences that need review to a table of their own: leave out "
                              "--output-format, --n-best, --alignments, --confidence and --prefix")
        check_review_path(args)
    if document is None:
        if args.below_quality == "mark" and args.output_format != "text":  # below_quality_results leaves it
            raise ConfigError(f"--below-quality mark writes a mark before a translation in text output: "
                              f"{args.output_format} gives each translation's quality and flags (low_quality "
                              "under --min-quality) of their own, so it would do nothing: leave it out")
        if args.review is not None and args.below_quality == "mark":
            raise ConfigError("--below-quality mark and --review both point out the sentences that need review, "
                              "one in the text, one in a table: keep one of them")
        if (args.min_quality is not None and args.review is None and args.below_quality == "keep"
                and args.output_format == "text"):
            raise ConfigError("--min-quality with text output and --below-quality keep (the default) would do "
                              "nothing: add --below-quality mark or source, --review FILE, or --output-format tsv "
                              "or jsonl (whose low_quality flag it sets)")
        return
    what = f"a {document} file" if document.startswith(".") else f"the {document} input"
    if args.format_from_extension and not document.startswith("."):  # an office file says
        what = f"{args.input}, translated as {document} ({by_extension(document)})"
    if args.below_quality == "mark":
        raise ConfigError(f"--below-quality mark would write a mark into the text of {what}: "
                          "--review FILE lists the sentences that need review instead (and --below-quality "
                          "source keeps their source text)")
    if args.min_quality is not None and args.review is None and args.below_quality != "source":
        raise ConfigError(f"--min-quality on {what} sets which sentences --review FILE lists (or "
                          "which keep their source text, with --below-quality source): add one of them")


def by_extension(what: str | None) -> str:
    """Why a file is translated as ``what``, where its extension chose: and how to have its lines
    read as text instead (not for an office file, which has no lines)."""
    return "its extension" if what and what.startswith(".") else "its extension; --input-format text reads it as lines"


def check_output_path(args: argparse.Namespace) -> None:
    """The translation goes to a file of its own (attnmt.output_checks.check_not_an_input): not one it
    is made from, the input, --glossary or a file of the model (files_read), not a folder; stdout not stdin's pipe."""
    if args.output in (None, "-"):
        check_stdout_not_stdin("output", files_read(args), output_name(args))
    check_not_an_input(args.output, "output", files_read(args), output_name(args))


def output_name(args: argparse.Namespace) -> str:
    """The file name an error suggests for the translation: the input's with the target language
    (report.de.docx, in.translated.txt), or stdin's, translation with the extension of what is
    written (translation.de.html).  Stdin's was "-", and ``translate - o/`` suggested o/-."""
    if args.input not in (None, "-"):
        return translated_name(args.input, args.target_lang or "translated")
    suffix = office_suffix(args) or FORMAT_SUFFIXES.get(args.input_format, ".txt")
    return translated_name(f"translation{suffix}", args.target_lang)


def check_review_path(args: argparse.Namespace) -> None:
    """The table goes to a file of its own: not "-" (which names stdin and stdout elsewhere; a
    file named "-" was written without a word), not a folder, not the output, not a file the
    translation is made from, not empty."""
    check_not_stdout(args.review, "--review", "the table", "report.review.tsv", why="stdout is the translation's")
    review = Path(args.review)
    if review.is_dir():
        raise ConfigError(f"--review {args.review} is a folder: give the table a file name (report.review.tsv)")
    if args.output not in (None, "-") and review.resolve() == Path(args.output).resolve():
        raise ConfigError(f"the --review {args.review} is the output file: give it a file of its own "
                          "(report.review.tsv)")  # as check_not_an_input says it of the input
    check_not_an_input(args.review, "--review", files_read(args), "report.review.tsv")
    check_writable(review, ConfigError)  # before the translation, which it would otherwise follow (and lose)


def files_read(args: argparse.Namespace) -> dict[str, str | None]:
    """What ``translate`` reads, by the name an error gives each: the input ("-" where it is stdin,
    named so or left out: attnmt.output_checks.check_not_stdin names it), --glossary, and the
    model's files, --weights and --shortlist (attnmt.cli.options.model_files)."""
    return {"input": "-" if args.input is None else args.input, **glossary_files(args), **model_files(args)}


def model_languages(args: argparse.Namespace) -> None:
    """Sets --source-lang and --target-lang, where each is left out, to the model's as its training
    files name them (attnmt.model_languages), as the server splits and translates a file by its
    model's: an XLIFF file in or for another language is refused, saying the language is the model's
    and to give the option (``source_lang_option``, ``target_lang_option``), a page or an office file
    says the language it is in.  Left out, a file for fr was translated into German and kept
    target-language fr, and a French file was translated by an English model as English.  A model
    whose training names no pair leaves the target unset and the source --source-lang's default, en,
    which no file's is checked against (``source_lang_known``): the files say no language they were not told."""
    given = getattr(args, "given", ())
    args.source_lang_option = args.target_lang_option = None  # given: a refusal names the language asked for
    args.source_lang_known = "source_lang" in given
    model = languages_from_training(Path(args.model))
    if not args.source_lang_known and model[0] is not None:
        args.source_lang, args.source_lang_known, args.source_lang_option = model[0], True, "--source-lang"
    if args.target_lang is None:
        args.target_lang = model[1]
        args.target_lang_option = "--target-lang"


def document_options(args: argparse.Namespace) -> DocumentOptions:
    attributes = ATTRIBUTES if args.attributes is None else args.attributes  # None: --attributes not given
    return DocumentOptions(source_lang=args.source_lang, target_lang=args.target_lang, split=not args.no_split,
                           attributes=tuple(name.strip() for name in attributes.split(",") if name.strip()),
                           macros=args.allow_macros, macros_hint=MACROS_HINT, xliff_hint=XLIFF_HINT,
                           target_lang_option=args.target_lang_option, source_lang_option=args.source_lang_option,
                           source_lang_known=args.source_lang_known, rewrap=not args.keep_lines)


def add_document_options(p: argparse.ArgumentParser) -> None:
    """--no-split, --source-lang, --target-lang and --attributes (the formats: --input-format)."""
    p.add_argument("--no-split", action="store_true", help="translate each line (HTML block, cue) whole instead "
                   "of sentence by sentence (a tab still parts fields, translated apart)")
    p.add_argument("--source-lang", default="en", type=language_code, help="source language code for the sentence "
                   "splitter (and an XLIFF file's source-language), as BCP 47 writes it; default: the model's source "
                   "language, where the names of its training files end in it (train.en.gz), else en")
    p.add_argument("--target-lang", type=target_language_code, help="language code written into an HTML page's "
                   "lang attribute (an office file's language attributes, an XLIFF file's target-language or trgLang), "
                   "as BCP 47 writes it (de_DE is written de-DE), and the quality flags language and negation read; "
                   "default: the model's target language, where its training files' names end in it (train.de.gz)")
    p.add_argument("--allow-macros", action="store_true", help="translate office files with macros (.docm, .pptm, "
                   ".xlsm), keeping their macros (refused otherwise)")
    p.add_argument("--attributes",  # None where not given: given on a text input it would do nothing
                   help="HTML attributes whose values are translated, comma-separated ('' for none; default: "
                   f"{ATTRIBUTES}); value only on a button's <input> (type submit, reset or button), where it is "
                   "the label shown: elsewhere it is form data and stays; content only on a <meta> of text (the page's "
                   "description, a link preview's og:title, twitter:description, ...)")
    p.add_argument("--review", metavar="TSV", type=file_name,
                   help="write the sentences that need review (quality under --min-quality, else the calibration's "
                   "threshold, empty, or flagged by a rule such as negation) to this table: where each is (line, or "
                   "an office file's part and paragraph), quality, flags, source, translation (docs/documents.md)")
