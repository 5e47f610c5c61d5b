"""What a translated page's ``<meta>`` elements say of its language, beside its root's ``lang``: its
Content-Language (attnmt.documents.language.say_content_language), its link preview's locale (Open Graph's
``og:locale``, the language Facebook, LinkedIn and chat apps show the preview in, and its
``og:locale:alternate``), and Dublin Core's language (``DC.language``, ``dcterms.language``), which
library catalogues and Google Scholar read.  The German page went on saying ``og:locale="en_US"``.

The links to the page in other languages stay as written: a ``hreflang`` names the language of the page
it links to (``<link rel="alternate" hreflang="fr" href="/fr/">``), which no translation of this one changes.
So do the page's own addresses (``og:url``, ``og:image``, ``<link rel="canonical">``), byte for byte, and its JSON-LD
(``<script type="application/ld+json">``), a script never given to the model: its ``inLanguage`` goes on naming the
language its ``headline`` and ``description`` are in.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from attnmt.documents.language import say_content_language
from attnmt.text.language_codes import is_language_code, open_graph_locale, primary_subtag, variety

OPEN_GRAPH_LOCALE, OPEN_GRAPH_ALTERNATE = "og:locale", "og:locale:alternate"
# The names of a <meta> whose content is the page's language as a code ("en", "en-US"): Dublin Core's,
# and the plain one some sites write.
LANGUAGE_NAMES = frozenset(("dc.language", "dcterms.language", "language"))


def say_metadata_language(root: etree._Element, lang: str) -> None:
    """The page ``root``'s metadata says ``lang``, as its root now does: its Content-Language, its
    Open Graph locale (say_open_graph_locale) and its Dublin Core language (say_meta_language)."""
    say_content_language(root, lang)
    say_open_graph_locale(root, lang)
    say_meta_language(root, lang)


def metas(root: etree._Element, *names: str) -> Iterator[etree._Element]:
    """The <meta> elements of ``root`` whose ``property`` or ``name`` (any case) is one of ``names``, and that
    have a content: one with none states nothing, and stays."""
    for meta in root.iter("{*}meta"):
        said = {(meta.get(key) or "").strip().lower() for key in ("property", "name")}
        if said & set(names) and (meta.get("content") or "").strip():
            yield meta


def say_meta_language(root: etree._Element, lang: str) -> None:
    """Each <meta> named as in LANGUAGE_NAMES whose content is a language code says ``lang``; one that
    names the language in words (``content="English"``) stays, as no code says how to write another."""
    for meta in metas(root, *LANGUAGE_NAMES):
        if is_language_code(meta.get("content", "").strip()):
            meta.set("content", lang)


def say_open_graph_locale(root: etree._Element, lang: str) -> None:
    """A page's ``og:locale`` says ``lang``'s locale (locale_of), and its ``og:locale:alternate``s, the
    other locales the page is in, list the locale it said before in place of that one: a page of en_US
    with alternates de_DE and fr_FR, in German, is de_DE with en_US and fr_FR.  Where they did not
    list it, the one it said before is added after them; a page without alternates is given none
    (it named no other locale), and one without ``og:locale`` none either (Open Graph reads it as
    en_US, which a page that states nothing may mean)."""
    stated = list(metas(root, OPEN_GRAPH_LOCALE))
    if not stated:
        return
    before = stated[0].get("content", "").strip()
    alternates = list(metas(root, OPEN_GRAPH_ALTERNATE))
    now = locale_of(lang, [meta.get("content", "") for meta in alternates])
    if variety(before) == variety(now):
        return
    for meta in stated:
        meta.set("content", now)
    listed = [meta for meta in alternates if variety(meta.get("content", "")) == variety(now)]
    if any(variety(meta.get("content", "")) == variety(before) for meta in alternates):
        for meta in listed:  # the page's locale is no alternate of its own
            meta.getparent().remove(meta)
    elif listed:
        listed[0].set("content", before)
    elif alternates:
        added = alternates[-1].makeelement(alternates[-1].tag, alternates[-1].attrib)
        added.set("content", before)
        added.tail = alternates[-1].tail
        alternates[-1].addnext(added)


def locale_of(lang: str, alternates: list[str]) -> str:
    """``lang`` as ``og:locale`` writes it (language_codes.open_graph_locale), but where it names no
    country, and the page's ``alternates`` list a locale of its language, that one, the site's own
    (``de`` on a page with an alternate ``de_AT`` is ``de_AT``): the likeliest country's where several do."""
    likely = open_graph_locale(lang)
    if "_" in lang.replace("-", "_") or not alternates:
        return likely
    same = [alternate.strip() for alternate in alternates if primary_subtag(alternate) == primary_subtag(lang)]
    return next((alternate for alternate in same if variety(alternate) == variety(likely)), same[0] if same else likely)
