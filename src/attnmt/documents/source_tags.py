"""An HTML page's start and end tags written back as the page wrote them, where what they say is unchanged.

libxml2 keeps what a tag means, not how it was written, so lxml's writer changed tags nothing had
changed: ``<P CLASS=intro>`` came back ``<p class="intro">``, ``title='Go'`` in double quotes, ``<br/>``
as ``<br>``, ``</A >`` as ``</a>``.  A CAT tool that sent a tagged line (the CLI's ``--format html``,
LibreTranslate's ``format=html``) compares its tags byte for byte, and took each of those for a tag
the translation had broken.

The page is read once more, tag by tag, with the standard library's HTML tokenizer (which reads
what lxml reads as raw text, a script's or a comment's, as no tags), and so is the written page.  A
written start tag whose name and attributes (their values as read: ``&amp;`` is ``&``) are those of
start tags of the page is written as the page wrote them: in the one way it wrote them all, or, where
it wrote them in several ways (``<b>`` and ``<B>``), each in the way of the one in its place, counted
in order, where the written page has as many.  An end tag is written in the one way the page wrote
that element's (so is one the parser added: ``</p>`` for a ``<P>`` left open, where the page wrote
``</P>`` elsewhere).  A start tag whose values the translation changed (a translated ``title``) is
written as the page wrote the one in its place among those of its name and attribute names, with the new
values in that tag's quotes (with_values); one whose attributes changed (a ``lang`` said, a name the
parser dropped, written twice) is written as lxml writes it, and so is a start tag a page closed
itself (``<div id="map"/>``, which a browser takes for a start tag alone) where lxml writes an end tag
after it; in an ``<svg>`` or ``<math>`` (HTML's foreign content, where ``/>`` closes an element: ``<path d="…"/>``)
and in a fragment, one around nothing stands for both (a CAT tool's ``<x-ph id="1"/>``, one tag), an
end tag a fragment left out where HTML lets it (every ``</li>`` of ``<li>A<li>B``) stays out, and
a void element's (``<br/>``) and one lxml writes short too (SVG's ``<path/>`` in XHTML) stand as written.
An element no HTML knows that the text opens but never closes (``Press <Enter> to start.``: ``unclosed``) is
a point, as ``<br>`` is (attnmt.documents.pages.open_voids), and gets no end tag: libxml2 nested the rest of
its parent in it, and ``<Enter>darauf zu beginnen.</Enter>`` came back, an end tag the client never sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import accumulate

from lxml.html import defs

from attnmt.documents.page_writer import FOREIGN, HTML_VOIDS, spelled_names

Signature = tuple[str, tuple[tuple[str, str | None], ...]]  # a start tag's name and attributes, as read
Shape = tuple[str, tuple[str, ...]]  # a start tag's name and its attributes' names, in order
# An attribute of a start tag as written: its name (group 1), its value with its quotes (group 2).
ATTRIBUTE_VALUE = re.compile(r"""\s([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
# The elements whose end tag HTML lets a page leave out (the next <li>, the parent's end, implies it).
OPTIONAL_ENDS = frozenset("li dt dd p rt rp optgroup option colgroup caption thead tbody tfoot tr td th".split())
END_NAME = re.compile(r"</([A-Za-z][A-Za-z0-9]*)(?![\w-])")  # an end tag's name, its tag finished or not
UNQUOTED = re.compile(r"""[^\s"'=<>`&]+""")  # a value that may stand without quotes
# The elements HTML knows: lxml's list, of HTML 4 and 5, with those of HTML 5 it lacks and the obsolete ones a
# browser still reads (``<plaintext>`` runs to the text's end, closed by none).
KNOWN = defs.tags | {"bdi", "data", "dialog", "main", "picture", "search", "slot", "template", "plaintext", "xmp",
                     "listing", "nobr", "noembed", "noframes", "rb", "rtc", "image", "spacer", "bgsound", "menuitem",
                     "nextid", "multicol"}


@dataclass
class Tag:
    """One tag of a text: where it stands, and what it says (an end tag's: its name alone)."""

    start: int
    end: int
    signature: Signature
    closing: bool


class TagReader(HTMLParser):
    """The tags of one text, in order (``tags``)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.lines = [0, *accumulate(len(line) for line in text.splitlines(keepends=True))]
        self.tags: list[Tag] = []
        self.feed(text)
        self.close()

    def here(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self.here()
        self.tags.append(Tag(start, start + len(self.get_starttag_text() or ""), (tag, tuple(attrs)), False))

    handle_startendtag = handle_starttag  # <br/> is one start tag, not a start and an end

    def handle_endtag(self, tag: str) -> None:
        start = self.here()
        end = self.text.find(">", start)  # the tokenizer's end tag runs to the first ">"
        self.tags.append(Tag(start, end + 1 if end >= 0 else len(self.text), (tag, ()), True))


@dataclass
class SourceTags:
    """How a page wrote its tags: each start tag's ways by what it says, in order; each end tag's by its
    name; and its names as it spells them (page_writer.spelled_names), for the tags lxml writes."""

    starts: dict[Signature, list[str]] = field(default_factory=dict)
    ends: dict[str, list[str]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    shapes: dict[Shape, list[tuple[Signature, str]]] = field(default_factory=dict)  # each start tag, in order
    # a fragment's: a start tag it closed itself around nothing stays so (a CAT tool's <x-ph id="1"/>)
    closed: bool = False
    # the end tags not to write: a fragment's elements whose end tag it may leave out and never wrote (``<li>A<li>B``),
    # not even cut short, and the ``unclosed`` elements of a page or a fragment
    left_out: frozenset[str] = frozenset()
    unclosed: frozenset[str] = frozenset()  # the names of the elements no HTML knows that it opens, never closing


def shape(signature: Signature) -> Shape:
    return signature[0], tuple(name for name, _ in signature[1])


def source_tags(text: str, fragment: bool = False) -> SourceTags:
    """How ``text`` (an HTML page, or a ``fragment``) writes its tags."""
    written_ends = {found.lower() for found in END_NAME.findall(text)}
    found = TagReader(text).tags
    closed = written_ends | {tag.signature[0] for tag in found if tag.closing}  # a custom element's too: </my-card>
    unclosed = frozenset(tag.signature[0] for tag in found if not tag.closing and tag.signature[0] not in KNOWN
                         and tag.signature[0] not in closed and not text.endswith("/>", 0, tag.end))
    tags = SourceTags(names=spelled_names(text), closed=fragment, unclosed=unclosed,
                      left_out=(OPTIONAL_ENDS - written_ends if fragment else frozenset()) | unclosed)
    for tag in found:
        written = text[tag.start:tag.end]
        if tag.closing:
            tags.ends.setdefault(tag.signature[0], []).append(written)
        else:
            tags.starts.setdefault(tag.signature, []).append(written)
            tags.shapes.setdefault(shape(tag.signature), []).append((tag.signature, written))
    return tags


def written_as_tagged(written: str, tags: SourceTags) -> str:
    """``written`` (the page as lxml wrote it) with each tag that says what one of ``tags`` said written so."""
    if not tags.starts and not tags.ends:
        return written
    found = TagReader(written).tags
    ways = dict(source_ways(found, tags))
    parts, position = [], 0
    foreign = 0  # how many <svg> and <math> the tag stands in (or opens): HTML's foreign content, where "/>" closes
    for k, tag in enumerate(found):
        foreign += (tag.signature[0] in FOREIGN) * (-1 if tag.closing else 1)
        if tag.start < position:  # the end tag of an element its start tag closed
            continue
        if tag.closing and tag.signature[0] in tags.left_out:
            parts.append(written[position:tag.start])  # the parser's, which the line never had
            position = tag.end
            continue
        own = written[tag.start:tag.end]
        way = ways.get(k, own)
        after = found[k + 1] if k + 1 < len(found) else None
        closes = False  # whether the way closes an element lxml wrote with an end tag, which it then stands for
        if way.endswith("/>") and not own.endswith("/>") and tag.signature[0] not in HTML_VOIDS:
            closes = (tags.closed or foreign > 0) and after is not None and ends_right_after(after, tag)
            way = way if closes else own  # in a page, <div/> opens a <div> to a browser
        parts += [written[position:tag.start], way]
        position = after.end if closes and after is not None else tag.end
    parts.append(written[position:])
    return "".join(parts)


def ends_right_after(after: Tag, tag: Tag) -> bool:
    """Whether ``after`` is the end tag of ``tag``'s element, right after it: the element is empty."""
    return after.closing and after.start == tag.end and after.signature[0] == tag.signature[0]


def source_ways(found: list[Tag], tags: SourceTags) -> Iterator[tuple[int, str]]:
    """(index in ``found``, the way the page wrote it) for each tag of ``found`` whose way is known."""
    counts: dict[Signature, int] = {}
    shapes: dict[Shape, int] = {}
    for tag in found:
        if not tag.closing:
            counts[tag.signature] = counts.get(tag.signature, 0) + 1
            shapes[shape(tag.signature)] = shapes.get(shape(tag.signature), 0) + 1
    ahead = {signature: iter(ways if len(set(ways)) > 1 and counts.get(signature) == len(ways) else [])
             for signature, ways in tags.starts.items()}
    # the page's start tags of each shape, taken in turn by the written ones, where there are as many
    shaped = {key: iter(tagged) for key, tagged in tags.shapes.items() if shapes.get(key) == len(tagged)}
    one_start = {signature: ways[0] for signature, ways in tags.starts.items() if len(set(ways)) == 1}
    one_end = {name: ways[0] for name, ways in tags.ends.items() if len(set(ways)) == 1}
    for k, tag in enumerate(found):
        way = one_end.get(tag.signature[0]) if tag.closing else one_start.get(tag.signature)
        if way is None and tag.signature in ahead and not tag.closing:
            way = next(ahead[tag.signature], None)
        paired = None if tag.closing else next(shaped.get(shape(tag.signature), iter(())), None)
        if way is None and paired is not None:
            way = with_values(paired, tag.signature)
        if way is not None:
            yield k, way


def with_values(source: tuple[Signature, str], signature: Signature) -> str | None:
    """The way the page wrote ``source`` (a start tag of ``signature``'s shape), with ``signature``'s values
    where the two differ (a translated ``title``), each in its quotes; None where that way says otherwise
    than ``signature`` (a name written twice, a value the tokenizer read another way)."""
    (name, attributes), way = source
    written = {found.group(1).lower(): found for found in ATTRIBUTE_VALUE.finditer(way, len(name) + 1)}
    changed = sorted((written[key].span(2), value) for (key, was), (_, value) in zip(attributes, signature[1],
                                                                                  strict=True)
                     if was != value and key in written and value is not None and written[key].group(2))
    parts, position = [], 0
    for (start, end), value in changed:
        parts += [way[position:start], quoted(value, way[start])]
        position = end
    new = "".join(parts) + way[position:]
    return new if [tag.signature for tag in TagReader(new).tags] == [signature] else None


def quoted(value: str, quote: str) -> str:
    """An attribute's ``value`` written in ``quote`` (a value's first character: without quotes, where it can)."""
    value = value.replace("&", "&amp;")
    if quote == "'":
        return "'" + value.replace("'", "&#39;") + "'"
    return value if quote != '"' and UNQUOTED.fullmatch(value) else '"' + value.replace('"', "&quot;") + '"'
