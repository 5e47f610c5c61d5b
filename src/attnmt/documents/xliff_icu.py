"""ICU messages in an XLIFF source (attnmt.documents.xliff): a plural or a select with the text of
each of its cases, as Angular's ``messages.xlf`` holds them (and any tool writing ICU's MessageFormat):

    {VAR_PLURAL, plural, =0 {no dogs} =1 {one dog} other {<x id="INTERPOLATION"/> dogs}}

The message's syntax (its argument, its kind, each case's key and the braces) is the program's: read
as words, the whole message went to the model as one sentence, and came back with its keys
translated and its braces moved (``DOGS}} {OTHER DOG} {ONE =1 ...``), which Angular's build refuses.
Each case's text is a sentence of its own; the syntax around it is kept as written (mark_syntax wraps
it in an element the XLIFF reader keeps whole and ends a sentence at, unmark_syntax takes it out
again), and so is a plural's ``#`` (the number), as a placeholder is.  A message nests in a case
(a select in a plural's); text that is no whole message (an unbalanced brace) is left to be read as
words, as it was.
"""

from __future__ import annotations

import json
import re
from dataclasses import astuple

from lxml import etree

from attnmt.documents.cdata_sections import CdataText, cdata_text
from attnmt.documents.xliff_codes import KEPT_SPAN, wraps_words

# What mark_syntax wraps the syntax in, and a plural's "#": elements of no XLIFF vocabulary, gone by the
# time the file is written (unmark_syntax).
SYNTAX = "{urn:attnmt:icu}syntax"
NUMBER = "{urn:attnmt:icu}number"
CDATA = "attnmt-icu-cdata"  # on an element whose text was one CDATA section: how it was written (no namespace
# to declare: an attribute of one left its declaration behind)
# A message's start, its argument and kind (and a plural's offset); a case's key and its opening brace
# (``=0 {``, ``other {``, ``male {``); a simple argument inside a case (``{name}``, ``{n, number}``).
HEAD = re.compile(r"\{\s*[^\W\d][\w.]*\s*,\s*(plural|selectordinal|select)\s*,(?:\s*offset\s*:\s*\d+)?")
CASE = re.compile(r"\s*(?:=\s*-?\d+(?:\.\d+)?|[^\W\d][\w-]*)\s*\{")
ARGUMENT = re.compile(r"\{[^{}\x00]*\}")
# Where a code (an element in the source: <x/>, <ph>) stands in the text read as one string.
CODE = "\x00"


def mark_syntax(element: etree._Element) -> None:
    """The syntax of each ICU message in ``element`` (the module docstring) wrapped in a SYNTAX element,
    each plural's ``#`` in a NUMBER one: in its text and its children's tails, and in those of each code
    in it that wraps words (a ``<g>``: xliff_codes.wraps_words)."""
    codes = [node for node in element.iterdescendants() if isinstance(node.tag, str) and wraps_words(node)]
    for holder in [element, *codes]:
        mark_text(holder)


def mark_text(element: etree._Element) -> None:
    """mark_syntax's, in ``element``'s own text and its children's tails alone."""
    children = list(element)
    pieces = [element.text or "", *(child.tail or "" for child in children)]
    text = CODE.join(pieces)
    found: list[tuple[int, int, str]] = []
    position = text.find("{")
    while position >= 0:
        spans: list[tuple[int, int, str]] = []
        end = message(text, position, spans)
        found += spans if end is not None else []
        position = text.find("{", end if end is not None else position + 1)
    if not found:
        return
    cdata = cdata_text(element)
    if cdata is not None:  # written in one again once translated (unmark_syntax)
        element.set(CDATA, json.dumps(astuple(cdata)))
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece) + 1)
    for k, piece in reversed(list(enumerate(pieces))):
        inside = [(s - starts[k], e - starts[k], tag) for s, e, tag in merged(found) if starts[k] <= s < starts[k + 1]]
        if inside:
            wrap(element, children[k - 1] if k else None, piece, inside)


def message(text: str, start: int, spans: list[tuple[int, int, str]]) -> int | None:
    """Where the ICU message starting at ``start`` (its ``{``) ends, its syntax added to ``spans``
    ((start, end, tag) in ``text``); None, nothing added, where none starts there."""
    head = HEAD.match(text, start)
    if head is None:
        return None
    found, position, cases = [(start, head.end(), SYNTAX)], head.end(), 0
    while case := CASE.match(text, position):
        found.append((position, case.end(), SYNTAX))
        end = case_end(text, case.end(), found, head.group(1) != "select")
        if end is None:
            return None
        found.append((end, end + 1, SYNTAX))
        position, cases = end + 1, cases + 1
    closing = len(text) - len(text[position:].lstrip()) if text[position:].strip() else len(text)
    if not cases or closing >= len(text) or text[closing] != "}":
        return None
    spans += [*found, (position, closing + 1, SYNTAX)]
    return closing + 1


def case_end(text: str, position: int, found: list[tuple[int, int, str]], plural: bool) -> int | None:
    """Where the text of a case starting at ``position`` ends (its closing brace), the syntax of the
    messages nested in it and a plural's ``#`` added to ``found``; None where its braces do not close."""
    while position < len(text):
        character = text[position]
        if character == "}":
            return position
        if character == "{":
            nested: list[tuple[int, int, str]] = []
            end = message(text, position, nested)
            if end is None:
                argument = ARGUMENT.match(text, position)  # a simple argument: a placeholder, protected as one
                if argument is None:
                    return None
                end = argument.end()
            found += nested
            position = end
            continue
        if character == "#" and plural:
            found.append((position, position + 1, NUMBER))
        position += 1
    return None


def merged(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``spans`` in order, each run of syntax that touches the next one (``}`` and `` other {``) one."""
    joined: list[tuple[int, int, str]] = []
    for start, end, tag in sorted(spans):
        if joined and tag == SYNTAX == joined[-1][2] and joined[-1][1] >= start:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]), tag)
        elif end > start:
            joined.append((start, end, tag))
    return joined


def wrap(element: etree._Element, before: etree._Element | None, piece: str, spans: list[tuple[int, int, str]]) -> None:
    """``piece`` (``element``'s text, or the tail of its child ``before``) written again with each of
    ``spans`` (its offsets there) an element of its tag holding that syntax."""
    written, position = [], 0
    for start, end, tag in spans:
        marker = element.makeelement(tag, {})
        marker.text = piece[start:end]
        written.append((piece[position:start], marker))
        position = end
    lead = written[0][0]
    for k, (_, marker) in enumerate(written):
        marker.tail = written[k + 1][0] if k + 1 < len(written) else piece[position:]
    if before is None:
        element.text = lead
        for k, (_, marker) in enumerate(written):
            element.insert(k, marker)
    else:
        before.tail = lead
        for _, marker in reversed(written):
            before.addnext(marker)


def unmark_syntax(element: etree._Element) -> None:
    """Every SYNTAX and NUMBER element in ``element`` (and KEPT_SPAN: xliff_codes.hold_kept_spans) replaced by
    what it holds, and the text of an element that was one CDATA section written in one again (cdata_sections:
    lost once elements were in it)."""
    etree.strip_tags(element, SYNTAX, NUMBER, KEPT_SPAN)
    for holder in [node for node in element.iter() if node.get(CDATA) is not None]:
        cdata = CdataText(*json.loads(holder.attrib.pop(CDATA)))
        if not len(holder):
            cdata.write(holder, holder.text or "")
