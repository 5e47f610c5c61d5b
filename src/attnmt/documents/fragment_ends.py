"""lxml's wrapper around an HTML fragment, ``<html><body>...</body></html>``, and where the text runs
past it or ends it early.  Where the text ends inside something that runs on, the wrapper's end is
read as part of it: the text's last comment, raw text or tag takes those closing tags in, and
attnmt.documents.pages parses such a text again with what ``fragment_end`` says to put after it in
place of the wrapper's end.  Where the text has a </body> or </html> of its own, what follows it is
put outside the wrapper's <body> (``fragment_holder`` gathers it), and the wrapper's end is then
unexpected (``WrapperEnd`` names the text's line for that problem)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree, html

from attnmt.documents.doctype import COMMENT
from attnmt.documents.page_writer import append_text

# The end of the <html><body>...</body></html> that lxml wraps a fragment in; its closing tags show
# the elements the text left open (a repair warned of), but a text that ends inside a comment or an
# element of raw text (<script>, <textarea>, <plaintext>) reads them as its own: "<!-- x" came back
# "<!-- x</body></html>-->".  One that ends inside a bogus comment ("<?php", "<![CDATA[", "<!", "</")
# kept "</body" in it, up to the ">" that ended the comment: "<?x" came back "<!--?x</body-->".
WRAPPER_ENDS = ("</body></html>", "</body")
# An end tag the text ends inside ("</a", "</a "): the tree keeps no end tag, so it is read in the text.
UNFINISHED_END_TAG = re.compile(r"</[a-z][^>]*\Z", re.IGNORECASE)
WRAPPER_START = "<html><body>"
# The text's own end of the wrapper's elements: a footer's "</body></html>", or one pasted mid-text.
STRAY_END = re.compile(r"</(?:body|html)(?=[\s/>]|\Z)", re.IGNORECASE)


def fragment_end(text: str, last: etree._Element) -> str | None:
    """What to end a fragment's ``text`` with, in place of the wrapper's end, where its ``last`` node
    (in document order) took that end in; None where it took none.  Nothing after a comment or raw text,
    which then runs to the end of the text, as in a browser ("<!-- x" is ``<!-- x-->``).  ">" after a
    tag the text left unfinished, whose name or attributes took the wrapper in ("<b" was read as an
    element <b<>, "<a " as <a> with the attributes "<" and "body", "<img alt=a" with the alt text
    "a</body"), so the tag is kept as the text had it, closed (a browser's parser drops such a tag,
    and lxml's drops one whose attribute value's quote is still open: ``<b class="x``).  So is an end
    tag (``</a``), whose name took the wrapper's "<" in: libxml2 warned of an end tag "a<" nobody wrote."""
    if (last.text or "").endswith(WRAPPER_ENDS):
        return ""
    if UNFINISHED_END_TAG.search(text):  # not in a comment or raw text, which took the wrapper in above
        return ">"
    if not isinstance(last.tag, str) or text.endswith(">"):  # a tag the text ends with is finished
        return None
    names, values = [last.tag, *last.keys()], last.values()
    if any(name.endswith("<") for name in names) or any(value.endswith(WRAPPER_ENDS) for value in values):
        return ">"
    return None


def fragment_holder(root: etree._Element) -> html.HtmlElement:
    """The fragment parsed in the wrapper (``root``: its <html>) in a <div>, as lxml's fragment_fromstring
    holds it: the <body>'s content, then what followed a </body> or </html> the text had, which
    libxml2 put after the <body> or in an <html> of its own beside ``root``, where browsers show it
    (and so it is translated).  The stray end tag is dropped, as browsers ignore it; the warning of
    repaired markup names its line (``WrapperEnd``).  The holder is a bare <div>, the root of a tree
    of its own, that the <body>'s nodes move into (keeping the lines libxml2 read them at, which a
    copy loses: a review lists a sentence at its line); the texts are added as append_text writes
    them, where lxml sets no text that holds a control character (``Hello.&#1; World.``, which HTML
    keeps).  Unlike lxml's, it keeps the spacing before the first tag (``&nbsp;<b>Note</b>``; a line
    of ``&nbsp;`` alone), as the spacing before a first word is kept."""
    holder, body = html.Element("div"), root.find("body")
    append_text(holder, body.text)
    holder.extend(body)
    append_text(holder, body.tail)
    for node in [*body.itersiblings(), *root.itersiblings()]:
        if isinstance(node.tag, str) and node.tag in ("html", "head", "body"):
            append_content(node, holder)  # libxml2's <html> after </html>, and what it put in one
        else:
            holder.append(node)  # with its tail
    return holder


def append_content(element: etree._Element, holder: etree._Element) -> None:
    """``element``'s text and children (a <head> or <body> in it: theirs) moved to the end of ``holder``."""
    append_text(holder, element.text)
    for child in list(element):
        if isinstance(child.tag, str) and child.tag in ("head", "body"):
            append_content(child, holder)
            append_text(holder, child.tail)
        else:
            holder.append(child)


@dataclass(frozen=True)
class WrapperEnd:
    """Where a fragment's text ends in the wrapper (the parser's line and column of its last character),
    and the text's line that a problem the parser found after it, in the wrapper's end, is named at:
    the line of the text's own </body> or </html>, which closed what the wrapper's end then closed
    again ("Unexpected end tag : body"), else the last line with text, which left open what the
    wrapper's end closed.  A file that ends with a line break has the wrapper's end on a line after its last."""

    line: int
    column: int
    named: int

    @classmethod
    def of(cls, text: str) -> WrapperEnd:
        lines = text.split("\n")
        column = len(lines[-1]) + (len(WRAPPER_START) if len(lines) == 1 else 0)
        unseen = re.sub(COMMENT, lambda comment: re.sub(r"[^\n]", " ", comment.group()), text)  # "<!-- </body> -->"
        stray = STRAY_END.search(unseen)
        end = stray.start() if stray else len(text.rstrip())
        return cls(len(lines), column, text.count("\n", 0, end) + 1)

    def line_of(self, line: int, column: int) -> int:
        """The text's line for a problem the parser found at ``line`` and ``column`` (from 1)."""
        return self.named if (line, column) > (self.line, self.column) else line
