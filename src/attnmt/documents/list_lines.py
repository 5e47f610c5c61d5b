"""A list typed in the lines of one cell or paragraph, each item after a line break and a list's mark (``- ``, ``• ``,
``1. ``: attnmt.text.list_marks.LIST_MARK): a spreadsheet cell's "Bring:\\n- sunscreen\\n- water" (Alt+Enter), a Word
paragraph's ``w:br``, an OpenDocument ``text:line-break``, a slide's ``a:br``, a page's ``<br>``.  Such a line is an
item of its own, whatever case it goes on in: its line break ends the sentence before it, and its mark is kept whole
where it stood, as a text line's is (attnmt.documents.list_marks.after_list_mark).  Read as a wrapped sentence
(wrapped_lines.ended_lines: "sunscreen" goes on in lower case), the cell went to the model as "Bring: - sunscreen -
water", its lines lost; read as an item with its mark, the dash went to the model as a word, which the demo model
dropped ("- water" came back "Ein Wasser") or moved ("SUNSCREEN -")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from attnmt.text.list_marks import LIST_MARK

if TYPE_CHECKING:  # the builder reads each piece of its text through here
    from attnmt.documents.flat import FlatBuilder


def after_line_mark(builder: FlatBuilder, text: str) -> str:
    """What of ``text`` follows the list's mark it opens with, where it is the first text of a line after a line
    break (FlatBuilder.line_start, only spaces since): the spaces before the mark added to ``builder`` as text, the
    mark as an atom, and the line break one that ends its sentence (FlatBuilder.listed); all of ``text`` where it
    opens no such line, or with no mark."""
    at = builder.line_start
    if at is None or builder.text[at:].strip():
        return text
    words = text.lstrip()
    mark = LIST_MARK.match(words)
    if mark is None:
        return text
    builder.listed.add(at)
    builder.add_text(text[:len(text) - len(words)] + mark["indent"])
    builder.add_atom(literal=mark["mark"])
    return words[mark.end("mark"):]
