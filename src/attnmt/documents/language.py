"""What a translated page says of its language: ``lang`` and ``xml:lang``, and ``dir``, the
direction its text is written in.  A reading system takes an element's language from the nearest
element that states one (hyphenation, speech, fonts) and its direction from the nearest ``dir``,
so an element left saying ``lang="fr" dir="rtl"`` around German text has it read as French, from
right to left.  attnmt.documents.markup decides which elements' text was translated; here, what
they then say."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from lxml import etree

from attnmt.documents.svg_content import inside_svg
from attnmt.text.language_codes import primary_subtag as primary  # fr for fr-CA, en for EN_us

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XHTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
# Where an element states its language: HTML's lang, XHTML's xml:lang (a namespaced name in a page parsed
# as XML, a plain one in a page HTML's parser read).
LANGUAGE_ATTRIBUTES = ("lang", XML_LANG, "xml:lang")
# Languages written from right to left (their primary subtag, as BCP 47 writes it): Arabic, Aramaic,
# Sorani Kurdish, Dhivehi, Persian and Dari, Hebrew (and its old code iw), Kashmiri, Pashto, Sindhi,
# Syriac, Uyghur, Urdu, Western Punjabi, South Azerbaijani, Mazanderani, Yiddish (and ji), N'Ko.
RTL_LANGUAGES = frozenset("ar arc ckb dv fa prs he iw ks ps sd syr ug ur pnb azb mzn yi ji nqo".split())
# Scripts written from right to left (a script subtag, ``pa-Arab``, says so over the language's own):
# Arabic, Hebrew, Syriac, Thaana, N'Ko, Adlam, Hanifi Rohingya, Mandaic, Samaritan.
RTL_SCRIPTS = frozenset("arab hebr syrc thaa nkoo adlm rohg mand samr".split())


# What a language attribute may say that is no language (BCP 47's undetermined, multiple languages and
# no linguistic content, and private use: Word's "X-NONE" on a run it has not tagged).
NO_LANGUAGE = frozenset(("und", "mul", "zxx", "x"))


def names_no_language(tag: str | None) -> bool:
    """Whether ``tag`` says its text is in no language it names (NO_LANGUAGE: ``zxx``, ``und``,
    ``mul``, Word's ``x-none``); False for None, where no tag is stated."""
    return tag is not None and primary(tag) in NO_LANGUAGE


def says_no_words(tag: str | None) -> bool:
    """Whether ``tag`` says its text has no words at all: BCP 47's ``zxx``, "no linguistic content"
    (LibreOffice's "[None]", what people set on code and part numbers), which is kept whole, not
    translated, as code is (attnmt.documents.code_look, attnmt.documents.elements).  Not ``und``,
    ``mul`` or ``x-none``: those say the language is unknown, or many, not that there are no words."""
    return tag is not None and primary(tag) == "zxx"


def states_no_words(element: etree._Element) -> bool:
    """Whether the language ``element`` states (the first of LANGUAGE_ATTRIBUTES it has) is ``zxx``
    (says_no_words): ``<span lang="zxx">ls -l</span>``."""
    return says_no_words(next((element.get(name) for name in LANGUAGE_ATTRIBUTES if element.get(name)), None))


def stated_language(element: etree._Element) -> str:
    """The primary subtag of the language ``element`` states (LANGUAGE_ATTRIBUTES); "" for none,
    and for a tag that names no language (NO_LANGUAGE: ``lang="X-NONE"``, ``und``, ``zxx``)."""
    stated = next((primary(element.get(name)) for name in LANGUAGE_ATTRIBUTES if (element.get(name) or "").strip()), "")
    return "" if stated in NO_LANGUAGE else stated


def direction(lang: str) -> str:
    """``rtl`` for a language written from right to left (by its script subtag where it has one:
    ``sd-Deva`` is ``ltr``, ``az-Arab`` ``rtl``), else ``ltr``."""
    subtags = lang.strip().replace("_", "-").lower().split("-")
    script = next((tag for tag in subtags[1:] if len(tag) == 4 and tag.isalpha()), None)
    rtl = script in RTL_SCRIPTS if script else subtags[0] in RTL_LANGUAGES
    return "rtl" if rtl else "ltr"


def letters_direction(text: str) -> str:
    """The direction every letter of ``text`` is written in: ``rtl`` where each is written right to
    left (Unicode's bidirectional class R or AL: Hebrew, Arabic), ``ltr`` where each is written left
    to right (class L: Latin, Greek, Chinese); "" where it has no letters, or letters of both."""
    kinds = set(map(unicodedata.bidirectional, text))
    found = {"ltr" for kind in kinds if kind == "L"} | {"rtl" for kind in kinds if kind in ("R", "AL")}
    return found.pop() if len(found) == 1 else ""


def written_against(text: str, lang: str) -> bool:
    """Whether every letter of ``text`` is written against ``lang``'s direction (letters_direction):
    Hebrew in an English text, Latin in an Arabic one.  A direction override or embedding around such
    letters (HTML's ``<bdo dir="rtl">``, ``<span dir="rtl">``, Word's ``w:bdo``, ``w:dir``) holds a
    passage in another language, kept whole: translated, the Hebrew was lost and German words were
    drawn right to left.  One around words in the source's script is translated (turned)."""
    return letters_direction(text) not in ("", direction(lang))


def turned(said: str | None, text: str) -> str | None:
    """The direction a direction override or embedding that says ``said`` (``ltr``, ``rtl``) turns to
    around translated ``text``: that of its letters, where all are written against it (an English
    phrase in ``<bdo dir="ltr">`` translated into Arabic, ``w:dir w:val="rtl"`` around a phrase now
    German, which Word drew right to left); None where it stays, as around a code or a name that
    keeps its letters (``ABC-123`` left to right in Arabic text) or letters of both directions."""
    letters, said = letters_direction(text), (said or "").strip().lower()
    return letters if said in ("ltr", "rtl") and letters not in ("", said) else None


def direction_attribute(element: etree._Element) -> str:
    """The attribute in which ``element`` says the direction its text is written in: HTML's ``dir``, or in SVG
    content (svg_content.inside_svg: an inline ``<svg>``, an SVG page) SVG's ``direction``, a presentation
    attribute.  SVG has no ``dir``: a kept English ``<text dir="ltr">`` in an Arabic page was drawn right to left,
    as the page around it."""
    return "direction" if inside_svg(element) else "dir"


def said_direction(element: etree._Element) -> str:
    """The direction ``element`` says in its own attribute (direction_attribute), lower-cased; "" for none."""
    if element.get("dir") is None and element.get("direction") is None:
        return ""  # most elements say none: spared inside_svg's climb up the page
    return (element.get(direction_attribute(element)) or "").strip().lower()


def set_direction(element: etree._Element, lang: str) -> None:
    """A direction (``dir``, SVG's ``direction``: direction_attribute) of ``ltr`` or ``rtl`` that is not ``lang``'s
    becomes it (``dir="rtl"`` around German text showed it right to left); ``auto`` stays: the browser reads the
    new text."""
    said = said_direction(element)
    if said in ("ltr", "rtl") and said != direction(lang):
        element.set(direction_attribute(element), direction(lang))


def say_page_direction(root: etree._Element, lang: str) -> None:
    """A whole page's root, which says ``lang``, says its direction: a ``dir`` there agrees
    (set_direction), and with none (or an empty one) it says ``rtl`` for a language written right
    to left.  Else an Arabic page read left to right, HTML's default, where a translated part of a kept page
    (state_language) said ``dir="rtl"``.  An SVG page's ``<svg>`` that says none is left so: SVG's ``direction``
    is layout too (``rtl`` draws a start-anchored label leftwards from its ``x``, off a picture laid out for
    English), and its Arabic labels read right to left without it."""
    if not said_direction(root) and direction(lang) == "rtl" and not inside_svg(root):
        root.set("dir", "rtl")
    set_direction(root, lang)


def say_content_language(root: etree._Element, lang: str) -> None:
    """A page's ``<meta http-equiv="Content-Language">``, its language as the HTTP header would state
    it, says ``lang``, as its root now does: search engines (Bing) read a page's language there, and
    the German page went on saying ``content="en"``.  One with no content states nothing, and stays."""
    for meta in root.iter("{*}meta"):
        if (meta.get("http-equiv") or "").strip().lower() == "content-language" and (meta.get("content") or "").strip():
            meta.set("content", lang)


def say_language(element: etree._Element, lang: str) -> None:
    """The language ``element`` states becomes ``lang`` (restate), and its direction agrees
    (set_direction)."""
    restate(element, lang)
    set_direction(element, lang)


def restate(element: etree._Element, lang: str) -> None:
    """The language ``element`` states, in each of LANGUAGE_ATTRIBUTES it has, becomes ``lang``; an
    element that states none is given none."""
    for name in LANGUAGE_ATTRIBUTES:
        if element.get(name) is not None:
            element.set(name, lang)


def say_translated(blocks: Iterable[etree._Element], lang: str, kept: Callable[[etree._Element], bool]) -> None:
    """Each block of translated text, and every element around it up to the first that is
    ``kept`` (``translate="no"``, a ``<pre>``), says ``lang`` where it states a language or a
    direction (say_language): the nearest statement a reader finds is then the target's, at any
    depth (``<body lang="en-US"><section lang="en"><h1>``).  The rest keeps what it states, but
    for the language of an inline element whose words were translated (say_translated_inline): an
    inline element kept whole marks a word or a passage as written in its language (``<i
    lang="fr">c'est la vie</i>``), an inline element's direction stays (``<a dir="ltr">`` around a
    URL, ``<bdo>``); an element with only a translated attribute (``<pre lang="en"
    title="Example output">``) holds no prose; a kept element is in its own language, and so is what is around it (a
    ``translate="yes"`` block inside it says ``lang`` itself: state_language), but for an element that holds a
    translated block of its own, whose climb reaches it."""
    done: set[etree._Element] = set()
    for block in blocks:
        for element in (block, *block.iterancestors()):
            if element in done or kept(element):
                break  # what is around it was done, or is kept
            done.add(element)
            say_language(element, lang)
            if is_translated_part(element):
                state_language(element, lang)
                break


def say_translated_inline(elements: Iterable[etree._Element], lang: str) -> None:
    """Each inline element whose words were translated (one of a translated block's marks, never a
    passage kept whole in its own language: attnmt.documents.elements.Vocabulary.is_foreign) and
    that states a language says ``lang`` (restate), as its block does: Word's proofing ``<span
    lang="en-US">`` around an English sentence, or around a phrase in one, went on saying English
    of its German, and a screen reader read it so.  One that states no language (``lang="x-none"``,
    ``und``: names_no_language) keeps what it states.  Its direction is said once it holds the
    translation (say_written_direction)."""
    for element in elements:
        if stated_language(element):
            restate(element, lang)


def say_written_direction(elements: Iterable[etree._Element]) -> None:
    """Each inline element written around translated words (as say_translated_inline's, but the
    copy that holds the translation: attnmt.documents.markup_runs.rebuild) whose letters are all
    written against its ``dir`` turns to theirs (turned): ``<bdo dir="rtl">`` drew the German words
    in it right to left.  One around a URL or a code keeps its ``dir`` (``<span dir="ltr">ABC-123``
    left to right in Arabic text).  Read from the translation, not the source: Arabic in ``<span
    dir="rtl">``, translated into German, stayed right to left, its source letters being Arabic.  An SVG
    ``<tspan>``'s ``direction`` (direction_attribute) turns so too."""
    for element in elements:
        direction_now = turned(said_direction(element), "".join(element.itertext()))
        if direction_now is not None:
            element.set(direction_attribute(element), direction_now)


def is_translated_part(element: etree._Element) -> bool:
    """Whether ``element`` says ``translate="yes"`` inside what says ``translate="no"`` (the nearest
    element above it that says either): the top of a translated part of a kept one."""
    said = (node.get("translate", "").strip().lower() for node in element.iterancestors())
    return element.get("translate", "").strip().lower() == "yes" and next((w for w in said if w), "") == "no"


def state_language(element: etree._Element, lang: str) -> None:
    """``element``, the top of a translated part (``<main translate="yes">``) inside a kept one
    (``<html lang="en" translate="no">``), states ``lang`` itself: in the attributes the nearest
    element above that states a language has (``lang``, ``xml:lang`` or both), or, with none,
    XHTML's ``xml:lang`` (SVG's too, in an XHTML page or an SVG page: SVG 1.1 has no ``lang``) or
    HTML's ``lang``; and a ``dir`` (SVG's ``direction``: direction_attribute) where the direction above (ltr
    where none is said) is not ``lang``'s.  Else it read as in the kept part's language, whose statement stays."""
    above = list(element.iterancestors())
    stating = next((node for node in above if any(node.get(name) is not None for name in LANGUAGE_ATTRIBUTES)), None)
    names = [name for name in LANGUAGE_ATTRIBUTES if stating is not None and stating.get(name) is not None]
    for name in names or [XML_LANG if etree.QName(element).namespace in (XHTML, SVG) else "lang"]:
        element.set(name, lang)
    written = next((said for said in map(said_direction, above) if said), "ltr")
    if written in ("ltr", "rtl") and written != direction(lang):  # none said: HTML's ltr
        element.set(direction_attribute(element), direction(lang))


def inherited_language(element: etree._Element) -> str:
    """The language ``element`` is read in, as its own or the nearest element above it states it
    (the first of LANGUAGE_ATTRIBUTES it has); "" where none does."""
    stating = nearest_statement(element)
    return "" if stating is None else next(stating.get(name) for name in LANGUAGE_ATTRIBUTES if stating.get(name))


def nearest_statement(element: etree._Element) -> etree._Element | None:
    """``element`` or the nearest element above it that names a language; None where none does.
    An empty ``lang=""`` (HTML: "unknown") is passed over, unlike in state_language, which puts the
    target language in the attributes of the statement above it: a kept block (say_kept) is known
    to be in the source language, and saying so, with its direction, serves a reader better than
    leaving it unknown under a page that now says the target (a Latin paragraph set right to left
    under an Arabic ``<html dir="rtl">``)."""
    return next((node for node in (element, *element.iterancestors())
                 if any((node.get(name) or "").strip() for name in LANGUAGE_ATTRIBUTES)), None)


def page_root(element: etree._Element) -> etree._Element | None:
    """The element that states the language of the page ``element`` is on (itself too): its ``<html>``, or the
    ``<svg>`` that is its tree's root, a picture that is a page of its own (an EPUB's SVG page: attnmt.documents.epub,
    whose root says the target as a page's ``<html>`` does; a parsed fragment has a wrapper above); None in neither."""
    above = [element, *element.iterancestors()]
    html = next((node for node in above if etree.QName(node).localname == "html"), None)
    return above[-1] if html is None and etree.QName(above[-1]).localname == "svg" else html


def say_kept(kept: Iterable[tuple[etree._Element, str]], lang: str, source: str, page_says: bool) -> None:
    """Each block that kept its source text (--below-quality source), with the language it was
    read in before say_translated (inherited_language), says that language itself (``source``,
    the source's, where none was stated), in the attributes state_language chooses, where it would
    now be read in ``lang``: the nearest statement above it says ``lang`` (say_translated climbed
    there from a translated block), or it is the page's root (page_root: its ``<html>``), or none is,
    and that root is to say ``lang`` (``page_says``: attnmt.documents.markup.page_language).  On a
    page where only ``<html lang="en">`` states the language, a kept English paragraph was read as
    German once something else on the page was translated."""
    for block, before in kept:
        stating = nearest_statement(block)
        root = page_root(block)
        if page_says and root is not None:  # the page's direction first: the block's own is stated against it
            say_page_direction(root, lang)
        now_target = stating is not None and any(stating.get(name) == lang for name in LANGUAGE_ATTRIBUTES)
        if now_target or (page_says and root is not None and stating in (None, root)):
            state_language(block, before or source)
