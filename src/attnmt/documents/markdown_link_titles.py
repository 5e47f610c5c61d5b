"""A Markdown link's or image's title, ``[guide](url "Install guide")``: a tooltip, text a reader is shown,
translated as an HTML ``title`` attribute is.

    link_title(token)               -> a link's or image's title, where its own tail writes one
    titled(token)                   -> that title as the run's fragment's ``title`` attribute
    title_span(tail)                -> where the title's text stands in a link's tail, if it has one
    retitled(tail, source, translated, cell) -> the tail with its title's text written anew

The run's fragment gives the ``<a>`` or ``<img>`` a ``title`` attribute (attnmt.documents.markdown.fragment),
which TreeJob translates; written back, only the text between the title's delimiters changes, the
delimiters, the destination and an attribute list after them kept byte for byte.  A title the translation
left as it was (as the source read it: escapes and references decoded) keeps its source bytes.  A reference
definition's title is attnmt.documents.markdown_definitions'.
"""

from __future__ import annotations

import re
from html import escape

from markdown_it.token import Token

# The delimiter a title's text ends with, and the one it opens with.
OPENERS = {'"': '"', "'": "'", ")": "("}
ATTRIBUTES_AT_END = re.compile(r"\{[^{}\n]*\}[ \t]*$")  # a link's attribute list after its ")"


def link_title(token: Token) -> str | None:
    """A link's or image's title written in its own tail, its spaces and line breaks one space (one text for
    the model); None for none, or one its reference definition holds, which is kept."""
    title = token.attrGet("title") if token.type in ("link_open", "image") else None
    return " ".join(str(title).split()) if title and title_span(token.meta["tail"]) else None


def titled(token: Token) -> str:
    """``link_title`` as the fragment's ``title`` attribute, translated as HTML's (a tooltip is shown text)."""
    title = link_title(token)
    return f' title="{escape(title)}"' if title else ""


def title_span(tail: str) -> tuple[int, int] | None:
    """[start, end) of the title's text in a link's ``tail`` (``](url "Install guide")``, its attribute
    list included), None where it has none (``](url)``, a reference's ``][label]``)."""
    attributes = ATTRIBUTES_AT_END.search(tail)
    close = tail.rstrip(" \t").rfind(")", 0, attributes.start() if attributes else len(tail))
    end = len(tail[:close].rstrip(" \t\r\n")) - 1  # the title's closing delimiter
    if close < 0 or end < 1 or tail[end] not in OPENERS:
        return None
    start = end - 1
    while start >= 0 and not (tail[start] == OPENERS[tail[end]] and escaped_by(tail, start) % 2 == 0):
        start -= 1
    if start < 1 or not tail[start - 1].isspace():  # no title: "](a(b))" ends with a destination's parentheses
        return None
    return start + 1, end


def escaped_by(text: str, at: int) -> int:
    """How many backslashes stand right before ``text[at]`` (an odd number escapes it)."""
    count = 0
    while at - count > 0 and text[at - count - 1] == "\\":
        count += 1
    return count


def retitled(tail: str, source: str | None, translated: str | None, cell: bool = False) -> str:
    """``tail`` with its title's text the ``translated`` one (backslashes and its delimiters escaped, and in a
    table ``cell`` its pipes), where that differs from the title's ``source`` text as read; else ``tail`` as
    written."""
    span = title_span(tail)
    if span is None or source is None or translated is None or translated == source:
        return tail
    return tail[:span[0]] + escaped_title(translated, tail[span[1]], cell) + tail[span[1]:]


def escaped_title(text: str, delimiter: str, cell: bool = False) -> str:
    """A title's ``text`` on one line, as written between its ``delimiter`` (the closing one) and its opener."""
    delimiters = {delimiter, OPENERS[delimiter], *("|" * cell)}
    return "".join("\\" + c if c == "\\" or c in delimiters else c for c in " ".join(text.split()))

