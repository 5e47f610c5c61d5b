"""What an atom's element shows in its line, as a reader sees it there (shown_text): a field's result, inline
code, a kept ``<i>.</i>``; a line break or a tab as a space; Word's symbol (w:sym) as its character; nothing
of a note's or a comment's own paragraphs, a field's code, deleted words, a drawing, nor of a hidden Word run
or a part of one (a tab, a break, a symbol in it).  attnmt.documents.flat reads its atoms' text through here;
attnmt.documents.ooxml and the HTML readers ask it of the elements beside a mark."""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Any, Protocol, runtime_checkable

from lxml import etree

from attnmt.documents.wordml import NO_HIDING, Hiding, W, is_hidden_run

# What an atom's element holds that is not in its line (shown_text), by the names attnmt.documents.opendocument
# and attnmt.documents.ooxml read: a note (its citation and its body, a paragraph of its own, translated apart),
# a comment (its author, date and paragraphs), a field's code, tracked deletions, a drawing or a text box (its
# position, its own paragraphs; every element of OpenDocument's drawing namespace, ODF_DRAWING), an embedded object;
# an EPUB page's <epub:case>, whose <epub:default> shows the same thing (elements.EPUB_CASE: "v", not "vv").
ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
ODF_DRAWING = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
NOT_IN_THE_LINE = frozenset({
    f"{{{ODF_TEXT}}}note", "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}annotation",
    *(f"{{{W}}}{name}" for name in ("instrText", "delInstrText", "delText", "del", "moveFrom", "drawing",
                                    "pict", "object")),
    "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent",
    "{http://www.idpf.org/2007/ops}case", "epub:case"})
# A line break in a block (HTML's and an XHTML page's <br>, a Markdown hard break read as one, OpenDocument's,
# Word's, a slide's): it ends its sentence where a new line starts one (FlatBuilder.build, ended_lines).
LINE_BREAKS = frozenset({
    "br", "{http://www.w3.org/1999/xhtml}br", f"{{{ODF_TEXT}}}line-break", f"{{{W}}}br", f"{{{W}}}cr",
    "{http://schemas.openxmlformats.org/drawingml/2006/main}br"})
# A line break and a tab, which a reader sees as a space between words (HTML's, OpenDocument's, Word's, a slide's).
SHOWN_AS_SPACE = LINE_BREAKS | {f"{{{ODF_TEXT}}}tab", f"{{{ODF_TEXT}}}s", f"{{{W}}}tab", f"{{{W}}}ptab"}
# Word's symbol (Insert > Symbol): an empty element whose w:char (hex) names the glyph Word draws in its w:font.
SYMBOL = f"{{{W}}}sym"
# What a symbol whose w:char names no character a reader sees shows instead: an object stands there.
UNNAMED_SYMBOL = "\ufffc"


@runtime_checkable
class ShowsItself(Protocol):
    """An atom's node that is no element but says what a reader sees of it in its line
    (``shown``): a subtitle's tag (attnmt.documents.cue_text.CueTag), a line break as a space, a
    passage kept in its own language as its text, a timestamp as nothing."""

    shown: str


def is_comment(node: etree._Element) -> bool:
    """Whether ``node`` is a comment or a processing instruction: lxml's, whose tag is no name."""
    return not isinstance(node.tag, str)


def has_text_of_its_own(node: Any) -> bool:
    """Whether an atom's element shows text (inline code, a field's result, a subtitle's kept
    passage), not a comment's, a mark's or a line break's."""
    return bool(shown_text(node).strip())


def shown_text(node: Any, hiding: Hiding = NO_HIDING) -> str:
    """The text an atom's element shows in its line (inline code, a field's result, a kept
    ``<i>.</i>``), as a reader sees it there: a line break or a tab as a space (SHOWN_AS_SPACE),
    nothing of what is not in the line (NOT_IN_THE_LINE: a note's or a comment's own paragraphs,
    a field's code, deleted words) nor of a hidden Word run or a part of one (a tab, a break, a symbol
    in it: wordml.is_hidden_run, by the run's own properties or by its styles, as ``hiding`` says); a node
    that is no element but ShowsItself (a subtitle's tag) its ``shown``; "" for a comment, or where there
    is no element (a protected span: its ``literal``)."""
    pieces: list[str] = []
    pending: list[Any] = [node]  # nodes still to read, and the texts between them: a stack, not a recursion,
    while pending:  # as marks nest as deep as pages.MAX_DEPTH, past Python's frames for a call a level
        item = pending.pop()
        inside = item if isinstance(item, str) else shown_alone(item, hiding)
        if inside is not None:
            pieces.append(inside)
            continue
        pieces.append(item.text or "")
        for child in reversed(item):
            pending += [child.tail or "", child.text or "" if isinstance(child, etree._Entity) else child]
    return "".join(pieces)


def shown_alone(node: Any, hiding: Hiding) -> str | None:
    """What shown_text's ``node`` shows by itself, without reading its children (nothing, a space, a
    ShowsItself's ``shown``); None for an element whose text and children's are what it shows."""
    if node is None or callable(getattr(node, "tag", None)):
        return ""
    if not hasattr(node, "itertext"):  # no element: asked only then, as elements are many and the check slow
        return node.shown if isinstance(node, ShowsItself) else ""
    if node.tag in NOT_IN_THE_LINE or node.tag.startswith(f"{{{ODF_DRAWING}}}") or is_hidden_run(node, hiding):
        return ""
    if node.tag.startswith(f"{{{W}}}") and is_hidden_run(node.getparent(), hiding):  # a part of a hidden run
        return ""
    if node.tag in SHOWN_AS_SPACE:
        return " "
    if node.tag == SYMBOL:
        return symbol_text(node)
    return None


def symbol_text(symbol: etree._Element) -> str:
    """What Word's ``<w:sym w:char="F0B7" w:font="Symbol"/>`` shows: the character its w:char names (a symbol
    font's private-use U+F0xx, as Word stores it), a glyph, not a space: read as nothing, a bullet or a smiley
    was left out of the review table and glued to the translation's words as an empty mark is; UNNAMED_SYMBOL
    where w:char names no character a reader sees (none, no hex number, a surrogate, a space or a control)."""
    code = symbol.get(f"{{{W}}}char", "")
    number = int(code, 16) if re.fullmatch(r"[0-9A-Fa-f]{1,6}", code) else -1
    character = chr(number) if 0 <= number <= sys.maxunicode else ""
    if not character or character.isspace() or unicodedata.category(character) in ("Cc", "Cf", "Cs"):
        return UNNAMED_SYMBOL
    return character
