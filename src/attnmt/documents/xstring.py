"""SpreadsheetML's escaped strings (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): how Excel keeps in
XML the characters XML cannot hold.

A cell's text (``<t>`` in shared strings, inline strings and notes) and a table column's name
write such a character as ``_xHHHH_``, its UTF-16 code in hex: a carriage return pasted from
Windows is ``_x000D_`` (XML readers would turn a raw one into a line feed), a control
character ``_x0001_``.  Where the text itself holds what reads as an escape, its underscore is
escaped: the text ``_x0041_`` is written ``_x005F_x0041_``.  Office escapes a line feed and a
tab only in attributes (MS-OI29500 2.1.1747), where XML would turn them into spaces.  Word's
``w:t`` has no such escapes.

A carriage return in an element's text is written as XML's own reference, ``&#13;`` (lxml writes
it so), which keeps it from a reader's line-end handling as ``_x000D_`` does: Excel and LibreOffice
read either, but openpyxl and pandas read no escape but ``_x005F_``, and showed a cell
``A man in a red shirt_x000D_`` then a line ``is playing the guitar.``, as openpyxl wrote it
``&#13;``.  A character XML cannot hold at all (a control character) has no reference, and is escaped.

Any text element (Word's ``w:t``, DrawingML's ``a:t``, a cell's ``<t>``, a comment's plain
``text``) may hold XML comments and processing instructions, in a file edited by hand or written
by a tool: ``<a:t>A man <!-- ok --> cooks.</a:t>``.  To lxml ``A man `` is the element's text and
`` cooks.`` the comment's tail; Office and LibreOffice show "A man cooks.", and so does text_in.
Read as the element's text alone, the words after the comment were lost, and an element that began
with one read as empty (its paragraph left untranslated).
"""

from __future__ import annotations

import re

from lxml import etree

# A surrogate pair's two escapes (one character), or one escape.
ESCAPE = re.compile(r"_x([Dd][89ABab][0-9A-Fa-f]{2})__x([Dd][C-Fc-f][0-9A-Fa-f]{2})_|_x([0-9A-Fa-f]{4})_")
# The underscore of text that would read as an escape, and both of text that would read as a surrogate pair's
# two (unescaped, "_xD83D__xDE00_" read as the emoji); not of half a surrogate pair alone, which unescape
# leaves as it was written (_xD83D_ alone is no character) and which goes back the same.
HIGH, LOW = r"x[Dd][89ABab][0-9A-Fa-f]{2}_", r"x[Dd][C-Fc-f][0-9A-Fa-f]{2}_"
LITERAL = re.compile(rf"_(?={HIGH}_{LOW})|(?<=_{HIGH})_(?={LOW})"
                     r"|_(?=x(?![Dd][89A-Fa-f][0-9A-Fa-f]{2}_)[0-9A-Fa-f]{4}_)")
# What XML 1.0 cannot hold: the control characters but a tab and line breaks, the non-characters U+FFFE and
# U+FFFF (CONTROLS), and a surrogate (only alone: a pair is one character here).  An element's carriage return
# is written &#13; (the module docstring); an attribute's line breaks and tab are escaped, as Office escapes them.
CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff"
UNWRITABLE = f"{CONTROLS}\ud800-\udfff"
IN_TEXT = re.compile(f"[{UNWRITABLE}]")
IN_ATTRIBUTE = re.compile(f"[\t\n\r{UNWRITABLE}]")


def unescape(text: str) -> str:
    """``text`` as Excel shows it: every ``_xHHHH_`` the character it stands for (a surrogate pair,
    ``_xD83D__xDE00_``, one character).  A surrogate's escape without its other half stays as it
    is written: a lone surrogate is no character (it stopped the whole file where the sentence
    was encoded), and the text stays readable."""
    return ESCAPE.sub(character, text) if "_x" in text else text


def character(match: re.Match[str]) -> str:
    high, low, code = match.groups()
    if high:
        return chr(0x10000 + ((int(high, 16) - 0xD800) << 10) + int(low, 16) - 0xDC00)
    value = int(code, 16)
    return match.group() if 0xD800 <= value <= 0xDFFF else chr(value)


def escape(text: str, attribute: bool = False) -> str:
    """``text`` written as Excel writes it, in an element's text or (``attribute``) an attribute:
    the underscores that would begin an escape escaped first, then each character XML cannot hold."""
    text = LITERAL.sub("_x005F_", text)
    return (IN_ATTRIBUTE if attribute else IN_TEXT).sub(lambda match: f"_x{ord(match.group()):04X}_", text)


def text_in(element: etree._Element) -> str:
    """``element``'s characters as a reader sees them (the module docstring): its text and the tails
    of the comments and processing instructions in it, whose own text is no part of it."""
    return "".join(element.itertext())


def replace_text(element: etree._Element, text: str) -> None:
    """``element``'s characters made ``text``.  The comments and processing instructions in it are
    dropped: they stood between words that are no longer there, and their tails would be read again."""
    del element[:]
    element.text = text
