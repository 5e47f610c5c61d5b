"""A cue's lines as speakers say them and as a viewer sees them (attnmt.documents.subtitles).

A speaker's turn begins at a line beginning with a dash and a space (after any start tags, ASS
codes, bidirectional controls and spaces: ``<i>- Hi.``, ``{\\an8}- Hi.``, ``<v Anna> - Hi.``,
``\\u202b- Hi.``) and runs to the next, or is a line of one voice span (a dash right before a digit
is a minus, ``-5 degrees``, no speaker's); a lyric's line, one beginning with a musical note
(``♪ La la la ♪``, or broadcast captions' ``# La la la #``), begins a turn as a dash does, its notes
kept at both ends.  Each is translated alone, keeping its start and the end tags that close nothing in it, and
wrapped again into as many lines as it had (a one-line cue into two where too long for one: cue_wrap.fitted),
of even lengths in the characters shown, each after its indentation and the ASS codes of its first line that
it repeats (``{\\an8}`` on every line); a voice span over a whole cue is its speaker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from attnmt.documents.bidi import CONTROLS
from attnmt.documents.cue_edges import ENDED, NO_BREAK, NOTES, OPENING, SUNG, SUNG_CLOSE, SUNG_START, TAIL, cue_edges
from attnmt.documents.cue_labels import BRACKETED, DESCRIPTION, is_name, shown_places, split_label
from attnmt.documents.cue_line_tags import LineTags, closing_tags, colours, per_line_tags, start_tags, unclosed_starts
from attnmt.documents.cue_wrap import MOST_LINES, fitted, sentence_counts, too_long

# What may come before a speaker's dash on a line: start tags, ASS codes and bidirectional controls ("<i>- Hello.",
# "{\an8}- Hello.", "\u202b- Hello.": Hebrew and Arabic subtitles start a line with RLE or RLM so that its dash
# shows on the right), each with any spaces after it ("<v Anna> - Hello."), kept as written.
LEAD = r"(?:(?:<[^/<>][^<>]*>|\{\\[^{}]*\}|[" + "".join(sorted(CONTROLS)) + r"])\s*)*"
# A speaker's dash: a hyphen, the en or em dash, or two hyphens ("-- Hello."), as typewriters wrote a
# dash and some subtitles still do; two are read first (atomic: one is not tried after them), so that
# the second is not the turn's text.  One followed by a digit is a minus ("-5 degrees"), never a
# speaker's: read as one, the sign would be lost, where a speaker's dash read as a minus stays.
DASH = r"(?P<dash>(?>--|[-‐–—]))(?!\d)"
# A speaker's line in a cue of two or more: "- Hello." ("-Hello." too), after any start tags or ASS
# codes, kept with the dash as the line's start.
DIALOGUE = re.compile(rf"(?P<start>{LEAD}{DASH}\s*)(?P<text>\S.*)")
# A dash that begins a speaker's turn in any cue: followed by a space, so that neither a hyphen
# ("-ish") nor a number's minus ("-5 degrees") is one.
DASH_TURN = re.compile(rf"(?P<start>{LEAD}{DASH}\s+)(?P<text>\S.*)")
NO_BREAK_END = re.compile(r"[ \t\u00a0\u202f]*[\u00a0\u202f]")  # from a line's text's end to its last no-break space
# A line's indentation: spaces, and no-break spaces written as themselves or as references ("&nbsp;- Hello.").
INDENT = re.compile(rf"(?:\s|{NO_BREAK})*", re.IGNORECASE)
LINE_CODES = re.compile(r"(?:\{\\[^{}]*\}\s*)+")  # the ASS codes a line starts with ("{\an8}", "{\an8}{\i1}")
# A lyric's line: one beginning with notes (after what may come before a dash), sung, not said ("♪ La la la ♪"): it
# begins a turn of its own as a speaker's dash does, so that two lyrics' lines are not read as one sentence.
LYRIC = re.compile(rf"(?P<start>{LEAD}{SUNG}\s*)(?P<text>[^\s{NOTES}].*)")
# The notes a lyric's text ends with ("La la la ♪"), and the no-break spaces after them that the line kept
# (kept_end: "La la la ♪\u00a0", "La la la ♪&nbsp;"): read as the text's end, they hid its notes from it.
SUNG_END = re.compile(rf"\s*{SUNG_CLOSE}(?:\s|{NO_BREAK})*$", re.IGNORECASE)
# Where the dash a turn starts with ({dash}) begins another speaker's turn on one of its lines: after
# a sentence's end (and any closing quotes or brackets) or a lyric's closing notes, and spaces, the spaces group 1.
# Or where sound descriptions follow a sentence's end and words follow them ("Stop! [DOOR SLAMS] Who's there?"): read
# with the next sentence, the descriptions went where the alignment put its words; begun there, they are its label.
CLOSING_CODES = r"(?:</[^<>]*>|\{\\[^{}]*\})*"  # end tags and ASS codes after a text: "</i>", "{\i0}"
DESCRIPTIONS = rf"{OPENING}{BRACKETED}(?:\s*{BRACKETED})*{CLOSING_CODES}"  # with their tags: "<i>[DOOR SLAMS]</i>"
NEWLINES = re.compile(r"[ \t]*[\r\n]+[ \t]*")  # line breaks in a translation, with the spaces around them
VOICE_START = re.compile(r"<v(?:[.\s][^<>]*)?>")  # a voice span's start tag (<v Roger>, <v.loud Roger>)
SPEAKER = re.compile(rf"({VOICE_START.pattern})(.*?)(</v>)?", re.DOTALL)  # a voice span over a whole cue (fullmatch)
VOICE_TAG = re.compile(r"</?v[.\s>]")  # a voice span's start or end tag (<v Roger>, <v.loud Roger>, </v>)


@dataclass
class Turn:
    """One speaker's part of a cue, translated as one text: ``start`` kept before its first line
    (tags, ASS codes and the dash with its space), ``text`` translated, ``end`` kept after its last
    line (end tags that close nothing opened in it); ``lines``: the cue's lines it was read from,
    as written, ``line`` the first one's index among the cue's lines; ``gap``: the spaces before it
    where it goes on the line of the turn before ("- Hi. - Hello."), None where it starts a line;
    ``voiced``: it is of a cue of a voice a line (each line another speaker's voice span), whose
    turns are each speaker's own and run on into no other cue; ``sung``: it is a lyric's (LYRIC),
    its notes in its start and end, and runs on into no other cue; ``labelled``: it begins at a
    label on a later line of its cue (``labelled_lines``), as a dashed turn begins at its dash; ``line_tags``: the
    start and end tag each of its lines is wrapped in (``per_line_tags``), taken out of ``text``."""

    start: str
    text: str
    end: str
    lines: list[str]
    line: int = 0
    labelled: bool = False
    gap: str | None = None
    voiced: bool = False
    sung: bool = False
    line_tags: LineTags | None = None


def turn_gap(dash: str) -> re.Pattern[str]:
    """Where a turn's ``dash`` (a pattern), after any descriptions that end the turn before ("- Hi. [knocks] -
    Hello.") and start tags before it ("<v Anna>- Hi.</v> <v Ben>- Fine.</v>"), or descriptions before words
    that start a sentence ("Stop! [DOOR SLAMS] Who's there?", not "e.g. (a hammer) to fix it"), begin
    another turn on its line: the spaces before them, group 1 or 2 (``lastindex``)."""
    ended = rf"(?:[.?!…][\"”’)]*|{SUNG_CLOSE}){CLOSING_CODES}"  # and the end tags and ASS codes after it
    described = rf"{DESCRIPTIONS}\s+(?!{dash}\s)(?![a-z])\S"
    return re.compile(rf"{ended}(?:(?:\s+{DESCRIPTIONS})?(\s+)(?={OPENING}{dash}\s)|(\s+)(?={described}))")


DESCRIBED = turn_gap("(?!)")  # in a turn without a dash: at descriptions only


def turns(text_lines: Sequence[str], tags: re.Pattern[str], speakers: frozenset[str] = frozenset()) -> list[Turn]:
    """A cue's speakers' turns.  Two or more lines each one voice span, each another speaker's than
    the line before ("<v Anna>Hi.</v>" / "<v Bob>Hello.</v>"), are a turn a line, whole, its voice kept by
    ``speaker`` (one speaker's sentence over two lines stays one text), or, where the span starts with a dash
    ("<v Anna>- Hi.</v>"), the voice tag and the dash its start; so are two or more lines each beginning with a dash
    (DIALOGUE: "-Hi." / "-Hello." too, not the minus of "-5" / "-3").  Else a turn begins at each line beginning
    with a dash and a space (DASH_TURN: "Where is he?" / "- Here.", "- Where is the man" / "with the dog?" / "-
    Here."), the first turn without one where the cue starts without it.  A turn begun with a dash is parted where
    that dash follows a sentence's end on its lines ("- Hi. - Hello.", "Hi." / "- Hello. - Bye.", "<v Anna>- Hi. -
    Hello.</v>": ``parted``).  A lyric's line (LYRIC: "♪ The children are singing ♪" / "♪ The dog is running ♪")
    begins a turn as a dash does, parted at descriptions only, and so does a later line opening with a label
    (``labelled_lines``: "MARY: Here.", or one of a dialogue's ``speakers``) or in another colour than the line
    before (``colours``), or descriptions between two sentences of a line ("Stop! [DOOR SLAMS] Who's there?":
    ``turn_gap``).  A cue without a dash, a note or a label so is one turn, its lines joined, as is any cue of one
    line without one; the notes it ends with, where it does not begin with one (a lyric's end, run on from the cue
    before: "in the park ♪"), are kept at its end, as a lyric's turn keeps them.  ``tags``: the cue's format's
    (cue_text.tags_of)."""
    said = [k for k, line in enumerate(text_lines) if has_text(line)]
    stripped = [line_parts(text_lines[k], "", False)[1] for k in said]
    dash = (DIALOGUE if len(said) > 1 and all(DIALOGUE.fullmatch(line) or LYRIC.fullmatch(line) for line in stripped)
            else DASH_TURN)
    voiced = (len(said) > 1 and all(map(is_voice_line, stripped))
              and all(voice(a) != voice(b) for a, b in pairwise(stripped)))
    begins = said if voiced else [k for k, line in zip(said, stripped, strict=True)
                                  if dash.fullmatch(line) or LYRIC.fullmatch(line)]
    labelled = set() if voiced else labelled_lines(said, stripped, tags, speakers) - set(begins)
    labelled |= {said[k] for k in colours(stripped, tags)} - set(begins)  # a speaker's colour, as a label
    begins = sorted({*begins, *labelled})
    if not begins and not any(DESCRIBED.search(text_lines[k]) for k in said):
        return [one_turn(text_lines, said, tags)]
    begins = begins if begins and begins[0] == said[0] else [0, *begins]  # a first turn without a dash before them
    made = [turn for k, lines in groups(text_lines, begins) for turn in parted(lines, k, dash, tags)]
    for turn in made:  # a turn parted at descriptions begins at a label, as a line opening with one does
        turn.voiced, turn.labelled = voiced, turn.line in labelled or (turn.gap is not None and not turn.start)
    return made


def one_turn(text_lines: Sequence[str], said: Sequence[int], tags: re.Pattern[str]) -> Turn:
    """A cue of one turn (``turns``), its lines with text ``said``: its lines joined, or where each, the last too, is
    in the same tags (``per_line_tags``: "<i>JOHN: The dog is</i>" / "<i>running.</i>"; not "{\\i1}A man{\\i0}" /
    "in the park.", italics over words), joined without them, its first line's start tags (and ASS codes) its start."""
    codes = repeated_codes(text_lines, tags)
    texts = [line_parts(text_lines[k], codes, k != said[0])[1] for k in said]
    head = texts[0] if texts else ""  # none in a cue without text
    lead = found.group() if (found := LINE_CODES.match(head)) else ""  # "{\\an8}" before "<i>", or "{\\i1}" alone
    lead += unclosed_starts(head[len(lead):], text_lines, tags)  # and a voice each line repeats: "<v Anna><i>"
    opening = lead + start_tags(head[len(lead):], tags)
    wrapped = per_line_tags([head[len(opening):], *texts[1:]], tags, opening)
    wrapped = wrapped if wrapped and wrapped.closed and lead + wrapped.opening == opening else None
    start = opening if wrapped else ""
    text = " ".join(wrapped.inside([head[len(start):], *texts[1:]]) if wrapped else texts)
    text += kept_end(text_lines[said[-1]]) if said else ""
    # a lyric's last line, run on from the cue before ("♪ I saw a man" / "in the park ♪"), keeps its notes
    notes = SUNG_END.search(text) if not SUNG_START.match(text) else None
    end = notes.group() if notes and notes.start() else ""
    return Turn(start, text[:len(text) - len(end)], end, list(text_lines), line_tags=wrapped)


def labelled_lines(said: Sequence[int], stripped: Sequence[str], tags: re.Pattern[str],
                   speakers: frozenset[str] = frozenset()) -> set[int]:
    """The lines after the first (of ``said``, the cue's lines with text, ``stripped`` their texts)
    that begin a turn at a label (attnmt.documents.cue_labels), as a speaker's dash does: a speaker's
    name ("JOHN: Where are you?" / "MARY: Here.", "Mary:" where it is one of the dialogue's ``speakers``), or
    descriptions after a line that ends a sentence ("Who is it?" / "[knocking] Hello?"; "I saw a man" /
    "[knocking] in the park." is one sentence); and any line after one that ends a sentence and then descriptions
    ("Who is it? [knocking]" / "Hello?"), whose descriptions end its turn.  Read with the words of the line after
    them, the descriptions went to the model with those words."""
    shown = [shown_places(line, tags)[0].strip() for line in stripped]
    told = [ENDED.search(TAIL.sub("", text)) is not None and TAIL.search(text) is not None for text in shown]
    ended = [ENDED.search(text) is not None or end for text, end in zip(shown, told, strict=True)]
    return {k for k, line, text, before, after in zip(said[1:], stripped[1:], shown[1:], ended, told, strict=False)
            if is_name(split_label(line, tags, speakers)[0], speakers) or (DESCRIPTION.match(text) and before)
            or after}


def repeated_codes(lines: Sequence[str], tags: re.Pattern[str]) -> str:
    """The ASS codes a turn's first line with text starts with (``{\\an8}``), and the start tags after them that no
    line closes (``unclosed_starts``: ``<v Anna>``), "" for none: a line after it that starts with them too repeats
    them (``{\\an8}Hello`` / ``{\\an8}there my friend.``, as converters write a position on every line, and WebVTT a
    voice), and they stay at its start (``line_parts``)."""
    first = next((line_parts(line, "", False)[1] for line in lines if has_text(line)), "")
    codes = found.group() if (found := LINE_CODES.match(first)) else ""
    return (codes + unclosed_starts(first[len(codes):], lines, tags)).rstrip()


def line_parts(line: str, codes: str, later: bool) -> tuple[str, str]:
    """(what stays before a turn's ``line``'s translation, its text): its indentation (``INDENT``), and on a
    ``later`` line (not the turn's first) the turn's repeated ``codes`` (``repeated_codes``) it starts
    with, with the spaces after them.  Read with the text, they went where their words went: the
    position code of the second line inside the first ("{\\an8}HELLO {\\an8}THERE" / "MY FRIEND.")."""
    kept = found.end() if (found := INDENT.match(line)) else 0
    text = line[kept:].rstrip()
    if later and codes and text.startswith(codes):
        rest = text[len(codes):].lstrip()
        kept, text = kept + len(text) - len(rest), rest
    return line[:kept], text


def kept_end(line: str) -> str:
    """The no-break spaces (U+00A0, U+202F) ``line`` ends with, with any spaces among them, that
    ``line_parts`` strips with the spaces: the last line's are the turn's to keep at its end
    (cue_edges.TRAIL), where stripped they were lost ("Hello there.\u00a0" -> "THERE. HELLO")."""
    text = line.rstrip()
    found = NO_BREAK_END.match(line, len(text))
    return found.group() if found else ""


def has_text(line: str) -> bool:
    """Whether a cue's ``line`` has text: not spaces alone, nor no-break spaces (``&nbsp;``, as an editor
    writes a line that must not end the cue), which stay in place as they are (``line_parts``)."""
    return bool(line_parts(line, "", False)[1])


def groups(text_lines: Sequence[str], begins: Sequence[int]) -> list[tuple[int, list[str]]]:
    """The cue's lines in groups, one starting at each of ``begins`` (the first at 0), a blank
    line going with the group it follows."""
    bounds = [0, *begins[1:], len(text_lines)]
    return [(a, list(text_lines[a:b])) for a, b in pairwise(bounds)]


def dashed_turn(lines: list[str], first: int, dash: re.Pattern[str], tags: re.Pattern[str]) -> Turn:
    """A turn of a cue of dashed turns, read from its ``lines`` (the cue's from index ``first``).
    A voice line's turn without a dash is its line whole, the voice span with it (``speaker``).
    A lyric's turn, its line beginning with notes or a dash and notes ("- ♪ La la ♪"), keeps them in its
    start and the notes it ends with, before any end tags, in its end: a model reads a note as a word
    and moves it ("♪ singen. ♪" for "♪ singing ♪")."""
    codes = repeated_codes(lines, tags)
    shown = [line for line in lines if has_text(line)]
    said = [line_parts(line, codes, bool(k))[1] for k, line in enumerate(shown)]
    said[-1] += kept_end(shown[-1])
    match = dash.fullmatch(said[0]) or LYRIC.fullmatch(said[0])
    start, head = (match["start"], match["text"]) if match else ("", said[0])
    sung = match is not None and match.re is LYRIC
    if match and not sung and (lyric := LYRIC.fullmatch(head)):  # a speaker's lyric: "- ♪ La la ♪"
        start, head, sung = start + lyric["start"], lyric["text"], True
    last, after = closing_tags(said[-1], tags)  # "<i>you going?</i>", "</v>" (a later line's)
    own = [head, *said[1:-1], last] if len(said) > 1 else [head]
    wrapped = found._replace(after=after) if (found := per_line_tags(own, tags, start)) else None
    text, end = closing_tags(" ".join(wrapped.inside(own) if wrapped else [head, *said[1:]]), tags)
    notes = SUNG_END.search(text) if sung else None  # never the whole text: LYRIC's starts with no note
    if notes:
        text, end = text[:notes.start()], notes.group() + end
    return Turn(start, text, end, lines, first, sung=sung, line_tags=wrapped)


def parted(lines: list[str], first: int, dash: re.Pattern[str], tags: re.Pattern[str]) -> list[Turn]:
    """The turns of ``lines`` (the cue's from index ``first``, the first beginning a turn): one,
    and where it begins with a dash, a turn more at each of its lines' spaces where the same dash
    follows a sentence's end or a lyric's closing note (``turn_gap``: "- Hi. - Hello.", "- Where is the man" /
    "with the dog? - Here.", "- ♪ La la ♪ - Stop."), and in any turn where descriptions do and words
    follow them ("Stop! [DOOR SLAMS] Who's there?"), that turn going on over the lines after it, blank
    lines going with the turn they follow.  A dash inside a sentence ("- Well - I do not know.",
    "- It was 5 - 3.") is no speaker's: a turn's sentence ends before the next speaker speaks."""
    started = dash.fullmatch(next(line_parts(line, "", False)[1] for line in lines if has_text(line)))
    gap = turn_gap(re.escape(started["dash"])) if started else DESCRIBED
    said = first + next(k for k, line in enumerate(lines) if has_text(line))  # the line its text starts on
    found: list[tuple[int, list[str], str | None]] = [(said, [], None)]  # a turn's line, lines and gap
    for k, line in enumerate(lines, start=first):
        bounds = [0, *(end for match in gap.finditer(line) for end in match.span(match.lastindex or 1)), len(line)]
        parts = [line[a:b] for a, b in pairwise(bounds)]  # turns at even indices, spaces at odd
        found[-1][1].append(parts[0])
        found += [(k, [part], spaces) for spaces, part in zip(parts[1::2], parts[2::2], strict=True)]
    made = [dashed_turn(own, k, dash if spaces is None else DASH_TURN, tags) for k, own, spaces in found]
    for turn, (_, _, spaces) in zip(made, found, strict=True):
        turn.gap = spaces
    return made


def written(turns: Sequence[Turn], translations: Sequence[str], tags: re.Pattern[str],
            grows: bool = True) -> list[str]:
    """A cue's lines again: each turn's translation wrapped into as many lines as it had with text (fewer where it
    has fewer words; where a cue of one turn ``grows``, up to MOST_LINES where too long for them: ``fitted``), its
    start before the first and its end after the last, its lines of spaces back in their places as they were; a turn
    that went on the line of the turn before goes on it again.  A turn whose translation is its text (every sentence
    of it kept its source: --below-quality source) keeps its lines as written, so such a cue comes back byte for byte
    rather than wrapped anew.  A turn whose translation came back empty, with nothing kept around it, has no line
    (``rewrapped``; a turn on the line of the one before starts with its dash), and a cue of such turns alone none.
    Where the cue ``grows`` and has room, a turn goes on a line of its own where on the line before it the line
    would be too long (``too_long``: ``- Ich war mit meinem kleinen Bruder da.`` / ``- Wirklich?``)."""
    lines: list[str] = []
    shown = sum(sum(map(has_text, turn.lines)) - (turn.gap is not None) for turn in turns)  # the cue's lines
    spare = MOST_LINES - shown if grows else 0
    for turn, translation in zip(turns, translations, strict=True):
        own = list(turn.lines) if translation == turn.text else rewrapped(turn, translation, tags,
                                                                           spare * (len(turns) == 1))
        apart = turn.gap is not None and spare > 0 and too_long(lines[-1] + turn.gap + own[0], tags)
        if turn.gap is not None and not apart:
            lines[-1] += turn.gap + own.pop(0)
        spare -= apart
        lines += own
    return lines


def rewrapped(turn: Turn, translation: str, tags: re.Pattern[str], spare: int = 0) -> list[str]:
    """A turn's translation in as many lines as it had with text (up to ``spare`` more where too long: ``fitted``),
    its start and end kept, its lines of spaces back in their places, each line after the indentation its line had
    (``   Hello.``: wrapped anew, it lost it) and before the spaces and tabs it ended with (an ASS line's before
    ``\\N``). A line left empty (an empty translation, nothing kept around it) is left out: an empty line ends a cue,
    and the lines after it became a block without a timing line. A label its first line held alone (``[door slams]``
    / ``Who is there?``, attnmt.documents.cue_labels) stays alone on it, where the translation still opens with one,
    and so does a description its last line held alone (``Who is there?`` / ``[door slams]``, cue_edges), where the
    translation still ends with one. The line breaks a translator wrote (``Hallo\n\nda.``) are spaces: its lines are
    the wrapping's to cut, and a blank line ended the cue, a lone CR was read back as a line."""
    codes = repeated_codes(turn.lines, tags)
    shown = [line for line in turn.lines if has_text(line)]
    indents = [line_parts(line, codes, bool(k))[0] for k, line in enumerate(shown)]  # and any repeated codes
    trails = [line[len(line.rstrip(" \t")):] for line in shown]  # the spaces and tabs each line ends with
    edges = cue_edges(NEWLINES.sub(" ", translation).strip(" "), tags)
    head = len(indents) > 1 and bool(edges.label) and label_line(turn, tags)
    foot = len(indents) > 1 + head and bool(edges.tail) and tail_line(turn, tags)
    middle = ("" if head else edges.label + edges.after_label) + edges.body + (
        edges.before_tail.rstrip() if foot else edges.before_tail + edges.tail)  # a lyric's notes stay on its line
    sentences = sentence_counts(shown[head:len(shown) - foot], middle, tags)  # "Hi." / "Where were you?": [1]
    held = [] if head else [edges.kept]  # its speaker's name, kept whole on its line: "OFFICER 2:"
    own = [*[edges.label][:head], *fitted(middle, len(indents) - head - foot, spare, tags, turn.start, sentences,
                                          held), *[edges.tail][:foot]]
    added = max(len(own) - len(indents), 0)  # lines a one-line turn took more: its indentation, its end's spaces last
    indents, trails = [*indents, *indents[-1:] * added], [*trails[:-1], *[""] * added, *trails[-1:]]
    own[0] = edges.led(own[0])  # its no-break spaces before its first words and after its last
    own[-1] += edges.trail
    own[0] = turn.start + own[0]
    own[-1] += turn.end
    own = turn.line_tags.around(own) if turn.line_tags else own
    own = [indent + line + trail for indent, line, trail in zip(indents, own, trails, strict=False) if line]
    for k, line in enumerate(turn.lines):
        if not has_text(line):
            own.insert(min(k, len(own)), line)
    return own


def label_line(turn: Turn, tags: re.Pattern[str]) -> bool:
    """Whether ``turn``'s first line with text is its start and a label alone (``JOHN:``, ``[door slams]``)."""
    first = next(line_parts(line, "", False)[1] for line in turn.lines if has_text(line))
    label = split_label(turn.text, tags)[0]
    return bool(label) and first == (turn.start + label + (turn.line_tags.closing if turn.line_tags else "")).strip()


def tail_line(turn: Turn, tags: re.Pattern[str]) -> bool:
    """Whether ``turn``'s last line with text is a description alone that ends it and its end (``[door slams]``)."""
    last = next(line_parts(line, "", False)[1] for line in reversed(turn.lines) if has_text(line))
    tail = cue_edges(turn.text, tags).tail
    lined = turn.line_tags
    opening, closing = (lined.opening, lined.closing * lined.closed + lined.after) if lined else ("", "")
    return bool(tail) and last == (opening + tail + turn.end + closing).strip()


def voice(line: str) -> str:
    """The speaker's name a voice line's span gives ("Anna" in "<v.loud Anna>Hi.</v>")."""
    span = SPEAKER.fullmatch(line)  # voice is asked of a voice line alone (is_voice_line)
    if span is None:
        return ""
    named = span.group(1)[1:-1].split(None, 1)  # "v.loud", "Anna"
    return named[1].strip() if len(named) > 1 else ""


def said_by(turn: Turn) -> str:
    """The speaker's name of the voice ``turn`` is said in: the voice tag in its start ("Anna" of
    "<v Anna>- Hi.") or the one its text starts with ("<v Anna>Hi.", a cue of one voice span);
    "" where it has none (``voice``)."""
    tag = VOICE_START.search(turn.start) or VOICE_START.match(turn.text)
    return voice(tag.group()) if tag else ""


def speaker_name(turn: Turn) -> str:
    """``said_by``'s name as names are compared: in case and runs of spaces apart (``<v Anna>``,
    ``<v  anna>``: one speaker)."""
    return " ".join(said_by(turn).split()).casefold()


def another_speaker(speaking: str, following: Turn) -> bool:
    """Whether ``following`` (the next cue's first turn) is said by another speaker than the one
    ``speaking`` (a ``speaker_name``, "" for none known): both are named and the names differ.
    Captions name a speaker only at a change of speaker, so a cue without a voice goes on in the
    voice before it (its caller carries that name on), and a voice after a cue of no known voice may
    go on with what it says."""
    name = speaker_name(following)
    return bool(speaking and name) and speaking != name


def is_voice_line(line: str) -> bool:
    """Whether a cue's line is one speaker's: a voice span from its start to its end (the end tag
    may be left out), with no other voice tag inside."""
    match = SPEAKER.fullmatch(line)
    return match is not None and not VOICE_TAG.search(match.group(2))


def speaker(text: str, tags: re.Pattern[str]) -> tuple[str, str, str]:
    """(voice start tag, with the spaces right after it, text inside, "</v>" or "") of a cue whose whole text
    is one voice span with no other tag inside (of its format's ``tags``: an SRT cue's "<3" is none); ("",
    text, "") for any other cue (its tags go through as marks).  The spaces after the tag are the span's
    content, as after any start tag (cue_edges.LEAD): read with its text, ``<v Anna> Hello.`` lost them."""
    match = SPEAKER.fullmatch(text)
    if match is None or tags.search(match.group(2)):
        return "", text, ""
    inside = match.group(2).lstrip(" \t")
    return text[:match.end(1) + len(match.group(2)) - len(inside)], inside, match.group(3) or ""
