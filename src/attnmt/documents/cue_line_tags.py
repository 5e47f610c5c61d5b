"""The tags a subtitle turn's every line is wrapped in (attnmt.documents.cue_lines): Subtitle Edit writes italics a
line (``<i>- Where are</i>`` / ``<i>you going?</i>``), converters to ASS a code each line ends with (``{\\i1}Where
are{\\i0}\\N{\\i1}you going?{\\i0}``).  Read with the words, the end tag of a line but the last closed nothing in
them and went where its word went, nesting one ``<i>`` in another; taken out, the turn is translated as one text and
each line of its translation written in them again.  So are the end tags a turn ends with that close nothing opened
in it (``closing_tags``: ``you going?</i>``, its ``<i>`` opened on the line before), kept after its translation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from attnmt.documents.cue_text import tag_name

CLOSING = re.compile(r"\s*</([^<>]*)>\s*$")  # an end tag a line ends with ("- Hello.</i>")
# A line in one tag over all its text, not a voice span (group 1 the start tag, 2 its name, 3 the text): a colour's;
# after the ASS codes a line may start with ("{\an8}", repeated on every line).
LINE_IN_TAG = re.compile(r"(?:\{\\[^{}]*\}\s*)*(<(?!v[\s.>])([^\s./<>]+)[^<>]*>)(.*)</\2>", re.DOTALL)


class LineTags(NamedTuple):
    """The start and end tag (or ASS code) each line of a turn is wrapped in (``per_line_tags``): ``closed``, its
    last line ends with the end tag too (not where another speaker's turn goes on its line, ``<i>going? - Home.</i>``,
    whose turn the end tag is); ``after``, the end tags after it on the last line that close what opened before the
    turn (``<i>you going?</i></v>``)."""

    opening: str
    closing: str
    closed: bool
    after: str = ""

    def inside(self, texts: Sequence[str]) -> list[str]:
        """``texts`` (a turn's lines, the first after its start) without them."""
        return [text[len(self.opening) * bool(k):len(text) - len(self.closing) * (self.closed or k < len(texts) - 1)]
                for k, text in enumerate(texts)]

    def around(self, lines: Sequence[str]) -> list[str]:
        """The lines of a turn's translation in them again (the first's start tag in the turn's start or before it)."""
        last = max((k for k, line in enumerate(lines) if line), default=-1)
        return [(self.opening if k else "") + line + (self.closing if self.closed or k < last else "")
                + (self.after if k == last else "") if line else line for k, line in enumerate(lines)]


def per_line_tags(texts: Sequence[str], tags: re.Pattern[str], start: str = "") -> LineTags | None:
    """The start and end tags a turn's every line is wrapped in, as Subtitle Edit writes italics a line (``<i>- Where
    are</i>`` / ``<i>you going?</i>``; ``<b><i>…</i></b>`` too), of its lines' ``texts`` (the first after its
    ``start``): the first ends with the end tags (their start tags in ``start``, before the dash, as the later lines
    have them, or before the turn before on its line), and each later one is the start tags, text without another of
    their names, and the end tags (which the last may leave to a turn after it on its line: ``<i>going? -
    Home.</i>``); None otherwise.  Read with the words, the first line's end tag closed nothing in them, and went where
    its word went: ``<i>- <i>GOING? YOU</i>`` / ``ARE</i> WHERE``.  So too an ASS code every line ends with
    (``{\\i1}Where are{\\i0}`` / ``{\\i1}you going?{\\i0}``, as converters write italics a line), with no start tag:
    the codes a later line starts with stay at its start (``repeated_codes``)."""
    if len(texts) < 2:
        return None
    head, later = texts[0], texts[1:]
    ends = end_tags(head, tags)
    names = [tag_name(match.group(1) or "") for match in ends]  # outermost first; "" for an ASS code
    if not names or ("" in names and len(names) > 1):
        return None
    closing = head[ends[-1].start():]
    opening = "" if names == [""] else start_tags(later[0], tags)
    opened = [tag_name(match.group(1) or "") for match in tags.finditer(opening)]
    named = {tag_name(match.group(1) or "") for match in tags.finditer(start)} & set(names)
    found = LineTags(opening, closing, later[-1].endswith(closing))
    if (names != [""] and opened != names) or (named and opening not in start) or not all(
            line.startswith(opening) for line in later) or not all(
            line.endswith(closing) for line in later[:-1]) or any(
            (tag_name(match.group(1) or "") in names if names != [""] else match.group() == closing)
            for text in found.inside(texts) for match in tags.finditer(text)):
        return None
    return found


def start_tags(text: str, tags: re.Pattern[str]) -> str:
    """The start tags ``text`` opens with, one right after another ("<b><i>" of "<b><i>Hello")."""
    at = 0
    for match in tags.finditer(text):
        if match.start() != at or (match.group(1) or "/").startswith("/"):
            break
        at = match.end()
    return text[:at]


def unclosed_starts(text: str, lines: Sequence[str], tags: re.Pattern[str]) -> str:
    """The start tags ``text`` (a turn's first line, after its ASS codes) opens with, up to the first that one of the
    turn's ``lines`` closes, as WebVTT writes a speaker's voice on each line without its end tag (``<v Anna>Two
    girls are playing`` / ``<v Anna>in the park.``, ``<v Anna><i>Two girls</i>`` / ``<v Anna><i>play.</i>``: the
    ``<i>`` a line closes is ``per_line_tags``').  Read with the words, the second line's voice went where its word
    went: ``<v Anna>Zwei Mädchen`` / ``spielen <v Anna>im Park.``."""
    closed = {tag_name(match.group(1)) for line in lines for match in tags.finditer(line)
              if (match.group(1) or "").startswith("/")}
    at = 0
    for match in tags.finditer(start_tags(text, tags)):
        if tag_name(match.group(1)) in closed:
            break
        at = match.end()
    return text[:at]


def end_tags(text: str, tags: re.Pattern[str]) -> list[re.Match[str]]:
    """The end tags ``text`` ends with, one right after another, outermost first ("</b>", "</i>" of
    "Hello</i></b>"), or the one ASS code it ends with ("{\\i0}")."""
    found: list[re.Match[str]] = []
    for match in reversed(list(tags.finditer(text))):
        if match.end() != (found[-1].start() if found else len(text)) or not (match.group(1) or "/").startswith("/"):
            break
        found.append(match)
        if match.group(1) is None:
            break
    return found


def closing_tags(text: str, tags: re.Pattern[str]) -> tuple[str, str]:
    """(``text`` without the end tags it ends with that close nothing opened in it, those tags with
    their spaces): "Hello.</i>" -> ("Hello.", "</i>"), the <i> opened on the line before; an end
    tag whose start tag is in ``text`` stays with it ("a <b>big</b>")."""
    body = text
    while (match := CLOSING.search(body)) and not opens(body[:match.start()], tag_name(match.group(1)), tags):
        body = body[:match.start()]
    return body, text[len(body):]


def opens(text: str, name: str, tags: re.Pattern[str]) -> bool:
    """Whether ``text`` holds a start tag named ``name``, read by its format's ``tags``."""
    return any(tag and not tag.startswith("/") and tag_name(tag) == name
               for tag in (match.group(1) for match in tags.finditer(text)))


def colours(lines: Sequence[str], tags: re.Pattern[str]) -> set[int]:
    """Where a cue's ``lines`` with text change colour (their indices): each is in one tag over all its text
    (``LINE_IN_TAG``, a whole tag of its format's ``tags``, none inside), all of one name, and a line in another tag
    than the line before begins another speaker's turn, as subtitles for the deaf and hard of hearing tell speakers
    apart by colour (``<font color="#ffff00">Where are you going?</font>`` / ``<font color="#00ffff">Home.</font>``,
    WebVTT's ``<c.yellow>`` / ``<c.cyan>``); a speaker's lines in one colour are one turn.  Read as one text and
    wrapped again at even lengths, the cue put the second speaker's words on the first one's line.  None (an empty
    set) where its lines are not all so."""
    found = [LINE_IN_TAG.fullmatch(line.strip()) for line in lines]
    wholes = [match for match in found if match and tags.fullmatch(match[1]) and not tags.search(match[3])]
    if len(wholes) < 2 or len(wholes) < len(lines) or len({match[2].lower() for match in wholes}) > 1:
        return set()
    return {k for k, (a, b) in enumerate(pairwise(wholes), start=1) if a[1] != b[1]}
