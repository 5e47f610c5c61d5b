"""The passages of a page kept as written among translated text that still read in the source's language: what
says ``translate="no"`` (a product's name, ``<span translate="no">Acme Widget Pro</span>``, or a whole ``<p>``) and an
edit's deleted words (``<del>``: elements.Vocabulary.is_deleted).  Once the page's ``<html>`` or a block around them
says the target language, such a passage, stating none of its own, read as in the target's: a screen reader spoke
"Acme Widget Pro" as German.  Each says the language it was read in before (language.say_kept, as a block that kept
its source below quality does, and as an EPUB's kept contents entry does: attnmt.documents.epub_kept_entries).

Code (``<code translate="no">``, ``<pre>``: elements.UNTRANSLATED), what states no words (``lang="zxx"``) and a
passage without letters (a number, ``1984``) say nothing: no language reads them."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.elements import UNTRANSLATED, Vocabulary, says_no
from attnmt.documents.language import states_no_words
from attnmt.documents.pages import is_comment, local_name
from attnmt.text.letters import has_words


def kept_passages(root: etree._Element, vocabulary: Vocabulary) -> list[etree._Element]:
    """The elements under ``root`` (itself too) kept as written that hold words in the source's language: one that
    says ``translate="no"``, or a ``<del>`` among other words of its block (Vocabulary.is_deleted)."""
    return [node for node in root.iter() if not is_comment(node) and isinstance(node.tag, str)
            and (says_no(node) or vocabulary.is_deleted(node)) and local_name(node) not in UNTRANSLATED
            and not states_no_words(node) and has_words(prose(node))]


def prose(node: etree._Element) -> str:
    """The text ``node`` shows outside code (UNTRANSLATED) and what states no words, in pieces whose order does not
    matter here (only whether it has words): ``<p translate="no"><code>ls -l</code></p>`` shows none.  Walked in
    document order, a parent before its children (no recursion: a page may nest thousands of elements)."""
    hidden: dict[etree._Element, bool] = {node: False}
    texts = [node.text or ""]
    for inside in node.iterdescendants():
        above = hidden[inside.getparent()]
        hidden[inside] = above or not isinstance(inside.tag, str) or local_name(inside) in UNTRANSLATED \
            or states_no_words(inside)
        texts += [] if above else [("" if hidden[inside] else inside.text or "") + (inside.tail or "")]
    return "".join(texts)
