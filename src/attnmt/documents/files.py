"""A file as it was sent (its bytes and its name) translated into a file of the same format.

    translate_file_bytes(data, "report.html", translator, options)  -> the translated page's bytes

The format comes from the name's extension: ``.txt`` (plain text, each line split into sentences, a hard-wrapped
paragraph translated whole: attnmt.documents.hard_wrap),
``.html``/``.htm``, ``.xhtml`` (parsed and written as XML) and ``.xml`` (attnmt.documents.markup), ``.xlf``,
``.xliff`` (``.sdlxliff``, ``.mqxliff``, ``.mxliff``: attnmt.documents.xliff, each source into its target),
``.srt``, ``.vtt`` and ``.webvtt`` (attnmt.documents.subtitles), ``.ass`` and ``.ssa``
(attnmt.documents.ass_subtitles), ``.md``, ``.markdown`` and MDX's ``.mdx`` (attnmt.documents.markdown, with the
``markdown`` extra; plain text without it); and the office formats and e-books of attnmt.documents.office's
``SUFFIXES``.  Text files are read as UTF-8 (a byte order mark is kept), or in UTF-16 or UTF-32 where their byte
order mark says so (Subtitle Edit's and Notepad's "Unicode": attnmt.documents.charsets.unicode_marked), and written
back in it with their own line endings (a plain text file's, each line its own); an HTML, XHTML or XML page that
declares another encoding is read and written back in it, its declaration as it was (attnmt.documents.charsets).
Every sentence of a file goes to the translator in calls of at most ``progress_step`` sentences (``PROGRESS_STEP``
unless given), and ``progress(done, total)`` is told the sentences done after each (both only grow: ``Counted``).
A ``review`` (attnmt.documents.review) lists the sentences that need it: by line in a text file,
by member and paragraph in an office file.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from attnmt.config_ranges import whole_number
from attnmt.documents.charsets import encoded, page_charset, page_text, unicode_marked
from attnmt.documents.failed import one_file
from attnmt.documents.line_ends import with_line_ends
from attnmt.documents.pipeline import DocumentOptions, check_inputs
from attnmt.documents.plain_text import translate_text_lines
from attnmt.documents.refused_formats import old_office_refused, pdf_refused
from attnmt.documents.spans import Weights
from attnmt.documents.text_units import lines_written, split_lines
from attnmt.documents.translator_parts import checked_answer
from attnmt.documents.translators import Translator, Wrapper
from attnmt.errors import ConfigError, DataError, UserError, warn
from attnmt.text.data import OLE_SIGNATURE, with_endings
from attnmt.text.encodings import HEAD_BYTES, check_not_utf16
from attnmt.text.file_kinds import ARCHIVE_STARTS, BINARY_STARTS, TEXT_SUFFIXES

if TYPE_CHECKING:  # its module loads quality estimation, which a document without a review never needs
    from attnmt.documents.review import Review

__all__ = ["MAX_FILE_BYTES", "supported_suffixes", "translate_file_bytes", "translated_name"]

# How Word, Excel and PowerPoint mark a document they saved as XML (Word 2003's XML document, Excel 2003's
# XML spreadsheet, a Flat OPC package), after the XML declaration: read as plain XML, each run of a
# paragraph's words went to the model apart ("a man <b>ri</b>des a bike" as "a man", "ri", "des a bike"),
# and so did its properties (its dates, the program that wrote it).  The office format it is saved as instead.
OFFICE_XML = re.compile(r'\A\ufeff?\s*(?:<\?xml\s[^>]*\?>\s*)?<\?mso-application\s+'
                        r'progid="(Word\.Document|Excel\.Sheet|PowerPoint\.Show)"')
SAVED_AS = {"Word.Document": "a Word document (.docx)", "Excel.Sheet": "an Excel workbook (.xlsx)",
            "PowerPoint.Show": "a PowerPoint presentation (.pptx)"}
# How a LibreOffice flat file begins (a .fodt, .fods or .fodp renamed .xml): read as plain XML, its
# settings' values ("true", "false") and its styles' names went to the model too.  Its extension by kind.
FLAT_ODF = re.compile(r'\A\ufeff?\s*(?:<\?xml\s[^>]*\?>\s*)?<office:document\s[^>]*?'
                      r'office:mimetype="application/vnd\.oasis\.opendocument\.(text|spreadsheet|presentation)"')
FLAT_NAMES = {"text": ".fodt", "spreadsheet": ".fods", "presentation": ".fodp"}
# How a Markdown file read as plain text says why (markdown-it-py, the reader, comes with the extra).
MARKDOWN_EXTRA = "pip install 'attnmt[markdown]' to keep its code, links and layout"
# The library's own limit on a file: it is held in memory with its translation, and its parsed
# form (an lxml tree, an office file's parts) takes several times its size.  The server's
# ServeSettings.max_file_bytes is stricter.
MAX_FILE_BYTES = 50 * 2**20
# Those whose pages may declare their encoding (attnmt.documents.charsets): XLIFF is XML, and CAT tools read it so.
MARKUP_KINDS = ("html", "xhtml", "xml", "xliff")
PROGRESS_STEP = 32  # sentences a translator call holds when progress is reported (one batch of the CLI's)
BOM = b"\xef\xbb\xbf"

Progress = Callable[[int, int], None]


def supported_suffixes(macros: bool = True) -> list[str]:
    """Every extension a file may have, with its dot, lower case: ``[".txt", ".html", ...]``;
    without ``macros``, less those of office files with macros (.docm, .pptm, .xlsm: taken
    only where DocumentOptions.macros says so)."""
    from attnmt.documents.office_suffixes import MACRO_SUFFIXES, SUFFIXES

    return [*TEXT_SUFFIXES, *(suffix for suffix in SUFFIXES if macros or suffix not in MACRO_SUFFIXES)]


def check_output_name(source: str, output: str) -> None:
    """ConfigError where ``output`` names a file of another format than ``source``, whose format its
    translation keeps (attnmt does not convert formats): a .docx into ``report.odt`` or ``report.txt``
    held a zip of Word's parts under that name, and HTML into ``page.srt`` a page.  As ``attnmt
    translate`` reads the names (attnmt.cli.formats.check_output_format): an office file or e-book
    goes to a file of its own extension, nothing else to an office extension, markup or subtitles to
    no other markup or subtitle extension (XLIFF is XML, so either may be named for the other); an
    extension that names no format (``report.de``, ``out.bin``) is the caller's to choose."""
    made, written = Path(source).suffix.lower(), Path(output).suffix.lower()
    known = supported_suffixes()
    if written == made or made not in known or written not in known:
        return
    kinds = {TEXT_SUFFIXES.get(suffix) for suffix in (made, written)}  # None: an office file's
    if None not in kinds and (len(kinds) == 1 or "text" in kinds or kinds == {"xml", "xliff"}):
        return
    raise ConfigError(f"output: {output} names a {written} file, but the translation of a {made} file is a {made} "
                      f"file (attnmt does not convert formats): name it {Path(output).with_suffix(made).name}")


def suffix_of(filename: str, macros: bool = True) -> str:
    """The extension ``filename`` is translated by (``.html``); UserError for one that is not known
    (saying what to do with a PDF or an old .doc, .xls or .ppt: attnmt.documents.refused_formats), or,
    without ``macros``, an office file's with macros (supported_suffixes)."""
    suffix = Path(filename).suffix.lower()
    if suffix == ".pdf":
        raise UserError(pdf_refused(filename))
    if (said := old_office_refused(filename)) is not None:
        raise UserError(said)
    if suffix not in supported_suffixes(macros):
        named = f"the extension {suffix}" if suffix else "no extension"
        raise UserError(f"{filename}: {named} is not a format attnmt translates; the formats are "
                        f"{', '.join(supported_suffixes(macros))}")
    return suffix


def check_size(data: bytes, filename: str, max_bytes: int) -> None:
    if len(data) > max_bytes:
        raise UserError(f"{filename}: the file has {len(data):,} bytes; at most {max_bytes:,} can be translated: "
                        "split it into smaller files")


@dataclass
class Counted(Wrapper):
    """A Translator that hands ``translator`` at most ``step`` sentences a call, and after each
    call tells ``progress`` the sentences done of all it was given.  Done and total add up over
    its calls, so progress never goes back: a document makes one call for all its sentences
    (the file's distinct sentences, each translated once, where a review counts every place;
    docs/serving.md), but a subtitle file makes a second for the runs of cues it translates again
    cue by cue, and that call's sentences join the total as it begins."""

    progress: Progress
    step: int = PROGRESS_STEP
    done: int = field(default=0, init=False)
    total: int = field(default=0, init=False)

    def translate(self, sentences: list[str], weighed: list[bool]) -> tuple[list[str], list[Weights | None]]:
        texts: list[str] = []
        weights: list[Weights | None] = []
        self.total += len(sentences)
        self.progress(self.done, self.total)
        for start in range(0, len(sentences), self.step):
            found, found_weights = checked_answer(self.translator, sentences[start:start + self.step],
                                                  weighed[start:start + self.step])
            texts += found
            weights += found_weights
            self.done += len(found)
            self.progress(self.done, self.total)
        return texts, weights


def translate_file_bytes(data: bytes, filename: str, translator: Translator, options: DocumentOptions,
                         progress: Progress | None = None, max_bytes: int = MAX_FILE_BYTES,
                         review: Review | None = None, where: str | None = None,
                         progress_step: int = PROGRESS_STEP) -> bytes:
    """The translation of the file ``data``, in the format its ``filename``'s extension names.

    UserError (one line naming ``filename``) for an extension that is not known, a file over
    ``max_bytes``, text that is not UTF-8 (nor in the encoding a page declares: an unknown one
    too), and whatever the format's reader refuses.  Where the model fails on some of its sentences,
    the file fails whole: FileFailed (attnmt.documents.failed), one line naming ``where`` (the file
    as its caller knows it, a path; ``filename`` if None).
    ``progress(done, total)``: the sentences translated so far, of the file's, told after every
    ``progress_step`` of them (an office file: after every attnmt.documents.office.CHUNK paragraphs);
    ``review``: the module docstring.  ConfigError, before any work, for ``data`` that is not bytes,
    a ``filename`` that is not a str, a ``translator`` without ``translate`` (None, or a model itself),
    ``options`` that are not DocumentOptions, a ``review`` that is no Review, a ``progress`` that is no
    function (pipeline.check_inputs), or a ``max_bytes`` or ``progress_step`` that is no whole number of at
    least 1."""
    if not isinstance(data, bytes | bytearray):  # a str was a TypeError deep in the reader
        raise ConfigError(f"data: expected the file's bytes, got {type(data).__name__}; e.g. path.read_bytes()")
    if not isinstance(filename, str):
        raise ConfigError(f"filename: expected a str, whose extension names the format, got {filename!r}")
    check_inputs(translator, options, review, progress)
    max_bytes, progress_step = at_least_one(max_bytes, "max_bytes"), at_least_one(progress_step, "progress_step")
    return one_file(partial(translated_bytes, data, filename, translator, options, progress, max_bytes, review,
                            progress_step), where or filename)


def at_least_one(value: object, name: str) -> int:
    """``value`` as an int where it is a whole number of at least 1 (``whole_number``: 4096.0 too); else
    a ConfigError naming ``name``: max_bytes="10" was a TypeError once the file was read, and a
    progress_step of 0 a ValueError once it was parsed."""
    number = whole_number(value)
    if number is None or number < 1:
        raise ConfigError(f"{name}: expected a whole number of at least 1, got {value!r:.60}")
    return number


def translated_bytes(data: bytes, filename: str, translator: Translator, options: DocumentOptions,
                     progress: Progress | None, max_bytes: int, review: Review | None,
                     progress_step: int = PROGRESS_STEP) -> bytes:
    """``translate_file_bytes``, where the model's failure on sentences is their SentencesFailed."""
    suffix = suffix_of(filename)
    check_size(data, filename, max_bytes)
    if suffix not in TEXT_SUFFIXES:
        from attnmt.documents.office import translate_office

        return translate_office(data, suffix, translator, options, progress, Path(filename).name, review)
    check_not_archive(data, filename, suffix)
    counted = translator if progress is None else Counted(translator, progress, progress_step)
    return translate_text_bytes(data, TEXT_SUFFIXES[suffix], counted, options, filename, review)


def not_text(head: bytes, filename: str) -> str | None:
    """The one line that says what ``filename`` is where ``head`` (its first bytes) begins as a PDF or
    a picture (BINARY_STARTS), which attnmt does not translate whatever the file's name; None otherwise."""
    kind = next((kind for start, kind in BINARY_STARTS if start.match(head)), None)
    if kind == "a PDF":
        return pdf_refused(filename)
    if kind is not None:
        return (f"{filename} is {kind}, not text, and attnmt does not translate it: the text in a picture would "
                "have to be read out of it first (OCR), and saved as a text file or document")
    return None


def not_qt_ts(head: bytes, filename: str, suffix: str) -> str | None:
    """The one line that refuses a ``.ts`` file (``suffix``) that ``head``, its first bytes, shows is no Qt
    Linguist file (XML whose root is <TS>, after a byte order mark, declaration, DOCTYPE, comments): TypeScript
    source, or XML of another root, which reading it as XML broke or sent to the model; None otherwise, and for
    one that holds nothing but spaces, which comes back as it is, as an empty .resx or .xml does."""
    if suffix.lower() != ".ts":  # only a .ts is looked into: any other file's bytes are no business of this
        return None
    from attnmt.documents.qt_linguist import is_qt_ts

    utf16 = head.startswith((b"\xff\xfe", b"\xfe\xff"))
    text = head[:HEAD_BYTES * 16].decode("utf-16" if utf16 else "utf-8", "replace")
    if not text.replace("\ufeff", "").strip() or is_qt_ts(text):
        return None
    root = re.search(r"<([A-Za-z_][\w.:-]*)", text) if text.lstrip("\ufeff \t\r\n").startswith("<") else None
    what = f"XML whose root is <{root[1]}>" if root else "TypeScript source"
    if head[:1] == b"G" and head[188:189] == b"G":  # a packet of 188 bytes, each starting so: a .ts video
        what = "an MPEG transport stream (a video)"
    return (f"{filename} looks like {what}, not a Qt "
            "Linguist file (XML whose root is <TS>), and is not a format attnmt translates")


def check_not_archive(data: bytes, filename: str, suffix: str) -> None:
    """A DataError where a file named as text (``suffix``: .txt, .html, .srt, ...) is an office file
    or another archive (ARCHIVE_STARTS), a PDF or a picture (not_text), saying what it is, as the CLI
    says it of a .txt: it was "line 1: the text is not UTF-8 (byte 0x84)", with iconv's advice, which
    turns a .docx into junk."""
    if (said := not_text(data, filename) or not_qt_ts(data, filename, suffix)) is not None:
        raise DataError(said)
    if not data.startswith(ARCHIVE_STARTS):
        return
    from attnmt.documents.office_suffixes import FLAT_SUFFIXES, MACRO_SUFFIXES, SUFFIXES

    archives = ", ".join(name for name in SUFFIXES if name not in (*MACRO_SUFFIXES, *FLAT_SUFFIXES))
    if data.startswith(OLE_SIGNATURE):  # attnmt reads no compound file: it is to be saved anew
        raise DataError(f"{filename} is a compound file (an old .doc, .xls or .ppt, or a password-protected office "
                        f"file?), not text, despite its {suffix} name: attnmt translates {archives}; save it as "
                        "one of these, without a password")
    raise DataError(f"{filename} is a zip archive (an office file?), not text, despite its {suffix} name: "
                    f"name it by its format ({archives})")


def translate_text_bytes(data: bytes, kind: str, translator: Translator, options: DocumentOptions, filename: str,
                         review: Review | None = None) -> bytes:
    """A text file's bytes translated as ``kind`` (TEXT_SUFFIXES' values): UTF-8 (or the UTF-16 or UTF-32
    its byte order mark says), its byte order mark and line endings kept; a page that declares another
    encoding (attnmt.documents.charsets) read and written back in it, its declaration as written."""
    encoding = page_charset(data, filename, kind == "html") if kind in MARKUP_KINDS else unicode_marked(data)
    bom, text = (b"", page_text(data, filename, encoding)) if encoding else decoded(data, filename)
    mark = "\ufeff" if encoding and text.startswith("\ufeff") else ""  # UTF-16's byte order mark, written back
    text = text[len(mark):]
    if read_as_text(kind, filename):
        return encoded(mark + translate_plain_text(text, translator, options, review), bom, encoding)
    if kind in ("srt", "vtt", "ass", "markdown"):  # their line endings read and kept there, for any caller
        return encoded(mark + translate_text(kind, text, translator, options, filename, review), bom, encoding)
    [translated] = with_line_ends([text], lambda lf: [translate_text(kind, lf[0], translator, options, filename, review,
                                                                     keep_declaration=encoding is not None)])
    return encoded(mark + translated, bom, encoding)


def read_as_text(kind: str, where: str) -> bool:
    """Whether a file of ``kind`` is read as plain text lines: text, and Markdown where markdown-it-py,
    its reader, is not installed (as before attnmt read Markdown, with one warning naming the extra)."""
    if kind == "markdown" and importlib.util.find_spec("markdown_it") is None:
        warn(f"{where}: Markdown is read as plain text lines without markdown-it-py: {MARKDOWN_EXTRA}")
        return True
    return kind == "text"


def translate_plain_text(text: str, translator: Translator, options: DocumentOptions,
                         review: Review | None = None) -> str:
    """A plain text file's text translated a line for a line, each line keeping its own ending
    (CRLF or LF, a file that mixes them included), as the CLI's text files do; a hard-wrapped
    paragraph translated whole and filled again to its width (attnmt.documents.hard_wrap)."""
    lines, endings = split_lines(text)
    groups = translate_text_lines(lines, translator, options, review, empty_kept=True)
    return with_endings(*lines_written(groups, endings))


def decoded(data: bytes, filename: str) -> tuple[bytes, str]:
    """(the byte order mark, "" or UTF-8's; the text) of a text file; DataError where it is not
    UTF-8, naming UTF-16 where the text is in it without a byte order mark (with one it is read), as the
    CLI's text input does (``check_not_utf16``), and otherwise the line and byte, in the same words:
    one file sent to the server in Windows-1252, another in UTF-16, are told the same fix."""
    check_not_utf16(data[:HEAD_BYTES], filename)
    bom = BOM if data.startswith(BOM) else b""
    try:
        return bom, data[len(bom):].decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise DataError(f"{filename}, line {line}: the text is not UTF-8 (byte 0x{data[error.start]:02x}); "
                        "convert it to UTF-8 first, e.g. with iconv -f WINDOWS-1252 -t UTF-8 for Western "
                        "European text") from None


def translate_text(kind: str, text: str, translator: Translator, options: DocumentOptions, where: str,
                   review: Review | None = None, keep_declaration: bool = False) -> str:
    """A markup or subtitle file's text translated as ``kind`` ("html", "xhtml", "xml", "xliff", "srt",
    "vtt", "markdown"): markup's with ``\\n`` line endings; a subtitle or Markdown file's as it was read,
    whose reader keeps its line endings (Markdown each line's own, in code blocks too)."""
    if kind in ("srt", "vtt"):
        from attnmt.documents.subtitles import translate_subtitle_text  # loaded for subtitles only (issue 44)

        return translate_subtitle_text(text, translator, options, where, review, webvtt=kind == "vtt")
    if kind == "ass":
        from attnmt.documents.ass_subtitles import translate_ass_text

        return translate_ass_text(text, translator, options, where, review)
    if kind == "markdown":
        from attnmt.documents.markdown import translate_markdown  # markdown-it-py: attnmt[markdown]

        return translate_markdown(text, translator, options, where, review,
                                  mdx=where.lower().removesuffix(".gz").endswith(".mdx"))
    if kind == "xliff":
        from attnmt.documents.xliff import translate_xliff

        return translate_xliff(text, translator, options, where, review, keep_declaration)
    from attnmt.documents.markup import translate_markup  # lxml: loaded for markup only

    if kind == "xml":
        check_not_office_xml(text, where)
        from attnmt.documents.qt_linguist import is_qt_ts, translate_ts

        if is_qt_ts(text):
            return translate_ts(text, translator, options, where, review, keep_declaration)
    return translate_markup([text], translator, options, xml=kind == "xml", where=where, review=review,
                            xhtml=kind == "xhtml", keep_declaration=keep_declaration)[0]


def check_not_office_xml(text: str, where: str) -> None:
    """DataError naming ``where`` for a document Word, Excel or PowerPoint saved as XML (OFFICE_XML), or a
    LibreOffice flat file (FLAT_ODF), which plain XML's reading breaks: it is to be saved in the office
    format, or named by its own, and translated so."""
    flat = FLAT_ODF.match(text)
    if flat:
        raise DataError(f"{where}: a LibreOffice flat file (office:mimetype=\"application/vnd.oasis.opendocument."
                        f"{flat[1]}\"), not plain XML: name it {FLAT_NAMES[flat[1]]} and translate that")
    found = OFFICE_XML.match(text)
    if found:
        raise DataError(f'{where}: an office document saved as XML (<?mso-application progid="{found[1]}"?>), '
                        f"not plain XML: each run of its words would be translated apart; save it as "
                        f"{SAVED_AS[found[1]]} and translate that")


def translated_name(filename: str, target: str | None) -> str:
    """The translation's file name: ``report.docx`` into ``de`` is ``report.de.docx`` (the name
    alone, whatever folders ``filename`` names)."""
    name = Path(filename.replace("\\", "/")).name or "file"
    path = Path(name)
    return f"{path.stem}.{target}{path.suffix}" if target and path.suffix else name

