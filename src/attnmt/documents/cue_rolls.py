"""Roll-up captions (attnmt.documents.subtitles): a cue that repeats the last line of the cue before, as
YouTube's automatic captions and converted broadcast captions write every line twice, has that line written
as it was translated there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from attnmt.documents.cue_lines import has_text


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
    where ``first`` had none; ``first`` itself where that one was left with no text."""
    last = next((line for line in reversed(translated) if has_text(line)), "")
    copied = last if first in before else tags.sub("", last)
    return copied if has_text(copied) else first
