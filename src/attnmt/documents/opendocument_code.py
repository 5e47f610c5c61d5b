"""Code in an OpenDocument paragraph, told by its look as in an Office file (attnmt.documents.code_look):
a span or a link in a character style meant for code (LibreOffice's "Source Text": code_look.CODE_STYLES),
or in a monospaced font (code_look.MONOSPACED: Liberation Mono, Courier New) beside letters of its
paragraph in another font, is kept whole by attnmt.documents.opendocument, an atom as HTML's inline
``<code>`` is: read as words, the command was translated and lost.  A paragraph in a paragraph
style meant for code ("Preformatted Text", what LibreOffice makes of HTML's ``<pre>``) is kept whole,
not translated.  A span's style that says its text is in no language (``fo:language="zxx"``, LibreOffice's
"[None]": language.says_no_words) is one meant for code; a paragraph's style's or the default style's
is not (LibreOffice's "[None]" default language writes it there for a document of words), and a span
that states a language of its own inside such a paragraph is in it.  ``fo:language`` is the language
of Latin text: a zxx span of Chinese or Arabic is words (code_look.latin_letters_only).  A font alone
makes code only inline: a paragraph all in a monospaced font, its style's or each of its spans', is
words (a screenplay in Courier).

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

The same looks tell hidden text (``text:display="none"`` in a layer's text properties, LibreOffice's
Font Effects > Hidden, what a .docx's ``w:vanish`` becomes; the last layer that names a display wins).
Only "none" hides text whatever the reader does; "true" shows it, and "condition" hides it under a
``text:condition``, which is not worked out here, so such text is read as shown.  A span all hidden
in a paragraph a reader sees words of is an editor's note, kept whole by attnmt.documents.opendocument
as a hidden Word run is (is_hidden).

The namespaces of the elements read here, and the marks of a paragraph (MARKS), live here, below
attnmt.documents.opendocument, which imports them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from lxml import etree

from attnmt.documents.code_look import is_code_style, is_monospaced, is_symbol_font, is_wordless
from attnmt.documents.flat import has_words
from attnmt.documents.formatting import is_positive
from attnmt.documents.language import names_no_language

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
LOEXT = "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"
PARAGRAPHS = (f"{{{TEXT}}}p", f"{{{TEXT}}}h")
# Marks around words, kept with their attributes: a span, a link, a text:meta (RDF metadata over
# words), LibreOffice's content control (what a .docx's w:sdt becomes: a check box, a form's field),
# a text input field (text:text-input, what Word's FILLIN field becomes: text someone typed in, as
# attnmt.documents.fields reads Word's), a placeholder (text:placeholder, what Word's MACROBUTTON becomes: a
# template's prompt, "<Type the city here>", shown until someone clicks it and types), a cross-reference's copy
# of the words it refers to (REFERENCES), and a ruby and its base (RUBY: the base's words are read with the
# sentence, as HTML's <ruby> is; its annotation, text:ruby-text, an atom).  Every other field is an atom.
RUBY = (f"{{{TEXT}}}ruby", f"{{{TEXT}}}ruby-base")
# A cross-reference to a bookmark, a reference mark or a caption's number (what Word's REF field becomes): the
# words it copies ("See <Watering and care>", "as <Figure 2> shows"), which LibreOffice shows as written until
# someone updates the fields; read as Word's are (attnmt.documents.fields), and kept whole where they are
# digits and symbols alone, a chapter's or a caption's number (opendocument_vocabulary).
REFERENCES = frozenset({f"{{{TEXT}}}bookmark-ref", f"{{{TEXT}}}reference-ref", f"{{{TEXT}}}sequence-ref"})
MARKS = frozenset({f"{{{TEXT}}}span", f"{{{TEXT}}}a", f"{{{TEXT}}}meta", f"{{{LOEXT}}}content-control",
                   f"{{{TEXT}}}text-input", f"{{{TEXT}}}placeholder", *REFERENCES, *RUBY})
# Where styles.xml keeps what every part's styles may name: the named styles, the font faces.
NAMED = (f"{{{OFFICE}}}styles", f"{{{OFFICE}}}font-face-decls")
AUTOMATIC = f"{{{OFFICE}}}automatic-styles"  # a part's own styles, which only its paragraphs name
STYLE_NAME = f"{{{TEXT}}}style-name"
ENCODED = re.compile(r"_([0-9A-Fa-f]{2})_")  # a character ODF's style:name cannot hold, by its code: _20_ a space


class Look(NamedTuple):
    """What the styles over a text say: whether one of them is meant for code, the font the last of
    them that names one names (None where none does), whether the last of them that names a
    display hides the text (None where none names one: shown), and where the last of them that
    names a text position sets it (script: "sup" above the line, "sub" below, "" on it; None where none names one),
    and the language the last of the spans' text styles that states one states (its ``fo:language``;
    None for a paragraph's own text: a paragraph's style states its language for all its text)."""

    styled: bool
    font: str | None
    hidden: bool | None = None
    script: str | None = None
    language: str | None = None

    def under(self, layer: Look) -> Look:
        """This look with ``layer`` over it: its styles count too; its font, display and position, where it
        names them, win."""
        return Look(self.styled or layer.styled, self.font if layer.font is None else layer.font,
                    self.hidden if layer.hidden is None else layer.hidden,
                    self.script if layer.script is None else layer.script,
                    self.language if layer.language is None else layer.language)


class TextsLook(NamedTuple):
    """What the texts of a mark (its marks' with them) that show something are: whether there is one
    (shown), whether each is in a style meant for code (styled), and whether each is in such a style
    or in a monospaced font not its paragraph's (code: code where the paragraph has prose); and
    whether each of its texts, spaces too, is hidden (hidden: true of a mark with no text)."""

    shown: bool
    styled: bool
    code: bool
    hidden: bool


class StyleIndex(NamedTuple):
    """Styles by family and ``style:name``, the default style of each family, and the family of
    each font face by its ``style:name``: what the elements of some holders of styles say."""

    styles: dict[tuple[str | None, str | None], etree._Element]
    defaults: dict[str | None, etree._Element]
    fonts: dict[str | None, str]

    def over(self, holders: Iterable[etree._Element]) -> StyleIndex:
        """A new index: this one with the elements of ``holders`` over it (a later element of a name
        wins); this one is left as it is, for the other parts that share it."""
        styles, defaults, fonts = dict(self.styles), dict(self.defaults), dict(self.fonts)
        for element in (element for holder in holders for element in holder):
            family, name = element.get(f"{{{STYLE}}}family"), element.get(f"{{{STYLE}}}name")
            if element.tag == f"{{{STYLE}}}style":
                styles[family, name] = element
            elif element.tag == f"{{{STYLE}}}default-style":
                defaults[family] = element
            elif element.tag == f"{{{STYLE}}}font-face":
                fonts[name] = first_family(element.get(f"{{{SVG}}}font-family") or name or "")
        return StyleIndex(styles, defaults, fonts)


class SharedStyles(NamedTuple):
    """A styles.xml (its root) and the index of what every part beside it may name (NAMED), made
    once for a file's translation (each part read it again, and styles.xml twice for itself)."""

    root: etree._Element
    styles: StyleIndex

    @classmethod
    def of(cls, root: etree._Element) -> SharedStyles:
        return cls(root, StyleIndex({}, {}, {}).over(root.iterchildren(*NAMED)))


@dataclass
class CodeLooks:
    """The styles of one part (family and ``style:name`` -> its ``style:style``), the default style
    of each family, the family of each font face (by its ``style:name``), and, once asked, whether
    each paragraph has prose (has_prose).  The look of each style name (with the styles it is based
    on) and of the text directly in each paragraph and mark is worked out once and kept, a mark's
    from its parent's: a paragraph of spans nested a hundred deep asked each span's styles again for
    every text inside it, a time growing with the cube of the depth."""

    styles: dict[tuple[str | None, str | None], etree._Element]
    defaults: dict[str | None, etree._Element]
    fonts: dict[str | None, str]
    prose: dict[etree._Element, bool] = field(default_factory=dict)
    worded: dict[etree._Element, bool] = field(default_factory=dict)  # per paragraph: shows_words
    named: dict[tuple[str, str | None], Look] = field(default_factory=dict)  # per style: look_of_style
    looks: dict[etree._Element, Look] = field(default_factory=dict)  # per paragraph and mark: look_inside
    marks: dict[etree._Element, TextsLook] = field(default_factory=dict)  # per mark: texts_look

    @classmethod
    def of(cls, part: etree._Element, shared: SharedStyles | None) -> CodeLooks:
        """The looks of the paragraphs of ``part`` (the root of content.xml, of styles.xml, of a
        chart's content.xml), ``shared`` what the styles.xml beside it gives every part (None: none);
        the part's own automatic styles are the ones its paragraphs name.  styles.xml's own named
        styles and font faces are the shared ones, indexed already."""
        base = StyleIndex({}, {}, {}) if shared is None else shared.styles
        own = (AUTOMATIC,) if shared is not None and part is shared.root else (*NAMED, AUTOMATIC)
        index = base.over(part.iterchildren(*own))
        return cls(index.styles, index.defaults, index.fonts)

    def is_code_paragraph(self, paragraph: etree._Element) -> bool:
        """Whether ``paragraph`` is in a paragraph style meant for code, or one based on one."""
        return self.look(paragraph, paragraph)[0]

    def is_code(self, mark: etree._Element) -> bool:
        """Whether ``mark`` (a span, a link) is code: each of its texts is in a style meant for code,
        or in a monospaced font not its paragraph's beside letters in a font that is not (has_prose)."""
        paragraph = next(mark.iterancestors(*PARAGRAPHS), None)
        if paragraph is None:  # a presentation's declaration: plain text
            return False
        shown, styled, code, _ = self.texts_look(mark, paragraph)
        return shown and (styled or (code and self.has_prose(paragraph)))

    def is_hidden(self, mark: etree._Element) -> bool:
        """Whether ``mark`` (a span, a link) is an editor's note: each of its texts, spaces too, is
        hidden, in a paragraph a reader sees words of (shows_words; a paragraph all hidden is words)."""
        paragraph = next(mark.iterancestors(*PARAGRAPHS), None)
        return (paragraph is not None and self.texts_look(mark, paragraph).hidden
                and self.shows_words(paragraph))

    def is_raised(self, mark: etree._Element) -> bool:
        """Whether each text of ``mark`` (a span, a link) that shows something is set above the line
        (script: ``style:text-position="super 58%"``), the superscript of a note's number typed by hand."""
        return self.script(mark) == "sup"

    def script(self, mark: etree._Element) -> str:
        """Where each text of ``mark`` (a span, a link) that shows something is set (text_position): "sup"
        above the line, "sub" below it (``style:text-position="sub 58%"``: a formula's ``2`` in ``H2O``); ""
        on it, or where its texts are set apart."""
        paragraph = next(mark.iterancestors(*PARAGRAPHS), None)
        shown = [holder for holder in holders(mark) if any(text.strip() for text in own_texts(holder))]
        kinds = {self.look_inside(holder, paragraph).script or "" for holder in shown if paragraph is not None}
        return kinds.pop() if len(kinds) == 1 else ""

    def shows_words(self, paragraph: etree._Element) -> bool:
        """Whether ``paragraph`` has letters a reader sees: in a look that does not hide them."""
        if paragraph not in self.worded:
            self.worded[paragraph] = any(has_words(text) and not self.look_inside(holder, paragraph).hidden
                                         for holder in holders(paragraph) for text in own_texts(holder))
        return self.worded[paragraph]

    def has_prose(self, paragraph: etree._Element) -> bool:
        """Whether ``paragraph`` has letters in a look not code's: neither a code style's nor a monospaced font's."""
        if paragraph not in self.prose:
            self.prose[paragraph] = any(has_words(text) and not any(self.look(holder, paragraph))
                                        for holder in holders(paragraph) for text in own_texts(holder))
        return self.prose[paragraph]

    def texts_look(self, mark: etree._Element, paragraph: etree._Element) -> TextsLook:
        """The TextsLook of ``mark``'s texts, its marks' with them, worked out once for each mark from
        its own texts' looks and its marks' TextsLooks, the innermost first, and kept (marks)."""
        if mark not in self.marks:
            for node in reversed(holders(mark)):
                if node in self.marks:
                    continue
                # one look for all of the node's own texts, where it has any but spaces
                looks = [self.look(node, paragraph)] if any(text.strip() for text in own_texts(node)) else []
                inner = [self.marks[child] for child in node if child.tag in MARKS]
                hidden = not any(own_texts(node)) or bool(self.look_inside(node, paragraph).hidden)
                self.marks[node] = TextsLook(bool(looks) or any(look.shown for look in inner),
                                             all(styled for styled, _ in looks) and all(look.styled for look in inner),
                                             all(styled or monospaced for styled, monospaced in looks)
                                             and all(look.code for look in inner),
                                             hidden and all(look.hidden for look in inner))
        return self.marks[mark]

    def look(self, holder: etree._Element, paragraph: etree._Element) -> tuple[bool, bool]:
        """(styled, monospaced) of text directly in ``holder`` (``paragraph`` or a mark in it): whether
        a style of its look is meant for code, its spans' say it is in no language (``zxx``:
        code_look.is_wordless) or its font is a symbol font (code_look.is_symbol_font: a Wingdings
        smiley), and whether its font is monospaced
        and not the paragraph's own (a heading whose style is in Liberation Mono is in its own font, not code's)."""
        look, own = self.look_inside(holder, paragraph), self.look_inside(paragraph, paragraph).font
        font = look.font
        return (look.styled or is_wordless(look.language, "".join(own_texts(holder))) or is_symbol_font(font),
                font is not None and is_monospaced(font) and (own is None or font.casefold() != own.casefold()))

    def look_inside(self, holder: etree._Element, paragraph: etree._Element) -> Look:
        """The look of text directly in ``holder``: a paragraph's is the document's default under its
        style's, a mark's the look inside the mark or paragraph around it under its style's.  Each
        holder's is worked out once and kept (looks), the outermost not yet known first: a loop, not
        recursion, as marks nest as deep as the part may."""
        unknown, node = [], holder  # holder and the marks around it whose looks are not yet known, innermost first
        while node not in self.looks:
            unknown.append(node)
            if node is paragraph:
                break
            node = around(node, paragraph)
        for node in reversed(unknown):
            if node is paragraph:
                default = self.defaults.get("paragraph")
                body = Look(False, None) if default is None else self.look_of_layers([default])
                # the language of a paragraph's text is its spans' to state (Look.language)
                self.looks[node] = body.under(self.look_of_style("paragraph", node.get(STYLE_NAME)))._replace(
                    language=None)
            else:
                outer = self.looks[around(node, paragraph)]
                self.looks[node] = outer.under(self.look_of_style("text", node.get(STYLE_NAME)))
        return self.looks[holder]

    def look_of_style(self, family: str, name: str | None) -> Look:
        """The look style ``name`` of ``family`` gives, with the styles it is based on (chain), kept by name."""
        if (family, name) not in self.named:
            self.named[family, name] = self.look_of_layers(self.chain(family, name))
        return self.named[family, name]

    def look_of_layers(self, layers: list[etree._Element]) -> Look:
        """The look ``layers`` (weakest first) give: whether a name of one is meant for code, their font,
        display, position and language."""
        return Look(any(is_code_style(name) for layer in layers for name in style_names(layer)), self.font(layers),
                    hides(layers), text_position(layers), stated(layers, f"{{{FO}}}language"))

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


def stated(layers: list[etree._Element], key: str) -> str | None:
    """What the last of ``layers`` (weakest first) whose text properties have ``key`` says; None where none has it."""
    found = None
    for layer in layers:
        properties = layer.find(f"{{{STYLE}}}text-properties")
        if properties is not None and properties.get(key) is not None:
            found = properties.get(key)
    return found


def hides(layers: list[etree._Element]) -> bool | None:
    """Whether the last of ``layers`` (weakest first) that names a ``text:display`` hides its text
    (only "none" does); None where none names one."""
    display = stated(layers, f"{{{TEXT}}}display")
    return None if display is None else display == "none"


def text_position(layers: list[etree._Element]) -> str | None:
    """Where the last of ``layers`` (weakest first) that names a ``style:text-position`` sets its text:
    "sup" above the line ("super", or a positive height: "33% 58%"), "sub" below it ("sub", "-33%"), ""
    on it ("0%"); None where none names one."""
    position = stated(layers, f"{{{STYLE}}}text-position")
    if position is None:
        return None
    height = (position.split() or ["0%"])[0].rstrip("%")
    if height in ("super", "sub"):
        return height[:3]
    return "sup" if is_positive(height) else "sub" if height.startswith("-") and is_positive(height[1:]) else ""


def holders(node: etree._Element) -> list[etree._Element]:
    """``node`` (a paragraph or a mark in one) and the marks in it, each before the marks in it: the
    elements its texts are directly in; not a mark inside an atom (a note, a field, a frame), whose
    text is not its."""
    found = [node]
    for holder in found:  # the list grows as it is read: each holder's marks go on its end
        found.extend(child for child in holder if child.tag in MARKS)
    return found


def own_texts(holder: etree._Element) -> list[str]:
    """The texts directly in ``holder``: its own, and the text after each child."""
    return [holder.text or "", *(child.tail or "" for child in holder)]


def around(mark: etree._Element, paragraph: etree._Element) -> etree._Element:
    """The mark right around ``mark`` in ``paragraph``, or the paragraph where none is (an atom between
    them, a note, is passed over: only marks give text a look)."""
    return next(above for above in mark.iterancestors() if above is paragraph or above.tag in MARKS)


def style_names(style: etree._Element) -> list[str]:
    """A style's display name and its name, decoded (``Source_20_Text`` is "Source Text")."""
    names = [style.get(f"{{{STYLE}}}display-name"), style.get(f"{{{STYLE}}}name")]
    return [ENCODED.sub(lambda code: chr(int(code.group(1), 16)), name) for name in names if name]


def first_family(families: str) -> str:
    """The first family of a font-family list, unquoted: ``'Courier New', monospace`` is "Courier New"."""
    return families.split(",")[0].strip().strip("'\"")


def set_language(root: etree._Element, language: str) -> bool:
    """Every style's ``fo:language`` (and ``fo:country``) set to ``language``, the target's, in a
    translated part (attnmt.documents.opendocument); whether any was.  A style that names no
    language (attnmt.documents.language.names_no_language: LibreOffice's "[None]" is
    ``fo:language="zxx" fo:country="none"``, what code is set in) keeps it, its country with it:
    given the target's, the code kept in it was checked for spelling in the target language."""
    code, _, country = language.replace("_", "-").partition("-")
    found = False
    for element in root.iter():
        stated = element.get(f"{{{FO}}}language")
        if stated is None or names_no_language(stated):
            continue
        found = True
        element.set(f"{{{FO}}}language", code.lower())
        if country:
            element.set(f"{{{FO}}}country", country.upper())
        else:
            element.attrib.pop(f"{{{FO}}}country", None)
    return found
