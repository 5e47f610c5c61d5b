"""A list's mark at the start of a line of plain text or a JSONL text: a bullet or dash ("- ", "* ", "• ",
"-- "), a number or a letter that counts ("1. ", "12) ", "a) "), a heading's hashes ("## ").  Read as a word,
the model dropped it: "- A dog runs in the park." came back "Ein Hund rennt im Park.", and "1) A girl sings a
song." without its "1)".  It is kept whole, an atom at the line's start (attnmt.documents.pipeline.flat_line,
attnmt.documents.terminal_codes.flat_whole), and what follows it is the line's text."""

from __future__ import annotations

import re

from attnmt.documents.flat import FlatBuilder

# The mark, then a space and more: not a number glued to its word ("-5 °C"), nor an initial ("A. Smith").
LIST_MARK = re.compile(r"(?P<indent>[ \t]*)(?P<mark>[-*•‣◦▪–—]{1,2}|\d{1,3}[.)]|[a-zA-Z]\)|#{1,6})(?=[ \t]+\S)")


def after_list_mark(builder: FlatBuilder, line: str) -> str:
    """What of ``line`` follows its list mark (``LIST_MARK``), the mark and the spaces before it added to
    ``builder`` (an atom, kept where it stood); all of ``line`` where it starts with none."""
    mark = LIST_MARK.match(line)
    if mark is None:
        return line
    builder.add_text(mark["indent"])
    builder.add_atom(literal=mark["mark"])
    return line[mark.end("mark"):]
