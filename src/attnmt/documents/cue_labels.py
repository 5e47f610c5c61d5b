"""The label a cue's text may open with, as captions for the deaf and hard of hearing write it
(attnmt.documents.subtitles): a speaker's name in capitals and a colon (``JOHN: I saw a man``,
``DR. SMITH (V.O.): Hello``), or sound descriptions in brackets (``[DOOR SLAMS] I saw``,
``(laughs) Come here``).  A label is no part of the sentence after it: read with it, the
alignment moved it with the words around it, and a sentence run on into the next cue took
``JOHN:`` to that cue's end.  So it is written back at its cue's start: a speaker's name as it is written
(``named``), never read by the model, which has no translation for a name and made one up ("ANNA:" came
back "EIN CACH." from the demo model), and descriptions translated alone.  It is read as shown, through the
tags and ASS codes around it (``<i>JOHN:</i> Hello``, ``<font color="#ffff00">JOHN:</font>``, ``{\\an8}JOHN:
Hello``), which it takes with it.  A transcript's time before a speaker's name (``[00:00:07] ANNA: Hello``) is
kept as written with the name: read as a description, it was translated alone and ``ANNA:`` read as the cue's words.
A field's name (``INGREDIENTS: Flour, eggs.``, ``DIRECTOR: Greta Gerwig``: attnmt.text.speaker_labels.field_name) is
a label too, translated alone, its colon and the spaces after it kept between it and the words (``field_label``).
"""

from __future__ import annotations

import re
from html import unescape

from attnmt.documents.list_marks import field_alone
from attnmt.text.field_names import kept_value
from attnmt.text.list_marks import TIME
from attnmt.text.speaker_labels import NAME, VOICE, field_name, is_speaker, is_voice

BRACKETED = r"(?:\[[^\[\]]*\]|\([^()]*\))"  # "[DOOR SLAMS]", "(laughs)"
# A cue's line of sound descriptions alone ("[dog barking].", "[MUSIC] (laughing)"), as captions for the
# deaf and hard of hearing write them: a cue of its own (subtitles.set_apart), no label.
DESCRIPTION = re.compile(rf"(?:{BRACKETED}[\s.,;:!?…-]*)+")
ANY_TAG = re.compile(r"<[^<>]*>|\{\\[^{}]*\}")  # a tag or an ASS code, in a label split_label found
STAMP = re.compile(rf"(?:\[{TIME}\]|\({TIME}\)|{TIME})[ \t]+")  # a time a transcript gives a turn: "[00:00:07] "
# A piece of a label (group "piece"): a name, a time before it (``NAMED``), or descriptions (``DESCRIBED``), then the
# spaces before the cue's words (group "gap").
NAMED = re.compile(rf"(?P<piece>(?:{STAMP.pattern})?(?P<name>{NAME.pattern}))(?P<gap>\s+)(?=\S)")
DESCRIBED = re.compile(rf"(?P<piece>{BRACKETED}(?:\s*{BRACKETED})*)(?P<gap>\s+)(?=\S)")
DESCRIBED_LEAD = re.compile(rf"{BRACKETED}(?:\s*{BRACKETED})*")  # the descriptions a label opens with, alone
TAG_NAME = re.compile(r"/?([A-Za-z][^\s./>]*)")  # a tag's name, read from what is between its "<" and ">"


def split_label(text: str, tags: re.Pattern[str], speakers: frozenset[str] = frozenset()) -> tuple[str, str, str]:
    """(label, the spaces after it, the rest) of a cue's ``text``; ("", "", text) where it opens
    with none.  A name is a label only as a speaker's (``is_name``: "JOHN:", "Q:", one of the dialogue's
    ``speakers``, not "I:" nor "Note:") or a field's, without its colon, which is in the spaces after it and ends
    the label (``field_label``: "INGREDIENTS", ": "), first or after descriptions, as in a text line ("[MUSIC] ANNA:",
    "[MUSIC] TRANSLATOR"), and once: a name and descriptions after it ("JOHN: (whispering) I saw") are one label; a
    text of descriptions alone is no label but the cue's own text (subtitles.set_apart).  Read as shown, without its
    format's ``tags`` (cue_text.tags_of): the label takes the tags before it and the end tags right after it
    ("<i>JOHN:</i>")."""
    shown, places = shown_places(text, tags)
    label, gap, rest = field = field_label(shown, speakers, look_length(text, tags))
    named_yet = False
    while not field[0] and not DESCRIPTION.fullmatch(rest) and (match := label_piece(rest, not named_yet, speakers)):
        named_yet = named_yet or match.re is NAMED
        label, gap, rest = label + gap + match["piece"], match["gap"], rest[match.end():]
        if not named_yet and (field := field_label(rest, speakers))[0]:  # "[MUSIC] TRANSLATOR: Ann Goldstein"
            label, gap, rest = label + gap + field[0], field[1], field[2]
    if not label:
        return "", "", text
    end, rest_at = places[len(label) - 1] + 1, places[len(label) + len(gap) - 1] + 1
    while (closing := tags.match(text, end)) and closing.end() <= rest_at and (closing.group(1) or "")[:1] == "/":
        end = closing.end()
    return text[:end], text[end:rest_at], text[rest_at:]


def field_label(shown: str, speakers: frozenset[str], looked: int = 0) -> tuple[str, str, str]:
    """(the name of the field a cue's text read as ``shown`` opens with, its colon and the spaces after it, the rest)
    (attnmt.text.speaker_labels.field_name, no speaker's name of the dialogue's ``speakers``); ("", "", shown) for
    none.  The name is translated alone and its colon kept, as in a text line: read with its value, the demo model
    lost it ("INGREDIENTS: Flour, eggs, milk." came back "Krankenschwestern in einem Schrürzen, ...").  Where a look
    of its own sets apart the first ``looked`` characters (``look_length``), a remark's name is a field's too, as a
    page's is (list_marks.field_alone): "<b>WARNING:</b> Do not touch the dog." came back "Ein <b>bereitet</b> sich
    zu.", read whole."""
    found = field_name(shown, speakers) if NAME.match(shown) else None
    if found is None and looked and NAME.match(shown):
        found = field_alone(shown[:looked], shown[looked:], speakers)
    if found is None:
        return "", "", shown
    value = shown[found[1]:]  # a measure or persons' names kept: "PREP TIME: 15 min", "TRANSLATOR: Ann Goldstein"
    rest_at = len(shown) if kept_value(shown[:found[0]], value) else len(shown) - len(value.lstrip())
    return shown[:found[0]], shown[found[0]:rest_at], shown[rest_at:]


def cue_field(text: str, tags: re.Pattern[str], speakers: frozenset[str] = frozenset()) -> str:
    """The name of the field a cue's ``text`` opens with, read as shown without its format's ``tags``, after its
    descriptions (``field_label``, none of the dialogue's ``speakers``, a look setting it apart too:
    ``look_length``), as it is translated alone, or "": "BENEFITS" of "BENEFITS: Free parking.",
    "TRANSLATOR" of "[MUSIC] TRANSLATOR: Ann Goldstein".  One the model garbles keeps its source
    (attnmt.documents.short_labels), as a text line's does, and the cue's words are a sentence of their own, which
    the cue before does not run on into (a field's value has no stop: "TRANSLATOR: Ann Goldstein" / "EDITOR: Tom
    Fox" were read "Ann Goldstein Tom Fox")."""
    shown = shown_places(text, tags)[0]
    if lead := DESCRIBED_LEAD.match(shown):
        return field_label(shown[lead.end():].lstrip(), speakers)[0].strip()
    return field_label(shown, speakers, look_length(text, tags))[0].strip()


def look_length(text: str, tags: re.Pattern[str]) -> int:
    """How many of the characters a cue's ``text`` shows (read without its format's ``tags``) are inside the
    element it opens with, its start tag first and its end tag the next tag (``<b>WARNING:</b> Do``: 8); 0 where
    it opens with none."""
    first = tags.match(text)
    opened = TAG_NAME.match(first.group(1) or "") if first else None
    if first is None or opened is None or first.group(1).startswith("/"):
        return 0
    end = tags.search(text, first.end())
    closed = TAG_NAME.match(end.group(1) or "") if end else None
    if end is None or closed is None or not end.group(1).startswith("/") or closed[1].lower() != opened[1].lower():
        return 0
    return len(shown_places(text[:end.start()], tags)[0])


def label_piece(rest: str, first: bool, speakers: frozenset[str]) -> re.Match[str] | None:
    """The piece of a label ``rest`` (a cue's text read as shown) starts with: where it is the ``first``, a speaker's
    name (``NAMED``, ``is_name`` with what follows it), a time before it too; else descriptions (``DESCRIBED``)."""
    if first and (found := NAMED.match(rest)) and is_name(found["name"], speakers, rest[found.end("name"):]):
        return found
    return DESCRIBED.match(rest)


def shown_places(text: str, tags: re.Pattern[str]) -> tuple[str, list[int]]:
    """``text`` without ``tags`` (cue_text.tags_of: its format's tags and ASS codes), and where in
    ``text`` each of its characters is."""
    places: list[int] = []
    at = 0
    for match in tags.finditer(text):
        places += range(at, match.start())
        at = match.end()
    places += range(at, len(text))
    return "".join(text[k] for k in places), places


def is_name(label: str, speakers: frozenset[str] = frozenset(), said: str | None = None) -> bool:
    """Whether a label opens with a speaker's name ("JOHN:", "MAN 2:", "DR. SMITH:", "Q:", one of a dialogue's
    ``speakers``, "[NARRATOR]": ``name_in``), after a time (``STAMP``: "[00:00:07] ANNA:"), and what follows it
    where ``said`` is known reads as a speaker's words: a new speaker, whom the sentence before does not go on
    in.  Read as shown: WebVTT's "JOHN &amp; MARY:" is in capitals."""
    return name_in(unescape(ANY_TAG.sub("", label)), speakers, said) is not None  # its tags read by split_label


def name_in(shown: str, speakers: frozenset[str], said: str | None = None) -> re.Match[str] | None:
    """The speaker's name a label read as shown opens with, after a time (``STAMP``), or None: "JOHN:" (``NAME``,
    ``is_speaker`` with what is ``said`` after it), or one in brackets (``VOICE``, ``is_voice``: "[NARRATOR]",
    "(ANNA)" where "ANNA:" speaks too), kept as written as a name is, where "[DOOR SLAMS]" is a description,
    translated."""
    at = stamp.end() if (stamp := STAMP.match(shown)) else 0
    if (name := NAME.match(shown, at)) is not None and is_speaker(name.group(), speakers, said):
        return name
    return voice if (voice := VOICE.match(shown, at)) is not None and is_voice(voice, speakers) else None


def named(label: str, tags: re.Pattern[str], speakers: frozenset[str] = frozenset()) -> tuple[int, int]:
    """Where the part of a ``label`` (``split_label``'s) that is kept as it is written starts and ends: a speaker's
    name (``is_name``, one of the dialogue's ``speakers`` too) and the spaces after it, up to the descriptions that
    follow it ((0, 6): "JOHN: " of "JOHN: (whispering)"), or all of a name alone with its tags ("<i>JOHN:</i>"),
    after the descriptions it may follow, with the spaces before it ((7, 13): " ANNA:" of "[MUSIC] ANNA:"); after
    descriptions, the spaces before a field's name ((7, 8) of "[MUSIC] TRANSLATOR"), so that each is translated
    alone, as in a text line; (0, 0) where it opens with none.  Read as shown, without its format's ``tags``."""
    shown, places = shown_places(label, tags)
    lead = DESCRIBED_LEAD.match(shown) if not is_name(label, speakers) else None
    start = lead.end() if lead and lead.end() < len(shown) else 0
    at = len(shown) - len(shown[start:].lstrip())  # the name's or the field's first character
    stamp = STAMP.match(shown, at)
    name = NAME.match(shown, stamp.end() if stamp else at) or VOICE.match(shown, stamp.end() if stamp else at)
    if name is None or not is_name(shown[at:], speakers):  # no name, or a field's, after the descriptions
        return (places[start], places[at]) if start else (0, 0)
    after = len(shown) - len(shown[name.end():].lstrip())  # the first shown character after the name's spaces
    return places[start] if start else 0, places[after] if after < len(shown) else len(label)
