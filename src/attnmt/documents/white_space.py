"""CSS's ``white-space`` in a page's ``style`` attributes: an element styled ``pre``, ``pre-wrap``, ``pre-line`` or
``break-spaces`` (CSS Text 4's ``white-space-collapse: preserve`` or ``preserve-breaks``) shows each line break of its
text as a new line, where HTML's whitespace otherwise collapses to one space.  Its line breaks are read as ``<br>``s
are (attnmt.documents.flat.FlatBuilder.kept_lines): a poem or an address in ``<p style="white-space: pre-line">``
came back on one line.  A ``<style>`` block's rules are not read: which elements its selectors pick is the
browser's to say."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from attnmt.documents.flat import FlatBuilder

WHITE_SPACE = re.compile(r"(?:^|;)\s*white-space(?:-collapse)?\s*:\s*([a-z-]+)", re.IGNORECASE)
KEEPING = {"pre", "pre-wrap", "pre-line", "break-spaces", "preserve", "preserve-breaks"}
# A line break in such text with the spacing around it, written back as it was (a line's indent too)
KEPT_BREAK = re.compile(r"([ \t\f]*(?:\r\n?|\n)[ \t\n\f\r]*)")
NEWLINE = re.compile(r"\r\n?|\n")


def styled(node: etree._Element) -> bool | None:
    """Whether ``node``'s own style keeps line breaks (True), collapses them (False: ``normal``, ``nowrap``),
    or says nothing of them (None); of two declarations, the last counts, as in CSS."""
    style = node.get("style") if isinstance(node.tag, str) else None
    found = WHITE_SPACE.findall(style or "")
    return found[-1].lower() in KEEPING if found else None


def keeps_line_breaks(node: etree._Element) -> bool:
    """Whether the text of ``node`` shows its line breaks: the nearest style that says, its own or an
    ancestor's (``white-space`` is inherited)."""
    for element in (node, *node.iterancestors()):
        says = styled(element)
        if says is not None:
            return says
    return False


def add_kept_break(builder: FlatBuilder, spacing: str) -> None:
    """A line break kept, ``spacing`` with it, as an atom that ends its sentence where ended_lines says (twice in
    a row where it holds an empty line) and shows no word of its own to keep apart from the target's."""
    builder.line_breaks += [len(builder.text)] * (len(NEWLINE.findall(spacing)) > 1)
    builder.add_atom(literal=spacing, parts_words=True, line_break=True)
    builder.marks[-1].shows_text = False
