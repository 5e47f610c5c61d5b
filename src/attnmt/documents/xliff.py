"""XLIFF files (``.xlf``, ``.xliff``), as a CAT tool or a software project hands them out: each
unit's ``<source>`` translated into its ``<target>``, everything else kept as it came.

    translate_xliff(text, translator, options, where)  -> the file's text with its targets filled

XLIFF is bilingual: read as any XML (attnmt.documents.markup), its ``<source>`` was overwritten with
the translation, its ``<target>`` stayed empty and its ``<note>``s were translated, which a CAT tool
reads as a file with nothing translated.  Here only targets are written:

- XLIFF 1.2 (and 1.0, 1.1): each ``<trans-unit>``'s ``<target>`` gets the translation of its
  ``<source>`` (of its ``<seg-source>``, segment by segment, where it has one), and says
  ``state="needs-review-translation" state-qualifier="mt-suggestion"``: a machine's suggestion,
  for a person to review (1.0, which defines no ``state-qualifier``, the state alone); each
  ``<file>`` says the ``target-language``.  A file whose ``source-language`` (2's ``srcLang``) or
  ``target-language`` names another language than the one translated from or into is refused, and
  so is one with a source to translate whose ``xml:lang`` does (attnmt.documents.xliff_languages).
- XLIFF 2 (2.0, 2.1, 2.2): each ``<segment>``'s ``<target>``, and the segment says
  ``state="translated"``; ``<xliff>`` says the ``trgLang`` (XLIFF 2 requires it beside targets).

Where a sentence keeps its source (a review's under its threshold, --below-quality source; a short label whose
translation the model garbled, attnmt.documents.short_labels; one whose translation came back empty), a unit (1.2)
or segment (2) whose sentences all kept it gets no target: it stays as it came, for a translator or a later run to
fill (a source copied into the target was a finished translation that no later run replaced: "Settings" came back
``<target>Settings</target>`` saying ``translated``), and one warning counts them; one with some kept is written,
its state ``needs-translation`` (1.2, still ``mt-suggestion``) or ``initial`` (2): still to be translated
(xliff_targets.settle_kept).

A target is written after its source (after 1.2's ``<seg-source>``, as the schema orders them) where there is none,
or in place of an empty one (or one of codes or empty segments alone, as Trados writes them), one whose state says
it is still to be translated, or a copy of its source; any other target with text is a translation already (a
person's, or an earlier run's, perhaps reviewed since) and is kept, as CAT tools' and pre-translation tools' "fill
the empty targets" does, but for its empty segments, each filled (attnmt.documents.xliff_targets; one warning
counts the targets kept: say_kept).  Units and groups that say ``translate="no"`` are left alone, and so is all
else: notes, ``<alt-trans>``, ``<originalData>``, contexts, comments, attributes (a comment or processing
instruction in an empty target stays in it, before the translation: take_remarks, put_back; one among a source's
words is left out of its target: leave_out_remarks).  Inline codes are XLIFF's own, known by name: ``<g>``,
``<mrk>`` and ``<pc>`` wrap words and go where the words they wrap went (attnmt.documents.spans); every other
(``<x/>``, ``<ph>``, ``<bpt>``/``<ept>``, ``<it>``, ``<bx/>``, ``<ex/>``, ``<sc/>``/``<ec/>``, a
``<mrk mtype="protected">`` or ``translate="no"``) is native code, kept whole at its place (the text of a ``<sub>``
in one is translated apart: attnmt.documents.xliff_subflows); so are the placeholders in a source's text
(PLACEHOLDER: ``{0}``, ``%d``), as URLs are, and the syntax of an ICU message, each of its cases' texts a sentence
(attnmt.documents.xliff_icu).  A code that stands for a line break (is_line_break: ``<x id="1" ctype="lb"/>``) is
read as HTML's ``<br>`` is.  A segment or unit its CAT tool says is locked or confirmed (Trados's ``.sdlxliff``,
memoQ's ``.mqxliff``, Phrase's ``.mxliff``) is kept as it is (xliff_targets.sealed_segments, sealed_unit); in a
target written where there was none (or an empty one) it is left empty, its other segments filled.  What is filled
says so in the CAT tool's terms too: a Trados draft, a memoQ pre-translation (say_drafted).  A character a unit's
source writes as a reference (``&#169;``) is written so in its target (attnmt.documents.xliff_references).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import replace
from itertools import takewhile

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.protected import PROSE_PROTECTED
from attnmt.documents.cdata_sections import CUT, cdata_text, sections_text
from attnmt.documents.elements import Vocabulary, is_spacing, says, says_no
from attnmt.documents.html_layout import gap_before, is_empty
from attnmt.documents.markup import TreeJob, embedded_job, translate_trees
from attnmt.documents.pages import Parsed, is_comment, local_name, named, parse
from attnmt.documents.pipeline import DocumentOptions, translator_glossary
from attnmt.documents.review import Review
from attnmt.documents.translators import Translator
from attnmt.documents.xliff_codes import check_code_points, holds_html, is_line_break, is_space, ready_copy, wraps_words
from attnmt.documents.xliff_icu import SYNTAX, mark_syntax, unmark_syntax
from attnmt.documents.xliff_languages import say_languages
from attnmt.documents.xliff_references import referenced_targets
from attnmt.documents.xliff_subflows import sub_flow_jobs
from attnmt.documents.xliff_targets import (
    Slot,
    holds_kept,
    is_segment,
    needs_target,
    open_segments,
    say_drafted,
    say_kept,
    say_left,
    say_state,
    settle_kept,
    unsealed,
)
from attnmt.documents.xml_code import tag_placeholder
from attnmt.documents.xml_dialects import PLACEHOLDER
from attnmt.errors import DataError

# An HTML comment written as a source's text, escaped or in a CDATA section (``A dog &lt;!-- x --&gt; runs.``):
# text to XML, but markup to whoever wrote it, which Okapi's code finder makes an inline code.  It stops at
# the next "<!--" too, so that thousands of unclosed ones are each read to the next, not to the end.
TEXT_COMMENT = r"<!--(?:(?!<!--|-->)[\s\S])*-->"
# What a target written here says: 1.2's state and its qualifier (a machine's suggestion, to be
# reviewed), on the <target>, 1.1's too (which added state-qualifier), 1.0's state alone (it defines
# no qualifier: written_state); XLIFF 2's state, on the <segment>.
STATE_1 = {"state": "needs-review-translation", "state-qualifier": "mt-suggestion"}
STATE_1_0 = {"state": "needs-review-translation"}
STATE_2 = {"state": "translated"}
SPACE = "{http://www.w3.org/XML/1998/namespace}space"  # xml:space, a target written copies its source's
# Placeholders of two more kinds of software string, read after PLACEHOLDER's (printf's %1$s is one of
# those): .NET's composite format items with an alignment or a format ({0:C2}, {1,-10}, {2,8:N0}: the
# Multilingual App Toolkit's XLIFF of a .resx), and Qt's and Windows' numbered ones, %1 to %99, Qt's
# localised %L1 and plural count %n (lconvert's XLIFF of a .ts, a Qt Linguist file, FormatMessage's).
NUMBERED = r"\{\d+(?:\s*,\s*-?\d+)?(?::[^{}]+)?\}|%L?(?:[1-9][0-9]?|n)(?![0-9A-Za-z])"


class XliffVocabulary(Vocabulary):
    """XLIFF's inline codes by their names (those that wrap words, xliff_codes.wraps_words; the
    rest are atoms), not guessed from what they hold as any XML's are; and a source is one
    segment's text, read inline whatever its layout (its codes on lines of their own are still
    in its sentence).
    Its placeholders (PLACEHOLDER, NUMBERED: ``Hello {0}``, ``%d dogs``, ``%1 files``) pass through untranslated as URLs
    do, each an atom: read as words, the model dropped or changed them; so does an HTML comment in
    its text (TEXT_COMMENT), whose ``<!--`` and ``-->`` the model turned around (``--> X <!--``), and a name joined by
    "&" (PROSE_PROTECTED: ``Tom &amp; Jerry``, ``AT&amp;T``), which the model dropped as a page's."""

    protected = re.compile(f"{TEXT_COMMENT}|{PROSE_PROTECTED.pattern}|{PLACEHOLDER}|{NUMBERED}")
    xliff = True

    def __init__(self) -> None:
        super().__init__(xml=True)

    def lays_out(self, parent: etree._Element | None) -> bool:
        return False

    def is_atom(self, node: etree._Element) -> bool:
        return is_comment(node) or says_no(node) or is_empty(node) or is_spacing(node) or not wraps_words(node)

    def range_edge(self, node: etree._Element) -> tuple[object, bool] | None:
        """Any XML paired code's (Vocabulary.range_edge), and a placeholder's that stands for an
        HTML tag's start or end (xml_code.tag_placeholder: Angular's START_LINK and CLOSE_LINK)."""
        return super().range_edge(node) or tag_placeholder(node)

    def parts_words(self, node: etree._Element) -> bool:
        """Any XML atom's (a code with text of its own, ``<ph>&lt;br/&gt;</ph>``), and a code
        that stands for a line break or a space (is_line_break, is_space): around nothing, glued
        between two words (Angular's ``Two men<x id="LINE_BREAK" ctype="lb"/>talk.``), it left the
        model "mentalk"."""
        return super().parts_words(node) or is_line_break(node) or is_space(node)

    def ends_sentence(self, node: etree._Element) -> bool:
        """An ICU message's syntax (xliff_icu): each case's text is a sentence of its own."""
        return node.tag == SYNTAX

    def is_hidden(self, node: etree._Element) -> bool:
        """An ICU message's syntax, which the program reads and no one sees: no space is put between it
        and a case's words (``=1 { Hund}`` showed " Hund")."""
        return node.tag == SYNTAX

    def is_line_break(self, node: etree._Element) -> bool:
        """A code that stands for a line break (is_line_break) ends its sentence as HTML's ``<br>``
        does, unless the next line goes on in lower case (wrapped_lines.ended_lines): read as a space,
        ``Dog food<x id="1" ctype="lb"/>Cat toys`` was one sentence, and the model moved the break."""
        return is_line_break(node)


class XliffHtml(Vocabulary):
    """The HTML an XLIFF source holds (WPML's ``<![CDATA[<p>A man has %d dogs.</p>]]>``, Drupal's
    escaped ``&lt;p&gt;``): HTML's elements, and the placeholders of XliffVocabulary protected
    as in a source of words; read with HTML's vocabulary alone, the model got them as words."""

    protected = XliffVocabulary.protected


def translate_xliff(text: str, translator: Translator, options: DocumentOptions, where: str = "input",
                    review: Review | None = None, keep_declaration: bool = False) -> str:
    """An XLIFF file's text (``\\n`` line endings) with every empty or missing target of a unit to
    translate filled with its source's translation (the module docstring; but where ``review``
    keeps the source of every sentence of it: xliff_targets.settle_kept); DataError, naming
    ``where``, for a file that is no XLIFF, for an XLIFF 2 file with no target language
    (neither ``trgLang`` nor ``options.target_lang``), and for a ``<cp>`` that names no character
    (xliff_codes.check_code_points); UserError for an ``options.target_lang``
    that is not the language the file's targets are in, and an ``options.source_lang`` not the one
    its sources are in (attnmt.documents.xliff_languages).  ``keep_declaration``: pages.Parsed's (a
    file written back in the encoding it declares, attnmt.documents.files)."""
    parsed, root = parse_xliff(text, where, options.xliff_hint)
    parsed.keeps_declaration = keep_declaration
    check_code_points(root, where, parsed.first_line)
    version_2 = is_version_2(root)
    # each slot with its kept target's segments to fill (none where the whole target is written)
    found = [(slot, open_segments(slot)) for slot in (segments(root) if version_2 else trans_units(root))]
    every = [(slot, marks, needs_target(slot, marks)) for slot, marks in found]
    slots = [(slot, marks) for slot, marks, needed in every if needed]
    if slots:  # refused first: no warning before the one line
        say_languages(root, version_2, options, where, [slot.holder for slot, _ in slots], parsed.first_line)
    say_kept(sum(holds_kept(slot, needed) for slot, _, needed in every), version_2, where)
    glossary = translator_glossary(translator)
    written = []
    for slot, marks in slots:
        before = copy.deepcopy(slot.holder)  # as it came, its target's remarks in it
        remarks = [take_remarks(place) for place in marks or [slot.target()]]
        written.append((slot, before, marks, remarks, target_jobs(slot, marks, options, where, glossary)))
    jobs = [job for *_, each in written for job in each]
    translate_trees(jobs, translator, options, review, [parsed.first_line] * len(jobs))
    left = 0
    for slot, before, marks, remarks, each in written:
        unmark_syntax(slot.holder)
        for place, taken in zip(marks or [slot.target()], remarks, strict=True):
            put_back(place, taken)
        left += settle_kept(slot, before, each)
        say_drafted(slot, each)
        referenced_targets(slot.source, marks or [slot.target()], parsed.forms)  # per unit: xliff_references
    say_left(left, version_2, where)
    return parsed.serialise(None)


def target_jobs(slot: Slot, marks: dict[etree._Element, etree._Element], options: DocumentOptions, where: str,
                glossary: Glossary | None) -> list[TreeJob]:
    """The slot's target written (write_target; its segments ``marks`` alone, where there are
    any, each with its source segment: xliff_targets.open_segments), and the jobs translating it, one for each
    element written (the target, or each of 1.2's segments): where its text is HTML (xliff_codes.holds_html:
    WPML's ``<source><![CDATA[<p>A dog ...</p>]]></source>``, Drupal's escaped ``&lt;p&gt;``, a segment's
    ``<mrk mtype="seg">&lt;p&gt;A dog runs.&lt;/p&gt;</mrk>``), one translating it as HTML, with its markup
    and its placeholders (XliffHtml), written as the source holds it (markup.EmbeddedJob); else one for its
    words and codes.  Read as words, such a source's copy was its target, marked a machine's suggestion."""
    targets = write_target(slot) if not marks else write_segments(slot, marks)
    jobs: list[TreeJob] = []
    for element in targets:
        # the target's HTML, not its source's: a comment among the source's words is not in it (leave_out_remarks)
        if holds_html(element):
            job = embedded_job(element, options, where, glossary, XliffHtml(source_lang=options.source_lang))
            jobs.extend([] if job is None else [job])
        else:  # XLIFF's attributes are the file's data (ids, states, display text), none of them prose
            mark_syntax(element)  # an ICU message's: taken out again once translated (translate_xliff)
            jobs += sub_flow_jobs(element, XliffVocabulary(), options, glossary)  # a code's own text, written first
            jobs.append(TreeJob(element, XliffVocabulary(), replace(options, attributes=()), glossary))
    return jobs


def parse_xliff(text: str, where: str, hint: str) -> tuple[Parsed, etree._Element]:
    """(the file parsed as XML, its ``<xliff>``); DataError for a file whose one element is not
    that, ending with ``hint`` (DocumentOptions.xliff_hint), and for one that is not well-formed, or
    holds more than its root element (text after ``</xliff>``, a second ``<xliff>``) (attnmt.documents.pages.parse:
    no DOCTYPE is read, no entity expanded)."""
    parsed = parse(text, True, where, whole=True, document=True)
    elements = [] if parsed is None else [node for node in parsed.root if not is_comment(node)]
    if parsed is None or len(elements) != 1 or local_name(elements[0]) != "xliff":
        found = f"<{etree.QName(elements[0]).localname}>" if elements else "no element"
        raise DataError(f"{where}: not an XLIFF file: it holds {found} where XLIFF has one <xliff>; {hint}")
    return parsed, elements[0]


def is_version_2(root: etree._Element) -> bool:
    """XLIFF 2 (2.0, 2.1, 2.2) by its namespace or its version; 1.x otherwise."""
    namespace = etree.QName(root).namespace or ""
    return namespace.startswith("urn:oasis:names:tc:xliff:document:2") or root.get("version", "").startswith("2")


def trans_units(root: etree._Element) -> Iterator[Slot]:
    """XLIFF 1.2's trans-units to translate, each one slot, its target after its seg-source or source."""
    for unit in root.iter("{*}trans-unit"):
        source = unit.find(named(unit, "source"))
        if source is not None and is_translated(unit):
            segmented = unit.find(named(unit, "seg-source"))
            yield Slot(unit, source if segmented is None else segmented, False)


def segments(root: etree._Element) -> Iterator[Slot]:
    """XLIFF 2's segments to translate (not its ``<ignorable>``s: spaces between segments)."""
    for unit in root.iter("{*}unit"):
        if not is_translated(unit):
            continue
        for segment in unit.iterchildren(named(unit, "segment")):
            source = segment.find(named(unit, "source"))
            if source is not None:
                yield Slot(segment, source, True)


def is_translated(unit: etree._Element) -> bool:
    """Whether a unit is translated: ``translate`` on it, or the nearest group or file around it
    that says one (XLIFF's attribute is inherited, and overridden); yes where none does."""
    for element in (unit, *unit.iterancestors()):
        if says(element):
            return says(element) != "no"
    return True


def write_target(slot: Slot) -> list[etree._Element]:
    """The slot's target, written as a copy of its source and said to be translated; returned, the
    elements whose text is then translated in it: 1.2's segments (``<mrk mtype="seg">``, each
    apart, as their ids pair them with the seg-source's, but those Trados says are finished, left
    empty: xliff_targets.unsealed), else the target."""
    target = slot.target()
    if target is None:
        target = slot.source.makeelement(named(slot.source, "target"), {})
        slot.source.addnext(target)
        # on a line of its own, indented as the source is, where the source stands so
        indent = gap_before(slot.source)
        target.tail = slot.source.tail
        if not indent.strip() and not (target.tail or "").strip():
            slot.source.tail = indent
    if slot.source.get(SPACE) and target.get(SPACE) is None:  # its spaces kept as its source's are: without
        target.set(SPACE, slot.source.get(SPACE))  # the source's xml:space, a reader may collapse them
    copy_source(target, slot.source)
    target.sourceline = slot.source.sourceline  # for a review's line
    say_state(slot.holder if slot.segment else target, written_state(slot))
    found = [mrk for mrk in target.iter("{*}mrk") if mrk.get("mtype") == "seg"]
    return unsealed(slot, found) if local_name(slot.source) == "seg-source" and found else [target]


def write_segments(slot: Slot, marks: dict[etree._Element, etree._Element]) -> list[etree._Element]:
    """The target's segments ``marks`` (``<mrk mtype="seg">``) each written as a copy of its source
    segment (the one of its ``mid``: open_segments), the others kept as they are, the target said to
    be translated (a machine's suggestion in it now); returned, the segments whose text is then translated."""
    for mark, source in marks.items():
        copy_source(mark, source)
    target = slot.target()
    if target is not None:  # it is: the marks are in it
        say_state(target, written_state(slot))
    return list(marks)


def copy_source(copied: etree._Element, source: etree._Element) -> None:
    """``source``'s content copied into ``copied`` (a target, or one of its segments), its remarks left
    out (leave_out_remarks); where it is a CDATA section (WPML's), or several split by a remark, its
    copy is one section, which the translation is written in (cdata_sections.sections_text), and so
    is each segment's of a seg-source copied (``<mrk mtype="seg">``): written as plain text, its copy
    came back escaped (``&lt;p&gt;``)."""
    copied.text = source.text  # as plain text: lxml keeps no CDATA section in a text set so
    del copied[:]
    copied.extend(copy.deepcopy(child) for child in source)
    written = [sections_text(element) for element in with_segments(source)]
    leave_out_remarks(copied)
    ready_copy(copied)  # Trados's comments and tracked changes: the source's, none of its translation's
    for element, cdata in zip(with_segments(copied), written, strict=True):
        if cdata is not None:
            cdata.write(element, element.text or "")


def with_segments(element: etree._Element) -> list[etree._Element]:
    """``element`` and the 1.2 segments in it (``<mrk mtype="seg">``), in document order."""
    return [element, *(mark for mark in element.iter("{*}mrk") if is_segment(mark))]


def leave_out_remarks(copied: etree._Element) -> None:
    """The comments and processing instructions among the words of a target (or a segment) just
    copied from its source (``A dog <!-- x --> runs.``) left out of it, the spaces around one kept
    once; those in a code kept whole (a ``<ph>``'s) stay.  The source keeps them, as Okapi's XLIFF
    filter does, which reads none into a unit's text and so writes none into its target: in the
    target a comment went wherever the words' alignment took it, and in a source of HTML
    (``&lt;p&gt;A dog <!-- x --> runs.&lt;/p&gt;``) it hid the HTML (xml_code.holds_markup), whose
    tags then went to the model as words and came back broken (``<>``)."""
    for remark in list(copied.iter(etree.Comment, etree.ProcessingInstruction)):
        inside = takewhile(lambda above: above is not copied, remark.iterancestors())
        if not all(wraps_words(above) and not says_no(above) for above in inside):
            continue
        parent, previous, tail = remark.getparent(), remark.getprevious(), remark.tail or ""
        before = parent.text if previous is None else previous.tail
        if (before or "")[-1:].isspace():
            tail = tail.lstrip()
        if previous is None:
            parent.text = (parent.text or "") + tail or None
        else:
            previous.tail = (previous.tail or "") + tail or None
        parent.remove(remark)


def written_state(slot: Slot) -> dict[str, str]:
    """What a target written into ``slot`` says: STATE_2 on an XLIFF 2 segment, STATE_1 on a 1.x
    target, but in an XLIFF 1.0 file STATE_1_0, without the ``state-qualifier`` 1.0 does not define
    (1.1 added it), and which a reader checking the file against 1.0's DTD refuses."""
    if slot.segment:
        return STATE_2
    root = next((above for above in slot.holder.iterancestors() if local_name(above) == "xliff"), None)
    return STATE_1_0 if root is not None and root.get("version", "").strip() == "1.0" else STATE_1


def take_remarks(target: etree._Element | None) -> list[etree._Element]:
    """The comments and processing instructions in an empty target about to be written (a
    translator's ``<!-- use "Mieze" -->``, a tool's ``<?review pending?>``), taken out of it:
    put_back writes them again once the target holds its translation.  Left in, the words'
    alignment would move them about, and an HTML source's target would hold no text to translate."""
    remarks = [] if target is None else list(target.iter(etree.Comment, etree.ProcessingInstruction))
    for remark in remarks:
        remark.getparent().remove(remark)
        remark.tail = None  # spaces beside them in an empty target: the translation takes its place
    return remarks


def put_back(target: etree._Element | None, remarks: list[etree._Element]) -> None:
    """``remarks`` (take_remarks) at the start of the target, before its translation, which is
    written as it was (its codes, a CDATA section: cdata_sections.cdata_text) after them."""
    if target is None or not remarks:
        return
    content = target.makeelement(CUT)  # the translation, moved after the remarks, then unwrapped
    cdata = cdata_text(target)
    if cdata is None:
        content.text = target.text
    else:
        cdata.write(content, target.text or "")
    content.extend(list(target))
    target.text = None
    target.extend([*remarks, content])
    etree.strip_tags(target, CUT)
