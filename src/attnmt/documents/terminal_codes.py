"""A terminal's escape codes in a line of plain text piped from a tool (``grep --color``, a log, a
test runner): given to the model, "\\x1b[31mA red car\\x1b[0m" came back as words ("Acht Inline-...").
A colour or style (ANSI's SGR, ``\\x1b[31m``) is read as an inline element that runs to the reset
(``\\x1b[0m``) or the line's end, so that it wraps the translation's words of the ones it wrapped, as
a document's ``<b>`` does; every other code (a hyperlink's OSC, a cursor move) is kept whole where its
neighbouring word goes, as a URL is.  So is a control character in a text line (LINE_CODES: a NUL, a bell),
which the model reads as no piece: "A dog\\x00 runs." lost its NUL.  The codes' patterns are
attnmt.text.terminal_codes', which attnmt.decoding reads too."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from attnmt.documents.bidi import whole
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.nesting import Literal
from attnmt.documents.spans import Nested
from attnmt.text.terminal_codes import CODE, LINE_CODES, RESET, STYLE


@dataclass
class Style:
    """An SGR code and what ends its run: the reset that ends it, and the codes of the runs around it
    opened again after it, which that reset ends too ("" for a run the line's end closes)."""

    opening: str
    closing: str = ""

    def around(self, inner: str, references: Mapping[int, str]) -> str:
        """``inner`` between its codes, as written (``references``: a Quote's, read from its text, are written so)."""
        return f"{self.opening}{inner}{self.closing}"


def add_line(builder: FlatBuilder, line: str, codes: re.Pattern[str] = CODE,
             add_text: Callable[[FlatBuilder, str], None] = FlatBuilder.add_text) -> None:
    """``line``'s text into ``builder``: each style opened as an element (a ``Style`` node), closed with
    every other open one at a reset or at the line's end; the other ``codes`` are atoms, kept whole.  The text
    between them goes in by ``add_text`` (a text line's: list_marks.add_fields, each field's list mark kept)."""
    opened: list[Style] = []
    position = 0
    for match in codes.finditer(line):
        add_text(builder, line[position:match.start()])
        position = match.end()
        code = match.group()
        if RESET.fullmatch(code) and opened:
            for k, style in enumerate(opened):
                style.closing = code + "".join(outer.opening for outer in opened[:k])
            close_all(builder, opened)
        elif STYLE.fullmatch(code) and not RESET.fullmatch(code):
            opened.append(Style(code))
            builder.open(opened[-1])
        else:
            builder.add_atom(literal=code)
    add_text(builder, line[position:])
    close_all(builder, opened)


def without_codes(text: str) -> str:
    """``text`` without its codes (LINE_CODES), as the model would read it: "\\x1b[32m42\\x1b[0m" has no letter."""
    return LINE_CODES.sub("", text)


def whole_with_codes(text: str) -> tuple[int, int]:
    """[start, end) of ``text`` read as one sentence (attnmt.documents.bidi.whole), widened over each code
    at its edges: ESC is a control, left out at an edge, and "\\x1b[1mWarning:" was read "[1mWarning:"."""
    start, end = whole(text)
    for match in CODE.finditer(text):
        if match.start() < start < match.end():
            start = match.start()
        if match.start() < end < match.end():
            end = match.end()
    return start, end


def close_all(builder: FlatBuilder, opened: list[Style]) -> None:
    """Closes the runs of ``opened``, the innermost first."""
    while opened:
        opened.pop()
        builder.close()


def written(flat: FlatText, content: Sequence[str | Nested], references: Mapping[int, str] | None = None) -> str:
    """A translated line's placed content as text: each style's codes around what it holds (others' markup,
    none in a plain line, dropped), literal atoms as they were, each character of ``references`` in the rest written
    as its reference (a line of HTML's text wrote ``&amp;``: attnmt.documents.text_tags).  Emphasis or quotes left
    around nothing (the model merged or dropped their words) are dropped too (shows_alone)."""
    pieces = []
    for piece in content:
        if isinstance(piece, str):
            kept = isinstance(piece, Literal) and not flat.marks[piece.mark].references_read  # a split name's part
            pieces.append(piece if references is None or kept else piece.translate(references))
            continue
        node = flat.marks[piece.mark].node
        inner = written(flat, piece.content, references)
        around = isinstance(node, Style) and (inner or not shows_alone(node))
        pieces.append(node.around(inner, references or {}) if around else inner)
    return "".join(pieces)


def shows_alone(style: Style) -> bool:
    """Whether ``style``'s marks around nothing would show as stray text: Markdown emphasis or quotes
    (``*swimming* pool`` came back ``im **Schwimmbecken``), not a terminal's code, which shows nothing, nor a link's
    brackets and target, nor an HTML link's tags in a text line (attnmt.documents.text_tags), which keep it."""
    return not STYLE.fullmatch(style.opening) and not style.closing.startswith("](") and style.closing.lower() != "</a>"
