"""GitHub's Markdown beyond CommonMark's tables, as attnmt.documents.markdown reads it.

    github(md)               -> md with strikethrough, highlights, footnote references, emoji codes and math read
    kept_start(content)      -> how many characters at a paragraph's start are kept as they are
    alert_title(content)     -> where an alert's title stands in a paragraph's text

Strikethrough (``~~a~~``) is markdown-it's own rule, a mark like emphasis; a highlight (``==a==``: Obsidian,
Typora, MkDocs' pymdownx.mark, markdown-it-mark) is read by the same rule for ``=`` (highlight), a ``<mark>``:
read as text, its ``==`` went to the model, which moved or dropped them. Footnote references
(``[^1]``), emoji codes (``:smile:``) and math (``$x^2$``, ``$`x^2`$``, ``$$x^2$$``, which GitHub renders
with MathJax) are read by a pattern on the source, as atoms kept whole (``kept_inline`` tokens),
without mdit-py-plugins. A task list item's ``[ ] ``/``[x] ``, a footnote definition's ``[^1]: `` and
an alert's ``[!NOTE]`` line start a paragraph's text and are kept before its translation, an alert's
title (``[!TIP] Title``) translated apart, as is a label in strong emphasis alone on the first line (``> **Note**``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, reference
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter

__all__ = ["alert_title", "github", "kept_start"]

# A footnote reference: not a link's text (``[^1](url)``), nor a definition's label (``[^1]:``).
FOOTNOTE_REF = re.compile(r"\[\^[^\]\s\[\\]+\](?![(:])")
# An emoji code, ``:smile:``, ``:+1:``: not inside a word or a time (``10:30:45``), not digits alone.
EMOJI = re.compile(r":(?!\d+:)[a-z0-9_+\-]+:(?![\w:])")
# Math as GitHub renders it: ``$$...$$`` (over lines too: a paragraph of it alone is a display block);
# ``$`...`$``; ``$...$`` on one line, by the rule pandoc and GitLab document (GitHub's guide gives
# none): opened by a ``$`` before a non-space, closed by one after a non-space and not before a
# digit, so that prices are text ("costs $5 and $10", "$5/$10").
MATH = re.compile(r"\$\$(?:\\[\s\S]|[^\\$])+?\$\$|\$(`+)(?!`)[^\n]+?(?<!`)\1\$"
                  r"|\$(?![\s$`])(?:\\.|[^\\$\n])*?(?<!\s)\$(?!\d)")
TASK = re.compile(r"\[[ xX]\][ \t]+")  # a task list item's box, and the space after it
# A footnote definition's label, with the line's end where its body starts on the next line.
FOOTNOTE_DEFINITION = re.compile(r"\[\^[^\]\s\[\\]+\]:[ \t]*\n?")
# An alert's first line, kept whole on its own line: its type (GitHub's ``[!NOTE]``, ``[!TIP]``, ...; Obsidian's
# any word, folded by a + or -) and its title, if any (``[!TIP] Title``, translated apart: alert_title), with the
# line's end.
ALERT = re.compile(r"\[![A-Za-z][\w-]*\][+-]?(?:[ \t]+(?P<title>[^\n]*?))?[ \t]*\\?[ \t]*(?:\n|$)")
# A label in strong emphasis alone on a paragraph's first line, its text on the next: GitHub's old alert
# (``> **Note**``, ``> **Warning**``), which it renders as the note's title, and any such ``**Tip:**``, ``__Caution__``
# (a few words, no stop but a colon at its end), kept on its own line and translated apart as an alert's title is:
# read with the next line, the model was given "Note This is a note." as one sentence.
LABEL = re.compile(r"(?P<title>(\*\*|__)(?=\w)[^\n*_.!?]{1,40}?(?<=[\w:])\2:?)[ \t]*\\?[ \t]*\n")


def kept_rule(pattern: re.Pattern[str], first: str) -> Callable[[StateInline, bool], bool]:
    """An inline rule reading what ``pattern`` matches, from its ``first`` character, as one atom."""

    def read(state: StateInline, silent: bool) -> bool:
        pos = state.pos
        if state.src[pos] != first or (first == ":" and pos and state.src[pos - 1].isalnum()):
            return False
        found = pattern.match(state.src, pos)
        if found is None:
            return False
        if not silent:
            state.push("kept_inline", "", 0).content = found.group()
        state.pos = found.end()
        return True

    return read


def not_footnote(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """CommonMark's reference definition rule, but for a footnote definition (``[^1]: Wikipedia.``,
    which CommonMark reads as a reference with the destination ``Wikipedia.``): a paragraph, its text
    translated as GitHub shows it."""
    begin = state.bMarks[start] + state.tShift[start]
    if FOOTNOTE_DEFINITION.match(state.src, begin):
        return False
    return reference(state, start, end, silent)


def footnote_start(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Whether a footnote definition starts on line ``start``, asked only to end the paragraph above
    (``[^a]: One.`` then ``[^b]: Two.``: two notes, as GitHub reads them); the line is read as ever."""
    begin = state.bMarks[start] + state.tShift[start]
    return silent and state.sCount[start] - state.blkIndent < 4 and bool(FOOTNOTE_DEFINITION.match(state.src, begin))


def github(md: MarkdownIt) -> MarkdownIt:
    """``md`` reading strikethrough, footnote references and definitions, emoji codes and math."""
    md.enable("strikethrough")
    md.inline.ruler.before("strikethrough", "highlight", highlight)
    md.inline.ruler2.before("strikethrough", "highlight", highlight_pairs)
    md.block.ruler.at("reference", not_footnote)
    md.block.ruler.before("paragraph", "footnote_start", footnote_start, {"alt": ["paragraph"]})
    md.inline.ruler.before("link", "footnote_ref", kept_rule(FOOTNOTE_REF, "["))
    md.inline.ruler.before("link", "emoji", kept_rule(EMOJI, ":"))
    md.inline.ruler.before("link", "math", kept_rule(MATH, "$"))
    return md


def highlight(state: StateInline, silent: bool) -> bool:
    """A run of ``=`` as strikethrough reads a run of ``~``: each pair of it a delimiter that may open or
    close a highlight (highlight_pairs), an odd one's first ``=`` text."""
    if silent or state.src[state.pos] != "=":
        return False
    scanned = state.scanDelims(state.pos, True)
    if scanned.length < 2:
        return False
    if scanned.length % 2:
        state.push("text", "", 0).content = "="
    for _ in range(scanned.length // 2):
        state.push("text", "", 0).content = "=="
        state.delimiters.append(Delimiter(marker=ord("="), length=0, token=len(state.tokens) - 1, end=-1,
                                          open=scanned.can_open, close=scanned.can_close))
    state.pos += scanned.length
    return True


def highlight_pairs(state: StateInline) -> None:
    """Each ``==`` delimiter that markdown-it's balance_pairs paired with a closing one made a ``mark_open``
    and a ``mark_close`` token (in each level's delimiters: a link's text has its own)."""
    for delimiters in [state.delimiters, *(meta["delimiters"] for meta in state.tokens_meta
                                           if meta and "delimiters" in meta)]:
        for delimiter in delimiters:
            if delimiter.marker != ord("=") or delimiter.end == -1:
                continue
            for index, kind, nesting in ((delimiter.token, "mark_open", 1),
                                         (delimiters[delimiter.end].token, "mark_close", -1)):
                token = state.tokens[index]
                token.type, token.tag, token.nesting, token.markup, token.content = kind, "mark", nesting, "==", ""


def kept_start(content: str) -> int:
    """How many characters at the start of a paragraph's ``content`` are kept as they are: a task
    list item's ``[ ] `` or ``[x] `` (as GitHub reads it, even where ``[x]`` names a reference), a
    footnote definition's ``[^1]: `` (with the line's end where its body
    starts on the next line), an alert's whole first line (``[!NOTE]``, a title after it, and its line's
    end, which keeps the body on the next line, where GitHub needs it), a label's first line (LABEL: ``**Note**``);
    0 for any other."""
    found = TASK.match(content) or FOOTNOTE_DEFINITION.match(content) or ALERT.match(content) or LABEL.match(content)
    return found.end() if found is not None else 0


def alert_title(content: str) -> tuple[int, int] | None:
    """Where the title of an alert (``[!TIP] Title``, Obsidian's callouts) or a label's line (``**Note**``, with its
    emphasis) stands in a paragraph's ``content`` (start, end), to be translated apart from its keyword and body;
    None for none."""
    found = ALERT.match(content) or LABEL.match(content)
    return found.span("title") if found is not None and (found["title"] or "").strip() else None
