"""An .ods note's author label: Excel writes a legacy note with its author's name and a colon on a line of its own
("Ann:\\nCheck the red car."), which an .xlsx keeps (attnmt.documents.comments: a name has no translation), and
LibreOffice converts that note to an annotation (``office:annotation``) whose first paragraph is the label alone,
the author often dropped (no ``dc:creator``).  The label is kept there too, not translated and not joined to the
line after it (attnmt.documents.opendocument_cell_lines): read as a paragraph, "Ann:" was translated ("ANN:")."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.opendocument_code import OFFICE, TEXT
from attnmt.text.letters import has_words
from attnmt.text.speaker_labels import titled

ANNOTATION = f"{{{OFFICE}}}annotation"
PARAGRAPH = f"{{{TEXT}}}p"
CREATOR = "{http://purl.org/dc/elements/1.1/}creator"  # the annotation's author


def is_author_label(paragraph: etree._Element) -> bool:
    """Whether ``paragraph`` is an annotation's author label: its first paragraph, another with words after it, and
    its text a name and a colon alone, the annotation's author's (``dc:creator``: "Ann Smith:") or, where it names
    none, a name in title case (speaker_labels.titled: "Ann:", "Dr. Smith:"; not "Note:")."""
    note = paragraph.getparent()
    if note is None or note.tag != ANNOTATION or paragraph.tag != PARAGRAPH:
        return False
    paragraphs = note.findall(PARAGRAPH)
    said = "".join(paragraph.itertext()).strip()
    if paragraphs[0] is not paragraph or not any(has_words("".join(p.itertext())) for p in paragraphs[1:]):
        return False
    author = (note.findtext(CREATOR) or "").strip()
    return said == f"{author}:" if author else said.endswith(":") and titled(said)
