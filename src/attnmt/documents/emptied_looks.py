"""An HTML element that only changes how its words look, left holding nothing by the translation, is left out.

The alignment can put none of a mark's words inside it: the model dropped them ("A <u>young</u> man" -> "Ein
Mann"), or wrote them where the alignment put them outside it.  One over words gets them back
(attnmt.documents.emptied_marks.is_worded_code: ``Ein <u>young</u> Mann``); one over a number alone does only
where the translation holds that number nowhere (attnmt.documents.kept_numbers), as the model may have written it
in words ("He has <b>2</b> dogs." -> "Er hat zwei Hunde.").  Left so around nothing, ``Er hat <b></b>zwei``, no
reader sees it, and an editor or a CAT tool meets a tag with nothing in it: such an element of HTML's (or XHTML's) of
looks alone (html_layout.LOOKS: ``<b>``, ``<i>``, ``<u>``, ``<span>``, ...) is left out, as an emptied emphasis is in
Markdown (attnmt.documents.markdown_text.written).  Not a link, which gets its source text back
(attnmt.documents.emptied_marks), a button, a value (``<data>``, ``<time>``), XML's elements, which are its data, nor
one that names itself (``id``, ``name``): a fragment's target, kept for the links to it.
"""

from __future__ import annotations

from lxml import etree

from attnmt.documents.flat import FlatText
from attnmt.documents.html_layout import LOOKS
from attnmt.documents.links import local_name
from attnmt.documents.nesting import is_text
from attnmt.documents.spans import Nested

XHTML = "http://www.w3.org/1999/xhtml"


def without_emptied_looks(flat: FlatText, content: list[str | Nested]) -> list[str | Nested]:
    """``content`` (``flat``'s translation, nested) without the HTML elements of looks alone (is_emptied_look) that
    hold nothing, the innermost first (``<b><i>little</i></b>`` goes whole), one space kept where the text either
    side of one met with two."""
    kept: list[str | Nested] = []
    gap = False  # whether an element was just left out: the text either side of it meets there
    for piece in content:
        if isinstance(piece, Nested):
            piece.content[:] = without_emptied_looks(flat, piece.content)
            if not piece.content and is_emptied_look(flat, piece.mark):
                gap = True
                continue
        before = kept[-1] if kept else None
        if gap and isinstance(piece, str) and isinstance(before, str) and is_text(piece) and is_text(before):
            kept.pop()  # text either side, not an atom's Literal
            piece = before + (piece[1:] if before[-1:] == " " and piece[:1] == " " else piece)
        gap = False
        kept.append(piece)
    return kept


def is_emptied_look(flat: FlatText, k: int) -> bool:
    """Whether mark ``k`` of ``flat`` is an element of looks alone over words (is_look) that names nothing a link
    could point to (no ``id`` or ``name``)."""
    return is_look(flat, k) and not {"id", "name"} & {local_name(key) for key in flat.marks[k].node.attrib}


def is_look(flat: FlatText, k: int) -> bool:
    """Whether mark ``k`` of ``flat`` is an element of HTML's (or XHTML's) that only changes how its words look
    (LOOKS), and held words in the source."""
    node = flat.marks[k].node
    if flat.marks[k].atom or not isinstance(node, etree._Element) or not isinstance(node.tag, str):
        return False
    namespace, _, name = node.tag.rpartition("}")
    return (namespace.lstrip("{") in ("", XHTML) and name.lower() in LOOKS
            and bool(flat.text[flat.marks[k].start:flat.marks[k].end].strip()))
