"""Text that is not UTF-8 but reads as bytes all the same: UTF-16 and UTF-32, named before a
single line is translated.

Latin or Cyrillic UTF-16 without a byte order mark is valid UTF-8 byte for byte, so decoding alone
never refuses it and it was translated as garbage; ``check_not_utf16`` reads the start of a file
(HEAD_BYTES) and names the encoding, with the iconv line that converts it.  attnmt.text.data reads
corpora and the CLI's input through it, attnmt.documents.files a document's text.

A text a Python caller passes is checked here too (``given_text``: a str, or UTF-8 bytes, of valid
Unicode), below the tokenizers, whose ``encode`` reads each text through it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from attnmt.errors import ConfigError, DataError

HEAD_BYTES = 4096  # how much of a text check_not_utf16 reads
# Byte order marks of the encodings people take for text, longest first: no UTF-8 starts so.
UNICODE_BOMS = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32", b"\xff\xfe": "UTF-16",
                b"\xfe\xff": "UTF-16"}
ASCII_LETTER = re.compile(rb"[A-Za-z]")


def check_not_utf16(head: bytes, source: str) -> None:
    """A DataError naming ``source`` where its text, of which ``head`` is the start, is UTF-16 (or
    UTF-32) rather than UTF-8: it starts with that encoding's byte order mark (an error at byte
    0xff otherwise), or it is UTF-16 without one (``utf16_without_bom``: Latin or Cyrillic UTF-16
    is valid UTF-8 byte for byte, and was translated as garbage).  A NUL here and there in UTF-8
    text (a line of one) is no UTF-16."""
    named = next((name for bom, name in UNICODE_BOMS.items() if head.startswith(bom)), None)
    why = "it starts with a byte order mark of that encoding"
    if named is None:
        named, why = latin_utf16(head), "every other byte is 0"
    if named is None:
        named, why = other_script_utf16(head), "it reads as text in that encoding, with its line breaks"
    if named is not None:
        raise DataError(f"{source}: the text is {named}, not UTF-8 ({why}); convert it to UTF-8 first, "
                        f"e.g. with iconv -f {named} -t UTF-8")


def utf16_without_bom(head: bytes) -> str | None:
    """"UTF-16LE" or "UTF-16BE" where ``head`` is text in that encoding without a byte order mark
    (``latin_utf16``, ``other_script_utf16``); None otherwise."""
    return latin_utf16(head) or other_script_utf16(head)


def latin_utf16(head: bytes) -> str | None:
    """"UTF-16LE" or "UTF-16BE" where ``head`` reads as Latin text in that encoding: at least half
    of one byte of each pair is 0 (the high byte of a character under U+0100), at most one in 16
    of the other, which holds ASCII letters, and its line feeds are line feeds there
    (``reads_its_line_breaks``: ``a\0b\n`` is no UTF-16LE "a" and U+0A62); None otherwise."""
    pairs = len(head) // 2
    even, odd = head[0:2 * pairs:2], head[1:2 * pairs:2]
    for name, zeros, chars in (("UTF-16LE", odd, even), ("UTF-16BE", even, odd)):
        if (pairs >= 2 and 2 * zeros.count(0) >= pairs and 16 * chars.count(0) <= pairs and ASCII_LETTER.search(chars)
                and reads_its_line_breaks(head, name)):
            return name
    return None


def reads_its_line_breaks(head: bytes, name: str) -> bool:
    """Whether ``head`` read as the UTF-16 ``name`` has a line break where its bytes hold a "\n" (any
    where they hold none): a text in that encoding does, where UTF-8 bytes read so seldom do."""
    text = utf16_text(head[:len(head) // 2 * 2], name)
    return b"\n" not in head or (text is not None and "\n" in text)


def other_script_utf16(head: bytes) -> str | None:
    """"UTF-16LE" or "UTF-16BE" where ``head`` is text of another script in that encoding: read so,
    every character is printable (or a tab or line break), it has two line breaks or spaces, and a
    line break where the bytes hold a "\n" (UTF-8 bytes read so seldom have any);
    and ``head`` is no UTF-8 text: invalid as UTF-8 (a character cut at its end aside), or with a
    control byte in every fourth pair (Cyrillic's high byte 0x04, Greek's 0x03, Devanagari's
    0x09).  A UTF-8 text with a stray NUL, a form feed or an escape stays UTF-8."""
    pairs = len(head) // 2
    for name in ("UTF-16LE", "UTF-16BE"):
        text = utf16_text(head[:2 * pairs], name)
        if text is None or not all(char.isprintable() or char in "\t\n\r" for char in text):
            continue
        if text.count("\n") + text.count(" ") < 2 or not reads_its_line_breaks(head, name):
            continue
        if not valid_utf8_start(head) or 4 * sum(byte < 0x20 and byte not in (0, 10, 13) for byte in head) >= pairs:
            return name
    return None


def utf16_text(head: bytes, name: str) -> str | None:
    """``head`` (an even number of bytes) read as the UTF-16 ``name``, less a surrogate pair cut at
    its end; None where it is not UTF-16."""
    for cut in (0, 2):
        try:
            return head[:len(head) - cut].decode(name.lower().replace("16", "-16-"))
        except UnicodeDecodeError:
            continue
    return None


def valid_utf8_start(head: bytes) -> bool:
    """Whether ``head``, the start of a file, is valid UTF-8 but for a character its end cuts."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.reason == "unexpected end of data" and error.start >= len(head) - 3
    return True


def check_encodable(named: Iterable[tuple[str, str]]) -> None:
    """A DataError naming the first of the (name, text) pairs whose text is not valid Unicode: one
    with an unpaired surrogate (JSON's "\\ud800" on its own reads as one), which UTF-8, and so no
    tokenizer, can take.  The one check of every text a request or a JSONL line brings."""
    for where, text in named:
        if not encodable(text):
            raise DataError(f"{where} is not valid Unicode (it has an unpaired surrogate)")


def encodable(text: str) -> bool:
    """Whether ``text`` is valid Unicode, which UTF-8 can hold: no unpaired surrogate (``check_encodable``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def given_text(text: object, name: str = "text") -> str:
    """The one text a Python caller passed, a ``str`` (UTF-8 ``bytes`` decoded, as ``given_texts``
    decodes each) of valid Unicode; one clear error otherwise (a list or None was an
    AttributeError or TypeError deep in a parser or the search)."""
    text = given_str(text, name)
    check_encodable([(name, text)])
    return text


def given_str(text: object, where: str) -> str:
    """``text`` as a str, decoded where it is UTF-8 bytes; a DataError naming ``where`` and the first
    byte that is no UTF-8, a ConfigError naming ``where`` and the type for anything else."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError(f"{where}: not UTF-8 (byte {error.start})") from None
    if not isinstance(text, str):
        raise ConfigError(f"{where}: expected a str, got {type(text).__name__}")
    return text
