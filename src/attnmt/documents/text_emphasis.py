"""Markdown's emphasis in a line of plain text (``**bold**``, ``*italic*``, ``~~struck~~``), as a chat message, an
issue or a README pasted into a textarea writes it: read as an inline element around its words, as a terminal's
colour is (attnmt.documents.terminal_codes.Style), its marks written around the translation of the words they
wrapped.  Given to the model, the marks were lost: "**A dog** runs in the park." came back "Ein flauschiger Hund
rennt im Park." from the demo model.

A mark opens where a word starts after it and closes after a word with the same mark, neither inside a word
(``a*b*c``, ``2 * 3 * 4`` and a list's ``* `` are no emphasis); underscores only around words with a space
between them (``_very good_``), as ``__init__`` and ``my_var_name`` are a program's names.  Marks inside code or
a URL are the protected text's (attnmt.decoding.protected), not emphasis."""

from __future__ import annotations

import re
from collections.abc import Callable

from attnmt.documents.flat import FlatBuilder
from attnmt.documents.terminal_codes import Style

EMPHASIS = re.compile(r"(?<![\w*~\\])(?P<mark>\*\*|\*|~~)(?=[^\s*~])(?P<inner>[^\t\n]*?[^\s\\*~])(?P=mark)(?![\w*~])"
                      r"|(?<![\w\\])(?P<under>__|_)(?=[^\s_])(?P<spaced>[^\t\n_]*?\s[^\t\n_]*?[^\s\\_])(?P=under)"
                      r"(?!\w)")


def add_emphasized(builder: FlatBuilder, text: str, add_text: Callable[[FlatBuilder, str], None]) -> None:
    """``text``, a piece of a text line, into ``builder`` by ``add_text``, each emphasis of it (``EMPHASIS``) an
    element around its words, written back with its marks around their translation."""
    position = 0
    for found in EMPHASIS.finditer(text):
        mark, inner = (found["mark"], found["inner"]) if found["mark"] else (found["under"], found["spaced"])
        add_text(builder, text[position:found.start()])
        builder.open(Style(mark, mark))
        add_emphasized(builder, inner, add_text)
        builder.close()
        position = found.end()
    add_text(builder, text[position:])
