"""A picture's, a shape's or a chart's alt text: what a screen reader reads in its place, and what Word,
PowerPoint, Excel and LibreOffice show in their "Alt Text" pane.  In Office Open XML it is the ``descr`` (the
description) and ``title`` of a Word drawing's ``wp:docPr`` and of a DrawingML picture's, shape's, group's or
frame's ``cNvPr`` (``pic:``, ``p:``, ``xdr:``, ``wps:``, ...), and the ``alt`` and ``title`` of an old VML shape or
picture (``w:pict``'s ``v:shape``, which Word 2003 wrote and Word keeps in a .docx; a workbook's legacy
drawing's: attnmt.documents.vml_alt_texts); in OpenDocument, a frame's
or shape's ``svg:title`` and ``svg:desc`` elements.  Each is plain text, translated line by line, as a link's screen tip
is (validations.AttributeJob); the shape's ``name`` ("Picture 1"), which the selection pane lists and
animations and macros address, is kept.  A translated document whose alt text stayed in the source's
language reads one language on the page and another to a screen reader, and fails an accessibility check;
CAT tools' Word and PowerPoint filters (Trados's, memoQ's) offer alt text for translation so.

An alt text that is a picture's file name (``image.png``, ``C:\\Photos\\IMG 0042.JPG``), which older PowerPoint and Word
versions and python-pptx write when a picture is inserted, is no text to translate: it is kept (``FILE_NAME``).
A template's placeholders in alt text (``{{name}}``, ``${place}``, ``%s``: attnmt.documents.xml_dialects.PLACEHOLDER),
which the program filling the document looks for, pass through untranslated as a URL does (ALT_PROTECTED).

Office copies a drawing into a ``mc:Fallback`` for older readers: its alt text there is translated too, but
neither placed nor reviewed (FlatText.seen), as a text box's fallback copy is not."""

from __future__ import annotations

import re

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.comments import TextJob
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml_paragraphs import FALLBACK
from attnmt.documents.split_placeholders import PARAGRAPH_PROTECTED
from attnmt.documents.validations import AttributeJob
from attnmt.documents.xstring import text_in

VML = "urn:schemas-microsoft-com:vml"
# An old VML shape or picture (w:pict's v:shape, what Word 2003 wrote and Word keeps): its alt text is its ``alt``.
VML_SHAPES = tuple(f"{{{VML}}}{name}" for name in (
    "shape", "rect", "roundrect", "oval", "line", "polyline", "arc", "curve", "image", "group"))
# Word's drawing properties (wp:docPr), any DrawingML non-visual properties (a "{*}" tag: pic:, p:, xdr:, ...)
# and a VML shape
HOLDERS = ("{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}docPr", "{*}cNvPr", *VML_SHAPES)
# A picture's file name: one word, or a path, ending in a picture's extension ("image.png", "C:\\My Photos\\dog.jpg").
FILE_NAME = re.compile(r"(?i)(?:\S+|.*[\\/].*)\.(?:png|jpe?g|gif|bmp|tiff?|svg|emf|wmf|webp|heic)")
ALT_ATTRIBUTES = ("title", "descr")  # as the pane shows them: the title, then the description
VML_ALT_ATTRIBUTES = ("title", "alt")  # a VML shape's, the same two
SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
ALT_ELEMENTS = (f"{{{SVG}}}title", f"{{{SVG}}}desc")
# What an alt text passes through untranslated: URLs and the like, a template's placeholders (module docstring) and a
# name joined by "&", as a paragraph's text does.
ALT_PROTECTED = PARAGRAPH_PROTECTED


class AltTextJob(AttributeJob):
    """An Office Open XML alt text, its template's placeholders kept (ALT_PROTECTED)."""

    protected = ALT_PROTECTED


class SvgAltTextJob(TextJob):
    """An OpenDocument alt text (``svg:title``, ``svg:desc``), its template's placeholders kept (ALT_PROTECTED)."""

    protected = ALT_PROTECTED


def alt_text_jobs(root: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for each Office Open XML alt text in ``root`` that has words to translate, in document order (a
    Word or DrawingML part's follow their paragraphs: link_tips.with_link_tips)."""
    return [job for node in root.iter(*HOLDERS) for job in node_alt_texts(node, glossary)]


def node_alt_texts(node: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for each alt text of ``node`` (a ``wp:docPr``, a ``cNvPr`` or a VML shape) that has words to translate."""
    names = VML_ALT_ATTRIBUTES if node.tag in VML_SHAPES else ALT_ATTRIBUTES
    jobs: list[AttributeJob] = [AltTextJob(node, name, escaped=False) for name in names
            if needs_translation(node.get(name, ""), glossary) and not FILE_NAME.fullmatch(node.get(name, "").strip())]
    for job in jobs:
        if next(job.element.iterancestors(FALLBACK), None) is not None:  # a copy: translated, not listed twice
            for flat in job.flats():
                flat.seen = False
    return jobs


def svg_alt_text_jobs(elements: list[etree._Element], glossary: Glossary | None) -> list[TextJob]:
    """A job for each of the OpenDocument ``elements`` (``svg:title``, ``svg:desc``) that has words to translate."""
    return [SvgAltTextJob(element) for element in elements
            if needs_translation(text_in(element), glossary) and not FILE_NAME.fullmatch(text_in(element).strip())]
