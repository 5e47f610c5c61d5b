"""The characters an XLIFF unit's source writes as references (``&#169;``, ``&#x2014;``), written so in
the target translated from it.

A page's references are written back by the forms the whole file wrote (attnmt.documents.named_references):
where it wrote a character one way, every copy takes that way; where in several, a copy takes the form of
the one in its place, which a file that gains targets no longer has.  An XLIFF file is many texts, each
unit's (or XLIFF 2 segment's) source from its own origin: one unit's ``&#169; 2024 Acme`` and another's
``© 2024 Beta`` came back with both targets written ``©``.  So each target takes its own source's forms:
a character its source wrote as a reference alone (in one form) is written as that reference wherever
the target holds it; one its source wrote as itself, or in two forms, is left to the file's forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from attnmt.documents.named_references import reference_forms
from attnmt.documents.pages import is_comment
from attnmt.documents.xml_code import holds_markup
from attnmt.documents.xml_forms import SourceForms


def referenced_targets(source: etree._Element, targets: Iterable[etree._Element | None],
                       forms: SourceForms | None) -> None:
    """The ``targets`` written for ``source`` (a unit's target, or its segments) with the characters the
    source wrote as references written so (source_references); not one whose text is HTML (holds_markup:
    written escaped, or in a CDATA section, as its source holds it).  In place."""
    references = source_references(source, forms)
    for target in targets:
        if target is not None and not holds_markup(target):
            write_references(target, references)


def source_references(source: etree._Element, forms: SourceForms | None) -> dict[str, str]:
    """character -> the reference ``source`` wrote it as (``"©": "#169"``), for each character its texts
    (as ``forms`` holds them: xml_forms) wrote as a reference and in that one form alone."""
    if forms is None:
        return {}
    inside = set(source.iter())
    written = "".join(as_written for node, where, _, as_written in forms.texts
                      if node in inside and (where == "text" or node is not source))
    found = reference_forms(written, xml=True)
    return {character: each[0][1:-1] for character, each in found.items()
            if len(set(each)) == 1 and each[0].startswith("&")}


def write_references(target: etree._Element, references: dict[str, str]) -> None:
    """Each character of ``references`` (source_references) in ``target``'s texts (its own, its
    descendants', their tails inside it) as an entity node of its reference, which lxml writes as
    ``&#169;``.  In place."""
    if not references:
        return
    pattern = re.compile(f"([{re.escape(''.join(references))}])")
    for node in list(target.iter()):
        if not is_comment(node) and node.text and pattern.search(node.text):
            node.text, *rest = pattern.split(node.text)
            node[0:0] = referenced_pieces(rest, references)
        if node is not target and node.tail and pattern.search(node.tail):
            node.tail, *rest = pattern.split(node.tail)
            parent = node.getparent()
            at = parent.index(node) + 1
            parent[at:at] = referenced_pieces(rest, references)


def referenced_pieces(rest: list[str], references: dict[str, str]) -> list[etree._Entity]:
    """The entity nodes of a text split at its referenced characters (``rest``: character, text after
    it, character, ...), each with the text after it as its tail."""
    pieces = []
    for character, after in zip(rest[::2], rest[1::2], strict=True):
        entity = etree.Entity(references[character])
        entity.tail = after or None
        pieces.append(entity)
    return pieces
