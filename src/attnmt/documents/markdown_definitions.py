"""A reference definition's title, ``[guide]: https://x.org "Install guide"``: the tooltip of every link to
it, translated as a link's own title is (attnmt.documents.markdown_link_titles), the definition's other bytes
kept.  Only a top-level definition written on one line is read; one in a list or a blockquote, or whose title
runs over lines, is kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape, unescape
from typing import Any

from lxml import etree
from markdown_it.common.utils import normalizeReference
from markdown_it.token import Token

from attnmt.documents.markdown_link_titles import escaped_title
from attnmt.documents.markdown_text import Region, body, one_line
from attnmt.documents.markup import TreeJob
from attnmt.documents.pages import parse

# A reference definition on one line with a title: its label, and its title with its delimiters.
DEFINITION = re.compile(r" {0,3}\[(?P<label>(?:[^\]\\]|\\.)+)\]:[ \t]*(?:<[^<>\n]*>|[^\s<]\S*)[ \t]+"
                        r"(?P<title>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))[ \t]*")


@dataclass
class DefinitionTitle:
    """A reference definition's title (``[guide]: https://x.org "Install guide"``), the tooltip of every
    link to it: where its text stands, the text as written, its closing delimiter, and ``holder``, its
    fragment, translated in place by ``job``."""

    region: Region
    source: str
    delimiter: str
    job: TreeJob
    holder: etree._Element

    def written(self) -> str:
        """The translated title, escaped for its delimiters; as written where the translation left it so."""
        text = one_line(self.holder)
        return self.source if text == unescaped(self.source) else escaped_title(text, self.delimiter)


def unescaped(title: str) -> str:
    """A title's text as a reader gets it: its backslash escapes and character references read."""
    return unescape(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", title))


def definition_titles(lines: Sequence[str], tokens: Sequence[Token], references: Mapping[str, Any],
                      skipped: int, job: Callable[[etree._Element], TreeJob], where: str) -> list[DefinitionTitle]:
    """The title of each top-level reference definition on one line (one markdown-it read: its label in
    ``references``, on a line no block of ``tokens`` holds), with a ``job`` where it has words to translate;
    one in a list or a blockquote, or over lines, is kept."""
    held = {line for token in tokens if token.map and token.level == 0 for line in range(*token.map)}
    found = []
    for index in range(skipped, len(lines)):
        match = DEFINITION.fullmatch(body(lines[index])) if index not in held else None
        if match is None or normalizeReference(match["label"]) not in references:
            continue
        source = match["title"][1:-1]  # between its delimiters
        page = parse(f"<p>{escape(unescaped(source), quote=False)}</p>", False, f"{where}, line {index + 1}")
        translated = job(page.root) if page is not None else None
        if page is not None and translated is not None and translated.flats():
            region = Region([(index, match.start("title") + 1, match.end("title") - 1)])
            found.append(DefinitionTitle(region, source, match["title"][-1], translated, page.root))
    return found
