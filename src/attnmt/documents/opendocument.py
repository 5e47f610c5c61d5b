"""OpenDocument text, presentations and spreadsheets (.odt, .odp, .ods): the paragraphs and
headings (``text:p``, ``text:h``) of content.xml and styles.xml (its master pages' headers and
footers), translated as HTML blocks are (attnmt.documents.markup), for ODF is mixed content too.
A master page's placeholders are not translated (a shape with a ``presentation:class``: the slide
master's title and outline, whose text is the prompt an editor shows, "Click to edit the title text
format"), as a .pptx's masters' and layouts' are not; its other shapes (a text box "Only for the
team.") are drawn on every slide, and are translated.  The text those placeholders show on a slide, its header
and footer (and its date, where it is fixed text), is the presentation's own: plain text in a declaration of
content.xml (``presentation:footer-decl``, DECLARATIONS) that a slide names, which is translated as a paragraph is;
so is the title an index writes again on each update (``text:index-title-template``, INDEX_TITLE), an index mark's
entry and keys (opendocument_index_marks), a form's controls' labels (opendocument_forms), a numbering's words
(opendocument_numbering: "Chapter 1"), a data style's ("5 items": opendocument_data_styles) and a custom show's
name, which the show the presentation starts with follows (opendocument_shows).

Inside a paragraph, ``text:span``, ``text:a``, ``text:meta``, LibreOffice's content control and a ruby
(``text:ruby`` and its ``text:ruby-base``, whose words are read with the sentence, as HTML's ``<ruby>`` is; its
annotation, ``text:ruby-text``, is an atom kept after its base) are marks, but for one the model would read nothing
of (around a note alone), a marker (symbols alone between words: markers.is_marker_text; a link's "[3]":
markers.is_reference; a superscript "¹²" glued to a word or stop: markers.is_note_number), code
(attnmt.documents.opendocument_code: a span in "Source Text", or in a monospaced font beside words in another, as
in an Office file; a paragraph in "Preformatted Text", or of code typed so among words, is kept whole:
attnmt.documents.opendocument_code_blocks) or hidden text beside visible words (``text:display="none"``: an
editor's note, kept whole and unread as a hidden Word run is); everything else (``text:s`` spaces, tabs, line
breaks, fields, notes, frames, bookmarks) is an atom kept as it is (attnmt.documents.opendocument_vocabulary), but
a ``text:s`` of one space between two things shown, read as the space it is (``Slide<text:s/><text:page-number/>``:
opendocument_vocabulary.is_lone_space); a link's tooltip (its ``office:title``) is translated line by line, as an
.xlsx's screen tip is (``link_titles``): a text link's (``text:a``) and a picture's or shape's (``draw:a`` around
it, in a paragraph or on its own, as on a slide); a frame's or shape's alt text (``svg:title``, ``svg:desc``) as
plain text (attnmt.documents.alt_texts). Where every character of a paragraph is in a span (LibreOffice writes a
converted run's direct formatting so: 10 pt spans in a 28 pt paragraph), the text the translation puts outside them
(the space between two spans) goes into the span beside it (``into_spans``), as an OOXML paragraph's text outside
its marks goes into runs of its base look: outside every span it took the paragraph's. A note's, an annotation's or
a text box's own paragraphs are translated as paragraphs of their own. A spreadsheet cell whose value is not a
string (a number, a date, a formula's) is not translated, and a translated string cell loses its
``office:string-value`` (attnmt.documents.opendocument_cells; a formula's text result that LibreOffice computes again
is taken out: attnmt.documents.opendocument_formulas). A header a DataPilot table (a pivot table) names its fields
after is not translated (attnmt.documents.opendocument_pivots); a validity message's title is
(attnmt.documents.opendocument_validations).
``fo:language`` and ``fo:country`` of the styles follow the target language.

A chart is a document of its own inside the file (``Object 1/content.xml``, named in
META-INF/manifest.xml): the paragraphs of its title, subtitle and axis titles are translated, and
so are its table's (``table:table``) categories and series names, string cells; its numbers are kept. The picture of the
chart the file keeps beside it (``ObjectReplacements/``), for readers that cannot draw charts, is
kept too, as it was, as is an embedded object's (a spreadsheet in a text), translated as a file of its kind.

The file's kind, its charts and objects and its encryption are read from its ``mimetype`` and its manifest,
before any part is (attnmt.documents.opendocument_package).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.alt_texts import ALT_ELEMENTS, svg_alt_text_jobs
from attnmt.documents.archive import Archive, Part, parse_part
from attnmt.documents.comments import TextJob
from attnmt.documents.flat import FlatText
from attnmt.documents.letterless import needs_translation
from attnmt.documents.markup import TreeJob
from attnmt.documents.opendocument_cell_lines import LinedPart, cell_lines
from attnmt.documents.opendocument_cells import drop_string_values, holding_cell, is_value, take_back
from attnmt.documents.opendocument_code import (
    OFFICE,
    PARAGRAPHS,
    RUBY,
    STYLE,
    TABLE,
    TEXT,
    CodeLooks,
    SharedStyles,
    set_language,
)
from attnmt.documents.opendocument_code_blocks import code_paragraphs
from attnmt.documents.opendocument_conditions import ConditionalTextJob, conditional_jobs
from attnmt.documents.opendocument_data_styles import STYLE_TEXT, data_style_jobs, unlinked
from attnmt.documents.opendocument_deletions import move_inline_deletions
from attnmt.documents.opendocument_forms import CONTROLS, form_jobs
from attnmt.documents.opendocument_formulas import forget_cell_results
from attnmt.documents.opendocument_index_marks import index_mark_jobs
from attnmt.documents.opendocument_note_labels import is_author_label
from attnmt.documents.opendocument_numbering import LEVELS, NumberingJob, numbering_jobs
from attnmt.documents.opendocument_package import check_encryption, check_kind, object_folders, read_manifest
from attnmt.documents.opendocument_pivots import TABLE_ELEMENT, pivot_header_cells, pivot_name_jobs
from attnmt.documents.opendocument_series import is_cell_range, series_name_jobs
from attnmt.documents.opendocument_shows import PRESENTATION, SETTINGS, ShowNamesJob, show_name_jobs
from attnmt.documents.opendocument_validations import message_title_jobs
from attnmt.documents.opendocument_vocabulary import DRAW, LINK, OpenDocumentVocabulary
from attnmt.documents.package_properties import property_parts
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.spans import Nested
from attnmt.documents.validations import AttributeJob

DOCUMENT = f"{{{OFFICE}}}document"  # a flat file's root, and each chart's inside it
# A presentation's header, footer and date texts (the module docstring); a date that is the current date is a format.
DECLARATIONS = tuple(f"{{{PRESENTATION}}}{name}-decl" for name in ("header", "footer", "date-time"))
# The title an index (a table of contents, an alphabetical index, ...) writes again on each update, plain text
# beside the title it shows: translated as a paragraph is, or an update put the source's title back.
INDEX_TITLE = f"{{{TEXT}}}index-title-template"
# Where a document keeps its change history: Writer's (the words a deletion took out) and Calc's (a changed or
# deleted cell's old content, table:previous and table:deletion's cells).
TRACKED_CHANGES = (f"{{{TEXT}}}tracked-changes", f"{{{TABLE}}}tracked-changes")
SOURCE = f"{{{PRESENTATION}}}source"  # a date-time-decl's: "fixed" (its text) or "current-date"
NOTES = f"{{{PRESENTATION}}}notes"  # a slide's speaker notes
PLACEHOLDER_CLASS = f"{{{PRESENTATION}}}class"  # a master page's placeholder's kind: title, outline, footer, …
LINK_TITLE = f"{{{OFFICE}}}title"  # a link's tooltip, which an editor shows when the mouse rests on the link
SHAPE_LINK = f"{{{DRAW}}}a"  # a link around a frame or a shape (a linked picture), with a tooltip as a text link's
PARTS = ("content.xml", "styles.xml")
MASTERS = (f"{{{STYLE}}}master-page", f"{{{STYLE}}}handout-master")
# A master page's headers and footers: their text is shown on every page that has the master.
PAGE_TEXT = frozenset(f"{{{STYLE}}}{edge}{which}" for edge in ("header", "footer") for which in ("", "-left", "-first"))


class OpenDocumentParagraph(TreeJob):
    """One paragraph (or a presentation's declaration), its translation's text outside every span
    put into the span beside it where the source has none there (the module docstring)."""

    states_language = False  # in its styles' fo:language (set_language), not on its elements

    def write_contents(self, runs: Sequence[Sequence[str | Nested]],
                       attributes: Sequence[Sequence[str | Nested]]) -> None:
        placed = [into_spans(flat, content) if all_in_spans(flat) else content
                  for (_, flat), content in zip(self.runs, runs, strict=True)]
        super().write_contents(placed, attributes)


DocumentJob = OpenDocumentParagraph | TextJob | ConditionalTextJob | NumberingJob | ShowNamesJob  # document_jobs' kinds


def all_in_spans(flat: FlatText) -> bool:
    """Whether every character of the paragraph's text is inside one of its marks (a span, a link)."""
    outer = [mark for mark in flat.marks if mark.parent is None and not mark.atom]
    return bool(outer) and all(any(m.start <= i < m.end for m in outer) for i in range(len(flat.text)))


def into_spans(flat: FlatText, content: Sequence[str | Nested]) -> list[str | Nested]:
    """``content`` with each text outside every mark put at the end of the span right before it,
    or, where none is, at the start of the span right after it; beside an atom (a note, a frame),
    a ruby (whose text is its base's and its annotation's alone) or nothing, it stays where it is."""
    def span(piece: str | Nested | None) -> Nested | None:
        if not isinstance(piece, Nested):
            return None
        mark = flat.marks[piece.mark]
        return piece if not mark.atom and mark.node.tag not in RUBY else None

    placed: list[str | Nested] = []
    waiting = ""  # text for the span after it
    for number, piece in enumerate(content):
        before = span(placed[-1]) if placed else None
        if isinstance(piece, str) and before is not None:
            placed[-1] = Nested(before.mark, [*before.content, piece])
        elif isinstance(piece, str) and span(content[number + 1] if number + 1 < len(content) else None):
            waiting += piece
        elif isinstance(piece, Nested) and waiting:
            placed.append(Nested(piece.mark, [waiting, *piece.content]))
            waiting = ""
        else:
            placed.append(piece)
    return placed


def opendocument_parts(archive: Archive, options: DocumentOptions, suffix: str,
                       glossary: Glossary | None) -> list[Part]:
    """The document's parts (PARTS), then each chart's and object's (the module docstring); DataError where the
    file is not of its extension's kind (``suffix``: .odt, .odp or .ods), or no OpenDocument file."""
    check_kind(archive, suffix)
    manifest = read_manifest(archive)
    check_encryption(archive, manifest)
    members = [("", member, False) for member in PARTS]
    members += [(folder, member, chart) for folder, chart in object_folders(manifest) for member in PARTS]
    trees = {folder + member: parse_part(archive, folder + member) for folder, member, _ in members
             if folder + member in archive}
    # each styles.xml (the document's, each object's) indexed once, for every part of its folder
    shared = {folder: SharedStyles.of(trees[folder + name].getroot()) for folder, name, _ in members
              if name == "styles.xml" and folder + name in trees}
    parts = []
    for folder, name, chart in members:
        member = folder + name
        if member not in trees:
            continue
        tree = trees[member]
        added = [] if chart else cell_lines(tree.getroot())  # a cell's sentence read whole
        part = LinedPart(member, tree, document_jobs(tree.getroot(), shared.get(folder), chart, options, glossary))
        take_back(added)  # the cells not translated, as they were
        if options.target_lang:
            part.changed = set_language(tree.getroot(), options.target_lang)
        if not chart and forget_cell_results(tree.getroot()):  # computed again from the translated cells
            part.changed = True
        parts.append(part)
    return parts + property_parts(archive, "meta.xml", glossary, options.target_lang)  # its title, subject, language


def document_jobs(root: etree._Element, shared: SharedStyles | None, chart: bool, options: DocumentOptions,
                  glossary: Glossary | None) -> list[DocumentJob]:
    """The jobs of the paragraphs of one document (``root``: a part's, or a flat file's
    ``office:document``, or a chart's inside it; ``shared``: the styles.xml beside a part, indexed), in their
    order, but for a presentation's speaker notes, which come after every slide, in their slides' order, as
    a .pptx's do; those with nothing to translate left out: the module docstring says which are
    translated.  Each paragraph's job is followed by those of its links' tooltips (link_titles); a
    link around a shape that no paragraph holds (``is_shape_link``) has its tooltip's job where it stands.  A
    document held inside ``root`` (a flat file's chart) is its own, not ``root``'s."""
    if not chart:
        move_inline_deletions(root)  # a flat file's deletions, kept as an .odt's are
    looks = CodeLooks.of(root, shared)
    vocabulary, code = OpenDocumentVocabulary(looks), code_paragraphs(root, looks)  # code: kept whole
    job_options = replace(options, attributes=())
    headers = set() if chart else pivot_header_cells(root)  # kept: a DataPilot names its fields after them

    def is_read(node: etree._Element) -> bool:
        """Whether the paragraph is translated, or the shape's link has its tooltip translated apart."""
        if node.tag == SHAPE_LINK:
            return is_shape_link(node)
        return (is_translated(node, chart) and node not in code and holding_cell(node) not in headers
                and not is_author_label(node))  # a note's "Ann:", kept as an .xlsx's is

    # the paragraphs, and the links around shapes that no paragraph holds (a slide's linked picture)
    holders = [node for node in root.iter(*PARAGRAPHS, *DECLARATIONS, INDEX_TITLE, SHAPE_LINK)
               if is_own(node, root) and is_read(node)]
    holders.sort(key=is_note)  # stable: the slides' paragraphs in their order, then the notes' in theirs
    paragraphs = [node for node in holders if node.tag != SHAPE_LINK]
    jobs = {p: OpenDocumentParagraph(p, vocabulary, job_options, glossary) for p in paragraphs}
    drop_string_values([p for p in paragraphs if jobs[p].runs])
    alt_texts: dict[etree._Element | None, list[etree._Element]] = {}  # by the paragraph a frame stands in
    for alt in (node for node in root.iter(*ALT_ELEMENTS) if is_own(node, root) and not is_cell_range(node)):
        alt_texts.setdefault(next(alt.iterancestors(*PARAGRAPHS), None), []).append(alt)
    found: list[DocumentJob] = []
    for node in holders:
        if node.tag == SHAPE_LINK:
            found += title_jobs([node], glossary)
            continue
        found += [jobs[node]] if jobs[node].runs else []
        found += [*link_titles(node, glossary), *conditional_jobs(node, glossary, options.target_lang)]  # first: copied
        found += index_mark_jobs(node, glossary)
        found += svg_alt_text_jobs(alt_texts.pop(node, []), glossary)
    styled = [text for text in root.iter(STYLE_TEXT) if is_own(text, root)]  # data styles' words
    found += [*series_name_jobs(root, glossary), *data_style_jobs(unlinked(styled, root), glossary)] if chart else [
        *pivot_name_jobs(root, glossary), *message_title_jobs(root, glossary),
        *form_jobs([control for control in root.iter(CONTROLS) if is_own(control, root)], glossary),
        *numbering_jobs([level for level in root.iter(*LEVELS) if is_own(level, root)], glossary),
        *data_style_jobs(styled, glossary),
        *show_name_jobs([settings for settings in root.iter(SETTINGS) if is_own(settings, root)], glossary)]
    # those of a slide's frames, which no paragraph holds (and of one in a paragraph not read)
    return found + svg_alt_text_jobs([alt for alts in alt_texts.values() for alt in alts], glossary)


def link_titles(paragraph: etree._Element, glossary: Glossary | None) -> list[AttributeJob]:
    """A job for the tooltip (``office:title``) of each link of ``paragraph``, around words or around
    a frame (not of a note's or a frame's paragraph inside it: that one's own), translated line by
    line as an .xlsx's screen tip is; it stayed in the source's language.  After the paragraph's job,
    it finishes first, so a link the paragraph's translation copies carries the translated tooltip."""
    return title_jobs([link for link in paragraph.iter(LINK, SHAPE_LINK)
                       if next(link.iterancestors(*PARAGRAPHS), None) is paragraph], glossary)


def title_jobs(links: Sequence[etree._Element], glossary: Glossary | None) -> list[AttributeJob]:
    """A job for the tooltip (``office:title``) of each of ``links`` that has words to translate."""
    return [AttributeJob(link, LINK_TITLE, escaped=False) for link in links
            if needs_translation(link.get(LINK_TITLE, ""), glossary)]


def is_shape_link(link: etree._Element) -> bool:
    """Whether ``link`` (a ``draw:a``) stands on its own, its tooltip translated apart: no paragraph
    holds it (one that does translates it with its own links), nor a master page (its shapes are kept)."""
    return next(link.iterancestors(*PARAGRAPHS, *MASTERS), None) is None


def is_note(paragraph: etree._Element) -> bool:
    """Whether the paragraph is in a slide's speaker notes (``presentation:notes``)."""
    return next(paragraph.iterancestors(NOTES), None) is not None


def is_own(node: etree._Element, root: etree._Element) -> bool:
    """Whether ``node`` belongs to the document ``root``, not to one held inside it: no
    ``office:document`` (a flat file's chart) stands between them."""
    holder = next(node.iterancestors(DOCUMENT), None)
    return holder is None or holder is root


def is_translated(paragraph: etree._Element, chart: bool) -> bool:
    """Whether a paragraph (or a presentation's declaration) is translated: not a chart's data, a
    cell's value, a master page's placeholder, a current date's format, nor a tracked change's words."""
    return (not (is_data(paragraph) if chart else is_value(paragraph)) and not is_master_placeholder(paragraph)
            and paragraph.get(SOURCE) != "current-date" and not is_tracked_change(paragraph))


def is_tracked_change(paragraph: etree._Element) -> bool:
    """Whether the paragraph is in ``text:tracked-changes``: the words a tracked deletion took out (``text:deletion``),
    which the document shows struck through, kept as they were (as Word's ``w:delText`` is); translated, they came
    back as sentences of their own beside the text.  Or in a spreadsheet's ``table:tracked-changes``: a cell's content
    before a change (``table:previous``) or a deletion, which Calc's Manage Changes shows and restores on rejecting
    it; translated, a rejected change put a translated old value back into a sheet otherwise in the source language."""
    return next(paragraph.iterancestors(*TRACKED_CHANGES), None) is not None


def is_master_placeholder(paragraph: etree._Element) -> bool:
    """Whether the paragraph is in a master page's placeholder (the module docstring): in a drawing
    element (draw:frame, draw:custom-shape, …) of a master page that has a ``presentation:class``,
    not in its header or footer, whichever element holds those (style:header, or LibreOffice's own
    loext:header-first)."""
    in_placeholder = False
    for ancestor in paragraph.iterancestors():
        if ancestor.tag in PAGE_TEXT:
            return False
        if ancestor.tag in MASTERS:
            return in_placeholder
        in_placeholder = in_placeholder or (ancestor.tag.startswith(f"{{{DRAW}}}")
                                            and ancestor.get(PLACEHOLDER_CLASS) is not None)
    return False


def is_data(paragraph: etree._Element) -> bool:
    """Whether a chart's paragraph is a number of its table (its data): a ``table:table`` stands
    between it and its chart's own ``office:document``, and its cell is no string cell.  A string
    cell is a category's or a series' name, which the chart shows on its axis and in its legend, as
    an .xlsx chart's cached labels are translated.  In a flat file the chart's frame may itself sit in
    a table (a spreadsheet's cell, a text's table), which is not the chart's: every paragraph of the
    chart counted as its data, and its titles were not translated."""
    holder = next(paragraph.iterancestors(TABLE_ELEMENT, DOCUMENT), None)
    return holder is not None and holder.tag == TABLE_ELEMENT and is_value(paragraph)

