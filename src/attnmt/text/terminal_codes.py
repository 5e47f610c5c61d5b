"""A terminal's escape codes in a line of text (``grep --color``, a log, a test runner): the one pattern
that finds them, which attnmt.documents.terminal_codes carries around the words they wrap and
attnmt.decoding.translate reads a sentence without where they stand at its edges (``at_edges``).  Given
to the model, "\\x1b[31mA red car\\x1b[0m" came back as words ("Acht Inline-...")."""

from __future__ import annotations

import re
from typing import NamedTuple

# ECMA-48's control sequences (CSI: parameters, intermediates, a final byte), operating system commands (OSC,
# ended by BEL or ST: a hyperlink, ``\x1b]8;;https://example.org\x1b\\``) and the other escapes, an ESC, its
# intermediates and a final byte (``tput sgr0`` writes ``\x1b(B\x1b[m``: the ASCII character set, then the reset);
# not a space as an intermediate, which made an ESC before a word ("\x1b today") a code of its first letter.
CODE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[!-/]*[0-~]")
# And, in a line of plain text or a JSONL text (not in an attribute of markup, which keeps its own), a control
# character of its own: a NUL, a bell, a backspace, a lone ESC, DEL, a C1 control; none that is white space (a
# tab, a line break, a separator), which the text's own reading keeps.
LINE_CODES = re.compile(rf"{CODE.pattern}|[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
STYLE = re.compile(r"\x1b\[[0-9;:]*m")  # SGR: a colour or a style, or the reset of all of them
RESET = re.compile(r"\x1b\[0*m")
# The codes a text starts with and those it ends with, each run with the spaces between its codes.
HEAD = re.compile(rf"(?:\s*(?:{CODE.pattern}))*")
TAIL = re.compile(rf"(?:(?:{CODE.pattern})\s*)*\Z")


class Edges(NamedTuple):
    """A text as its codes at the edges enclose it: ``head`` + ``body`` + ``tail`` is the text."""

    head: str
    body: str
    tail: str

    def around(self, translation: str) -> str:
        """``translation`` (of ``body``) between the codes that enclosed the body; "" stays "" (none written)."""
        return self.head + translation + self.tail if translation else ""


def at_edges(text: str) -> Edges:
    """``text``'s codes at its start and its end, apart from what they enclose: "\\x1b[1mA dog runs.\\x1b[0m" is
    ("\\x1b[1m", "A dog runs.", "\\x1b[0m"), whose translation a style wraps whole, as attnmt.documents'
    alignment of a whole line wraps it; a text of codes alone is all ``head``."""
    head = HEAD.match(text)
    start = head.end() if head else 0  # HEAD matches "" at least, and TAIL the text's end
    tail = TAIL.search(text, start)
    end = tail.start() if tail else len(text)
    return Edges(text[:start], text[start:end], text[end:])
