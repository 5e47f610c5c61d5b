"""A worksheet's form controls' captions: a button's "Send the report", a check box's, an option
button's, a label's, a group box's, which Excel keeps in the sheet's legacy drawing
(``xl/drawings/vmlDrawing1.vml``) as the text of a VML shape's text box::

    <v:shape ... o:button="t"><v:textbox ...><div style="text-align:center"><font face="Calibri"
    size="220">Send the report</font></div></v:textbox><x:ClientData ObjectType="Button">...

VML is not XML to every writer: Excel writes ``<br>`` unclosed in a text box, and attributes in
single quotes, so the drawing is never parsed.  Each text between the tags of a form control's text
box (CONTROLS, by its ``x:ClientData ObjectType``) is translated, its spaces at its edges kept, and
written back in place, entities for what is not ASCII (``&#233;``, right in any encoding the drawing
is in); every other byte is kept.  A note's shape (``ObjectType="Note"``) is left alone: its text is
the cell comment's, read from ``commentsN.xml`` (attnmt.documents.comments)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Part
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.spans import Nested, plain

VML_DRAWING = "vmlDrawing"  # how a legacy drawing's content type ends
SHAPE = re.compile(rb"<v:shape\b.*?</v:shape>", re.DOTALL)
CONTROLS = re.compile(rb"""<x:ClientData\s+ObjectType\s*=\s*["'](?:Button|Checkbox|Radio|Label|GBox)["']""")
TEXT_BOX = re.compile(rb"(<v:textbox\b[^>]*>)(.*?)</v:textbox>", re.DOTALL)
TOKEN = re.compile(rb"<[^>]*>|[^<]+")  # a tag, or the text between two


class CaptionJob:
    """One text of a control's text box (``data[start:end]``, as the drawing writes it), its edge spaces kept."""

    def __init__(self, data: bytes, start: int, end: int) -> None:
        self.start, self.end = start, end
        text = html.unescape(decoded(data[start:end]))
        core = text.strip()
        self.before, self.after = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
        builder = FlatBuilder(collapse=False)
        builder.add_text(core)
        self.flat, self.translated = builder.build(), core

    def flats(self) -> list[FlatText]:
        return [self.flat]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        self.translated = plain(results[0])

    def written(self) -> bytes:
        text = self.before + self.translated + self.after
        return html.escape(text, quote=False).encode("ascii", errors="xmlcharrefreplace")


@dataclass
class VmlPart(Part):
    """A legacy drawing (its bytes, ``data``) with ``captions`` to translate, written again as its bytes with
    each caption replaced: ``jobs`` are let go as they finish (office.translate_jobs), the captions kept."""

    data: bytes = field(kw_only=True)
    captions: list[CaptionJob] = field(kw_only=True)

    def written(self, original: bytes) -> bytes:
        pieces, position = [], 0
        for job in self.captions:  # in the drawing's order
            pieces += [self.data[position:job.start], job.written()]
            position = job.end
        return b"".join([*pieces, self.data[position:]])


def decoded(text: bytes) -> str:
    """A caption's bytes as text: UTF-8, or, where they are not, Windows-1252, in which older writers wrote
    VML without saying so (each byte a character: "é" as 0xE9, which UTF-8 read as a replacement character)."""
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError:
        return text.decode("cp1252", errors="replace")


def caption_jobs(data: bytes, glossary: Glossary | None) -> list[CaptionJob]:
    """A job for each text with words in a form control's text box in the drawing ``data``."""
    jobs = []
    for shape in SHAPE.finditer(data):
        if not CONTROLS.search(shape.group()):
            continue
        for box in TEXT_BOX.finditer(data, shape.start(), shape.end()):
            for token in TOKEN.finditer(data, box.start(2), box.end(2)):
                if not token.group().startswith(b"<"):
                    job = CaptionJob(data, token.start(), token.end())
                    if needs_translation(job.flat.text, glossary):
                        jobs.append(job)
    return jobs


def button_parts(archive: Archive, kinds: dict[str, str], glossary: Glossary | None) -> list[Part]:
    """A part for each of a workbook's legacy drawings (``kinds``: each member's content type) with captions."""
    parts: list[Part] = []
    for member, kind in kinds.items():
        if kind.endswith(VML_DRAWING) and member in archive:
            data = archive.read(member)
            jobs = caption_jobs(data, glossary)
            if jobs:
                parts.append(VmlPart(member, etree.ElementTree(etree.Element("vml")), list(jobs), data=data,
                                     captions=jobs))
    return parts
