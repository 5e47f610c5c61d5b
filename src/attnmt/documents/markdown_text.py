"""Where a Markdown run's text stands in its source lines, and its translation written back as Markdown.

attnmt.documents.markdown reads the blocks; here: a run's Region (its text's place on each of its
lines, and what each hard break between them was: ``  ``, or ``\\``, the line ending and the next
line's ``> `` or indentation), the Mark each element of its fragment stands for, and the
translated fragment written with those marks' own delimiters, its text escaped where it would
otherwise be read as Markdown syntax.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import unescape

from lxml import etree

from attnmt.documents.markdown_github import EMOJI, MATH
from attnmt.documents.markdown_link_titles import retitled

PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # what a backslash escapes
ENTITY = re.compile(r"#?\w+;")
# What would start a block at the start of a paragraph's line: a heading, a blockquote, a list item, a
# thematic break, a setext underline, a code fence.
LINE_START = re.compile(r"(#{1,6}(?=[ \t]|$)|>|[-+*](?=[ \t]|$)|\d{1,9}(?=[.)](?:[ \t]|$))|[-*_](?=(?:[ \t]*[-*_]){2,}"
                        r"[ \t]*$)|=+(?=[ \t]*$)|~~~)")
SPACE = " \t\n\u00a0"
REFERENCE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")  # &nbsp; &#160; &#xA0;
# What may stand before a table row's leading pipe: blockquotes' ">", and a list item's marker where the table
# starts the item ("- | Name | Value |").
ROW_PREFIX = re.compile(r"[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+[ \t>]*)*")


@dataclass
class Mark:
    """What an element of a run's fragment stands for: the Markdown written before and after its
    text (``*`` and ``*``; ``[`` and ``](url "title")``); an atom's whole source (a code span, an
    autolink, inline HTML, a hard break's), an image's ``![`` and ``](src)`` around its alt text;
    an atom's ``follows``, the number of the atom it directly followed in the source, and whether it is
    ``kept`` around nothing where the translation leaves it empty (a link, a paired HTML element's tags)."""

    open: str
    close: str
    atom: bool = False
    image: bool = False
    hard_break: bool = False
    follows: int | None = None
    kept: bool = False
    title: str | None = None  # a link's or image's title as read, where its tail writes one (markdown_link_titles)


@dataclass
class Region:
    """A run's place: (line index, start, end) of its text on each of its lines, the Markdown of
    the line break after each line (``breaks[j]``: its ``  `` or ``\\``, the ending, the next line's
    prefix), written where a hard break stands, and what stands between the run's text on line j and
    on line j + 1 as markdown-it reads it (``newlines[j]``: the ending and the next line's ``> `` or
    indentation), written where an atom's source runs over the line break."""

    spans: list[tuple[int, int, int]]
    breaks: list[str] = field(default_factory=list)
    newlines: list[str] = field(default_factory=list)

    def hard_break(self, newline: int) -> str:
        return self.breaks[newline] if newline < len(self.breaks) else "  \n"

    def rejoined(self, source: str, newline: int) -> str:
        """``source``, an atom's (a code span's, inline HTML's) as markdown-it reads it, without its
        lines' prefixes and with ``\\n`` endings, as it stands in the file: each line break with its
        own ending and the next line's prefix, so that the atom's later lines stay in their list item
        or blockquote.  ``newline``: how many of the run's line breaks come before the atom."""
        first, *rest = source.split("\n")
        return first + "".join((self.newlines[newline + k] if newline + k < len(self.newlines) else "\n") + line
                               for k, line in enumerate(rest))


def all_replaced(lines: Sequence[str], changes: Sequence[tuple[Region, str]]) -> str:
    """``lines`` joined, with each (region, text) of ``changes``: the region's text, from its first
    line's start to its last line's end, replaced by ``text``.  The regions are in the order they
    stand and none overlaps another, as markdown-it reads the runs (a row's cells share its line).
    One pass over the lines: replaced a region at a time, last first, every line was copied once
    for each region, in time growing as the square of a file's paragraphs."""
    pieces: list[str] = []
    line, column = 0, 0  # where the source not yet written starts
    for region, text in changes:
        (first, start, _), (last, _, end) = region.spans[0], region.spans[-1]
        if first > line:
            pieces += [lines[line][column:], *lines[line + 1:first]]
            column = 0
        pieces += [lines[first][column:start], text]
        line, column = last, end
    if line < len(lines):
        pieces += [lines[line][column:], *lines[line + 1:]]
    return "".join(pieces)


def one_line(holder: etree._Element) -> str:
    """A translated fragment's text as one line of a source file: its words joined by single spaces."""
    return " ".join("".join(holder.itertext()).split())


def body(line: str) -> str:
    return line.rstrip("\r\n")


def line_spans(lines: Sequence[str], first: int, content: str) -> Region | None:
    """The Region of a paragraph's (or setext heading's) ``content``, markdown-it's: each line's text
    is at the end of its source line, after its prefix (``> ``, a list item's indentation)."""
    spans = []
    for j, part in enumerate(content.split("\n")):
        line, text = body(lines[first + j]).rstrip(), part.strip()
        if not text or not line.endswith(text):
            return None
        spans.append((first + j, len(line) - len(text), len(line)))
    breaks = []
    for (index, _, _), (_, start, _), part in zip(spans, spans[1:], content.split("\n"), strict=False):
        marker = "\\" if part.rstrip().endswith("\\") else part[len(part.rstrip(" ")):] or "  "
        breaks.append(marker + lines[index][len(body(lines[index])):] + lines[index + 1][:start])
    return Region(spans, breaks, [lines[index][len(body(lines[index])):] + prefix(lines[index + 1], part)
                                  for (index, _, _), part in zip(spans, content.split("\n")[1:], strict=False)])


def prefix(line: str, part: str) -> str:
    """What comes before ``part`` (a line of a run's content as markdown-it reads it, any indentation
    past the block's kept) on its source ``line``: ``> ``, a list item's indentation; "" where the
    line does not end with it (a tab markdown-it read as spaces)."""
    text, part = body(line).rstrip(), part.rstrip()
    return text[:len(text) - len(part)] if text.endswith(part) else ""


def pipes(line: str) -> list[int]:
    """Where the line's unescaped ``|`` are (a backslash escapes the character after it)."""
    found, escaped = [], False
    for i, char in enumerate(line):
        if char == "|" and not escaped:
            found.append(i)
        escaped = char == "\\" and not escaped
    return found


def cell_spans(source: str, index: int, column: int, content: str) -> Region | None:
    """The Region of a table cell's ``content`` (its ``\\|`` read as ``|``, as markdown-it reads it),
    the ``column``-th cell of the row ``source`` (line ``index``)."""
    line = body(source)
    edges = [-1, *pipes(line), len(line)]
    cells = [(start + 1, end) for start, end in zip(edges, edges[1:], strict=False)]
    if cells and ROW_PREFIX.fullmatch(line[:cells[0][1]]):  # a leading pipe, after the row's prefix
        cells = cells[1:]
    if column >= len(cells):
        return None
    start, end = cells[column]
    text = line[start:end]
    if column == 0 and not line[:cells[0][1]].startswith("|"):
        start += len(text) - len(text.lstrip(" >\t"))
    start += len(line[start:end]) - len(line[start:end].lstrip())
    end = start + len(line[start:end].strip())
    return Region([(index, start, end)]) if line[start:end].replace("\\|", "|") == content else None


def source_references(source: str) -> dict[str, str]:
    """Each character other than ASCII that ``source`` writes as a reference (``&nbsp;``, ``&copy;``,
    ``&#8212;``), and that reference: its translation writes them so again (``written``). ASCII's
    (``&amp;``, ``&lt;``) are left to escaping."""
    found: dict[str, str] = {}
    for reference in REFERENCE.findall(source):
        character = unescape(reference)
        if len(character) == 1 and not character.isascii():
            found.setdefault(character, reference)
    return found


def escaped(text: str, cell: bool) -> str:
    """``text`` with what would be read as Markdown syntax escaped: a backslash before punctuation
    (or at the end, before a mark's delimiter), a code span's backtick, a link's brackets, the ``<``
    of a tag or autolink, the ``&`` of an entity, an ``*`` or ``_`` that could open or close emphasis
    (not one between spaces, nor ``_`` inside a word), a ``~`` before another (``~~`` strikes through),
    the ``:`` opening an emoji code, the ``$`` opening math, and a table cell's ``|``."""
    out = []
    for i, char in enumerate(text):
        before, after = text[i - 1] if i else "", text[i + 1] if i + 1 < len(text) else ""
        spaced = before != "" and after != "" and before in SPACE and after in SPACE
        syntax = ((char == "\\" and (after == "" or after in PUNCTUATION)) or char in "`[]"
                  or (char == "<" and after != "" and (after.isalpha() or after in "/!?"))
                  or (char == "&" and ENTITY.match(text, i + 1) is not None)
                  or (char in "*_" and not spaced and not (char == "_" and before.isalnum() and after.isalnum()))
                  or (char == "~" and after == "~")
                  or (char == ":" and not before.isalnum() and EMOJI.match(text, i) is not None)
                  or (char == "$" and MATH.match(text, i) is not None)
                  or (cell and char == "|"))
        out.append("\\" + char if syntax else char)
    return "".join(out)


def escaped_line_start(text: str) -> str:
    """``text`` with what would start a block at its start escaped: ``# Title``, ``> ``, ``- item``,
    ``1. item`` (as ``1\\. item``), ``---``, ``===``, ``~~~``."""
    found = LINE_START.match(text)
    if found is None:
        return text
    at = found.end() if found.group()[0].isdigit() else 0
    return text[:at] + "\\" + text[at:]


def written(node: etree._Element, marks: Sequence[Mark], cell: bool = False,
            references: Mapping[str, str] | None = None) -> str:
    """The Markdown of ``node``'s content: its text escaped, each element numbered ``data-md`` as its
    Mark says (any other, one the translation added, as its content alone); a hard break is "\\0",
    for the caller to write with the break it was (Region.hard_break). A character of ``references``
    (source_references': the run's source wrote it as a reference, ``&nbsp;``) is written as that
    reference, not as the character, invisible where it is a space's.

    What the alignment leaves empty: an emphasis is written as its content alone (its delimiters
    alone would be read as text), a link around nothing, ``[](/c)``: CommonMark's ``<a href="/c"></a>``,
    the page's empty link, where refill_emptied left it so, as it leaves a page's (its words in a sibling
    link's word, its number written elsewhere); every other it gave its source text.  Two
    atoms it puts next to each other that were apart in the source get a space between them, so
    that they stay two (two code spans written together are read as one)."""
    out: list[str] = []
    ending: list[int | None] = [None]  # the atom the Markdown so far ends with, if it ends with one

    def text(content: str) -> None:
        if content:
            written = escaped(content, cell)
            out.append("".join(references.get(c, c) for c in written) if references else written)
            ending[0] = None

    def write(node: etree._Element, mark: Mark | None = None) -> None:
        """``node``'s content, and with ``mark`` (node's own) its delimiters around it: one call a level, so that
        marks nested as deep as pages.MAX_DEPTH stay within Python's frames."""
        start, before = len(out), ending[0]
        if mark is not None:
            out.append(not_image(out, mark))
            ending[0] = None
        text(node.text or "")
        for child in node:
            number = int(child.get("data-md") or -1) if isinstance(child.tag, str) else -1
            inner = marks[number] if number >= 0 else None
            if inner is None:
                write(child) if isinstance(child.tag, str) else None
            elif inner.hard_break:
                out.append("\0")
                ending[0] = None
            elif inner.atom:
                if inner.open[:1] in ("\r", "\n") and out:  # a command's own line (markdown_commands): the line
                    out[-1] = out[-1].rstrip(" ")  # above ends with no space the translation put before it
                elif ending[0] is not None and inner.follows != ending[0]:
                    out.append(" ")
                out.append(inner.open)
                ending[0] = number
            elif inner.image:
                close = retitled(inner.close, inner.title, child.get("title"), cell)
                out.append(not_image(out, inner) + escaped(child.get("alt", ""), cell) + close)
                ending[0] = None
            else:
                write(child, inner)
            text(child.tail or "")
        if mark is not None:
            closed(mark, retitled(mark.close, mark.title, node.get("title"), cell), start, before)

    def closed(mark: Mark, close: str, start: int, before: int | None) -> None:
        """``mark``'s ``close`` after its content written from ``start``; what stands for it where that is empty."""
        if "".join(out[start + 1:]).strip(SPACE):
            out.append(close)
            ending[0] = None  # ends with its delimiter: a code span after it is apart (**`git`**`-style`)
        elif mark.kept:  # a link, its destination kept; or an HTML element's tags
            out[start + 1:] = [close]
            ending[0] = None
        else:  # an emphasis around nothing: its spaces, if any, alone
            del out[start]
            ending[0] = ending[0] if len(out) > start else before

    write(node)
    return "".join(out)


def not_image(out: list[str], mark: Mark) -> str:
    """``mark.open``, and where it is a link's ``[`` after a ``!``, that ``!`` escaped (``![`` opens an image)."""
    if mark.open == "[" and out and out[-1].endswith("!") and not out[-1].endswith("\\!"):
        out[-1] = out[-1][:-1] + "\\!"
    return mark.open
