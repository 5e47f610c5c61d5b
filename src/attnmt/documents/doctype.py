"""A document's DOCTYPE, kept byte for byte and never read as a DTD, and the XML entity references
it declares.

The parsers never see a DOCTYPE: its internal subset is where billion laughs and external
entities (XXE) would live, and libxml2's HTML parser does not read an internal subset at all
(it leaks its ``]>`` into the page).  An XML reference to an entity the DOCTYPE declares is
kept as it was, unexpanded; the parser is told only that the name exists (an empty
declaration of its own), so it keeps the reference where it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from attnmt.errors import DataError
from attnmt.text.xml_entities import check_entities, doctype_dtd

QUOTED = r'"[^"]*"|\'[^\']*\''
# A comment, up to the first "-->" and never past it, so a run of comments can be read one way only
# (a lazy "<!--.*?-->" inside a repeat backtracks exponentially in the number of comments).
COMMENT = r"<!--(?:[^-]|-(?!->))*-->"
# Its name and external id, then the internal subset: quoted strings and comments may hold "]" and ">".
# All that follows "<!DOCTYPE" is the DOCTYPE's, as HTML's tokenizer reads it: "<!DOCTYPEhtml>" too.
DOCTYPE = re.compile(rf"<!DOCTYPE(?P<id>(?:{QUOTED}|[^\[>\"'])*)"
                     rf"(?:\[(?P<subset>(?:{QUOTED}|{COMMENT}|<(?!!--)|[^\]\"'<])*)\])?\s*>",
                     re.IGNORECASE | re.DOTALL)
# XML's DOCTYPE: the keyword in capitals, a space, then the root element's name (where HTML's tokenizer
# takes "<!doctype html>" and "<!DOCTYPEhtml>" too).
XML_NAMED = re.compile(r"<!DOCTYPE\s+[^\s\[>\"']")
# A DOCTYPE's keyword as written, what follows it, and the root element's name, in any case.
KEYWORD_AND_NAME = re.compile(r"(<!DOCTYPE)(\s*)([^\s\[>\"']*)", re.IGNORECASE)
LEADING = re.compile(rf"\ufeff?(?:\s|{COMMENT}|<\?(?:[^?]|\?(?!>))*\?>)*")  # what may come before it
EXTERNAL = re.compile(r"\b(?:SYSTEM|PUBLIC)\b")
DECLARED = re.compile(r"<!ENTITY\s+([^\s%]+)")  # general entities ("%" starts a parameter entity's)
PREDEFINED = frozenset({"amp", "lt", "gt", "quot", "apos"})
REFERENCE = re.compile(r"&([^\W\d][\w.:-]*);")
# Where "&name;" is not a reference: comments, CDATA sections, processing instructions (opener: closer).
INERT = {"<!--": "-->", "<![CDATA[": "]]>", "<?": "?>"}
INERT_START = re.compile("|".join(re.escape(opener) for opener in INERT))
TAG = re.compile(r"<[^<>]*>")


@dataclass(frozen=True)
class Doctype:
    """The DOCTYPE as written, the general entities its internal subset declares, and whether it
    names a DTD outside (which may declare any entity)."""

    text: str = ""
    entities: frozenset[str] = frozenset()
    external: bool = False

    def declares(self, name: str) -> bool:
        return self.external or name in self.entities


def split_doctype(text: str) -> tuple[str, Doctype, str]:
    """(text before the DOCTYPE, the DOCTYPE, text after it) where ``text`` opens with one (after
    a byte order mark, spaces, comments or an XML declaration); else ("", Doctype(), text)."""
    match = DOCTYPE.match(text, LEADING.match(text).end())
    if match is None:
        return "", Doctype(), text
    subset = match.group("subset") or ""
    declared = frozenset(DECLARED.findall(blank_inert(subset)))
    doctype = Doctype(match.group(), declared, EXTERNAL.search(match.group("id")) is not None)
    return text[:match.start()], doctype, text[match.end():]


def xml_prolog(text: str) -> tuple[str, Doctype, str]:
    """(the prolog kept as written: an XML declaration and a DOCTYPE with what is around them,
    the DOCTYPE, the body to parse); the prolog is "" for a fragment that has neither."""
    before, doctype, after = split_doctype(text)
    if doctype.text:
        return before + doctype.text, doctype, after
    if text.lstrip("\ufeff").startswith("<?xml"):
        end = LEADING.match(text).end()
        return text[:end], doctype, text[end:]
    return "", doctype, text


def check_xml_doctype(prolog: str, doctype: Doctype, where: str, first_line: int | None) -> None:
    """DataError for an XML document's DOCTYPE (the end of ``prolog``, xml_prolog's) with no space
    and name after "<!DOCTYPE" (``<!DOCTYPEnote>``), or its keyword not in capitals (``<!doctype
    note>``; XML's names are case-sensitive): DOCTYPE takes either for one, as HTML's tokenizer
    does, but written back as it came it would make the output no XML.  An .xhtml page's
    ``<!doctype html>`` too: a browser reads an .xhtml file, and an EPUB reader its pages, as XML,
    and stops there.  An external entity it declares (``<!ENTITY ext SYSTEM "file:///etc/passwd">``) is
    refused too, never read (xml_entities.check_entities: one check of every XML input), where an internal
    one is kept, its references unexpanded.  ``first_line``: the prolog's first line in the file (None:
    ``where`` names it)."""
    at = at_line(prolog, len(prolog) - len(doctype.text), where, first_line)
    check_entities(doctype_dtd(doctype.text), at, keeps_internal=True)
    if doctype.text and XML_NAMED.match(doctype.text) is None:
        keyword, space, name = KEYWORD_AND_NAME.match(doctype.text).groups()
        fix = f' (write "<!DOCTYPE {name}")' if name else ""
        reason = ("XML's <!DOCTYPE is written in capitals" if keyword != "<!DOCTYPE" else
                  "<!DOCTYPE must be followed by a space and the root element's name")
        raise DataError(f"{at}: {keyword}{' ' if space else ''}{name} is not XML: {reason}{fix}")


def entity_declarations(body: str, doctype: Doctype, where: str, first_line: int | None) -> str:
    """A DOCTYPE for the parser that declares, empty, each entity ``body`` refers to, so that the
    references are kept as they are; DataError for one in an attribute value (where the parser
    would replace it), or one nothing declares.  ``first_line``: the body's first line in the
    file, to name the line (None: a fragment of one line)."""
    scanned = blank_inert(body)
    check_attribute_references(scanned, where, first_line)
    references = [m for m in REFERENCE.finditer(scanned) if m.group(1) not in PREDEFINED]
    for reference in references:
        if not doctype.declares(reference.group(1)):
            at = at_line(scanned, reference.start(), where, first_line)
            raise DataError(f"{at}: the entity &{reference.group(1)}; is declared nowhere (XML "
                            "itself knows only &amp; &lt; &gt; &quot; &apos;): declare it in a <!DOCTYPE> at the top, "
                            "or write its character or a character reference such as &#160;")
    if not references:
        return ""
    names = dict.fromkeys(reference.group(1) for reference in references)
    return "<!DOCTYPE x [" + "".join(f'<!ENTITY {name} "">' for name in names) + "]>"


def check_attribute_references(scanned: str, where: str, first_line: int | None) -> None:
    """DataError for a reference to an entity other than XML's own in an attribute value of
    ``scanned`` (a text blank_inert has blanked): the parser keeps none there unexpanded, and with
    no DTD read it would drop it (``class="x&nbsp;y"`` read as "xy").  An EPUB's pages are checked
    so too (attnmt.documents.archive.parse_part)."""
    for tag in TAG.finditer(scanned):
        named = [m.group(1) for m in REFERENCE.finditer(tag.group()) if m.group(1) not in PREDEFINED]
        if named:
            raise DataError(f"{at_line(scanned, tag.start(), where, first_line)}: the entity &{named[0]}; is in an "
                            "attribute value, where it cannot be kept unexpanded: write its text there instead")


def at_line(scanned: str, position: int, where: str, first_line: int | None) -> str:
    """``where``, and the line of ``position`` in a text that starts on ``first_line`` (None: one line)."""
    return where if first_line is None else f"{where}, line {first_line + scanned.count(chr(10), 0, position)}"


def blank_inert(text: str) -> str:
    """``text`` with its comments, CDATA sections and processing instructions blanked, their line
    breaks kept; one not closed runs to the end, as for the parser.  (A regular expression with
    a lazy ``.*?`` would read to the end once for every opener never closed.)"""
    out, position = [], 0
    while (opened := INERT_START.search(text, position)) is not None:
        closer = INERT[opened.group()]
        end = text.find(closer, opened.end())
        end = len(text) if end < 0 else end + len(closer)
        out += [text[position:opened.start()], "\n" * text.count("\n", opened.start(), end)]
        position = end
    return "".join([*out, text[position:]])
