"""Docs sites' Markdown beyond CommonMark and GitHub's, as attnmt.documents.markdown reads it.

    site_lines(lines)                        -> the lines markdown-it reads, site syntax set apart
    templates(md)                            -> md reading Hugo, Liquid and Jinja tags as atoms
    attribute_list_end(content)              -> how many characters at a run's end are an attribute list
    trimmed(region, lines, start, end)       -> a run's Region without the characters kept at its ends

MkDocs (Material), Python-Markdown, Docusaurus, VuePress, Hugo, Jekyll and MDX add syntax that
CommonMark reads as prose. A line that is only such syntax (``:::tip``, ``:::``, ``!!! note "Title"``,
``??? tip``, ``=== "Tab"``, ``--8<-- "file.md"``, ``[TOC]``, ``*[HTML]: ...``, an MDX import or export,
a template tag ``{% ... %}``, ``{{< ... >}}``, ``{{% ... %}}``) is read as a blank line, so that it is
kept byte for byte and does not join the paragraph next to it. The indented body of an admonition
or a content tab is read dedented, as the site reads it, so that its text is translated rather than
kept as an indented code block. A definition's ``:   `` is read as a list item's ``-   ``, so that the
term and its definition are two texts. Nothing inside a fenced code block is read this way.

The lines themselves are never changed: attnmt.documents.markdown finds each run's text on the
source lines, and writes only its translation there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from attnmt.documents.markdown_github import kept_rule
from attnmt.documents.markdown_text import Region

__all__ = ["attribute_list_end", "site_lines", "templates", "trimmed"]

FENCE = re.compile(r"(`{3,}|~{3,})")
# A line that is only a site's syntax (its indentation stripped), kept whole.
SYNTAX = re.compile(
    r"(?::{3,}[ \t]*(?:[\w{\[].*)?"  # a container: :::tip, :::note[Title], ::: warning, :::
    r"|(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"[^\"]*\")?"  # an admonition: !!! note "Title"
    r"|===[!+]?[ \t]+\"[^\"]*\""  # a content tab: === "Tab"
    r"|-+8<-+(?:[ \t].*)?"  # a snippet: --8<-- "file.md", or the line opening or closing a block of them
    r"|\[TOC\]|\[\[_TOC_\]\]"  # a table of contents
    r"|\*\[[^\]]+\]:.*"  # an abbreviation: *[HTML]: Hyper Text Markup Language
    r"|\{%.*%\}|\{\{<.*>\}\}|\{\{%.*%\}\})[ \t]*")  # a template tag alone on its line
BODIED = re.compile(r"(?:!!!|\?\?\?|===)")  # an admonition's or content tab's body is indented under it
SNIPPETS = re.compile(r"-+8<-+[ \t]*")  # a block of snippets' file names, up to the next such line
# An MDX import or export statement; it goes on over the next lines while its brackets are open.
MDX = re.compile(r"import[ \t]+(?:[\"'{*]|[\w$]+[ \t]*(?:,|from[ \t\"']))"
                 r"|export[ \t]+(?:default|const|let|var|function|class|async|\{|\*)")
DEFINITION = re.compile(r"( {0,3}):(?=[ \t]+\S)")  # a definition list's ``:   definition``
# A heading's id or an attribute list at a heading's or paragraph's end: {#install}, {: #id .cls}, {.cls}.
ATTRIBUTES = re.compile(r"\s*(?<!\{)\{(?::[^{}\n]*|[ \t]*[#.][^{}\n]*)\}$")
# Hugo's shortcodes, Liquid's and Jinja's tags and output, read as atoms kept whole.
TEMPLATE = re.compile(r"\{\{<.*?>\}\}|\{\{%.*?%\}\}|\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)
# A link or image whose destination holds a template (``[the guide]({{< ref "guide.md" >}})``), which
# CommonMark does not read as one (its destination has spaces); its text ends at the first ``]``.
TEMPLATE_DESTINATION = r"\]\((?:\{\{.*?\}\}|\{%.*?%\})[^()\s]*(?:[ \t]+\"[^\"\n]*\")?\)"
TEMPLATE_LINK = re.compile(r"\[([^\[\]]*)" + TEMPLATE_DESTINATION)
TEMPLATE_IMAGE = re.compile(r"!\[[^\[\]]*" + TEMPLATE_DESTINATION)


def site_lines(lines: Sequence[str]) -> list[str]:
    """``lines`` as markdown-it is to read them, one for one with their endings: a line of site syntax
    blank, an admonition's or tab's body dedented, a definition's ``:`` a ``-``."""
    read: list[str] = []
    bodies: list[int] = []  # the indentation of each admonition or tab body the line may be in
    fence = ""  # the open code fence's backticks or tildes
    kept: int | str | None = None  # what a kept statement of lines waits for: its brackets' depth, or "snippets"
    for line in lines:
        text = line.rstrip("\r\n")
        ending = line[len(text):]
        expanded = text.expandtabs(4) if bodies else text
        indent = len(expanded) - len(expanded.lstrip())
        while bodies and expanded.strip() and indent < bodies[-1]:
            bodies.pop()
        view = text if not bodies else expanded[bodies[-1]:] if expanded.strip() else ""  # a body's blank line: blank
        stripped = view.strip()
        if fence:
            fence = "" if stripped.startswith(fence) and not stripped.strip(fence[0]) else fence
        elif kept is not None:
            if isinstance(kept, int):
                kept = depth(stripped, kept)
            elif SNIPPETS.fullmatch(stripped):
                kept = None
            view = ""
        elif opened := FENCE.match(stripped):
            fence = opened.group()
        elif SYNTAX.fullmatch(stripped) or (MDX.match(view) and not bodies):
            kept = "snippets" if SNIPPETS.fullmatch(stripped) else None
            kept = depth(stripped, 0) if MDX.match(view) and not bodies else kept
            if BODIED.match(stripped):
                bodies.append(len(view) - len(view.lstrip()) + (bodies[-1] if bodies else 0) + 4)
            view = ""
        else:
            view = DEFINITION.sub(r"\1-", view, count=1) if DEFINITION.match(view) else view
        read.append(view + ending)
    return read


def depth(text: str, before: int) -> int | None:
    """How deep in brackets a statement is after ``text`` (None where they are all closed)."""
    now = before + sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
    return now if now > 0 else None


def templates(md: MarkdownIt) -> MarkdownIt:
    """``md`` reading ``{{ ... }}``, ``{% ... %}``, ``{{< ... >}}`` and ``{{% ... %}}`` as atoms kept whole,
    a link to a template as a link, and an image of one as an atom kept whole."""
    md.inline.ruler.before("link", "template", kept_rule(TEMPLATE, "{"))
    md.inline.ruler.before("link", "template_link", template_link)
    md.inline.ruler.before("image", "template_image", kept_rule(TEMPLATE_IMAGE, "!"))
    return md


def template_link(state: StateInline, silent: bool) -> bool:
    """A link whose destination holds a template, read as markdown-it reads a link, with the source
    and tail attnmt.documents.markdown records for one (``meta["source"]``, ``meta["tail"]``)."""
    found = TEMPLATE_LINK.match(state.src, state.pos) if state.src[state.pos] == "[" else None
    if found is None or state.linkLevel:
        return False
    if not silent:
        maximum, state.pos, state.posMax = state.posMax, found.start(1), found.end(1)
        token = state.push("link_open", "a", 1)
        token.meta.update(source=found.group(), tail=state.src[found.end(1):found.end()])
        state.linkLevel += 1
        state.md.inline.tokenize(state)
        state.linkLevel -= 1
        state.push("link_close", "a", -1)
        state.posMax = maximum
    state.pos = found.end()
    return True


def attribute_list_end(content: str) -> int:
    """How many characters at the end of a heading's or paragraph's ``content`` are its attribute list
    (``{#install}``, ``{: #id .cls}``, ``{.cls}``, with the space before it), kept after its translation."""
    found = ATTRIBUTES.search(content)
    return len(found.group()) if found is not None else 0


def trimmed(region: Region, lines: Sequence[str], start: int, end: int, whole: int = 0) -> Region:
    """``region`` without the first ``start`` characters of its text and the attribute list of its last
    ``end`` (on its last line, or that line alone), so that they are kept around its translation;
    ``whole``: how many of its lines those ``start`` characters are, with their breaks (an alert's
    line), which are then left out whole."""
    spans, breaks = list(region.spans[whole:]), region.breaks[whole:]
    if start and not whole:
        first, begin, stop = spans[0]
        spans[0] = (first, begin + start, stop)
    if end:
        last, begin, stop = spans[-1]
        attributes = ATTRIBUTES.search(lines[last][:stop])
        stop -= len(attributes.group().lstrip()) if attributes else 0
        text = lines[last][begin:stop].rstrip()
        spans[-1:] = [(last, begin, begin + len(text))] if text else []
    return replace(region, spans=spans, breaks=breaks[:len(spans) - 1])
