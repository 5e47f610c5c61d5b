"""A field Word inserted with its changes tracked, one insertion (``w:ins``) around each of its runs, read as the one
insertion it is.

Word writes a field typed or pasted while changes are tracked as its runs (begin, code, separator, result, end), each
in an insertion of its own, all of one author and time: one change in Word's Review pane, accepted or rejected whole.
Read as five containers, the field had no begin and end among any one's children (attnmt.documents.fields_complex),
so a page number among words (``See page {PAGEREF}4{} for a man.``) was kept out of the text: the model read "See
page for a man." and the field went where its neighbours' words did.  Joined, the insertion holds the whole field, and
its number is read in its place, as one in a single insertion is."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.fields import depth_after
from attnmt.documents.wordml import w

INSERTION = w("ins")
REVISION = (w("author"), w("date"))  # what tells one tracked change from another (w:id is each element's own)


def join_field_insertions(paragraph: etree._Element) -> None:
    """Each run of insertions among ``paragraph``'s children of one author and time (REVISION) that begins a complex
    field and ends it, joined into the first of them, in place; an insertion whose field goes on past the insertions
    of its change is left as it is."""
    children = list(paragraph)
    start = 0
    while start < len(children):
        first, end = children[start], start + 1
        depth = depth_after(first.iter(w("fldChar")), 0) if first.tag == INSERTION else 0
        while depth and end < len(children) and same_change(first, children[end]):
            depth = depth_after(children[end].iter(w("fldChar")), depth)
            end += 1
        if end > start + 1 and not depth:
            for later in children[start + 1:end]:
                first.extend(list(later))
                paragraph.remove(later)
        start = end


def same_change(first: etree._Element, node: etree._Element) -> bool:
    """Whether ``node`` is an insertion of the same tracked change as insertion ``first`` (REVISION)."""
    return node.tag == INSERTION and all(node.get(name) == first.get(name) for name in REVISION)
