"""The characters an HTML page writes as named references (``&mdash;``, ``&copy;``, ``Caf&eacute;``,
``10&nbsp;km``), written back so in the page's text.

libxml2's parser reads a reference as its character and its writer writes the character itself:
a page kept ASCII by its CMS (or a template whose author typed ``&nbsp;`` to be seen) came back with
its references gone, in its translated text and in the text left as it was alike.  A character the
page writes only as one named reference, never as itself nor as another reference, is written as that
reference again wherever it stands in the written page's text or in a quoted value of a tag's
attribute (``title="Caf&eacute;"``): not in a comment, a script or a style (raw text, which reads
no reference), nor elsewhere in a tag.
``&amp;``, ``&lt;`` and ``&gt;`` the writer writes as they were; ``&quot;`` and ``&apos;``, which text
needs not, are left to it."""

from __future__ import annotations

import re
from html.entities import html5

REFERENCE = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
WRITTEN_BY_THE_WRITER = frozenset("&<>\"'")
# What of a written page holds no text a reference may stand in: a comment, a script or style (or an
# obsolete raw text element) with its content, a DOCTYPE, an instruction; and a tag (group 2), but the quoted
# values of its attributes (VALUE).
NOT_TEXT = re.compile(r"<!--.*?-->|<(script|style|xmp|plaintext|noembed|noframes)\b.*?</\1\s*>|<[!?][^>]*>"
                      r"|(<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>)", re.DOTALL | re.IGNORECASE)
VALUE = re.compile(r"\"[^\"]*\"|'[^']*'")


def named_characters(text: str) -> dict[str, str]:
    """Each character that ``text`` (a page as it came) writes only as one named reference, and never
    as itself or another reference, with that reference (``"—": "&mdash;"``)."""
    names: dict[str, set[str]] = {}
    for found in REFERENCE.finditer(text):
        character = html5.get(f"{found.group(1)};")
        if character is not None and len(character) == 1 and character not in WRITTEN_BY_THE_WRITER:
            names.setdefault(character, set()).add(found.group())
    return {character: written for character, (written, *others) in names.items()
            if not others and character not in text and f"&#{ord(character)};" not in text
            and f"&#x{ord(character):x};" not in text.lower()}


def named_again(written: str, names: dict[str, str]) -> str:
    """A written page with each character of ``names`` (named_characters) in its text written as the
    page named it."""
    if not names:
        return written
    characters = re.compile("|".join(map(re.escape, names)))

    def named(text: str) -> str:
        return characters.sub(lambda found: names[found.group()], text)

    parts, position = [], 0
    for other in NOT_TEXT.finditer(written):
        tag = other.group(2) and VALUE.sub(lambda value: named(value.group()), other.group())
        parts += [named(written[position:other.start()]), tag or other.group()]
        position = other.end()
    parts.append(named(written[position:]))
    return "".join(parts)
