"""An Office Open XML file's parts that hold text (.docx, .pptx, .xlsx and their macro-enabled
kinds), each with its jobs, in the order a reader meets them: found by their content types once the
file is checked (attnmt.documents.ooxml_package), with what their paragraphs are read with (a Word
file's styles, the levels at which a presentation's masters lay paragraphs out right to left), and,
where a target language is given, Word's styles part whose default language is set to it.
attnmt.documents.office translates them."""

from __future__ import annotations

import re

from attnmt.decoding.glossary import Glossary
from attnmt.documents.archive import Archive, Part, kind_advice, parse_part
from attnmt.documents.bound_controls import Bindings
from attnmt.documents.chart_literals import literal_jobs
from attnmt.documents.chart_workbooks import cache_jobs
from attnmt.documents.comments import P, follow_threads
from attnmt.documents.drawing_direction import mark_styled_direction, rtl_levels
from attnmt.documents.field_revisions import free_ids
from attnmt.documents.link_tips import with_link_tips
from attnmt.documents.number_formats import chart_format_jobs
from attnmt.documents.ooxml_dialects import DRAWING, WORD, s
from attnmt.documents.ooxml_language import set_language
from attnmt.documents.ooxml_package import (
    CONTENT_TYPES,
    OOXML_PARTS,
    Texts,
    check_main_part,
    check_shared_string_cells,
    check_text_parts,
    check_transitional,
    content_types,
)
from attnmt.documents.ooxml_paragraphs import paragraph_jobs
from attnmt.documents.package_properties import binds_core_properties, core_properties, property_parts
from attnmt.documents.pipeline import DocumentOptions
from attnmt.documents.sheet_buttons import button_parts
from attnmt.documents.slide_masters import MASTER_SHAPES
from attnmt.documents.tables import relationships
from attnmt.documents.validations import WORKSHEET
from attnmt.documents.word_chunks import chunk_parts, imported_chunks
from attnmt.documents.word_looks import word_styles
from attnmt.documents.wordml import RELATIONSHIP_ID, w
from attnmt.errors import DataError

# A SmartArt's drawn copy of its nodes' text (diagrams/drawing1.xml, beside its data, diagrams/data1.xml), which
# Office draws until it lays the SmartArt out again from the data: translated, but neither placed nor reviewed
# (FlatText.seen), as a Word text box's fallback copy is not: its every node would be listed twice.
DIAGRAM_DRAWING = ".drawingml.diagramDrawing+xml"


def ooxml_parts(archive: Archive, suffix: str, options: DocumentOptions, glossary: Glossary | None,
                named: str | None = None) -> list[Part]:
    """The parts of an Office Open XML file that hold text, found by their content types (``suffix``:
    .docx, .pptx or .xlsx; ``named``: the file's own extension, .docm for one with macros)."""
    named = named or suffix
    if CONTENT_TYPES not in archive:
        raise DataError(f"{archive.name}: member {CONTENT_TYPES} is missing; this is not a {named} file"
                        f"{kind_advice(archive)}")
    types = parse_part(archive, CONTENT_TYPES).getroot()
    kinds, chunks = imported_chunks(archive, content_types(archive, types))  # chunks: read by their own types
    main = check_main_part(archive, kinds, suffix, named)
    check_transitional(archive, main, suffix)
    check_text_parts(archive, types, main, suffix)
    styles = word_styles(archive, main) if suffix == ".docx" else None
    # A notes page's paragraphs take the notes master's list styles, a slide's the slide masters'
    levels = {notes: slide_rtl_levels(archive, kinds, main, notes) if suffix == ".pptx" and options.target_lang
              else frozenset() for notes in (False, True)}
    parts = []
    bindings = Bindings(archive)  # Word's data-bound controls: those whose store cannot be set kept whole
    order = reading_order(archive, kinds, suffix, main)
    # a change's, comment's or bookmark's id is the package's: one the body shares with a footnote is a damaged file
    ids = free_ids(archive.to_parse(member) for member, texts in order if texts is WORD)
    for member, texts in order:
        if texts is WORKSHEET and not WORKSHEET.may_hold_text(archive.read(member)):
            continue  # a worksheet of numbers and shared strings: left unparsed
        tree = parse_part(archive, member)
        if options.target_lang and texts in (WORD, DRAWING):  # a part without jobs is not written again
            set_language(tree.getroot(), texts, options.target_lang)
            if texts is DRAWING:
                mark_styled_direction(tree.getroot(), levels[kinds[member].endswith(".notesSlide+xml")])
        if options.target_lang and texts is MASTER_SHAPES:  # their drawn shapes alone
            MASTER_SHAPES.set_language(tree.getroot(), options.target_lang)
        if texts is WORD:
            bindings.keep_unresolved(tree.getroot())
        # Word's paragraphs read with the document's styles, which give a run its look as its own properties do
        jobs = (paragraph_jobs(tree.getroot(), WORD, glossary, styles, options.source_lang, ids) if texts is WORD
                else texts.jobs(tree.getroot(), glossary))
        if texts in (WORD, DRAWING):  # their links' screen tips, each after its paragraph, and pictures' alt text
            jobs = with_link_tips(tree.getroot(), jobs, glossary, options.target_lang)
        if texts is DRAWING:  # a chart's series names and categories typed as text, a linked one's cache, its formats
            literal = literal_jobs(tree.getroot(), glossary)
            held = {job.element for job in literal}  # a quoted name's cached point is a literal, read once
            cached = cache_jobs(archive, member, tree.getroot(), glossary) if suffix != ".xlsx" else []
            jobs = [*jobs, *literal, *(job for job in cached if job.element not in held),
                    *chart_format_jobs(tree.getroot(), glossary)]
        if kinds[member].endswith(DIAGRAM_DRAWING):  # the copy Office draws a SmartArt from: its data part is reviewed
            for flat in (flat for job in jobs for flat in job.flats()):
                flat.seen = False
        parts.append(Part(member, tree, list(jobs)))
    parts += chunk_parts(archive, chunks, options, glossary)  # what Word parts import: HTML, XHTML, text
    if not binds_core_properties(parts):  # the document's title and subject, but where a control shows them
        parts += property_parts(archive, core_properties(kinds), glossary, options.target_lang)
    if suffix == ".xlsx":  # its form controls' captions, in legacy drawings that are not parsed
        parts += button_parts(archive, kinds, glossary)
    follow_threads(parts)  # a workbook's notes beside threads keep the threads' mentions
    if suffix == ".xlsx":
        check_shared_string_cells(archive, main, parts)
    if suffix == ".docx" and options.target_lang:
        parts += word_language_parts(archive, kinds, options.target_lang)
    return parts


def slide_rtl_levels(archive: Archive, kinds: dict[str, str], main: str, notes: bool) -> frozenset[int]:
    """The levels at which a presentation's slide masters, layouts and presentation.xml (``main``) may
    lay a slide's paragraphs out right to left (drawing_direction.rtl_levels), or, for ``notes``, its
    notes master (``p:notesStyle``) and presentation.xml a notes page's; a master or layout that
    does not parse is left out, as PowerPoint would not show it (its slides are still translated)."""
    masters = (".notesMaster+xml",) if notes else (".slideMaster+xml", ".slideLayout+xml")
    roots = []
    for member, kind in kinds.items():
        if member == main or kind.endswith(masters):
            try:
                roots.append(parse_part(archive, member).getroot())
            except DataError:
                continue
    return rtl_levels(roots)


def reading_order(archive: Archive, kinds: dict[str, str], suffix: str, main: str) -> list[tuple[str, Texts]]:
    """The members that hold text, each with how its text is found, in the order a reader meets
    them, which the review's rows follow (docs/documents.md, "Sentences that need review"), not
    [Content_Types].xml's (python-docx sorts it by name: comments before the body, slide10 before
    slide2): by kind, as OOXML_PARTS lists them (the body, headers, footers, notes, comments);
    slides and their notes as the presentation shows the slides, sheets as the workbook's tabs
    (``shown_order``), the rest of a kind by the numbers in their names."""
    found = []
    for member, kind in kinds.items():
        rank = next((rank for rank, (end, _) in enumerate(OOXML_PARTS[suffix]) if kind.endswith(end)), None)
        if rank is not None:
            found.append((rank, member))
    shown = shown_order(archive, kinds, suffix, main)
    found.sort(key=lambda each: (each[0], shown.get(each[1], len(shown)), numbered(each[1])))
    return [(member, OOXML_PARTS[suffix][rank][1]) for rank, member in found]


def numbered(member: str) -> list[str | int]:
    """A member's name as it sorts by the numbers in it: slide2 before slide10.  Its numbers are
    the pieces of decimal digits the pattern matches (isdecimal), not a superscript "²" between
    them ("slide1²2.xml"), which isdigit but int cannot read."""
    return [int(piece) if piece.isdecimal() else piece for piece in re.split(r"(\d+)", member)]


def shown_order(archive: Archive, kinds: dict[str, str], suffix: str, main: str) -> dict[str, int]:
    """Each slide's member -> its place in the presentation (``p:sldIdLst``), each notes page's its
    slide's place (through the notes page's relationship to its slide), each worksheet's its tab's
    place (workbook.xml's ``sheets``), which their names' numbers need not be (a slide or a sheet
    moved keeps its name); {} for a Word file."""
    if suffix == ".xlsx":
        return listed_order(archive, main, s("sheet"))
    if suffix != ".pptx":
        return {}
    shown = listed_order(archive, main, f"{{{P}}}sldId")
    for member, kind in kinds.items():
        if kind.endswith(".notesSlide+xml"):
            slide = next((related.member for related in relationships(archive, member).values()
                          if related.kind.endswith("/slide")), None)
            if slide in shown:
                shown[member] = shown[slide]
    return shown


def listed_order(archive: Archive, main: str, tag: str) -> dict[str, int]:
    """Each member the main part lists in ``tag`` elements (by relationship id) -> its place in the list."""
    members = relationships(archive, main)
    ids = [node.get(RELATIONSHIP_ID) for node in parse_part(archive, main).getroot().iter(tag)]
    return {members[each].member: number for number, each in enumerate(ids) if each in members}


def word_language_parts(archive: Archive, kinds: dict[str, str], language: str) -> list[Part]:
    """Word's default language (its styles' ``w:lang``), set to ``language``."""
    parts = []
    for member, kind in kinds.items():
        if kind.endswith(".styles+xml"):
            tree = parse_part(archive, member)
            set_language(tree.getroot(), WORD, language)
            parts.append(Part(member, tree, changed=any(True for _ in tree.getroot().iter(w("lang")))))
    return parts
