"""What a file is, by its extension and by how it begins: the text formats attnmt translates (TEXT_SUFFIXES), and
the starts of an archive, a PDF or a picture, which are no text whatever a file is named.  Read by the documents
(attnmt.documents.files) and by the command line before any of them loads (attnmt.cli.formats: ``attnmt --help``
and a job of plain text need no reader of documents, issue 44)."""

from __future__ import annotations

import re

from attnmt.text.data import OLE_SIGNATURE, ZIP_START

# A .resx (.NET) is XML; a .ts is XML where it is Qt Linguist's (not_qt_ts: TypeScript's is refused).
# Trados's .sdlxliff, memoQ's .mqxliff and Phrase's .mxliff are XLIFF 1.2, with their tools' status in attributes
# of their own.
TEXT_SUFFIXES = {".txt": "text", ".html": "html", ".htm": "html", ".xhtml": "xhtml", ".xml": "xml", ".xlf": "xliff",
                 ".xliff": "xliff", ".sdlxliff": "xliff", ".mqxliff": "xliff", ".mxliff": "xliff", ".srt": "srt",
                 ".vtt": "vtt", ".webvtt": "vtt", ".ass": "ass", ".ssa": "ass", ".md": "markdown",
                 ".markdown": "markdown", ".mdx": "markdown", ".resx": "xml", ".ts": "xml"}
# How an office file, an e-book or another archive begins (a zip archive's first local header, or a compound file).
ARCHIVE_STARTS = (ZIP_START, OLE_SIGNATURE)
# How a PDF or a picture begins, and what it is: neither is text, and each was refused as "line 2: the text is
# not UTF-8 (byte 0xe2)", with iconv's advice, which makes no text of it.  (.rtf is ASCII: the CLI reads its start.)
BINARY_STARTS = ((re.compile(rb"%PDF-\d"), "a PDF"), (re.compile(rb"\x89PNG\r\n\x1a\n"), "a PNG image"),
                 (re.compile(rb"\xff\xd8\xff"), "a JPEG image"), (re.compile(rb"GIF8[79]a"), "a GIF image"),
                 (re.compile(rb"II\*\x00|MM\x00\*"), "a TIFF image"),
                 (re.compile(rb"RIFF.{4}WEBP", re.DOTALL), "a WebP image"))
