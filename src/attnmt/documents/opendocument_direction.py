"""The direction a translated OpenDocument paragraph is written in: the target language's
(attnmt.documents.language.direction, as Word's and PowerPoint's paragraphs take it).  ODF says
it in a paragraph style's ``style:paragraph-properties style:writing-mode`` (``rl-tb``: right to
left), which a paragraph takes from its style (``text:style-name``, with the styles it is based
on) and the document's default paragraph style.  A paragraph whose style says another direction
is given a style of its own that says the target's: its automatic style copied (an automatic style
cannot be a parent), or a new automatic style based on its common one, in the automatic styles of
the document that holds it, one for each style it replaces.  Its alignment is left as it is."""

from __future__ import annotations

import copy

from lxml import etree

from attnmt.documents.language import direction
from attnmt.documents.opendocument import DOCUMENT, OpenDocumentParagraph
from attnmt.documents.opendocument_code import AUTOMATIC, OFFICE, PARAGRAPHS, STYLE, STYLE_NAME, CodeLooks
from attnmt.documents.opendocument_vocabulary import OpenDocumentVocabulary

WRITING_MODE = f"{{{STYLE}}}writing-mode"
PARAGRAPH_PROPERTIES = f"{{{STYLE}}}paragraph-properties"
# What holds a document's automatic styles: a package's content.xml and styles.xml, a flat file (and a chart in it).
DOCUMENTS = (f"{{{OFFICE}}}document-content", f"{{{OFFICE}}}document-styles", DOCUMENT)
RIGHT_TO_LEFT = frozenset({"rl-tb", "rl"})
# Writing modes set in columns (vertical Japanese): a right-to-left target does not lay them out in lines.
VERTICAL = frozenset({"tb-rl", "tb-lr", "tb"})

# (the element holding a document's automatic styles, the name of a paragraph's style) -> the name of
# the style that replaces it, saying the target's direction
Derived = dict[tuple[etree._Element, str | None], str]


def set_writing_mode(job: OpenDocumentParagraph, language: str, derived: Derived) -> None:
    """A translated paragraph (``job``'s) laid out in ``language``'s direction, where its style does
    not say it (the module docstring): a paragraph in an Arabic style (``style:writing-mode="rl-tb"``)
    translated into German was still set from the right; one translated into Arabic from the left.
    ``derived`` holds the styles made for the paragraphs finished before, and is given this one's."""
    paragraph = job.root
    if paragraph.tag not in PARAGRAPHS or not isinstance(job.vocabulary, OpenDocumentVocabulary):
        return  # a presentation's declaration: plain text, shown in its placeholder's direction
    looks, name = job.vocabulary.looks, paragraph.get(STYLE_NAME)
    rtl = direction(language) == "rtl"
    said = writing_mode(looks, name)
    if (said in RIGHT_TO_LEFT) == rtl or (rtl and said in VERTICAL):
        return
    holder = automatic_styles(paragraph)
    if (holder, name) not in derived:
        derived[holder, name] = derive(holder, looks, name, "rl-tb" if rtl else "lr-tb")
    paragraph.set(STYLE_NAME, derived[holder, name])


def writing_mode(looks: CodeLooks, name: str | None) -> str | None:
    """The writing mode paragraph style ``name`` gives (with the styles it is based on, over the
    document's default paragraph style); None where none says one."""
    default = looks.defaults.get("paragraph")
    said = None
    for layer in [*([] if default is None else [default]), *looks.chain("paragraph", name)]:
        properties = layer.find(PARAGRAPH_PROPERTIES)
        if properties is not None and properties.get(WRITING_MODE) is not None:
            said = properties.get(WRITING_MODE)
    return said


def automatic_styles(paragraph: etree._Element) -> etree._Element:
    """The automatic styles of the document holding ``paragraph``, added where it has none."""
    document = next(paragraph.iterancestors(*DOCUMENTS))
    found = document.find(AUTOMATIC)
    if found is None:
        found = document.makeelement(AUTOMATIC, {})
        # after the scripts, font faces and named styles a document states first, before its body
        before = next((child for child in document if etree.QName(child).localname in
                       ("master-styles", "body")), None)
        if before is None:
            document.append(found)
        else:
            before.addprevious(found)
    return found


def derive(holder: etree._Element, looks: CodeLooks, name: str | None, mode: str) -> str:
    """A new automatic paragraph style in ``holder``, ``name``'s with writing mode ``mode``: a copy of
    an automatic style (those of ``holder``), else one based on the common style ``name`` (none
    where the document has no such style, as the paragraph had none); its name, new to ``looks``,
    which is told of it."""
    style = looks.styles.get(("paragraph", name))
    if style is not None and style.getparent() is holder:
        made = copy.deepcopy(style)
    else:
        made = holder.makeelement(f"{{{STYLE}}}style", {f"{{{STYLE}}}family": "paragraph"})
        if style is not None and name is not None:
            made.set(f"{{{STYLE}}}parent-style-name", name)
    made.attrib.pop(f"{{{STYLE}}}display-name", None)
    number, new = 1, f"{name or 'P'}_{mode}"
    while ("paragraph", new) in looks.styles:
        number += 1
        new = f"{name or 'P'}_{mode}{number}"
    made.set(f"{{{STYLE}}}name", new)
    properties = made.find(PARAGRAPH_PROPERTIES)
    if properties is None:
        properties = made.makeelement(PARAGRAPH_PROPERTIES, {})
        made.insert(0, properties)  # as LibreOffice writes them: before the text properties
    properties.set(WRITING_MODE, mode)
    holder.append(made)
    looks.styles["paragraph", new] = made
    return new
