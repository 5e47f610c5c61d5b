"""A cue's lines as speakers say them and as a viewer sees them (attnmt.documents.subtitles).

A dialogue cue, a speaker a line, each beginning with a dash (after any start tags or ASS codes:
``<i>- Hi.``, ``{\\an8}- Hi.``) or each one voice span, is translated line by line, each line keeping
its start and the end tags that close nothing on it; a voice span over a whole cue is its speaker.
A cue's translation is wrapped again into lines of even lengths in the characters shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from attnmt.documents.cue_text import TOKEN, tag_name

# A speaker's line in a cue of two or more: "- Hello.", after any start tags or ASS codes ("<i>- Hello.",
# "{\an8}- Hello."), kept with the dash as the line's start.
DIALOGUE = re.compile(r"((?:<[^/<>][^<>]*>|\{\\[^{}]*\})*[-‐–—]\s*)(\S.*)")
CLOSING = re.compile(r"\s*</([^<>]*)>\s*$")  # an end tag a line ends with ("- Hello.</i>")
SPEAKER = re.compile(r"(<v(?:[.\s][^<>]*)?>)(.*?)(</v>)?", re.DOTALL)  # a voice span over a whole cue (fullmatch)
VOICE_TAG = re.compile(r"</?v[.\s>]")  # a voice span's start or end tag (<v Roger>, <v.loud Roger>, </v>)
# A tag or ASS code, kept whole; else spaces a line may end at: plain ones, and the ideographic space
# (U+3000) that parts phrases in Japanese; never a no-break space (U+00A0, U+202F).
WRAP_GAP = re.compile(rf"{TOKEN.pattern}|([ \u3000]+)")
ENTITY = re.compile(r"&(?:#\d+|#x[\da-fA-F]+|[A-Za-z]+);")  # a character reference: &amp;, &#160;, &#xa0;


def dialogue(text_lines: Sequence[str]) -> list[tuple[str, str, str]] | None:
    """(each line's start: tags, ASS codes and the dash with its space; its text; its end: end tags
    that close nothing opened in its text) for a cue of two or more speakers' lines, each beginning
    with a dash ("- Hi." / "- Hello.", also "<i>- Hi." / "- Hello.</i>" or "{\\an8}- Hi."), or each one
    voice span, each another speaker's than the line before ("<v Anna>Hi.</v>" / "<v Bob>Hello.</v>":
    no dash, the line whole, its voice kept by ``speaker``; one speaker's sentence over two lines
    stays one text); None for any other cue."""
    lines = [line.strip() for line in text_lines if line.strip()]
    if len(lines) < 2:
        return None
    if all(is_voice_line(line) for line in lines) and all(voice(a) != voice(b) for a, b in pairwise(lines)):
        return [("", line, "") for line in lines]  # each line the next speaker's (one speaker's lines: one text)
    said = [DIALOGUE.fullmatch(line) for line in lines]
    return [(match.group(1), *closing_tags(match.group(2))) for match in said] if all(said) else None


def closing_tags(text: str) -> tuple[str, str]:
    """(``text`` without the end tags it ends with that close nothing opened in it, those tags with
    their spaces): "Hello.</i>" -> ("Hello.", "</i>"), the <i> opened on the line before; an end
    tag whose start tag is in ``text`` stays with it ("a <b>big</b>")."""
    body = text
    while (match := CLOSING.search(body)) and not opens(body[:match.start()], tag_name(match.group(1))):
        body = body[:match.start()]
    return body, text[len(body):]


def opens(text: str, name: str) -> bool:
    """Whether ``text`` holds a start tag named ``name``."""
    return any(tag and not tag.startswith("/") and tag_name(tag) == name
               for tag in (match.group(1) for match in TOKEN.finditer(text)))


def voice(line: str) -> str:
    """The speaker's name a voice line's span gives ("Anna" in "<v.loud Anna>Hi.</v>")."""
    named = SPEAKER.fullmatch(line).group(1)[1:-1].split(None, 1)  # "v.loud", "Anna"
    return named[1].strip() if len(named) > 1 else ""


def is_voice_line(line: str) -> bool:
    """Whether a cue's line is one speaker's: a voice span from its start to its end (the end tag
    may be left out), with no other voice tag inside."""
    match = SPEAKER.fullmatch(line)
    return match is not None and not VOICE_TAG.search(match.group(2))


def speaker(text: str) -> tuple[str, str, str]:
    """(voice start tag, text inside, "</v>" or "") of a cue whose whole text is one voice span
    with no other tag inside; ("", text, "") for any other cue (its tags go through as marks)."""
    match = SPEAKER.fullmatch(text)
    if match is None or TOKEN.search(match.group(2)):
        return "", text, ""
    return match.group(1), match.group(2), match.group(3) or ""


def wrap(text: str, lines: int) -> list[str]:
    """``text`` in ``lines`` lines (fewer if it has fewer words), cut at the runs of spaces that make
    them most even in the characters a viewer sees (``visible_length``).  Only plain and ideographic
    spaces (WRAP_GAP) outside tags and ASS codes are cut at, the line break taking their place, so
    every other character stays where it was: a ``<`` that opens no tag, a no-break space, an
    ideographic space between words on one line, ``{\\fad(200, 300)}`` whole."""
    text = text.strip(" ")
    gaps = [match.span(3) for match in WRAP_GAP.finditer(text) if match.group(3)]  # where a line may end
    bounds = [0, *(end for gap in gaps for end in gap), len(text)]
    widths = [visible_length(text[a:b]) for a, b in zip(bounds[::2], bounds[1::2], strict=True)]  # a word's
    cuts: list[int] = []  # the gaps cut at, by index
    for remaining in range(lines, 1, -1):
        first = cuts[-1] + 1 if cuts else 0  # the first word not yet on a line
        if len(widths) - first <= 1:
            break
        target = sum(width + 1 for width in widths[first:]) / remaining
        cuts.append(first - 1 + min(range(1, len(widths) - first),
                                    key=lambda k: abs(sum(width + 1 for width in widths[first:first + k]) - target)))
    starts = [0, *(gaps[k][1] for k in cuts)]
    ends = [*(gaps[k][0] for k in cuts), len(text)]
    return [text[a:b] for a, b in zip(starts, ends, strict=True)]


def visible_length(text: str) -> int:
    """The characters of cue text a viewer sees: its tags and ASS codes left out, an entity
    (``&amp;``) one character."""
    return len(ENTITY.sub("&", TOKEN.sub("", text)))
