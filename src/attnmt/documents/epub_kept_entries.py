"""The entries of a translated book's tables of contents (toc.ncx, the EPUB 3 navigation page) that kept their
source text: a number or a name with nothing to translate (``1984``), one that says ``translate="no"``, or one
whose sentences all kept their source (--below-quality source).  Once something else of the table was translated
its root says the target language, and such an entry, stating none of its own, read as in the target's: a screen
reader spoke "Don Quixote" as German.  It says the language it was read in before (``KeptEntries.before``: the
nearest statement above it, else the book's ``dc:language``, else the source language given), in the attributes
the statement above it has, with a ``dir`` where the direction above is not its language's
(language.state_language).

    nav_labels    the navigation page's entries (each ``<li>``'s ``<a>`` or ``<span>``), its list of pages' aside
    outside       whether a label of the page kept its source: words, and no translated block at it, above or inside
    KeptEntries   the entries and the languages they were read in, then each kept one saying its own
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lxml import etree

from attnmt.documents.language import LANGUAGE_ATTRIBUTES, inherited_language, nearest_statement, state_language

EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"
PAGE_LIST = "page-list"  # its numbers (12, xii) are kept by design, as toc.ncx's pageList is not read


def nav_labels(root: etree._Element) -> list[etree._Element]:
    """The labels of the navigation page's entries: each ``<li>``'s ``<a>`` or ``<span>`` in a ``<nav>``, but the
    list of pages' (``epub:type="page-list"``), whose numbers are no words."""
    labels = []
    for nav in root.iter("{*}nav"):
        if PAGE_LIST in (nav.get(EPUB_TYPE) or "").split():
            continue
        labels += [label for item in nav.iter("{*}li") for label in item
                   if isinstance(label.tag, str) and etree.QName(label).localname in ("a", "span")]
    return labels


def outside(translated: set[etree._Element], label: etree._Element) -> bool:
    """Whether ``label`` holds words and kept them: none of the ``translated`` blocks (TreeJob.blocks) is it, above
    it or inside it (a run that kept its source, --below-quality source, is none)."""
    around = (*label.iterancestors(), label, *label.iterdescendants())
    return bool("".join(label.itertext()).strip()) and not any(node in translated for node in around)


class KeptEntries:
    """A table's entries (``labels``: the elements a reader shows one by one), each with the language it is read
    in before the table is translated (``before``; "" where none is known)."""

    def __init__(self, labels: Iterable[etree._Element], book_lang: str, source_lang: str | None) -> None:
        self.before = [(label, inherited_language(label) or book_lang or source_lang or "") for label in labels]

    def say_own(self, target_lang: str | None, kept: Callable[[etree._Element], bool],
                stating: Callable[[etree._Element], etree._Element | None] | None = None) -> None:
        """Each entry ``kept`` says (whether it kept its source text) that now reads as in ``target_lang`` (the
        nearest statement, its own or above it, says it: the root's, or a block's a translated entry climbed to)
        states the language it was read in before (on ``stating(label)`` where given: toc.ncx's ``<navLabel>`` for
        its ``<text>``, as NCX states a label's language there)."""
        if not target_lang:
            return
        for label, before in self.before:
            now = nearest_statement(label)
            if (before and before != target_lang and kept(label) and now is not None
                    and any(now.get(name) == target_lang for name in LANGUAGE_ATTRIBUTES)):
                holder = stating(label) if stating else None
                state_language(label if holder is None else holder, before)
