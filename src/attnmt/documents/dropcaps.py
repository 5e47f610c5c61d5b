"""Word's drop caps, read with the words they begin.

Word's Insert > Drop Cap puts the first letter (or letters) of a paragraph into a paragraph of its
own, framed (``w:pPr/w:framePr w:dropCap="drop"`` or ``"margin"``), right before the paragraph
with the rest of the word: "T" then "wo dogs are running."  Read apart, the letter was a sentence
of its own (the model invented one for "T") and the rest lost its first word.  So the letters are
moved to the start of the next paragraph before it is read, and once it is translated, as many of
its leading characters as the frame held go back into the frame: "Z" then "wei Hunde laufen."
A paragraph with no words ("1" then "984"), which is not translated, gives them back as they were.

Files Word has edited mark spelling errors, bookmarks (its "_GoBack"), comments' ranges and other
ranges with empty elements between runs (MARKERS): they hold no text, so the letters are looked
for past them, in the frame and in the paragraph after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from attnmt.documents.wordml import W, w
from attnmt.documents.xstring import replace_text, text_in

DROP_CAPS = ("drop", "margin")  # w:dropCap's values that make a drop cap ("none" does not)
# Empty elements that mark a place or a range's ends between runs, and Word's note of where a page
# ended when it last laid the text out (inside a run): no text, nothing a reader sees.
MARKERS = frozenset(f"{{{W}}}{name}" for name in (
    "proofErr", "bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "permStart", "permEnd",
    "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd",
    "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart", "customXmlDelRangeEnd",
    "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd", "customXmlMoveToRangeStart",
    "customXmlMoveToRangeEnd", "lastRenderedPageBreak"))


@dataclass
class DropCap:
    """The text elements of a drop cap's frame, emptied while its letters are read with the next paragraph."""

    texts: list[etree._Element]
    lengths: list[int]  # how many characters each text element held

    def put_back(self, paragraph: etree._Element) -> None:
        """The first characters of ``paragraph``'s text, as many as the frame held, moved into the
        frame: into its text elements as many as each held, so that each run keeps its formatting
        ("T" plain, "w" italic: "Z" plain, "w" italic, not "Zw" plain and an empty italic run)."""
        letters, count = "", sum(self.lengths)
        for text in paragraph.iter(w("t")):
            taken = (text.text or "")[:count - len(letters)]
            letters += taken
            text.text = (text.text or "")[len(taken):]
            if len(letters) == count:
                break
        start = 0
        for text, length in zip(self.texts, self.lengths, strict=True):
            text.text = letters[start:start + length]
            start += length


def join_drop_caps(root: etree._Element) -> dict[etree._Element, DropCap]:
    """Each paragraph under ``root`` that a drop cap begins -> that drop cap, its letters moved to
    the paragraph's start (the module docstring).  A frame of anything but plain runs of text, or
    one not followed by a paragraph starting with a run of text (a framed one is none), is left as
    it is."""
    joined = {}
    for frame in root.iter(w("framePr")):
        paragraph = frame.getparent().getparent()
        after = next((node for node in paragraph.itersiblings() if node.tag not in MARKERS), None)
        if (frame.get(w("dropCap")) not in DROP_CAPS or paragraph.tag != w("p") or after is None
                or after.tag != w("p") or after.find(f"{w('pPr')}/{w('framePr')}") is not None):
            continue  # (a frame after a frame: the first would pass its letters to the second, and lose them)
        first = first_text(after)
        runs = [child for child in paragraph if child.tag != w("pPr") and child.tag not in MARKERS]
        texts = [part for run in runs for part in run if part.tag != w("rPr") and part.tag not in MARKERS]
        if first is None or not texts or any(run.tag != w("r") for run in runs) or any(
                part.tag != w("t") for part in texts):
            continue
        letters = [text_in(text) for text in texts]
        for text in texts:
            replace_text(text, "")
        first.text = "".join(letters) + (first.text or "")
        joined[after] = DropCap(texts, [len(each) for each in letters])
    return joined


def first_text(paragraph: etree._Element) -> etree._Element | None:
    """The text element of ``paragraph``'s first run where that run starts with text (no field, tab
    or picture before it; MARKERS are passed over), else None."""
    run = next((child for child in paragraph if child.tag != w("pPr") and child.tag not in MARKERS), None)
    parts = [] if run is None or run.tag != w("r") else [part for part in run
                                                         if part.tag != w("rPr") and part.tag not in MARKERS]
    return parts[0] if parts and parts[0].tag == w("t") else None
