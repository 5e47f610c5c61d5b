"""The paragraphs of an Office Open XML part with words to translate, each a job (attnmt.documents.ooxml.ParagraphJob),
in document order: a complex field carried on from one paragraph of a story to the next, a drop cap's letters read
with the paragraph they begin, a paragraph in a content control kept whole or of code passed over."""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.code_paragraphs import without_code_paragraphs
from attnmt.documents.dropcaps import join_drop_caps
from attnmt.documents.field_marks import join_field_marks
from attnmt.documents.field_revisions import free_ids, split_field_revisions
from attnmt.documents.formatting import reads_text
from attnmt.documents.index_pages import index_protection
from attnmt.documents.letterless import Shown, needs_translation
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import WORD, Dialect
from attnmt.documents.split_placeholders import PARAGRAPH_PROTECTED
from attnmt.documents.word_controls import in_kept_control
from attnmt.documents.word_insertions import join_field_insertions
from attnmt.documents.word_quotes import QuoteBuilder, unseen_quote_looks
from attnmt.documents.word_styles import WordStyles
from attnmt.documents.wordml import w
from attnmt.text.speaker_labels import dialogue

# Where a field that goes on past its paragraph may go on: the paragraphs of one story, which a
# text box, a note or a comment starts anew (its paragraphs come between those of the story around it).
STORIES = (w("txbxContent"), w("footnote"), w("endnote"), w("comment"))
# The copy of a text box (or any content) for applications that cannot read the choice before it:
# Word writes a text box twice, as DrawingML in mc:Choice and as VML in mc:Fallback.  The copy is
# translated (an older reader shows it) but no reader sees both, so it is not seen (FlatText.seen).
FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def paragraph_jobs(root: etree._Element, dialect: Dialect, glossary: Glossary | None,
                   styles: WordStyles | None = None, source_lang: str | None = None,
                   ids: Iterator[int] | None = None) -> list[ParagraphJob]:
    """A job for each paragraph under ``root`` with words to translate, in document order (a text box's paragraphs
    come after the paragraph whose run holds the text box; those of its fallback copy, FALLBACK, are not seen); one
    that reads no text (formatting.reads_text) is passed over before a job is made.  A complex field open at a
    paragraph's end is open at the start of the next paragraph of its story (STORIES), where the story ends its
    fields.  A drop cap's letters are read with the paragraph they begin (attnmt.documents.dropcaps), and go back into
    the frame where it has no words ("1", "984").  A paragraph inside a content control kept whole (a
    date picker's: attnmt.documents.word_controls) is passed over.  An index's entry keeps its pages
    (attnmt.documents.index_pages).  A Word paragraph of code typed in a monospaced font among words is
    passed over (attnmt.documents.code_paragraphs).  A paragraph's quotes inside a sentence are read as a page's
    (attnmt.documents.word_quotes: a Word paragraph's, a slide's and a cell's string alike).  ``styles``: a Word
    document's, and ``source_lang`` its source's (ParagraphJob)."""
    depths: dict[etree._Element, int] = {}  # the fields open at the end of each story's last paragraph so far
    closed: dict[etree._Element, bool] = {}  # whether each story ends every field it begins
    drop_caps = join_drop_caps(root) if dialect is WORD else {}
    indexed = index_protection(root) if dialect is WORD else {}
    jobs = []
    speakers = dialogue("".join(map(dialect.text_of, p.iter(dialect.text))) for p in root.iter(dialect.paragraph))
    for paragraph in (p for p in root.iter(dialect.paragraph)
                      if (p in drop_caps or reads_text(p, dialect)) and not in_kept_control(p)):
        story = next(paragraph.iterancestors(*STORIES), root)
        if story not in closed:
            kinds = [mark.get(w("fldCharType")) for mark in story.iter(w("fldChar"))]
            closed[story] = kinds.count("begin") <= kinds.count("end")
        if dialect is WORD:  # a quote mark in a run of its own, set apart by its font hint or language alone
            unseen_quote_looks(paragraph)
            join_field_insertions(paragraph)  # a field inserted with changes tracked, an insertion a run
            ids = ids or free_ids([etree.tostring(root)])  # made once, where a paragraph first needs them
            split_field_revisions(paragraph, ids)  # a tracked change around part of a field, a change a run for it
            join_field_marks(paragraph)  # a link, or another mark, around part of a field: its characters moved
        # a field never ended (a damaged file) is not carried on: it would keep the rest of the story
        job = ParagraphJob(paragraph, dialect, depths.get(story, 0) if closed[story] else 0, styles, source_lang,
                           indexed.get(paragraph, PARAGRAPH_PROTECTED), speakers, QuoteBuilder)
        job.flat.seen = next(paragraph.iterancestors(FALLBACK), None) is None
        job.drop_cap = drop_caps.get(paragraph)
        depths[story] = job.field_depth
        if needs_translation(job.flat.text, glossary, Shown.of(job.flat)):
            jobs.append(job)
        elif job.drop_cap is not None:  # no job finishes it: its drop cap's letters go back now
            job.drop_cap.put_back(paragraph)
    return without_code_paragraphs(jobs) if dialect is WORD else jobs  # lines of code in Consolas

