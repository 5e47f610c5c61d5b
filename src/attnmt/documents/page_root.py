"""What the root of a translated page states: the target language (``page_language``), and an XHTML page its
encoding too (``finish_xhtml``), once its text is translated (attnmt.documents.markup.translate_markup).

A page given back *as sent* (the server's answer to a text: attnmt.server.markup_texts) states only what it
stated: DeepL and LibreTranslate give a page back as it came but for its text, and a ``lang`` and a ``<meta
charset>`` added to a page that had neither were what no client sent (its text is no file, in no encoding)."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.elements import says_no
from attnmt.documents.language import XML_LANG, restate, say_page_direction, stated_language
from attnmt.documents.page_metadata import say_metadata_language
from attnmt.documents.pages import is_comment, local_name, say_utf8

UNSHOWN = frozenset(("script", "style", "template"))  # what a page holds but does not show as its text


def page_language(root: etree._Element, lang: str | None, translated: bool = True, as_sent: bool = False,
                  ) -> str | None:
    """The language a page's root is to state: ``lang``, but None (it keeps what it states) where
    it says ``translate="no"``, as any kept element does (attnmt.documents.language.say_translated):
    nothing of it is translated but what says ``translate="yes"`` inside it, and ``<html lang="en"
    translate="no">`` said "de" over its English; None too where nothing of it was ``translated``
    (TreeJob.translated: every sentence kept its source, --below-quality source), and for a page given back
    ``as_sent`` whose root states no language (stated_language): it is given none, as an element is (restate)."""
    return None if says_no(root) or not translated or (as_sent and not stated_language(root)) else lang


def shows_words(root: etree._Element) -> bool:
    """Whether a page shows a letter anywhere (not in a comment, a script, a style or a template): one that gave the
    model nothing to read but shows words kept them all from translation (``translate="no"``, class ``notranslate``,
    code), and its root keeps the language it states (TreeJob.translated), where ``<html lang="en">`` over a
    ``<body translate="no">`` said "de"."""
    pending = [root]
    while pending:
        node = pending.pop()
        tail = node.tail if node is not root else ""
        if any(map(str.isalpha, tail or "")):
            return True
        if is_comment(node) or isinstance(node, etree._Entity) or local_name(node) in UNSHOWN:
            continue
        if any(map(str.isalpha, node.text or "")):
            return True
        pending.extend(node)
    return False


def restate_page(root: etree._Element, lang: str) -> None:
    """A page given back as sent states ``lang`` in each language attribute its root has (restate), its direction
    and its metadata agreeing (say_page_direction, say_metadata_language): ``<html xml:lang="en">`` is ``<html
    xml:lang="de">``, where Parsed.say_language, which writes a page's own file, sets ``lang`` too."""
    restate(root, lang)
    say_page_direction(root, lang)
    say_metadata_language(root, lang)


def finish_xhtml(holder: etree._Element, lang: str | None, keep_declaration: bool = False) -> None:
    """The XHTML page's ``<html>``: a <meta> declaring its encoding says utf-8, as the page is
    written (pages.say_utf8; none is added, UTF-8 being XML's own default; as written where the page
    is written in the encoding it declares, ``keep_declaration``); with ``lang``, it says ``lang``: in
    ``xml:lang``, which every XHTML has, and in ``lang`` where it has one already (XHTML 1.1 has none),
    its direction and its metadata (say_page_direction, say_metadata_language; but where it
    says ``translate="no"``: page_language)."""
    for page in holder:
        if not isinstance(page.tag, str) or local_name(page) != "html":
            continue
        if not keep_declaration:
            say_utf8(page, xhtml=True)
        stated = page_language(page, lang)
        if stated:
            page.set(XML_LANG, stated)
            if page.get("lang") is not None:
                page.set("lang", stated)
            say_page_direction(page, stated)
            say_metadata_language(page, stated)
