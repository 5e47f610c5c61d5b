"""A mark around runs whose edge cuts a complex field, part of the field inside it and the rest outside (a link,
``w:hyperlink``; a smart tag, a custom XML element, a bidirectional embedding or override, a content control), made to
hold the field whole or none of it: the field's characters and code, which show nothing, moved over the edge.

Word writes this where a field is typed at a link's edge, a page number after a linked "the page" whose end falls
after the link (``See <w:hyperlink>the page {PAGE}4</w:hyperlink>{} for the map.``), or where a ``HYPERLINK``
field's result runs on past the link it begins in.  Read as one mark, the link took the field's begin with its words,
and the rest of the field went where alignment put the words around it: its end was written before its begin
("MAP. THE{} FOR <link>PAGE THE {PAGE}4</link> SEE"), which Word and LibreOffice read as no field; a field begun
before a link and ended in it lost the link's words in LibreOffice.  Moved so, the field is read as any field in a
mark or around one is (attnmt.documents.fields_complex).  Where the field's shown words are on both sides of the
edge and its characters cannot make it whole on one side, the mark is split around the field's runs as a tracked
change is (field_revisions.split_around_field), each piece a copy of it, and the pieces left side by side are joined
again once the paragraph is written (attnmt.documents.field_pieces); a content control, whose properties name it once
(its ``w:id``, its tag), is not split: it takes the rest of the field over its edge, the words of the field's result
too (which Word writes again when it updates the field).  Left as it was, the field stayed cut: the model read "See the
chart in for the map." and its end was written before its begin."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lxml import etree

from attnmt.documents.field_revisions import split_around_field
from attnmt.documents.fields import field_kind
from attnmt.documents.fields_complex import CODE_MARKS, is_code_run
from attnmt.documents.wordml import RUN_MARKS, w

CONTROL = w("sdt")


def join_field_marks(paragraph: etree._Element) -> None:
    """Each mark among ``paragraph``'s children (wordml.RUN_MARKS, a content control) whose edge cuts a complex field
    made to hold the field whole or none of it, in place: the field's end moved into the mark or its begin and code
    out of it (ends_after_mark), and its begin and code moved in or its end out (begins_before_mark); a mark but a
    content control split where neither can (split_around_field), a content control given the rest of the field."""
    for mark in [child for child in paragraph if child.tag in RUN_MARKS or child.tag == CONTROL]:
        holder = mark if mark.tag != CONTROL else mark.find(w("sdtContent"))
        whole = holder is None or (ends_after_mark(mark, holder) and begins_before_mark(mark, holder))
        if not whole and mark.tag != CONTROL:  # a content control's properties name it once: it is not split
            split_around_field(mark)


def ends_after_mark(mark: etree._Element, holder: etree._Element) -> bool:
    """Whether ``mark`` holds no field going on past its end, once made so: the runs after it up to that field's end
    moved into it (into ``holder``, which holds its runs: the mark, or a content control's content) where they show
    nothing (its end's run), else the field's runs in it moved out after it where they show nothing (its begin and
    code at the mark's end), else, where the field begins the mark, its begin, code and separator moved out before it
    (a ``HYPERLINK`` field's result running on past a link), else, in a content control, those runs moved into it, the
    words of the field's result too."""
    children = list(holder)
    start = going_on(children)
    if start is None:
        return True
    after = rest_of_field(mark.itersiblings(), depth=sum(depth_steps(children[start:])))
    if after is None:
        return True  # a field over paragraphs, carried on to the next (ooxml_paragraphs), is left as it is
    if shows_nothing(after):
        holder.extend(after)
    elif shows_nothing(children[start:]):
        for node in reversed(children[start:]):
            mark.addnext(node)
    elif not children[:start] and shows_nothing(opening := children[:separator_position(children) + 1]):
        for node in opening:
            mark.addprevious(node)
    elif mark.tag == CONTROL:  # not split: it takes the rest of the field, the words of its result too
        holder.extend(after)
    else:
        return False
    return True


def begins_before_mark(mark: etree._Element, holder: etree._Element) -> bool:
    """Whether ``mark`` holds no field begun before it, once made so (ends_after_mark's other side): the runs before
    it from that field's begin moved into it where they show nothing, else the field's runs in it moved out before it
    where they show nothing (its end at the mark's start), else, where the field ends the mark, its end moved out
    after it, else, in a content control, the runs before it from the field's begin moved into it."""
    children = list(holder)
    end = ended_in(children)
    if end is None:
        return True
    before = rest_of_field(mark.itersiblings(preceding=True), depth=sum(depth_steps(children[:end + 1])))
    if before is None:
        return True  # a field begun in an earlier paragraph
    if shows_nothing(before):
        for node in before:  # nearest first
            holder.insert(0, node)
    elif shows_nothing(children[:end + 1]):
        for node in children[:end + 1]:
            mark.addprevious(node)
    elif end == len(children) - 1 and shows_nothing(children[end:]):
        mark.addnext(children[end])
    elif mark.tag == CONTROL:  # not split: it takes the start of the field, the words of its result too
        for node in before:
            holder.insert(0, node)
    else:
        return False
    return True


def going_on(children: Sequence[etree._Element]) -> int | None:
    """The position among a mark's ``children`` of the first that begins a field the mark does not end; None where
    it ends every field it begins."""
    opened: list[int] = []
    for position, child in enumerate(children):
        for kind in map(field_kind, child.iter(w("fldChar"))):
            if kind == "begin":
                opened.append(position)
            elif kind == "end" and opened:
                opened.pop()
    return opened[0] if opened else None


def ended_in(children: Sequence[etree._Element]) -> int | None:
    """The position among a mark's ``children`` of the last that ends a field begun before the mark; None where
    there is none."""
    depth, ended = 0, None
    for position, child in enumerate(children):
        for kind in map(field_kind, child.iter(w("fldChar"))):
            if kind == "begin":
                depth += 1
            elif kind == "end" and depth:
                depth -= 1
            elif kind == "end":
                ended = position
    return ended


def depth_steps(nodes: Iterable[etree._Element]) -> Iterable[int]:
    """+1 for each field's begin in ``nodes``, -1 for each end."""
    for kind in (field_kind(mark) for node in nodes for mark in node.iter(w("fldChar"))):
        if kind in ("begin", "end"):
            yield 1 if kind == "begin" else -1


def rest_of_field(siblings: Iterable[etree._Element], depth: int) -> list[etree._Element] | None:
    """The ``siblings`` a mark's fields go on over, nearest first (those after the mark, or those before it), up to
    the one where they end (or begin): ``depth`` counts the fields going on past the mark's edge, positive after it
    (each begin adds one, each end takes one away), negative before it.  None where the paragraph ends first (a field
    over paragraphs)."""
    taken = []
    for sibling in siblings:
        taken.append(sibling)
        depth += sum(depth_steps([sibling]))
        if depth == 0:
            return taken
    return None


def separator_position(children: Sequence[etree._Element]) -> int:
    """The position among ``children``, which begin with a field's begin, of the one that holds that field's
    separator; -1 where none does."""
    depth = 0
    for position, child in enumerate(children):
        for kind in map(field_kind, child.iter(w("fldChar"))):
            depth += (kind == "begin") - (kind == "end")
            if kind == "separate" and depth == 1:
                return position
    return -1


def shows_nothing(nodes: Sequence[etree._Element]) -> bool:
    """Whether ``nodes`` are runs of a field's characters and code alone, or what Word leaves between them (a
    bookmark, a comment's anchor: fields_complex.CODE_MARKS): moved over a mark's edge, they change no word it
    covers."""
    return bool(nodes) and all(is_code_run(node) or node.tag in CODE_MARKS for node in nodes)
