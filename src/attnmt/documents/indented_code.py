"""The indented code blocks of a plain text: code, kept whole.

A README, a forum post or an e-mail to a developer written in Markdown's habit sets code apart by indenting
it four spaces (or a tab) after a blank line, as CommonMark's indented code blocks are.  Read as words, such a
block was translated (``    for i in range(3):`` came back ``    Sechs Arbeiter in einem Straßengeschäft:`` from the
demo model): the code was lost.  Its lines are kept as written, as a fenced block's are (attnmt.documents.code_fences).

Indentation alone makes no code in a plain text, which is no Markdown document: a poem, a quotation or a letter's
address is indented too, and so is a list's item's next paragraph (``- Feed the dog.`` / blank / ``    Twice a
day.``).  A block is code where its lines read so:

- it opens the text or follows a blank line (an indented line after a line of text goes on its paragraph), its
  lines each indented four columns or more, blank lines between them;
- one of its lines shows code (``CODE``: a call, an assignment, a block's header, a brace, a comment's mark, a
  command's option or a path) or is a command alone (attnmt.documents.command_lines: ``npm install express``),
  and none but a comment reads as a sentence (code_look.reads_as_code): an
  indented paragraph or a poem ends its sentences, and shows none of these.

    indented_lines(lines) -> {the index of each line of an indented code block}
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from attnmt.documents.code_look import reads_as_code
from attnmt.documents.command_lines import is_command

CODE_INDENT = 4  # columns, a tab counting as four (CommonMark)
# What a line of code shows and a line of prose does not: a name glued to its call's bracket (``print(``,
# ``os.path.join(``), an assignment or a comparison between spaces, an arrow, a brace, a block's
# header (``for i in range(3):``, ``def f():``, ``else:``), a comment's or a directive's mark at its start
# (``# ``, ``//``, ``/*``, ``#include``, ``@app.route``), a tag (``<div>``), a command's option (``-l``, ``--save``),
# a path (``./configure``, ``/etc/hosts``, ``~/bin``) or a name with an underscore or dots inside (``my_var``,
# ``os.sep``).
CODE = re.compile(r"""[^\W\d]\w*\(|\s[-+*/%<>!=]?=\s|=>|->|[{}]
    |\A(?:for|while|if|elif|else|def|class|try|except|finally|with|switch|case|function|fn|func)\b.*:\Z
    |\A(?:\#|//|/\*|@\w|<[a-zA-Z/!])|(?:\A|\s)--?[a-zA-Z][\w-]*(?=\s|=|\Z)
    |(?:\A|\s)(?:\.{1,2}|~)?/\w|\w_\w|[a-z]\.[a-z_]\w*""", re.X)
COMMENT = re.compile(r"\A(?:#(?![!\w])|//|/\*|\*|--\s|;)")  # a comment's line, which may be a sentence


def indented_lines(lines: Sequence[str]) -> set[int]:
    """The lines of each indented code block of ``lines`` (module docstring): its blank lines inside, not after."""
    return {k for start, end in indented_blocks(lines) if reads_as_code_block(lines[start:end])
            for k in range(start, end)}


def indented_blocks(lines: Sequence[str]) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of lines indented ``CODE_INDENT`` columns or more, blank lines between them, that
    opens the text or follows a blank line; its last line one with text."""
    k = 0
    while k < len(lines):
        if not (is_indented(lines[k]) and (k == 0 or not lines[k - 1].strip())):
            k += 1
            continue
        end = k
        for j in range(k, len(lines)):
            if not lines[j].strip():
                continue
            if not is_indented(lines[j]):
                break
            end = j + 1
        yield k, end
        k = end


def is_indented(line: str) -> bool:
    """Whether ``line`` has text indented ``CODE_INDENT`` columns or more (a tab counting as four)."""
    expanded = line.expandtabs(CODE_INDENT)
    return bool(line.strip()) and len(expanded) - len(expanded.lstrip(" ")) >= CODE_INDENT


def reads_as_code_block(block: Sequence[str]) -> bool:
    """Whether a block's lines read as code: one shows code (``CODE``) or is a command alone (command_lines.is_command:
    ``npm install express``), and none reads as a sentence but a comment's (``COMMENT``)."""
    texts = [line.strip() for line in block if line.strip()]
    shows_code = any(CODE.search(text) or is_command(text) for text in texts)
    return shows_code and all(reads_as_code(text) or COMMENT.match(text) or not re.search(r"[^\W\d_]", text)
                              for text in texts)
