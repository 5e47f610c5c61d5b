"""Character references written in text that is not parsed as markup (``&amp;``, ``&#160;``, ``&mdash;``): a
subtitle cue's (attnmt.documents.cue_text) and a text line's that holds HTML's tags (attnmt.documents.text_tags).
They are read as the characters they stand for, which the model reads, and each character the text wrote so is
written so again in its translation.  Only whole references, with their ";" (``AT&T`` and ``&copy`` are text).
What passes through untranslated (attnmt.decoding.protected: a URL, ``Tom &amp; Jerry``) is neither: it is written
back as it came, and the references in it say nothing of how the model's text is to be written."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape

ENTITY = re.compile(r"&(?:#\d+|#x[\da-fA-F]+|[A-Za-z][A-Za-z\d]*);")  # a character reference: &amp;, &#160;, &#xa0;


def read_references(text: str, protected: re.Pattern[str] | None = None) -> str:
    """``text`` with each of its whole references (``ENTITY``) read as what it stands for, but in what ``protected``
    finds, which is written as it came (a text line's ``AT&amp;T`` passes through so)."""
    if protected is None:
        return ENTITY.sub(lambda match: unescape(match.group()), text)
    position, pieces = 0, []
    for found in protected.finditer(text):
        pieces += [read_references(text[position:found.start()]), found[0]]
        position = found.end()
    return "".join([*pieces, read_references(text[position:])])


def written_references(texts: Sequence[str], protected: re.Pattern[str] | None = None) -> dict[int, str]:
    """Each character ``texts`` wrote as a reference outside what ``protected`` finds, mapped to the reference (the
    last written), as ``str.translate`` writes it again in the model's text: "Tom &amp; Jerry & friends", its name
    passed through as written, writes the "&" of "& friends" as it came, bare."""
    outside = (protected.sub(" ", text) if protected else text for text in texts)
    read = ((unescape(match.group()), match.group()) for text in outside for match in ENTITY.finditer(text))
    return {ord(character): written for character, written in read if len(character) == 1}
