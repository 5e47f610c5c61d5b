"""What a subtitle cue's whole text is wrapped in (attnmt.documents.subtitles): a voice span
(``<v Anna>…</v>``: cue_lines.speaker), or one tag or ASS code over all its words, as films' SRT
files set a narrator's or an off-screen voice in italics (``<i>A young woman in a red coat</i>`` /
``<i>is crossing the bridge.</i>``, ``{\\i1}…{\\i0}``).  Read as tags, such a cue ran on into no other
cue, and the second, translated alone, came back with a subject the model made up ("Eine Frau geht
über die Brücke."); kept around its text as a voice span is, its sentence runs on into the next cue
wrapped alike (``alike``: its every line in the tag, cue_line_tags, or all of it), and each cue's
part of the translation is wrapped in its own again.  So is a tag one cue opens over the rest of its text and a
later cue closes (``<i>A young woman`` / ``in a red coat.</i>``: ``open_ended``), as hand-made files set italics over
a sentence: each cue's part keeps the half it had.
"""

from __future__ import annotations

import re

from attnmt.documents.cue_lines import LINE_CODES, SPEAKER, VOICE_START, Turn, speaker

# One start tag (not a voice span's) or ASS code, the text, and the tag's end tag or an ASS code: fullmatched.
WRAPPED = re.compile(r"(<(?!v[\s.>])([^\s./<>]+)[^<>]*>|\{\\[^{}]*\})(\S(?:.*\S)?)(</\2>|\{\\[^{}]*\})", re.DOTALL)

# A start tag (not a voice span's) over all of a text that never closes it, or an end tag after all of a text that never
# opens it: fullmatched, its group 2 or 4 the text.
OPEN_ENDED = re.compile(r"(<(?!v[\s.>])[^\s/<>][^<>]*>)(\S(?:.*\S)?)|(?!<)(\S(?:.*\S)?)(</(?!v>)[^\s<>]+>)", re.DOTALL)

TAGS_BEFORE = re.compile(r"(?:<[^/<>][^<>]*>)*")  # the start tags a turn's start opens with, before its dash


def outer(text: str, tags: re.Pattern[str]) -> tuple[str, str, str]:
    """(start, text inside, end) of a cue's ``text``: a voice span over it (cue_lines.speaker), else
    one tag or ASS code over all of it (``wrapped``), or over all of a voice span's text, both kept:
    ``<v Anna><i>…</i></v>``; ("", text, "") where none is."""
    voiced = speaker(text, tags)
    if voiced[0]:
        return voiced
    voice = SPEAKER.fullmatch(text)
    if voice and (inside := wrapped(voice.group(2), tags))[0]:
        return voice.group(1) + inside[0], inside[1], inside[2] + (voice.group(3) or "")
    return found if (found := wrapped(text, tags))[0] else open_ended(text, tags)


def wrapped(text: str, tags: re.Pattern[str]) -> tuple[str, str, str]:
    """(start, text inside, end) of a ``text`` in one tag or ASS code and its end, both whole tags of
    its format's ``tags``, with no other inside and no space at its edges; ("", text, "") else."""
    match, first = WRAPPED.fullmatch(text), tags.match(text)
    # Each edge a whole tag or code of its format's: not a drawing's start ("{\p1}m 0 0 l 10 0{\p0}" is one code,
    # its commands no words), nor an ASS file's "<i>" (text).
    if match is None or first is None or first.end() != match.end(1) or not tags.fullmatch(match.group(4)) or (
            tags.search(match.group(3))):
        return "", text, ""
    return match.group(1), match.group(3), match.group(4)


def open_ended(text: str, tags: re.Pattern[str]) -> tuple[str, str, str]:
    """(start, text inside, end) of a ``text`` that opens a tag it never closes, or closes one it never opens, around
    all of it (``OPEN_ENDED``: ``<i>A young woman``, ``in a red coat.</i>``), a whole tag of its format's ``tags``
    with no other inside; ("", text, "") else."""
    match = OPEN_ENDED.fullmatch(text)
    if match is None or not tags.fullmatch(match.group(1) or match.group(4) or "") \
            or tags.search(match.group(2) or match.group(3)):
        return "", text, ""
    return match.group(1) or "", match.group(2) or match.group(3), match.group(4) or ""


def alike(turn: Turn, following: Turn, tags: re.Pattern[str]) -> bool:
    """Whether a cue's last ``turn`` may run on into the next cue's first, ``following``: both in the
    same tag or code (``look``), or neither in any but a voice span (whose speakers
    cue_lines.another_speaker tells apart), or ``turn``'s dash in the tag ``following`` is in
    (``dash_tags``).  Those of other tags, or one in tags and the other not, are apart."""
    wrapper, dashed, opened = look(following, tags), dash_tags(turn), look(turn, tags)
    return (wrapper == opened or bool(dashed) and wrapper == dashed
            or not wrapper and bool(open_ended(turn.text, tags)[0]))


def dash_tags(turn: Turn) -> str:
    """The start tags before a speaker's dash that the ``turn`` closes at its end (``<i>- He is walking
    to</i>``), "" for none: its words are in them, as a next cue's ``<i>the market.</i>`` is in its own."""
    before = TAGS_BEFORE.match(turn.start)
    return before.group() if before and turn.end else ""


def look(turn: Turn, tags: re.Pattern[str]) -> str:
    """The tag or code a ``turn`` is wrapped in: each of its lines' (``Turn.line_tags``: ``<i>A young
    woman</i>`` / ``<i>in a red coat</i>``), else all of its text's (``outer``); "" for none or a voice span."""
    start = line_opening(turn) if turn.line_tags else outer(turn.text, tags)[0]
    return "" if VOICE_START.fullmatch(start.rstrip()) else start


def opens(turn: Turn) -> bool:
    """Whether a cue's first ``turn`` begins with what starts a turn of its own (a speaker's dash, a
    lyric's notes: ``Turn.start``), not with its lines' tag alone (``<i>is crossing</i>`` / ``<i>the
    bridge.</i>``), which goes on with the cue before in that tag (``alike``)."""
    return bool(turn.start) and turn.start != line_opening(turn)


def line_opening(turn: Turn) -> str:
    """The tag or code each of a ``turn``'s lines opens with (``Turn.line_tags``), "" for none: an ASS
    Dialogue's (``{\\i1}A young woman{\\i0}\\N{\\i1}in a red coat{\\i0}``) is in the turn's start, where
    per_line_tags leaves a line's codes, read as that start where it holds nothing else (no dash)."""
    if turn.line_tags is None:
        return ""
    return turn.line_tags.opening or (turn.start if LINE_CODES.fullmatch(turn.start) else "")
