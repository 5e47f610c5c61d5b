"""Markers, not words: a note's reference or back link, a printed page's number, symbols alone,
told by an element's roles (EPUB's ``epub:type``, ARIA's ``role``) and by the text a reader sees of
it.  Kept whole, as atoms, they stay where they stood; read as words, the model would drop or move them.

attnmt.documents.elements asks these of an element (elements.is_marker, Vocabulary's page numbers);
the office files (ooxml, opendocument) ask is_marker_text of a run with a formatting of its own,
where there is no HTML element at all, and is_note_number of one set above the line; each format
asks is_reference of a link's text (HTML's ``<a>``, ODF's ``text:a``, Word's ``w:hyperlink``, a
slide's linked run).  Apart from elements because they read text and roles, not the names and
places of HTML's and XML's vocabulary."""

from __future__ import annotations

import re
from html.entities import name2codepoint

from lxml import etree

from attnmt.documents.shown import is_comment

EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"  # EPUB's epub:type, in an XHTML page
NOTE_TYPES = frozenset(("noteref", "backlink"))  # epub:type's, and ARIA's roles: a note's reference, its way back
NOTE_ROLES = frozenset(("doc-noteref", "doc-backlink"))
# A printed book's page numbers (identifiers, "xii", not words): a page break's (is_page_number).
PAGE_TYPES = frozenset(("pagebreak",))
PAGE_ROLES = frozenset(("doc-pagebreak",))
# A navigation page's list of pages, whose entries a page's number labels (is_page_label).
PAGE_LIST_TYPES = frozenset(("page-list",))
PAGE_LIST_ROLES = frozenset(("doc-pagelist",))
# A page's number as a list of pages labels it: digits, or Roman numerals (a preface's "xii", "XIV"), not a word
# of their letters ("mild", "civil").
PAGE_LABEL = re.compile(r"\d+|(?=.)m{0,3}(?:c[md]|d?c{0,3})(?:x[cl]|l?x{0,3})(?:i[xv]|v?i{0,3})", re.IGNORECASE)
ROMAN = re.compile(r"[ivxlc]+")  # a Roman numeral, in lower case: a note's label (is_link_label)
# A reference's numbers: "3", "12–14", "1, 4" (is_reference), in brackets or parentheses, or in superscript digits.
NUMBERS = r"\d+(?:\s*[,;–—-]\s*\d+)*"
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# Superscript digits ("¹²", "¹⁻³"): a reference's, and a note's number after a stop (attnmt.documents.sentences).
RAISED_NUMBERS = re.compile(rf"[{SUPERSCRIPTS}]+(?:[,⁻–-][{SUPERSCRIPTS}]+)*")
REFERENCE = re.compile(rf"\[{NUMBERS}\]|\({NUMBERS}\)|{RAISED_NUMBERS.pattern}")


def is_reference(text: str) -> bool:
    """Whether a link's ``text`` is a reference to a source or a note, numbers and no word: ``[3]``,
    ``(3)``, ``[12–14]``, ``[1, 4]``, ``³``, whatever the link's target.  Kept whole, as an atom,
    the link stays after the word it followed; as a mark, the model dropped the number and the link
    went onto a word near it ("runs <a>[3]</a> in the park": "rennt <a>im</a> Park")."""
    return REFERENCE.fullmatch(text.strip()) is not None


def is_note_number(text: str, before: str) -> bool:
    """Whether text an office file sets above the line (a Word run's ``w:vertAlign`` superscript or
    ``w:position`` above 0, an ODF span's ``style:text-position`` "super", a slide's ``baseline``
    above 0), whose ``text`` is what the model would read of it and ``before`` the character a
    reader sees before it ("" at its paragraph's start), is a note's number typed by hand, kept
    whole: numbers (``1``, ``12``, ``1, 4``) or a reference (is_reference: ``[3]``, ``³``) with no
    space before them, glued to a word (``book¹``) or to its sentence's stop (``park.¹²``).  As a
    mark, the model read "book1" as one word: the number was lost and the superscript went onto the
    word's translation, and "park.12 A woman" ended no sentence.  Kept whole, it stays after the word
    or stop it followed, and the text read, "park. A woman", ends the sentence where a reader sees
    it end.  An exponent (``m²``, ``10⁶``) is kept whole too, after its word.  An HTML page's
    ``<sup>`` glued to a word follows this rule too (elements.is_marker: ``book<sup>1</sup>``,
    ``m<sup>2</sup>``)."""
    glued = not text[:1].isspace() and not before.isspace()
    return glued and (re.fullmatch(NUMBERS, text.strip()) is not None or is_reference(text))


def is_symbols(text: str) -> bool:
    """Text of symbols alone, no letter or digit (``★``, ``»``, ``☐``, a symbol font's U+F04A)."""
    return bool(text.strip()) and not any(character.isalpha() or character.isdigit() for character in text)


def is_marker_text(text: str, before: str, after: str) -> bool:
    """Whether a run or span of an office file, of a formatting of its own, whose ``text`` is what
    the model would read of it, is kept whole, as elements.is_marker keeps an element: symbols
    alone, no letter or digit, standing apart from the words (``before`` and ``after``, the
    characters a reader sees beside it, are spaces or "" at an end, a tab or a break): a symbol
    font's smiley, a red ``★``, a check box's ``☐``.  Glued to a word it is read with it: a
    stop in ``19<b>.</b>99``, a slash in ``12<b>/</b>05``, ``Acme<sup>™</sup>``, a comma, a
    quotation mark; and so are digits, whatever their look."""
    return is_symbols(text) and (not before or before.isspace()) and (not after or after.isspace())


class ShownCharacters(dict[etree._Element, str]):
    """Each element's text with each entity reference HTML names as its character (``&dagger;``: "†",
    not the letters of its name), worked out once an element from its children's and kept: asked of
    every element of a chain of 500 nested <span>s, a walk of each one's whole text was quadratic.
    A walk with a stack of its own, not a call a level: a page may nest pages.MAX_DEPTH elements, and
    two frames a level took Python past its limit.  It holds a tree as it stood when asked: cleared
    before the tree changes (elements.Vocabulary.forget)."""

    def __missing__(self, node: etree._Element) -> str:
        pending = [node]
        while pending:
            item = pending[-1]
            unknown = [child for child in item if child not in self]
            if unknown:  # its children first, then it, from theirs
                pending += unknown
                continue
            pending.pop()
            self[item] = self.own(item)
        return self[node]

    def own(self, node: etree._Element) -> str:
        """What ``node`` shows, from what its children show (each already known)."""
        if isinstance(node, etree._Entity):
            return chr(name2codepoint[node.name]) if node.name in name2codepoint else node.text or ""
        if is_comment(node):  # a processing instruction too
            return ""
        return (node.text or "") + "".join(self[child] + (child.tail or "") for child in node)


def is_note_link(node: etree._Element) -> bool:
    """A note's reference or its back link, as EPUB (``epub:type="noteref"``, ``backlink``) or
    ARIA (``role="doc-noteref"``, ``doc-backlink``) names it."""
    return has_role(node, NOTE_TYPES, NOTE_ROLES)


def is_page_number(node: etree._Element) -> bool:
    """A printed page's number, kept with its attributes (``<span epub:type="pagebreak"
    title="xii"/>``, ``role="doc-pagebreak" aria-label="Page 13"``): an identifier, not words."""
    return has_role(node, PAGE_TYPES, PAGE_ROLES)


def is_page_label(node: etree._Element, shown: str) -> bool:
    """Whether an entry of an EPUB navigation page's list of pages (``<nav epub:type="page-list">``,
    ``role="doc-pagelist"``), whose text a reader sees is ``shown``, is a printed page's number (PAGE_LABEL:
    ``<a href="one.xhtml#p12">12</a>``, ``xii``), kept with its link.  The rest of the list is words, translated as
    the table of contents' and the landmarks' are: its heading ("Pages" stayed English under the table of
    contents' translated one) and an entry in words ("Page 13")."""
    return (PAGE_LABEL.fullmatch(shown.strip()) is not None
            and any(has_role(above, PAGE_LIST_TYPES, PAGE_LIST_ROLES) for above in node.iterancestors()))


def has_role(node: etree._Element, types: frozenset[str], roles: frozenset[str]) -> bool:
    """Whether an element's ``epub:type`` has one of ``types`` or its ARIA ``role`` one of ``roles``."""
    if is_comment(node):
        return False
    said = f"{node.get(EPUB_TYPE, '')} {node.get('epub:type', '')}".split()  # XHTML's attribute; HTML's name
    return bool(types.intersection(said) or roles.intersection(node.get("role", "").split()))


def is_short_label(text: str) -> bool:
    """A marker's label that has letters: in brackets (``[i]``, ``[a]``), one character (``a``, ``B``),
    or two or three lower-case ones (``ii``, ``xiv``); "Top" and "Go", words, are not."""
    return (text.startswith("[") and text.endswith("]")) or len(text) == 1 or (len(text) <= 3 and text.islower())


def is_link_label(text: str) -> bool:
    """A note's label on a plain link (no note role): in brackets, one character or a Roman numeral
    (``[a]``, ``a``, ``iv``); "see", "no", "old", which are words, are not."""
    return (text.startswith("[") and text.endswith("]")) or len(text) == 1 or ROMAN.fullmatch(text) is not None
