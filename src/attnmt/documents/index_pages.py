"""The pages of a Word index's entries, which an ``INDEX`` field's result lists after each entry's
words: "apple tree, 3-5, 7".  Word writes the entry, the separator its ``\\e`` switch sets (", "
where it sets none), then the pages, parted by the ``\\l`` switch's separator (", " again).

The index's result is read as its paragraphs' own words (attnmt.documents.fields' OPEN_KINDS), and
read whole, "apple tree, 3-5, 7" lost its pages: the model translated the words and dropped the
numbers.  So the separator and the pages after an entry's words are kept, an atom after its
translation, as a URL is (index_protection).  A separator that is a tab (``\\e "\\t"``) already
ends the entry's sentence, and its pages, without letters, are kept with no help from here.
"""

from __future__ import annotations

import re

from lxml import etree

from attnmt.documents import fields  # by its module: fields imports ooxml, which imports this module
from attnmt.documents.split_placeholders import PARAGRAPH_PROTECTED
from attnmt.documents.wordml import w
from attnmt.documents.xstring import text_in

# One page or range of pages: arabic, or the lower-case roman numerals of a preface (a range's dash
# the hyphen, en dash or figure dash Word's \g switch may set)
PAGE = r"(?:\d+|[ivx]+)(?:[-\u2013\u2012](?:\d+|[ivx]+))?"
DEFAULT_SEPARATOR = ", "  # Word's, before the pages (\e) and between them (\l)


def switch_text(code: str, switch: str) -> str | None:
    """The text after ``switch`` (``\\e``) in field ``code``, unescaped; None where it has none."""
    arguments = list(fields.ARGUMENT.finditer(code))
    for named, after in zip(arguments, arguments[1:], strict=False):
        if (named.group(2) or "").lower() == switch and not after.group(2):
            return fields.ESCAPED.sub(r"\1", after.group(1) if after.group(1) is not None else after.group(3))
    return None


def page_list(code: str) -> re.Pattern[str]:
    """What a paragraph of an index of ``code`` keeps (PARAGRAPH_PROTECTED's, and its entries' trailing
    separator and pages)."""
    before = switch_text(code, "\\e") or DEFAULT_SEPARATOR
    between = switch_text(code, "\\l") or DEFAULT_SEPARATOR
    pages = f"{re.escape(before)}{PAGE}(?:{re.escape(between)}{PAGE})*\\Z"
    return re.compile(f"{PARAGRAPH_PROTECTED.pattern}|{pages}")


def index_protection(root: etree._Element) -> dict[etree._Element, re.Pattern[str]]:
    """Each paragraph under ``root`` with text in an ``INDEX`` field's result (outside any field in it)
    -> what it keeps (page_list)."""
    found: dict[etree._Element, re.Pattern[str]] = {}
    paragraph: etree._Element | None = None
    codes: list[list[str]] = []  # each field open, outermost first: [its code, whether its result began]
    for node in root.iter(w("p"), w("fldChar"), w("instrText"), w("t")):
        kind = fields.field_kind(node)
        if node.tag == w("p"):
            paragraph = node
        elif kind == "begin":
            codes.append(["", ""])
        elif kind == "separate" and codes:
            codes[-1][1] = "result"
        elif kind == "end" and codes:
            codes.pop()
        elif node.tag == w("instrText") and codes and not codes[-1][1]:
            codes[-1][0] += text_in(node)
        elif node.tag == w("t") and codes and codes[-1][1] and fields.field_code_kind(codes[-1][0]) == "INDEX":
            found[paragraph] = page_list(codes[-1][0])
    return found
