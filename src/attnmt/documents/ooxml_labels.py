"""A speaker's label in a run of its own at a Word paragraph's start (``INTERVIEWER:`` in bold, then
" How did you start?"): kept whole, as the label typed at a text line's start is
(attnmt.documents.list_marks.is_label_alone)."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.list_marks import is_label_alone
from attnmt.documents.ooxml_dialects import Dialect


def label_alone(node: etree._Element, dialect: Dialect, speakers: frozenset[str]) -> bool:
    """Whether ``node``, a run or a container read at its paragraph's start, holds a speaker's label alone, words
    in the runs after it; ``speakers``: the names in title case its document's dialogue takes turns in."""
    said = "".join(map(dialect.text_of, node.iter(dialect.text)))
    after = "".join(dialect.text_of(part) for following in node.itersiblings() for part in following.iter(dialect.text))
    return is_label_alone(said, after, speakers)
