"""Character references written in text that is not parsed as markup (``&amp;``, ``&#160;``, ``&mdash;``): a
subtitle cue's (attnmt.documents.cue_text) and a text line's that holds HTML's tags (attnmt.documents.text_tags).
They are read as the characters they stand for, which the model reads, and each character the text wrote so is
written so again in its translation.  Only whole references, with their ";" (``AT&T`` and ``&copy`` are text)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape

ENTITY = re.compile(r"&(?:#\d+|#x[\da-fA-F]+|[A-Za-z][A-Za-z\d]*);")  # a character reference: &amp;, &#160;, &#xa0;


def read_references(text: str) -> str:
    """``text`` with each of its whole references (``ENTITY``) read as what it stands for."""
    return ENTITY.sub(lambda match: unescape(match.group()), text)


def written_references(texts: Sequence[str]) -> dict[int, str]:
    """Each character ``texts`` wrote as a reference, mapped to the reference (the last written), as
    ``str.translate`` writes it again."""
    read = ((unescape(match.group()), match.group()) for text in texts for match in ENTITY.finditer(text))
    return {ord(character): written for character, written in read if len(character) == 1}
