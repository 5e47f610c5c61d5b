"""The alt text of a shape in a workbook's legacy drawing (``xl/drawings/vmlDrawing1.vml``): a form
control's, a comment's box's, a picture's, what Excel's "Alt Text" pane shows and a screen reader
reads, kept in the VML shape's ``alt`` and ``title`` attributes::

    <v:shape id="_x0000_s1025" type="#_x0000_t201" alt="Sends the monthly report" ...>

VML is not XML to every writer (attnmt.documents.sheet_buttons: the drawing is never parsed), so each
shape's start tag is found in the drawing's bytes, and each attribute's value read as an alt text is
(attnmt.documents.alt_texts: line by line, a picture's file name and a template's placeholders kept)
and written back in place, in the quotes it had, entities for what is not ASCII and for a line's end
(which a parser reads as a space in an attribute).  Every other byte is kept."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.alt_texts import VML, node_alt_texts
from attnmt.documents.validations import AttributeJob

# a VML shape's start tag (alt_texts.VML_SHAPES' names), and an alt text's attribute in it: its name, its value
SHAPE_START = re.compile(rb"<v:(?:shape|rect|roundrect|oval|line|polyline|arc|curve|image|group)\b[^>]*>")
ATTRIBUTE = re.compile(rb"""\s(alt|title)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
LINE_ENDS = str.maketrans({"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def decoded(text: bytes) -> str:
    """An attribute's bytes as text: UTF-8, else Windows-1252 (sheet_buttons.decoded), its references read."""
    try:
        return html.unescape(text.decode("utf-8"))
    except UnicodeDecodeError:
        return html.unescape(text.decode("cp1252", errors="replace"))


@dataclass
class VmlAltText:
    """One alt text's value, ``data[start:end]`` of its drawing, and its ``job`` (over a stand-in shape)."""

    start: int
    end: int
    job: AttributeJob

    def written(self) -> bytes:
        text = html.escape(self.job.written(), quote=True).translate(LINE_ENDS)
        return text.encode("ascii", errors="xmlcharrefreplace")


def vml_alt_texts(data: bytes, glossary: Glossary | None) -> list[VmlAltText]:
    """Each alt text with words to translate of the shapes in the drawing ``data``, in the drawing's order."""
    found = []
    for shape in SHAPE_START.finditer(data):
        spans = {match.group(1).decode(): match.span(2) if match.group(2) is not None else match.span(3)
                 for match in ATTRIBUTE.finditer(shape.group())}
        stand_in = etree.Element(f"{{{VML}}}shape", {name: decoded(shape.group()[start:end])
                                                     for name, (start, end) in spans.items()})
        for job in node_alt_texts(stand_in, glossary):
            start, end = spans[job.name]
            found.append(VmlAltText(shape.start() + start, shape.start() + end, job))
    return sorted(found, key=lambda alt: alt.start)
