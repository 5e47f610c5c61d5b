"""ASS/SSA subtitles (Advanced SubStation Alpha, as Aegisub, ffmpeg and Subtitle Edit write them):
each ``Dialogue:`` event's Text translated, every other byte kept.

The file is read as Aegisub and libass read it: sections ``[Script Info]``, ``[V4+ Styles]`` (SSA's
``[V4 Styles]``), ``[Events]``, ``[Fonts]`` and ``[Graphics]``; in ``[Events]`` the ``Format:`` line
gives the fields' order (``Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect,
Text``; SSA has ``Marked`` for ``Layer``), and Text, the last field, may hold commas.  Only
``Dialogue:`` lines' Text is translated: ``Comment:`` lines, styles, timings, every other field
and line (its ending, a byte order mark) stay as they were.

The Text goes through the SRT pipeline (attnmt.documents.subtitles), each event a cue: override
blocks ``{…}`` are codes kept where their words go (a drawing, ``{\\p1}m 0 0 l 10 0{\\p0}``, is
never read, nor a comment block, ``{TL note}``), ``\\N`` parts the cue's lines (wrapped again
into as many, written back with ``\\N``), ``\\n`` and ``\\h`` are kept as codes that part words.
Karaoke ``{\\k20}`` codes are kept, each in order with the words it landed before: their durations
add up to the same time; those inside a word are taken into its first, so its translation is
highlighted for the whole word's time (attnmt.documents.ass_karaoke), but a syllable's timing is
lost, so sung lines are better left to a Comment or a style of their own, untranslated.  A sentence
runs over events as over SRT cues, in file order, among the events of one Layer and Style only (a
sign on another layer or style between two dialogue events does not part them), and never between
two speakers their Name fields name; an event with override codes (a sign's
``{\\an8\\pos(640,50)}``, italics) is joined to none, as an SRT cue with tags is not.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from attnmt.documents.ass_karaoke import joined_syllables
from attnmt.documents.cue_blocks import TIME, past_59, seconds
from attnmt.documents.cue_text import ass_text, shown_text
from attnmt.documents.flat import Place
from attnmt.documents.pipeline import DEFAULT_OPTIONS, DocumentOptions, check_inputs
from attnmt.documents.review import Review
from attnmt.documents.subtitles import LINE_END, translate_lf_subtitles
from attnmt.documents.translators import Translator
from attnmt.errors import DataError, LeftUntranslated, collected_warnings, warn

FORMATS = ("ass",)
ASS_START = re.compile(r"\ufeff?\s*\[script info\]", re.IGNORECASE)  # how an ASS or SSA file begins
NOTE = re.compile(r"\{(?!\\)[^{}]*\}")  # a block in Text without an override code: a comment, never shown
NOTE_CODE = re.compile(r"\{\\attnmt-note(\d+)\}")  # one standing for a comment block while the Text is translated
SECTION = re.compile(r"\ufeff?\s*\[([^\]]*)\]\s*")
DIALOGUE = re.compile(r"\ufeff?\s*Dialogue:[ \t]*")
FORMAT = re.compile(r"\ufeff?\s*Format:[ \t]*(.*)")
ASS_TIME = re.compile(TIME)  # a Dialogue's Start or End: "0:00:01.50"
LINE_BREAK = "\\N"  # ASS's hard line break in Text
# The number and timing line of a cue of translate_texts' SRT text, as it wrote them (no cue text reads so).
NO_TAG = "a '<' that opens no tag"  # what attnmt.documents.cue_text warns of a "<" in SRT text
SEPARATOR = "#\n\n"  # a block that is no cue, between two cues not to be joined (translate_texts)
CUE_HEAD = re.compile(r"(?:^|\n)\d+\n(\d+):00:00,000 --> (?:\1):00:01,000(?:\n|$)")


@dataclass(frozen=True)
class Event:
    """A Dialogue line's Text: the line (from 0), where its Text starts and where it ends before the
    spaces it ends with (kept as they are: wrapped anew, a translation has none), the Layer and Style
    it is shown in (its events joined into sentences among themselves only), and the speaker its
    Name (Actor) field names, if any."""

    line: int
    start: int
    end: int
    group: tuple[str, str]
    name: str


def translate_ass_text(text: str, translator: Translator, options: DocumentOptions = DEFAULT_OPTIONS,
                       where: str = "input", review: Review | None = None) -> str:
    """An ASS or SSA file's text with each Dialogue event's Text translated; every other byte as it was.
    DataError, naming the line, for a Dialogue line in ``[Events]`` before its ``Format:`` line."""
    check_inputs(translator, options, review)
    endings = LINE_END.findall(text)
    lines = LINE_END.split(text)
    events = dialogue_events(lines, where)
    notes: list[str] = []  # the comment blocks of every Text, each standing in it as NOTE_CODE's k-th
    read = {event.line: hidden_notes(lines[event.line][event.start:event.end], notes) for event in events}
    texts = {line: joined_syllables(text) for line, text in read.items()}  # a karaoke word's codes in one
    groups: dict[tuple[str, str], list[Event]] = {}
    first_segment = len(review.segments) if review else 0
    for event in events:
        if text_lines(texts[event.line]):
            groups.setdefault(event.group, []).append(event)
    for group in groups.values():
        apart = [k > 0 and bool(event.name and group[k - 1].name) and event.name != group[k - 1].name
                 for k, event in enumerate(group)]
        translated = translate_texts([texts[event.line] for event in group], [event.line + 1 for event in group],
                                     apart, translator, options, where, review)
        for event, new in zip(group, translated, strict=True):
            new = read[event.line] if new == texts[event.line] else new  # unchanged, its syllables as they came
            line, new = lines[event.line], NOTE_CODE.sub(lambda code: notes[int(code[1])], new)
            lines[event.line] = line[:event.start] + new + line[event.end:]
    if review:  # in the file's order, not by Layer and Style
        review.segments[first_segment:] = sorted(review.segments[first_segment:], key=lambda seg: seg.place.number)
    return "".join(line + ending for line, ending in zip(lines, [*endings, ""], strict=True))


def hidden_notes(text: str, notes: list[str]) -> str:
    """``text`` with each block ``{…}`` that holds no override code (``{TL note: a pun}``, the
    original line, as fansub scripts keep them: shown by no player) as an override code of its own
    (NOTE_CODE), which the SRT pipeline keeps where its words go and never reads; the block added to
    ``notes``, from which the code is put back (read as text, the model translated the note)."""

    def hidden(block: re.Match[str]) -> str:
        notes.append(block.group())
        return f"{{\\attnmt-note{len(notes) - 1}}}"

    return NOTE.sub(hidden, text)


def is_ass(text: str) -> bool:
    """Whether ``text`` is an ASS or SSA file's: it begins with its ``[Script Info]`` section."""
    return ASS_START.match(text) is not None


def dialogue_events(lines: Sequence[str], where: str) -> list[Event]:
    """The Dialogue lines of the ``[Events]`` section, read by its ``Format:`` line; a line with
    fewer fields than that names is kept as it was, with a warning naming it, and so are Dialogue lines outside
    ``[Events]`` (a file cut off above it, or without its head), the first named: no player shows them, and kept
    without a word, the file came back untranslated as if translated."""
    section, fields = "", None  # the section's name, lower case; the Format: line's fields, lower case
    events, outside = [], False
    for number, line in enumerate(lines):
        if heading := SECTION.fullmatch(line):
            section, fields = heading.group(1).strip().lower(), None
            continue
        if section != "events":
            if DIALOGUE.match(line) and not outside:
                outside = True
                warn(f"{where}, line {number + 1}: a Dialogue line outside [Events], which players do not show, so "
                     "it is kept as it was, untranslated; put it under [Events], after its Format: line",
                     category=LeftUntranslated)
            continue
        if found := FORMAT.match(line):
            fields = [field.strip().lower() for field in found.group(1).split(",")]
            if fields[-1] != "text":  # then Text is no field that may hold commas, and nothing is read right
                warn(f"{where}, line {number + 1}: the Format: line of [Events] does not end with Text, so its "
                     "Dialogue lines are kept as they were, untranslated", category=LeftUntranslated)
                fields = []
            continue
        if not (dialogue := DIALOGUE.match(line)):
            continue
        if fields == []:
            continue
        if fields is None:
            raise DataError(f"{where}, line {number + 1}: a Dialogue line in [Events] before its Format: line, so its "
                            "fields cannot be told apart; add 'Format: Layer, Start, End, Style, Name, MarginL, "
                            "MarginR, MarginV, Effect, Text' right after [Events]")
        values = line[dialogue.end():].split(",", len(fields) - 1)
        if len(values) < len(fields):
            warn(f"{where}, line {number + 1}: a Dialogue line with {len(values)} fields where the Format: line names "
                 f"{len(fields)} (Text last), so it is kept as it was, untranslated", category=LeftUntranslated)
            continue
        named: dict[str, str] = dict(zip(fields, values, strict=True))
        check_times(named.get("start", "").strip(), named.get("end", "").strip(), where, number + 1)
        start = len(line) - len(values[-1])
        group = (named.get("layer", named.get("marked", "")).strip(), named.get("style", "").strip())
        end = start + len(values[-1].rstrip(" \t"))
        events.append(Event(number, start, end, group, named.get("name", "").strip()))
    return events


def check_times(start: str, end: str, where: str, number: int) -> None:
    """Warns where a Dialogue's Start or End counts minutes or seconds past 59 (``0:00:61.00``: cue_blocks.past_59)
    or its End comes before its Start, as an SRT cue's timing line is warned about: its Text is translated and
    its times kept, for only the file's author can tell the times meant (``number``: its line in ``where``)."""
    if not (ASS_TIME.fullmatch(start) and ASS_TIME.fullmatch(end)):
        return
    past = next((unit for unit in map(past_59, (start, end)) if unit), "")
    problem = (f"count {past}, where a time's {past.split()[1]} run to 59" if past
               else "end before they start" if seconds(start) > seconds(end) else "")
    if problem:
        warn(f"{where}, line {number}: a Dialogue's Start and End ({start}, {end}) {problem}; its Text is translated "
             "and its times kept as they were")


def text_lines(text: str) -> list[str]:
    """A Text's lines as an SRT cue's: parted at ``\\N``; one line, its ``\\N`` codes kept where
    they are, where a part would show nothing (``{\\an8}\\NHello``: a blank line on top, which wrapped
    anew was lost; a blank line would end the cue), none for a Text without anything but spaces."""
    if not text.strip():
        return []
    parts = text.split(LINE_BREAK)
    return parts if all(shown_text(part, False).strip() for part in parts) else [text]


def translate_texts(texts: Sequence[str], lines: Sequence[int], apart: Sequence[bool], translator: Translator,
                    options: DocumentOptions, where: str, review: Review | None) -> list[str]:
    """Texts of one Layer and Style, in file order, translated as the cues of one SRT file; ``lines``:
    the file's line (from 1) each is on, which the warnings and ``review`` of that SRT file are told
    in place of its own lines (``in_file_lines``).  A text ``apart`` from the one before (another
    speaker's, by their Name fields) has a block between them (SEPARATOR), so no sentence runs on
    from one into the other: "I saw a man" (Anna) / "in the park." (Ben) are two."""
    cues: list[str] = []
    at: dict[int, int] = {}  # each line of the SRT file's cue text, the file's line it stands for
    first = 3  # the line cue k's text starts on: after the cues before, each with a blank line, its number and timing
    parting = set()  # the lines of the SEPARATOR blocks, whose warnings are no one's business
    for k, (text, line) in enumerate(zip(texts, lines, strict=True)):
        parts = text_lines(text)
        if apart[k]:
            parting.add(first - 2)
            first += 2
        cues.append(SEPARATOR * apart[k] + f"{k + 1}\n{k}:00:00,000 --> {k}:00:01,000\n" + "\n".join(parts))
        at.update({first + j: line for j in range(len(parts))})
        first += len(parts) + 3
    srt = "\n\n".join(cues) + "\n"
    counted = Counter(review.counted) if review else Counter()
    first_segment = len(review.segments) if review else 0
    with collected_warnings() as heard, ass_text():
        translated = translate_lf_subtitles(srt, ["\n"] * srt.count("\n"), translator, options, where, review,
                                            vtt=False)
    for warning in heard:
        said = str(warning)
        # ASS has no tags: its every "<" is text, which is nothing to warn about
        if not any(said.startswith(f"{where}, line {number}:") for number in parting) and NO_TAG not in said:
                warn(in_file_lines(said, where, at), category=type(warning))
    if review:
        for segment in review.segments[first_segment:]:
            segment.place = Place(None, at.get(segment.place.number, segment.place.number))
        added = review.counted - counted
        review.counted = counted + Counter({Place(None, at.get(place.number, place.number)): n
                                            for place, n in added.items()})
    # each cue's text after its own number and timing line, kept as they were: an empty line of text is no end here
    heads = list(CUE_HEAD.finditer(translated))
    ends = [head.start() for head in heads[1:]] + [len(translated)]
    texts = [translated[head.end():end].rstrip("\n").removesuffix("\n\n" + SEPARATOR.strip())
             for head, end in zip(heads, ends, strict=True)]
    return [LINE_BREAK.join(text.split("\n")) for text in texts]


def in_file_lines(message: str, where: str, at: Mapping[int, int]) -> str:
    """A warning about the SRT file of ``translate_texts`` as one about the ASS file: the lines it
    names (``input, line 7``, ``input, lines 7 and 11``) those of the ASS file they stand for."""
    named = re.compile(rf"({re.escape(where)}, lines? )(\d+)(?: and (\d+))?")

    def moved(found: re.Match[str]) -> str:
        numbers = [str(at.get(int(n), n)) for n in found.groups()[1:] if n]
        return found.group(1) + " and ".join(numbers)

    return named.sub(moved, message)
