"""XML written back in the forms its input wrote, where what it wrote there is unchanged.

libxml2 keeps what XML means, not how it was written, so lxml's writer changed XML that nothing had
changed: an empty element written with its end tag came back short (``<string name="b"></string>`` as
``<string name="b"/>``, Qt Linguist's ``<source></source>``), a character reference as its character
(``&#233;`` as ``é``, ``&#x2014;`` as ``—``, ``&quot;`` as ``"``), a start tag in lxml's quotes and
spacing, an end tag without its spaces (``</entry  >`` as ``</entry>``); a diff of a translated file
showed lines nobody had touched.

    forms = source_forms(holder, body)       # beside the parse: how each start tag and text was written
    with written_in_forms(forms) as restore:  # while the tree is written
        text = restore(etree.tostring(...))

The input is read once more, tag by tag (TOKEN), beside the tree, and each start tag and text is
matched to the node the parser made of it; where the two ever disagree, no form is kept, and the
tree is written as lxml writes it.  Only what still holds what was read is written as it came (a
start tag whose element has the same name and attributes, a text with the same value, which its
form is known to mean: ``decoded``; an end tag whose element has the same name); lxml writes the
rest, so what the translation wrote is always written by the XML writer.  The written form stands in
for a mark lxml writes (letters and digits with a nonce, as page_writer.Marks' do; before an end tag, a
processing instruction of that name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape
from uuid import uuid4

from lxml import etree

from attnmt.documents.doctype import COMMENT, PREDEFINED

# A piece of XML that is no text: a comment, a processing instruction, an end tag, a start tag (an empty
# element's too), or a reference to an entity other than XML's own (kept unexpanded, a node of the tree:
# attnmt.documents.doctype).  What lies between two is one text of the tree, CDATA sections and
# references to characters in it.
TOKEN = re.compile(rf"(?P<comment>{COMMENT})|(?P<cdata><!\[CDATA\[.*?\]\]>)|(?P<pi><\?.*?\?>)"
                   r"|</(?P<end>[^\s>]+)\s*>"
                   r"|<(?P<start>[^\s/>!?]+)(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*(?P<empty>/?)>"
                   rf"|&(?!(?:{'|'.join(PREDEFINED)});)(?P<entity>[^\W\d][\w.:-]*);", re.DOTALL)
REFERENCE = re.compile(r"&(?:#(\d+)|#x([0-9A-Fa-f]+)|(amp|lt|gt|quot|apos));")
NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
# A start tag lxml writes as it came: double quotes, one space before each attribute, no reference, no
# line break; its namespaces declared before its other attributes, as lxml writes them.
PLAIN_START = re.compile(r'<[^\s/>]+(?: xmlns(?::[^\s=]+)?="[^"&\s]*")*(?: (?!xmlns[:=])[^\s=]+="[^"&<>\t\n\r]*")*/?>')
NODES = {"comment": etree._Comment, "pi": etree._ProcessingInstruction, "entity": etree._Entity}


@dataclass
class Start:
    """An element's start tag as written, and the attributes and name it gave the element."""

    element: etree._Element
    written: str
    attributes: list[tuple[str, str]]
    tag: str

    @property
    def open(self) -> bool:
        """Whether it was written with an end tag (``<a></a>``, not ``<a/>``)."""
        return not self.written.endswith("/>")


@dataclass
class SourceForms:
    """How an XML input wrote what lxml writes otherwise: the start tags (of those it would write another
    way, and of each element written empty with an end tag), and the texts (``(node, "text" or "tail",
    value, as written)``) whose form is not lxml's."""

    starts: list[Start] = field(default_factory=list)
    texts: list[tuple[etree._Element, str, str, str]] = field(default_factory=list)
    # A text's form by its value, where the input wrote that value one way only, never as lxml does: for a
    # copy the translation made of a kept element (inline code: markup_runs.fill), which holds its texts.
    by_value: dict[str, str] = field(default_factory=dict)
    # The end tags written otherwise than lxml writes them (``</entry  >``, ``</string\n>``): (element, as
    # written, the element's name then).
    ends: list[tuple[etree._Element, str, str]] = field(default_factory=list)


def source_forms(holder: etree._Element, body: str) -> SourceForms:
    """The forms of the XML ``body`` that the parser read into ``holder``'s content (the module
    docstring); none where the tree and the text are ever found to disagree."""
    forms = SourceForms()
    ways: dict[str, set[str]] = {}  # each text's value -> the ways the input wrote it
    items = tree_items(holder)
    slot: tuple[etree._Element, str] | None = None  # the text the next piece of text is: the holder's is not kept
    position = 0
    for token in TOKEN.finditer(body):
        if token["cdata"] is not None:
            continue  # a part of the text around it
        written_text = body[position:token.start()]
        position = token.end()
        if slot is not None and written_text:
            keep_text(forms, *slot, written_text, ways)
        kind, name = next((kind, token[kind]) for kind in ("start", "end", *NODES) if token[kind] is not None)
        node = matched(next(items, None), kind, name)
        if node is None:
            return SourceForms()
        slot = (node, "text") if kind == "start" and not token["empty"] else (node, "tail")
        if kind == "end" and token.group() != f"</{name}>":
            forms.ends.append((node, token.group(), node.tag))
        if kind == "start":
            empty = token["empty"] or body.startswith("</", position)
            if not PLAIN_START.fullmatch(token.group()) or (empty and not token["empty"]):
                forms.starts.append(Start(node, token.group(), list(node.attrib.items()), node.tag))
            if token["empty"] and matched(next(items, None), "end", name) is None:
                return SourceForms()
    if slot is not None and position < len(body):
        keep_text(forms, *slot, body[position:], ways)
    if next(items, None) is not None:
        return SourceForms()
    forms.by_value = {value: written.pop() for value, written in ways.items()
                      if len(written) == 1 and escape(value, quote=False) not in written}
    return forms


def tree_items(holder: etree._Element) -> Iterator[tuple[str, etree._Element]]:
    """("start", element), ("end", element) and (kind, node) for each other node under ``holder``, in the
    order their text comes (TOKEN's kinds); walked with a stack, as markup nests up to pages.MAX_DEPTH."""
    stack = [iter(holder)]
    opened: list[etree._Element] = []
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            if opened:
                yield "end", opened.pop()
            continue
        kind = next((kind for kind, type_ in NODES.items() if isinstance(node, type_)), "start")
        yield kind, node
        if kind == "start":
            opened.append(node)
            stack.append(iter(node))


def matched(item: tuple[str, etree._Element] | None, kind: str, name: str) -> etree._Element | None:
    """The node of ``item`` where it is what a token of ``kind`` named ``name`` reads as; else None."""
    if item is None or item[0] != kind:
        return None
    # by the names' ends: a prefix nothing declares stays in the parsed name (``xliff:g``), which no QName takes
    if kind in ("start", "end") and item[1].tag.rpartition("}")[2].rpartition(":")[2] != name.rpartition(":")[2]:
        return None
    return item[1]


def keep_text(forms: SourceForms, node: etree._Element, slot: str, written: str, ways: dict[str, set[str]]) -> None:
    """The text ``written`` kept where lxml would write it another way and it means ``node``'s text (or
    tail) as parsed: a CDATA section in it is kept by the tree itself.  ``ways``: each value's forms."""
    value = getattr(node, slot) or ""
    if "<![CDATA[" in written or decoded(written) != value:
        return
    ways.setdefault(value, set()).add(written)
    if written != escape(value, quote=False):
        forms.texts.append((node, slot, value, written))


def decoded(written: str) -> str:
    """The text that ``written``, a text of XML without CDATA sections, means."""
    def character(found: re.Match[str]) -> str:
        code = int(found[1]) if found[1] else int(found[2], 16) if found[2] else None
        return NAMED[found[3]] if code is None else chr(code) if code <= 0x10FFFF else found[0]
    return REFERENCE.sub(character, written)


@contextmanager
def written_in_forms(forms: SourceForms | None, holder: etree._Element) -> Iterator[Callable[[str], str]]:
    """While the tree under ``holder`` is written, each start tag and text of ``forms`` that still holds
    what was read there (in a copy of a kept element: SourceForms.by_value) stands in for a mark (StandIns);
    yields what puts the forms in place of the marks in the written text.  An element still empty that was
    written with an end tag is written with one.  The tree is as it was afterwards."""
    if forms is None or not (forms.starts or forms.texts or forms.by_value or forms.ends):
        yield lambda written: written
        return
    stand_ins = StandIns()
    try:
        for start in forms.starts:
            stand_ins.start(start)
        for node, slot, value, written in forms.texts:
            stand_ins.text(node, slot, value, written)
        if forms.by_value:
            for node in holder.iterdescendants():
                for slot in ("text", "tail") if isinstance(node.tag, str) else ("tail",):  # a comment's text is its own
                    value = getattr(node, slot) or ""
                    if value in forms.by_value:
                        stand_ins.text(node, slot, value, forms.by_value[value])
        for element, written, tag in forms.ends:
            stand_ins.end(element, written, tag)
        yield stand_ins.restore
    finally:
        for step in reversed(stand_ins.undo):
            step()


@dataclass
class StandIns:
    """The marks standing in a tree for what is written as it came (``kept``: the k-th mark's), and how to
    take each out again (``undo``)."""

    nonce: str = field(default_factory=lambda: uuid4().hex)
    kept: list[str] = field(default_factory=list)
    undo: list[Callable[[], None]] = field(default_factory=list)

    def start(self, start: Start) -> None:
        """``start``'s element marked where it has the name and attributes it was read with (an attribute
        beside them: the written tag is replaced whole), and written with an end tag where it was and is
        empty; a tag written ``<a/>`` only where its element is still empty."""
        element = start.element
        empty = element.text is None and not len(element)
        if start.open and empty:
            element.text = ""
            self.undo.append(lambda: setattr(element, "text", None))
        if element.tag == start.tag and list(element.attrib.items()) == start.attributes and (start.open or empty):
            name = f"attnmt{self.nonce}"
            element.set(name, str(len(self.kept)))
            self.kept.append(start.written)
            self.undo.append(lambda: element.attrib.pop(name))

    def text(self, node: etree._Element, slot: str, value: str, written: str) -> None:
        """``node``'s text (or tail: ``slot``) marked where it still holds ``value``, written ``written``."""
        if (getattr(node, slot) or "") != value:
            return  # translated, or marked already
        setattr(node, slot, f"attnmt{self.nonce}t{len(self.kept)}x")
        self.kept.append(written)
        self.undo.append(lambda: setattr(node, slot, value))

    def end(self, element: etree._Element, written: str, tag: str) -> None:
        """``element``'s end tag written ``written`` where it still has the name ``tag``: a processing
        instruction, appended as its last node, marks it (the end tag is the next thing written)."""
        if element.tag != tag:
            return
        mark = etree.ProcessingInstruction(f"attnmt{self.nonce}", str(len(self.kept)))
        if element.text is None and not len(element):
            element.text = ""  # an empty element is written with its end tag where it was (StandIns.start)
            self.undo.append(lambda: setattr(element, "text", None))
        element.append(mark)
        self.kept.append(written)
        self.undo.append(lambda: element.remove(mark))

    def restore(self, written: str) -> str:
        """``written`` with each mark the form it stands for: a start tag's whole tag, which lxml writes
        with every ``<`` and ``>`` of its values escaped, and an end tag, after its mark."""
        mark = re.compile(rf'<[^<>]*\sattnmt{self.nonce}="(\d+)"[^<>]*>|attnmt{self.nonce}t(\d+)x'
                          rf'|<\?attnmt{self.nonce} (\d+)\?></[^<>]*>')
        return mark.sub(lambda found: self.kept[int(found[1] or found[2] or found[3])], written)
