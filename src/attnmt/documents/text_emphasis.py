"""Markdown's emphasis and links in a line of plain text (``**bold**``, ``*italic*``, ``~~struck~~``, ``[the
docs](https://example.com)``), as a chat message, an issue or a README pasted into a textarea writes them: read as
an inline element around its words, as a terminal's colour is (attnmt.documents.terminal_codes.Style), its marks
(a link's brackets and its target after them, kept as written) around the translation of the words they wrapped.
Given to the model, the marks were lost: "**A dog** runs in the park." came back "Ein flauschiger Hund rennt im
Park." from the demo model, and "See [the docs](https://example.com) for more." "Ein(https://example.com) Dema...".

A mark opens where a word starts after it and closes after a word with the same mark, neither inside a word
(``a*b*c``, ``2 * 3 * 4`` and a list's ``* `` are no emphasis); underscores only around words with a space
between them (``_very good_``), as ``__init__`` and ``my_var_name`` are a program's names.  Marks inside code or
a URL are the protected text's (attnmt.decoding.protected), not emphasis."""

from __future__ import annotations

import re
from collections.abc import Callable

from attnmt.documents.flat import FlatBuilder
from attnmt.documents.terminal_codes import Style

# A link or an image, its text (group "label", with a letter or digit) between its brackets, its target and title
# after them (group "close"): "[the docs](https://example.com)", "![a dog](dog.png \"Rex\")"; not glued after a
# word, as code indexes and calls ("a[0](x)").
LINK = re.compile(r"(?<![\w\]])(?P<open>!?\[)(?P<label>[^\[\]\t\n]*[^\W_][^\[\]\t\n]*)"
                  r"(?P<close>\]\([^()\s]+(?:[ \t]+\"[^\"\n]*\")?\))")
EMPHASIS = re.compile(r"(?<![\w*~\\])(?P<mark>\*\*|\*|~~)(?=[^\s*~])(?P<inner>[^\t\n]*?[^\s\\*~])(?P=mark)(?![\w*~])"
                      r"|(?<![\w\\])(?P<under>__|_)(?=[^\s_])(?P<spaced>[^\t\n_]*?\s[^\t\n_]*?[^\s\\_])(?P=under)"
                      r"(?!\w)")
MARKED = re.compile(f"{LINK.pattern}|{EMPHASIS.pattern}")


def add_emphasized(builder: FlatBuilder, text: str, add_text: Callable[[FlatBuilder, str], None]) -> None:
    """``text``, a piece of a text line, into ``builder`` by ``add_text``, each link and emphasis of it (``LINK``,
    ``EMPHASIS``) an element around its words, written back with its marks around their translation."""
    position = 0
    for found in MARKED.finditer(text):
        if found["open"]:
            opening, inner, closing = found["open"], found["label"], found["close"]
        else:
            opening, inner = (found["mark"], found["inner"]) if found["mark"] else (found["under"], found["spaced"])
            closing = opening
        add_text(builder, text[position:found.start()])
        builder.open(Style(opening, closing))
        add_emphasized(builder, inner, add_text)
        builder.close()
        position = found.end()
    add_text(builder, text[position:])
