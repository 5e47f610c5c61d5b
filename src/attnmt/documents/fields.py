"""Word's fields whose result is words of the sentence: a link (``HYPERLINK``), a text typed into
a prompt (``FILLIN``) or a form's text box (``FORMTEXT``), the words an index or contents entry
marks (``XE``, ``TC``), a cross-reference's copy of the words it refers to (``REF``).

A field is a code and the result Word last computed from it.  Most results are Word's to compute
again (a page number, a date, a heading repeated in a page's header), and attnmt.documents.ooxml
keeps them as they are.  A link's result is the text a reader clicks, written by the author:
"Click <the help page> to learn more."  Kept, the model read "Click to learn more." and the link's
words stayed English inside the translated sentence.  A ``FILLIN`` field's result is the text
someone typed when Word asked for it, often a whole paragraph, which stayed English and was not
in a review; a form's text box (``FORMTEXT``, what a ``FILLIN`` becomes through a ``.doc``) holds the
same, and kept whole it was moved to the sentence's front.  Word writes no result for an index or
contents entry (``XE``, ``TC``), but LibreOffice writes the words its mark spans there ("An <orange
cat> sits on the wall."): they are the sentence's own, and kept, the model read "An sits on the
wall."  So such a field's result is read as a mark over its words, as Word's other link
(``w:hyperlink``, a container around its runs) is.  The entry in an ``XE`` or ``TC`` field's code
("orange cat") is translated with the document (attnmt.documents.index_entries), so that the index
Word builds from it again reads as the index it shows.  A cross-reference (``REF _Ref55 \\h``) shows a
copy of the words its bookmark holds ("See <Watering and care> for details.", "As shown in <Figure
2>"), which Word computes again only when someone updates the fields: kept, the copy stayed English
inside the translated sentence, so it is read as a link's words are (one of digits alone, a
heading's number, is kept: is_read_result).

A field that shows the document's title or subject (``TITLE``, ``SUBJECT``, ``DOCPROPERTY Title``:
SHOWN_PROPERTIES) shows a property attnmt.documents.package_properties translates; kept, the cover
or the sentence it stands in showed the source's title until someone updated the fields, and Word's
File > Info the translated one.  So its result is read as its sentence's words too.  A field of any
other property (an author, a company, a date) shows a name or data, and is kept.

Word writes a field in one of two ways:

- simple, ``w:fldSimple``: its code an attribute (``w:instr``), its result the runs inside it;
- complex: runs between the paragraph's other runs, ``w:fldChar`` begin, the code's
  ``w:instrText``, ``w:fldChar`` separate, the result's runs, ``w:fldChar`` end.

ooxml reads a complex link field as the simple field it stands for (fields_complex.ComplexField.stand_in), and writes
its begin, code and separator back before the translated result, its end after it.  A link inside
another field's result is kept.  So is a link whose result is digits and symbols alone
(is_read_result: a note's number, a citation, a phone number), without a space at its ends or a
sentence's stop.

A table of contents (``TOC \\o "1-3" \\h``) is one field over as many paragraphs as it has entries,
its result the headings' words as Word last wrote them, each with its page number (a ``PAGEREF``
field) and often a link to the heading (a ``w:hyperlink`` or a ``HYPERLINK \\l "_Toc..."`` field).
Word and LibreOffice show that result until someone updates the fields, so, kept, a translated
document opened with an English contents list over German headings.  Its result is read as the
paragraphs' own words (read_depth_after, OPEN_KINDS): each entry is translated as its heading is,
the links in it as any link, and the fields inside it (the page numbers) are kept.  So is an
index's (``INDEX \\e "\\t" \\c "2"``): its entries, each with its pages, as Word last built them
from the ``XE`` fields, showed the source's words, an English index at the end of a German book.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from attnmt.documents.caption_numbers import after_caption_number
from attnmt.documents.flat import SENTENCE_ENDS, FlatBuilder, has_words
from attnmt.documents.formatting import run_parts
from attnmt.documents.wordml import w
from attnmt.documents.xstring import text_in

# A field's code starts with its kind; these kinds' results are words of their sentence.
READ_KINDS = frozenset({"HYPERLINK", "FILLIN", "FORMTEXT", "XE", "TC", "REF"})
# Of those, the kinds whose result is read where it is spaces alone (is_read_result): a link's " " stands
# between two words ("Click< >here."), which kept were glued.  A blank form text box's result (FORMTEXT:
# five en spaces, the box Word shows) or an index mark's spaces are the field's own: read as a mark over
# no words, they became one space, or the space before the field moved inside, so they are kept.
SPACE_KINDS = frozenset({"HYPERLINK", "FILLIN"})
# The document's properties that are translated (attnmt.documents.package_properties), by the name a
# DOCPROPERTY field gives them and as the kind of a field of their own (TITLE, SUBJECT), case apart.
SHOWN_PROPERTIES = frozenset({"TITLE", "SUBJECT"})
# The kinds of field whose result is read as its paragraphs' own words: a table of contents' (the module docstring)
OPEN_KINDS = frozenset({"TOC", "INDEX"})
# A caption's number is a SEQ field (Insert Caption: "Figure {SEQ Figure \* ARABIC}1{}: A black dog."), the
# chapter's number before it a STYLEREF with one of these switches, which show a heading's number: the label before
# them and the caption's text after them are sentences apart (numbers_caption, is_caption_code).  Read as one,
# "Figure : A black dog." lost its label and its colon to the model.
HEADING_NUMBERS = frozenset({"\\s", "\\n", "\\r", "\\w"})
# A code's arguments: a quoted text (a backslash escaping the character after it), a switch, a bare word.
ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"|(\\[A-Za-z*@#!])|(\S+)')
ESCAPED = re.compile(r"\\(.)")  # a quoted text's escaped character
NUMBER = re.compile(r"[0-9]+")  # a field's result of digits alone (is_number_result)


def is_read_code(code: str) -> bool:
    """Whether a field of ``code`` (``HYPERLINK "https://example.com"``) has a result the model reads."""
    return field_code_kind(code) in READ_KINDS or shown_property(code) in SHOWN_PROPERTIES


def shown_property(code: str) -> str:
    """The document property a field of ``code`` shows, upper-cased: a field of its own's kind
    (``TITLE``), a ``DOCPROPERTY`` field's name (``DOCPROPERTY "Title" \\* MERGEFORMAT``); "" for
    any other field."""
    words = code.split()
    if len(words) > 1 and words[0].upper() == "DOCPROPERTY":
        return words[1].strip('"').upper()
    return field_code_kind(code)


def field_code_kind(code: str) -> str:
    """The kind a field's ``code`` starts with, upper-cased (``HYPERLINK``); "" for an empty code."""
    words = code.split()
    return words[0].upper() if words else ""


def is_read_field(node: etree._Element) -> bool:
    """Whether ``node`` is a simple field (``w:fldSimple``) whose result the model reads (is_read_code,
    is_read_result)."""
    code = node.get(w("instr"), "")
    return node.tag == w("fldSimple") and is_read_code(code) and is_read_result(code, node)


def is_read_result(code: str, *nodes: etree._Element) -> bool:
    """Whether the model reads the result ``nodes`` of a field of ``code`` (their text outside the fields among them):
    where it has a letter, a space at either end, or a sentence's stop.  One of digits and symbols
    alone (a note's number after a full stop, "park.¹²", a citation, "park[1]", a ``*``, a phone
    number) is kept whole, as every other field is: read with its sentence, it glued itself to the
    word before it (and "park.12 A cat" to the next sentence), and the model dropped it.  Kept, one
    with a space at an end took that space with it ("In< 2024 >the dog" read "Inthe dog"), and one
    with a stop its sentence's end ("See page <12.> The cat" read as one sentence), so those are
    read, as any words are.  One of spaces alone is read only for SPACE_KINDS (a link's, not a blank
    form box's)."""
    text = result_text(*nodes)
    if not text.strip():
        return text != "" and field_code_kind(code) in SPACE_KINDS
    return has_words(text) or text != text.strip() or any(character in SENTENCE_ENDS for character in text)


def result_text(*nodes: etree._Element) -> str:
    """The text of a field's result ``nodes`` outside the fields among them."""
    depth, text = 0, ""
    for part in (part for node in nodes for part in node.iter(w("fldChar"), w("t"))):
        if part.tag == w("fldChar"):
            depth = depth_after([part], depth)
        elif not depth:
            text += text_in(part)
    return text


def is_number_field(node: etree._Element) -> bool:
    """Whether ``node`` is a simple field (or a complex one's stand-in) whose result is a number (is_number_result)."""
    return node.tag == w("fldSimple") and is_number_result(node.get(w("instr"), ""), node)


def is_number_result(code: str, *nodes: etree._Element) -> bool:
    """Whether the result ``nodes`` of a field of ``code`` is digits alone (a page's number, ``PAGEREF``, ``PAGE``,
    ``NUMPAGES``; a heading's, ``REF \\n``; a count, ``SEQ``), read in its place amid words (amid_words,
    ooxml.ParagraphJob._add_number): kept out of the text, "See page {4} for a man." read "See page for a man."."""
    return NUMBER.fullmatch(result_text(*nodes)) is not None


def amid_words(code: str, before: str, after: str) -> bool:
    """Whether the number of a field of ``code`` between the text ``before`` and ``after`` it is read with its sentence:
    spaced from the words either side, words after it, in lower case after a caption's number (is_caption_code: "There
    are {SEQ Dog}3{} dogs here.").  Glued to a word or a stop, a note's number ("park.{12} A cat"); before a stop or a
    comma ("on page {7}.", "{3}, then"), an atom follows its word (numbered_words, closing_marks)."""
    spaced = before[-1:] in ("", " ", "\t", "\u00a0") and after[:1] in (" ", "\u00a0") and bool(after.strip())
    return spaced and (not is_caption_code(code) or after.strip()[0].islower())


def field_kind(part: etree._Element) -> str | None:
    """A ``w:fldChar``'s type (begin, separate or end); None for any other part of a run."""
    return part.get(w("fldCharType")) if part.tag == w("fldChar") else None


def depth_after(parts: Iterable[etree._Element], depth: int) -> int:
    """The complex fields open after run ``parts``, ``depth`` of them open before."""
    for part in parts:
        kind = field_kind(part)
        depth = max(0, depth + (kind == "begin") - (kind == "end"))
    return depth


def read_depth_after(parts: Iterable[etree._Element], depth: int) -> int:
    """The complex fields open after run ``parts`` whose results the model does not read, ``depth``
    of them open before: as depth_after, but a separator that begins a result read as words
    (opens_result, outside every other field) closes its field there.  Its end then finds none
    open, and stays at 0."""
    for part in parts:
        if field_kind(part) == "separate" and depth == 1 and opens_result(part):
            depth = 0
        else:
            depth = depth_after([part], depth)
    return depth


def kept_runs(children: Iterable[etree._Element], depth: int, dialect: ooxml_dialects.Dialect) -> set[etree._Element]:
    """The runs among a container's ``children`` whose text is all inside fields whose results the model does not
    read (read_depth_after; ``depth`` of them open before the first): a button's prompt, a date, a page number.  Their
    look is no look of the words around them: counted for the paragraph's base (formatting.base_run), a bold
    button's long prompt made bold the base, and the space before the field was written bold ("Name:< >")."""
    kept = set()
    for child in children:
        texts = []  # (whether read, whether it has characters) of each text part of the child
        for part in run_parts(child, dialect):
            if part.tag == w("fldChar"):
                depth = read_depth_after([part], depth)
            elif part.tag == dialect.text:
                texts.append((not depth, bool(dialect.text_of(part))))
        if child.tag == dialect.run and any(shown for _, shown in texts) and not any(read for read, _ in texts):
            kept.add(child)
    return kept


def opens_result(separator: etree._Element) -> bool:
    """Whether a field's separator (a ``w:fldChar`` of type separate) begins a result read as the
    words around it: that of a field of OPEN_KINDS (a table of contents) begun in the same
    paragraph, outside every other field there."""
    codes = codes_open_at(separator)
    return len(codes) == 1 and field_code_kind(codes[0]) in OPEN_KINDS


def numbers_caption(part: etree._Element) -> bool:
    """Whether run part or paragraph child ``part`` is a simple field of a caption's number (is_caption_code), or the
    separator of a complex one begun in the same paragraph outside every other field: no sentence goes on past it."""
    if part.tag == w("fldSimple"):
        return is_caption_code(part.get(w("instr"), ""))
    codes = codes_open_at(part) if field_kind(part) == "separate" else []
    return len(codes) == 1 and is_caption_code(codes[0])


def is_caption_code(code: str) -> bool:
    """Whether a field of ``code`` shows a caption's number where it stands: a SEQ but one whose ``\\h`` hides its
    number (``SEQ Figure \\r 0 \\h``, a count reset in running text, which parts none of its sentence's words), a
    STYLEREF that shows a heading's number (``\\s``, ``\\n``, ``\\r``, ``\\w``; without one it shows the heading's
    words, "as described in {STYLEREF 1}Care{}, ...", part of its sentence)."""
    switches = {found.group(2) for found in ARGUMENT.finditer(code)}
    kind = field_code_kind(code)
    return (kind == "SEQ" and "\\h" not in switches) or (kind == "STYLEREF" and bool(switches & HEADING_NUMBERS))


def after_caption_separator(builder: FlatBuilder, text: str) -> str:
    """``text`` without the caption's separator it starts with, where it follows a caption's number field's end
    (numbers_caption; a cross-reference's bookmark around "Figure 1" ends after it), that separator a piece of its
    own (caption_numbers.after_caption_number); ``text`` as it is elsewhere."""
    return after_caption_number(builder, text, ends_a_field)


def ends_a_field(node: etree._Element) -> bool:
    """Whether an atom's ``node`` is or holds a field's end, or is a simple field."""
    return any(field_kind(part) == "end" or part.tag == w("fldSimple") for part in node.iter())


def in_field_code(text: etree._Element) -> bool:
    """Whether a run's text element ``text`` lies in the code of a complex field begun in its paragraph: the result
    of a field nested in the code, ``{IF {MERGEFIELD Gender}M = "F" "Madam" "Sir"}Sir{}``, which Word shows none of."""
    paragraph = next(text.iterancestors(w("p")), None)
    coding: list[bool] = []  # for each field open, outermost first: whether its code goes on
    for part in () if paragraph is None else paragraph.iter(w("fldChar"), text.tag):
        kind = field_kind(part)
        if part is text:
            return any(coding)
        if kind == "begin":
            coding.append(True)
        elif kind == "separate" and coding:
            coding[-1] = False
        elif kind == "end" and coding:
            coding.pop()
    return False


def codes_open_at(separator: etree._Element) -> list[str]:
    """The code of each complex field open at ``separator`` begun in its paragraph, outermost first."""
    paragraph = next(separator.iterancestors(w("p")), None)
    codes: list[str] = []
    for part in () if paragraph is None else paragraph.iter(w("fldChar"), w("instrText")):
        kind = field_kind(part)
        if part is separator:
            return codes
        if kind == "begin":
            codes.append("")
        elif kind == "end" and codes:
            codes.pop()
        elif part.tag == w("instrText") and codes:
            codes[-1] += text_in(part)
    return []


# The module of the annotations' Dialect, imported last (typing.get_type_hints reads the annotations):
# it imports this module, whose names it takes must exist by then.
from attnmt.documents import ooxml_dialects  # noqa: E402
