"""Roll-up captions (attnmt.documents.subtitles): a cue that repeats the last line of the cue before, as
YouTube's automatic captions and converted broadcast captions write every line twice, has that line written
as it was translated there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from attnmt.documents.cue_lines import has_text
from attnmt.documents.cue_text import tag_name


def rolled(cues: Sequence[Sequence[str]], tags: re.Pattern[str]) -> list[bool]:
    """Whether each of ``cues`` (their text lines) opens with the last line with text of the cue before, as
    roll-up captions write every line twice, once as it comes in and again above the next (YouTube's
    automatic captions, broadcast captions converted): byte for byte, or as shown, where the line
    repeated has no tags of its own (YouTube's words each in its ``<c>`` with a timestamp, then plain)."""
    found = [False][:len(cues)]  # the first cue repeats none
    for before, lines in pairwise(cues):
        last = next((line for line in reversed(before) if has_text(line)), "")
        first = lines[0] if lines else ""
        found.append(has_text(first) and (first == last or (
            not tags.search(first) and tags.sub("", first).strip() == tags.sub("", last).strip())))
    return found


def repeated_line(first: str, before: Sequence[str], translated: Sequence[str], tags: re.Pattern[str]) -> str:
    """A rolled cue's first line (``rolled``) written as the line it repeats was translated: the last
    line with text of ``translated`` (the cue before's new lines; ``before``, its lines), without its tags
    where ``first`` had none, or where they are no whole spans of their own (``spans_whole``: wrapped anew,
    the line may end a span the line above it opened, "HERE GOING</v> 42") nor ``first``'s tags; ``first``
    itself where that one was left with no text."""
    last = next((line for line in reversed(translated) if has_text(line)), "")
    own = spans_whole(last, tags) or [tag.group() for tag in tags.finditer(last)] == [
        tag.group() for tag in tags.finditer(first)]
    copied = last if first in before and own else tags.sub("", last)
    return copied if has_text(copied) else first


def spans_whole(line: str, tags: re.Pattern[str]) -> bool:
    """Whether each end tag of ``line`` closes a start tag opened in it before, and each start tag it opens is
    closed in it (timestamps and ASS codes, which open no span, aside)."""
    opened: list[str] = []
    for match in tags.finditer(line):
        tag = match.group(1) or ""
        name = tag_name(tag)
        if not name or tag[:1].isdigit():
            continue
        if not tag.startswith("/"):
            opened.append(name)
        elif name in opened:
            del opened[len(opened) - 1 - opened[::-1].index(name):]
        else:
            return False
    return not opened
