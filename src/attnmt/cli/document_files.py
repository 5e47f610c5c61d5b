"""``attnmt translate --input-format html|xml|srt|vtt``, and paragraph splitting of plain text (attnmt.documents).

- ``text`` (the default): each line is split into sentences (``--no-split``: translated whole,
  but for the fields its tabs part), URLs and e-mail addresses kept as they are, a line without
  letters passed through; one output line per input line.  Per-line extras (``--alignments``,
  ``--n-best``, ``--output-format tsv|jsonl``) and guides (``--glossary``, ``--prefix``) leave
  that as it is, the line's joined from its sentences' (attnmt.documents.paragraphs); ``jsonl``
  input lines, each with its own guides, are translated whole.
  The other formats take ``--glossary`` (its terms required in every sentence), not ``--prefix``.
- ``html``: a whole document (the input starts with ``<!DOCTYPE`` or ``<html>``) is translated
  as one page; anything else is one HTML fragment a line, or one fragment where the file's
  extension chose the format (read whole, as the server reads a sent file).
- ``xml``: a whole document (the input starts with an XML declaration or a ``<!DOCTYPE``) is
  translated as one, its DOCTYPE kept as it is; anything else as html's.
- ``xhtml``: the whole input is one XHTML page, parsed and written as XML (as an EPUB's pages
  are), its elements read as HTML's.
- ``xliff``: the whole input is one XLIFF file (1.2 or 2): each unit's source translated into its
  empty or missing target, all else kept (attnmt.documents.xliff).
- ``srt``, ``vtt``: a subtitle file; cue text translated, numbering and timings kept.
- Where ``--input-format`` is left out, the input file's extension chooses (``.html``, ``.htm``,
  ``.xhtml``, ``.xml``, ``.xlf``, ``.xliff``, ``.srt``, ``.vtt``, also before ``.gz``, and the office
  ones below); text otherwise.
- ``docx``, ``pptx``, ``xlsx``, ``odt``, ``odp``, ``ods``, ``epub``: a file of that kind
  (attnmt.documents.office), chosen by the input's extension too (``.docm`` and the other
  files with macros need ``--allow-macros``); it needs an output file, and a progress line on a
  terminal counts its paragraphs.

``--review FILE`` (any of these formats, and plain text) writes the sentences that need review
as a table (attnmt.documents.review): those under ``--min-quality``, else under the
calibration's threshold.  ``--min-quality`` with a document sets that threshold; with
``--below-quality source`` the sentences under it keep their source text in the document, and
so in plain text written as text, with ``--review`` or without.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from attnmt.cli.lines import check_not_an_input, line_by_line
from attnmt.cli.options import model_files
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.translate import SentencesFailed
from attnmt.documents.files import ARCHIVE_STARTS, TEXT_SUFFIXES, supported_suffixes, translate_text, translated_name
from attnmt.documents.pipeline import DocumentOptions, ModelTranslator, translate_lines
from attnmt.errors import ConfigError, DataError, OutputError
from attnmt.text.data import is_gzip_name, line_endings, with_endings

if TYPE_CHECKING:
    from attnmt.documents.review import Review

T = TypeVar("T")
# beside attnmt.cli.lines.INPUT_FORMATS (text, jsonl)
DOCUMENT_FORMATS = ("html", "xhtml", "xml", "xliff", "srt", "vtt")
OFFICE_FORMATS = ("docx", "pptx", "xlsx", "odt", "odp", "ods", "epub")  # attnmt.documents.office.SUFFIXES
MACRO_VARIANTS = {".docm": "docx", ".pptm": "pptx", ".xlsm": "xlsx"}
OFFICE_SUFFIXES = frozenset({f".{name}" for name in OFFICE_FORMATS} | set(MACRO_VARIANTS))  # what office_suffix knows
# How the refusal of a file with macros ends here (DocumentOptions.macros_hint).
MACROS_HINT = "they are refused unless asked for (--allow-macros), and kept as they are then"
# How the refusal of a .xlf file that is no XLIFF ends here (DocumentOptions.xliff_hint).
XLIFF_HINT = "--input-format xml translates it as plain XML"
# The extension of what each input format is written as.
FORMAT_SUFFIXES = {"text": ".txt", "html": ".html", "xhtml": ".xhtml", "xml": ".xml", "xliff": ".xlf", "srt": ".srt",
                   "vtt": ".vtt"}
# An XLIFF file is XML: written by either format, its name may say either (check_output_format).
XML_FORMATS = frozenset(("xml", "xliff"))


def chosen_input_format(args: argparse.Namespace) -> str:
    """--input-format, or where it is left out, the format the input file's extension names, as the
    server chooses a sent file's (attnmt.documents.files): .html and .htm, .xhtml, .xml, .xlf and .xliff,
    .srt and .vtt, also before .gz; text for any other file and for stdin (an office file's extension
    is office_suffix's to see)."""
    if args.input_format is not None:
        return args.input_format
    suffixes = Path(args.input).suffixes if args.input not in (None, "-") else []
    if suffixes and is_gzip_name(args.input):  # as attnmt.text.data.read_lines opens it
        suffixes.pop()
    return TEXT_SUFFIXES.get(suffixes[-1].lower() if suffixes else "", "text")


def check_text_input(path: str | None) -> None:
    """ConfigError where a file read as text by default (its extension names no format) is an
    office file or an archive: its bytes are no text, and its extension no format attnmt knows."""
    if path in (None, "-") or is_gzip_name(path) or not Path(path).is_file():
        return
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(ARCHIVE_STARTS):
        raise ConfigError(f"{path} is an office file or an archive, not text, and attnmt does not translate files "
                          f"ending in {Path(path).suffix or '(no extension)'}: it translates "
                          f"{', '.join(supported_suffixes())} (a template or a copy saved as one of these can be)")


def office_suffix(args: argparse.Namespace) -> str | None:
    """The office file's extension (``.docx``): --input-format's, or the input file's where
    --input-format is left at text; None for the other formats."""
    suffix = Path(args.input).suffix.lower() if args.input not in (None, "-") else ""
    if args.input_format in OFFICE_FORMATS:
        return suffix if MACRO_VARIANTS.get(suffix) == args.input_format else "." + args.input_format
    return suffix if args.input_format == "text" and suffix in OFFICE_SUFFIXES else None


def check_document_options(args: argparse.Namespace) -> None:
    """Documents come out as documents: one translation, no per-line extras or prefixes (a
    glossary applies to every sentence); an office file goes to a file of its own format."""
    check_output_path(args)
    suffix = office_suffix(args)
    if suffix and args.output in (None, "-"):
        raise ConfigError(f"a {suffix} file is translated into a file: give the output file after the input "
                          f"(attnmt translate --model M report{suffix} report.de{suffix})")
    check_output_format(args, suffix)
    if (args.input_format in DOCUMENT_FORMATS or suffix) and (args.output_format != "text" or args.alignments
                                                              or args.confidence or args.prefix):
        what = suffix or args.input_format
        chosen = f"--input-format {what} writes the translated {what}"
        if args.format_from_extension:
            chosen = f"{args.input} is translated as {what} ({by_extension(suffix)})"
        raise ConfigError(f"{chosen}: leave out --output-format, --n-best, --alignments, --confidence and --prefix")
    check_review_options(args, suffix or (args.input_format if args.input_format in DOCUMENT_FORMATS else None))


def check_output_format(args: argparse.Namespace, suffix: str | None) -> None:
    """A translation keeps its format, and its output file the extension of that format: an office
    file goes to a file of its own extension (and is no gzip: it is a zip archive already), nothing
    else to an office extension, and markup or subtitles to no other markup or subtitle extension
    (attnmt does not convert formats; XLIFF is XML, so either may be named for the other).  An
    extension that names no format is the user's to choose."""
    if args.output in (None, "-"):
        return
    name = Path(args.output).name.lower()
    written = Path(name).suffix
    if written == ".gz" and suffix:
        raise ConfigError(f"{args.output}: a {suffix} file is a compressed (zip) archive already: name it "
                          f"{Path(name).stem}, without .gz")
    written = Path(name.removesuffix(".gz")).suffix
    made = suffix or FORMAT_SUFFIXES.get(args.input_format)  # the extension of what is written
    if made is None or written == made or not (written in OFFICE_SUFFIXES or written in TEXT_SUFFIXES):
        return
    kind = TEXT_SUFFIXES.get(written, written)
    if suffix or written in OFFICE_SUFFIXES or (args.input_format in DOCUMENT_FORMATS and kind in DOCUMENT_FORMATS
                                        and kind != args.input_format and not {kind, args.input_format} <= XML_FORMATS):
        raise ConfigError(f"{args.output} names a {written} file, but the translation of a {made} file is a "
                          f"{made} file (attnmt does not convert formats): name it "
                          f"{Path(args.output.removesuffix('.gz')).with_suffix(made).name}")


def check_review_options(args: argparse.Namespace, document: str | None) -> None:
    """--review lists a document's (or plain text's) sentences that need review; --min-quality sets
    its threshold, and on a document does nothing else but --below-quality source; on lines written
    as text, nothing else but --below-quality mark or source (refused alone, as on a document)."""
    if args.review is not None:
        if args.input_format == "jsonl":
            raise ConfigError("--review lists the sentences of a document or of plain text: it does not take "
                              "--input-format jsonl")
        if args.output_format != "text" or args.alignments or args.confidence or args.prefix:
            raise ConfigError("--review writes the sentences that need review to a table of their own: leave out "
                              "--output-format, --alignments, --confidence and --prefix")
        check_review_path(args)
    if document is None:
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


def whole_file(translating: Callable[[], str], where: str) -> str:
    """``translating()``, a file translated whole; where the model fails on some of its sentences,
    one line naming the file and the first failure, and nothing written (the output file, if any,
    stays as it was): a document cannot be written with holes in it."""
    try:
        return translating()
    except SentencesFailed as failed:
        first = next(iter(failed.failures.values()))
        raise DataError(f"{where}: not translated, the model failed on {len(failed.failures)} of its sentences "
                        f"(the first: {type(first).__name__}: {first}); nothing was written") from None


def by_extension(what: str | None) -> str:
    """Why a file is translated as ``what``, where its extension chose: and how to have its lines
    read as text instead (not for an office file, which has no lines)."""
    return "its extension" if what and what.startswith(".") else "its extension; --input-format text reads it as lines"


def check_output_path(args: argparse.Namespace) -> None:
    """The translation goes to a file of its own (attnmt.cli.lines.check_not_an_input): not one it
    is made from, the input, --glossary or a file of the model (files_read), not a folder."""
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
    translation is made from."""
    if args.review == "-":
        raise ConfigError("--review - would write the table into a file named '-' (stdout is the translation's): "
                          "give the table a file name (report.review.tsv)")
    review = Path(args.review)
    if review.is_dir():
        raise ConfigError(f"--review {args.review} is a folder: give the table a file name (report.review.tsv)")
    if args.output not in (None, "-") and review.resolve() == Path(args.output).resolve():
        raise ConfigError(f"--review {args.review} is the output file: give the table a name of its own "
                          "(report.review.tsv)")
    check_not_an_input(args.review, "--review", files_read(args), "report.review.tsv")


def files_read(args: argparse.Namespace) -> dict[str, str | None]:
    """What ``translate`` reads, by the name an error gives each: the input, --glossary, and the
    model's files, --weights and --shortlist (attnmt.cli.options.model_files)."""
    return {"input": args.input, "--glossary": args.glossary, **model_files(args)}


def uses_documents(args: argparse.Namespace) -> bool:
    """Whether ``translate`` goes through attnmt.documents: a markup or subtitle format, plain text
    with --review, or with text output and --below-quality source (so that, as with --review, each
    sentence under the threshold keeps its source text and the others their translation: through
    attnmt.documents.paragraphs, the whole line was the source where one sentence was under it), or
    split into sentences with nothing but the best translation asked for (with more, the lines go
    through attnmt.documents.paragraphs: reads_paragraphs)."""
    if args.input_format in DOCUMENT_FORMATS or (args.input_format == "text" and args.review is not None):
        return True
    if reads_paragraphs(args) and args.output_format == "text" and not (args.alignments or args.prefix):
        return args.below_quality == "source" or not (args.glossary or args.min_quality is not None)
    return False


def reads_paragraphs(args: argparse.Namespace) -> bool:
    """Whether ``translate`` reads each input line as a paragraph of plain text (attnmt.documents:
    split into sentences unless --no-split, at its tabs in any case, its URLs and e-mail addresses
    kept as they are); a JSONL line, with its own glossary and prefix, is translated whole, as it
    is.  A --no-split line with --alignments is a paragraph too, so that the alignments leave its
    translation as it was: its word numbers count every word of the line all the same
    (attnmt.documents.paragraphs.text_pairs)."""
    return args.input_format == "text"


def document_options(args: argparse.Namespace) -> DocumentOptions:
    return DocumentOptions(source_lang=args.source_lang, target_lang=args.target_lang, split=not args.no_split,
                           attributes=tuple(name.strip() for name in args.attributes.split(",") if name.strip()),
                           macros=args.allow_macros, macros_hint=MACROS_HINT, xliff_hint=XLIFF_HINT)


def translate_document_input(args: argparse.Namespace, model, tokenizer, decoding: Decoding,
                             batches: Iterable[list[str]], out: TextIO, glossary: Glossary | None = None) -> int:
    """Reads the input (lines as they arrive for text, whole otherwise), writes the translation
    (and --review's table); returns how many lines the model failed on (each named on stderr, its
    output line empty; attnmt.cli.lines.line_by_line)."""
    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size, glossary)
    options = document_options(args)
    review = quality_review(args, translator)
    where = args.input if args.input not in (None, "-") else "<stdin>"
    bom, endings = output_style(args.input)
    if args.input_format == "text":
        first_line, failed = 1, 0
        out.write(bom)
        for lines in batches:  # a file comes whole, as one batch: ``endings`` are its lines'
            translating = partial(translate_lines, translator=translator, options=options, review=review)
            translated, lost = line_by_line(numbered(translating, first_line), lines, where, first_line)
            out.write(with_endings(translated, endings))
            out.flush()
            first_line, failed = first_line + len(lines), failed + lost
        write_review(args, review)
        return failed
    from attnmt.documents.markup import translate_markup  # lxml: only here (plain text starts faster)
    from attnmt.documents.pages import is_document

    lines = [line for read in batches for line in read]
    text = with_endings(lines, in_lf(endings))
    xml = args.input_format == "xml"
    failed = 0
    if args.input_format in ("srt", "vtt", "xhtml", "xliff") or is_document(text, xml) or args.format_from_extension:
        # a file as the server reads it (attnmt.documents.files), its byte order mark and line endings kept
        translated = whole_file(partial(translate_text, args.input_format, text, translator, options, where, review),
                                where)
        newline = "\r\n" if endings and endings[0] == "\r\n" else "\n"  # its lines are not the source's: the first's
        out.write(bom + translated.replace("\n", newline))
    else:
        fragments = partial(translate_markup, translator=translator, options=options, xml=xml, where=where, unit="line",
                            review=review)
        translated, failed = line_by_line(numbered(fragments, 1), lines, where, 1)
        out.write(with_endings(translated, in_lf(endings)))
    out.flush()
    write_review(args, review)
    return failed


def output_style(path: str | None) -> tuple[str, list[str] | None]:
    """(byte order mark, each line's ending) to write a translation of the file ``path`` with: its
    own (attnmt.text.data.line_endings), a last line without one and a mix of CRLF and LF included;
    none and None from stdin or a pipe, which cannot be read twice (with_endings: every line ends
    in LF)."""
    if path in (None, "-") or not Path(path).is_file():
        return "", None
    return line_endings(path)


def in_lf(endings: list[str] | None) -> list[str] | None:
    """``endings`` as LF, a last line without one left without: how markup read whole reaches
    attnmt.documents, which reads LF, and how fragments a line are written."""
    return None if endings is None else ["\n" if ending else "" for ending in endings]


def numbered(translating: Callable[..., list[T]], first_line: int) -> Callable[[list[str]], list[T]]:
    """``translating(lines, first_line=N)`` for line_by_line, N the number of the call's first line:
    line_by_line hands it all its lines, then (after a failure) each line alone, in order."""
    calls = 0

    def call(lines: list[str]) -> list[T]:
        nonlocal calls
        start = first_line + max(0, calls - 1)  # call 0: all the lines; call k: line k - 1 alone
        calls += 1
        return translating(lines, first_line=start)

    return call


def quality_review(args: argparse.Namespace, translator: ModelTranslator) -> Review | None:
    """What --review and --min-quality ask of a document's sentences (attnmt.documents.review), or
    None; the sentences are assessed from ``translator``'s own search (``reviewing``)."""
    from attnmt.documents.review import reviewing

    if args.review is None and args.min_quality is None:
        return None
    return reviewing(translator, args.calibration, args.min_quality, args.below_quality == "source")


def write_review(args: argparse.Namespace, review: Review | None) -> None:
    """--review's table, and one line on stderr saying how many sentences it lists."""
    if review is not None and args.review is not None:
        review.write(args.review)
        from attnmt.documents.review import UNCALIBRATED

        print(review.summary(args.review) + ("" if args.calibration is not None else f"; {UNCALIBRATED}"),
              file=sys.stderr)


def translate_office_file(args: argparse.Namespace, suffix: str, model, tokenizer, decoding: Decoding,
                          glossary: Glossary | None = None) -> None:
    """Reads the office file (or stdin), writes its translation to the output file, all or nothing."""
    from attnmt.documents.office import translate_archive
    from attnmt.files import atomic_write

    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size, glossary)
    review = quality_review(args, translator)
    from_file = args.input not in (None, "-")
    data = Path(args.input).read_bytes() if from_file else sys.stdin.buffer.read()
    progress = show_progress if sys.stderr.isatty() else None
    translated = translate_archive(data, suffix, translator, document_options(args), progress,
                                   args.input if from_file else "<stdin>", review)
    if progress is not None:
        print(file=sys.stderr)
    atomic_write(Path(args.output), lambda tmp: tmp.write_bytes(translated), OutputError)
    write_review(args, review)


def show_progress(done: int, total: int) -> None:
    print(f"\rtranslated {done}/{total} sentences", end="", file=sys.stderr, flush=True)


def add_document_options(p: argparse.ArgumentParser) -> None:
    """--no-split, --source-lang, --target-lang and --attributes (the formats: --input-format)."""
    p.add_argument("--no-split", action="store_true", help="translate each line (HTML block, cue) whole instead "
                   "of sentence by sentence (a tab still parts fields, translated apart)")
    p.add_argument("--source-lang", default="en", help="source language code for the sentence splitter "
                   "(default en)")
    p.add_argument("--target-lang", help="written into an HTML page's lang attribute (an office file's language "
                   "attributes, an XLIFF file's target-language or trgLang)")
    p.add_argument("--allow-macros", action="store_true", help="translate office files with macros (.docm, .pptm, "
                   ".xlsm), keeping their macros (refused otherwise)")
    p.add_argument("--attributes", default=",".join(DocumentOptions.attributes),
                   help="HTML attributes whose values are translated, comma-separated ('' for none; default: "
                   "%(default)s); value only on a button's <input> (type submit, reset or button), where it is "
                   "the label shown: elsewhere it is form data and stays")
    p.add_argument("--review", metavar="TSV", help="write the sentences that need review (quality under "
                   "--min-quality, else the calibration's threshold) to this table: where each is (line, or an "
                   "office file's part and paragraph), quality, flags, source, translation (docs/documents.md)")

