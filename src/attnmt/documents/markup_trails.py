"""The plain text of a trail as a reader sees it: a breadcrumb's labels beside its links (``<a>Home</a> » <a>Shop</a>
» Shoes``), a page's ``<title>`` and a link preview's title (``Red running shoes | Acme Shop``), each label parted
at the separators between them and translated apart (attnmt.documents.markup_runs reads them so)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from attnmt.documents.flat import FlatBuilder, FlatText
from attnmt.documents.html_layout import INLINE, SEPARATOR, SIDE_BY_SIDE, in_a_trail
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.pipeline import flat_line

if TYPE_CHECKING:
    from attnmt.documents.markup_runs import Run


def in_trail(run: Run) -> bool:
    """Whether a run stands beside a link of a trail (html_layout.in_a_trail: a breadcrumb's ``<a>Home</a>
    » <a>Shop</a> » Shoes``), after it or before it: its text is the trail's plain labels and the separators
    between them, in text or icons (html_layout.is_icon: ``<i class="fa fa-angle-right"></i> Shoes``)."""
    after = run.owner if run.owner is not run.parent else None
    last = run.children[-1] if run.children else after
    before = last.getnext() if last is not None else run.parent[0] if len(run.parent) else None
    return any(node is not None and not is_comment(node) and local_name(node) in SIDE_BY_SIDE | INLINE
               and in_a_trail(node) for node in (after, before))


# The <meta>s whose content is the page's title as a link's preview shows it ("Red running shoes | Acme Shop")
TITLE_METAS = frozenset(("og:title", "twitter:title"))


def is_page_title(run: Run) -> bool:
    """Whether a run is a page's ``<title>``, read as a trail is: its separators part the page's name
    from its site's ("Red running shoes | Acme Shop"), which, read as one sentence, lost "Acme Shop"."""
    head = run.parent.getparent()
    return local_name(run.parent) == "title" and head is not None and local_name(head) == "head"


def attribute_line(node: etree._Element, name: str, protected: re.Pattern[str]) -> FlatText:
    """An attribute's text, a line of its own (pipeline.flat_line); but a ``<meta>``'s title for a link's
    preview (TITLE_METAS), parted at its separators as the page's ``<title>`` is (is_page_title)."""
    said = (node.get("property") or node.get("name") or "").strip().lower()
    if name != "content" or local_name(node) != "meta" or said not in TITLE_METAS:
        return flat_line(node.get(name) or "", protected)
    builder = FlatBuilder(collapse=False, protected=protected)
    add_trail_text(builder, node.get(name) or "")
    return builder.build()


def add_trail_text(builder: FlatBuilder, text: str) -> None:
    """A trail's plain text: each separator (html_layout.SEPARATOR) kept whole where it stands and
    ending the label before it, so that each label is translated apart, as its links are.  Read as one
    sentence, ``» Shoes`` came back ``Schuhe »``, and ``Men » Shoes`` merged the two labels."""
    position = 0
    for match in SEPARATOR.finditer(text):
        symbols = match.group().strip()
        start = match.start() + match.group().index(symbols)
        builder.add_text(text[position:start])
        builder.add_atom(literal=symbols, ends_sentence=True)
        position = start + len(symbols)
    builder.add_text(text[position:])
