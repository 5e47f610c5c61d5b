"""A no-break space (or a narrow no-break or a thin one) beside an atom of a page's flat text (a URL, an e-mail
address, inline code): it goes out of the text with the atom, and the atom writes it back as it was written
(Mark.space_before_as, Mark.space_after_as; attnmt.documents.atom_spacing.atom_spaces).

Left in the text, it stood apart from its atom: the atoms are placed by the words around them, so those after it
came back before it (``https://a.example/x&nbsp;https://b.example/y`` as ``&nbsp; https://a.example/x
https://b.example/y``), and the model, which reads it as a plain space and writes none, lost it (``Go to &nbsp;
https://a.example/x now`` came back without it).  The model reads one plain space there instead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from attnmt.documents.flat import FlatBuilder, Mark

NO_BREAK = "\u00a0\u202f\u2009"  # a no-break, a narrow no-break and a thin space


def holds_no_break(spacing: str) -> bool:
    return any(character in NO_BREAK for character in spacing)


def taken_after(builder: FlatBuilder, atoms: Sequence[Mark], text: str) -> str:
    """``text``, HTML's collapsed text added right after ``atoms`` (the last is the one it follows), without the
    spacing it starts with where that holds a no-break space: the last atom writes it back (an office file's
    text, which does not collapse, has FlatBuilder._add_plain take one such space out already).  A plain space is left
    where the text before the atom ends in none, so that the words either side stay two."""
    spacing = text[:len(text) - len(text.lstrip())]
    if not builder.collapse or not atoms or not holds_no_break(spacing):
        return text
    atoms[-1].space_after_as = spacing
    rest = text[len(spacing):]
    return " " + rest if rest and builder.text and not builder.text[-1].isspace() else rest


def taken_before(builder: FlatBuilder) -> str:
    """The spacing that the text of ``builder`` ends in, taken out for an atom added now where it holds a
    no-break space (in a Word file's text too) and follows words (one plain space stays), else "".  Not where an
    element starts or ends, a sentence breaks or an atom stands in it or at its end, which would no longer be
    beside it; but an element opened at its end and still open (``&nbsp;<b>https://…``) opens after the space
    left."""
    text = builder.text
    spacing = text[len(text.rstrip()):]
    start = len(text) - len(spacing)
    if not holds_no_break(spacing) or not start:
        return ""
    opening = [builder.marks[k] for k in builder.open_marks if builder.marks[k].start == len(text)]
    edges = [*builder.breaks, *builder.line_breaks,
             *(p for mark in builder.marks if not any(mark is o for o in opening) for p in (mark.start, mark.end))]
    if any(p > start for p in edges):
        return ""
    for mark in opening:
        mark.start = mark.end = start + 1
    builder.text = text[:start] + " "
    return spacing
