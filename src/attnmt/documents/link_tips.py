"""A Word or DrawingML link's screen tip, the text Word and PowerPoint show when the mouse rests on
the link: Word's ``w:hyperlink w:tooltip`` and DrawingML's ``tooltip`` of a run's ``a:hlinkClick``
or ``a:hlinkMouseOver`` and of a shape's or a picture's ``a:hlinkClick`` or ``a:hlinkHover`` (in its
``cNvPr`` or ``wp:docPr``).  Each is plain text in an attribute, translated line by line as an
.xlsx's screen tip and an OpenDocument link's tooltip are (attnmt.documents.validations.AttributeJob),
as a browser shows HTML's ``title``; the link's target (``r:id``, ``w:anchor``) is never read.

A link in a paragraph kept whole, one with text but no job (a paragraph in a code style, pandoc's
"Source Code", as an OpenDocument paragraph in "Preformatted Text" keeps its links' tooltips; or one
with nothing to translate), keeps its screen tip as it is; a link in a paragraph with a job, or in
one with no text (a linked picture alone), or in none (a shape's link), has its tip translated."""

from __future__ import annotations

from collections.abc import Container, Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Job
from attnmt.documents.formatting import reads_text
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import DRAWING, WORD, a
from attnmt.documents.validations import AttributeJob
from attnmt.documents.wordml import w

PARAGRAPHS = (WORD.paragraph, DRAWING.paragraph)
# Each link element that may carry a screen tip -> the attribute that holds it.
TIPS = {w("hyperlink"): w("tooltip"), **{a(name): "tooltip" for name in ("hlinkClick", "hlinkMouseOver", "hlinkHover")}}


def with_link_tips(root: etree._Element, jobs: Sequence[Job], glossary: Glossary | None) -> list[Job]:
    """``jobs`` (paragraph_jobs's for ``root``), each followed by the screen tips of its paragraph's
    own links (not of a text box's paragraph inside it: that one's own), and a shape's tips where
    its link stands, in document order.  After the paragraph's job, a tip finishes first (jobs
    finish last to first), so a link the paragraph's translation copies carries the translated tip."""
    by_paragraph = {job.paragraph: job for job in jobs if isinstance(job, ParagraphJob)}
    found: list[Job] = []
    for node in root.iter(*PARAGRAPHS, *TIPS):
        if node.tag in PARAGRAPHS:
            found += [by_paragraph[node]] if node in by_paragraph else []
            continue
        tip = TIPS[node.tag]
        if not is_kept_whole(next(node.iterancestors(*PARAGRAPHS), None), by_paragraph) and needs_translation(
                node.get(tip, ""), glossary):
            found.append(AttributeJob(node, tip, escaped=False))
    return found


def is_kept_whole(paragraph: etree._Element | None, translated: Container[etree._Element]) -> bool:
    """Whether ``paragraph`` (a link's, None for a shape's) is kept as the source has it: it reads
    text (formatting.reads_text) yet is not ``translated`` (has no job)."""
    if paragraph is None or paragraph in translated:
        return False
    return reads_text(paragraph, WORD if paragraph.tag == WORD.paragraph else DRAWING)
