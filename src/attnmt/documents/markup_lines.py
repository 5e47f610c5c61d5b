"""The line of an HTML or XML page each run's text comes from, for a review's list
(attnmt.documents.review): where its first word stands, counted from libxml2's line of the element
before it (its sourceline) and the line breaks in the texts and tails between.  TreeJob.lines
(attnmt.documents.markup) reads it."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.markup_runs import Run
from attnmt.documents.pages import is_comment


def run_line(run: Run) -> int:
    """The line a run's first word is on: where its text starts (its block's start tag ends, libxml2's
    sourceline, or, for a tail, the element before it ends: end_line) and the line breaks before its
    first word, or, where its text holds no word, the line of the first word in the elements and tails
    after it (word_line).  The element's own line listed a card's tail at the card's first line, above
    the card's sentences; a text after an ``<input>``, an ``<img>`` or a ``<br>`` on lines of their own
    was listed at the line of the element before those (or at the block's start tag, above an
    ``<img alt>`` in the block)."""
    lead = run.lead
    start = (run.parent.sourceline or 1) if run.owner is run.parent else end_line(run.owner)
    line = start + breaks_before(lead)
    if lead.strip():
        return line
    return next(filter(None, map(word_line, run.children)), line)


def word_line(node: etree._Element) -> int | None:
    """The line of the first word in ``node``: in its text, its descendants' texts and tails, then its
    own tail; None where they hold none (an ``<img>``, a comment).  A walk of its own, not a recursion:
    a page may nest pages.MAX_DEPTH elements, and two frames a level took Python past its limit."""
    pending = [(node, False)]  # (node, whether its tail is next), last first
    while pending:
        inside, tail = pending.pop()
        if tail:
            if (inside.tail or "").strip():
                return end_line(inside) + breaks_before(inside.tail)
        elif not is_comment(inside) and (inside.text or "").strip():
            return (inside.sourceline or 1) + breaks_before(inside.text)
        else:
            pending += [(inside, True), *((child, False) for child in reversed(inside))]
    return None


def breaks_before(text: str) -> int:
    return text[:len(text) - len(text.lstrip())].count("\n")


def end_line(node: etree._Element) -> int:
    """The line ``node`` ends on: that of its last descendant's start tag (sourceline), and the
    line breaks in that one's text and in the tails after it, up to ``node``'s end.  A comment's or
    processing instruction's sourceline is where it ends already (libxml2's), its text counted in it."""
    breaks = 0
    while len(node):
        node = node[-1]
        breaks += (node.tail or "").count("\n")
    inside = (node.text or "").count("\n") if isinstance(node.tag, str) else 0
    return (node.sourceline or 1) + inside + breaks
