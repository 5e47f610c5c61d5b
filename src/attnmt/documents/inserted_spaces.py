"""Where the space after an atom stays, in a flat text, when an element that keeps its edge spaces
opens between them: a Word paragraph's ``Book at https://example.com/booking<w:ins> before
Friday.</w:ins>``, a tracked insertion that starts with its space.

The text after an atom drops its first space, which the atom writes back after itself
(attnmt.documents.flat.FlatBuilder: the model reads "Book at before Friday.", one space where the
URL was).  Written back after the atom, that space was no longer the insertion's: it stood before it,
so rejecting the insertion left "https://example.com/booking " and accepting it kept the space
outside the change.  A word before the insertion never lost it ("Book at the office<w:ins> before
Friday.</w:ins>" comes back so).  So where an element that keeps its edge spaces (Mark.keeps_edge_spaces:
an OOXML container, whose spaces are its content) opened between the atom and the space, the space
before the atom is the one dropped, which the atom writes back before itself, and the element keeps
its own.  Where the atom begins the text (``https://example.com/booking<w:ins> before
Friday.</w:ins>`` as a paragraph), there is no space before it: the space stays the element's text,
and the atom writes none beside itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from attnmt.documents.flat import FlatBuilder, Mark


def space_kept_inside(builder: FlatBuilder, atom: Mark) -> bool:
    """Whether ``atom``'s following space, the first character of the text now added, stays in an
    element opened since the atom: then the space before the atom is taken out of ``builder``'s text
    instead (module docstring), and every position after it moved back, or, where the atom begins the
    text, the atom writes no space beside itself.  False, nothing changed, where no such element opened,
    text stands between them, or the atom has no plain space before it and text before it."""
    end = len(builder.text)
    if atom.start != end or (end and (not builder.text.endswith(" ") or not atom.space_before)):
        return False
    since = []
    for mark in reversed(builder.marks):
        if mark is atom:
            break
        since.append(mark)
    if not any(mark.keeps_edge_spaces and not mark.atom and mark.start == end for mark in since):
        return False
    if not end:  # the atom begins the text: no space before it to take out, and it writes none either side
        atom.space_before = atom.space_after = False
        return True
    take_out_last_space(builder)
    return True


def take_out_last_space(builder: FlatBuilder) -> None:
    """The space that ends ``builder``'s text taken out, every mark, break and line break after it moved back."""
    end = len(builder.text)
    builder.text = builder.text[:-1]
    for mark in builder.marks:
        mark.start, mark.end = min(mark.start, end - 1), min(mark.end, end - 1)
    builder.breaks = [min(at, end - 1) for at in builder.breaks]
    builder.line_breaks = [min(at, end - 1) for at in builder.line_breaks]
