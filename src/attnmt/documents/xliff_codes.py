"""XLIFF's inline codes, known by their names and by what they stand for: those that wrap words
(``<g>``, ``<mrk>``, ``<pc>``: wraps_words), and the codes that stand for a line break or a space
(is_line_break, is_space), by their kind or by the text they show or stand for (stands_for: 1.2's
``equiv-text``, 2's ``equiv`` and ``disp``, the native data in 2's ``<originalData>``, and the
character a 2's ``<cp hex="000B"/>`` stands for, as XLIFF 2 writes those XML 1.0 cannot hold).
attnmt.documents.xliff reads a unit's codes so."""

from __future__ import annotations

import re

from lxml import etree

from attnmt.documents.cdata_sections import cdata_text
from attnmt.documents.flat import LINE_END
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.xml_code import holds_markup, holds_tags
from attnmt.errors import DataError

# XLIFF's inline elements that wrap words to translate (1.2's <g> and <mrk>, 2's <pc> and <mrk>);
# every other inline element is native code or a placeholder, kept whole.
WORD_CODES = frozenset(("g", "mrk", "pc"))
# Trados's marks in a source (.sdlxliff) that are none of its translation's: a reviewer's comment on its words
# (its <cmt-def> in the file's <doc-info>) and a tracked change's insertion, each unwrapped in the target (its
# words translated there), and a tracked deletion, whose words are left out: Trados translates a source as
# its changes accepted, and a comment or a revision belongs to the source it was made on.
SDL_UNWRAPPED = frozenset(("x-sdl-comment", "x-sdl-added"))
SDL_DELETED = "x-sdl-deleted"
UNWRAPPED = "attnmt-unwrapped"  # what such a mark is renamed, then stripped, its content left in place
KEPT_SPAN = "attnmt-kept-span"  # what the words of an XLIFF 2 span kept from translation are held in (hold_kept_spans)
# XLIFF 1.2's datatype values that say a unit's text is HTML (WPML's units say "html").
HTML_TYPES = frozenset(("html", "htmlbody", "xhtml"))
# XLIFF 2's <cp hex="...">: a Unicode code point in hexadecimal (code_point).
HEX = re.compile(r"[0-9A-Fa-f]+")
MAX_CODE_POINT = 0x10FFFF
# XLIFF 2's namespace (2.0, 2.1, 2.2 share its stem): its <cp> alone stands for a character.
XLIFF_2_NAMESPACE = "urn:oasis:names:tc:xliff:document:2"
# A line break's tag, as a code's display text or native data gives it: <br>, <br/>, <br />.
BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)


def wraps_words(node: etree._Element) -> bool:
    """Whether an inline code wraps words to translate (WORD_CODES, but a ``<mrk mtype="protected">``)."""
    name = local_name(node)
    return name in WORD_CODES and not (name == "mrk" and node.get("mtype") == "protected")


def holds_html(element: etree._Element) -> bool:
    """Whether a target (or segment) just copied from its source is HTML to translate as HTML: HTML
    throughout (xml_code.holds_markup), or words with HTML's tags among them, each closed
    (xml_code.holds_tags), in a unit that says its text is HTML (HTML_TYPES: ``datatype="html"``
    on it or around it) or in a CDATA section (WPML's, Drupal's): read as words, ``<a href="...">terms</a>``
    came back ``<A HREF="">`` with its URL moved out of the link.  Elsewhere, text that holds tags is
    words, as prose about tags is."""
    if holds_markup(element):
        return True
    said = next((above.get("datatype") for above in (element, *element.iterancestors())
                 if above.get("datatype")), "")
    return (said.lower() in HTML_TYPES or cdata_text(element) is not None) and holds_tags(element)


def ready_copy(copied: etree._Element) -> None:
    """A target (or a segment of it) just copied from its source made ready to translate: Trados's
    changes accepted (accept_changes) and the words an XLIFF 2 code keeps held (hold_kept_spans)."""
    accept_changes(copied)
    hold_kept_spans(copied)


def hold_kept_spans(copied: etree._Element) -> None:
    """In place: what stands between an XLIFF 2 ``<sc translate="no"/>`` and its ``<ec startRef>`` in the
    same element held in a KEPT_SPAN that says ``translate="no"``, an atom kept whole, as a ``<pc
    translate="no">`` is; the words of such a span, an empty code's, went to the model and came back
    translated (``<sc id="a" translate="no"/>Ctrl S<ec startRef="a"/>`` as ``CTRL S``).  The spans are let
    go once translated (xliff_icu.unmark_syntax)."""
    for start in [code for code in copied.iter("{*}sc") if code.get("translate") == "no"]:
        following = list(start.itersiblings())
        end = next((k for k, node in enumerate(following) if not is_comment(node) and local_name(node) == "ec"
                    and node.get("startRef") == start.get("id")), None)
        if end is None:
            continue
        held = etree.Element(KEPT_SPAN, translate="no")
        held.text, start.tail = start.tail, None
        held.extend(following[:end])  # each with its tail
        start.addnext(held)


def accept_changes(copied: etree._Element) -> None:
    """A target (or a segment of it) just copied from its source, Trados's comments and tracked changes
    taken out of it (SDL_UNWRAPPED, SDL_DELETED): a deletion's words with it, the spaces around it kept
    once.  Read as words to translate, the deleted ones went to the model ("A blue red car" for "A
    <del>blue</del> <ins>red</ins> car"), and each comment showed on the target too, around other
    words.  In place."""
    for mark in [mark for mark in copied.iter("{*}mrk") if mark.get("mtype") == SDL_DELETED]:
        previous, parent = mark.getprevious(), mark.getparent()
        before = parent.text if previous is None else previous.tail
        at_start = previous is None and not (before or "").strip()
        tail = (mark.tail or "").lstrip() if at_start or (before or "")[-1:].isspace() else mark.tail or ""
        if previous is None:
            parent.text = (before or "") + tail or None
        else:
            previous.tail = (before or "") + tail or None
        parent.remove(mark)
    for mark in copied.iter("{*}mrk"):
        if mark.get("mtype") in SDL_UNWRAPPED:
            mark.tag = UNWRAPPED
    etree.strip_tags(copied, UNWRAPPED)


def is_line_break(node: etree._Element) -> bool:
    """Whether an inline code stands for a line break: by its kind (1.2's ``ctype="lb"``, on an
    ``<x/>`` or a ``<ph>`` as Okapi and Trados write it; 2's ``subType="xlf:lb"``), or by what it
    shows or stands for (stands_for), a ``<br>`` tag or a line's end alone (``&#10;``).  A code with no
    such hint is left as it is: between two letters it may be a tag inside a word (``<b>W</b>ord``)."""
    if is_comment(node):
        return False
    if node.get("ctype") == "lb" or node.get("subType") == "xlf:lb":
        return True
    # A line's end counts only where it is all the code stands for: native data holding a tag written
    # over lines (<a⏎ href="x">, as Okapi copies it) is not a break.
    return any(BREAK_TAG.fullmatch(text.strip()) or (not text.strip() and LINE_END.search(text))
               for text in stands_for(node))


def is_space(node: etree._Element) -> bool:
    """Whether an inline code stands for spaces alone, no line's end (``equiv=" "``): it parts the
    words around it, and its sentence goes on past it."""
    return not is_comment(node) and any(not text.strip() and not LINE_END.search(text) for text in stands_for(node))


def stands_for(node: etree._Element) -> list[str]:
    """What an inline code shows or stands for, each text given: 1.2's ``equiv-text``, 2's ``equiv``
    and ``disp``, the ``<data>`` its ``dataRef`` names in the unit's ``<originalData>`` (2), and
    the character a ``<cp>`` stands for (2: code_point)."""
    shown = [node.get(name) for name in ("equiv-text", "equiv", "disp")] + [original_data(node), code_point(node)]
    return [text for text in shown if text]


def original_data(node: etree._Element) -> str | None:
    """The native code an XLIFF 2 code's ``dataRef`` names: the text of the ``<data>`` of that
    id in its unit's ``<originalData>`` (``<data id="d1">&lt;br/&gt;</data>``), each ``<cp>`` in it
    read as its character (``<data id="d1"><cp hex="000B"/></data>``: a vertical tab, which
    XML 1.0 cannot hold as text); None for none."""
    ref = node.get("dataRef")
    unit = next((above for above in node.iterancestors() if local_name(above) == "unit"), None)
    if ref is None or unit is None:
        return None
    return next((data_text(data) for data in unit.iterfind("{*}originalData/{*}data") if data.get("id") == ref),
                None)


def data_text(data: etree._Element) -> str:
    """A ``<data>``'s text, each ``<cp>`` in it read as the character it stands for (code_point);
    a comment in it stands for nothing, the text after it kept."""
    parts = [data.text or ""]
    for child in data:
        parts += [("" if is_comment(child) else code_point(child) or ""), child.tail or ""]
    return "".join(parts)


def code_point(node: etree._Element) -> str | None:
    """The character an XLIFF 2 ``<cp hex="000B"/>`` stands for (a vertical tab): the way XLIFF 2
    writes those XML 1.0 cannot hold (VT, FF, the separators 0x1C to 0x1E, ...), in a source's text
    or in a code's ``<data>``; None for any other node, and for a ``hex`` that is no code point
    (check_code_points refuses it)."""
    if not is_code_point_element(node):
        return None
    written = (node.get("hex") or "").strip()
    if not HEX.fullmatch(written) or int(written, 16) > MAX_CODE_POINT or 0xD800 <= int(written, 16) <= 0xDFFF:
        return None
    return chr(int(written, 16))


def is_code_point_element(node: etree._Element) -> bool:
    """Whether ``node`` is XLIFF 2's own ``<cp>`` (in its namespace): an extension's element of that name
    (``<e:cp>`` in an XLIFF 1.2 header, say) is no character and is left as it is."""
    return (not is_comment(node) and local_name(node) == "cp"
            and (etree.QName(node).namespace or "").startswith(XLIFF_2_NAMESPACE))


def check_code_points(root: etree._Element, where: str, first_line: int = 1) -> None:
    """DataError, naming its line, for a ``<cp>`` whose ``hex`` names no Unicode code point (not
    hexadecimal, past U+10FFFF, or a surrogate): what it stands for is unknown, and XLIFF 2 tools refuse it.
    Only XLIFF 2's own ``<cp>`` (is_code_point_element)."""
    for node in root.iter("{*}cp"):
        if is_code_point_element(node) and code_point(node) is None:
            line = f"line {node.sourceline + first_line - 1}: " if node.sourceline else ""
            raise DataError(f'{where}: {line}<cp hex="{node.get("hex", "")}"> names no character: its hex is a '
                            'Unicode code point in hexadecimal, 0 to 10FFFF but no surrogate (D800 to DFFF) '
                            '(<cp hex="000B"/> for a vertical tab)')
