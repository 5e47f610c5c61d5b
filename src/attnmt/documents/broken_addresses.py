"""A URL, an e-mail address or a path that a page breaks with ``<wbr>`` (``https://example.com/very<wbr>/long<wbr>/path``,
as a long address in running text is written, for a narrow screen to break it there), kept whole as one is unbroken.

Its first piece is protected text (attnmt.decoding.protected), an atom put back as written; but the pieces after each
break were words to the model, which read ``Visit https://example.com/very<wbr>/long<wbr>/path today.`` as "Visit
/long/path today.", translated the path's words and moved the breaks off the address.  A piece glued after a
protected piece's break, no space between, goes on that address, and is kept whole as a literal atom too."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from attnmt.documents.flat import FlatBuilder

PIECE = re.compile(r"[^\s<>\"'`]+")  # what an address may go on with after its break
CLOSING = ".,;:!?)]}\"'"  # what ends the sentence or the brackets around an address, not the address itself


def continued_address(builder: FlatBuilder, text: str) -> int:
    """How many characters at the start of ``text`` go on an address: those of its first word (PIECE), but for the
    punctuation that closes it (CLOSING), where ``text`` is added right after a ``<wbr>`` that itself follows a
    protected piece, no space and no element between them; else 0."""
    piece = PIECE.match(text)
    if len(builder.marks) < 2 or piece is None:
        return 0
    here, (before, wbr) = len(builder.text), builder.marks[-2:]
    if not (before.atom and before.literal and before.start == here and wbr.atom and wbr.start == here
            and isinstance(getattr(wbr.node, "tag", None), str) and wbr.node.tag.rpartition("}")[2].lower() == "wbr"):
        return 0
    return len(piece.group().rstrip(CLOSING))
