"""GitHub's Markdown beyond CommonMark's tables, as attnmt.documents.markdown reads it.

    github(md)               -> md with strikethrough, footnote references and emoji codes read
    kept_start(content)      -> how many characters at a paragraph's start are kept as they are

Strikethrough (``~~a~~``) is markdown-it's own rule, a mark like emphasis. Footnote references
(``[^1]``) and emoji codes (``:smile:``) are read by a pattern on the source, as atoms kept whole
(``kept_inline`` tokens), without mdit-py-plugins. A task list item's ``[ ] ``/``[x] `` and a footnote
definition's ``[^1]: `` start a paragraph's text and are kept before its translation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

__all__ = ["github", "kept_start"]

# A footnote reference: not a link's text (``[^1](url)``), nor a definition's label (``[^1]:``).
FOOTNOTE_REF = re.compile(r"\[\^[^\]\s\[\\]+\](?![(:])")
# An emoji code, ``:smile:``, ``:+1:``: not inside a word or a time (``10:30:45``), not digits alone.
EMOJI = re.compile(r":(?!\d+:)[a-z0-9_+\-]+:(?![\w:])")
TASK = re.compile(r"\[[ xX]\][ \t]+")  # a task list item's box, and the space after it
FOOTNOTE_DEFINITION = re.compile(r"\[\^[^\]\s\[\\]+\]:[ \t]*")


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


def github(md: MarkdownIt) -> MarkdownIt:
    """``md`` reading strikethrough, footnote references and emoji codes."""
    md.enable("strikethrough")
    md.inline.ruler.before("link", "footnote_ref", kept_rule(FOOTNOTE_REF, "["))
    md.inline.ruler.before("link", "emoji", kept_rule(EMOJI, ":"))
    return md


def kept_start(content: str) -> int:
    """How many characters at the start of a paragraph's ``content`` are kept as they are: a task
    list item's ``[ ] `` or ``[x] `` (as GitHub reads it, even where ``[x]`` names a reference), a
    footnote definition's ``[^1]: ``; 0 for any other."""
    found = TASK.match(content) or FOOTNOTE_DEFINITION.match(content)
    return found.end() if found is not None else 0
