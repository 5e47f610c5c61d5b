"""Where a page's SVG content is: an inline ``<svg>`` and what it holds (an SVG page's root too), but what a
``<foreignObject>`` holds, which is HTML again.  SVG reads its own attributes there (``direction``, not HTML's
``dir``: attnmt.documents.language) and its own elements (a ``<tspan>``, not a ``<span>``:
attnmt.documents.kept_passages).  It imports nothing of the project: language, below the page parser, asks it."""

from __future__ import annotations

from lxml import etree


def inside_svg(node: etree._Element) -> bool:
    """Whether ``node`` is SVG content: its nearest ``<svg>`` or ``<foreignObject>`` (itself too) is an ``<svg>``;
    what a ``<foreignObject>`` holds is HTML again."""
    nearest = next((name for name in map(element_name, (node, *node.iterancestors()))
                    if name in ("svg", "foreignobject")), None)
    return nearest == "svg"


def element_name(node: etree._Element) -> str:
    """An element's name without its namespace, lower-cased (``foreignobject``); "" for a comment."""
    return node.tag.rpartition("}")[2].lower() if isinstance(node.tag, str) else ""
