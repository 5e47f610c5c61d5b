"""An element's text that is one CDATA section, written back as one: how it was written (its spaces
outside the section and inside it at its edges, ``cdata_text``), and a new text written so
(``CdataText.write``), which a tree loses on any change of the text.  Markup (a WordPress export's
title, code) and XLIFF (a unit's target) read and write such texts."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

# An element's whole text as one CDATA section, spaces alone around it: the spaces before it (group 1), and
# the section's content (2), which holds no "]]>" (that would end it).
CDATA_TEXT = re.compile(r"(\s*)<!\[CDATA\[((?:(?!\]\]>).)*)\]\]>(\s*)", re.DOTALL)
# What a text of CDATA sections holds, one piece at a time (sections_text): a section (group 1), a comment, a
# processing instruction, spaces.
SECTION_PARTS = re.compile(r"(<!\[CDATA\[.*?\]\]>)|<!--.*?-->|<\?.*?\?>|\s+", re.DOTALL)
CUT = "{urn:attnmt:cut}cut"  # a stand-in element, there only while a text of several parts is written


@dataclass(frozen=True)
class CdataText:
    """How an element's text is written where it is one CDATA section: the spaces outside it
    (``before``, ``after``: a line break and indentation around it), and those inside it at its
    edges (``opening``, ``closing``)."""

    before: str
    opening: str
    closing: str
    after: str

    def write(self, element: etree._Element, text: str) -> None:
        """``text`` (its spaces at either end aside) as the element's whole text, in a CDATA section
        with the spaces this one had inside and around it; as plain text where it holds "]]>".
        lxml gives an element's text one node, plain or CDATA: the spaces outside the section are
        each the tail of a stand-in element (CUT), taken out again with the nodes left in place."""
        core = text.strip()
        if "]]>" in core:
            element.text = self.before + self.opening + core + self.closing + self.after
            return
        section = etree.CDATA(self.opening + core + self.closing)
        if not (self.before or self.after):
            element.text = section
            return
        element.text = self.before or None
        etree.SubElement(element, CUT).tail = section
        etree.SubElement(element, CUT).tail = self.after or None
        etree.strip_elements(element, CUT, with_tail=False)


def cdata_text(element: etree._Element) -> CdataText | None:
    """How ``element``'s text is written, where it is all the element holds and one CDATA section
    with spaces alone around it (``<description>\\n  <![CDATA[<p>A dog.</p>]]>\\n</description>``);
    None for any other (plain text, several sections, an element inside).  A tree loses that on
    any change of the text (lxml writes an element's new text as one node): CdataText.write."""
    if len(element) or not element.text:
        return None
    found = CDATA_TEXT.fullmatch(inside(element))
    if found is None:
        return None
    return CdataText(found.group(1), *edges(found.group(2)), found.group(3))


def sections_text(element: etree._Element) -> CdataText | None:
    """How ``element``'s text is written where it is CDATA sections alone, with spaces, comments and
    processing instructions between and around them (an XLIFF source's ``<![CDATA[<b>A</b> dog]]><!--
    c --><![CDATA[ runs.]]>``): as cdata_text reads one section holding them all, the comments and
    instructions aside (the spaces before the first section and after the last outside it, those at
    its edges inside it); None for any other (plain text in it, an element)."""
    if any(isinstance(child.tag, str) for child in element) or not (element.text or len(element)):
        return None
    written, parts, at = inside(element), [], 0
    while at < len(written):
        found = SECTION_PARTS.match(written, at)
        if found is None:
            return None  # text outside the sections
        parts.append(found.group() if found.group(1) or found.group().isspace() else "")
        at = found.end()
    sections = [part[len("<![CDATA["):-len("]]>")] for part in parts if part.startswith("<![CDATA[")]
    if not sections:
        return None
    joined = "".join(parts)
    before, after = joined[:len(joined) - len(joined.lstrip())], joined[len(joined.rstrip()):]
    return CdataText(before, *edges("".join(sections)), after)


def edges(content: str) -> tuple[str, str]:
    """The spaces at the start and at the end of a CDATA section's ``content``, each counted once:
    a section of spaces alone has them at its start (``<![CDATA[   ]]>`` was written back with six)."""
    opening = content[:len(content) - len(content.lstrip())]
    return opening, content[len(opening) + len(content.strip()):]


def inside(element: etree._Element) -> str:
    """What ``element`` holds, as written (CDATA sections as sections)."""
    written = etree.tostring(element, encoding="unicode", with_tail=False)
    return written[written.index(">") + 1:written.rindex("</")]  # ">" in an attribute is written "&gt;"
