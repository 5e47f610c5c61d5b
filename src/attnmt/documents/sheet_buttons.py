"""A worksheet's form controls' captions: a button's "Send the report", a check box's, an option
button's, a label's, a group box's, which Excel keeps in the sheet's legacy drawing
(``xl/drawings/vmlDrawing1.vml``) as the text of a VML shape's text box::

    <v:shape ... o:button="t"><v:textbox ...><div style="text-align:center"><font face="Calibri"
    size="220">Send the report</font></div></v:textbox><x:ClientData ObjectType="Button">...

VML is not XML to every writer: Excel writes ``<br>`` unclosed in a text box, and attributes in
single quotes, so the drawing is never parsed.  Each paragraph of a form control's text box (CONTROLS,
by its ``x:ClientData ObjectType``), the text between two of its ``<div>`` or ``<p>`` tags, is
translated as one text, its spaces at its edges kept: a caption Excel writes in several runs ("Send
the <font ...><b>report</b></font>") is one sentence, each run's tags (``<font>``, ``<b>``, ``<i>``,
``<u>``, ...: INLINE) a mark over its words, a ``<br>`` or any other tag an atom, as HTML's are.  Read
a run at a time, the model was given "Send the" and "report" apart, sentence fragments it translated
each on its own.  A paragraph whose tags do not nest (a run's end tag where another's is due) is
read a text at a time, as it was.  The translation is written back in place, entities for what is
not ASCII (``&#233;``, right in any encoding the drawing is in); every other byte is kept.  A note's
shape (``ObjectType="Note"``) is left alone: its text is the cell comment's, read from
``commentsN.xml`` (attnmt.documents.comments)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Part
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.spans import Nested
from attnmt.documents.vml_alt_texts import vml_alt_texts

VML_DRAWING = "vmlDrawing"  # how a legacy drawing's content type ends
SHAPE = re.compile(rb"<v:shape\b.*?</v:shape>", re.DOTALL)
CONTROLS = re.compile(rb"""<x:ClientData\s+ObjectType\s*=\s*["'](?:Button|Checkbox|Radio|Label|GBox)["']""")
TEXT_BOX = re.compile(rb"(<v:textbox\b[^>]*>)(.*?)</v:textbox>", re.DOTALL)
TOKEN = re.compile(rb"<[^>]*>|[^<]+")  # a tag, or the text between two
TAG_NAME = re.compile(rb"<\s*(/?)\s*([\w:]*)")  # whether it ends an element, and the element's name
PARAGRAPHS = frozenset({b"div", b"p"})  # a text box's paragraphs: each read as one text
INLINE = frozenset({b"font", b"b", b"i", b"u", b"s", b"strike", b"span", b"sup", b"sub", b"em", b"strong"})


class Unnested(ValueError):
    """A paragraph's run tags do not nest: it is read a text at a time (caption_jobs)."""


class CaptionJob:
    """One paragraph of a control's text box, its ``tokens`` (``data[start:end]``, as the drawing writes it):
    its texts read as one, a run's tags (INLINE) a mark over its words, any other tag an atom."""

    def __init__(self, tokens: Sequence[re.Match[bytes]]) -> None:
        self.start, self.end = tokens[0].start(), tokens[-1].end()
        self.tags: list[bytes] = []  # each mark's start tag, or atom's tag, by its node (its number)
        self.closing: dict[int, bytes] = {}  # each mark's end tag, by its node
        names: list[bytes] = []  # the names of the runs open
        builder = FlatBuilder(collapse=False)
        for token in tokens:
            text = token.group()
            if not text.startswith(b"<"):
                builder.add_text(html.unescape(decoded(text)))
                continue
            found = TAG_NAME.match(text)
            closing, name = (found.group(1), found.group(2).lower()) if found else (b"", b"")
            if name in INLINE and closing:
                if not names or names.pop() != name:
                    raise Unnested
                self.closing[builder.marks[builder.open_marks[-1]].node] = text
                builder.close()
                continue
            self.tags.append(text)
            if name in INLINE and not text.endswith(b"/>"):
                names.append(name)
                builder.open(len(self.tags) - 1, keeps_edge_spaces=True)  # its spaces are its text, in its look
            else:
                builder.add_atom(node=len(self.tags) - 1, parts_words=name == b"br", line_break=name == b"br")
        if names:
            raise Unnested
        self.flat = builder.build()
        self.source = b"".join(token.group() for token in tokens)
        self.content: Sequence[str | Nested] | None = None  # its translation, once finished

    def flats(self) -> list[FlatText]:
        return [self.flat]

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        self.content = results[0]

    def written(self) -> bytes:
        return self.source if self.content is None else self._written(self.content)

    def _written(self, content: Sequence[str | Nested]) -> bytes:
        pieces = []
        for piece in content:
            if isinstance(piece, str):
                pieces.append(html.escape(piece, quote=False).encode("ascii", errors="xmlcharrefreplace"))
                continue
            mark = self.flat.marks[piece.mark]
            pieces.append(self.tags[mark.node] if mark.atom else
                          self.tags[mark.node] + self._written(piece.content) + self.closing[mark.node])
        return b"".join(pieces)


class Edit(Protocol):
    """A stretch of a drawing's bytes, ``data[start:end]``, and what is written in its place."""

    start: int
    end: int

    def written(self) -> bytes: ...


@dataclass
class VmlPart(Part):
    """A legacy drawing (its bytes, ``data``) with ``captions`` and alt texts (attnmt.documents.vml_alt_texts) to
    translate, written again as its bytes with each replaced: ``jobs`` are let go as they finish
    (office.translate_jobs), the captions kept."""

    data: bytes = field(kw_only=True)
    captions: Sequence[Edit] = field(kw_only=True)

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
    """A job for each paragraph with words in a form control's text box in the drawing ``data``; for each
    text with words of a paragraph whose run tags do not nest."""
    jobs = []
    for shape in SHAPE.finditer(data):
        if not CONTROLS.search(shape.group()):
            continue
        for box in TEXT_BOX.finditer(data, shape.start(), shape.end()):
            for tokens in paragraphs(data, box.start(2), box.end(2)):
                jobs += [job for job in paragraph_jobs(tokens) if needs_translation(job.flat.text, glossary)]
    return jobs


def paragraphs(data: bytes, start: int, end: int) -> list[list[re.Match[bytes]]]:
    """The tokens of each paragraph of a text box's ``data[start:end]``: those between its paragraphs' tags."""
    found: list[list[re.Match[bytes]]] = [[]]
    for token in TOKEN.finditer(data, start, end):
        name = TAG_NAME.match(token.group())
        if name is not None and name.group(2).lower() in PARAGRAPHS:
            found.append([])
        else:
            found[-1].append(token)
    return [tokens for tokens in found if tokens]


def paragraph_jobs(tokens: Sequence[re.Match[bytes]]) -> list[CaptionJob]:
    """The job of a paragraph's ``tokens``; where its run tags do not nest, one for each of its texts."""
    try:
        return [CaptionJob(tokens)]
    except Unnested:
        return [CaptionJob([token]) for token in tokens if not token.group().startswith(b"<")]


def button_parts(archive: Archive, kinds: dict[str, str], glossary: Glossary | None) -> list[Part]:
    """A part for each of a workbook's legacy drawings (``kinds``: each member's content type) with captions or alt
    texts."""
    parts: list[Part] = []
    for member, kind in kinds.items():
        if kind.endswith(VML_DRAWING) and member in archive:
            data = archive.read(member)
            captions, alt_texts = caption_jobs(data, glossary), vml_alt_texts(data, glossary)
            if captions or alt_texts:
                edits: list[Edit] = sorted([*captions, *alt_texts], key=lambda edit: edit.start)
                parts.append(VmlPart(member, etree.ElementTree(etree.Element("vml")),
                                     [*captions, *(alt.job for alt in alt_texts)], data=data, captions=edits))
    return parts
