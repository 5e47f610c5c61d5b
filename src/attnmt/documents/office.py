"""The files people send: Word, PowerPoint, Excel, OpenDocument and EPUB, translated with their
formatting (docs/documents.md, "Office files and e-books").

    archive (attnmt.documents.archive) ─ the parts that hold text ─ a job per paragraph
      ─ every job's flat text translated (attnmt.documents.pipeline.translate_flats) ─ parts written again

A flat OpenDocument file (.fodt, .fods, .fodp) is no archive but one XML document, translated as
an .odt, .ods or .odp is (attnmt.documents.opendocument_flat).

Why lxml on the parts, not python-docx, python-pptx, openpyxl or odfpy: those libraries read
a file into their own model and write it from that model, which loses what they do not model
(openpyxl drops shapes and charts, python-docx sees no text boxes or footnotes), and each would
be one more dependency for one format.  Here only the parts that hold text are parsed and
written again; every other member of the archive keeps its bytes.  The libraries are the
independent readers of the tests.  An Office Open XML file's parts that hold text are known by
their content types (attnmt.documents.ooxml_parts), and the file checked before any is read, in
attnmt.documents.ooxml_package.

What is translated, per format:

- .docx: the body (tables, text boxes and content controls included), headers, footers,
  footnotes, endnotes, comments (attnmt.documents.ooxml) and their imported chunks (word_chunks);
  a data-bound content control's store value follows its translated text (attnmt.documents.bound_controls),
  a drop-down list's items are translated (attnmt.documents.word_lists);
- .pptx: slides, speaker notes and review comments (classic and modern), the shapes slide
  masters and layouts draw on the slides (not their placeholders: attnmt.documents.slide_masters),
  and its sections' and custom shows' names (attnmt.documents.slide_sections);
- .xlsx: shared strings, inline strings (never formulas, numbers or dates: those are not
  strings), cell comments and threaded comments (attnmt.documents.comments), data validations'
  input and error messages (attnmt.documents.validations), print headers and footers
  (attnmt.documents.sheet_headers), form controls' captions (attnmt.documents.sheet_buttons), defined
  names' comments (attnmt.documents.workbook_names), its number formats' words (attnmt.documents.number_formats),
  and the text boxes and shapes drawn
  on a sheet; a table's column names follow its translated headers,
  its totals row's labels that row's cells (attnmt.documents.tables), and its charts' cached
  labels and its text boxes linked to a cell their cells (attnmt.documents.chart_cells), and so do
  its AutoFilters' values (attnmt.documents.sheet_filters); its
  formulas' cached text results are taken out, to be computed from the translated cells
  (attnmt.documents.formula_results);
- all three: charts' text (titles, axis titles, labels written as text, text boxes drawn on
  a chart; its labels typed as text: attnmt.documents.chart_literals; its own number formats' words:
  attnmt.documents.number_formats) and SmartArt; a .docx's or
  .pptx's chart's embedded workbook, translated as an .xlsx is, its cached categories and series
  names following it (attnmt.documents.chart_workbooks);
- .odt, .odp, .ods (and flat .fodt, .fodp, .fods): content.xml and styles.xml paragraphs and
  headings (not those of a master page's placeholders: a presentation's prompts), and the titles of
  charts (attnmt.documents.opendocument); a spreadsheet's filters follow its translated cells
  (attnmt.documents.opendocument_filters);
- .epub: its XHTML pages, as HTML is (attnmt.documents.markup), and its table of contents
  (attnmt.documents.epub).

The document's language (``w:lang``, ``lang``, ``fo:language``, ``xml:lang``,
``dc:language``) is set to ``DocumentOptions.target_lang`` where one is given; a Word or
PowerPoint paragraph whose every sentence kept its source text (--below-quality source) says the
source language (``DocumentOptions.source_lang``) on its runs; a translated Word, PowerPoint or
OpenDocument paragraph is laid out in the target language's direction (``w:bidi``, ``w:rtl``;
``rtl``; ``style:writing-mode``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import HEAD, Archive, Job, Part, read_archive, serialise_part, write_archive
from attnmt.documents.bound_controls import write_stores
from attnmt.documents.caption_labels import own_labels
from attnmt.documents.caption_references import update_caption_references
from attnmt.documents.cell_limit import over_cell_limit
from attnmt.documents.chart_cells import follow_cells
from attnmt.documents.chart_workbooks import chart_workbooks, follow_workbook
from attnmt.documents.comments import QuotedComment
from attnmt.documents.distinct_names import NamesJob
from attnmt.documents.drawing_direction import forget_styled_direction, set_drawing_direction
from attnmt.documents.epub import epub_parts
from attnmt.documents.flat import Place, parted
from attnmt.documents.formula_results import forget_string_results
from attnmt.documents.index_entries import translate_entries
from attnmt.documents.markup import TreeJob
from attnmt.documents.markup_text import quotes_in_form, quotes_placed
from attnmt.documents.number_formats import follow_cell_formats, over_format_limit
from attnmt.documents.office_labels import alone_blocks, caption_labels, office_labels
from attnmt.documents.office_suffixes import FLAT_SUFFIXES, MACRO_SUFFIXES, SUFFIXES
from attnmt.documents.ooxml import ParagraphJob
from attnmt.documents.ooxml_dialects import DRAWING, WORD
from attnmt.documents.ooxml_language import forget_languages, say_source_language, set_direction
from attnmt.documents.ooxml_parts import ooxml_parts
from attnmt.documents.opendocument import OpenDocumentParagraph, opendocument_parts
from attnmt.documents.opendocument_cell_lines import LinedPart
from attnmt.documents.opendocument_conditions import ConditionalTextJob
from attnmt.documents.opendocument_direction import Derived, set_writing_mode
from attnmt.documents.opendocument_filters import follow_database_filters, follow_ranges
from attnmt.documents.opendocument_flat import BODY_PART, flat_parts, has_macros, read_flat
from attnmt.documents.opendocument_literals import QUOTES, follow_content_literals, follow_formulas
from attnmt.documents.pipeline import (
    DocumentOptions,
    check_inputs,
    translate_flats,
    translator_glossary,
    translator_sentences,
)
from attnmt.documents.pivot_caches import pivot_headers
from attnmt.documents.repeats import Repeats
from attnmt.documents.review import Review
from attnmt.documents.sheet_filters import follow_filters
from attnmt.documents.sheet_headers import over_header_limit
from attnmt.documents.sheet_literals import follow_sheet_literals
from attnmt.documents.short_labels import KeepingLabels, field_sentences, keep_sources, keep_whole_sources
from attnmt.documents.spans import Nested
from attnmt.documents.stop_points import stop_point
from attnmt.documents.tables import keep_tables_whole
from attnmt.documents.translators import ForXml, Translator
from attnmt.documents.validations import over_message_limit, over_value_limit
from attnmt.documents.word_conditions import IfFieldJob
from attnmt.documents.word_lists import translate_list_items
from attnmt.documents.workbook_names import over_comment_limit
from attnmt.errors import ConfigError, DataError, LeftUntranslated, warn

CHUNK = 256  # paragraphs per translate call: progress is reported after each, and a call batches its sentences


def translate_office(data: bytes, suffix: str, translator: Translator, options: DocumentOptions,
                     progress: Callable[[int, int], None] | None = None, name: str | None = None,
                     review: Review | None = None) -> bytes:
    """The file translated (``suffix``: its extension, one of SUFFIXES), as the module docstring
    says; ``progress(done, total)`` is told the sentences translated so far, of the file's; ``review``
    (attnmt.documents.review) places each sentence at its member and paragraph.  DataError, one
    line naming the file (``name``, else "the .docx file") and the member, for a file that cannot
    be read (attnmt.documents.archive); ConfigError for ``data`` that is no bytes (a file's name, or its
    path, was a TypeError or AttributeError in the zip reader), and for a ``suffix`` that is no str, a
    ``translator`` without ``translate`` (a model itself), ``options`` that are no DocumentOptions, a
    ``review`` that is no Review or a ``progress`` that is no function (each an AttributeError or a
    TypeError deep in the file: pipeline.check_inputs), and a ``name`` that is neither None, a str nor a
    path (a number was taken, and named the file in its errors)."""
    if not isinstance(data, bytes | bytearray):
        raise ConfigError(f"data: expected the file's bytes, got {type(data).__name__}")
    if not isinstance(suffix, str):
        raise ConfigError(f"suffix: expected a str, the file's extension (\".docx\"), got {suffix!r:.80}")
    if isinstance(name, os.PathLike) and isinstance(os.fspath(name), str):
        name = os.fspath(name)  # a Path names the file as its text does
    if name is not None and not isinstance(name, str):
        raise ConfigError(f"name: expected None, a str or a path, the file's name in messages (\"report.docx\"), "
                          f"got {name!r:.80}")
    check_inputs(translator, options, review, progress)
    return translate_archive(data, suffix, translator, options, progress, name or f"the {suffix.lower()} file",
                             review)


def translate_archive(data: bytes, suffix: str, translator: Translator, options: DocumentOptions,
                      progress: Callable[[int, int], None] | None = None, name: str = "input",
                      review: Review | None = None) -> bytes:
    """``translate_office``, errors naming the file as ``name``."""
    suffix = suffix.lower()
    if suffix not in SUFFIXES:
        raise DataError(f"{name}: files ending in {suffix or '(no extension)'} cannot be translated; "
                        f"these can: {', '.join(SUFFIXES)}")
    if suffix in FLAT_SUFFIXES:
        return translate_flat(data, suffix, translator, options, progress, name, review)
    archive = read_archive(data, name, suffix)
    check_macros(archive, suffix, options)
    parts = find_parts(archive, suffix, options, translator_glossary(translator))
    if review is not None:
        review.archive = True  # its places are parts and paragraphs, whether or not a sentence needs review
    places = translate_jobs(parts, translator, options, progress, review, name)
    if suffix in (".xlsx", ".xlsm"):
        added, no_longer_shown = keep_tables_whole(archive, parts, pivot_headers(archive))
        parts += added
        follow_cells(archive, parts)  # the cells' text final: header cells kept for a table too
        follow_cell_formats(archive, parts)  # charts' formats linked to the cells' follow them too
        parts += follow_filters(archive, parts)  # filters show the values their cells show now
        parts += follow_sheet_literals(archive, parts, name, translator, options, review)  # so do formulas' texts
        parts += forget_string_results(archive, parts)  # formulas computed again from the translated cells
        if review is not None:
            review.withdraw({places[string] for string in no_longer_shown if string in places})
    if suffix == ".ods":
        follow_database_filters(archive, parts)  # filters show the values their cells show now
        follow_content_literals(archive, parts, translator, options, review)  # so do formulas' texts, rules, lists
    if suffix in (".docx", ".docm"):
        shown = partial(reshown, review, places)  # a control's row shows the text it is given now
        parts += write_stores(archive, parts, shown)  # data-bound controls' stores hold their translated text
        translate_entries(parts, translator, options, review)  # the index Word builds again reads as the one it shows
        translate_list_items(parts, translator, options, review, shown)  # a form's drop-downs offer translated choices
        updated = update_caption_references(part.tree.getroot() for part in parts)  # "Tabelle 2", as F9 writes it
        for part in (part for part in parts if part.tree.getroot() in updated):
            part.changed = True
    if suffix in (".docx", ".docm", ".pptx", ".pptm"):
        translate_chart_workbooks(archive, parts, translator, options, name, review)
    for part in parts:
        if part.changed:
            archive.replace(part.member, part.written(archive.read(part.member, HEAD)))
    return write_archive(archive)


def reshown(review: Review | None, places: dict[etree._Element, Place], control: etree._Element, before: str,
            after: str) -> None:
    """A control or field kept whole in its sentence that shows ``after`` now where it showed ``before`` (word_controls.
    Reshown: a Word control, an IF field's result, an OpenDocument list or conditional text), shown so in the
    ``review``'s row of the nearest paragraph around it that has one (``places``: translate_jobs)."""
    if review is not None:
        held = next((node for node in (control, *control.iterancestors()) if node in places), None)
        review.reshown(None if held is None else places[held], before, after)


def translate_chart_workbooks(archive: Archive, parts: Sequence[Part], translator: Translator,
                              options: DocumentOptions, name: str, review: Review | None = None) -> None:
    """Each workbook embedded in the file that charts among ``parts`` read (chart_workbooks) translated
    as an .xlsx file is, and the labels its charts keep of its cells made to follow them
    (chart_workbooks.follow_workbook); ``review`` lists its sentences at the workbook's member and
    the part of it that holds them (Review.nest_places: "word/embeddings/Sheet1.xlsx/xl/sharedStrings.xml"),
    as it does the file's own.  One that cannot be translated (damaged, or with macros that
    ``options`` do not allow) is kept as it was, and so are its charts' labels, with a warning
    naming the file and the member, and the review lists none of it; the rest of the file is translated."""
    for member, charts in chart_workbooks(archive, parts).items():
        stop_point()
        where = f"{name}: member {member}"
        data = archive.read(member)
        listed = review.listed() if review is not None else None
        try:
            translated = translate_archive(data, member[member.rindex("."):], translator, options, name=where,
                                           review=review)
            follow_workbook(charts, data, translated, where)
        except DataError as e:
            warn(f"{e}; the chart's workbook, and the categories and series names its charts show, are kept "
                 "as they were", category=LeftUntranslated)
            if review is not None and listed is not None:
                review.nest_places(listed, None)
            continue
        if review is not None and listed is not None:
            review.nest_places(listed, member)
        archive.replace(member, translated)


def translate_flat(data: bytes, suffix: str, translator: Translator, options: DocumentOptions,
                   progress: Callable[[int, int], None] | None, name: str, review: Review | None) -> bytes:
    """``translate_archive`` of a flat OpenDocument file (``suffix``: .fodt, .fods or .fodp): its
    one XML document's parts (opendocument_flat.flat_parts) translated, and written again."""
    tree = read_flat(data, name, suffix)
    if has_macros(tree) and not options.macros:
        raise macros_refused(name, "Basic modules in office:scripts", options.macros_hint)
    parts = flat_parts(tree, options, translator_glossary(translator))
    if review is not None:
        review.archive = True  # its places are parts and paragraphs, as an .odt's are
    translate_jobs(parts, translator, options, progress, review, name)
    if suffix == ".fods" and (b"database-range" in data or any(quote in data for quote in QUOTES)):
        source = read_flat(data, name, suffix).getroot()  # filters and formulas read against the file as it came
        follow_ranges(tree.getroot(), source)
        follow_formulas(tree.getroot(), source, translator, options, BODY_PART, review)
    for part in parts:  # a cell's lines joined for reading parted again, as an .ods's part is when written
        if isinstance(part, LinedPart):
            part.part_lines()
    return serialise_part(tree, data[:HEAD])


def check_macros(archive: Archive, suffix: str, options: DocumentOptions) -> None:
    """Files with macros are refused unless ``options.macros``: a translated copy would carry them on."""
    if options.macros:
        return
    holders = [n for n in archive.names() if n.endswith("vbaProject.bin") or n.startswith(("Basic/", "Scripts/"))]
    if suffix in MACRO_SUFFIXES or holders:
        raise macros_refused(archive.name, f"member {holders[0]}" if holders else f"a {suffix} file",
                             options.macros_hint)


def macros_refused(name: str, where: str, hint: str) -> DataError:
    """The refusal of the file ``name`` for its macros (``where``: the member that holds them, or
    the file's kind), ending with ``hint`` (DocumentOptions.macros_hint): the library, the
    command line and a server each tell their reader a way of their own."""
    return DataError(f"{name}: the file holds macros ({where}); {hint}")


def find_parts(archive: Archive, suffix: str, options: DocumentOptions, glossary: Glossary | None) -> list[Part]:
    """The parts that hold text, each with its jobs: its texts with words, or a term of ``glossary``
    (the translator's: letterless.needs_translation)."""
    if suffix == ".epub":
        return epub_parts(archive, options, glossary)
    if suffix.startswith(".od"):
        return opendocument_parts(archive, options, suffix, glossary)
    return ooxml_parts(archive, suffix[:-1] + "x", options, glossary, named=suffix)


def translate_jobs(parts: Sequence[Part], translator: Translator, options: DocumentOptions,
                   progress: Callable[[int, int], None] | None,
                   review: Review | None = None, name: str = "input") -> dict[etree._Element, Place]:
    """Every job's flat texts translated (``job_results``), then the jobs finished last to first: a
    paragraph inside a text box, note or frame comes after the paragraph holding it, and is
    translated in place before that paragraph copies the box; a paragraph whose sentences all kept
    their source (FlatText.source_kept) says the languages its runs stated again where the target's
    was set (ooxml_language.say_source_language), a translated Word or DrawingML paragraph takes the
    target's direction (ooxml_language.set_direction, drawing_direction.set_drawing_direction; an
    OpenDocument one: opendocument_direction.set_writing_mode), and what set_language and
    mark_styled_direction kept aside is then taken out of every part.  A workbook's string whose
    translation is too long for a cell keeps its source (attnmt.documents.cell_limit: a warning
    naming the file, ``name``, and it is withdrawn from the ``review``), and so does a data
    validation's message too long for Excel's dialog (attnmt.documents.validations).  A part with jobs is
    marked changed, and its jobs are let go one by one as they finish: a job's marks hold its
    paragraph's old runs, which so are freed while the new ones are written, not kept beside them.
    Returns, with a ``review``, each Office Open XML paragraph's place (a string of a workbook's
    too: attnmt.documents.tables may give its cell back its source, and the review its rows)."""
    jobs: list[Job] = [job for part in parts for job in part.jobs]
    results = job_results(parts, translator, options, progress, review, name)
    places = {} if review is None else paragraph_places(jobs)
    for part in parts:
        part.changed = part.changed or bool(part.jobs)
        part.jobs = []
    tables_done: set[etree._Element] = set()  # each table holding translated paragraphs is settled once
    derived: Derived = {}  # each OpenDocument style replaced by one of the target's direction, made once
    while jobs:
        stop_point()  # a deleted job stops between the paragraphs it writes
        job, result = jobs.pop(), results.pop()
        if any(over(job, result, name) for over in (over_cell_limit, over_value_limit, over_message_limit,
                                                       over_header_limit, over_comment_limit, over_format_limit)):
            if review is not None:
                review.withdraw({flat.place for flat in job.flats() if flat.place is not None})
            continue
        job.finish(result)
        if isinstance(job, IfFieldJob | ConditionalTextJob) and job.reshown is not None:  # shows a translation
            reshown(review, places, *job.reshown)
        if isinstance(job, IfFieldJob | ConditionalTextJob) and review is not None:  # each choice's row as written
            for place, source, text in job.chosen:
                review.written(place, source, text)
        if isinstance(job, NamesJob):  # pivot tables' or custom shows' names that would be another's kept their source
            job.warn_kept(name)
        if options.target_lang and isinstance(job, OpenDocumentParagraph) and job.translated():
            set_writing_mode(job, options.target_lang, derived)
        # before a paragraph holding this one (in a text box) copies it
        if not options.target_lang or not isinstance(job, ParagraphJob) or job.dialect not in (WORD, DRAWING):
            continue  # the dialects set_language gave the target language
        if job.flat.source_kept:
            say_source_language(job.paragraph, job.dialect, options.source_lang)
        elif job.dialect is WORD:  # translated: laid out in the target's direction
            set_direction(job.paragraph, job.styles, options.target_lang, tables_done)
        else:
            set_drawing_direction(job.paragraph, options.target_lang, tables_done)
    if options.target_lang:
        for part in parts:
            forget_languages(part.tree.getroot())
            forget_styled_direction(part.tree.getroot())
    return places


def paragraph_places(jobs: Sequence[Job]) -> dict[etree._Element, Place]:
    """The place of each Office Open XML paragraph among ``jobs``, and of each element inline in an OpenDocument
    paragraph's text (its run's children: a span, a field, a control), where the review lists their sentences."""
    places = {job.paragraph: job.flat.place for job in jobs
              if isinstance(job, ParagraphJob) and job.flat.place is not None}
    places.update((child, flat.place) for job in jobs if isinstance(job, OpenDocumentParagraph)
                  for run, flat in job.runs if flat.place is not None for child in run.children)
    return places


def job_results(parts: Sequence[Part], translator: Translator, options: DocumentOptions,
                progress: Callable[[int, int], None] | None,
                review: Review | None = None, name: str = "input") -> list[list[list[str | Nested]]]:
    """Each job's flat texts translated, one list a job, CHUNK flat texts a call; ``progress`` told the sentences
    done (of the file's, ``name``, which a warning names) after each.  Each flat text's place is its part's
    member and its number among the part's flat texts that a reader sees (for ``review``: a text box's
    fallback copy, which is not, has no place)."""
    groups = [job.flats() for part in parts for job in part.jobs]
    for part, part_groups in zip(parts, parted(groups, [part.jobs for part in parts]), strict=True):
        part_flats = [flat for group in part_groups for flat in group if flat.seen]
        for number, flat in enumerate(part_flats, start=1):
            flat.place = Place(part.member, number)
    flats = [flat for group in groups for flat in group]
    # a page's, an OOXML paragraph's, a comment's quotes read (word_quotes): none in other jobs, where it does nothing
    pages = [isinstance(job, ParagraphJob | QuotedComment) or isinstance(job, TreeJob) and not job.vocabulary.xml
             for part in parts for job in part.jobs]
    # an EPUB page's She said "hi" -> Sie sagte „hallo“, as translate_trees writes an HTML file's
    quotes_in_form([flat for page, group in zip(pages, groups, strict=True) if page for flat in group],
                   options.target_lang)
    sentences = translator_sentences(flats, translator, options)  # as translate_flats splits them
    total, done = sum(map(len, sentences)), 0
    if progress is not None:
        progress(0, total)
    results: list[list[str | Nested]] = []
    calls = [(flats[start:start + CHUNK], sentences[start:start + CHUNK]) for start in range(0, len(flats), CHUNK)]
    repeats = Repeats.of(calls) if review is None and len(calls) > 1 else None  # review: translate_flats
    # a short alt text or caption label the model garbled keeps its source (attnmt.documents.short_labels)
    jobs = [job for part in parts for job in part.jobs]
    blocks = alone_blocks(jobs, sentences)
    labels = KeepingLabels(translator, office_labels(jobs, sentences, blocks), field_sentences(flats, sentences),
                           options.target_lang,
                           own_labels(caption_labels(jobs, sentences), options.source_lang, options.target_lang))
    keeping = ForXml(labels)
    for call, chunk in calls:
        results += translate_flats(call, keeping, options, review, chunk, repeats, where=name)
        done += sum(map(len, chunk))
        if progress is not None:
            progress(done, total)
    keep_sources(blocks, labels.kept)  # a paragraph kept whole says the source's language
    keep_whole_sources(flats, sentences, labels.kept)  # and one whose garbled name and lost measure were kept
    return [quotes_placed(group, result, options.target_lang) if page else result  # a quote is a page's text
            for page, group, result in zip(pages, groups, parted(results, groups), strict=True)]
