"""The separator between a caption's number and its text, read apart from both: "Figure <number>: A black dog
jumps." is three pieces, the label, the number with its separator, and the caption's text.

Word's Insert Caption writes the number as a SEQ field (attnmt.documents.fields.numbers_caption), LibreOffice's
as a ``text:sequence`` field (opendocument_vocabulary); either ends the sentence of the label before it.  Read
with the caption's text, the separator after the number was lost to the model: ": A black dog jumps." came back
"Ein schwarzer Hund springt."  Alone, it has no letter to translate, and stays where it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import takewhile

from lxml import etree

from attnmt.documents.flat import FlatBuilder

# What Insert Caption writes between a caption's number and its text: a colon, a full stop, a hyphen, an en or em
# dash, with the spaces around it ("Figure 1: A dog.", "Table 2. Prices", "Figure 3-1 – A market").
CAPTION_SEPARATOR = re.compile(r"\s*[:.\-\u2013\u2014]\s+")


def after_caption_number(builder: FlatBuilder, text: str, numbers: Callable[[etree._Element], bool]) -> str:
    """``text`` without the caption's separator it starts with (CAPTION_SEPARATOR), where it follows a caption's
    number with only atoms and spaces since the sentence's last break (a bookmark's end around "Figure 1" too,
    LibreOffice's ``<text:s/>`` before " – "), one of those atoms an element that ``numbers`` says is or holds the
    number; that separator added to ``builder`` before a break of its own.  ``text`` as it is elsewhere."""
    at = builder.breaks[-1] if builder.breaks else -1
    found = CAPTION_SEPARATOR.match(builder.text[at:] + text) if at >= 0 else None
    if found is None or builder.text[at:].strip() or found.end() <= len(builder.text) - at:
        return text
    atoms = takewhile(lambda mark: mark.atom and mark.start == at, reversed(builder.marks))
    if not any(isinstance(atom.node, etree._Element) and numbers(atom.node) for atom in atoms):  # not a literal's
        return text
    taken = found.end() - (len(builder.text) - at)
    builder.add_text(text[:taken])
    builder.breaks.append(len(builder.text))
    return text[taken:]
