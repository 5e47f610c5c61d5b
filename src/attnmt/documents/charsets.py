"""The encoding an HTML or XML file declares, and its text read and written back in it.

A page saved by Word ("Save as Web Page") or an older site says ``<meta charset="windows-1252">``,
an XML file ``<?xml version="1.0" encoding="iso-8859-1"?>``: the declaration says how to read the
bytes, and was refused as invalid UTF-8.  ``declared_charset`` reads it (a byte order mark wins
over it); attnmt.documents.files reads a page in it and writes the translation back in it, the
declaration as it was, for the CLI, the library and the server alike; attnmt.documents.word_chunks
reads Word's imported HTML chunks by it.  A text, subtitle or Markdown file is read in UTF-16 or UTF-32
where its byte order mark says so (``unicode_marked``), and written back in it.
"""

from __future__ import annotations

import codecs
import re

from attnmt.errors import DataError

# An XML declaration's encoding pseudo-attribute, ``<?xml version="1.0" encoding="iso-8859-1"?>``:
# the declaration's text before its value (group 1), the quote (2), the value (3).
DECLARED_ENCODING = re.compile(r"""\A(\ufeff?\s*<\?xml\s(?:[^?]|\?(?!>))*?\bencoding\s*=\s*)(["'])([^"']*)\2""")
# Byte order marks, longest first (UTF-32's starts as UTF-16's does), and the encoding each says.
BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xef\xbb\xbf", "utf-8"),
        (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# A <meta charset="..."> or <meta http-equiv="Content-Type" content="text/html; charset=...">: the name (group 1).
META_CHARSET = re.compile(rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
BODY = re.compile(rb"<body[\s>]", re.IGNORECASE)  # a <meta> after it declares nothing
# Python's names of the encodings HTML reads otherwise (the WHATWG Encoding Standard): "iso-8859-1" and
# "us-ascii" are labels of windows-1252, and a declaration that its own bytes show in an ASCII-compatible
# encoding cannot be UTF-16's.
AS_HTML_READS = {"iso8859-1": "cp1252", "ascii": "cp1252", "utf-16": "utf-8", "utf-16-le": "utf-8",
                 "utf-16-be": "utf-8", "utf-32": "utf-8", "utf-32-le": "utf-8", "utf-32-be": "utf-8"}
# A surrogate alone (a pair is joined first: whole_characters), which no encoding writes.
SURROGATES = re.compile("[\ud800-\udfff]+")
# An XML file that declares UTF-16 or UTF-32 in ASCII bytes is no such file: read as UTF-8.
AS_XML_READS = {name: "utf-8" for name in AS_HTML_READS if name.startswith("utf-")}


def bom_charset(data: bytes) -> str | None:
    """The encoding ``data``'s byte order mark says; None where it has none."""
    return next((name for bom, name in BOMS if data.startswith(bom)), None)


def declared_charset(data: bytes, html: bool) -> str | None:
    """The encoding a page declares, by Python's name where it knows the label (the label as written
    where it does not): its XML declaration's, else, in ``html``, that of the first ``<meta>`` before
    ``<body>`` that names one, as HTML reads them (AS_HTML_READS); None where none does."""
    declared = DECLARED_ENCODING.match(data[:1024].decode("latin-1"))
    body = BODY.search(data) if html and not declared else None
    meta = META_CHARSET.search(data, 0, body.start() if body else len(data)) if html and not declared else None
    label = declared.group(3) if declared else meta.group(1).decode("ascii") if meta else None
    if label is None:
        return None
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return label
    return (AS_HTML_READS if html else AS_XML_READS).get(name, name)


def page_charset(data: bytes, filename: str, html: bool) -> str | None:
    """The encoding other than UTF-8 a page's bytes are to be read and written back in: the one it
    declares (``declared_charset``), unless a byte order mark says its own; None for UTF-8, where
    nothing declares another, and where the bytes beyond ASCII are UTF-8 whatever the declaration
    says (``is_utf8``: a page re-saved as UTF-8 that still says windows-1252, which was read right as
    UTF-8 before declarations were read, and read so "café" became "cafÃ©").  A byte order mark wins:
    UTF-16's or UTF-32's is the encoding (XML's own alternative to UTF-8, which Windows tools write: a
    .resx, an XLIFF, ``<?xml version="1.0" encoding="UTF-16"?>``), UTF-8's is None.  DataError naming
    ``filename`` for an encoding Python does not know."""
    bom = bom_charset(data)
    if bom is not None:
        return None if bom == "utf-8" else bom
    encoding = declared_charset(data, html)
    if encoding is None or encoding == "utf-8" or is_utf8(data):
        return None
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise DataError(f"{filename}: the file declares the encoding {encoding}, which attnmt cannot read; "
                        "convert it to UTF-8 first (and say so in its declaration), e.g. with iconv") from None
    return encoding


def is_utf8(data: bytes) -> bool:
    """Whether ``data`` holds bytes beyond ASCII and they are UTF-8: text in a one-byte encoding with
    letters beyond ASCII is almost never valid UTF-8 as well."""
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def page_text(data: bytes, filename: str, encoding: str) -> str:
    """A page's bytes read in the ``encoding`` it declares (or its byte order mark says); DataError naming
    ``filename``, the line (counted in that encoding: a UTF-16 "\n" is two bytes) and the byte where they
    are not text in it."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[:error.start].decode(encoding, "replace").count("\n") + 1
        if bom_charset(data) == encoding:  # a UTF-16 file with half a character: cut short, or joined badly
            raise DataError(f"{filename}, line {line}: the text is not {encoding}, which its byte order mark says "
                            f"(byte 0x{data[error.start]:02x}); save it again as UTF-8 or {encoding}") from None
        raise DataError(f"{filename}, line {line}: the text is not {encoding}, which the file declares "
                        f"(byte 0x{data[error.start]:02x}); correct the declaration, or convert the file to "
                        "it") from None


def page_bytes(text: str, encoding: str) -> bytes:
    """A translated page written back in the ``encoding`` it declares; a character that encoding
    cannot hold is written as a character reference (``&#8364;``), which HTML and XML read as it."""
    return text.encode(encoding, "xmlcharrefreplace")


def unicode_marked(data: bytes) -> str | None:
    """The encoding of a text, subtitle or Markdown file that its byte order mark says is UTF-16 or UTF-32
    (Subtitle Edit's and Notepad's "Unicode"): the mark makes it as certain as UTF-8's does; None for any
    other file, UTF-8 (with its mark or without), and UTF-16 without a mark, refused (``decoded``)."""
    encoding = bom_charset(data)
    return None if encoding == "utf-8" else encoding


def encoded(text: str, bom: bytes, encoding: str | None) -> bytes:
    """A translated text file's bytes: in ``encoding`` where it was read in one (``text`` holding its byte order
    mark), else UTF-8 after ``bom``; its surrogates written as whole characters (``whole_characters``)."""
    text = whole_characters(text)
    return page_bytes(text, encoding) if encoding else bom + text.encode("utf-8")


def whole_characters(text: str) -> str:
    """``text``, two surrogates that make a pair joined into the character they stand for, and a surrogate alone
    left out, a space between two words, as where XML is written (translator_parts.xml_text): no encoding writes
    one, and a translator of one's own that cut an emoji in two ("\\ud83d") made a .txt or .srt a
    UnicodeEncodeError (or UTF-16's ``&#55357;``)."""
    def kept(found: re.Match[str]) -> str:
        start, end = found.span()
        between = 0 < start and end < len(text) and not text[start - 1].isspace() and not text[end].isspace()
        return " " if between else ""

    text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return SURROGATES.sub(kept, text)
