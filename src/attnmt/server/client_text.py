"""What the server writes of a client's text where it was not asked to: its length, never the text.

The access log holds no text without ``--log-text``, and neither does the log beside it: a
request refused for its own fault (attnmt.server.batcher.refusal_record), a request the model
fails on.  An answer of 500 says what failed (``RuntimeError: out of memory``), never on what:
an exception raised inside the model may quote the text it was given.  ``without_text`` takes
the texts out of a message::

    without_text("cannot read 'Käse' in: a Käse sandwich", ["a Käse sandwich"])
    -> "cannot read <4 characters> in: <15 characters>"

first every occurrence of each of the request's texts (and of each of their lines, stripped: the
model is handed a text's lines, each alone) that stands as whole words, quoted or not; then each
text the message still quotes (a glossary term, a sentence of a text), as Python's repr writes it.
Whole words, so that a text "a" hides no letter of "CUDA out of memory. Tried to allocate …": a
text glued to other letters or digits in a message (a word of it inside a longer word) is kept.
"""

from __future__ import annotations

import ast
import re
import traceback
from collections import deque
from collections.abc import Iterable

# A text a message quotes, as repr writes it: 'Käse', "it's", 'it\'s "x"'.  Its opening quote follows no
# letter or digit, so that the apostrophe of "the model's" opens none.  A quote never closed runs to the
# message's end: what follows it may be a text cut short, and every quote either closes or ends the
# search there, so that a message of many unclosed quotes costs time in proportion to its length.
QUOTED = re.compile(r"""(?<!\w)(?:'(?:[^'\\]|\\.)*(?:'|\\?\Z)|"(?:[^"\\]|\\.)*(?:"|\\?\Z))""", re.DOTALL)
# The words a text is searched by: letters and digits together, every other character alone.
WORDS = re.compile(r"\w+|\W")
# A text hidden whole inside its quotes ('<14 characters>'): the quotes go, the length stays the text's.
QUOTED_HIDDEN = re.compile(r"""(['"])(<\d+ characters?>)\1""")


def hidden(count: int) -> str:
    """What stands for ``count`` characters of a client's text."""
    return f"<{count} character{'' if count == 1 else 's'}>"


def without_text(message: str, texts: Iterable[str] = ()) -> str:
    """``message`` with every occurrence of each of ``texts`` (and of each of their lines, stripped)
    that stands as whole words written as its length, then each text it quotes: "glossary target term 'Käse': …" is
    "glossary target term <4 characters>: …".  Occurrences that overlap or touch are one stretch,
    written as its length.  Linear in the lengths of the message and the texts together."""
    parts, last = [], 0
    for start, end in covered(message, patterns(texts)):
        parts += [message[last:start], hidden(end - start)]
        last = end
    parts.append(message[last:])
    return QUOTED.sub(quoted_length, "".join(parts))


def what_failed(error: BaseException, texts: Iterable[str] = ()) -> str:
    """What an answer says of ``error``, raised on ``texts``: its class and its message ``without_text``,
    "RuntimeError: out of memory"."""
    return f"{type(error).__name__}: {without_text(str(error), texts)}"


def patterns(texts: Iterable[str]) -> list[str]:
    """``texts`` and each of their lines, stripped, as the model is handed them: "a dog runs\\n" is
    searched as "a dog runs".  A text of spaces alone holds nothing to hide, and would hide every space."""
    found = dict.fromkeys(part for text in texts for part in (text, *(line.strip() for line in text.splitlines())))
    return [part for part in found if part.strip()]


def quoted_length(quoted: re.Match) -> str:
    """A quoted text (a match of QUOTED) written as its length; a quote never closed, as ``<text>``."""
    if whole := QUOTED_HIDDEN.fullmatch(quoted.group()):
        return whole.group(2)
    try:
        return hidden(len(ast.literal_eval(quoted.group())))
    except (ValueError, SyntaxError):
        return "<text>"


def covered(message: str, texts: list[str]) -> list[tuple[int, int]]:
    """The stretches ``(start, end)`` of ``message`` that occurrences of ``texts`` cover, in order,
    those that overlap or touch joined: found in one pass over the message's words by Aho and
    Corasick's automaton of the texts' (a trie whose every node knows the longest text ending there).
    A text is found where it stands as whole words: "a" is hidden in "a dog", not in "allocate"."""
    children, back, longest = automaton(texts)
    stretches: list[tuple[int, int]] = []
    node = 0
    for word in WORDS.finditer(message):
        while node and word.group() not in children[node]:
            node = back[node]
        node = children[node].get(word.group(), 0)
        if longest[node]:
            start, end = word.end() - longest[node], word.end()
            while stretches and start <= stretches[-1][1]:  # overlaps or touches the stretches before
                start = min(start, stretches.pop()[0])
            stretches.append((start, end))
    return stretches


def automaton(texts: list[str]) -> tuple[list[dict[str, int]], list[int], list[int]]:
    """Aho-Corasick's automaton of ``texts``, read word by word (WORDS): each node's ``children`` (by
    word), its ``back`` link (the node of its longest proper suffix in the trie: where a search goes
    on when the next word leads nowhere) and the length in characters of the ``longest`` text that
    ends at it (0: none)."""
    children: list[dict[str, int]] = [{}]
    length, longest = [0], [0]
    for text in texts:
        node = 0
        for word in WORDS.findall(text):
            if word not in children[node]:
                children[node][word] = len(children)
                children.append({})
                length.append(length[node] + len(word))
                longest.append(0)
            node = children[node][word]
        longest[node] = length[node]
    back = [0] * len(children)
    waiting = deque(children[0].values())
    while waiting:  # breadth first: a node's back link is shallower, so known before it
        node = waiting.popleft()
        longest[node] = longest[node] or longest[back[node]]
        for word, child in children[node].items():
            suffix = back[node]
            while suffix and word not in children[suffix]:
                suffix = back[suffix]
            back[child] = children[suffix].get(word, 0)
            waiting.append(child)
    return children, back, longest


def traceback_without_text(error: BaseException, texts: Iterable[str] = ()) -> str:
    """``error``'s traceback as the log writes one (logging's ``exc_info``), each exception's own words
    ``without_text``: the code's lines as they are, and the exceptions it was raised from or during."""
    texts = list(texts)
    lines: list[str] = []

    def write(exception: traceback.TracebackException) -> None:
        if exception.__cause__ is not None:
            write(exception.__cause__)
            lines.append("\nThe above exception was the direct cause of the following exception:\n\n")
        elif exception.__context__ is not None and not exception.__suppress_context__:
            write(exception.__context__)
            lines.append("\nDuring handling of the above exception, another exception occurred:\n\n")
        if exception.stack:
            lines.extend(["Traceback (most recent call last):\n", *exception.stack.format()])
        lines.append(without_text("".join(exception.format_exception_only()), texts))

    write(traceback.TracebackException.from_exception(error))
    return "".join(lines).rstrip("\n")
