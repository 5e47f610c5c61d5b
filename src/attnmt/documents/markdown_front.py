"""A Markdown page's front matter: the values a docs site shows as text (FRONT_KEYS: its title,
description, summary, a sidebar's label), translated; every other byte of it kept.

Jekyll, Hugo, MkDocs and Docusaurus show a page's ``title:`` in its heading, the browser's tab
and the site's navigation, and its ``description:`` in search results: left in the source, a
translated page kept its English title.  Only a key at the front matter's top level (not
indented) with its value on its own line is read, as YAML (``---``) or TOML (``+++``) writes it:
a plain YAML scalar (``title: Getting started``), or a string in double or single quotes
(``title: "A \\"quoted\\" word"``, ``title: 'It''s here'``; TOML's ``title = "…"`` and
``'…'``), or a folded block scalar (``description: >-`` over indented lines, written back as one line of
them).  A value of another form (a literal block ``|``, a list, a plain scalar with a comment
``#`` or one a reader would take for another type), or with an escape other than a quote's or a
backslash's, is kept as it is.  The translation is written in the value's own quoting, or, where
a plain scalar's translation would read otherwise (``: `` or a leading ``-`` in it), in double
quotes; a single-quoted TOML value whose translation holds a quote in double quotes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from lxml import etree

from attnmt.decoding.glossary import Glossary
from attnmt.documents.elements import Vocabulary
from attnmt.documents.markdown_text import Region, body, one_line
from attnmt.documents.markup import TreeJob
from attnmt.documents.pages import parse
from attnmt.documents.pipeline import DocumentOptions

# Front matter: YAML's (---, closed by --- or ...) or TOML's (+++), from the very first line.
FRONT_MATTER = {"---": ("---", "..."), "+++": ("+++",)}
FRONT_KEYS = frozenset({"title", "description", "summary", "subtitle", "excerpt", "sidebar_label", "linkTitle"})
# A top-level key and its value on one line: YAML's "key: value", TOML's "key = value".
YAML_LINE = re.compile(r"(?P<key>[A-Za-z_][\w-]*)[ \t]*:[ \t]+(?P<value>\S.*?)[ \t]*")
TOML_LINE = re.compile(r"(?P<key>[A-Za-z_][\w-]*)[ \t]*=[ \t]*(?P<value>\S.*?)[ \t]*")
DOUBLE = re.compile(r'"((?:[^"\\]|\\["\\])*)"')  # a double-quoted string whose escapes are a quote's or a backslash's
SINGLE_YAML = re.compile(r"'((?:[^']|'')*)'")
SINGLE_TOML = re.compile(r"'([^'\n]*)'")
# How a plain YAML scalar may not start (an indicator), and what it may not hold, to be read as text.
INDICATORS = tuple("-?:,[]{}#&*!|>'\"%@`")
PLAIN_BREAKERS = re.compile(r":\s|\s#|:$")
# Plain values a YAML reader takes for another type than a string: a truth value, null, a number, a date.
FOLDED = frozenset({">", ">-", ">+"})  # a folded block scalar's header: its lines are read as one, with spaces
OTHER_TYPES = re.compile(r"(?i:true|false|yes|no|on|off|null|~)|[-+]?[\d._]+(?:e[-+]?\d+)?|\d{4}-\d\d-\d\d.*")


@dataclass
class FrontValue:
    """One value to translate: where it stands, its text, how it was quoted (``"``, ``'`` or none)
    and whether the front matter is TOML; ``holder``: its fragment, translated in place by ``job``."""

    region: Region
    text: str
    quote: str
    toml: bool
    job: TreeJob
    holder: etree._Element

    def written(self) -> str:
        """The translated value, quoted as the source's was where the translation allows it."""
        text = one_line(self.holder)
        if self.quote == ">":  # a folded block's: one line of it, read as the lines it folds were
            return text
        if self.quote == "'" and not (self.toml and "'" in text):
            return "'" + (text if self.toml else text.replace("'", "''")) + "'"
        if self.quote or (self.toml or text.startswith(INDICATORS) or PLAIN_BREAKERS.search(text)
                          or OTHER_TYPES.fullmatch(text)):
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return text


def front_matter_lines(lines: Sequence[str]) -> int:
    """How many lines the front matter takes (0 without one): a first line ``---`` (or ``+++``)
    up to its closing line, either with spaces or tabs after it, as Jekyll reads them."""
    if not lines or lines[0].rstrip() not in FRONT_MATTER:
        return 0
    closing = FRONT_MATTER[lines[0].rstrip()]
    return next((i + 1 for i, line in enumerate(lines[1:], start=1) if line.rstrip() in closing), 0)


def front_values(lines: Sequence[str], skipped: int, vocabulary: Vocabulary, options: DocumentOptions,
                 glossary: Glossary | None, where: str, job_type: type[TreeJob]) -> list[FrontValue]:
    """The values of FRONT_KEYS in the front matter, ``lines[1:skipped - 1]`` (its marker lines
    aside), each with a job (of ``job_type``) where it has words to translate."""
    toml = bool(lines) and lines[0].startswith("+++")
    found = []
    for index in range(1, max(skipped - 1, 1)):
        line = body(lines[index])
        match = (TOML_LINE if toml else YAML_LINE).fullmatch(line)
        if match is None or match["key"] not in FRONT_KEYS:
            continue
        folded = folded_lines(lines, index, skipped - 1) if not toml and match["value"] in FOLDED else None
        value = (" ".join(body(line).strip() for line in lines[folded[0]:folded[1]]), ">") if folded \
            else read_value(match["value"], toml)
        if value is None:
            continue
        text, quote = value
        page = parse(f"<p>{escape(text, quote=False)}</p>", False, f"{where}, line {index + 1}")
        if page is None:
            continue
        job = job_type(page.root, vocabulary, options, glossary)
        if job.flats():
            region = Region([(index, match.start("value"), match.end("value"))] if folded is None else
                            [(folded[0], len(lines[folded[0]]) - len(lines[folded[0]].lstrip()), 0),
                             (folded[1] - 1, 0, len(body(lines[folded[1] - 1])))])
            found.append(FrontValue(region, text, quote, toml, job, page.root))
    return found


def folded_lines(lines: Sequence[str], index: int, end: int) -> tuple[int, int] | None:
    """[first, last) of the lines of the folded block scalar whose key stands on ``lines[index]``
    (``description: >-``): the indented lines under it before ``end``, the front matter's closing
    line; None for none, or for one with a blank line inside, which folds into a line break."""
    last = index + 1
    while last < end and body(lines[last])[:1] in (" ", "\t", ""):
        last += 1
    while last > index + 1 and not body(lines[last - 1]).strip():
        last -= 1
    inside = lines[index + 1:last]
    return (index + 1, last) if inside and all(body(line).strip() for line in inside) else None


def read_value(written: str, toml: bool) -> tuple[str, str] | None:
    """The text of a value as written, and its quote; None for a value of another form (module docstring)."""
    if (match := DOUBLE.fullmatch(written)) is not None:
        return re.sub(r"\\([\"\\])", r"\1", match[1]), '"'
    if (match := (SINGLE_TOML if toml else SINGLE_YAML).fullmatch(written)) is not None:
        return (match[1] if toml else match[1].replace("''", "'")), "'"
    if toml or written.startswith(INDICATORS) or PLAIN_BREAKERS.search(written) or OTHER_TYPES.fullmatch(written):
        return None
    return written, ""
