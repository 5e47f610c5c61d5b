"""A subtitle file's lines written back, each with its own ending (attnmt.documents.subtitles): CRLF,
LF or a lone CR, a file mixing them included; a cue's text wrapped anew takes the ending its lines had."""

from __future__ import annotations

from collections.abc import Sequence


def cue_endings(own: Sequence[str], count: int, first: str) -> list[str]:
    """The endings of a cue's ``count`` lines of translated text, ``own`` those of its lines of
    source text: the one ending these have, or where they mix them (a stray CR in a CRLF file), that
    of the cue's first line (``first``: its number's, or its timing line's).  Wrapped anew, its lines
    are not the source's, so no line's ending is its own.  The file's last line, without one, mixes
    nothing."""
    kinds = {ending for ending in own if ending}
    return [kinds.pop() if len(kinds) == 1 else first] * count


def rejoined(lines: Sequence[str], endings: Sequence[str]) -> str:
    """A piece of the file (a block, or the blank lines between two: cue_blocks.BLOCK_GAP) written back,
    each of its ``lines`` but the last with its ending, ``endings[k]`` line k's: the last line's
    is the next piece's first character."""
    return "".join(line + ending for line, ending in zip(lines[:-1], endings, strict=False)) + lines[-1]
