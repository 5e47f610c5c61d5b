"""A template's placeholders in an Office Open XML paragraph (``{{name}}``, ``{name}``, ``${var}``,
``%s``: attnmt.documents.xml_dialects.PLACEHOLDER), which a mail merge or a report generator fills in:
they pass through untranslated, as a URL does (TEMPLATE_PROTECTED).

Word splits a placeholder over runs after an edit or a spelling check (``{{`` in one run, ``name}}``
in the next, each of its own look).  Read run by run, no piece was a placeholder, and the model
translated them ("{{NAME}}").  So its characters go into the run it starts in
(join_split_placeholders) before the paragraph is read: the look of its first characters, as the
program that fills it in writes the value."""

from __future__ import annotations

import re

from lxml import etree

from attnmt.decoding.protected import PROSE_PROTECTED, PROTECTED
from attnmt.documents.ooxml_dialects import Dialect
from attnmt.documents.xml_dialects import PLACEHOLDER

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
TEMPLATE_PROTECTED = re.compile(f"{PROTECTED.pattern}|{PLACEHOLDER}")
# What an office paragraph's text and an alt text pass through: TEMPLATE_PROTECTED's and a name joined by "&", as a
# page's text does (PROSE_PROTECTED: "We watched Tom & Jerry." in a Word paragraph lost the name as a page's did).
# Not joined over runs as a placeholder is: a name's words may each have a look of their own (a bold "Tom").
PARAGRAPH_PROTECTED = re.compile(f"{PROSE_PROTECTED.pattern}|{PLACEHOLDER}")


def join_split_placeholders(container: etree._Element, dialect: Dialect) -> None:
    """In place, in ``container`` and the containers in it: each placeholder whose characters lie in
    the text elements of several runs side by side is written whole in the first of them."""
    texts: list[etree._Element] = []
    for child in container:
        if dialect.holds_runs(child):
            join_split_placeholders(child, dialect)
        if child.tag == dialect.run and all(
                part.tag == dialect.properties or (part.tag == dialect.text and not len(part)) for part in child):
            texts += [part for part in child if part.tag == dialect.text]
        else:  # a tab, a field, a bookmark: no placeholder goes on over it
            _join(texts, dialect)
            texts = []
    _join(texts, dialect)


def _join(texts: list[etree._Element], dialect: Dialect) -> None:
    """The placeholders over ``texts`` (text elements in reading order), each moved whole into its first."""
    starts, whole = [], ""
    for text in texts:
        starts.append(len(whole))
        whole += text.text or ""
    for match in reversed(list(TEMPLATE_PROTECTED.finditer(whole))):  # the last first: earlier offsets hold
        first = max(k for k, start in enumerate(starts) if start <= match.start())
        last = max(k for k, start in enumerate(starts) if start < match.end())
        for k in range(first + 1, last + 1):
            taken = match.end() - starts[k]  # the placeholder's characters in it: all of one in its middle
            moved, texts[k].text = (texts[k].text or "")[:taken], (texts[k].text or "")[taken:]
            texts[first].text = (texts[first].text or "") + moved
            if dialect.preserve:
                texts[first].set(XML_SPACE, "preserve")
            _drop_if_empty(texts[k], dialect)


def _drop_if_empty(text: etree._Element, dialect: Dialect) -> None:
    """``text``, where nothing is left in it, and its run, where that holds no other content."""
    run = text.getparent()
    if text.text or run is None:
        return
    run.remove(text)
    if all(part.tag == dialect.properties for part in run) and run.getparent() is not None:
        run.getparent().remove(run)
