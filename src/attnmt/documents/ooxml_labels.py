"""A speaker's label in a run of its own at a Word paragraph's start (``INTERVIEWER:`` in bold, then
" How did you start?"): kept whole, as the label typed at a text line's start is
(attnmt.documents.list_marks.is_label_alone); and whether such a run has a look of its own (``own_look``: a field's
name in bold in sentence case, "Prep time:" then " 15 min", read as a page's ``<b>Prep time:</b>`` is)."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.formatting import NO_LOOK, look_value, text_runs
from attnmt.documents.list_marks import is_label_alone
from attnmt.documents.ooxml_dialects import Dialect

# The looks that set a name apart from its value: bold, italic, and a character style ("Strong", "Emphasis"), by
# their local names (Word's elements, ``w:b``, ``w:rStyle``; DrawingML's attributes, ``b="1"``).
EMPHASIS = ("b", "i", "rStyle")


def label_alone(node: etree._Element, dialect: Dialect, speakers: frozenset[str]) -> bool:
    """Whether ``node``, a run or a container read at its paragraph's start, holds a speaker's label alone, words
    in the runs after it; ``speakers``: the names in title case its document's dialogue takes turns in."""
    said = "".join(map(dialect.text_of, node.iter(dialect.text)))
    after = "".join(dialect.text_of(part) for following in node.itersiblings() for part in following.iter(dialect.text))
    return is_label_alone(said, after, speakers)


def own_look(run: etree._Element, dialect: Dialect) -> bool:
    """Whether ``run`` is bold, italic or in a character style where the runs with text after it are not, or the
    other way round (``emphasis``): a name in bold before its value in plain text, as a page's ``<b>`` sets it apart
    (attnmt.documents.list_marks.set_apart_field).  Word broke a paragraph of one look into runs for its spelling or
    its edits' marks; those say nothing."""
    after = [each for following in run.itersiblings() for each in text_runs(following, dialect)]
    return bool(after) and any(emphasis(each, dialect) != emphasis(run, dialect) for each in after)


def emphasis(run: etree._Element, dialect: Dialect) -> tuple[str, ...]:
    """What ``run``'s own properties say of each look of ``EMPHASIS`` ("" for off or none): Word's ``<w:b/>`` is
    "on", ``<w:b w:val="0"/>`` off; a slide's ``b="1"`` is "1", ``b="0"`` off."""
    properties = run.find(dialect.properties)
    if properties is None:
        return ("",) * len(EMPHASIS)
    said = {etree.QName(child).localname: look_value(child) for child in properties if isinstance(child.tag, str)}
    said |= {etree.QName(name).localname: value for name, value in properties.attrib.items()}
    return tuple("" if said.get(name, "") in NO_LOOK else said.get(name, "") for name in EMPHASIS)
