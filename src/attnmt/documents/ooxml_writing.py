"""An OOXML paragraph written again from its translated content (step 4 of attnmt.documents.ooxml's
docstring): text outside every mark in runs of the base formatting, each mark's text in a run of its
own formatting, a container (a hyperlink, a tracked insertion, a complex field) around what it holds,
and every atom as it was (a copy: ``atom_copy``); the paragraph's properties stay where they were."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from lxml import etree

from attnmt.documents.dropcaps import DropCap
from attnmt.documents.field_pieces import join_field_pieces
from attnmt.documents.flat import FlatText
from attnmt.documents.hyphens import NO_BREAK_HYPHEN, no_break_content
from attnmt.documents.link_gaps import joined_links, link_gaps
from attnmt.documents.spans import Nested, plain
from attnmt.documents.wordml import RUBY, RUBY_BASE
from attnmt.documents.xstring import escape, replace_text

XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


class ParagraphWriter:
    """What attnmt.documents.ooxml.ParagraphJob does with a paragraph's translated content: the
    job reads the paragraph, and sets the names below, which say what was read."""

    paragraph: etree._Element
    dialect: Dialect
    bare: etree._Element | None  # a string with no runs: its text element
    drop_cap: DropCap | None  # whose letters begin the paragraph (attnmt.documents.dropcaps)
    bases: dict[etree._Element, etree._Element | None]  # each container's base run (None: it has no runs)
    flat: FlatText
    run_atoms: set[etree._Element]  # the atoms that belong inside a run (a tab, a picture), by their elements
    complex_fields: dict[etree._Element, fields_complex.ComplexField]  # each read as its stand-in, by that
    # Each node of a stand-in (a copy of its field's result) -> the result's own: an atom is written from
    # the field's own node, where another job (an IF field's texts, a link field's tip inside it) wrote.
    originals: dict[etree._Element, etree._Element]
    no_break: dict[str, tuple[int, ...]]  # the words with non-breaking hyphens (hyphens.hyphenated_words)

    def finish(self, results: Sequence[Sequence[str | Nested]]) -> None:
        content = results[0]
        if self.dialect.phonetic is not None and plain(content) != self.flat.text:
            for reading in self.paragraph.findall(self.dialect.phonetic):
                self.paragraph.remove(reading)  # where it pointed (sb="4" eb="7") may be past the new text's end
        if self.bare is not None:
            self._set_text(self.bare, plain(content))
            return
        if self.dialect.hyphen:  # its words read whole across the marks in them
            content = no_break_content(content, self.no_break, lambda mark: self.flat.marks[mark].parts_words)
        paragraph = self.paragraph
        children = list(paragraph)
        joined = joined_links(children, self.dialect)  # a link over runs of two looks (link_gaps)
        start = next((i for i, child in enumerate(children) if child.tag not in self.dialect.kept), len(children))
        for child in children:
            if child.tag not in self.dialect.kept:
                paragraph.remove(child)
        for offset, element in enumerate(self._fill(paragraph, content)):
            paragraph.insert(start + offset, element)
        join_field_pieces(paragraph)  # a link split around a field's runs (field_marks), its pieces side by side
        if joined:
            link_gaps(paragraph, self.dialect, joined)
        if self.drop_cap is not None:
            self.drop_cap.put_back(paragraph)

    def _fill(self, container: etree._Element, content: Sequence[str | Nested]) -> list[etree._Element]:
        """The elements that hold ``content`` inside ``container``: base runs for its plain text."""
        dialect, base = self.dialect, self.bases[container]
        elements: list[etree._Element] = []
        current = None  # the base run being written
        for piece in content:
            mark = None if isinstance(piece, str) else self.flat.marks[piece.mark]
            if mark is None or mark.node in self.run_atoms or mark.node.tag == RUBY:  # a ruby is in its run
                if current is None:
                    current = self._new_run(base if base is not None else container.makeelement(dialect.run, {}))
                    elements.append(current)
                self._add_piece(current, piece)
                continue
            current = None
            field = self.complex_fields.get(mark.node)
            if mark.atom or mark.kept_whole:  # kept whole: a field of a number, written as it came (fields.NUMBER)
                kept = [*field.opening, *field.result, field.closing] if field is not None else [mark.node]
                elements.extend(map(self._atom, kept))
            elif mark.node.tag == dialect.run:
                run = self._new_run(mark.node)
                for inner in piece.content:
                    self._add_piece(run, inner)
                if len(run) > (run.find(dialect.properties) is not None):
                    elements.append(run)  # a run left with nothing (its words went to a sibling) is dropped
            elif field is not None:  # a complex field: its begin, code and separator, its result, its end
                elements.extend([*map(atom_copy, field.opening), *self._fill(mark.node, piece.content),
                                 atom_copy(field.closing)])
            else:  # a container: its kept children (a content control's properties) first, as they were
                holder = mark.node.makeelement(mark.node.tag, mark.node.attrib)
                holder.extend(self._atom(child) for child in mark.node if child.tag in dialect.kept)
                holder.extend(self._fill(mark.node, piece.content))
                elements.append(holder)
        return elements

    def _atom(self, node: etree._Element) -> etree._Element:
        """A copy of atom ``node`` to write: of the field's own node where ``node`` is in a stand-in."""
        return atom_copy(self.originals.get(node, node))

    def _new_run(self, template: etree._Element) -> etree._Element:
        run = template.makeelement(template.tag, template.attrib)
        properties = template.find(self.dialect.properties)
        if properties is not None:
            run.append(copy.deepcopy(properties))
        return run

    def _add_piece(self, run: etree._Element, piece: str | Nested) -> None:
        if not isinstance(piece, str):
            node = self.flat.marks[piece.mark].node
            run.append(self._ruby(node, piece.content) if node.tag == RUBY else self._atom(node))
            return
        hyphen = self.dialect.hyphen
        texts = piece.split(NO_BREAK_HYPHEN) if hyphen else [piece]  # made so by finish (no_break_content)
        for number, text in enumerate(texts):
            if number:
                etree.SubElement(run, hyphen)
            if text or len(texts) == 1:
                self._append_text(run, text)

    def _ruby(self, ruby: etree._Element, content: Sequence[str | Nested]) -> etree._Element:
        """``ruby`` written again: its properties and annotation (``w:rubyPr``, ``w:rt``) as they were, in
        their place, and its base (``w:rubyBase``) around the runs that hold the translated ``content``."""
        written = ruby.makeelement(ruby.tag, ruby.attrib)
        for child in ruby:
            if child.tag == RUBY_BASE:
                base = etree.SubElement(written, child.tag, child.attrib)
                base.extend(self._fill(child, content))
            else:
                written.append(self._atom(child))
        return written

    def _append_text(self, run: etree._Element, text: str) -> None:
        last = run[-1] if len(run) else None
        if last is not None and last.tag == self.dialect.text:
            self._set_text(last, self.dialect.text_of(last) + text)
        else:
            self._set_text(etree.SubElement(run, self.dialect.text), text)

    def _set_text(self, element: etree._Element, text: str) -> None:
        replace_text(element, escape(text) if self.dialect.escaped else text)
        if self.dialect.preserve:
            if text != text.strip() or self.dialect is WORD:
                element.set(XML_SPACE, "preserve")
            else:
                element.attrib.pop(XML_SPACE, None)


def atom_copy(node: etree._Element) -> etree._Element:
    new = copy.deepcopy(node)
    new.tail = None
    return new


# The modules of the annotations and of WORD, imported last: ooxml_dialects imports attnmt.documents.ooxml
# (through fields and fields_complex too), which imports this module, whose ParagraphWriter must exist by then.
from attnmt.documents import fields_complex  # noqa: E402
from attnmt.documents.ooxml_dialects import WORD, Dialect  # noqa: E402
