"""A tracked deletion that an OpenDocument file holds in its paragraph, between the
``text:change-start`` and ``text:change-end`` of a ``text:deletion`` whose changed region holds no
words, moved into that region before its paragraph is read, as ODF keeps deleted words.

ODF keeps the words a tracked change deleted in ``text:tracked-changes``, in the ``text:deletion`` of
its changed region, and marks their place in the paragraph with one ``text:change``: there they are
kept as they were (attnmt.documents.opendocument.is_tracked_change).  LibreOffice 7.4 writes a flat
file's deletions (``.fodt``) in the paragraph instead, between the change's start and end, its
region's ``text:deletion`` empty, and reads them back so.  Read in the paragraph, the deleted words
went to the model with the words around them and came back translated, and the change's end, placed
by the alignment, took a translated word of the text with it (``A GIRL SWIMS. <start/>A BIRD
SINGSTHE <end/>DOG SLEEPS.``: accepted, the change deleted "THE").  Moved into the region as
LibreOffice writes them in an ``.odt``, they are kept; the paragraph holds one ``text:change``.  A
deletion whose start and end are not side by side in one element (one over a paragraph's end, or from
inside a span to outside it) stays where it is."""

from __future__ import annotations

from itertools import takewhile

from lxml import etree

from attnmt.documents.opendocument_code import OFFICE, PARAGRAPHS, TEXT

CHANGED_REGION = f"{{{TEXT}}}changed-region"
DELETION = f"{{{TEXT}}}deletion"
CHANGE_INFO = f"{{{OFFICE}}}change-info"
CHANGE_START, CHANGE_END, CHANGE = (f"{{{TEXT}}}change-start", f"{{{TEXT}}}change-end", f"{{{TEXT}}}change")
CHANGE_ID, REGION_ID = f"{{{TEXT}}}change-id", f"{{{TEXT}}}id"
STYLE_NAME = f"{{{TEXT}}}style-name"


def move_inline_deletions(root: etree._Element) -> bool:
    """Each deletion of ``root`` held in its paragraph moved into its empty ``text:deletion`` (the module
    docstring); whether any was."""
    empty = {region.get(REGION_ID): deletion for region in root.iter(CHANGED_REGION)
             for deletion in region.iterchildren(DELETION) if holds_no_words(deletion)}
    moved = False
    for start in list(root.iter(CHANGE_START)):
        deletion = empty.get(start.get(CHANGE_ID))
        end = next((node for node in start.itersiblings(CHANGE_END) if node.get(CHANGE_ID) == start.get(CHANGE_ID)),
                   None)
        if deletion is not None and end is not None:
            move_between(start, end, deletion)
            moved = True
    return moved


def holds_no_words(deletion: etree._Element) -> bool:
    """Whether a ``text:deletion`` holds nothing but its ``office:change-info``."""
    return all(not isinstance(child.tag, str) or child.tag == CHANGE_INFO for child in deletion)


def move_between(start: etree._Element, end: etree._Element, deletion: etree._Element) -> None:
    """What stands between ``start`` and ``end`` (siblings) moved into a paragraph of ``deletion``, in the
    style of the paragraph that held it, and the two replaced by one ``text:change`` at their place."""
    holder = next(start.iterancestors(*PARAGRAPHS), None)
    paragraph = etree.SubElement(deletion, f"{{{TEXT}}}p")
    if holder is not None and holder.get(STYLE_NAME) is not None:
        paragraph.set(STYLE_NAME, holder.get(STYLE_NAME))
    paragraph.text = start.tail
    paragraph.extend(list(takewhile(lambda node: node is not end, start.itersiblings())))  # each with its tail
    change = etree.Element(CHANGE, {CHANGE_ID: start.get(CHANGE_ID)})
    change.tail = end.tail
    start.getparent().replace(start, change)
    end.getparent().remove(end)
