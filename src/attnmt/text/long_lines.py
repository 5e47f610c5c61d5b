"""A corpus's lines as bytes, a line far longer than any sentence skipped without being held whole.

A whole document pasted on one line, or a file with no line breaks, was read, decoded and tokenised
before the length filter dropped it: one 18 MB line among 2,000 pairs took a run from 383 MB to 744 MB
and from 4.3 s to 7.1 s.  Here such a line is read ``LONGEST_LINE`` bytes at a time and dropped; it
reaches the reader as ``SKIPPED``, counted apart from empty lines.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
from collections.abc import Iterator

# SentencePiece's trainer leaves out every sentence over 4,192 bytes; a line 250 times that holds a
# document, not a sentence, at any max_len a Transformer is trained with.
LONGEST_LINE = 1 << 20  # bytes
OVER_LONGEST = f"{LONGEST_LINE >> 20} MiB"  # as the reports write it
LINE_BREAK = re.compile(rb"\r\n|\r|\n")  # where a file of CR-ended lines is cut (cr_ended)


# How corpus files are opened (attnmt.text.data.open_bytes): each can peek ahead.
BinaryReader = io.BufferedReader | gzip.GzipFile | lzma.LZMAFile | bz2.BZ2File


class SkippedLine(str):
    """An over-long line's stand-in: empty text, so a reader that does not ask drops it as an empty
    line, and a line that says why it is empty to one that does (``is SKIPPED``)."""


SKIPPED = SkippedLine()


def corpus_raw_lines(file: BinaryReader, limit: int = LONGEST_LINE) -> Iterator[bytes | None]:
    """The lines of ``file`` as reading it in binary gives them (each with its ending), None for one of
    more than ``limit`` bytes.  A file whose lines end in CR alone (classic Mac OS, Excel's "Text
    (Macintosh)") is one line to LF: its lines are split at CR, where its first line (up to ``limit``)
    holds a CR and no second line follows, or where that first line is over-long and holds one."""
    first = file.readline(limit + 1)
    over = len(first) > limit and not first.endswith(b"\n")
    if b"\r" in first and (over or not file.peek(1)[:1]):
        yield from cr_ended(file, first, limit)
        return
    if first:
        yield None if over else first
    if over:
        skip_rest(file, limit)
    yield from lf_ended(file, limit)


def lf_ended(file: BinaryReader, limit: int) -> Iterator[bytes | None]:
    """The rest of ``file``'s lines, each ending at LF; None for one of more than ``limit`` bytes."""
    while line := file.readline(limit + 1):
        if len(line) > limit and not line.endswith(b"\n"):
            skip_rest(file, limit)
            yield None
        else:
            yield line


def skip_rest(file: BinaryReader, limit: int) -> None:
    """Reads past the end of the line ``file`` is in, ``limit`` bytes at a time, keeping none."""
    while (piece := file.readline(limit)) and not piece.endswith(b"\n"):
        pass


def cr_ended(file: BinaryReader, head: bytes, limit: int) -> Iterator[bytes | None]:
    """The lines of a file whose lines end in CR alone, ``head`` its first bytes (already read), the
    rest read ``limit`` bytes at a time; None for a line of more than ``limit`` bytes.  An LF or CRLF
    ends a line too: a first line over ``limit`` with a CR inside, in a file of LF-ended lines, would
    otherwise have made one line of all the lines after it."""
    buffer, skipping = head, False
    while True:
        cut = len(buffer) - buffer.endswith(b"\r")  # a last CR may be a CRLF's, its LF in the next piece
        *lines, rest = LINE_BREAK.split(buffer[:cut])
        for line in lines:
            yield None if skipping or len(line) > limit else line
            skipping = False
        if len(rest) > limit:  # a line too long to keep: its rest is dropped as it is read
            rest, skipping = b"", True
        buffer = rest + buffer[cut:]
        piece = file.read(limit)
        if not piece:
            break
        buffer += piece
    buffer = buffer.removesuffix(b"\r")
    if buffer or skipping:
        yield None if skipping or len(buffer) > limit else buffer
