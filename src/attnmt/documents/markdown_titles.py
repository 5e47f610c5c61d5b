"""The titles docs sites write in their syntax, found to be translated, every byte around them kept.

    syntax_titles(lines, syntax)       -> where each title on a line of site syntax stands
    summaries(lines, tokens, ...)      -> each one-line ``<summary>`` of an HTML block, as a job to translate
    html_blocks(lines, tokens, ...)    -> each HTML block written as HTML writes it, as a job to translate

A docs page's admonitions, containers and tabs are titled on their syntax lines, which
attnmt.documents.markdown_sites reads as blank: MkDocs' ``!!! note "Read this first"``, ``??? tip
"Title"`` and ``???+``, pymdownx's tabs (``=== "Linux"``) and blocks (``/// details | Title``; not
``/// html | div``'s tag), Docusaurus' ``:::tip[Title]`` and ``:::tip Title`` (VuePress's ``:::
details Title``), MyST's ``:::{admonition} Title``. Kept with their lines, a translated page showed
English titles. The title alone is translated, as Markdown (the sites render its emphasis and code);
its keyword, quotes, brackets and an attribute list after it are kept byte for byte. A GitHub (or
Obsidian) alert's title, ``> [!TIP] Title``, is found by attnmt.documents.markdown_github.alert_title.
A ``<summary>`` in an HTML block (``<details><summary>Title</summary>``) is HTML, and is translated and
written as HTML; so is a whole HTML block that holds words (``<div class="note">\nText\n</div>``, a README's
``<p align="center">``, MDX's ``<Tabs>``) where its HTML is written back byte for byte untranslated
(html_blocks): one the parser would repair or write otherwise (an element left open for the Markdown after
it, ``<br/>``, an unquoted ``{value}``) is kept, and only its summaries are translated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from attnmt.decoding.glossary import Glossary
from attnmt.documents.elements import Vocabulary
from attnmt.documents.markdown_text import Region, body
from attnmt.documents.markup import TreeJob
from attnmt.documents.pages import Parsed, check_depth, parse, parse_html
from attnmt.documents.pipeline import DocumentOptions

__all__ = ["Summary", "html_blocks", "summaries", "syntax_titles"]

ATTRIBUTES = r"(?:[ \t]*\{[^{}\n]*\})?[ \t]*"  # an attribute list after a container's title, kept
# A line's block quote markers, indentation and list item marker: a quoted admonition, or one an item opens with,
# has a title too.
QUOTED = r"(?:[ ]{0,3}>)*[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?"
TITLED = (
    re.compile(QUOTED + r"(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*[ \t]+\"(?P<title>.*)\"[ \t]*"),  # !!! note "T"
    re.compile(QUOTED + r"===[!+]?[ \t]+\"(?P<title>.*)\"[ \t]*"),  # === "Tab"
    re.compile(QUOTED + r":{3,}[ \t]*[\w-]+\[(?P<title>.*)\]" + ATTRIBUTES),  # :::tip[Title]
    re.compile(QUOTED + r":{3,}[ \t]*[\w-]+[ \t]+(?P<title>[^\s{].*?)" + ATTRIBUTES),  # :::tip Title
    re.compile(QUOTED + r":{3,}[ \t]*\{[\w-]+\}[ \t]+(?P<title>.+?)[ \t]*"),  # MyST's :::{admonition} Title
    re.compile(QUOTED + r"/{3,}[ \t]*(?!html\b)[\w-]+[ \t]*\|[ \t]*(?P<title>.+?)[ \t]*"),  # /// note | Title, not html
)
# A <summary> and its content on one line of an HTML block (the content holds no other summary).
SUMMARY = re.compile(r"<summary(?:\s[^<>]*)?>(?P<title>(?:(?!</?summary)[^\n])*?)</summary\s*>", re.IGNORECASE)


def syntax_titles(lines: Sequence[str], syntax: Sequence[int]) -> list[tuple[int, int, int]]:
    """(line, start, end) of the title on each line of site syntax (``syntax``: their indexes in ``lines``,
    markdown_sites.site_lines'), where it has words."""
    found = []
    for index in syntax:
        match = next((m for m in (pattern.fullmatch(body(lines[index])) for pattern in TITLED) if m is not None), None)
        if match is not None and match["title"].strip():
            start = match.start("title") + len(match["title"]) - len(match["title"].lstrip())
            found.append((index, start, match.start("title") + len(match["title"].rstrip())))
    return found


@dataclass
class Summary:
    """A ``<summary>``'s content to translate: where it stands, and its fragment, translated in place by ``job``."""

    region: Region
    job: TreeJob
    parsed: Parsed
    crlf: bool = False  # its lines end in CRLF, read as LF (an HTML block's: html_blocks)

    def written(self) -> str:
        text = self.parsed.serialise(None)
        return text.replace("\n", "\r\n") if self.crlf else text


def summaries(lines: Sequence[str], tokens: Sequence[Token], vocabulary: Vocabulary, options: DocumentOptions,
              glossary: Glossary | None, where: str, job_type: type[TreeJob]) -> list[Summary]:
    """Each ``<summary>`` on a line of an HTML block whose content has words, with a job (of ``job_type``)."""
    found = []
    for token in tokens:
        if token.type != "html_block" or token.map is None:
            continue
        for index in range(*token.map):
            for match in SUMMARY.finditer(body(lines[index])):
                parsed = parse(match["title"], False, f"{where}, line {index + 1}") if match["title"].strip() else None
                job = job_type(parsed.root, vocabulary, options, glossary) if parsed is not None else None
                if parsed is not None and job is not None and job.flats():
                    found.append(Summary(Region([(index, match.start("title"), match.end("title"))]), job, parsed))
    return found


def html_blocks(lines: Sequence[str], tokens: Sequence[Token], vocabulary: Vocabulary, options: DocumentOptions,
                glossary: Glossary | None, where: str, job_type: type[TreeJob]) -> list[Summary]:
    """Each HTML block outside a list or a blockquote (its lines as markdown-it reads them) that holds words to
    translate and that the HTML writer writes back byte for byte, with a job (of ``job_type``) for all of it."""
    found = []
    for token in tokens:
        if token.type != "html_block" or token.map is None or token.level:
            continue
        first, end = token.map
        read = [body(line) for line in lines[first:end]]
        if read != token.content.rstrip("\n").split("\n"):
            continue
        text = "".join(lines[first:end - 1]) + read[-1]
        crlf = all(line.endswith("\r\n") for line in lines[first:end - 1]) and end - first > 1
        text = text.replace("\r\n", "\n") if crlf else text  # as the parser reads it
        parsed, parser, _ = parse_html(text)
        if parsed is None or parsed.document or parsed.serialise(None) != text:
            continue  # repaired or written otherwise: kept as it is (its summaries are still translated)
        check_depth(parsed.root, parser, f"{where}, line {first + 1}")
        job = job_type(parsed.root, vocabulary, options, glossary)
        if job.flats():
            found.append(Summary(Region([(first, 0, len(read[0])), (end - 1, 0, len(read[-1]))]), job, parsed, crlf))
    return found
