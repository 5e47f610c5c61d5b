"""A list's mark at the start of a line of plain text or a JSONL text (attnmt.text.list_marks.LIST_MARK), kept
whole, an atom at the line's start (attnmt.documents.pipeline.flat_line, attnmt.documents.terminal_codes.flat_whole),
and what follows it is the line's text."""

from __future__ import annotations

from attnmt.documents.flat import FlatBuilder
from attnmt.text.list_marks import LIST_MARK


def after_list_mark(builder: FlatBuilder, line: str) -> str:
    """What of ``line`` follows its list mark (``LIST_MARK``), the mark and the spaces before it added to
    ``builder`` (an atom, kept where it stood); all of ``line`` where it starts with none."""
    mark = LIST_MARK.match(line)
    if mark is None:
        return line
    builder.add_text(mark["indent"])
    builder.add_atom(literal=mark["mark"])
    return line[mark.end("mark"):]
