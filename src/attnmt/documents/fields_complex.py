"""Word's complex fields whose result the model reads (attnmt.documents.fields: a link's, a number's amid words), read
as the simple fields they stand for (``ComplexField.stand_in``): a field's begin, code and separator runs, its result's
runs, its end's run, among the children of a paragraph or a container in it (a tracked insertion, a link)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import takewhile

from lxml import etree

from attnmt.documents.fields import (
    amid_words,
    depth_after,
    field_kind,
    is_number_field,
    is_number_result,
    is_read_code,
    is_read_result,
    read_depth_after,
    result_text,
)
from attnmt.documents.formatting import run_parts
from attnmt.documents.wordml import FIELD_HOLDERS, w
from attnmt.documents.xstring import text_in

CODE_TEXTS = frozenset({w("instrText"), w("delInstrText")})  # a code's text, as written and as deleted (w:del)
CODE_PARTS = frozenset({w("rPr"), w("fldChar"), *CODE_TEXTS})  # what a run of a field's code holds

# What Word leaves between a field's runs before its result (a hyperlink's "_Hlt" bookmark, a
# comment's anchor, an editing permission's range; its spelling marks are dropped before, as
# attnmt.documents.formatting.merge_runs says): kept where it is, in the field's code.
CODE_MARKS = frozenset({w("bookmarkStart"), w("bookmarkEnd"), w("commentRangeStart"), w("commentRangeEnd"),
                        w("permStart"), w("permEnd")})


@dataclass(frozen=True)
class ComplexField:
    """A complex field whose result the model reads, among its container's children: the runs of
    its begin, code and separator (``opening``), its result's children, and the run of its end."""

    code: str
    opening: list[etree._Element]
    result: list[etree._Element]
    closing: etree._Element

    def stand_in(self) -> etree._Element:
        """The simple field this one stands for, holding copies of its result's children: read as
        one, it is a mark over its words (the copies, since the paragraph keeps its own children
        where it is not translated)."""
        field = self.closing.makeelement(w("fldSimple"), {w("instr"): self.code})
        field.extend(copy.deepcopy(child) for child in self.result)
        return field


def as_read(container: etree._Element, depth: int,
            dialect: ooxml_dialects.Dialect) -> Iterator[etree._Element | ComplexField]:
    """``container``'s children, each complex field whose result the model reads as one ComplexField
    where it begins outside every other field (``depth``: those open where the container begins)."""
    children = list(container)
    position = 0
    while position < len(children):
        field = None if depth else complex_field(children, position)
        if field is None:
            depth = read_depth_after(run_parts(children[position], dialect), depth)
            yield children[position]
            position += 1
        else:
            yield field
            position += len(field.opening) + len(field.result) + 1


def parts_as_read(node: etree._Element, depth: int, dialect: ooxml_dialects.Dialect) -> Iterator[etree._Element]:
    """The parts of run or container ``node`` (formatting.run_parts) as the model reads them, ``depth``
    fields open where it begins: a complex field whose result it reads (as_read) as its result's
    parts, without its begin, code, separator and end.  Seen with those, the words of a link alone
    in a tracked insertion or a content control were a field's, and the container was kept, its
    link's words English.  A number read amid its paragraph's words (a complex field's stand-in, reads_number) is no
    mark around its runs, but its result's parts are read too: seen as none, a tracked insertion of a page reference
    alone was kept whole, out of the model's text ("See page for a man.")."""
    if not dialect.holds_runs(node):
        # a complex field's stand-in (no parent) is one as_read found amid words
        numbered = node.tag == w("fldSimple") and (node.getparent() is None or reads_number(node))
        for held in list(node) if numbered else [node]:
            yield from run_parts(held, dialect)
        return
    for child in as_read(node, depth, dialect):
        if isinstance(child, ComplexField):
            yield from parts_as_read(child.stand_in(), depth, dialect)
        else:
            yield from parts_as_read(child, depth, dialect)
            depth = read_depth_after(run_parts(child, dialect), depth)


def reads_number(field: etree._Element) -> bool:
    """Whether simple field ``field`` is a number read amid its paragraph's words (is_number_field, amid_words)."""
    before, after = result_text(*siblings_before(field)), result_text(*siblings_after(field))
    return is_number_field(field) and amid_words(field.get(w("instr"), ""), before, after)


def complex_field(children: Sequence[etree._Element], start: int) -> ComplexField | None:
    """The complex field whose result the model reads (is_read_code, is_read_result, is_number_result) that begins at
    ``children[start]``, ended among the same children; None for any other child, or where the
    field's begin, code, separator or end shares a run with anything else, or its code holds a field
    of its own, or a field in its result is not in a run of the result (a tracked deletion's): such
    a field is kept, as every other field is.  A mark Word leaves between its begin and its code
    (CODE_MARKS: a bookmark, a comment's anchor) stays there."""
    parts = [part for part in held_run(children[start]) if part.tag != w("rPr")]
    if not is_code_run(held_run(children[start])) or not parts or field_kind(parts[0]) != "begin":
        return None
    depth, separate, code = 0, None, ""
    for position in range(start, len(children)):
        child = held_run(children[position])
        if child.tag != w("r"):
            if (separate is None and child.tag not in CODE_MARKS) or next(child.iter(w("fldChar")), None) is not None:
                return None
            continue
        for part in child:
            kind = field_kind(part)
            if kind == "begin" and separate is None and depth:
                return None  # a field in the code
            depth = depth_after([part], depth)
            if kind == "separate" and depth == 1 and separate is None:
                separate = position
            elif part.tag in CODE_TEXTS and separate is None:
                code += text_in(part)
            elif kind == "end" and not depth:
                return _checked(children, start, separate, position, code)
    return None


def _checked(children: Sequence[etree._Element], start: int, separate: int | None, end: int,
             code: str) -> ComplexField | None:
    if separate is None:
        return None  # no result
    opening, closing = list(children[start:separate + 1]), children[end]
    if not all(is_code_run(held_run(node)) or node.tag in CODE_MARKS for node in opening) or not is_code_run(
            held_run(closing)):
        return None
    result = list(children[separate + 1:end])
    around = result_text(*siblings_before(children[start])), result_text(children[end], *siblings_after(children[end]))
    if not (is_read_code(code) and is_read_result(code, *result)) and not (
            is_number_result(code, *result) and amid_words(code, *around)):
        return None
    if field_kind(held_run(opening[-1])[-1]) != "separate" or len(list(held_run(closing).iter(w("fldChar")))) != 1:
        return None  # the separator is not its run's last part, or the end's run holds a field's begin too
    return ComplexField(code, opening, result, closing)


def siblings_before(node: etree._Element) -> list[etree._Element]:
    """What comes before ``node`` in its paragraph, in document order: the children before it of its container, and
    of each container around that up to the paragraph (a tracked insertion, a link).  The words a field's number
    stands amid are its paragraph's: a number field alone in a tracked insertion (``See page <w:ins>{PAGEREF}4{}
    </w:ins> for a man.``) found none in the insertion, and the model read "See page for a man."."""
    containers = reversed(_containers(node))
    return [sibling for layer in containers for sibling in reversed(list(layer.itersiblings(preceding=True)))]


def siblings_after(node: etree._Element) -> list[etree._Element]:
    """What comes after ``node`` in its paragraph, in document order (siblings_before's other side)."""
    return [sibling for layer in _containers(node) for sibling in layer.itersiblings()]


def _containers(node: etree._Element) -> list[etree._Element]:
    """``node`` and the containers around it inside its paragraph, innermost first (a stand-in's copy: itself)."""
    return [node, *takewhile(lambda ancestor: ancestor.tag != w("p"), node.iterancestors())]


def held_run(node: etree._Element) -> etree._Element:
    """The run a tracked change or a mark around runs (wordml.FIELD_HOLDERS) holds alone, where ``node`` is one (a
    field's begin inserted or linked, its result and end not: field_revisions); ``node`` itself where not."""
    alone = node.tag in FIELD_HOLDERS and len(node) == 1 and node[0].tag == w("r")
    return node[0] if alone else node


def is_code_run(node: etree._Element) -> bool:
    """A run that holds a field's characters and code alone (and its properties)."""
    return node.tag == w("r") and all(part.tag in CODE_PARTS for part in node)


# The module of the annotations' Dialect, imported last (typing.get_type_hints reads the annotations):
# it imports attnmt.documents.ooxml, which imports this module, whose names it takes must exist by then.
from attnmt.documents import ooxml_dialects  # noqa: E402
