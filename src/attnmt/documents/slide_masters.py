"""The text a presentation's slide masters and layouts draw on its slides: their shapes that are
no placeholders (a text box "Only for the team." on the master, a caption beside a logo), which
PowerPoint and LibreOffice show on every slide made from them; and so do the notes master and the
handout master on every printed notes page and handout.  A placeholder's text is the prompt
PowerPoint shows in an empty one while editing ("Click to edit Master title style"), or the look a
slide's own footer, date or number takes: never shown on a slide, and kept.  Each shape's paragraphs
are read as a slide's are (attnmt.documents.ooxml), and, where a target language is given, its runs
say it (ooxml_language.set_language on the shape alone: the master's list styles are what a slide's
runs without a language of their own fall back on, and are left as they are).  The alt text of a picture or
shape that is no placeholder (a logo's "Company logo") is translated too, as a slide's is (attnmt.documents.alt_texts);
a placeholder's is kept with its prompt."""

from __future__ import annotations

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.alt_texts import alt_text_jobs
from attnmt.documents.archive import Job
from attnmt.documents.comments import P
from attnmt.documents.ooxml_dialects import DRAWING
from attnmt.documents.ooxml_language import set_language
from attnmt.documents.ooxml_paragraphs import paragraph_jobs


def drawn_shapes(root: etree._Element) -> list[etree._Element]:
    """The text bodies of a master's or layout's shapes that are no placeholders (a shape inside
    a group too): a ``p:sp`` whose ``p:nvSpPr/p:nvPr`` holds no ``p:ph``."""
    return [body for shape in root.iter(f"{{{P}}}sp") if shape.find(f"{{{P}}}nvSpPr/{{{P}}}nvPr/{{{P}}}ph") is None
            for body in shape.iterchildren(f"{{{P}}}txBody")]


class MasterShapes:
    """How a slide master's or layout's text is found (ooxml_package.Texts): its drawn shapes' paragraphs."""

    def jobs(self, root: etree._Element, glossary: Glossary | None) -> list[Job]:
        alt_texts = [job for job in alt_text_jobs(root, glossary)
                     if job.element.getparent().find(f"{{{P}}}nvPr/{{{P}}}ph") is None]  # a placeholder's kept
        return [*(job for body in drawn_shapes(root) for job in paragraph_jobs(body, DRAWING, glossary)), *alt_texts]

    @staticmethod
    def set_language(root: etree._Element, language: str) -> None:
        """The drawn shapes' runs say ``language`` (the module docstring)."""
        for body in drawn_shapes(root):
            set_language(body, DRAWING, language)


MASTER_SHAPES = MasterShapes()
