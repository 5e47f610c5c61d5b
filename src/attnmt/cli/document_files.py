"""``attnmt translate --input-format html|xml|srt|vtt|ass``, and paragraph splitting of plain text (attnmt.documents).

- ``text`` (the default): each line is split into sentences (``--no-split``: translated whole,
  but for the fields its tabs part), URLs, e-mail addresses and file names kept as they are, a line without
  letters passed through; one output line per input line.  Per-line extras (``--alignments``,
  ``--n-best``, ``--output-format tsv|jsonl``) and guides (``--glossary``, ``--prefix``) leave
  that as it is, the line's joined from its sentences' (attnmt.documents.paragraphs); without them, a hard-wrapped
  paragraph read whole is translated whole and filled again (attnmt.documents.hard_wrap; not ``--keep-lines``);
  ``jsonl`` input lines, each with its own guides, are translated whole.
  The other formats take ``--glossary`` (its terms required in every sentence), not ``--prefix``.
- ``html``: a whole document (the input starts with ``<!DOCTYPE`` or ``<html>``) is translated
  as one page; anything else is one HTML fragment a line, or one fragment where the file's
  extension chose the format (read whole, as the server reads a sent file).
- ``xml``: a whole document (the input starts with an XML declaration or a ``<!DOCTYPE``, or its
  root ``<TS>``, ``<resources>`` or ``<root>`` is left open on its first line: is_document) is
  translated as one, its DOCTYPE kept as it is; anything else as html's.
- ``xhtml``: the whole input is one XHTML page, parsed and written as XML (as an EPUB's pages
  are), its elements read as HTML's.
- ``xliff``: the whole input is one XLIFF file (1.2 or 2): each unit's source translated into its
  empty or missing target, all else kept (attnmt.documents.xliff).
- ``srt``, ``vtt``: a subtitle file; cue text translated, numbering and timings kept.
- ``ass`` (``.ass``, ``.ssa``): an ASS/SSA subtitle file; each Dialogue event's Text translated,
  all else kept (attnmt.documents.ass_subtitles).
- ``markdown``: the whole input is one Markdown file (attnmt.documents.markdown): the text of its
  paragraphs, headings, lists, quotes and tables translated, its code, links and layout kept.
- ``docx``, ``pptx``, ``xlsx``, ``odt``, ``odp``, ``ods``, ``epub``: a file of that kind
  (attnmt.documents.office), chosen by the input's extension too (``.docm`` and the other
  files with macros need ``--allow-macros``); it needs an output file, and a progress line on a
  terminal counts its paragraphs.
- An input of html, xhtml or xml that declares an encoding other than UTF-8 (``<meta
  charset="windows-1252">``, an XML declaration's) is translated whole, as the server translates a
  sent file, and written back in that encoding (attnmt.documents.charsets): from a file, stdin or a
  pipe alike, whose bytes are read once (``piped_page``); so is srt, vtt, ass or markdown in UTF-16 (or UTF-32)
  with its byte order mark (Subtitle Edit's and Notepad's "Unicode"), its mark and line endings kept, and a text
  file so, from a file, gzipped or not, or stdin, line by line as a UTF-8 one is (``marked_text``).
- Where ``--input-format`` is left out, the input file's extension chooses; text otherwise.  That
  choice, the options and the checks made before the model loads are attnmt.cli.document_options'.

``--review FILE`` (any of these formats, and plain text) writes the sentences that need review
as a table (attnmt.documents.review): those under ``--min-quality``, else under the
calibration's threshold, empty, or flagged by a rule (``needs_review``), assessed in
``--source-lang`` and ``--target-lang``.  ``--min-quality`` with a document sets that threshold; with
``--below-quality source`` the sentences under it (not those a rule alone flags) keep their source
text in the document, and so in plain text written as text, with ``--review`` or without.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from attnmt.cli.document_options import DOCUMENT_FORMATS, document_options
from attnmt.cli.formats import check_piped_text
from attnmt.cli.lines import is_stream, line_by_line, output
from attnmt.cli.recent import Remembering
from attnmt.cli.translate_quality import assessed_languages
from attnmt.decoding import Decoding
from attnmt.decoding.glossary import Glossary
from attnmt.documents.charsets import BODY, page_bytes, page_charset, page_text, unicode_marked
from attnmt.documents.failed import FileFailed, one_file
from attnmt.documents.files import MARKUP_KINDS, translate_text, translate_text_bytes
from attnmt.documents.plain_text import translate_text_lines
from attnmt.documents.text_units import lines_written
from attnmt.documents.translators import ModelTranslator
from attnmt.errors import DataError, OutputError
from attnmt.text.data import BROKEN_STREAM, cannot_read, line_endings, not_gzip, open_bytes, with_endings

if TYPE_CHECKING:  # its module loads quality estimation: imported where a job asks for a review
    from attnmt.documents.review import Review

T = TypeVar("T")
# How much of a page is read for the encoding it declares: an XML declaration is its first line, and HTML
# wants its <meta charset> in the first 1,024 bytes (a page of long <head> scripts may put it later).
DECLARATION_BYTES = 64 * 1024
# What is read whole, and so in its own encoding where it has one: a page's declared one, or the UTF-16 (or UTF-32)
# a subtitle or Markdown file's byte order mark says (Subtitle Edit's and Notepad's "Unicode").
WHOLE_KINDS = (*MARKUP_KINDS, "srt", "vtt", "ass", "markdown")


def whole_file(translating: Callable[[], T], where: str) -> T:
    """``translating()``, a file translated whole; where the model fails on some of its sentences,
    one line naming the file and the first failure, and nothing written (the output file, if any,
    stays as it was): a document cannot be written with holes in it (attnmt.documents.failed.one_file)."""
    try:
        return one_file(translating, where)
    except FileFailed as failed:  # the CLI's one line, exit status 2
        raise DataError(str(failed)) from None


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
    split into sentences unless --no-split, at its tabs in any case, its URLs, e-mail addresses and file names
    kept as they are); a JSONL line, with its own glossary and prefix, is translated whole, as it
    is.  A --no-split line with --alignments is a paragraph too, so that the alignments leave its
    translation as it was: its word numbers count every word of the line all the same
    (attnmt.documents.paragraphs.text_pairs)."""
    return args.input_format == "text"


def translate_document_input(args: argparse.Namespace, model, tokenizer, decoding: Decoding,
                             batches: Iterable[list[str]], out: TextIO, glossary: Glossary | None = None) -> int:
    """Reads the input (lines as they arrive for text, whole otherwise), writes the translation
    (and --review's table); returns how many lines the model failed on (each named on stderr, its
    output line empty; attnmt.cli.lines.line_by_line)."""
    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size, glossary)
    review = quality_review(args, translator)
    with review_written(args, review):
        return translate_input(args, translator, review, batches, out, streamed=args.streamed)


def translate_input(args: argparse.Namespace, translator: ModelTranslator, review: Review | None,
                    batches: Iterable[list[str]], out: TextIO, style: tuple[str, list[str]] | None = None,
                    streamed: bool = False) -> int:
    """``translate_document_input``'s translation, written to ``out``, its sentences listed in
    ``review``; returns how many lines the model failed on.  ``style``: the byte order mark and line endings
    to write it with, where not the input file's own (``output_style``).  Text ``streamed`` (from a terminal
    or a pipe, as its lines arrive) keeps its lines: a paragraph may be cut between two reads, and one held
    back for its end would hold a terminal's every line back."""
    options = document_options(args)
    where = input_name(args)
    bom, endings = style or output_style(args.input)
    if args.input_format == "text":
        first_line, failed = 1, 0
        options = replace(options, rewrap=options.rewrap and not streamed)
        # a stream's batches translate a sentence repeated across them once, as a file's one batch does
        lines_by = translator if review is not None else Remembering(translator)
        out.write(bom)
        for lines in batches:  # a file comes whole, as one batch: ``endings`` are its lines'
            translating = partial(translate_text_lines, translator=lines_by, options=options, review=review)
            # a hard-wrapped paragraph's lines come out with its last (attnmt.documents.hard_wrap)
            translated, lost = line_by_line(numbered(translating, first_line), lines, where, first_line, lost=[""])
            out.write(with_endings(*lines_written(translated, endings)))
            out.flush()
            first_line, failed = first_line + len(lines), failed + lost
        return failed
    from attnmt.documents.markup import translate_markup  # lxml: only here (plain text starts faster)
    from attnmt.documents.pages import is_document

    lines = [line for read in batches for line in read]
    # Markdown and subtitles are read with each line's own ending, which attnmt.documents.markdown and
    # attnmt.documents.subtitles keep where it stands
    as_read = args.input_format in ("markdown", "srt", "vtt", "ass")
    text = with_endings(lines, endings if as_read else in_lf(endings))
    xml = args.input_format == "xml"
    failed = 0
    if args.input_format in ("srt", "vtt", "ass", "xhtml", "xliff", "markdown") or is_document(text, xml) or (
            args.format_from_extension):
        # a file as the server reads it (attnmt.documents.files), its byte order mark and line endings kept
        translated = whole_file(partial(translate_text, args.input_format, text, translator, options, where, review),
                                where)
        # its lines are not the source's: the first's ending for all (Markdown's and subtitles': each its own already)
        newline = "\r\n" if endings and endings[0] == "\r\n" and not as_read else "\n"
        out.write(bom + translated.replace("\n", newline))
    else:
        fragments = partial(translate_markup, translator=translator, options=options, xml=xml, where=where, unit="line",
                            review=review)
        translated, failed = line_by_line(numbered(fragments, 1), lines, where, 1)
        out.write(bom + with_endings(translated, endings))  # as a text file's lines: each its own ending
    out.flush()
    return failed


def piped_page(args: argparse.Namespace) -> bytes | None:
    """The whole input where it is html, xhtml or xml (or subtitles, Markdown, or plain text translated as documents
    are and not streamed: ``marked_text`` reads its byte order mark) from stdin or a pipe (``<(…)``, a named pipe),
    read once: a pipe cannot be read twice, and such input is read whole anyway (translate_document_input
    joins its lines), so these bytes are both what ``declared_page`` reads the declared encoding from
    and, where it declares none other than UTF-8, the lines translated (attnmt.text.data.decode_lines,
    as stdin's).  None for a file by name, read where needed, and for the other formats: text and JSONL
    on stdin are translated as their lines arrive (attnmt.cli.lines.line_batches)."""
    # plain text translated as documents are, where it comes whole anyway: from a file on stdin, or a pipe by name
    whole = args.input_format == "text" and uses_documents(args) and not (
        args.input in (None, "-") and is_stream(sys.stdin.buffer))
    by_name = args.input not in (None, "-") and Path(args.input).is_file()
    if not (whole or args.input_format in WHOLE_KINDS) or by_name:
        return None
    data = sys.stdin.buffer.read() if args.input in (None, "-") else pipe_bytes(args.input)
    # an office file, a PDF or a picture named as such, as on stdin in another format (attnmt.cli.lines.line_batches)
    check_piped_text(data, input_name(args))
    return data


def pipe_bytes(path: str) -> bytes:
    """All the bytes of a pipe given by name (``<(…)``, a named pipe), which can be read only once,
    ungzipped where its name ends in .gz; a DataError naming it where it cannot be read."""
    try:
        with open_bytes(path) as f:
            return f.read()
    except BROKEN_STREAM as error:
        raise not_gzip(path, error) from None
    except OSError as error:
        raise cannot_read(path, error) from None


def declared_page(args: argparse.Namespace, piped: bytes | None) -> bytes | None:
    """The bytes of the input where it is an HTML, XHTML or XML page that declares an encoding other
    than UTF-8 (attnmt.documents.charsets.page_charset; DataError for one Python does not know), to be
    read and written back in it whole (``translate_declared_page``); None for any other input, read as
    UTF-8 lines.  From stdin or a pipe, ``piped`` (``piped_page``: its bytes, read once).  A file is
    read whole only where its first DECLARATION_BYTES declare another encoding: a corpus of lines need
    not be held.  A subtitle or Markdown file likewise where its byte order mark says UTF-16 or UTF-32
    (``own_encoding``); a plain text file is ``marked_text``'s."""
    if args.input_format not in WHOLE_KINDS:
        return None
    html = args.input_format == "html"
    if piped is not None:
        return piped if own_encoding(piped, args) else None
    with open_bytes(args.input) as f:
        head = f.read(DECLARATION_BYTES)
        # A page whose <head> runs on past the first bytes (long scripts) may declare later: read on, until <body>.
        if own_encoding(head, args) is None and not (html and len(head) == DECLARATION_BYTES
                                                     and not BODY.search(head)):
            return None
    with open_bytes(args.input) as f:
        data = f.read()
    return data if own_encoding(data, args) else None


def marked_text(args: argparse.Namespace, piped: bytes | None) -> bytes | None:
    """The bytes of a plain text input translated as documents are (``uses_documents``: text out, nothing per
    line) whose byte order mark says UTF-16 or UTF-32 (Notepad's "Unicode"), to be translated line by line and
    written back in it (``translate_marked_text``): a file by name, gzipped too, or ``piped`` (``piped_page``: stdin
    or a pipe, read once); None for any other input.  With per-line extras it is refused as before."""
    if args.input_format != "text" or not uses_documents(args):
        return None
    if piped is not None or args.input in (None, "-") or not Path(args.input).is_file():
        return piped if piped is not None and unicode_marked(piped) else None
    try:
        with open_bytes(args.input) as f:
            if unicode_marked(f.read(4)) is None:
                return None
    except (OSError, *BROKEN_STREAM):  # gzip.BadGzipFile among them: named as the lines are read
        return None
    return pipe_bytes(args.input)


def translate_marked_text(args: argparse.Namespace, data: bytes, model, tokenizer, decoding: Decoding,
                          glossary: Glossary | None = None) -> int:
    """Writes the translation of a plain text input in the UTF-16 or UTF-32 its byte order mark says
    (``marked_text``) in that encoding, its mark and each line's ending kept, translated line by line as a UTF-8
    one is (``translate_input``): a line the model fails on is named and left empty, the others kept; returns how
    many lines it failed on.  DataError naming the line where the bytes are not text in that encoding."""
    encoding = unicode_marked(data) or "utf-16"
    parts = page_text(data, input_name(args), encoding).removeprefix("\ufeff").split("\n")
    lines = [part.removesuffix("\r") for part in parts[:-1]] + [parts[-1]] * bool(parts[-1])
    endings = ["\r\n" if part.endswith("\r") else "\n" for part in parts[:-1]] + [""] * bool(parts[-1])
    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size, glossary)
    review = quality_review(args, translator)
    translated = io.StringIO()
    failed = translate_input(args, translator, review, [lines], translated, ("\ufeff", endings))
    with review_written(args, review), output(args.output) as out:
        out.flush()
        out.buffer.write(page_bytes(translated.getvalue(), encoding))
    return failed


def own_encoding(data: bytes, args: argparse.Namespace) -> str | None:
    """The encoding other than UTF-8 the input ``data`` is read and written back in: a page's declared one
    (attnmt.documents.charsets.page_charset), a subtitle or Markdown file's UTF-16 or UTF-32 by its byte
    order mark (``unicode_marked``: without one, UTF-16 is refused as the lines are read); None for UTF-8."""
    if args.input_format not in MARKUP_KINDS:
        return unicode_marked(data)
    return page_charset(data, input_name(args), args.input_format == "html")


def translate_declared_page(args: argparse.Namespace, data: bytes, model, tokenizer, decoding: Decoding,
                            glossary: Glossary | None = None) -> None:
    """Writes the translation of a page in the encoding it declares, or of a subtitle or Markdown file
    in the UTF-16 its byte order mark says (``declared_page``), in that encoding, its declaration and mark
    as written, as the server writes a sent file (attnmt.documents.files),
    all or nothing (``whole_file``); and --review's table."""
    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size, glossary)
    review = quality_review(args, translator)
    where = input_name(args)
    translated = whole_file(partial(translate_text_bytes, data, args.input_format, translator, document_options(args),
                                    where, review), where)
    with review_written(args, review), output(args.output) as out:
        out.flush()
        out.buffer.write(translated)  # bytes in the page's own encoding, not the text layer's UTF-8


def input_name(args: argparse.Namespace) -> str:
    """How errors name the input: its file's name, or <stdin>."""
    return args.input if args.input not in (None, "-") else "<stdin>"


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
    if args.review is None and args.min_quality is None:
        return None
    from attnmt.documents.review import reviewing  # quality estimation: loaded for a review only

    return reviewing(translator, args.calibration, args.min_quality, args.below_quality == "source",
                     assessed_languages(args))


@contextmanager
def review_written(args: argparse.Namespace, review: Review | None) -> Iterator[None]:
    """--review's table written (``write_review``) once the translation is, and also where the
    output's reader leaves first (BrokenPipeError: ``| head``), which the command takes for a
    success (exit status 0: attnmt.cli.main): the table lists what was translated (no table was
    written).  Not where the translation fails or is stopped (an error, Ctrl-C): its output file is left as it
    was, and so is the table, which would otherwise list the sentences of a translation never written."""
    try:
        yield
    except BrokenPipeError:
        write_review(args, review)
        raise
    write_review(args, review)


def write_review(args: argparse.Namespace, review: Review | None) -> None:
    """--review's table, and one line on stderr saying how many sentences it lists."""
    if review is not None and args.review is not None:
        from attnmt.documents.review import UNCALIBRATED

        review.write(args.review)
        print(review.summary(args.review) + ("" if args.calibration is not None else f"; {UNCALIBRATED}"),
              file=sys.stderr)


def translate_office_file(args: argparse.Namespace, suffix: str, model, tokenizer, decoding: Decoding,
                          glossary: Glossary | None = None) -> None:
    """Reads the office file (or stdin), writes its translation to the output file, all or nothing:
    where the model fails on some of its sentences, one line naming the file (``whole_file``)."""
    from attnmt.documents.office import translate_archive
    from attnmt.files import atomic_write

    translator = ModelTranslator(model, tokenizer, decoding, args.max_tokens, args.batch_size, glossary)
    review = quality_review(args, translator)
    from_file = args.input not in (None, "-")
    where = args.input if from_file else "<stdin>"
    data = Path(args.input).read_bytes() if from_file else sys.stdin.buffer.read()
    progress = show_progress if sys.stderr.isatty() else None
    try:
        translated = whole_file(partial(translate_archive, data, suffix, translator, document_options(args), progress,
                                        where, review), where)
    finally:
        if progress is not None:  # the progress line ends before the next, an error's included
            print(file=sys.stderr)
    atomic_write(Path(args.output), lambda tmp: tmp.write_bytes(translated), OutputError)
    write_review(args, review)


def show_progress(done: int, total: int) -> None:
    print(f"\rtranslated {done}/{total} sentences", end="", file=sys.stderr, flush=True)
