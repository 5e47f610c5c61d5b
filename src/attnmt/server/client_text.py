"""What the server writes of a client's text where it was not asked to: its length, never the text.

The access log holds no text without ``--log-text``, and neither does the log beside it: a
request refused for its own fault (attnmt.server.batcher.refusal_record), a request the model
fails on.  An answer of 500 says what failed (``RuntimeError: out of memory``), and as little as it
can of what it failed on: an exception raised inside the model may quote the text, or a sentence
of it, it was given.  ``without_text`` takes the texts out of a message::

    without_text("cannot read 'Käse' in: a Käse sandwich", ["a Käse sandwich"])
    -> "cannot read <4 characters> in: <15 characters>"

The model is handed a text's sentences (an HTML text's words without their tags), never quite the
text, so the message is searched word by word (letters and digits, compared in NFC: spaces, tabs,
NBSP, punctuation and markup between words do not count), and hidden are

- every run of two or more words of which each next word follows the one before somewhere in the
  request's texts ("Käse läuft" of "Geheimprojekt Käse läuft. Niemand …");
- a word that is alone a text, line or sentence of them, if of 3 characters or more: a text "a" or
  "1" hides no word of "CUDA out of memory. Tried to allocate 1 GiB";
- a quoted string, as Python's repr writes one, that shares a word of 2 or more characters with the
  texts or is one of them, written as the length of the string it quotes; and what follows a quote
  never closed (``<text>``), a text that may be cut short.

What it keeps: a word of a text alone in a message (``'NoneType' object has no attribute 'encode'``
stays whole unless a text holds "NoneType" or "encode"), a text's word glued into a longer one.
"""

from __future__ import annotations

import ast
import html
import logging
import re
import traceback
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise

# A text a message quotes, as repr writes it: 'Käse', "it's", 'it\'s "x"'.  Its opening quote follows no
# letter or digit, so that the apostrophe of "the model's" opens none.  A quote never closed runs to the
# message's end: what follows it may be a text cut short, and every quote either closes or ends the
# search there, so that a message of many unclosed quotes costs time in proportion to its length.
QUOTED = re.compile(r"""(?<!\w)(?:'(?:[^'\\]|\\.)*(?:'|\\?\Z)|"(?:[^"\\]|\\.)*(?:"|\\?\Z))""", re.DOTALL)
# A word: letters and digits, with the combining accents a text in NFD writes after them ("Ka\u0308se").
WORD = re.compile(r"(?:[^\W_]|[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f])+")
# Where a text is cut into the pieces the model may be handed alone: its lines and sentences.
PIECE_END = re.compile(r"[.!?;…。！？\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
TAG = re.compile(r"<[^<>]*>")  # markup an HTML text's words are extracted from
SHORTEST_WORD = 3  # a word alone hidden: shorter ones ("a", "1", "of") are every message's words


def hidden(count: int) -> str:
    """What stands for ``count`` characters of a client's text."""
    return f"<{count} character{'' if count == 1 else 's'}>"


def key(word: str) -> str:
    """A word as it is compared: in NFC, so that "Käse" typed either way is one word."""
    return unicodedata.normalize("NFC", word)


@dataclass
class Known:
    """What a request's texts give the search: the pairs of words that follow each other in them
    (``pairs``), the words alone a text, line or sentence of them (``alone``), their words of 2 or
    more characters (``words``) and the texts themselves, stripped (``whole``)."""

    pairs: set[tuple[str, str]] = field(default_factory=set)
    alone: set[str] = field(default_factory=set)
    words: set[str] = field(default_factory=set)
    whole: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, texts: Iterable[str]) -> Known:
        known = cls()
        for text in texts:
            known.whole.add(key(text.strip()))
            # an HTML text's words as the model is handed them: tags dropped, inline or between blocks
            for variant in dict.fromkeys([text, html.unescape(TAG.sub("", text)), html.unescape(TAG.sub(" ", text))]):
                known.add(variant)
        return known

    def add(self, text: str) -> None:
        words = [key(word) for word in WORD.findall(text)]
        self.pairs.update(pairwise(words))
        self.words.update(word for word in words if len(word) >= 2)
        for piece in PIECE_END.split(text):
            if len(alone := WORD.findall(piece)) == 1 and len(alone[0]) >= SHORTEST_WORD:
                self.alone.add(key(alone[0]))


def without_text(message: str, texts: Iterable[str] = ()) -> str:
    """``message`` with what it holds of ``texts`` (see the module's docstring) written as lengths:
    "glossary target term 'Käse': …" is "glossary target term <4 characters>: …".  Stretches that
    overlap or touch are one, written as its length.  Linear in the lengths of the message and texts."""
    known = Known.of(texts)
    quoted = dict(quoted_stretches(message, known))
    parts, last = [], 0
    for start, end in joined(sorted([*bare_stretches(message, known), *quoted])):
        parts += [message[last:start], quoted.get((start, end)) or hidden(end - start)]
        last = end
    parts.append(message[last:])
    return "".join(parts)


def quotes_as_lengths(message: str) -> str:
    """``message`` with each text it quotes written as its length, whatever the text: a refusal's
    message, attnmt's own words whose every quote is the client's (a glossary term, a prefix)."""
    def length(quoted: re.Match) -> str:
        try:
            return hidden(len(ast.literal_eval(quoted.group())))
        except (ValueError, SyntaxError):
            return "<text>"
    return QUOTED.sub(length, message)


def what_failed(error: BaseException, texts: Iterable[str] = ()) -> str:
    """What an answer says of ``error``, raised on ``texts``: its class and its message ``without_text``,
    "RuntimeError: out of memory"."""
    return f"{type(error).__name__}: {without_text(str(error), texts)}"


def bare_stretches(message: str, known: Known) -> list[tuple[int, int]]:
    """The stretches ``(start, end)`` of ``message`` its runs of the texts' words cover, each pair of
    words that follow each other in a text one stretch, and each word alone a text or sentence."""
    stretches = []
    before: re.Match | None = None
    for word in WORD.finditer(message):
        if before and (key(before.group()), key(word.group())) in known.pairs:
            stretches.append((before.start(), word.end()))
        elif key(word.group()) in known.alone:
            stretches.append(word.span())
        before = word
    return stretches


def quoted_stretches(message: str, known: Known) -> list[tuple[tuple[int, int], str]]:
    """The quoted strings of ``message`` that hold the texts' words, each with what stands for it: the
    length of the string it quotes (``'it\\'s'``: 4), or ``<text>`` for a quote never closed."""
    found = []
    for quoted in QUOTED.finditer(message):
        try:
            string = ast.literal_eval(quoted.group())
        except (ValueError, SyntaxError):  # never closed: a text that may be cut short
            found.append((quoted.span(), "<text>"))
            continue
        if key(string.strip()) in known.whole or any(key(word) in known.words for word in WORD.findall(string)):
            found.append((quoted.span(), hidden(len(string))))
    return found


def joined(stretches: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ``stretches``, those that overlap or touch joined into one."""
    out: list[tuple[int, int]] = []
    for start, end in stretches:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def traceback_without_text(error: BaseException, texts: Iterable[str] = ()) -> str:
    """``error``'s traceback as the log writes one (logging's ``exc_info``), each exception's own words
    ``without_text``: the code's lines as they are, and the exceptions it was raised from or during, and
    those an ExceptionGroup holds."""
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
        for number, inner in enumerate(exception.exceptions or [], 1):  # an ExceptionGroup's own
            lines.append(f"\nSub-exception {number} of {len(exception.exceptions or [])}:\n")
            write(inner)

    write(traceback.TracebackException.from_exception(error))
    return "".join(lines).rstrip("\n")


def log_failure(log: logging.Logger, what: str, error: BaseException, texts: Iterable[str], log_text: bool) -> None:
    """Logs ``what`` failed, with ``error``'s traceback on the lines after: as it is with ``log_text``
    (--log-text), else ``traceback_without_text``, without the client's ``texts`` it may quote."""
    if log_text:
        log.error("%s", what, exc_info=error)
    else:
        log.error("%s\n%s", what, traceback_without_text(error, texts))
