"""The formats ``attnmt translate`` reads and writes besides plain text and JSONL, the extensions
that name them, and what the output file of each may be named (check_output_format; how a file is
read is settled in attnmt.cli.document_options)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from attnmt.errors import ConfigError, DataError
from attnmt.text.data import OLE_SIGNATURE
from attnmt.text.file_kinds import ARCHIVE_STARTS, BINARY_STARTS, TEXT_SUFFIXES

# beside attnmt.cli.lines.INPUT_FORMATS (text, jsonl)
DOCUMENT_FORMATS = ("html", "xhtml", "xml", "xliff", "srt", "vtt", "ass", "markdown")
ARCHIVE_FORMATS = ("docx", "pptx", "xlsx", "odt", "odp", "ods", "epub")  # the zip archives of office.SUFFIXES
FLAT_FORMATS = ("fodt", "fodp", "fods")  # LibreOffice's flat XML (attnmt.documents.opendocument_flat)
OFFICE_FORMATS = (*ARCHIVE_FORMATS, *FLAT_FORMATS)  # attnmt.documents.office.SUFFIXES
MACRO_VARIANTS = {".docm": "docx", ".pptm": "pptx", ".xlsm": "xlsx"}
OFFICE_SUFFIXES = frozenset({f".{name}" for name in OFFICE_FORMATS} | set(MACRO_VARIANTS))  # what office_suffix knows
# The extension of what each input format is written as.
FORMAT_SUFFIXES = {"text": ".txt", "html": ".html", "xhtml": ".xhtml", "xml": ".xml", "xliff": ".xlf", "srt": ".srt",
                   "vtt": ".vtt", "ass": ".ass", "markdown": ".md"}
# An XLIFF file is XML: written by either format, its name may say either (check_output_format).
XML_FORMATS = frozenset(("xml", "xliff"))


def check_output_format(args: argparse.Namespace, suffix: str | None) -> None:
    """A translation keeps its format, and its output file the extension of that format: an office
    file goes to a file of its own extension (and is no gzip: it is a zip archive already), nothing
    else to an office extension, and markup or subtitles to no other markup or subtitle extension
    (attnmt does not convert formats; XLIFF is XML, so either may be named for the other).  An
    extension that names no format is the user's to choose."""
    if args.output in (None, "-"):
        return
    name = Path(args.output).name  # in its own case, for the name an error suggests (OUT.DOCX.GZ)
    gz = Path(name).suffix if Path(name).suffix.lower() == ".gz" else ""  # as written: .gz, .GZ
    unzipped = name.removesuffix(gz)
    if gz and suffix:
        packed = "written as LibreOffice reads it, not gzip-compressed" if suffix[1:] in FLAT_FORMATS else (
            "a compressed (zip) archive already")
        bare = re.sub(r"(\.gz)+$", "", unzipped, flags=re.IGNORECASE)  # out.docx.gz.gz: every .gz
        raise ConfigError(f"{args.output}: a {suffix} file is {packed}: name it {named_for(bare, suffix)}, without .gz")
    written = Path(unzipped).suffix.lower()
    made = suffix or FORMAT_SUFFIXES.get(args.input_format)  # the extension of what is written
    if made is None or written == made or not (written in OFFICE_SUFFIXES or written in TEXT_SUFFIXES):
        return
    kind = TEXT_SUFFIXES.get(written, written)
    if suffix or written in OFFICE_SUFFIXES or (args.input_format in DOCUMENT_FORMATS and kind in DOCUMENT_FORMATS
                                        and kind != args.input_format and not {kind, args.input_format} <= XML_FORMATS):
        # Given, the format may not be the input's name's (--input-format text on a .docx): it is named instead.
        read = f"--input-format {args.input_format}" if args.input_format_given else f"a {made} file"
        raise ConfigError(f"{args.output} names a {written} file, but the translation of {read} is a "
                          f"{made} file (attnmt does not convert formats): name it {named_for(unzipped, made)}{gz}")


def named_for(name: str, made: str) -> str:
    """The output file name an error suggests for ``name``, written without its .gz, to hold a ``made``
    file: ``name`` where it ends in ``made`` (in any case: OUT.ODT), else with ``made`` in place of
    another format's extension (in the case it was written in: OUT.DOCX for an .odt, OUT.ODT), else
    with ``made`` added (out.tar, report.de: out.tar.odt, report.de.odt; an extension of no format
    would be taken, but say nothing of what the file holds).  The name is one the check takes."""
    path = Path(name)
    written = path.suffix.lower()
    if written == made:
        return name
    if written in OFFICE_SUFFIXES or written in TEXT_SUFFIXES:
        return path.with_suffix(made.upper() if path.suffix.isupper() else made).name
    return name + made


def check_piped_text(head: bytes, source: str) -> None:
    """A DataError where text or JSONL from standard input (``source``), of which ``head`` is the start,
    is an office file, a PDF or a picture, as attnmt.cli.document_options.check_text_input refuses one by
    name: from a pipe, its first "lines" were translated as garbage before "invalid UTF-8", with
    iconv's advice, which makes no text of it.  An office file is translated into a file, by name."""
    by_name = ("give it by its name, with the output file after it "
               "(attnmt translate --model M report.docx report.de.docx)")
    if head.startswith(OLE_SIGNATURE):  # attnmt reads no compound file: it is to be saved anew
        raise DataError(f"{source} is a compound file (an old .doc, .xls or .ppt, or a password-protected office "
                        f"file?), not text: save it as .docx, .xlsx or .pptx, without a password, and {by_name}")
    if head.startswith(ARCHIVE_STARTS):
        raise DataError(f"{source} is a zip archive (an office file?), not text: {by_name}")
    kind = next((kind for start, kind in BINARY_STARTS if start.match(head)), None)
    if kind is not None:
        how = ("convert it to .docx or .odt first" if kind == "a PDF"
               else "its text would have to be read out of it first (OCR)")
        raise DataError(f"{source} is {kind}, not text, and attnmt does not translate it: {how}")
