"""The words of an inline SVG picture in an HTML page: what a reader sees drawn or hears read out.

An ``<svg>`` is kept whole where it stands (elements.UNTRANSLATED, html_layout.ATOMS): its paths, shapes,
styles and coordinates are data.  But a chart's labels (``<text>``, with the ``<tspan>`` lines and the
``<textPath>`` inside it) and its accessible name and description (``<title>``, ``<desc>``, which a
screen reader reads and a browser shows as a tooltip) are prose: left alone, a translated page kept its
chart's legend and its icons' names in the source language.  Each of these is read as a block of its own
(attnmt.documents.markup_runs.runs), a sentence drawn over ``<tspan>`` lines whole
(attnmt.documents.svg_lines); everything else in the picture is written back as it was.  What a
``<foreignObject>`` holds is another document's (HTML's) and is left as it is, as is what says
``translate="no"``.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from attnmt.documents.pages import is_comment, local_name

# The elements of SVG whose text a person reads: drawn (``<text>``) or read out (``<title>``, ``<desc>``).
READ = frozenset(("text", "title", "desc"))
KEPT = frozenset(("foreignobject", "script", "style"))  # another language's content: never SVG's words
DRAWN = frozenset(("text", "tspan", "textpath"))  # SVG's elements of drawn text, each of which may hold a <tspan>


def svg_texts(svg: etree._Element) -> Iterator[etree._Element]:
    """The elements of ``svg`` whose words are translated (READ), in document order; none inside
    another of them (a ``<text>``'s ``<tspan>`` is read with it) nor inside KEPT."""
    pending = [child for child in reversed(svg) if not is_comment(child)]
    while pending:
        node = pending.pop()
        name = local_name(node)
        if name in READ:
            yield node
        elif name not in KEPT:
            pending.extend(child for child in reversed(node) if not is_comment(child))


def is_svg(node: etree._Element) -> bool:
    """Whether ``node`` is an inline SVG picture (HTML's ``<svg>``, XHTML's in SVG's namespace)."""
    return not is_comment(node) and local_name(node) == "svg"

