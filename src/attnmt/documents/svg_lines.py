"""A sentence an SVG picture draws over several lines: read whole, its translation laid back over its lines.

SVG draws no line breaks: a label of two lines is a ``<text>`` whose ``<tspan>``s each start a line, at the
same ``x`` and lower down (``<tspan x="0" dy="1.2em">A man rides</tspan><tspan x="0" dy="1.2em">a red
bike.</tspan>``; Inkscape's at a ``y`` each).  Read each apart (markup_runs reads a tspan touching another
as a block, html_layout.is_block), the model translated "A man rides" and "a red bike." as two fragments.
So before a page's runs are found (markup.TreeJob), such a text's lines are taken out and their words
joined as its own text, one sentence for the model; once it is written back, its translation is laid over
the lines again in the source's proportion of words per line, at the spaces between words (a no-break
space never parts two), each line's element, attributes and spaces around it as they came; a translation that
is one word, in a script written without spaces (Chinese, Japanese) or too long for any line, by its characters,
in the same proportion, where it filled the first line and left the others empty; the lines a translation of
fewer words than lines leaves empty are left out.  Tspans that are labels side by side (another ``x``) or runs
of one line (no ``dy`` or ``y`` of their own: a bold word, ``<tspan font-weight="bold">``) are read as they
always were, each apart.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from lxml import etree

from attnmt.documents.elements import says_no
from attnmt.documents.pages import is_comment, local_name
from attnmt.documents.svg_texts import svg_texts

SPACES = re.compile(r"[ \t\n\r]+")  # where a line may break: XML's spaces, not a no-break space
# Parting a word by its characters (laid_over): never first on a line, a mark (a combining accent), a stop, a
# closing mark (。 、 」), a space; never last, an opening mark (「 “); nor parted from what they join, a zero-width
# joiner (an emoji's parts), a no-break space, a word joiner.
AFTER = frozenset(("Mn", "Mc", "Me", "Pe", "Pf", "Po", "Zs"))
BEFORE = frozenset(("Ps", "Pi"))
JOINERS = frozenset("\u200d\u00a0\u202f\u2060")
ONE_LENGTH = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?:[a-zA-Z]+|%)?\s*")  # "1.2em", not "0 8 16"


@dataclass
class Lines:
    """The lines of one ``<text>`` (its ``<tspan>``s, taken out of it), what they showed, the spaces
    before the first (``lead``), and the sentence given in their place (their words joined by a space)."""

    text: etree._Element
    lines: list[etree._Element]
    shown: list[str]
    lead: str
    joined: str

    def spread(self) -> None:
        """The lines put back, each with its text (texts), but those after the last a translation of fewer words
        than lines reaches (the first stays): a browser draws such an empty line as nothing, the same pixels and
        box, but a text of an empty line is no lines of words (is_lined), read line by line again."""
        texts = self.texts(self.text.text or "")
        drawn = next((k + 1 for k in range(len(texts) - 1, 0, -1) if words_of(texts[k])), 1)
        self.text.text = self.lead
        for line, text in zip(self.lines[:drawn], texts, strict=False):
            line.text = text
            self.text.append(line)
        self.text[-1].tail = self.lines[-1].tail  # the spaces before </text>

    def texts(self, translated: str) -> list[str]:
        """Each line's text: the text's translation laid over them (laid_over), each line's spaces around it;
        the sentence as it was given (kept from translation) gives each line back its own text."""
        if translated == self.joined:
            return self.shown
        parts = laid_over(translated, self.shown)
        return [edge(shown, True) + part + edge(shown, False) for shown, part in zip(self.shown, parts, strict=True)]


def words_of(text: str) -> list[str]:
    return [word for word in SPACES.split(text) if word]


def edge(text: str, start: bool) -> str:
    """The spaces at the start (or end) of ``text``."""
    return text[:len(text) - len(text.lstrip(" \t\n\r"))] if start else text[len(text.rstrip(" \t\n\r")):]


def laid_over(translated: str, shown: list[str]) -> list[str]:
    """The text of each of the lines that showed ``shown`` in the source, ``translated`` laid over them by the source's
    share of words per line (spread): by its words, but where it is one word and the lines are more, by its
    characters (pieces) if it is written without spaces (wide characters: a sentence of Chinese or Japanese) or
    is wider than the widest line (a long compound); a short word (Danke) is left whole on the first line."""
    counts = [len(words_of(line)) for line in shown]
    words = words_of(translated)
    if len(words) == 1 < len(counts) and (width(words[0]) > max(width(line.strip()) for line in shown)
                                          or any(is_wide(character) for character in words[0])):
        return ["".join(line) for line in spread(pieces(words[0]), counts)]
    return [" ".join(line) for line in spread(words, counts)]


def width(text: str) -> int:
    """How many narrow characters' room ``text`` takes: a wide one (is_wide) two, a combining mark none."""
    return sum(2 if is_wide(character) else 1 for character in text if not unicodedata.combining(character))


def is_wide(character: str) -> bool:
    """Whether ``character`` is of East Asian scripts, drawn in a square twice a Latin letter's width (Han, kana,
    Hangul, full-width forms), which lines part between any two."""
    return unicodedata.east_asian_width(character) in ("W", "F")


def pieces(text: str) -> list[str]:
    """``text``'s characters, each with what may not start a line after it (AFTER) and what a joiner or an
    opening mark holds on to (JOINERS, BEFORE): ``東京、大`` is ``東``, ``京、``, ``大``."""
    found: list[str] = []
    for character in text:
        if found and (unicodedata.category(character) in AFTER or character in JOINERS or holds_on(found[-1])):
            found[-1] += character
        else:
            found.append(character)
    return found


def holds_on(piece: str) -> bool:
    """Whether the character after ``piece`` goes with it: it ends in a joiner or an opening mark."""
    return piece[-1] in JOINERS or unicodedata.category(piece[-1]) in BEFORE


def spread(words: list[str], counts: list[int]) -> list[list[str]]:
    """``words`` laid over lines that held ``counts`` words each in the source, in that proportion (a line's
    end rounded to the nearest word), each line one word at least while there are words for each; with
    fewer words than lines, one word a line from the first."""
    n, total = len(words), sum(counts)
    if n < len(counts):
        ends = [min(k + 1, n) for k in range(len(counts))]
    else:
        ends, held = [], 0
        for k, count in enumerate(counts):
            held += count
            nearest = (2 * n * held + total) // (2 * total)
            ends.append(min(max(nearest, ends[-1] + 1 if ends else 1), n - (len(counts) - 1 - k)))
    return [words[start:end] for start, end in zip([0, *ends], ends, strict=False)]


def joined_lines(root: etree._Element) -> list[Lines]:
    """Each ``<text>`` of the SVG pictures under ``root`` (``root`` too) drawn as lines (is_lined), its
    lines taken out and their words joined as its own text; Lines.spread puts them back."""
    texts = dict.fromkeys(text for svg in root.iter("{*}svg") for text in svg_texts(svg)
                          if local_name(text) == "text" and is_lined(text))
    found = []
    for text in texts:
        shown = [line.text or "" for line in text]
        joined = " ".join(" ".join(words_of(line)) for line in shown)
        found.append(Lines(text, list(text), shown, text.text or "", joined))
        for line in list(text):
            text.remove(line)  # its tail with it
        text.text = joined
    return found


def is_lined(text: etree._Element) -> bool:
    """Whether a ``<text>`` is one sentence over lines: two ``<tspan>``s or more and nothing else shown, each of
    words alone (no element inside, no ``translate="no"``), all at one ``x`` (the first's own or the text's),
    and each after the first a line of its own: a ``dy`` other than 0, or a ``y`` other than the line's before."""
    lines = list(text)
    if len(lines) < 2 or (text.text or "").strip() or any(
            is_comment(line) or local_name(line) != "tspan" or len(line) or says_no(line)
            or not words_of(line.text or "") or (line.tail or "").strip() for line in lines):
        return False
    x = one_length(lines[0].get("x", text.get("x")))
    if x is None or any(one_length(line.get("x")) != x for line in lines[1:]):
        return False
    return all(one_length(line.get("dy")) not in (None, 0.0)
               or one_length(line.get("y")) not in (None, one_length(before.get("y")))
               for before, line in zip(lines, lines[1:], strict=False))


def one_length(value: str | None) -> float | None:
    """A coordinate written as one length (``1.2em``, ``12``); None for none, or a list (one per letter)."""
    match = ONE_LENGTH.fullmatch(value or "")
    return float(match.group(1)) if match else None
