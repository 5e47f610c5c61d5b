"""A block's runs (attnmt.documents.markup's docstring): found in the tree, each read as one flat
text (its inline elements marks, its atoms kept whole: attnmt.documents.spans), and written back
with the translated content in place of its text and inline children."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from lxml import etree

from attnmt.documents.caption_numbers import after_caption_number
from attnmt.documents.cdata_sections import cdata_text
from attnmt.documents.elements import Vocabulary, says_no, says_yes
from attnmt.documents.emptied_looks import without_emptied_looks
from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.html_layout import entity_separator, is_icon
from attnmt.documents.kept_names import add_as_written
from attnmt.documents.key_combinations import add_combination, is_combination, read_combinations
from attnmt.documents.list_marks import after_block_mark
from attnmt.documents.markup_dropcaps import is_drop_cap
from attnmt.documents.markup_fields import add_field_element, field_span, is_label_element
from attnmt.documents.markup_scripts import add_lender, lent_cuts, lent_texts, own_letters
from attnmt.documents.markup_text import PageBuilder
from attnmt.documents.markup_trails import add_trail_text, in_trail, is_page_title
from attnmt.documents.nesting import Literal
from attnmt.documents.page_writer import EDGE_SPACES, append_text, held_value
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.script_tokens import add_scripted, scripted
from attnmt.documents.spans import Nested, plain
from attnmt.documents.svg_texts import is_svg, svg_texts
from attnmt.documents.white_space import NORMAL, kept_white_space, styled


@dataclass
class Run:
    """Inline content of one block: the text held by ``owner`` (its .text when it is ``parent``,
    else its .tail), then ``children`` with their tails."""

    parent: etree._Element
    owner: etree._Element
    children: list[etree._Element] = field(default_factory=list)

    @property
    def lead(self) -> str:
        return (self.owner.text if self.owner is self.parent else self.owner.tail) or ""

    def sole_element(self) -> etree._Element | None:
        """The one element that holds all the run shows (a link or a button beside blocks, ``<div><p>…</p><a>Read
        more</a></div>``), comments aside; None where text stands beside it or another element does."""
        shown = [child for child in self.children if not is_comment(child)]
        spaced = not self.lead.strip() and not any((child.tail or "").strip() for child in self.children)
        return shown[0] if spaced and len(shown) == 1 else None


def runs(block: etree._Element, vocabulary: Vocabulary) -> Iterator[Run]:
    """Every run of ``block`` and of the blocks inside it, in document order; inside a
    ``translate="no"`` element, those of the elements that say ``translate="yes"`` again (as
    HTML's attribute is inherited, and overridden); inside an inline SVG picture, those of its texts
    (svg_texts: its labels, title and description)."""
    if vocabulary.is_untranslated(block):
        if says_no(block):
            yield from said_yes(block, vocabulary)
        elif not vocabulary.xml and is_svg(block):
            for text in svg_texts(block):
                yield from runs(text, vocabulary)
        return
    current = Run(block, block)
    for child in block:
        if vocabulary.is_inline(child):
            current.children.append(child)
            continue
        yield from with_inner(current, vocabulary)
        yield from runs(child, vocabulary)
        current = Run(block, child)
    yield from with_inner(current, vocabulary)


def with_inner(run: Run, vocabulary: Vocabulary) -> Iterator[Run]:
    """``run``, then the runs inside its atoms: a <select>'s options, each a block of its own (the
    select stays a point in its sentence), an inline SVG picture's texts (svg_texts), what a <noscript>
    shows a reader whose browser runs no script, and what says ``translate="yes"`` inside a
    ``translate="no"`` atom."""
    yield run
    pending = list(reversed(run.children))
    while pending:
        node = pending.pop()
        if says_no(node):
            yield from said_yes(node, vocabulary)
        elif not vocabulary.xml and not is_comment(node) and local_name(node) in ("select", "svg", "noscript"):
            yield from runs(node, vocabulary)
        elif not vocabulary.is_untranslated(node):
            pending.extend(reversed(node))


def said_yes(node: etree._Element, vocabulary: Vocabulary) -> Iterator[Run]:
    """The runs of the elements under ``node`` (one that says ``translate="no"``) that say
    ``translate="yes"``, each read as a block, and of those below them; none under a <script>,
    <style>, <pre> or <code> (HTML's untranslated elements)."""
    for child in node:
        if vocabulary.is_untranslated(child) and not says_no(child):
            continue
        if says_yes(child):
            yield from runs(child, vocabulary)
        else:
            yield from said_yes(child, vocabulary)


def flatten(run: Run, vocabulary: Vocabulary, speakers: frozenset[str] = frozenset()) -> FlatText:
    """The run as one flat text; a drop cap at its block's start (markup_dropcaps) a mark over its
    letters that gets the translation's first ones (Mark.initial), a picture's the letters of its alt; a speaker's
    label at its block's start kept whole, a name of the page's dialogue's ``speakers`` too (``Anna:``)."""
    builder = (FlatBuilder(collapse=False, fields=vocabulary.fields, protected=vocabulary.protected) if vocabulary.xml
               else PageBuilder(vocabulary.protected, fields=vocabulary.fields))  # quotes and calls read (markup_text)
    builder.kept = NORMAL if vocabulary.xml else kept_white_space(run.parent, vocabulary.fields)  # pre-line
    trail = not vocabulary.xml and (in_trail(run) or is_page_title(run))
    add_text = partial(add_trail_text, builder) if trail else builder.add_text
    texts = [vocabulary.as_read(text or "") for text in (run.lead, *(child.tail for child in run.children))]
    # a formula's or a unit's scripts, kept whole with their letters, theirs or an element's beside them (script_tokens,
    # markup_scripts); none in XML's records
    scripts = [None if vocabulary.xml else vocabulary.script(child) for child in run.children]
    read, lenders = lent_texts(texts, run.children, scripts, partial(held_text, vocabulary=vocabulary))
    kept = scripted(read, scripts)
    cuts = lent_cuts(kept, lenders)
    first = texts[0][:len(texts[0]) - len(kept[0].before) if 0 in kept else None]
    # a list's mark or a speaker's label typed at a page's block's start ("<p>- A man runs.</p>", "<p>ANNA: Hi</p>"),
    # kept whole as a text line's is; a run after a block inside its own (<div><p>…</p><b>Note:</b> Text</div>) starts
    # a block too, as a browser lays it out
    add_text(after_block_mark(builder, first, speakers) if not vocabulary.xml else first)
    starts_block = not run.lead.strip()
    taken = 0  # what of the first element's tail a field's name in it took: its colon ("<b>Name</b>: value")
    combined, inside = read_combinations(run.children, texts, vocabulary)  # first key -> last key; the others
    for k, child in enumerate(run.children):
        if k in inside:  # read, with what joins it, as its combination's first key was
            continue
        if k in combined:
            add_combination(builder, run.children[k:combined[k] + 1])
        elif k in kept:
            add_scripted(builder, child, own_letters(k, kept[k], lenders))
        elif k in cuts:  # LibreOffice's span of "A man drinks H" before H₂O's script
            add_lender(builder, child, held_text(child, vocabulary), *cuts[k])
        elif trail and entity_separator(child):  # an XHTML trail's "&raquo;" ends its label, as "»" does
            builder.add_atom(node=child, ends_sentence=True)
        elif k == 0 and starts_block and is_drop_cap(child, vocabulary):
            add_inline(builder, child, vocabulary, initial=True)
        elif k == 0 and starts_block and not vocabulary.xml and is_label_element(child, speakers):
            builder.add_atom(node=child)
        elif k == 0 and starts_block and not vocabulary.xml and (span := field_span(child, vocabulary, speakers)):
            taken = add_field_element(builder, child, vocabulary, span, last=len(run.children) == 1)
        else:  # an element around the block's words may open with a field's name ("<span><b>Tip:</b> ...</span>")
            add_inline(builder, child, vocabulary, opens_block=k == 0 and starts_block and not vocabulary.xml)
        if trail and is_icon(child):  # a separator drawn by its class: it ends the label before it
            builder.breaks.append(len(builder.text))
        end = combined.get(k, k)  # the last element read: a combination's last key
        text = texts[end + 1][len(kept[k].after) if k in kept else taken if k == 0 else 0:]
        text = after_caption_number(builder, text, vocabulary.ends_sentence)  # "<number/>: A dog": ": " apart
        add_text(text[:len(text) - len(kept[end + 1].before)] if end + 1 in kept else text)
    return builder.build()


def block_start(run: Run) -> str:
    """What a block's run shows first, its lead and its first inline element's text and tail: where a speaker's
    label would be (attnmt.text.speaker_labels.dialogue: "<p><b>Anna:</b> Hi</p>")."""
    first = run.children[0] if run.children and isinstance(run.children[0].tag, str) else None
    return run.lead + ("" if first is None else "".join(first.itertext()) + (first.tail or ""))


def held_text(node: etree._Element, vocabulary: Vocabulary) -> str:
    """The text of ``node`` as read where it is a mark of text alone (markup_scripts), else ""."""
    if is_comment(node) or len(node) or vocabulary.script(node) is not None or vocabulary.is_atom(node) or (
            vocabulary.is_dropped(node) or vocabulary.entity_character(node)):
        return ""
    return vocabulary.as_read(node.text or "")


def add_inline(builder: FlatBuilder, node: etree._Element, vocabulary: Vocabulary, initial: bool = False,
               opens_block: bool = False) -> None:
    if vocabulary.is_dropped(node):  # an XHTML page's &shy;: rebuild leaves it out
        return
    character = vocabulary.entity_character(node)
    if character:  # "A cat&mdash;the black one&mdash;sleeps" reads "A cat—the black one—sleeps"
        builder.add_text(character)
        return
    if initial and local_name(node) == "img":
        builder.open(node, initial=True)
        builder.add_text(node.get("alt", "").strip())
        builder.close()
        return
    if vocabulary.is_atom(node):
        builder.add_atom(node=node, parts_words=vocabulary.parts_words(node), range_edge=vocabulary.range_edge(node),
                         ends_sentence=vocabulary.ends_sentence(node), reference=vocabulary.is_reference(node),
                         hidden=vocabulary.is_hidden(node), line_break=vocabulary.is_line_break(node))
        # What its writer keeps as written stands for text, empty too (Weblate's placeholder <x id="6"></x>, sent
        # to DeepL's tag_handling=xml with ignore_tags=x): never glued to a word it did not touch ("<x/>Auf").
        if says_no(node) and not vocabulary.is_hidden(node):
            builder.marks[-1].shows_text = True
        return
    if vocabulary.is_kept_word(node):  # "The WHO office" read whole, not "The office" (Mark.kept_whole)
        builder.open(node)
        builder.marks[-1].kept_whole = True
        add_as_written(builder, vocabulary.shown[node])
        builder.close()
        return
    # A space written inside its edge is its content ("<b>Warning: </b>Do"): a CAT tool compares it, and an
    # underline or a link's background shows on it (nesting.keep_edge_spaces), as in a cue (cue_text).
    builder.open(node, initial=initial, keeps_edge_spaces=True)
    around, says = builder.kept, None if vocabulary.xml else styled(node)
    builder.kept = around if says is None else says  # <span style="white-space: pre">, until it closes
    builder.add_text(vocabulary.as_read(node.text or ""))
    children = list(node)
    combined, inside = read_combinations(children, [node.text or "", *(c.tail or "" for c in node)], vocabulary)
    first = opens_block and not (node.text or "").strip()  # its first child opens the block: a field's name there
    for k, child in enumerate(children):
        taken = 0  # what of a field's name's tail its colon took ("<b>Tip</b>: ...")
        if k in inside:
            continue
        if k in combined:
            add_combination(builder, children[k:combined[k] + 1])
        elif k == 0 and first and (span := field_span(child, vocabulary)):
            taken = add_field_element(builder, child, vocabulary, span)
        else:
            add_inline(builder, child, vocabulary, opens_block=k == 0 and first)
        tail = vocabulary.as_read(children[combined.get(k, k)].tail or "")[taken:]
        builder.add_text(after_caption_number(builder, tail, vocabulary.ends_sentence))
    builder.kept = around
    builder.close()


def written_entities(run: Run, vocabulary: Vocabulary) -> dict[str, str]:
    """character -> name of each entity reference in the run that the model read as its character
    (Vocabulary.entity_character): ``fill`` writes that character back as the reference, wherever
    the translation has it (the same text, as the page's DTD says), so a page that wrote
    ``&mdash;`` keeps writing it."""
    found: dict[str, str] = {}
    for child in run.children:
        for node in child.iter(etree.Entity):  # the child itself too, where it is one
            found.setdefault(vocabulary.entity_character(node), node.name)
    found.pop("", None)
    return found


def rebuild(run: Run, flat: FlatText, content: Sequence[str | Nested],
            entities: dict[str, str] | None = None, xml: bool = False,
            as_written: Callable[[str], str] = str) -> list[tuple[int, etree._Element]]:
    """Puts the translated content in place of the run's text and inline children, with the
    whitespace the run had at its start and its end (collapsed text loses a line break there:
    a fragment file's last one, the one after a block); the characters of ``entities``
    (written_entities) written as their references.  An element's whole text in a CDATA section
    (cdata_sections.cdata_text: code, or a WordPress export's title) stays in one where it is still text alone.
    An element at an edge of the run's text keeps the spaces its source had there (keep_whole_edges).
    ``as_written``: the model's text as the dialect writes it (Vocabulary.as_written), not a
    protected span's (nesting.Literal), which is put back as it was written.
    Returns the elements written for the marks (fill), which now hold the translation."""
    cdata = cdata_text(run.parent) if run.owner is run.parent else None
    if not xml:  # HTML: an element of looks around nothing is left out (XML's elements are its data)
        content = without_emptied_looks(flat, list(content))
    holder = run.parent.makeelement("holder", {})
    written = fill(holder, flat, content, entities or {}, as_written)
    last = run.children[-1].tail if run.children else run.lead
    keep_edges(holder, leading_space(run.lead), (last or "")[len((last or "").rstrip(EDGE_SPACES)):])
    keep_whole_edges(flat, written, holder)
    if xml:
        keep_sections(flat, written)
    position = 0 if run.owner is run.parent else run.parent.index(run.owner) + 1
    for child in run.children:
        run.parent.remove(child)
    if run.owner is run.parent:
        run.parent.text = holder.text
    else:
        run.owner.tail = holder.text
    run.parent[position:position] = list(holder)  # at once: lxml walks the children to each index it inserts at
    if cdata is not None and not len(run.parent):
        cdata.write(run.parent, run.parent.text or "")
    return written


def keep_whole_edges(flat: FlatText, written: Sequence[tuple[int, etree._Element]], holder: etree._Element) -> None:
    """Each element written once at the start of ``holder``'s content (the run's translation) around the start
    of ``flat``'s text, or at its end around the end, has the spaces its source had at that edge: in XML they are
    data (a label's "Name: "), in HTML the line's layout (``<a>\\n  Read more\\n</a>``; an MDX component's text on
    lines of its own is a paragraph) or the element's content (``<b> Warning: </b>Do``), and keep_edges, outside
    it, sees none."""
    marks = [mark for mark, _ in written]
    for mark, element in written:
        source = flat.marks[mark].node
        start, end = flat.marks[mark].start, flat.marks[mark].end
        if marks.count(mark) > 1:
            continue
        if (source.text and (element.text or len(element)) and not flat.text[:start].strip()
                and at_edge(element, holder, first=True)):
            element.text = leading_space(source.text) + (element.text or "").lstrip(EDGE_SPACES) or None
        source_end, last = (source[-1].tail if len(source) else source.text), (
            element[-1].tail if len(element) else element.text)
        if source_end and (last or len(element)) and not flat.text[end:].strip() and at_edge(element, holder, False):
            last = (last or "").rstrip(EDGE_SPACES) + source_end[len(source_end.rstrip(EDGE_SPACES)):] or None
            if len(element):
                element[-1].tail = last
            else:
                element.text = last


def at_edge(element: etree._Element, holder: etree._Element, first: bool) -> bool:
    """Whether ``element`` opens ``holder``'s content (``first``), or ends it, nothing but spaces before
    (after) it there, in it or in the elements around it."""
    while element is not holder:
        parent = element.getparent()
        if first and (element.getprevious() is not None or (parent.text or "").strip(EDGE_SPACES)):
            return False
        if not first and (element.getnext() is not None or (element.tail or "").strip(EDGE_SPACES)):
            return False
        element = parent
    return True


def keep_sections(flat: FlatText, written: Sequence[tuple[int, etree._Element]]) -> None:
    """Each element written for a mark whose source's whole text is one CDATA section (cdata_text: ``<doc>
    <title><![CDATA[A dog]]></title></doc>``, an element alone in its block) holds its new text in one too,
    where it holds text alone: written as a copy of the element, it came back as plain text."""
    for mark, element in written:
        cdata = cdata_text(flat.marks[mark].node)
        if cdata is not None and not len(element) and element.text:
            cdata.write(element, element.text)


def leading_space(text: str) -> str:
    return text[:len(text) - len(text.lstrip(EDGE_SPACES))]


def keep_edges(holder: etree._Element, start: str, end: str) -> None:
    """The holder's content starts with ``start`` and ends with ``end``, in place of the
    whitespace it has there (none where the content is an element at that end)."""
    holder.text = start + (holder.text or "").lstrip(EDGE_SPACES) if holder.text or start else holder.text
    if len(holder):
        tail = holder[-1].tail or ""
        holder[-1].tail = tail.rstrip(EDGE_SPACES) + end if tail or end else None
    elif holder.text is not None:
        holder.text = holder.text[:len(start)] + holder.text[len(start):].rstrip(EDGE_SPACES) + end


def fill(element: etree._Element, flat: FlatText, content: Sequence[str | Nested],
         entities: dict[str, str], as_written: Callable[[str], str] = str) -> list[tuple[int, etree._Element]]:
    """``content`` appended to ``element``: its text, a copy of each atom, and a copy of each mark's
    element around what the mark holds.  Returns (mark, element written) for each mark but an atom,
    outer before inner; a mark the translation split in two is written twice."""
    written = []
    for piece in content:
        if isinstance(piece, str):
            add_text(element, piece if isinstance(piece, Literal) else as_written(piece), entities)
            continue
        node = flat.marks[piece.mark].node
        if is_combination(node):  # its keys, each as it came, and what joins them
            element.extend(copy.deepcopy(node))
            continue
        if flat.marks[piece.mark].atom or flat.marks[piece.mark].kept_whole:
            new = copy.deepcopy(node)
            new.tail = None
        elif flat.marks[piece.mark].initial and local_name(node) == "img":  # a drop cap's picture: letters in its alt
            new = bare_copy(node)
            new.set("alt", held_value(plain(piece.content)))
            written.append((piece.mark, new))
        else:
            new = bare_copy(node)
            written += [(piece.mark, new), *fill(new, flat, piece.content, entities, as_written)]
        element.append(new)
    return written


def add_text(element: etree._Element, text: str, entities: dict[str, str]) -> None:
    """``text`` after what ``element`` holds, each character of ``entities`` as its reference, and each
    control character XML cannot hold (xstring.CONTROLS) as its numeric one (``&#1;``): lxml sets no text
    with one, which libxml2's HTML parser keeps (a page's "Hello.\x01 World." stopped in a bare ValueError):
    page_writer.append_text."""
    pieces = re.split(f"([{re.escape(''.join(entities))}])", text) if entities else [text]
    for k, piece in enumerate(pieces):
        if k % 2:
            element.append(etree.Entity(entities[piece]))
        else:
            append_text(element, piece)


def bare_copy(node: etree._Element) -> etree._Element:
    """The element with its name and attributes, nothing inside it and no tail.  Copied, not made
    anew: lxml makes no element of a prefixed name without its namespace, as Word's HTML has them
    (``<o:p>``, ``<st1:place>``), where a copy keeps the name the parser read."""
    new = copy.copy(node)
    new.text = new.tail = None
    del new[:]
    return new
