"""Code in an OpenDocument paragraph, told by its look as in an Office file (attnmt.documents.code_look):
a span or a link in a character style meant for code (LibreOffice's "Source Text": code_look.CODE_STYLES),
or in a monospaced font (code_look.MONOSPACED: Liberation Mono, Courier New) beside letters of its
paragraph in another font, is kept whole by attnmt.documents.opendocument, an atom as HTML's inline
``<code>`` is: read as words, the command was translated and lost.  A paragraph in a paragraph
style meant for code ("Preformatted Text", what LibreOffice makes of HTML's ``<pre>``) is kept whole,
not translated.  A font alone makes code only inline: a paragraph all in a monospaced font, its
style's or each of its spans', is words (a screenplay in Courier).

A look comes from styles.  A paragraph's ``text:style-name`` names a style of family ``paragraph``,
a span's or a link's one of family ``text``: an automatic style of the part (content.xml's, or
styles.xml's for its headers and footers), else a named one of styles.xml; each with the styles it
is based on (``style:parent-style-name``).  A paragraph's look is the document's default
(``style:default-style``) under its style's; a span's is its paragraph's under the styles of the
marks around it and its own.  A style's names are its ``style:display-name`` and its
``style:name``, in which ODF writes a space as ``_20_`` ("Source_20_Text").  A layer's font is the
one its ``style:text-properties`` names: ``style:font-name``, a ``style:font-face`` whose
``svg:font-family`` is the family (a font face named is the one used, say ODF and CSS, whatever
``fo:font-family`` beside it says), else the first family of ``fo:font-family``.  A slide's shape
style and a cell's style are not read: a text's font there is its paragraph's and spans' alone.

The namespaces of the elements read here, and the marks of a paragraph (MARKS), live here, below
attnmt.documents.opendocument, which imports them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from attnmt.documents.code_look import is_code_style, is_monospaced
from attnmt.documents.flat import has_words

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
LOEXT = "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
PARAGRAPHS = (f"{{{TEXT}}}p", f"{{{TEXT}}}h")
# Marks around words, kept with their attributes: a span, a link, a text:meta (RDF metadata over
# words), LibreOffice's content control (what a .docx's w:sdt becomes: a check box, a form's field),
# and a text input field (text:text-input, what Word's FILLIN field becomes: text someone typed in, as
# attnmt.documents.fields reads Word's; every other field is an atom).
MARKS = frozenset({f"{{{TEXT}}}span", f"{{{TEXT}}}a", f"{{{TEXT}}}meta", f"{{{LOEXT}}}content-control",
                   f"{{{TEXT}}}text-input"})
# Where styles.xml keeps what every part's styles may name: the named styles, the font faces.
NAMED = (f"{{{OFFICE}}}styles", f"{{{OFFICE}}}font-face-decls")
STYLE_NAME = f"{{{TEXT}}}style-name"
ENCODED = re.compile(r"_([0-9A-Fa-f]{2})_")  # a character ODF's style:name cannot hold, by its code: _20_ a space


@dataclass
class CodeLooks:
    """The styles of one part (family and ``style:name`` -> its ``style:style``), the default style
    of each family, the family of each font face (by its ``style:name``), and, once asked, whether
    each paragraph has prose (has_prose)."""

    styles: dict[tuple[str | None, str | None], etree._Element]
    defaults: dict[str | None, etree._Element]
    fonts: dict[str | None, str]
    prose: dict[etree._Element, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, part: etree._Element, shared: etree._Element | None) -> CodeLooks:
        """The looks of the paragraphs of ``part`` (the root of content.xml, of styles.xml, of a
        chart's content.xml), ``shared`` the root of the styles.xml beside it (None: none); the
        part's own automatic styles are the ones its paragraphs name."""
        holders = [] if shared is None else list(shared.iterchildren(*NAMED))
        holders += part.iterchildren(*NAMED, f"{{{OFFICE}}}automatic-styles")
        styles, defaults, fonts = {}, {}, {}
        for element in (element for holder in holders for element in holder):
            family, name = element.get(f"{{{STYLE}}}family"), element.get(f"{{{STYLE}}}name")
            if element.tag == f"{{{STYLE}}}style":
                styles[family, name] = element
            elif element.tag == f"{{{STYLE}}}default-style":
                defaults[family] = element
            elif element.tag == f"{{{STYLE}}}font-face":
                fonts[name] = first_family(element.get(f"{{{SVG}}}font-family") or name or "")
        return cls(styles, defaults, fonts)

    def is_code_paragraph(self, paragraph: etree._Element) -> bool:
        """Whether ``paragraph`` is in a paragraph style meant for code, or one based on one."""
        return self.look(paragraph, ())[0]

    def is_code(self, mark: etree._Element) -> bool:
        """Whether ``mark`` (a span, a link) is code: each of its texts is in a style meant for code,
        or in a monospaced font not its paragraph's beside letters in a font that is not (has_prose)."""
        paragraph = next(mark.iterancestors(*PARAGRAPHS), None)
        if paragraph is None:  # a presentation's declaration: plain text
            return False
        around: list[etree._Element] = []  # the marks around it in its paragraph, outermost first
        for ancestor in mark.iterancestors():
            if ancestor is paragraph:
                break
            if ancestor.tag in MARKS:
                around.insert(0, ancestor)
        looks = [self.look(paragraph, marks) for text, marks in texts(mark, tuple(around)) if text.strip()]
        return bool(looks) and all(styled or (monospaced and self.has_prose(paragraph)) for styled, monospaced in looks)

    def has_prose(self, paragraph: etree._Element) -> bool:
        """Whether ``paragraph`` has letters in a look not code's: neither a code style's nor a monospaced font's."""
        if paragraph not in self.prose:
            self.prose[paragraph] = any(has_words(text) and not any(self.look(paragraph, marks))
                                        for text, marks in texts(paragraph, ()))
        return self.prose[paragraph]

    def look(self, paragraph: etree._Element, marks: tuple[etree._Element, ...]) -> tuple[bool, bool]:
        """(styled, monospaced) of text in ``marks`` (outermost first) of ``paragraph``: whether a
        style of its look is meant for code, and whether its font is monospaced and not the
        paragraph's own (a heading whose style is in Liberation Mono is in its own font, not code's)."""
        body = [self.defaults.get("paragraph"), *self.chain("paragraph", paragraph.get(STYLE_NAME))]
        layers = body + [style for mark in marks for style in self.chain("text", mark.get(STYLE_NAME))]
        font, own = self.font(layers), self.font(body)
        return (any(is_code_style(name) for layer in layers if layer is not None for name in style_names(layer)),
                font is not None and is_monospaced(font) and (own is None or font.casefold() != own.casefold()))

    def chain(self, family: str, name: str | None) -> list[etree._Element]:
        """Style ``name`` of ``family`` and the styles it is based on, the furthest first (a loop of
        ``style:parent-style-name`` is followed once round)."""
        lineage: list[etree._Element] = []
        style = self.styles.get((family, name))
        while style is not None and style not in lineage:
            lineage.insert(0, style)
            style = self.styles.get((family, style.get(f"{{{STYLE}}}parent-style-name")))
        return lineage

    def font(self, layers: list[etree._Element | None]) -> str | None:
        """The font the last of ``layers`` (weakest first) that names one names; None where none does."""
        found = None
        for layer in layers:
            properties = None if layer is None else layer.find(f"{{{STYLE}}}text-properties")
            if properties is None:
                continue
            face, family = properties.get(f"{{{STYLE}}}font-name"), properties.get(f"{{{FO}}}font-family")
            if face is not None:
                found = self.fonts.get(face, face)
            elif family:
                found = first_family(family)
        return found


def texts(node: etree._Element, around: tuple[etree._Element, ...]) -> Iterator[tuple[str, tuple[etree._Element, ...]]]:
    """Each text of ``node`` (a paragraph or a mark in one, ``around`` the marks it is in, outermost
    first) with the marks it is in: its own, its marks', the text after each child; not the text
    inside an atom (a note, a field, a frame)."""
    inside = (*around, node) if node.tag in MARKS else around
    yield node.text or "", inside
    for child in node:
        if child.tag in MARKS:
            yield from texts(child, inside)
        yield child.tail or "", inside


def style_names(style: etree._Element) -> list[str]:
    """A style's display name and its name, decoded (``Source_20_Text`` is "Source Text")."""
    names = [style.get(f"{{{STYLE}}}display-name"), style.get(f"{{{STYLE}}}name")]
    return [ENCODED.sub(lambda code: chr(int(code.group(1), 16)), name) for name in names if name]


def first_family(families: str) -> str:
    """The first family of a font-family list, unquoted: ``'Courier New', monospace`` is "Courier New"."""
    return families.split(",")[0].strip().strip("'\"")
