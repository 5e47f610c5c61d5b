"""Lines in, lines out for ``attnmt translate``: input read whole or streamed, output as text, TSV or JSONL.

A file (or a redirected regular file on stdin) is read whole and translated in
length-sorted batches.  A terminal or a pipe is streamed: whatever complete lines
have arrived are translated together and written out, flushed, before the next
read waits, so ``attnmt translate`` can sit at the end of a pipe that stays open.

Output formats (one output unit per input line, in input order, always):

- ``text``: the best translation, one line per input line;
- ``tsv``: one row per hypothesis: ``line<TAB>rank<TAB>score<TAB>log_prob<TAB>translation``,
  line and rank counting from 1, score = log_prob / length penalty (what beam search ranks by);
- ``jsonl``: one JSON object per input line:
  ``{"line": 1, "hypotheses": [{"text": …, "score": …, "log_prob": …}, …]}``.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO, TextIO

from attnmt.data import decode_lines
from attnmt.translate import Translation

FORMATS = ("text", "tsv", "jsonl")
CHUNK_BYTES = 1 << 16


def is_stream(stream: BinaryIO) -> bool:
    """True for a terminal or a pipe (translate as lines arrive), False for a regular file."""
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # an in-memory stream: it is all there already
        return False


def line_batches(stream: BinaryIO, source: str = "<stdin>") -> Iterator[list[str]]:
    """The input's lines, all at once from a file, or in the groups they arrive in from a stream."""
    if not is_stream(stream):
        yield decode_lines(stream.read(), source)
        return
    pending, fd = b"", stream.fileno()
    while True:
        chunk = os.read(fd, CHUNK_BYTES)  # waits for input, then returns what has arrived
        if not chunk:
            break
        pending += chunk
        complete, newline, pending = pending.rpartition(b"\n")
        if newline:
            yield decode_lines(complete + newline, source)
    if pending:
        yield decode_lines(pending, source)


def write_texts(out: TextIO, texts: list[str]) -> None:
    """``text`` format: one translation per line, then a flush."""
    out.write("".join(text + "\n" for text in texts))
    out.flush()


def write_hypotheses(out: TextIO, first_line: int, results: list[list[Translation]], output_format: str) -> None:
    """``tsv`` or ``jsonl``: the hypotheses of input lines first_line, first_line + 1, … (counting from 1)."""
    for line, hypotheses in enumerate(results, start=first_line):
        if output_format == "tsv":
            out.write("".join(f"{line}\t{rank}\t{h.score:.4f}\t{h.log_prob:.4f}\t{h.text}\n"
                              for rank, h in enumerate(hypotheses, start=1)))
        else:
            record = {"line": line, "hypotheses": [
                {"text": h.text, "score": round(h.score, 4), "log_prob": round(h.log_prob, 4)} for h in hypotheses]}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    out.flush()
