"""A link (``w:hyperlink``) whose edge cuts a complex field, part of the field inside it and the rest outside, made
to hold the field whole or none of it: the field's characters and code, which show nothing, moved over the edge.

Word writes this where a field is typed at a link's edge, a page number after a linked "the page" whose end falls
after the link (``See <w:hyperlink>the page {PAGE}4</w:hyperlink>{} for the map.``), or where a ``HYPERLINK``
field's result runs on past the link it begins in.  Read as one mark, the link took the field's begin with its words,
and the rest of the field went where alignment put the words around it: its end was written before its begin
("MAP. THE{} FOR <link>PAGE THE {PAGE}4</link> SEE"), which Word and LibreOffice read as no field; a field begun
before a link and ended in it lost the link's words in LibreOffice.  Moved so, the field is read as any field in a
link or around one is (attnmt.documents.fields_complex).  Where the field's shown words are on both sides of the
edge and its characters cannot make it whole on one side, the link is split around the field's runs as a tracked
change is (field_revisions.split_around_field), each piece a link to the same place."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lxml import etree

from attnmt.documents.field_revisions import split_around_field
from attnmt.documents.fields import field_kind
from attnmt.documents.fields_complex import CODE_MARKS, is_code_run
from attnmt.documents.wordml import LINK, w


def join_field_links(paragraph: etree._Element) -> None:
    """Each link among ``paragraph``'s children whose edge cuts a complex field made to hold the field whole or none
    of it, in place: the field's end moved into the link or its begin and code out of it (ends_after_link), and its
    begin and code moved in or its end out (begins_before_link); split where neither can (split_around_field)."""
    for link in [child for child in paragraph if child.tag == LINK]:
        if not (ends_after_link(link) and begins_before_link(link)):
            split_around_field(link)


def ends_after_link(link: etree._Element) -> bool:
    """Whether ``link`` holds no field going on past its end, once made so: the runs after it up to that field's end
    moved into it where they show nothing (its end's run), else the field's runs in it moved out after it where they
    show nothing (its begin and code at the link's end), else, where the field begins the link, its begin, code and
    separator moved out before it (a ``HYPERLINK`` field's result running on past the link)."""
    children = list(link)
    start = going_on(children)
    if start is None:
        return True
    after = rest_of_field(link.itersiblings(), depth=sum(depth_steps(children[start:])))
    if after is None:
        return True  # a field over paragraphs, carried on to the next (ooxml_paragraphs), is left as it is
    if shows_nothing(after):
        link.extend(after)
    elif shows_nothing(children[start:]):
        for node in reversed(children[start:]):
            link.addnext(node)
    elif not children[:start] and shows_nothing(opening := children[:separator_position(children) + 1]):
        for node in opening:
            link.addprevious(node)
    else:
        return False
    return True


def begins_before_link(link: etree._Element) -> bool:
    """Whether ``link`` holds no field begun before it, once made so (ends_after_link's other side): the runs before
    it from that field's begin moved into it where they show nothing, else the field's runs in it moved out before it
    where they show nothing (its end at the link's start), else, where the field ends the link, its end moved out
    after it."""
    children = list(link)
    end = ended_in(children)
    if end is None:
        return True
    before = rest_of_field(link.itersiblings(preceding=True), depth=sum(depth_steps(children[:end + 1])))
    if before is None:
        return True  # a field begun in an earlier paragraph
    if shows_nothing(before):
        for node in before:  # nearest first
            link.insert(0, node)
    elif shows_nothing(children[:end + 1]):
        for node in children[:end + 1]:
            link.addprevious(node)
    elif end == len(children) - 1 and shows_nothing(children[end:]):
        link.addnext(children[end])
    else:
        return False
    return True


def going_on(children: Sequence[etree._Element]) -> int | None:
    """The position among a link's ``children`` of the first that begins a field the link does not end; None where
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
    """The position among a link's ``children`` of the last that ends a field begun before the link; None where
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
    """The ``siblings`` a link's fields go on over, nearest first (those after the link, or those before it), up to
    the one where they end (or begin): ``depth`` counts the fields going on past the link's edge, positive after it
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
    bookmark, a comment's anchor: fields_complex.CODE_MARKS): moved over a link's edge, they change no word it
    covers."""
    return bool(nodes) and all(is_code_run(node) or node.tag in CODE_MARKS for node in nodes)
