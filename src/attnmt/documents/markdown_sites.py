"""Docs sites' Markdown beyond CommonMark and GitHub's, as attnmt.documents.markdown reads it.

    site_lines(lines)                        -> the lines markdown-it reads, site syntax set apart, and its lines
    templates(md)                            -> md reading Hugo, Liquid and Jinja tags as atoms
    kept_end(content)                        -> how many characters at a run's end are kept after it
    trimmed(region, lines, start, end)       -> a run's Region without the characters kept at its ends

MkDocs (Material), Python-Markdown, Docusaurus, VuePress, Hugo, Jekyll and MDX add syntax that
CommonMark reads as prose. A line that is only such syntax (``:::tip``, ``:::``, ``!!! note "Title"``,
``??? tip``, ``=== "Tab"``, ``--8<-- "file.md"``, ``[TOC]``, ``*[HTML]: ...``, an MDX import or export,
a template tag ``{% ... %}``, ``{{< ... >}}``, ``{{% ... %}}``, an MDX comment ``{/* ... */}``) is read
as a blank line, so that it is kept byte for byte (but for a title on it: attnmt.documents.markdown_titles)
and does not join the paragraph next to it, in a block quote too (``> !!! note``, ``> :::tip``: a quote's markers
are kept, and its syntax read behind them). The indented body of an admonition
or a content tab is read dedented, as the site reads it, so that its text is translated rather than
kept as an indented code block; so are a footnote definition's (``[^1]:``) further paragraphs, 4 spaces
under its label, as GitHub reads them. A definition's ``:   `` is read as a list item's ``-   ``, so that the
term and its definition are two texts. Nothing inside a fenced or indented code block (4 spaces beyond
the body or list item a line is in) is read this way. An MDX statement is read only in JavaScript's
forms, at column 0 and a block's start, going on while a ``{`` or ``(`` it opened is open, never past
a blank line; a ``--8<--`` line opens a block only of the file names right under it; ``{{ ... }}`` and
``{% ... %}`` are read on one line, so that a lone ``{{`` in prose is text. Code or a comment between
template tags (``{% highlight ruby %}`` ... ``{% endhighlight %}``: CODE_TAG) is kept whole, as a fence's.

The lines themselves are never changed: attnmt.documents.markdown finds each run's text on the
source lines, and writes only its translation there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from attnmt.documents.markdown_github import FOOTNOTE_DEFINITION, kept_rule
from attnmt.documents.markdown_text import Region

__all__ = ["attributes_after", "kept_end", "site_lines", "templates", "trimmed"]

FENCE = re.compile(r"(`{3,}|~{3,})")
# A line that is only a site's syntax (its indentation stripped), kept whole.
SYNTAX = re.compile(
    r"(?::{3,}[ \t]*(?:[\w{\[].*)?"  # a container: :::tip, :::note[Title], ::: warning, :::
    r"|(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\".*\")?"  # an admonition: !!! note "Title"
    r"|===[!+]?[ \t]+\".*\""  # a content tab: === "Tab" (a title's last quote ends it, as the sites read it)
    r"|/{3,}(?:[ \t]*[\w-]+(?:[ \t]*\|.*)?)?"  # a block of pymdownx.blocks: /// note | Title, closed by ///
    r"|-+8<-+(?:[ \t].*)?"  # a snippet: --8<-- "file.md", or the line opening or closing a block of them
    r"|\[TOC\]|\[\[_TOC_\]\]"  # a table of contents
    r"|\*\[[^\]]+\]:.*"  # an abbreviation: *[HTML]: Hyper Text Markup Language
    r"|\{%.*%\}|\{\{<.*>\}\}|\{\{%.*%\}\}"  # a template tag alone on its line
    r"|\{/\*.*\*/\})[ \t]*")  # an MDX comment: {/* ... */}
# A line's block quote markers (``> ``, ``>> ``), each with the space after it: site syntax inside a quote is read as
# outside one (``> !!! note``, ``> :::tip``), where the quote's paragraph took it and the list under it as its text.
QUOTE = re.compile(r"(?:[ ]{0,3}>[ ]?)*")
BODIED = re.compile(r"(?:!!!|\?\?\?|===)")  # an admonition's or content tab's body is indented under it
# A template tag alone on its line that opens code or a comment, kept whole up to its end tag (a Liquid tag's name
# after "end", a Hugo shortcode's after "/"): Jekyll's {% highlight ruby %} ... {% endhighlight %} and {% comment %},
# Octopress' {% codeblock %}, Hugo's {{< highlight go >}} ... {{< /highlight >}} and themes' {{< code >}}, whose code
# went to the model a paragraph a time.
CODE_TAG = re.compile(r"\{%-?[ \t]*(?P<liquid>highlight|codeblock|comment)\b.*%\}"
                      r"|\{\{[<%][ \t]*(?P<hugo>highlight|code)\b.*[>%]\}\}")
MYST = re.compile(r":{3,}[ \t]*\{[\w-]+\}.*")  # a MyST directive's first line: its :options: follow it
MYST_OPTION = re.compile(r":[\w-]+:(?:[ \t].*)?")  # :class: tip
BLOCK = re.compile(r"/{3,}[ \t]*[\w-]+.*")  # a pymdownx block's first line: its options may be indented under it
SNIPPETS = re.compile(r"-+8<-+[ \t]*")  # the line opening or closing a block of snippets' file names
SNIPPET = re.compile(r"\S+")  # a file name in that block (pymdownx's ``;name`` one left out)
# An MDX import or export statement, in the forms JavaScript writes them; a line ending with a { or (
# still open goes on over the next lines until it closes.
NAME = r"[A-Za-z_$][\w$]*"
SOURCE = r"[ \t]*from[ \t]*(?:\"[^\"\n]*\"|'[^'\n]*')"  # from "./x" or from './x'
END = r"[ \t]*;?[ \t]*"
MDX = re.compile(
    rf"import[ \t]*(?:\"[^\"\n]*\"|'[^'\n]*'){END}"  # import "./style.css"
    rf"|import[ \t]+(?:{NAME}|(?:{NAME}[ \t]*,[ \t]*)?(?:\{{[\w$, \t]*\}}|\*[ \t]*as[ \t]+{NAME})){SOURCE}{END}"
    rf"|import[ \t]+(?:{NAME}[ \t]*,[ \t]*)?\{{[\w$, \t]*"  # import {A, (its names going on below)
    rf"|export[ \t]+default[ \t]+{NAME}(?:\.{NAME})*{END}"  # export default Layout;
    rf"|export[ \t]+(?:default[ \t]+)?(?:async[ \t]+)?function\b[ \t]*\*?[ \t]*(?:{NAME})?[ \t]*\(.*"
    rf"|export[ \t]+(?:default[ \t]+)?class(?:[ \t]+{NAME})?(?:[ \t]+extends[ \t]+{NAME}(?:\.{NAME})*)?[ \t]*\{{.*"
    rf"|export[ \t]+default[ \t]+(?:async[ \t]+)?\([^()\n]*\)[ \t]*=>.*"  # export default ({children}) => ...
    rf"|export[ \t]+default[ \t]+\{{[ \t]*"  # export default { (an object going on below)
    rf"|export[ \t]+(?:const|let|var)[ \t]+(?:{NAME}|\{{[^{{}}\n]*\}}|\[[^\[\]\n]*\])[ \t]*=(?!=).*"
    rf"|export[ \t]*\{{[\w$, \t]*\}}(?:{SOURCE})?{END}|export[ \t]*\{{[\w$, \t]*"  # export {a, b}
    rf"|export[ \t]*\*(?:[ \t]*as[ \t]+{NAME})?{SOURCE}{END}")  # export * from "./x"
DEFINITION = re.compile(r"( {0,3}):(?=[ \t]+\S)")  # a definition list's ``:   definition``
ITEM = re.compile(r"(?:[-+*:]|\d{1,9}[.)])(?:[ \t]+|$)")  # a list item's or definition's marker, spaces after
# What a heading's or paragraph's text ends with that is kept after its translation: a heading's id or an attribute
# list ({#install}, {: #id .cls}, {.cls}), or a backslash, which at a block's end is no hard break but itself
# (CommonMark), and as the translation's last character came back escaped, doubled ("end\\").
KEPT_END = re.compile(r"(?:\s*(?<!\{)\{(?::[^{}\n]*|[ \t]*[#.][^{}\n]*)\}|(?<!\\)\\)$")
# An MDX expression in text (``{props.name}``, ``{new Date().getFullYear()}``, braces nested twice): JavaScript the
# page runs, where MDX reads every "{" as one. Read as prose, the model translated it ("{props.name}" came back
# "Kurfern").
MDX_EXPRESSION = re.compile(r"\{[^{}]*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}")
# Hugo's shortcodes and MDX's comments ({/* ... */}, whose text, escaped as prose, was no JavaScript), which may run
# over lines, and Liquid's and Jinja's tags and output, on one line as their engines' authors write them (a lone
# ``{{`` in prose is not one), read as atoms kept whole.
TEMPLATE = re.compile(r"(?s:\{\{<.*?>\}\}|\{\{%.*?%\}\}|\{/\*.*?\*/\})|\{\{.*?\}\}|\{%.*?%\}")
# An attribute list right after an inline element (Python-Markdown's attr_list, as MkDocs Material writes it:
# [Start](start.md){ .md-button }, ![A](a.png){ width="300" }, :smile:{ .lg }), its every item an id, a class or a
# key=value: translated as prose, its class names and values came back changed ("{ .MD-BUTTON }"). Kept whole.
ATTRIBUTE = r"(?:[#.][\w-]+|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s{}\"']+))"
INLINE_ATTRIBUTES = re.compile(rf"\{{:?[ \t]*{ATTRIBUTE}(?:[ \t]+{ATTRIBUTE})*[ \t]*\}}")
# pymdownx.keys' keys (++ctrl+alt+del++, ++"My key"++): key names, not words, kept whole as a <kbd> is.
KEYS = re.compile(r"\+\+(?:[\w-]+|\"[^\"\n]*\")(?:\+(?:[\w-]+|\"[^\"\n]*\"))*\+\+")
# A link or image whose destination holds a template (``[the guide]({{< ref "guide.md" >}})``), which
# CommonMark does not read as one (its destination has spaces); its text ends at the first ``]``.
TEMPLATE_DESTINATION = r"\]\((?:\{\{.*?\}\}|\{%.*?%\})[^()\s]*(?:[ \t]+\"[^\"\n]*\")?\)"
TEMPLATE_LINK = re.compile(r"\[([^\[\]]*)" + TEMPLATE_DESTINATION)
TEMPLATE_IMAGE = re.compile(r"!\[[^\[\]]*" + TEMPLATE_DESTINATION)
ATTRIBUTE_LIST = kept_rule(INLINE_ATTRIBUTES, "{")


@dataclass(frozen=True)
class Options:
    """A pymdownx block's options (YAML) under its first line: the column they are indented to, at least."""

    column: int


Kept = int | str | Options | re.Pattern[str]  # what site_lines waits for a kept statement of lines to close at


def site_lines(lines: Sequence[str]) -> tuple[list[str], list[int]]:
    """``lines`` as markdown-it is to read them, one for one with their endings: a line of site syntax
    blank, an admonition's or tab's body dedented, a definition's ``:`` a ``-``; and the indexes of the
    lines of site syntax that may hold a title (not those of a kept statement, snippets or code). Site
    syntax is read only where CommonMark reads no indented code (under 4 spaces beyond the body the line
    is in), an MDX statement only at a block's start, at column 0, outside bodies."""
    read: list[str] = []
    syntax: list[int] = []
    bodies: list[int] = []  # the indentation of each admonition or tab body the line may be in
    fence = ""  # the open code fence's backticks or tildes
    # what a kept statement of lines waits for: its brackets' depth, "snippets", a block's Options or a code tag's
    # end tag
    kept: Kept | None = None
    item = 0  # the column the content of the list item a line outside bodies may be in starts at
    quoted = 0  # how many block quotes the open bodies and fence are in
    for line in lines:
        ending = line[len(line.rstrip("\r\n")):]
        found = QUOTE.match(line)
        quote = found.group() if found and not (fence and found.group().count(">") > quoted) else ""  # not a fence's
        if quote.count(">") != quoted and (line.strip(" >\r\n") or quote.count(">") < quoted):
            bodies, fence, quoted = [], "", quote.count(">")  # a quote entered or left: what was open is closed
        text = line[len(quote):len(line) - len(ending)]
        expanded = text.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip())
        while bodies and expanded.strip() and indent < bodies[-1]:
            bodies.pop()
        view = text if not bodies else expanded[bodies[-1]:] if expanded.strip() else ""  # a body's blank line: blank
        stripped, code = view.strip(), indent - (bodies[-1] if bodies else item) >= 4  # code: indented code's line
        within, kept = continued(kept, expanded) if kept is not None else (False, None)
        if stripped and not (within or fence or code or bodies):
            item = listed(stripped, indent, item, not read or not read[-1].strip())
        if within:
            view = ""
        elif fence:
            fence = "" if not code and stripped.startswith(fence) and not stripped.strip(fence[0]) else fence
        elif code:
            pass  # indented code, or a paragraph's line: as CommonMark reads it
        elif opened := FENCE.match(stripped):
            fence = opened.group()
        elif not bodies and not quote and MDX.fullmatch(view) and not (read and read[-1].strip()):
            kept, view = depth(view, 0), ""
        elif SYNTAX.fullmatch(syntax_line := stripped[len(marker := item_marker(stripped)):]):
            syntax.append(len(read))
            at = indent + len(marker.expandtabs(4))  # the syntax's column: after a list item's marker, its content's
            kept = ("snippets" if SNIPPETS.fullmatch(syntax_line) else Options(at + 4) if BLOCK.fullmatch(syntax_line)
                    else MYST_OPTION if MYST.fullmatch(syntax_line) else code_end(syntax_line))
            if BODIED.match(syntax_line):
                bodies.append(at + 4)
            view = view[:len(view) - len(view.lstrip()) + len(marker)].rstrip() if marker else ""
        elif FOOTNOTE_DEFINITION.match(stripped):  # its further paragraphs: indented 4 spaces under it, as GitHub's
            bodies.append(indent + 4)
        else:
            view = DEFINITION.sub(r"\1-", view, count=1) if DEFINITION.match(view) else view
        read.append(quote + view + ending)
    return read, syntax


def item_marker(stripped: str) -> str:
    """A list item's marker and the spaces after it before site syntax on its first line (``- :::tip``, ``1. !!! note``:
    the item holds the container, read as the syntax on a line of its own is), else ""."""
    found = ITEM.match(stripped)
    return found.group() if found and found.group()[0] != ":" and SYNTAX.fullmatch(stripped[found.end():]) else ""


def listed(stripped: str, indent: int, item: int, after_blank: bool) -> int:
    """The column the content of the list item a line (``stripped``, at ``indent``) is in starts at, where
    the last one's was ``item``: its own where it is an item, 0 where it leaves the list after a blank line."""
    if found := ITEM.match(stripped):
        return indent + len(found.group().expandtabs(4))
    return 0 if after_blank and indent < item else item


def code_end(stripped: str) -> re.Pattern[str] | None:
    """The end tag of the code or comment a template tag (``stripped``, a line alone) opens (CODE_TAG), or None."""
    found = CODE_TAG.fullmatch(stripped)
    if found is None:
        return None
    if found["liquid"]:
        return re.compile(rf"\{{%-?[ \t]*end{found['liquid']}[ \t]*-?%\}}")
    return re.compile(rf"\{{\{{[<%][ \t]*/[ \t]*{found['hugo']}[ \t]*[>%]\}}\}}")


def continued(kept: Kept, line: str) -> tuple[bool, Kept | None]:
    """Whether a line (its tabs expanded) is still part of the statement, snippets block, block's options
    or code ``kept`` waits to close, and what is waited for after it. Code goes on up to its end tag, which
    it takes; a blank line ends the others; a block of snippets ends at its closing ``--8<--`` or at the
    first line that is not a file name, a block's options (YAML, ``    type: warning``) at the first line
    not indented under its first line, a MyST directive's (``:class: tip``) at the first that is none; that
    line is read as any line."""
    stripped = line.strip()
    if kept is MYST_OPTION:  # a MyST directive's options, each on its own line
        return (True, kept) if MYST_OPTION.fullmatch(stripped) else (False, None)
    if isinstance(kept, re.Pattern):
        return True, None if kept.fullmatch(stripped) else kept
    if not stripped:
        return False, None
    if isinstance(kept, int):
        return True, depth(stripped, kept)
    if isinstance(kept, Options):
        return (True, kept) if len(line) - len(line.lstrip()) >= kept.column else (False, None)
    if SNIPPETS.fullmatch(stripped):
        return True, None
    return (True, kept) if SNIPPET.fullmatch(stripped) else (False, None)


def depth(text: str, before: int) -> int | None:
    """How deep in brackets a statement is after ``text`` (None where they are all closed)."""
    now = before + sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
    return now if now > 0 else None


def templates(md: MarkdownIt) -> MarkdownIt:
    """``md`` reading ``{{ ... }}``, ``{% ... %}``, ``{{< ... >}}``, ``{{% ... %}}``, ``{/* ... */}``, an attribute
    list glued to what it follows and keys (``++ctrl+c++``) as atoms kept whole, a link to a template as a link,
    and an image of one as an atom kept whole."""
    md.inline.ruler.before("link", "template", kept_rule(TEMPLATE, "{"))
    md.inline.ruler.before("link", "attributes", attribute_list)
    md.inline.ruler.before("link", "keys", kept_rule(KEYS, "+"))
    md.inline.ruler.before("link", "template_link", template_link)
    md.inline.ruler.before("image", "template_image", kept_rule(TEMPLATE_IMAGE, "!"))
    return md


def attribute_list(state: StateInline, silent: bool) -> bool:
    """An attribute list glued to what stands before it (INLINE_ATTRIBUTES), read as an atom kept whole."""
    return state.pos > 0 and not state.src[state.pos - 1].isspace() and ATTRIBUTE_LIST(state, silent)


def attributes_after(src: str, pos: int) -> int:
    """Where an attribute list starting at ``pos`` (INLINE_ATTRIBUTES: a link's or image's) ends; ``pos`` for none."""
    found = INLINE_ATTRIBUTES.match(src, pos)
    return found.end() if found is not None else pos


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


def kept_end(content: str) -> int:
    """How many characters at the end of a heading's or paragraph's ``content`` are kept after its translation
    (KEPT_END): its attribute list (``{#install}``, ``{: #id .cls}``, ``{.cls}``, with the space before it), or
    a last backslash."""
    found = KEPT_END.search(content)
    return len(found.group()) if found is not None else 0


def trimmed(region: Region, lines: Sequence[str], start: int, end: int, whole: int = 0) -> Region:
    """``region`` without the first ``start`` characters of its text and what its last ``end`` are
    (KEPT_END: an attribute list on its last line, or that line alone; a last backslash), so that they
    are kept around its translation; ``whole``: how many of its lines those ``start`` characters are,
    with their breaks (an alert's line), which are then left out whole."""
    spans, breaks = list(region.spans[whole:]), region.breaks[whole:]
    if start and not whole:
        first, begin, stop = spans[0]
        spans[0] = (first, begin + start, stop)
    if end:
        last, begin, stop = spans[-1]
        kept = KEPT_END.search(lines[last][:stop])
        stop -= len(kept.group().lstrip()) if kept else 0
        text = lines[last][begin:stop].rstrip()
        spans[-1:] = [(last, begin, begin + len(text))] if text else []
    return replace(region, spans=spans, breaks=breaks[:len(spans) - 1])
