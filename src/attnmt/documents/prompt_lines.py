"""The lines of a plain text typed at a prompt: code, kept whole.

A text that shows a Python session or a shell command (an e-mail's "try this:", a README, a support answer) holds
lines typed after a prompt: ``>>> print('hello')``, ``... print(i)`` under it, ``$ ls -l /tmp``.  Read as words, the
model translated the code and kept the prompt (``>>> print('hello')`` came back ``>>> Auf einem Haus``): the command
was lost.  Such a line is kept as written, as a header is (attnmt.documents.text_units).

``>>>`` is also how some mail programs quote a reply three deep (``>>> The dog runs.``): a line after ``>>> `` is
typed at Python's prompt only where what follows it reads as Python (``PYTHON``), never where it reads as a
sentence.  A shell's ``$ `` is followed by a command's name, in lower case (``$ 5`` is a price).  A session quoted in a
reply is read after its quote marks (``> >>> print(x)``, ``> 3``, ``> $ ls -l``): read with them as a quoted line's,
its code was translated after a quote's ``> >>> ``.

    prompt_lines(lines) -> {the index of each line typed at a prompt}
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# One quote mark of a reply's, with the spaces before and after it ("> ", ">"), which a line quoted in a reply opens
# with as many times as it is deep.
QUOTE_MARK = re.compile(r"[ \t]*>[ \t]?")
# Python's prompt and what follows it, in a line indented by spaces at most (a README's indented session); not a
# quote four deep (">>>> ").
PYTHON_PROMPT = re.compile(r" *>>>(?!>) ?(?P<code>.*)\Z")
# Python's prompt for a statement's next line (after a prompt line or another such), and its empty form ("...").
CONTINUED = re.compile(r" *\.\.\.(?: .*)?\Z")
# The value Python's session writes under a prompt line, as repr() writes it: a string in quotes, a number, a
# list, a dict, a tuple, an object (``<Dog object at 0x7f...>``), True, False or None.  What print() writes is text
# as any other, and is read as words.
VALUE = re.compile(r""" *(?:'[^']*'|"[^"]*"|-?\d[\d_.e+-]*j?|True|False|None|\[.*\]|\{.*\}|\(.*\)|<.*>)\Z""")
# A shell's prompt and a command's name: a word in lower case (``ls``, ``git``) or a path (``./configure``,
# ``~/bin/x``); not a price ("$ 5") nor a sentence after a dollar sign ("$ It cost ...").
SHELL_PROMPT = re.compile(r" *\$ +[a-z.~/][\w.~/+-]*(?:\s|\Z)")
# What reads as Python and not as a sentence: a call glued to its name (``print(``, ``os.getcwd()``), an
# assignment or a comparison (``x = 5``, ``a == b``), a list or a dict (``[1, 2]``, ``{'a': 1}``), a statement's
# keyword at its start followed as Python writes it (``import os``, ``from a import b``, ``def f(``, ``class A``, a
# block's header ending in ``:``), a name alone or an attribute (``x``, ``os.sep``), or a number (``2 + 2``).
PYTHON = re.compile(r"""[^\W\d]\w*\(|\s[-+*/%<>!=]?=\s
    |\A(?:[\[{]|import\s+[\w.]+|from\s+[\w.]+\s+import\b|def\s+\w+\s*\(|class\s+\w+\s*[(:]
       |(?:for|while|if|elif|with|try|except|else|finally|async)\b.*:\Z)
    |\A[a-z_][\w.]*\Z|\A(?:None|True|False)\Z|\A[\d(][\d\s.+*/%()-]*\Z""", re.X)


def prompt_lines(lines: Sequence[str]) -> set[int]:
    """The lines of ``lines`` typed at a prompt: Python's ``>>>`` followed by Python (``is_python_prompt``), the
    ``...`` lines that go on its statement and the value the session writes under them (``VALUE``), and a
    shell's ``$`` followed by a command."""
    found: set[int] = set()
    python = False  # whether the line before is one of a Python session's (its prompt, ..., a value)
    for k, line in enumerate(lines):
        bodies = unquoted(line)
        python = any(is_python_prompt(body) or python and (CONTINUED.match(body) or VALUE.match(body)) is not None
                     for body in bodies)
        if python or any(SHELL_PROMPT.match(body) for body in bodies):
            found.add(k)
    return found


def unquoted(line: str) -> list[str]:
    """``line``, and what follows each quote mark it opens with (``QUOTE_MARK``), the prompt's ``>>>`` among them:
    "> >>> x" gives "> >>> x", ">>> x", ">> x", "> x" and "x"."""
    bodies = [line]
    while mark := QUOTE_MARK.match(bodies[-1]):
        bodies.append(bodies[-1][mark.end():])
    return bodies


def is_python_prompt(line: str) -> bool:
    """Whether ``line`` is typed at Python's ``>>>`` prompt: what follows it, if anything, reads as Python."""
    prompt = PYTHON_PROMPT.match(line)
    if prompt is None:
        return False
    code = prompt["code"].strip()
    return not code or PYTHON.search(code) is not None
