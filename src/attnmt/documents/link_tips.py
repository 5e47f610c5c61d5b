"""A Word or DrawingML link's screen tip, the text Word and PowerPoint show when the mouse rests on
the link: Word's ``w:hyperlink w:tooltip`` and DrawingML's ``tooltip`` of a run's ``a:hlinkClick``
or ``a:hlinkMouseOver`` and of a shape's or a picture's ``a:hlinkClick`` or ``a:hlinkHover`` (in its
``cNvPr`` or ``wp:docPr``).  Each is plain text in an attribute, translated line by line as an
.xlsx's screen tip and an OpenDocument link's tooltip are (attnmt.documents.validations.AttributeJob),
as a browser shows HTML's ``title``; the link's target (``r:id``, ``w:anchor``) is never read.

A link in a paragraph kept whole, one with text but no job (a paragraph in a code style, pandoc's
"Source Code", as an OpenDocument paragraph in "Preformatted Text" keeps its links' tooltips; or one
with nothing to translate), keeps its screen tip as it is; a link in a paragraph with a job, or in
one with no text (a linked picture alone), or in none (a shape's link), has its tip translated.

A Word link field's screen tip is its code's ``\\o`` switch, ``HYPERLINK "https://example.org" \\o "Open the
guide"``, in a ``w:instrText`` or a ``w:fldSimple``'s ``w:instr`` (FieldTipJob): it is translated as a
``w:tooltip`` is, and the rest of the code kept (a contents field's ``TOC \\o "1-3"`` is no tip: only a
``HYPERLINK``'s is read).  A tip whose code Word split over several ``w:instrText`` is kept as it is.
An ``IF`` field's two texts are translated so too, each after its paragraph (attnmt.documents.word_conditions), and
so is a button field's text (``MACROBUTTON``, ``GOTOBUTTON``: attnmt.documents.word_buttons)."""

from __future__ import annotations

import re
from collections.abc import Container, Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.alt_texts import HOLDERS as ALT_TEXT_HOLDERS
from attnmt.documents.alt_texts import node_alt_texts
from attnmt.documents.archive import Job
from attnmt.documents.comments import TextJob
from attnmt.documents.formatting import reads_text
from attnmt.documents.letterless import needs_translation
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import DRAWING, WORD, a
from attnmt.documents.ooxml_paragraphs import FALLBACK
from attnmt.documents.validations import AttributeJob
from attnmt.documents.word_buttons import button_field_job
from attnmt.documents.word_conditions import if_field_job
from attnmt.documents.wordml import w
from attnmt.documents.xstring import replace_text, text_in

PARAGRAPHS = (WORD.paragraph, DRAWING.paragraph)
# Each link element that may carry a screen tip -> the attribute that holds it.
TIPS = {w("hyperlink"): w("tooltip"), **{a(name): "tooltip" for name in ("hlinkClick", "hlinkMouseOver", "hlinkHover")}}
# A link field's code and the screen tip in it (its \o switch's quoted text, where \" is a quote and \\ a backslash).
FIELD_TIP = re.compile(r'^\s*HYPERLINK\b.*?\\o\s+"((?:[^"\\]|\\.)*)"', re.DOTALL)
FIELD_CODES = {w("instrText"): None, w("fldSimple"): w("instr")}  # where a field's code is: text, or attribute


def with_link_tips(root: etree._Element, jobs: Sequence[Job], glossary: Glossary | None,
                   target_lang: str | None = None) -> list[Job]:
    """``jobs`` (paragraph_jobs's for ``root``), each followed by the screen tips of its paragraph's
    own links (not of a text box's paragraph inside it: that one's own), and a shape's tips where
    its link stands, and its pictures' and shapes' alt texts (attnmt.documents.alt_texts), in document
    order.  After the paragraph's job, a tip finishes first (jobs finish last to first), so a link the
    paragraph's translation copies carries the translated tip (and a drawing its alt text).  An IF field's texts
    are written in ``target_lang`` as parts of a sentence (attnmt.documents.chosen_items)."""
    by_paragraph = {job.paragraph: job for job in jobs if isinstance(job, ParagraphJob)}
    found: list[Job] = []
    for node in root.iter(*PARAGRAPHS, *TIPS, *FIELD_CODES, *ALT_TEXT_HOLDERS):
        if node.tag in PARAGRAPHS:
            found += [by_paragraph[node]] if node in by_paragraph else []
            continue
        is_tip = node.tag in TIPS or node.tag in FIELD_CODES  # else a picture's or shape's alt text (alt_texts)
        tips: list[Job] = ([*node_jobs(node, by_paragraph, glossary, target_lang)] if is_tip
                            else [*node_alt_texts(node, glossary)])
        if next(node.iterancestors(FALLBACK), None) is not None:  # a text box's copy, as its paragraphs are:
            for flat in (flat for job in tips for flat in job.flats()):  # translated, but neither placed nor reviewed
                flat.seen = False
        found += tips
    return found


def node_jobs(node: etree._Element, by_paragraph: Container[etree._Element], glossary: Glossary | None,
              target_lang: str | None = None) -> list[Job]:
    """The jobs of a link's ``node`` (its screen tip) or of a field's code (an IF field's texts, written in
    ``target_lang``, a button's text, a link field's tip)."""
    kept = is_kept_whole(next(node.iterancestors(*PARAGRAPHS), None), by_paragraph)
    found: list[Job] = []

    def reads(text: str) -> bool:
        return needs_translation(text, glossary)

    if node.tag in FIELD_CODES:
        # an IF field's texts, and a button's, are read in a paragraph with no job: "{ IF ... "Dear Madam" "Dear
        # Sir" }," alone, a template's prompt alone
        for field_job in (if_field_job(node, reads, target_lang), button_field_job(node, reads)):
            found += [field_job] if field_job is not None else []
        tip_job = FieldTipJob.of(node)
        if tip_job is not None and not kept and needs_translation(tip_job.text, glossary):
            found.append(tip_job)
    elif not kept and needs_translation(node.get(TIPS[node.tag], ""), glossary):
        found.append(AttributeJob(node, TIPS[node.tag], escaped=False))
    return found


def is_kept_whole(paragraph: etree._Element | None, translated: Container[etree._Element]) -> bool:
    """Whether ``paragraph`` (a link's, None for a shape's) is kept as the source has it: it reads
    text (formatting.reads_text) yet is not ``translated`` (has no job)."""
    if paragraph is None or paragraph in translated:
        return False
    return reads_text(paragraph, WORD if paragraph.tag == WORD.paragraph else DRAWING)


class FieldTipJob(TextJob):
    """The screen tip of a link field (module docstring): the ``\\o`` switch's text in ``element``'s code (its
    text, or its ``attribute``), read without its escapes and written with them, the code around it kept."""

    def __init__(self, element: etree._Element, attribute: str | None, span: tuple[int, int]) -> None:
        self.attribute, self.span = attribute, span
        super().__init__(element)

    @classmethod
    def of(cls, node: etree._Element) -> FieldTipJob | None:
        """The job for ``node``'s tip (a ``w:instrText`` or a ``w:fldSimple``); None where its code is no link's
        with a tip whole in it."""
        attribute = FIELD_CODES[node.tag]
        found = FIELD_TIP.match(cls.code(node, attribute))
        return None if found is None or not found.group(1).strip() else cls(node, attribute, found.span(1))

    @staticmethod
    def code(node: etree._Element, attribute: str | None) -> str:
        return node.get(attribute, "") if attribute is not None else text_in(node)

    def written(self) -> str:
        start, end = self.span
        return re.sub(r"\\(.)", r"\1", self.code(self.element, self.attribute)[start:end])

    def write(self, text: str) -> None:
        code, (start, end) = self.code(self.element, self.attribute), self.span
        code = code[:start] + text.replace("\\", "\\\\").replace('"', '\\"') + code[end:]
        if self.attribute is not None:
            self.element.set(self.attribute, code)
        else:
            replace_text(self.element, code)
