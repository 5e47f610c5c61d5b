"""Qt's length variants in a Linguist file (attnmt.documents.qt_linguist): a string shown in a
place too narrow for it is replaced by a shorter one of its variants, the longest first.  A source
holds them parted by U+009C (Qt's variant separator: ``Open the selected file\\u009cOpen file``),
and a translation as ``<lengthvariant>``s of a ``<translation variants="yes">`` (or of a plural
``<numerusform variants="yes">``), as lupdate and Qt Linguist write them.

    to_write(form, source, draft)  -> the places of a translation still to write, each with the source's part

Each variant is translated from the source's variant in its place (the last, shortest, for any more
than the source has), so the program has a translation of each length to choose from.  Read whole,
the variants of a translation were its content, never empty, and so a person's: they stayed empty,
"kept" (with a warning saying so), and the program went on showing the source; a source's variants were one
sentence, and their separator landed anywhere in the translation, or nowhere.
"""

from __future__ import annotations

import copy

from lxml import etree

from attnmt.documents.html_layout import gap_before

SEPARATOR = "\u009c"  # what parts a Qt source's length variants (QString's BinaryVariantSeparator)
VARIANT = "lengthvariant"


def to_write(form: etree._Element, source: etree._Element, draft: bool) -> list[tuple[etree._Element, etree._Element]]:
    """The places in a translation or plural form ``form`` still to be written (is_open), each with the
    part of ``source`` it translates: ``form`` itself where neither has length variants, else each of its
    ``<lengthvariant>``s, added (one a part of the source, ``variants="yes"``) where it has none, or fewer
    than the source's parts and all empty."""
    parts = source_variants(source)
    variants = form.findall(VARIANT)
    if not variants and len(parts) == 1:
        return [(form, source)] if is_open(form, source, draft) else []
    if not variants and not is_open(form, source, draft):
        return []
    if all(is_empty(variant) for variant in variants) and len(variants) < len(parts):
        variants = add_variants(form, variants, len(parts))
    pairs = [(variant, parts[min(k, len(parts) - 1)]) for k, variant in enumerate(variants)]
    return [(variant, part) for variant, part in pairs if is_open(variant, part, draft)]


def is_open(form: etree._Element, source: etree._Element, draft: bool) -> bool:
    """Whether a translation (a plural form, a length variant) is still to be written: it holds nothing
    (no text, no element), or, still a ``draft`` (unfinished), its source's copy (Qt Linguist's "Copy from
    source", Weblate's source copies), as an XLIFF target copied from its source is filled.  A finished one
    the same as its source ("OK" for "OK") is a translation."""
    if is_empty(form):
        return True
    return draft and not len(form) and not len(source) and form.text == source.text


def is_empty(form: etree._Element) -> bool:
    """Whether ``form`` holds no text and no element."""
    return not len(form) and not (form.text or "").strip()


def source_variants(source: etree._Element) -> list[etree._Element]:
    """``source``'s length variants (parted by SEPARATOR), each a copy of it holding that part's text
    and codes (``<byte>``), its comments left out; ``[source]`` where it has one."""
    if SEPARATOR not in "".join(source.itertext()):
        return [source]
    parts = [source.makeelement(source.tag, {})]
    add_text(parts, source.text or "")
    for child in source:
        if not is_note(child):
            code = copy.deepcopy(child)
            code.tail = None
            parts[-1].append(code)
        add_text(parts, child.tail or "")
    for part in parts:
        part.sourceline = source.sourceline  # for a review's line
    return parts


def is_note(node: etree._Element) -> bool:
    """Whether a node of a source is a comment or a processing instruction, left out of its translation,
    where a reference to an entity the DOCTYPE declares (``About &app;``) is its words', kept."""
    return isinstance(node, (etree._Comment, etree._ProcessingInstruction))


def add_text(parts: list[etree._Element], text: str) -> None:
    """``text`` added at the end of the last of ``parts``, a new part begun at each SEPARATOR in it."""
    for k, piece in enumerate(text.split(SEPARATOR)):
        if k:
            parts.append(parts[-1].makeelement(parts[-1].tag, {}))
        last = parts[-1]
        if len(last):
            last[-1].tail = (last[-1].tail or "") + piece
        else:
            last.text = (last.text or "") + piece


def add_variants(form: etree._Element, variants: list[etree._Element], count: int) -> list[etree._Element]:
    """``form``'s empty ``variants`` with as many more as make ``count``, laid out as the last is, or,
    where it has none, each on a line of its own one step in from ``form``'s, as lupdate writes them;
    ``form`` said to hold variants (``variants="yes"``)."""
    variants = list(variants)
    if not variants:
        line = "\n" + gap_before(form).rpartition("\n")[2]
        form.text = line + "    "
        variants.append(etree.SubElement(form, VARIANT))
        variants[-1].tail = line
    form.set("variants", "yes")
    while len(variants) < count:
        last = variants[-1]
        previous = last.getprevious()
        variant = last.makeelement(VARIANT, {})
        last.addnext(variant)
        variant.tail, last.tail = last.tail, form.text if previous is None else previous.tail
        variants.append(variant)
    return variants
