"""Markdown (CommonMark with GitHub's additions), translated block by block, everything else kept byte for byte.

    translate_markdown(text, translator, options)  -> the translated Markdown

Why markdown-it-py: it follows CommonMark exactly, in pure Python, and gives each block's lines
(``Token.map``), which is what lets everything around the translated text be copied from the
source: list markers, indentation, ``>``, table pipes, heading markers, blank lines, line endings.

Each inline run (a paragraph's, a heading's, a table cell's) is read as an HTML fragment and
translated by attnmt.documents.markup's TreeJob, so that its formatting is carried by alignment as
a page's is: emphasis, strong emphasis and strikethrough are ``<em>``, ``<strong>`` and ``<s>`` marks,
a link an ``<a>`` mark, as is an inline HTML element whose start and end tags are in the run
(``<a href="…">the guide</a>``, ``<b>``, ``<span>``: attnmt.documents.markdown_html; ``<kbd>`` and ``<code>`` are kept
whole, as on a page), code spans, autolinks, other inline HTML, footnote references, emoji codes, math and
hard breaks atoms kept as they are (a hard break and inline HTML's ``<br>`` read as a line break), an image an
``<img>`` whose alt text is translated.  Each element carries the number of the Markdown it
stands for (``data-md``), and is written back with that Markdown's own delimiters (``*`` or ``_``,
``**`` or ``__``), link destination, title or reference label (attnmt.documents.markdown_text).
A paragraph's lines are one text for the model, and its translation is written as one line.

Kept as they are: code blocks (fenced and indented), front matter (YAML's ``---`` or TOML's
``+++`` at the very start) but for its title and description (attnmt.documents.markdown_front),
reference definitions (but for a title: attnmt.documents.markdown_definitions), HTML blocks and comments (but
for the words of an HTML block that HTML's writer writes back byte for byte:
attnmt.documents.markdown_titles.html_blocks), thematic breaks.
Docs sites' syntax (admonitions, containers, tabs, heading ids and attribute lists, template tags,
MDX imports) is kept too, with the text inside it translated (attnmt.documents.markdown_sites), its
titles and an HTML block's ``<summary>`` too (attnmt.documents.markdown_titles).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from typing import Any

from lxml import etree
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline, autolink, backtick, image, link
from markdown_it.token import Token

from attnmt.decoding.glossary import Glossary
from attnmt.decoding.protected import PROSE_PROTECTED
from attnmt.documents.markdown_commands import commands
from attnmt.documents.markdown_definitions import DefinitionTitle, definition_titles
from attnmt.documents.markdown_front import FrontValue, front_matter_lines, front_values
from attnmt.documents.markdown_github import alert_title, github, kept_rule, kept_start
from attnmt.documents.markdown_html import INLINE_BREAK, MarkdownVocabulary, html_name, html_pairs, read_attributes
from attnmt.documents.markdown_link_titles import link_title, titled
from attnmt.documents.markdown_names import python_names
from attnmt.documents.markdown_sites import MDX_EXPRESSION, attributes_after, kept_end, site_lines, templates, trimmed
from attnmt.documents.markdown_text import (
    Mark,
    Region,
    all_replaced,
    cell_spans,
    escaped_line_start,
    line_spans,
    source_references,
    written,
)
from attnmt.documents.markdown_titles import Summary, html_blocks, summaries, syntax_titles
from attnmt.documents.markup import TreeJob, translate_trees
from attnmt.documents.page_writer import CONTROL  # what lxml cannot set in a fragment's text
from attnmt.documents.pages import MAX_DEPTH, parse
from attnmt.documents.pipeline import DEFAULT_OPTIONS, DocumentOptions, translator_glossary
from attnmt.documents.review import Review
from attnmt.documents.translators import Translator
from attnmt.errors import DataError, warn

__all__ = ["translate_markdown"]

LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # a line with its ending, as CommonMark ends lines
# the element each mark is read as
MARKS = {"em_open": "em", "strong_open": "strong", "s_open": "s", "mark_open": "mark", "link_open": "a"}
# Printable ASCII without letters, and its spacing: a run's text of these alone, nested shallowly, holds nothing to
# translate without glossary terms, and its fragment is one lxml neither refuses nor repairs (nothing_to_translate).
NO_LETTERS = re.compile(r"[\t\n\r -@\[-`{-~]*")


class MarkdownJob(TreeJob):
    """A TreeJob for one inline run: its fragment says no language (Markdown has no place for one)."""

    states_language = False


@dataclass
class Run:
    """One inline run to translate: where it stands in the source, its fragment's job, its marks."""

    region: Region
    job: MarkdownJob
    holder: etree._Element  # the fragment's parsed holder, changed in place by the job
    marks: list[Mark]
    kind: str  # "paragraph", "heading", "cell" or "title": what its translation must not start or end with
    line_start: bool = False  # each of its lines is where a block could start: a paragraph's, a setext heading's
    references: dict[str, str] = field(default_factory=dict)  # markdown_text.source_references of its source


def recording(rule: Callable[[StateInline, bool], bool], kind: str,
              label: int | None = None) -> Callable[[StateInline, bool], bool]:
    """``rule``, and on its success, the source it read on the token it opened (``meta["source"]``),
    and for a link or image (whose ``[`` is ``label`` characters in), the part from the end of its
    text (``meta["tail"]``: ``](url "title")``, ``][label]``, ``]`` for a shortcut reference), which
    markdown-it's tokens do not keep."""

    def read(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            token = next((t for t in state.tokens[count:] if t.type == kind), None)
            if token is None:  # a backtick string without its closer: read as text, no token opened
                return True
            if label is not None:  # a link's or image's attribute list is its own, written with it (markdown_sites)
                state.pos = attributes_after(state.src, state.pos)
            token.meta["source"] = state.src[start:state.pos]
            if label is not None:  # the text ends where the rule found it: a link's cannot hold a link
                end = state.md.helpers.parseLinkLabel(state, start + label, kind == "link_open")
                token.meta["tail"] = state.src[end:state.pos]
        return True

    return read


def markdown_parser(mdx: bool = False) -> MarkdownIt:
    """CommonMark with GitHub's tables, strikethrough, footnote references and emoji codes
    (attnmt.documents.markdown_github), docs sites' template tags (attnmt.documents.markdown_sites), its
    link, image, code span and autolink rules recording their source; in ``mdx``, without indented code,
    as MDX reads it (text indented in a JSX component, ``<TabItem>\n\n    Text``, is a paragraph), and
    with each expression in text (``{props.name}``) an atom kept whole."""
    md = commands(templates(python_names(github(MarkdownIt("commonmark").enable("table")))))
    if mdx:
        md.disable("code").inline.ruler.before("link", "expression", kept_rule(MDX_EXPRESSION, "{"))
    for name, rule, kind, label in (("link", link, "link_open", 0), ("image", image, "image", 1),
                                    ("backticks", backtick, "code_inline", None),
                                    ("autolink", autolink, "link_open", None)):
        md.inline.ruler.at(name, recording(rule, kind, label))
    return md


def split_lines(text: str) -> list[str]:
    """The text's lines, each with its own ending ("" for a last line without one)."""
    return LINE.findall(text)


def inline_runs(tokens: Sequence[Token]) -> list[tuple[str, Token, Token, int]]:
    """(kind, the block's opening token, its inline token, a cell's column) for each inline run: a
    paragraph's, a heading's (ATX or setext), a table cell's."""
    found = []
    column = 0
    for before, token in zip(tokens, tokens[1:], strict=False):
        column = 0 if token.type == "tr_open" else column
        if token.type == "inline":
            kind = {"paragraph_open": "paragraph", "heading_open": "heading"}.get(before.type, "cell")
            found.append((kind, before, token, column))
            column += kind == "cell"
    return found


def start_line(inline: Token) -> int:
    """The index of the line an inline run starts on (markdown-it maps each paragraph's, heading's, cell's)."""
    return (inline.map or [0])[0]


def region_of(kind: str, opening: Token, inline: Token, column: int, lines: Sequence[str]) -> Region | None:
    """Where the run's text stands in ``lines`` (None where it could not be found as markdown-it read
    it: the block is kept as it is)."""
    first = start_line(inline)
    if kind == "cell":
        return cell_spans(lines[first], first, column, inline.content)
    if kind == "heading" and opening.markup.startswith("#"):
        line = lines[first].rstrip("\r\n")
        start = line.find(inline.content, line.index("#") + len(opening.markup)) if inline.content else -1
        return None if start < 0 else Region([(first, start, start + len(inline.content))])
    return line_spans(lines, first, inline.content)


def fragment(children: Sequence[Token], region: Region, cell: bool = False) -> tuple[str, list[Mark]]:
    """The run as an HTML fragment, each element numbered (``data-md``) by its Mark. A cell's
    sources have their ``|`` escaped again: markdown-it reads a cell's ``\\|`` as ``|``."""
    html: list[str] = []
    marks: list[Mark] = []
    newline = 0  # the run's line breaks so far: a hard break is written with its line's (Region.hard_break)
    in_autolink = False  # its text and end are the atom's, written whole
    tail_breaks = 0  # the line breaks in the open link's destination: counted at its end, after its text's
    last_atom: int | None = None  # the atom just read, while nothing has followed it

    def raw(source: str) -> str:
        return source.replace("|", "\\|") if cell else source

    pairs = html_pairs(children)
    ends = {end: start for start, end in pairs.items()}  # an end tag's index: its start tag's
    paired: dict[int, int] = {}  # a paired start tag's index: its mark's number
    for index, token in enumerate(children):
        kind = "autolink" if token.markup == "autolink" else token.type
        number = f' data-md="{len(marks)}"'
        follows, last_atom = last_atom, None
        if in_autolink:
            in_autolink = kind != "autolink"  # its link_close
            last_atom = follows
        elif kind in MARKS:
            html.append(f"<{MARKS[kind]}{number}{titled(token)}>")
            marks.append(link_mark(token, 0, raw, region, newline) if kind == "link_open"
                         else Mark(token.markup, token.markup))
            tail_breaks = token.meta["tail"].count("\n") if kind == "link_open" else tail_breaks
        elif kind in ("em_close", "strong_close", "s_close", "mark_close", "link_close"):
            html.append(f"</{MARKS[kind.replace('_close', '_open')]}>")
            newline += tail_breaks if kind == "link_close" else 0
        elif index in pairs:  # a paired element's start tag: a mark, written back with both tags as they were
            html.append(f"<{html_name(token)}{number}{read_attributes(token)}>")
            paired[index] = len(marks)
            marks.append(Mark(region.rejoined(raw(token.content), newline), "", kept=True))  # emptied: its tags kept
        elif index in ends:
            html.append(f"</{html_name(token)}>")
            marks[paired[ends[index]]].close = region.rejoined(raw(token.content), newline)
        elif kind == "html_inline" and INLINE_BREAK.fullmatch(token.content):  # an atom, read as a line break
            html.append(f"<br{number}>")
            last_atom = len(marks)
            marks.append(Mark(region.rejoined(raw(token.content), newline), "", atom=True, follows=follows))
        elif kind in ("code_inline", "autolink", "html_inline", "kept_inline"):  # atoms, holding the text they show
            source = raw(token.meta.get("source", token.content))
            shown = {"code_inline": token.content, "kept_inline": token.content, "autolink": source[1:-1]}.get(kind, "")
            html.append(f"<code{number}>{escape(shown, quote=False)}</code>")
            last_atom = len(marks)
            marks.append(Mark(region.rejoined(source, newline), "", atom=True, follows=follows))
            in_autolink = kind == "autolink"
        elif kind == "image":
            html.append(f'<img{number} alt="{escape(" ".join(plain(token.children or []).split()))}"{titled(token)}>')
            marks.append(replace(link_mark(token, 1, raw, region, newline), open="![", image=True))
        elif kind == "hardbreak":
            html.append(f"<br{number}>")
            marks.append(Mark(region.hard_break(newline), "", atom=True, hard_break=True))
        else:  # text (text_special's too), and a soft break's space
            html.append(" " if kind == "softbreak" else escape(token.content, quote=False))
        newline += line_breaks(token, kind)
    return "".join(html), marks


def nothing_to_translate(children: Sequence[Token], glossary: Glossary | None) -> bool:
    """Whether a run, read as its fragment, would hold nothing to translate, so that it is kept
    byte for byte without parsing the fragment (thousands of ``> 42`` or ``| - |`` paragraphs were
    an HTML tree each): no glossary term, and no letter in the text of any of its tokens, its code
    spans' and its images' alt texts too (letterless.needs_translation).  Judged only where that
    text is NO_LETTERS and its marks nest well within pages.MAX_DEPTH (the fragment's holder and an
    atom add two levels): any other run is parsed, and a character lxml refuses or markup nested
    too deep is reported as before."""
    if glossary:
        return False
    level = deepest = 0
    for token in children:
        level += token.nesting
        deepest = max(deepest, level)
    return deepest + 2 < MAX_DEPTH and all(
        NO_LETTERS.fullmatch(token.content) and NO_LETTERS.fullmatch(token.meta.get("source", ""))
        and nothing_to_translate(token.children or [], glossary) for token in children)


def check_no_controls(children: Sequence[Token], where: str) -> None:
    """DataError naming ``where`` for a control character in a run's text (not in a code span, which is
    kept as it is): its fragment's text cannot hold it, as an XHTML page's cannot (lxml's bare ValueError)."""
    for token in children:
        found = CONTROL.search(token.content) if token.type in ("text", "text_special", "image") else None
        if found:
            raise DataError(f"{where}: the text holds the control character U+{ord(found.group()):04X}, which "
                            "cannot be translated in Markdown; remove it, or put it in a code span")


def link_mark(token: Token, label: int, raw: Callable[[str], str], region: Region, newline: int) -> Mark:
    """A link's (or an image's, whose ``[`` is ``label`` characters in) Mark: ``[`` and its tail, kept
    around nothing where its translated text is empty. A collapsed or shortcut
    reference (``[text][]``, ``[text]``) is written as a full one with its own label, which the
    translated text no longer is. A tail over lines is written as it stands in the file
    (Region.rejoined), so that its later lines keep their ``> `` or indentation; ``newline``: how
    many of the run's line breaks come before the link."""
    source, tail = raw(token.meta["source"]), raw(token.meta["tail"])
    text = source[label + 1:len(source) - len(tail)]
    short = next((end for end in ("][]", "]")  # a collapsed or shortcut reference, and its attribute list if any
                  if tail.startswith(end) and attributes_after(tail, len(end)) == len(tail)), None)
    if short is not None:
        tail = "][" + " ".join(text.split()) + "]" + tail[len(short):]  # a label's spaces and line breaks: one space
    return Mark("[", region.rejoined(tail, newline + text.count("\n")), kept=True,
                title=link_title(token))



def plain(children: Sequence[Token]) -> str:
    """An image's alt text as a reader gets it: its children's text, without their Markdown."""
    return "".join(" " if child.type in ("softbreak", "hardbreak") else plain(child.children or [])
                   if child.type == "image" else child.content for child in children)


def line_breaks(token: Token, kind: str) -> int:
    """How many of the run's source lines end in ``token``: a break's one, and those inside a code
    span, an image, inline HTML or ``$$`` math (a link's destination's are counted at its end, by fragment)."""
    if kind in ("softbreak", "hardbreak"):
        return 1
    return (token.meta.get("source", "") if kind in ("code_inline", "image")
            else token.content if kind in ("html_inline", "kept_inline") else "").count("\n")


def translate_markdown(text: str, translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                       where: str = "input", review: Review | None = None, mdx: bool = False) -> str:
    """``text``, a Markdown file's (``mdx``: an MDX file's, markdown_parser), with the text of its paragraphs,
    headings, list items, blockquotes, table cells, link texts, image alt texts and docs sites' titles
    translated; every other byte kept. A run whose place in the source could not be found is kept, with one
    warning naming its line."""
    lines = split_lines(text)
    skipped = front_matter_lines(lines)
    md, env = markdown_parser(mdx), dict[str, Any]()  # env: the reference definitions, for a run read again
    read, syntax = site_lines(lines[skipped:])  # docs sites' syntax set apart
    # the front matter read as blank lines, so that markdown-it's line numbers are the file's
    tokens = md.parse("\n" * skipped + "".join(read), env)
    options = replace(options, attributes=("alt",))  # an image's alt text (an HTML block's attributes are kept)
    titled_options = replace(options, attributes=("alt", "title"))  # and a Markdown link's or image's title, a tooltip
    vocabulary = MarkdownVocabulary(False, options.source_lang)
    vocabulary.protected = PROSE_PROTECTED  # a template's tags are markdown_sites', read on the source's lines
    glossary = translator_glossary(translator)

    def run(children: Sequence[Token], region: Region, kind: str, line_start: bool = False) -> list[Run]:
        """The run of ``children`` at ``region``, where it holds text to translate: none for one without
        letters, or whose fragment holds nothing a TreeJob translates (code alone, a URL), kept as it is."""
        if nothing_to_translate(children, glossary):
            return []
        at = f"{where}, line {region.spans[0][0] + 1}"
        check_no_controls(children, at)
        html, marks = fragment(children, region, kind == "cell")
        page = parse(html, False, at) if html.strip() else None
        job = MarkdownJob(page.root, vocabulary, titled_options, glossary) if page is not None else None
        if page is None or job is None or not job.flats():
            return []
        references = source_references("".join(lines[line][start:end] for line, start, end in region.spans))
        return [Run(region, job, page.root, marks, kind, line_start, references)]

    def title(line: int, start: int, end: int) -> list[Run]:
        return run(md.parseInline(lines[line][start:end], env)[0].children or [], Region([(line, start, end)]),
                   "title")

    found = [one for spans in syntax_titles(lines, [skipped + index for index in syntax]) for one in title(*spans)]
    for kind, opening, inline, column in inline_runs(tokens):
        if not inline.content.strip():  # an empty heading or cell
            continue
        region = region_of(kind, opening, inline, column, lines)
        if region is None:
            warn(f"{where}, line {start_line(inline) + 1}: this {kind}'s text could not be found as it was read; "
                 "it is kept as it is")
            continue
        children = inline.children or []
        kept = kept_start(inline.content) if kind == "paragraph" else 0
        if kept and (titled := alert_title(inline.content)):  # an alert's title: on its line, kept, translated apart
            line, begin, _ = region.spans[0]
            found += title(line, begin + titled[0], begin + titled[1])
        if kept == len(inline.content):  # an alert's line alone: its body is the next paragraph
            continue
        tail = kept_end(inline.content) if kind != "cell" else 0
        if not inline.content[kept:len(inline.content) - tail].strip():  # an attribute list alone
            continue
        if kept or tail:  # a task's box, a footnote's label or an alert's line before the text, an attribute list or
            # a last backslash after it: kept, the text read again without them (an alert's line with its break)
            region = trimmed(region, lines, kept, tail, inline.content.count("\n", 0, kept))
            children = md.parseInline(inline.content[kept:len(inline.content) - tail], env)[0].children or []
        found += run(children, region, kind, kind == "paragraph" or (
            kind == "heading" and not opening.markup.startswith("#")))
    blocks = html_blocks(lines, tokens, vocabulary, options, glossary, where, MarkdownJob)
    whole = {line for block in blocks for line in range(block.region.spans[0][0], block.region.spans[-1][0] + 1)}
    titles = definition_titles(lines, tokens, env.get("references", {}), skipped,
                               lambda root: MarkdownJob(root, vocabulary, titled_options, glossary), where)
    runs: list[FrontValue | Summary | DefinitionTitle | Run] = sorted(
        [*front_values(lines, skipped, vocabulary, options, glossary, where, MarkdownJob), *blocks, *found, *titles,
         *(one for one in summaries(lines, tokens, vocabulary, options, glossary, where, MarkdownJob)
           if one.region.spans[0][0] not in whole)],
        key=lambda one: one.region.spans[0][:2])  # in the order they stand, as all_replaced writes them
    translate_trees([run.job for run in runs], translator, options, review,
                    [run.region.spans[0][0] + 1 for run in runs])
    return all_replaced(lines, [(run.region, translation(run) if isinstance(run, Run) else run.written())
                                for run in runs])


def translation(run: Run) -> str:
    """The run's translated fragment written back as Markdown, escaped where its text would
    otherwise start Markdown syntax."""
    pieces = written(run.holder, run.marks, run.kind == "cell", run.references).strip(" \t").split("\0")
    # A hard break the alignment put before the first word or after the last is none (CommonMark: not at a block's
    # edge), and written, it left a line of spaces or "\\" before the text, or a blank line after it.
    while len(pieces) > 1 and not pieces[0].strip():
        pieces[:2] = [pieces[1].lstrip(" \t")]
    while len(pieces) > 1 and not pieces[-1].strip():
        pieces[-2:] = [pieces[-2].rstrip(" \t")]
    if run.line_start:
        pieces = [escaped_line_start(piece) for piece in pieces]
    elif run.kind == "heading":
        pieces[-1] = re.sub(r"(^|\s)(#+\s*)$", r"\1\\\2", pieces[-1])  # not a closing sequence
    breaks = iter(mark.open for mark in run.marks if mark.hard_break)
    return "".join(piece if i == 0 else next(breaks, "  \n") + piece for i, piece in enumerate(pieces))
