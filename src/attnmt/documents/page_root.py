"""What the root of a translated page states: the target language (``page_language``), and an XHTML page its
encoding too (``finish_xhtml``), once its text is translated (attnmt.documents.markup.translate_markup)."""

from __future__ import annotations

from lxml import etree

from attnmt.documents.elements import says_no
from attnmt.documents.language import XML_LANG, say_page_direction
from attnmt.documents.page_metadata import say_metadata_language
from attnmt.documents.pages import local_name, say_utf8


def page_language(root: etree._Element, lang: str | None, translated: bool = True) -> str | None:
    """The language a page's root is to state: ``lang``, but None (it keeps what it states) where
    it says ``translate="no"``, as any kept element does (attnmt.documents.language.say_translated):
    nothing of it is translated but what says ``translate="yes"`` inside it, and ``<html lang="en"
    translate="no">`` said "de" over its English; None too where nothing of it was ``translated``
    (TreeJob.translated: every sentence kept its source, --below-quality source)."""
    return None if says_no(root) or not translated else lang


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
        if page_language(page, lang):
            page.set(XML_LANG, lang)
            if page.get("lang") is not None:
                page.set("lang", lang)
            say_page_direction(page, lang)
            say_metadata_language(page, lang)
