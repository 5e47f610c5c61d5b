"""A shell command on a line of its own inside a Markdown paragraph, kept as written.

A README tells its reader what to type on the line under its sentence, in the same paragraph (``Run this:`` then
``pip install attnmt``: a soft break between them).  A soft break is read as a space, so the command went to the
model as the sentence's last words (the demo model wrote the paragraph as ``Auf diesem Fäntzen``, the command
lost).  Writing soft breaks as line breaks would let a page's reading find the command
(attnmt.documents.markup_text.PageBuilder.command_spans), but would change the paragraph's lines: the review's
line numbers, a ``> `` or a list item's indentation.  So the command is found here, on the paragraph's own lines
(attnmt.documents.command_lines: after a line that ends with a colon or a sentence's stop, or another command), and
read as an atom kept whole (a ``kept_inline`` token, as attnmt.documents.markdown_github's math), written back at
its place: the lines stay as they were and the model reads ``Run this:`` alone.  The line may hold an escape or an
entity and code spans (``pip install attnmt\\[serve\\]``, ``npm install `express` ``), read as their reader sees
them (``pip install attnmt[serve]``) and kept as typed; a line with emphasis, a link or HTML is the paragraph's prose,
translated as before.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from attnmt.documents.command_lines import command_lines

BREAKS = ("softbreak", "hardbreak")


def commands(md: MarkdownIt) -> MarkdownIt:
    """``md`` reading each shell command on a paragraph's line of its own after a soft break as an atom kept whole."""
    md.core.ruler.before("text_join", "command_lines", kept_commands)  # text_join would glue escapes to words
    return md


def kept_commands(state: StateCore) -> None:
    """Each inline run's lines after a soft break that are a shell command alone, of more than a name (as a page's:
    markup_text.is_command_block), made one ``kept_inline`` token of its source with the soft breaks around it, so
    that the translation is written around its line as the source's words were (a hard break's line is a page's
    after its ``<br>``: PageBuilder.command_spans)."""
    for token in state.tokens:
        if token.type == "inline" and token.children and any(c.type == "softbreak" for c in token.children):
            token.children = with_kept_commands(token.children)


def with_kept_commands(children: list[Token]) -> list[Token]:
    """``children``, an inline run's tokens, with each command on a line of its own after a soft break kept whole."""
    lines = split_lines(children)
    texts = ["".join(child.content for child in line) for line in lines]
    found = command_lines(texts) - {0}
    kept_children: list[Token] = []
    for k, line in enumerate(lines):
        words, end = (line[:-1], line[-1:]) if line[-1:] and line[-1].type in BREAKS else (line, [])
        before = kept_children[-1] if kept_children else None
        after_soft = before is not None and (before.type == "softbreak"  # or a command kept with the break after it
                                             or before.type == "kept_inline" and before.content.endswith("\n"))
        sources = [typed(child) for child in words]
        if not (after_soft and k in found and None not in sources and len(texts[k].split()) > 1):
            kept_children.extend(line)
            continue
        opening = "\n" if before is not None and before.type == "softbreak" else ""  # after a command: its own
        closing = "\n" if end and end[0].type == "softbreak" else ""
        if opening:
            kept_children.pop()
        kept_children.extend([kept(opening + "".join(map(str, sources)) + closing), *([] if closing else end)])
    return kept_children


def typed(token: Token) -> str | None:
    """What was typed for ``token`` where a command's line may hold it: text, an escape or an entity as written
    (``\\[``, ``&amp;``: text_join glues them into the text after this rule), a code span with its backticks
    (attnmt.documents.markdown.recording's ``meta["source"]``); None for any other (emphasis, a link, HTML)."""
    if token.type == "text":
        return token.content
    if token.type == "text_special":
        return token.markup
    if token.type == "code_inline":
        return str(token.meta.get("source", token.markup + token.content + token.markup))
    return None


def split_lines(children: list[Token]) -> list[list[Token]]:
    """``children`` in lines: each line break (a soft or hard break) closes the line it ends, with it."""
    lines: list[list[Token]] = [[]]
    for child in children:
        lines[-1].append(child)
        if child.type in BREAKS:
            lines.append([])
    return lines


def kept(text: str) -> Token:
    """An atom kept whole, showing ``text``."""
    token = Token("kept_inline", "", 0)
    token.content = text
    return token
