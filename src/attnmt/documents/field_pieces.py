"""The pieces of a mark split around a complex field's runs (attnmt.documents.field_marks) joined again once the
paragraph is written, where they stand side by side: LibreOffice shows a field whose begin, code and separator lie in
links of their own as its code ("MAP. THE  PAGE 4 more", where Word shows "MAP. THE 4 more"), and one whose runs lie in
one link, its end after the link, as Word does."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.wordml import RUN_MARKS, w


def join_field_pieces(paragraph: etree._Element) -> None:
    """Each two marks side by side among ``paragraph``'s children (wordml.RUN_MARKS) of one kind and attributes, one
    of which holds a field's character, made one, in place.  A tracked change's pieces are not: each has an id."""
    position = 0
    while position + 1 < len(paragraph):
        before, after = paragraph[position], paragraph[position + 1]
        if before.tag in RUN_MARKS and after.tag == before.tag and dict(after.attrib) == dict(before.attrib) and any(
                True for piece in (before, after) for _ in piece.iter(w("fldChar"))):
            before.extend(list(after))
            paragraph.remove(after)
        else:
            position += 1
