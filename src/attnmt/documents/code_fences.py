"""The fenced code blocks of a plain text: code, kept whole.

A text written in Markdown's habit (a README or a chat message pasted into a textarea, an e-mail to a developer) sets
code between fences of three backticks or three tildes or more, as CommonMark's fenced code blocks are (`````` ```
``````, ``~~~ python``).  A plain text's lines are no Markdown document (attnmt.documents.markdown reads a ``.md``
file), but read as words, such a block's code was translated between its fences (``ls -l`` came back ``Auf diesem
Firme`` from the demo model): the command was lost.  Its lines are kept as written, its fences with them, as a line
typed at a prompt is (attnmt.documents.prompt_lines).  A block is one closed by a fence of its own character, as
long as its opening one or longer, as deep in a reply's quote marks: a fence no other closes (three backticks
mentioned in a sentence's line, a block cut off) makes no block, and the lines after it stay words.

    fenced_lines(lines) -> {the index of each line of a closed fenced block, its fences included}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from attnmt.documents.hard_wrap import indent_of

# A fence after a line's indentation and quote marks, and its info string (a language's name): a backtick fence's
# holds no backtick (CommonMark: "```a```" is inline code).
FENCE = re.compile(r"(?P<fence>`{3,}(?=[^`]*\Z)|~{3,})(?P<info>.*)\Z")


@dataclass(frozen=True)
class Opened:
    """A fence that opened a block on line ``start``: its ``character``, its ``length`` and how deep it is quoted."""

    start: int
    character: str
    length: int
    depth: int

    def closed_by(self, fence: re.Match[str], depth: int) -> bool:
        """Whether ``fence``, on a line quoted ``depth`` deep, closes this block: as deep, of its character, as long
        or longer, nothing after it."""
        found = fence["fence"]
        return (depth == self.depth and found[0] == self.character and len(found) >= self.length
                and not fence["info"].strip())


def fenced_lines(lines: Sequence[str]) -> set[int]:
    """The lines of each closed fenced block of ``lines`` (``FENCE``, ``Opened.closed_by``), its fences included."""
    found: set[int] = set()
    opened: Opened | None = None
    for k, line in enumerate(lines):
        indent = indent_of(line)
        fence = FENCE.match(line, len(indent))
        if fence is None:
            continue
        if opened is None:
            opened = Opened(k, fence["fence"][0], len(fence["fence"]), indent.count(">"))
        elif opened.closed_by(fence, indent.count(">")):
            found |= set(range(opened.start, k + 1))
            opened = None
    return found
