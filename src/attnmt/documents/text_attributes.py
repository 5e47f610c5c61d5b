"""Which attributes of a page's elements hold text a reader sees, to translate as sentences of their own
(attnmt.documents.markup): ``value`` on a button only, ``content`` on a ``<meta>`` of text only, ``label``
where HTML shows it, ``abbr`` on a table cell; and those of a tree to translate (translatable_attributes)."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.elements import Vocabulary, says_no, says_yes
from attnmt.documents.letterless import needs_translation
from attnmt.documents.pages import is_comment, local_name

BUTTON_TYPES = frozenset(("submit", "reset", "button"))  # an <input> whose value is its label
# <meta> names whose content a person reads: the page's description, which search results show, and
# the title, description, site name and image text of a link preview (Open Graph, Twitter's cards).
# Not "keywords": a list of terms no reader sees (search engines ignore it), which the model, reading
# it as a sentence, would turn into one.
META_TEXTS = frozenset(("description", "og:title", "og:description", "og:site_name", "og:image:alt",
                        "twitter:title", "twitter:description", "twitter:image:alt"))
# The elements whose ``label`` a reader sees, which the HTML standard lists as translatable.
LABELLED = frozenset(("optgroup", "option", "track"))


def is_meta_text(node: etree._Element) -> bool:
    """Whether ``content`` is text a reader sees: a ``<meta>`` whose ``name`` or ``property`` is one
    of META_TEXTS (``<meta name="description" content="A man walks his dog.">``).  Any other
    ``content`` is data: a viewport's ``width=device-width``, a refresh's ``5; url=…`` (translated,
    the redirect broke), ``og:type``, robots' ``index, follow``, a Content-Type."""
    said = (node.get(name, "").strip().lower() for name in ("name", "property"))
    return local_name(node) == "meta" and any(name in META_TEXTS for name in said)


def holds_text(node: etree._Element, name: str) -> bool:
    """Whether attribute ``name`` of ``node`` may hold text to translate: ``value`` only on a button
    (is_button_label), ``content`` only on a <meta> of text (is_meta_text), ``label`` only where HTML
    shows it (LABELLED: a dropdown's group heading, a player's subtitle menu; DocBook's is a
    section's number), ``abbr`` only on a table cell (a header's short form), any other where it is."""
    if name == "value":
        return is_button_label(node)
    if name == "label":
        return local_name(node) in LABELLED
    if name == "abbr":
        return local_name(node) in ("th", "td")
    return name != "content" or is_meta_text(node)


def is_button_label(node: etree._Element) -> bool:
    """Whether ``value`` is what a button shows: ``<input type="submit" value="Search">``.  Any
    other ``value`` (a text box's, a hidden field's, an option's) is data the form sends back."""
    return local_name(node) == "input" and node.get("type", "").strip().lower() in BUTTON_TYPES


def translatable_attributes(root: etree._Element, vocabulary: Vocabulary, names: Sequence[str],
                            glossary: Glossary | None) -> list[tuple[etree._Element, str]]:
    """(element, attribute name) for each attribute value to translate (one with letters, or a term of
    ``glossary``: ``needs_translation``), outside untranslated parts, an element's in the order it has
    them (not that of ``names``: ``<img alt title>`` is read alt first); in HTML, ``names`` in any case
    (the parser lower-cases the page's: ``TITLE`` is ``title``)."""
    found: list[tuple[etree._Element, str]] = []
    wanted = {name if vocabulary.xml else name.lower() for name in names}

    def visit(node: etree._Element, translated: bool) -> None:
        if is_comment(node):
            return
        translated = (translated or says_yes(node)) and not says_no(node)
        if translated and not vocabulary.keeps_attributes(node):
            found.extend((node, name) for name, value in node.attrib.items()
                         if name in wanted and needs_translation(value, glossary) and holds_text(node, name))
        if says_no(node) or not vocabulary.is_untranslated(node):
            for child in node:
                visit(child, translated)

    visit(root, True)
    return found
