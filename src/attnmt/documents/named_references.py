"""The characters an HTML or XML page writes as references (``&mdash;``, ``&copy;``, ``Caf&eacute;``,
``10&nbsp;km``, ``&#169;``, ``&#x2014;``), written back so in the page's text.

libxml2's parser reads a reference as its character and its writer writes the character itself:
a page kept ASCII by its CMS (or a template whose author typed ``&nbsp;`` to be seen, an XLIFF file's
``&#169;``) came back with its references gone, in its translated text and in the text left as it was
alike.  A character the page writes as a reference is written again as the page wrote it, wherever it
stands in the written page's text or in a quoted value of a tag's attribute (``title="Caf&eacute;"``):
not in a comment, a CDATA section, a script or a style (raw text, which reads no reference), nor
elsewhere in a tag.  Where the page wrote it in one form alone, every copy takes that form (the
translation's too); where in several (``&copy;`` once and ``©`` once), each copy takes the form of the
one in its place, counted in order, where the written page has as many copies as the page had (a
translation that added or dropped one leaves the writer's, as no copy's form is known then).
``&amp;``, ``&lt;`` and ``&gt;`` the writer writes as they were; ``&quot;`` and ``&apos;``, which text
needs not, are left to it, and so is what is printable in ASCII (``&#65;``): that is plain text, whose
every copy the reference would replace.  XML reads numeric references alone: its named ones are its
DTD's entities (attnmt.documents.doctype)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.entities import html5
from unicodedata import category

REFERENCE = re.compile(r"&(?:([A-Za-z][A-Za-z0-9]*)|#([0-9]{1,7})|#[xX]([0-9A-Fa-f]{1,6}));")
# What of a written page holds no text a reference may stand in: a comment, a CDATA section, a script or
# style (or an obsolete raw text element) with its content, a DOCTYPE, an instruction; and a tag (group 2),
# but the quoted values of its attributes (VALUE).
NOT_TEXT = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<(script|style|xmp|plaintext|noembed|noframes)\b.*?</\1\s*>"
                      r"|<[!?][^>]*>|(<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>)", re.DOTALL | re.IGNORECASE)
VALUE = re.compile(r"\"[^\"]*\"|'[^']*'")


def referenced(found: re.Match[str], xml: bool = False) -> str:
    """The character a REFERENCE match stands for; "" for one of more characters, an unknown name, or
    (in ``xml``) any name."""
    name, decimal, hexadecimal = found.groups()
    if name is not None:
        return "" if xml else html5.get(f"{name};", "")
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    return chr(code) if code <= 0x10FFFF else ""


def kept_character(character: str) -> bool:
    """Whether a reference to ``character`` is written back: not one of ASCII, nor a control character, a
    surrogate or a noncharacter (page_writer.held_value writes the controls, as XML can hold none)."""
    return len(character) == 1 and not character.isascii() and category(character) not in ("Cc", "Cs", "Cn")


def texts_of(written: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each stretch of ``written`` that is text or a tag's quoted value, in order."""
    position = 0
    for other in NOT_TEXT.finditer(written):
        yield position, other.start()
        if other.group(2):
            yield from ((other.start() + value.start(), other.start() + value.end())
                        for value in VALUE.finditer(other.group()))
        position = other.end()
    yield position, len(written)


def occurrences(written: str, characters: str, xml: bool) -> Iterator[tuple[re.Match[str], str]]:
    """(the match, its character) for each of ``characters``, written as itself or as a reference,
    in the text of ``written`` (texts_of), in order."""
    found = re.compile(f"{REFERENCE.pattern}|[{re.escape(characters)}]")
    for start, end in texts_of(written):
        for match in found.finditer(written, start, end):
            character = match.group() if len(match.group()) == 1 else referenced(match, xml)
            if character and character in characters:
                yield match, character


def reference_forms(text: str, xml: bool = False) -> dict[str, list[str]]:
    """Each character that ``text`` (a page as it came; an XML one after its DOCTYPE) writes as a
    reference at least once, with the forms it writes it in, in order (``"—": ["&mdash;", "—"]``)."""
    characters = {referenced(found, xml) for start, end in texts_of(text)
                  for found in REFERENCE.finditer(text, start, end)}
    kept = "".join(sorted(character for character in characters if kept_character(character)))
    forms: dict[str, list[str]] = {}
    if kept:
        for match, character in occurrences(text, kept, xml):
            forms.setdefault(character, []).append(match.group())
    return forms


def referenced_again(written: str, forms: dict[str, list[str]], xml: bool = False) -> str:
    """A written page with each character of ``forms`` (reference_forms) in its text written as the page
    wrote it: in its one form, or in the form of the copy in its place (see the module's note)."""
    if not forms:
        return written
    characters = "".join(forms)
    found = list(occurrences(written, characters, xml))
    counts = {character: sum(1 for _, seen in found if seen == character) for character in forms}
    # each copy's form: a character's one form; the next of its forms, where the count agrees; else as written
    ahead = {character: iter(each if len(set(each)) > 1 and counts[character] == len(each) else [])
             for character, each in forms.items()}
    one = {character: each[0] for character, each in forms.items() if len(set(each)) == 1}
    parts, position = [], 0
    for match, character in found:
        parts += [written[position:match.start()], one.get(character) or next(ahead[character], match.group())]
        position = match.end()
    parts.append(written[position:])
    return "".join(parts)
