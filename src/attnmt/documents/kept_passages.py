"""The passages of a page kept as written among translated text that still read in the source's language: what
says ``translate="no"`` (a product's name, ``<span translate="no">Acme Widget Pro</span>``, or a whole ``<p>``) and an
edit's deleted words (``<del>``: elements.Vocabulary.is_deleted).  Once the page's ``<html>`` or a block around them
says the target language, such a passage, stating none of its own, read as in the target's: a screen reader spoke
"Acme Widget Pro" as German.  Each says the language it was read in before (language.say_kept, as a block that kept
its source below quality does, and as an EPUB's kept contents entry does: attnmt.documents.epub_kept_entries).

Code (``<code translate="no">``, ``<pre>``: elements.UNTRANSLATED), what states no words (``lang="zxx"``) and a
passage without letters (a number, ``1984``) say nothing: no language reads them."""

from __future__ import annotations

from collections.abc import Container

from lxml import etree

from attnmt.documents.elements import UNTRANSLATED, Vocabulary, says_no
from attnmt.documents.flat import FlatText
from attnmt.documents.language import (
    LANGUAGE_ATTRIBUTES,
    nearest_statement,
    page_root,
    state_language,
    states_no_words,
)
from attnmt.documents.markup_runs import Run
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.svg_content import inside_svg
from attnmt.documents.svg_texts import DRAWN
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


def kept_holders(run: Run, flat: FlatText, translated: Container[etree._Element],
                 holding: Container[etree._Element]) -> list[etree._Element]:
    """What says the source's language of a run that kept its source (``flat``: its text): its block, but where the
    block holds translated text too (``translated`` blocks, or ``holding`` one), the one element that shows all the
    run does (Run.sole_element: ``<div><p>…</p><a>Read more</a></div>``, a kept link beside a translated paragraph,
    went on reading as the target's), or else each of its elements that holds its words, where no words stand
    outside them (``<select>…</select> <button><img> Save the file</button>``: the button, the select's options
    being runs of their own)."""
    if run.parent not in translated and run.parent not in holding:
        return [run.parent]
    sole = run.sole_element()
    if sole is not None:
        return [sole]
    children = set(run.children)
    holders = [mark for mark in flat.marks if not mark.atom and mark.node in children]
    outside = list(flat.text)
    for mark in holders:
        outside[mark.start:mark.end] = " " * (mark.end - mark.start)
    if has_words("".join(outside)):
        return []
    return [mark.node for mark in holders if has_words(flat.text[mark.start:mark.end])]


def reads_as_target(node: etree._Element, target: str, page_says: bool) -> bool:
    """Whether ``node`` now reads as in ``target``: the nearest statement says it, or none above it but the page's
    root (its ``<html>``, an SVG page's ``<svg>``: language.page_root) does, which is to say ``target``
    (``page_says``), as language.say_kept reads it."""
    stating = nearest_statement(node)
    root = page_root(node)
    return (stating is not None and any(stating.get(name) == target for name in LANGUAGE_ATTRIBUTES)) or (
        page_says and root is not None and stating in (None, root))


def say_bare_kept(bare: list[tuple[Run, str]], source: str) -> None:
    """Each run of ``bare`` text alone that kept its source, written back as it came, with the language it was read
    in before (``""``: ``source``), wrapped in an element that states it (bare_holder), its spaces outside (its block
    now reads as the target's: reads_as_target): ``<div><p>…</p>Read more</div>`` read "Read more" as German
    (kept_holders finds no element there to state it)."""
    for run, before in bare:
        text = run.lead
        holder = bare_holder(run.parent)
        if not has_words(text) or holder is None:
            continue
        start, end = len(text) - len(text.lstrip()), len(text.rstrip())
        span = etree.Element(etree.QName(etree.QName(run.parent).namespace, holder).text)
        span.text, span.tail = text[start:end], text[end:]
        if run.owner is run.parent:
            run.parent.text = text[:start]
            run.parent.insert(0, span)
        else:
            run.owner.tail = text[:start]
            run.owner.addnext(span)
        state_language(span, before or source)


def bare_holder(parent: etree._Element) -> str | None:
    """The name of the element that states the language of bare kept text in ``parent``: HTML's ``<span>``; in an
    SVG picture's drawn text (svg_texts.DRAWN) a ``<tspan>``, which draws its words where they stood, and none in its
    ``<title>`` or ``<desc>``, which hold text alone.  A ``<span>`` is no SVG element: in an XHTML page's picture
    its words were not drawn, and in an HTML page's the parser closed the picture before it, drawing them out of it
    in the page's text (``<text><tspan x="0">HUND</tspan><span lang="en">Buy now</span></text>``)."""
    if not inside_svg(parent):
        return "span"
    return "tspan" if local_name(parent) in DRAWN else None
