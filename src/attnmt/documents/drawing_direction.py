"""The direction a translated DrawingML paragraph (a slide's, a note's, a chart's) is written in:
the target language's (attnmt.documents.language.direction, as Word's paragraphs and an HTML
block's ``dir`` take it).  A paragraph says it in its properties' ``rtl`` (``<a:pPr rtl="1">``),
or takes it from the list styles above it: its shape's (``a:lstStyle``), its placeholder's on the
layout and the master, the master's ``p:txStyles`` (a note's: the notes master's ``p:notesStyle``)
and the presentation's ``p:defaultTextStyle``, each by the paragraph's level (``a:lvl1pPr`` for
``lvl="0"``, ``a:defPPr`` for every level).  Its alignment (``algn``) is left as it is: it is where
the lines stand, which the author chose, not the order the words are read in."""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from attnmt.documents.language import direction
from attnmt.documents.ooxml_dialects import DRAWING, a
from attnmt.documents.ooxml_language import own_runs, properties

# Where a paragraph whose list styles may lay it out right to left is marked so, from when its
# part is read (mark_styled_direction) until it is written (forget_styled_direction), as
# ooxml_language.STATED keeps the language a run stated.
STYLED_RTL = "attnmt-styled-rtl"
LEVELS = range(1, 10)  # a paragraph's lvl 0 to 8: the list styles' a:lvl1pPr to a:lvl9pPr
ON = ("1", "true")  # an XML Schema boolean that is on


def rtl_levels(roots: Iterable[etree._Element]) -> frozenset[int]:
    """The levels (1 to 9) for which a list style in ``roots`` (a presentation's slide masters and
    layouts, or its notes master, and its presentation.xml) lays paragraphs out right to left
    (``a:lvl2pPr rtl="1"``; an ``a:defPPr`` that does so, every level).  Which of them a paragraph
    of a slide or a note takes depends on its placeholder; any that says so for its level may, so
    it is said again on the paragraph."""
    levels: set[int] = set()
    for root in roots:
        for level in LEVELS:
            if any(found.get("rtl") in ON for found in root.iter(a(f"lvl{level}pPr"))):
                levels.add(level)
        if any(found.get("rtl") in ON for found in root.iter(a("defPPr"))):
            levels.update(LEVELS)
    return frozenset(levels)


def mark_styled_direction(root: etree._Element, levels: frozenset[int]) -> None:
    """Each paragraph of a part whose list styles may lay it out right to left marked so
    (STYLED_RTL): its shape's list style where that says, for its level, whether (it is nearer than
    any other), else ``levels``, those the presentation's masters and layouts may (rtl_levels)."""
    for paragraph in root.iter(DRAWING.paragraph):
        level = paragraph_level(paragraph)
        shape = paragraph.getparent().find(a("lstStyle"))
        said = None if shape is None else next(
            (found.get("rtl") for found in (shape.find(a(f"lvl{level}pPr")), shape.find(a("defPPr")))
             if found is not None and found.get("rtl") is not None), None)
        if (said in ON) if said is not None else level in levels:
            paragraph.set(STYLED_RTL, "1")


def paragraph_level(paragraph: etree._Element) -> int:
    """A paragraph's list level as its list styles number them: 1 for ``lvl="0"`` or none."""
    stated = paragraph.find(a("pPr"))
    lvl = "0" if stated is None else stated.get("lvl", "0")
    return int(lvl) + 1 if lvl.isdecimal() and int(lvl) + 1 in LEVELS else 1


def forget_styled_direction(root: etree._Element) -> None:
    """What mark_styled_direction marked taken out again before the part is written."""
    for paragraph in root.iter(DRAWING.paragraph):
        paragraph.attrib.pop(STYLED_RTL, None)


def set_drawing_direction(paragraph: etree._Element, language: str, tables_done: set[etree._Element]) -> None:
    """A translated DrawingML paragraph laid out in ``language``'s direction.  Into a right-to-left
    language it says ``rtl="1"``.  Into another its own ``rtl`` that is on is taken out, or turned
    off (``rtl="0"``) where its list styles may lay it out right to left (STYLED_RTL), and one
    added there where it has none: an Arabic slide translated into German was still set from the
    right.  A run, or the paragraph's mark, that says it is right to left (``<a:rtl/>`` in its
    properties) no longer does.  The table holding it takes its direction, once: ``tables_done``
    holds those settled before."""
    rtl = direction(language) == "rtl"
    own = paragraph.find(a("pPr"))
    said = None if own is None else own.get("rtl")
    styled = paragraph.get(STYLED_RTL) is not None
    if rtl and said not in ON:
        properties(paragraph, a("pPr")).set("rtl", "1")
    elif not rtl and (said in ON if said is not None else styled):
        settled = properties(paragraph, a("pPr"))
        if styled:
            settled.set("rtl", "0")
        else:
            del settled.attrib["rtl"]
            if not len(settled) and not settled.attrib:  # <a:pPr rtl="1"/>: nothing left to say
                paragraph.remove(settled)
    if not rtl:
        marks = [run.find(f"{a('rPr')}/{a('rtl')}") for run in own_runs(paragraph, DRAWING)]
        for mark in [*marks, paragraph.find(f"{a('endParaRPr')}/{a('rtl')}")]:
            if mark is not None and mark.get("val", "1") in ON:  # a:rtl without val is on
                mark.getparent().remove(mark)
    table = next(paragraph.iterancestors(a("tbl")), None)
    if table is not None and table not in tables_done:
        set_table_direction(table, rtl)
        tables_done.add(table)


def set_table_direction(table: etree._Element, rtl: bool) -> None:
    """A table holding a translated paragraph laid out in its direction: its first column on the
    right (``<a:tblPr rtl="1">``) for a right-to-left language, else on the left (an ``rtl`` that
    is on taken out: off is its default, and no table style says otherwise)."""
    own = table.find(a("tblPr"))
    if rtl:
        properties(table, a("tblPr")).set("rtl", "1")
    elif own is not None and own.get("rtl") in ON:
        del own.attrib["rtl"]
