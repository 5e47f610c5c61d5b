"""A field's name or a speaker's label in an element at a page's block's start (``<p><b>Ingredients:</b> flour</p>``,
``<p><b>INTERVIEWER:</b> How did you start?</p>``), as attnmt.documents.markup_runs reads a run: the label kept whole,
the field's name a sentence of its own with its colon kept, as a text line's are (attnmt.documents.list_marks); a
field's name first in an element around the block's words too (``<p><span><b>Tip:</b> Add salt.</span></p>``)."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.elements import Vocabulary
from attnmt.documents.flat import FlatBuilder
from attnmt.documents.list_marks import field_alone, is_label_alone
from attnmt.text.field_names import kept_value


def is_label_element(node: etree._Element, speakers: frozenset[str] = frozenset()) -> bool:
    """Whether ``node``, inline at its block's start, holds a speaker's label alone, and words follow it
    (attnmt.text.speaker_labels: ``<p><b>INTERVIEWER:</b> How did you start?</p>``): kept whole, as the label typed
    at the block's start is (list_marks.after_block_mark).  Read as words, the demo model wrote that block "<b>Auf
    dieser Fefebebebebebebebebeung findet es aus.</b>", the name lost and the question bold."""
    # a comment or a processing instruction holds no label
    return isinstance(node.tag, str) and is_label_alone("".join(node.itertext()), node.tail or "", speakers)


def field_span(node: etree._Element, vocabulary: Vocabulary, speakers: frozenset[str] = frozenset()
               ) -> tuple[int, int] | None:
    """Where the name of a field ends and its colon does in ``node``'s text and tail, where ``node``, inline at its
    block's start, holds text alone, the name of a field and its colon or the name alone, its colon after it, and its
    value follows it (list_marks.field_alone: ``<p><b>Ingredients:</b> flour, eggs</p>``, ``<p><b>Side Effects</b>:
    nausea</p>``); None for none.  The name is translated alone inside the element, as a text line's is, and the
    colon kept."""
    if not isinstance(node.tag, str) or len(node) or vocabulary.is_atom(node) or vocabulary.is_kept_word(node):
        return None
    return field_alone(vocabulary.as_read(node.text or ""), vocabulary.as_read(node.tail or ""), speakers)


def add_field_element(builder: FlatBuilder, node: etree._Element, vocabulary: Vocabulary, span: tuple[int, int],
                      last: bool = False) -> int:
    """``node`` (``field_span``: ``span``) into ``builder``, the name a sentence of its own and the colon after it an
    atom, kept as written (as list_marks.after_field_name does in a text); how much of its tail the colon is, 0 where
    it is in ``node``.  Where ``node`` is its block's ``last`` element, a value in its tail that is a measure alone or
    persons' names after a role (field_names.kept_value: ``<p><b>Translator:</b> Ann Goldstein</p>``, which the demo
    model wrote "Ein Moner läuft") is kept as written too, and all of the tail taken."""
    (end, colon), name, tail = span, vocabulary.as_read(node.text or ""), vocabulary.as_read(node.tail or "")
    taken = max(colon - len(name), 0)
    add_name(builder, node, name, span, tail[:taken])
    value = tail[taken:]
    if last and value.strip() and kept_value(name[:end], value):
        builder.add_text(value[:len(value) - len(value.lstrip())])  # a space apart: the value is not the element's
        builder.add_atom(literal=value.strip())
        builder.add_text(value[len(value.rstrip()):])
        return len(tail)
    return taken


def add_name(builder: FlatBuilder, node: etree._Element, name: str, span: tuple[int, int], colon_after: str) -> None:
    """``node``, its text ``name`` a field's name (``span``: where it ends and its colon does), into ``builder``, the
    name a sentence of its own, its colon an atom, in ``node`` or after it (``colon_after``)."""
    end, colon = span
    builder.open(node, keeps_edge_spaces=True)
    builder.add_text(name[:end])
    builder.breaks.append(len(builder.text))
    builder.add_atom(literal=name[end:colon])
    builder.add_text(name[colon:])
    builder.close()
    if colon_after:
        builder.add_atom(literal=colon_after)
