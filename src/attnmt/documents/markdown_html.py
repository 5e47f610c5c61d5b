"""Inline HTML in a Markdown run, as attnmt.documents.markdown reads it.

    html_pairs(children)     -> the start tags read as marks, each with its end tag
    html_name(token)         -> the element a paired tag is read as
    read_attributes(token)   -> what a paired start tag says of its translation and of being a link, as a page's
    MarkdownVocabulary       -> how a run's elements are read: a page's way, but its <code> an atom

A start tag and its end tag in one run (``<a href="…">the guide</a>``, ``<b>``, ``<span>``, MDX's
``<Highlight>``) are one mark, so that they stay around their words as a page's do; any other tag is an
atom, kept where the alignment puts it, and ``<br>`` is read as a line break.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree
from markdown_it.token import Token

from attnmt.documents.elements import Vocabulary
from attnmt.documents.kept_names import is_inline_code
from attnmt.documents.markdown_github import FOOTNOTE_REF

__all__ = ["INLINE_BREAK", "MarkdownVocabulary", "html_name", "html_pairs", "read_attributes"]

# Inline HTML's line break (<br>, <br/>, <br />, any case): read as a line break, as a hard break is, so that it
# parts the words either side ("runs<br>A woman" is two lines, not "runsA woman"); its tag is written back as it was.
INLINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
# Inline HTML's phrasing elements whose start and end tags, paired in a run (html_pairs), are read as one mark, so
# that the tags stay around their words: each an atom, placed apart, a reordered translation wrote
# "GUIDE</a> WHOLE <a …>THE", an end tag before its start.
PAIRED = frozenset("a abbr b bdi bdo cite code del dfn em font i ins kbd mark q s samp small span strong sub sup "
                   "time u var".split())
HTML_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)(?:\s[^<>]*)?(?<!/)>")  # a start or end tag (not one closed: "/>")
# A start tag's attribute and its value, quoted or not: translate="no", class='brand notranslate', translate=no.
ATTRIBUTE = re.compile(r"""\s([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""")


def html_pairs(children: Sequence[Token]) -> dict[int, int]:
    """The inline HTML elements of a run read as marks: for each start tag of PAIRED or of a component
    (by index in ``children``), its end tag, the next of its name at the same depth of Markdown's marks, with every
    HTML start tag opened after it closed first (``<b>x</i></b>``: ``</i>``, which closes none, stays an
    atom).  Never a link inside a link (an HTML parser would end the outer one), nor an element with
    nothing inside (an anchor, ``<a id="intro"></a>``, an icon's ``<span></span>``): read as a mark, it
    was left out as an emptied emphasis is, where its two atoms stay at their place."""
    pairs: dict[int, int] = {}
    opened: list[tuple[str, int, int]] = []  # (name, index, depth) of the start tags not yet paired
    depth = links = 0
    for index, token in enumerate(children):
        tag = HTML_TAG.fullmatch(token.content) if token.type == "html_inline" else None
        if tag is None:
            depth += token.nesting
            links += token.nesting if token.type in ("link_open", "link_close") else 0
            opened = [entry for entry in opened if entry[2] <= depth and not (links and entry[0] == "a")]
            continue
        name = tag.group(2).lower()
        if name not in PAIRED and not component(tag.group(2)):
            continue
        if not tag.group(1):
            if not (name == "a" and (links or any(entry[0] == "a" for entry in opened))):
                opened.append((name, index, depth))
        elif opened and opened[-1][0] == name and opened[-1][2] == depth:
            start = opened.pop()[1]
            if any(between.content.strip() for between in children[start + 1:index]):
                pairs[start] = index
    return pairs


def component(name: str) -> bool:
    """Whether an element is MDX's JSX component (``<Highlight>``, ``<Badge>``) or a custom element
    (``<my-element>``): its tags, placed apart as atoms, came back end before start, which MDX refuses."""
    return name[0].isupper() or "-" in name


def html_name(token: Token) -> str:
    """The element a paired tag of an inline HTML token is read as: its own, in lower case, where PAIRED,
    else a ``span`` (a component's, which an HTML parser does not know)."""
    tag = HTML_TAG.fullmatch(token.content)
    return tag.group(2).lower() if tag and tag.group(2).lower() in PAIRED else "span"


def read_attributes(token: Token) -> str:
    """The attributes a paired start tag's element is read with: ``data-anchor`` for an ``a`` with no ``href``, an
    anchor, no link a reader follows (links.is_markdown_link), which gets no text back where it is left empty, as a
    page's gets none; and its ``translate``: its own where it has one, ``translate="no"`` for class ``notranslate``
    (elements.says), else none.  Its other attributes are not read (the tags come back as written), so that a kept
    name, ``<span translate="no">AZ-2040-X</span>``, is read with its sentence and kept as a page's is (kept_names):
    read without it, its identifier was taken out of the sentence and the model read "Model number ships today.",
    and a kept passage of several words was translated."""
    attributes = {match[1].lower(): match[2] or match[3] or match[4] or "" for match in ATTRIBUTE.finditer(
        token.content)}
    said = attributes.get("translate", "").strip().lower()
    anchor = ' data-anchor=""' if html_name(token) == "a" and "href" not in attributes else ""
    if said in ("yes", "no"):
        return f'{anchor} translate="{said}"'
    return anchor + (' translate="no"' if "notranslate" in attributes.get("class", "").split() else "")


class MarkdownVocabulary(Vocabulary):
    """A Markdown run's vocabulary: a page's, but its ``<code>`` (or inline HTML's ``<kbd>``) stands for a code span,
    an autolink, inline HTML, a footnote's reference or an emoji's code, an atom written back as its Markdown was
    (attnmt.documents.markdown), not a word of code read with its sentence as a page's is (kept_names.read_whole)."""

    combinations = False  # nor keys side by side read as one combination (key_combinations)

    def is_kept_word(self, node: etree._Element) -> bool:
        return not is_inline_code(node) and super().is_kept_word(node)

    def is_deleted(self, node: etree._Element) -> bool:
        # Markdown's strikethrough (``~~struck out~~``, an <s> here) is a mark carried around its words' translation
        # as emphasis is, not a page's struck-out words kept as written (Vocabulary.is_deleted)
        return node.tag != "s" and super().is_deleted(node)

    def ends_sentence(self, node: etree._Element) -> bool:
        # A shell command on a line of its own (markdown_commands: its atom holds its line's breaks, which no code
        # span's does): no sentence runs on over it, as over a page's (markup_text.PageBuilder.command_spans).
        return super().ends_sentence(node) or (node.tag == "code" and (node.text or "").startswith("\n"))

    def is_reference(self, node: etree._Element) -> bool:
        # A footnote's reference (``[^1]``) is a note's as a page's <sup> is: it parts no word from the stop after it
        # (``runs[^1].`` was read ``runs .``), and brackets around it alone go with it.
        footnote = node.tag == "code" and FOOTNOTE_REF.fullmatch(node.text or "") is not None
        return footnote or super().is_reference(node)
