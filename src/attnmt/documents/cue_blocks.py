"""A subtitle file's blocks and their timing lines (attnmt.documents.subtitles).

SRT and WebVTT files are blocks separated by empty lines; in a cue, the line with ``-->`` holds
the timings (and WebVTT's cue settings), the lines before it the cue's number or identifier, the
lines after it the text.  Blocks without ``-->`` (the ``WEBVTT`` header, ``NOTE``, ``STYLE``,
``REGION``) are not cues.  What a player would skip or show wrongly is warned about, naming the
line: a WebVTT file without its header, a timing line without its arrow, one without two whole
times, counting minutes or seconds past 59 or ending before it starts, cues run together without a
blank line between them (not where a line of spaces parts them), and any other block (left
untranslated).  A WebVTT cue's karaoke timestamps are put back in time order (``in_time_order``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from attnmt.errors import LeftUntranslated, warn

# Empty lines, which end a block: a line of spaces does not (WebVTT ends a cue only at an empty line,
# and srt reads on over one), and stays in its cue as it is; one before a cue's number and timing line
# parts two cues of a block as a blank line would (block_cues).
BLOCK_GAP = re.compile(r"(\n\n+)")
TIME = r"\d+:\d{2}(?::\d{2})?(?:[,.]\d+)?"
# A timing line: two whole times (not "00:00:02" of "00:00:02;000"), after a file's byte order mark if first.
TIMING = re.compile(rf"\ufeff?\s*({TIME})\s*-->\s*({TIME})(?=\s|$)")
# A time as WebVTT's parser reads one, hours optional: "01:02.500", "1:01:02.500" ("00:01.5", "00:03" are skipped).
VTT_TIME = re.compile(r"(?:\d+:)?\d{2}:\d{2}\.\d{3}")
CUE_START = re.compile(rf"\s*{TIME}\s*-->\s*{TIME}")  # starts as a timing line (cue text may hold "-->")
LOOSE_TIMING = re.compile(rf"\ufeff?\s*{TIME}\D{{1,8}}{TIME}")  # two times with something else than " --> " between
# A WebVTT file's first line: its signature, after a byte order mark, then a space, a tab or the line's end.
HEADER = re.compile(r"\ufeff?WEBVTT(?=[ \t\n]|$)")
NOT_CUES = re.compile(r"\ufeff?(?:WEBVTT|NOTE|STYLE|REGION)(?:\s|$)")  # WebVTT's blocks that hold no cue
# A WebVTT header's line naming a metadata track: "Kind: metadata", as YouTube and HLS tools write the
# kind of an HTML <track> (whose kind keywords are read in any case) below the WEBVTT line.
TIMESTAMP = re.compile(r"<((?:\d+:)?\d+:\d{2}\.\d+)>")  # a WebVTT timestamp in cue text (karaoke): <00:01.500>
METADATA_KIND = re.compile(r"[ \t]*kind[ \t]*:[ \t]*metadata[ \t]*", re.IGNORECASE)
# A WebVTT header's line naming the language of its cues ("Language: en", as YouTube writes it): group 2 the code.
LANGUAGE = re.compile(r"([ \t]*language[ \t]*:[ \t]*)(\S+)", re.IGNORECASE)


def seconds(time: str) -> float:
    """A time as a timestamp or timing line writes it: "01:02.500" -> 62.5 (SRT: "00:01:02,500")."""
    return sum(float(part) * 60 ** k for k, part in enumerate(reversed(time.replace(",", ".").split(":"))))


def is_webvtt(text: str, named: bool, where: str) -> bool:
    """Whether a subtitle file's ``text`` (in LF lines) is read as WebVTT: its first line is the WEBVTT
    header (``HEADER``), or its name or --input-format says it is (``named``: .vtt, .webvtt).  A file named
    so without the header is warned about, naming its first line: browsers and webvtt-py refuse such a
    file whole (the WebVTT parser stops at a first line that is not the header), where pysubs2 reads on;
    so it is translated as the WebVTT it says it is (its timestamps, voices and notes read as WebVTT's),
    and written as it was, its lines kept: the fix is one line, which its author adds.  One whose first
    timing line has SRT's commas is an SRT file named .vtt: it is read as SRT, with one warning, not one
    a cue for commas WebVTT does not take."""
    if HEADER.match(text):
        return True
    if not named or not text.strip("\ufeff \t\n"):
        return named
    first = text.split("\n", 1)[0]
    timing = next((match for line in text.split("\n") if (match := TIMING.match(line))), None)
    srt = timing is not None and "," in timing.group(1) + timing.group(2)
    read = "its timings are SRT's, so it is translated as SRT (name it .srt)" if srt else (
        "so it is translated as WebVTT and written as it was (add WEBVTT and a blank line before its first line)")
    warn(f"{where}, line 1: a WebVTT file starts with the line WEBVTT, not {first[:40]!r}; browsers and webvtt-py "
         f"refuse a file without it, and {read}", stacklevel=3)
    return not srt


def metadata_line(text: str) -> int | None:
    """The line (from 1) of a WebVTT file's header that says it is a metadata track (METADATA_KIND),
    in the file's text in LF lines; None where its header says no such thing.  The header runs from
    the WEBVTT line to the first blank line or timing line."""
    header = BLOCK_GAP.split(text, maxsplit=1)[0].split("\n")
    for number, line in enumerate(header[1:], start=2):
        if "-->" in line:
            return None
        if METADATA_KIND.fullmatch(line):
            return number
    return None


def said_language(header: str, target_lang: str | None) -> str:
    """A WebVTT file's first block with the language a ``Language:`` line of its header names (up to a
    timing line: a file without the blank line after its header) replaced by ``target_lang`` (None: left as
    it was): translated, a file said its cues were in the source's language, and a player or an upload
    offered them under it.  Its other lines, and the spaces around the code, as they were."""
    lines = header.split("\n")
    for k, line in enumerate(lines):
        if "-->" in line or not target_lang:
            break
        if LANGUAGE.fullmatch(line.rstrip(" \t")):
            lines[k] = LANGUAGE.sub(lambda found: found.group(1) + target_lang, line, count=1)
    return "\n".join(lines)


def block_cues(block: str, vtt: bool, where: str, first_line: int) -> list[tuple[list[str], list[str]]]:
    """A block's cues, each as (its lines up to its timing line, its text lines), together its
    lines up to the last with text; none for a block that is no cue (``timing_line``).  Cues run
    together without a blank line between them are told apart by their timing lines, with a warning;
    where a line of spaces parts them (editors leave spaces on the blank line between cues), there is
    nothing to warn about, and the line stays after the cue before as it was."""
    lines = block.split("\n")
    # a file's byte order mark alone on its first line (an empty file saved with one) is no text either
    last = max((k for k, line in enumerate(lines) if line.lstrip("\ufeff").strip()), default=-1)
    timing = timing_line(lines[:last + 1], vtt, where, first_line) if last >= 0 else None
    if timing is None or last == timing:
        return []
    # Any line after a timing line may start the next cue, the very next one too (a cue without text):
    # WebVTT's parser ends a cue's text at a line with "-->".
    timings = [timing] + [k for k in range(timing + 1, last + 1) if CUE_START.match(lines[k])]
    # A cue's number sits right above its timing line (below the timing line before it).
    starts = [0] + [k - 1 if lines[k - 1].strip().isdigit() and k - 1 > before else k
                    for before, k in zip(timings, timings[1:], strict=False)]
    for start in (start for start in starts[1:] if lines[start - 1].strip()):  # a line of spaces parts them
        warn(f"{where}, line {first_line + start}: a cue starts without a blank line before it; it is "
             "translated as a cue of its own", stacklevel=3)
    for k in timings:
        check_timing(lines[k], vtt, where, first_line + k)
    ends = [*starts[1:], last + 1]
    return [(lines[start:k + 1], lines[k + 1:end]) for start, k, end in zip(starts, timings, ends, strict=True)]


def timing_line(lines: Sequence[str], vtt: bool, where: str, first_line: int) -> int | None:
    """Which of a block's lines holds its timings: the first with "-->", else one that reads as
    timings written wrongly (two times, e.g. ``00:00:01,000 -> 00:00:02,000``: its cue is
    translated, the line kept as it was, with a warning); None for a block that is no cue (WebVTT's
    header, notes, styles and regions; any other block with a warning, as it is left untranslated).
    A WebVTT file's first block without timings is its header, whatever it says (``webvtt``, a
    blank line before ``WEBVTT``: is_webvtt warned of it).  ``first_line``: the block's first line in
    the file ``where``."""
    found = next((k for k, line in enumerate(lines) if "-->" in line), None)
    if found is not None or (vtt and NOT_CUES.match(lines[0])):
        return found
    guessed = next((k for k, line in enumerate(lines) if LOOSE_TIMING.match(line)), None)
    if guessed is None and vtt and first_line == 1:
        return None
    if guessed is None:
        warn(f"{where}, line {first_line}: a block without a timing line ({timing_example(vtt)}) is not a "
             "cue, so it is left untranslated (if it goes on with the cue before it, take out the blank line)",
             stacklevel=4, category=LeftUntranslated)
    else:
        warn_timing(f"written as {lines[guessed].strip()!r}, not as {timing_example(vtt)}", where, first_line + guessed)
    return guessed


def check_timing(line: str, vtt: bool, where: str, number: int) -> None:
    """Warns where a timing line with its arrow is no two times (``00:00:04,000 -->``,
    ``00:00:09;000 --> 00:00:10;000``), counts minutes or seconds past 59 (``00:00:61,000``, ``past_59``),
    is WebVTT's with SRT's commas (``00:00:01,000 --> 00:00:02,000``: browsers and webvtt-py drop the
    cue) or with other digits than WebVTT's (``00:01.5``, ``00:03``: ``VTT_TIME``), or ends before it
    starts: players skip such a cue or show it wrongly, and it is the file's author who can tell the
    times meant (``number``: the line's in the file ``where``).  A line without its arrow was warned
    about by ``timing_line``."""
    match = TIMING.match(line)
    if "-->" not in line:
        return
    past = next((unit for unit in map(past_59, match.groups() if match else ()) if unit), "")
    if past:
        readers = "browsers and webvtt-py skip such a cue" if vtt else "srt and pysubs2 carry them into the next unit"
        warn_timing(f"{line.strip()!r} count {past}, where a time's {past.split()[1]} run to 59 ({readers})", where,
                    number)
    elif match and vtt and "," in match.group(1) + match.group(2):
        warn_timing(f"written as {line.strip()!r}, with SRT's commas, not as {timing_example(vtt)} (players skip "
                    "such a cue)", where, number)
    elif match and vtt and not all(VTT_TIME.fullmatch(time) for time in match.groups()):
        warn_timing(f"written as {line.strip()!r}, not as {timing_example(vtt)} (browsers skip such a cue: a WebVTT "
                    "time has two digits of minutes and of seconds and three after its point)", where, number)
    elif match and seconds(match.group(1)) > seconds(match.group(2)):
        warn_timing(f"{line.strip()!r} end before they start", where, number)
    elif not match:
        warn_timing(f"written as {line.strip()!r}, not as {timing_example(vtt)}", where, number)


def past_59(time: str) -> str:
    """The minutes or seconds of a time that go past 59, in words ("61 seconds" of "00:00:61,000", "75
    minutes" of "00:75:01,000" or WebVTT's "75:01.000"): no player's time, a typo for another; "" where
    none do.  Of "hh:mm:ss" the hours may be any number; of WebVTT's short "mm:ss" none of the two."""
    *_, minute, second = ["0", *time.replace(",", ".").split(":")]
    return f"{int(float(second))} seconds" if float(second) >= 60 else f"{minute} minutes" if int(minute) >= 60 else ""


def warn_timing(problem: str, where: str, number: int) -> None:
    warn(f"{where}, line {number}: timings {problem}; the cue's text is translated and the line kept as it was",
         stacklevel=5)


def timing_example(vtt: bool) -> str:
    return "00:01.000 --> 00:02.500" if vtt else "00:00:01,000 --> 00:00:02,500"


def in_time_order(lines: list[str]) -> list[str]:
    """A WebVTT cue's lines with its timestamps' values (karaoke's ``<00:01.500>``) put in ascending
    order at the places they landed: a translation that turns the words around takes the
    timestamps with them, and WebVTT wants each later than the one before.  Line by line, so that a
    cue without text stays without a line (its lines joined and split again, it gained an empty one,
    a blank line the file did not have)."""
    found = (match.group() for line in lines for match in TIMESTAMP.finditer(line))
    values = iter(sorted(found, key=lambda tag: seconds(tag[1:-1])))
    return [TIMESTAMP.sub(lambda _: next(values), line) for line in lines]
