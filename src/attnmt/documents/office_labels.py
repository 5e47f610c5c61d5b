"""Which texts of an office file are short labels, the guard of attnmt.documents.short_labels' to keep their source
where the model garbled them: a line of an alt text (attnmt.documents.alt_texts: Word's, PowerPoint's, Excel's and a
VML shape's ``descr``, ``title`` or ``alt``; OpenDocument's ``svg:title``, ``svg:desc``) or a caption's label (the
sentence that ends at a caption's number: a SEQ field, or a STYLEREF showing the chapter's number; LibreOffice's
``text:sequence``), of at most ``SHORT`` words; or a paragraph, a cell (a text value too), a slide's title, a line of
a sheet's validation message or screen tip, a section's of its print header or footer, a button's caption or a
number format's words (BLOCKS),
a chart's label of plain text (is_chart_label), or a line of a cell or a note of several lines (LINED), that is one
such sentence with no mark that ends it (short_labels.alone: a column's header, a heading, Excel's "Page &P of &N",
which the demo model wrote "Viele &P Arbeiter &N"), which, kept, says the source's language; and an EPUB page's
labels as a web page's (attnmt.documents.short_attributes)."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.documents import opendocument_vocabulary
from attnmt.documents.alt_texts import AltTextJob, SvgAltTextJob
from attnmt.documents.archive import Job
from attnmt.documents.chart_workbooks import CHARTS
from attnmt.documents.comments import TextJob
from attnmt.documents.fields import numbers_caption
from attnmt.documents.flat import FlatText
from attnmt.documents.markup import TreeJob
from attnmt.documents.number_formats import FormatJob
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import CELL_COMMENT, INLINE_STRING, SHARED_STRING, WORD
from attnmt.documents.opendocument import LINK_TITLE, OpenDocumentParagraph
from attnmt.documents.opendocument_data_styles import DataStyleJob
from attnmt.documents.opendocument_forms import SHOWN
from attnmt.documents.opendocument_validations import TITLE
from attnmt.documents.sheet_buttons import CaptionJob
from attnmt.documents.sheet_headers import HeaderJob
from attnmt.documents.short_attributes import job_labels, reaching
from attnmt.documents.short_labels import SHORT, alone
from attnmt.documents.validations import MESSAGE_LIMITS, TOOLTIP, AttributeJob, ValueJob

# Texts that stand alone as a cell's paragraph does: a cell's text value (t="str", as SheetJS writes every string), a
# print header's section, a form button's caption ("Send the report"), a number format's or a data style's words
# ("items" of 0 " items"), and a line of these attributes' texts: a validation's title or message (an .xlsx's, an
# .ods's table:title), a link's screen tip, a form control's label or tip.
BLOCKS = ValueJob | HeaderJob | CaptionJob | FormatJob | DataStyleJob
ALONE_ATTRIBUTES = frozenset({*MESSAGE_LIMITS, TOOLTIP, TITLE, LINK_TITLE, *SHOWN})
# A cell's and a note's strings, whose lines LibreOffice makes an .ods's paragraphs: a line alone stands as one
# ("Anna Smith:" above a note whose author LibreOffice left blank, which the demo model wrote "Ein Krühner:").
LINED = (SHARED_STRING, INLINE_STRING, CELL_COMMENT)


def office_labels(jobs: Sequence[Job], sentences: Sequence[Sequence[tuple[int, int]]],
                  blocks: Sequence[tuple[FlatText, list[str]]]) -> frozenset[str]:
    """The short labels among ``jobs``' flat texts, whose ``sentences`` (each flat's spans, in the jobs' order) are
    given: an alt text's short line, a Word caption's short label, and the sentences of ``blocks`` (``alone_blocks``
    of the same: a paragraph or a page's block alone)."""
    found: set[str] = set()
    spans = iter(sentences)
    for job in jobs:
        for flat in job.flats():
            found.update(flat.text[start:end] for start, end in job_spans(job, flat, next(spans)))
    found.update(sentence for _, each in blocks for sentence in each)
    return frozenset(text.strip() for text in found)


def alone_blocks(jobs: Sequence[Job], sentences: Sequence[Sequence[tuple[int, int]]]
                 ) -> list[tuple[FlatText, list[str]]]:
    """Each paragraph among ``jobs``' flat texts that is a short label alone (short_labels.alone), and each label of
    an EPUB's page (short_attributes.job_labels), with its sentences as the pipeline sends them, stripped
    (``sentences``: each flat's spans, in the jobs' order)."""
    spans = iter(sentences)
    spans_of = {id(flat): next(spans) for job in jobs for flat in job.flats()}
    found: list[tuple[FlatText, list[str]]] = []
    for job in jobs:
        if isinstance(job, TreeJob):
            found += job_labels(job, spans_of)
        elif isinstance(job, ParagraphJob | OpenDocumentParagraph | BLOCKS) or is_chart_label(job) or (
                isinstance(job, AttributeJob) and job.name in ALONE_ATTRIBUTES):
            blocks = [(flat, reaching(flat, spans_of[id(flat)])) for flat in job.flats()]
            found += [(flat, sentences) for flat, sentences in blocks if alone(sentences)]
    return found


def is_chart_label(job: Job) -> bool:
    """Whether ``job`` is a chart's label of plain text: a category or series name a chart without its workbook
    caches (chart_workbooks.cache_jobs: LibreOffice's .pptx writes none), or one typed as text (chart_literals).
    The chart shows it alone on its axis or in its legend, as a sheet shows a header: where the chart reads its
    workbook's cells, or an .odp's chart its table's, those were judged as labels, and these were taken at any
    plausibility ("January" came back "Ein Allem Homma")."""
    return isinstance(job, TextJob) and job.element.getroottree().getroot().tag in CHARTS


def job_spans(job: Job, flat: FlatText, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``flat`` (one of ``job``'s) that are short labels (the module docstring)."""
    if isinstance(job, AltTextJob | SvgAltTextJob):
        return [span for span in spans if is_short(flat, span)]
    return caption_spans(job, flat, spans)


def caption_labels(jobs: Sequence[Job], sentences: Sequence[Sequence[tuple[int, int]]]) -> frozenset[str]:
    """The short labels of the captions among ``jobs``' flat texts (``caption_spans``), stripped (``sentences``: each
    flat's spans, in the jobs' order)."""
    spans = iter(sentences)
    return frozenset(flat.text[start:end].strip() for job in jobs for flat in job.flats()
                     for start, end in caption_spans(job, flat, next(spans)))


def caption_spans(job: Job, flat: FlatText, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``flat`` (one of ``job``'s) that are a Word or LibreOffice caption's short label."""
    if (isinstance(job, ParagraphJob) and job.dialect is WORD) or isinstance(job, OpenDocumentParagraph):
        return [span for span in spans if is_short(flat, span) and before_caption_number(flat, span[1])]
    if isinstance(job, ParagraphJob) and job.dialect in LINED:
        return [span for span in spans if line_alone(flat, span)]
    return []


def line_alone(flat: FlatText, span: tuple[int, int]) -> bool:
    """Whether the sentence ``span`` of a spreadsheet's ``flat`` text of several lines is a line of it alone, and a
    short label alone (short_labels.alone): what an .ods cell's or note's paragraph is, where a .xlsx's has a line
    (a line-break atom: Dialect.typed_lines).  A line the next goes on from in lower case is a sentence wrapped by
    hand, read with it (wrapped_lines.ended_lines: its break is none of ``flat.line_ends``), no label."""
    start, end = span
    lines = [mark.start for mark in flat.marks if mark.atom and mark.line_break]
    line_start = max((at for at in lines if at <= start), default=0)
    line_end = min((at for at in lines if at >= end), default=len(flat.text))
    whole = flat.text[line_start:line_end].strip()
    ends = line_end == len(flat.text) or line_end in flat.line_ends
    return bool(lines) and whole == flat.text[start:end].strip() and ends and alone([whole])


def is_short(flat: FlatText, span: tuple[int, int]) -> bool:
    """Whether ``flat``'s sentence ``span`` has words, at most SHORT of them."""
    return 0 < len(flat.text[span[0]:span[1]].split()) <= SHORT


def before_caption_number(flat: FlatText, end: int) -> bool:
    """Whether a sentence ending at ``end`` of ``flat`` ends where a caption's number starts: at a break, with only
    spaces between, where an atom holds a caption's number field (fields.numbers_caption)."""
    breaks = [at for at in flat.breaks if at >= end and not flat.text[end:at].strip()]
    return any(mark.atom and mark.start in breaks and holds_caption_number(mark.node) for mark in flat.marks)


def holds_caption_number(node: object) -> bool:
    """Whether ``node`` (an atom's) is, or holds, a caption's number field or its separator (Word's:
    fields.numbers_caption; LibreOffice's: opendocument_vocabulary.numbers_caption)."""
    return isinstance(node, etree._Element) and any(
        numbers_caption(part) or opendocument_vocabulary.numbers_caption(part) for part in node.iter())
