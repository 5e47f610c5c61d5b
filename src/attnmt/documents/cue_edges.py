"""What a speaker's turn in a cue holds at its edges, apart from the words translated as its
sentence (attnmt.documents.subtitles): a label it opens with (attnmt.documents.cue_labels:
``JOHN:``, ``[DOOR SLAMS]``) and sound descriptions it ends with (``I'm leaving. [DOOR SLAMS]``,
``I'm leaving now (door slams)``), each translated alone (a speaker's name in the label kept as it is
written: attnmt.documents.cue_labels.named) and written back where it was, first or last.
Read with the sentence, a description at its end went where the alignment put its words: to the front of the
cue, or, in a sentence run on into the next cue, into that one.  No-break
spaces before or after all of these (``&nbsp;Hello.``, ``\u00a0Hello.``, as editors indent a
line with them; after the start tags it opens with, ``<i>&nbsp;Hello.</i>``, they stay right after
them) are kept as they are, never read by the model: read, ``&nbsp;in the park.`` lost
its space where its cue went on a sentence, and in SRT, where ``&nbsp;`` is no reference, it was
a word's first letters, moved or dropped with the word.  So are plain spaces right after those start
tags (``<i> Hello</i> there.``), the tags' content, as at a tag's other edge (attnmt.documents.cue_text):
read, they were dropped with the text's first blank.  Where the translation opens with no start tag, a
line's wrapping drops them, as it drops a space at a line's start.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from attnmt.documents.cue_labels import DESCRIPTION, named, shown_places, split_label
from attnmt.documents.flat import has_words

# A no-break space, as itself (U+00A0, or U+202F's narrow one) or a reference, in either format.
NO_BREAK = r"(?:[\u00a0\u202f]|&nbsp;|&#160;|&#x0*a0;|&#8239;|&#x202f;)"
START = re.compile(r"<[A-Za-z][^<>]*>|\{\\[^{}]*\}")  # a start tag or an ASS code ("<i>", "{\an8}")
OPENING = rf"(?:{START.pattern})*"  # the start tags and ASS codes a text opens with
# The no-break spaces a turn's text starts with (group 2), after any start tags and ASS codes (group 1: "<i>&nbsp;Hi."),
# and the spaces right after those tags, inside them ("<i> Hello</i> there."): a subtitle editor or a CAT tool compares
# a tag's content, as it does at the tag's other edge (cue_text).  Plain spaces before any tag are the line's indent.
LEAD = re.compile(rf"({OPENING})((?:{NO_BREAK}[ \t]*)+|(?<=[>}}])[ \t]+(?:{NO_BREAK}[ \t]*)*)", re.IGNORECASE)
TRAIL = re.compile(rf"(?:[ \t]*{NO_BREAK})+$", re.IGNORECASE)  # and those it ends with
NOTES = "♪♫"  # the musical notes a lyric's line begins and ends with (attnmt.documents.cue_lines)
# The marks a lyric opens with: notes, or a "#" before a space, as broadcast captions write a note ("# La la la #");
# and those it closes with: notes, or a "#" after a space.  A hash touching a word is none ("#1", "#MeToo", "C#").
SUNG = rf"(?:[{NOTES}]+|#+(?=\s|$))"
SUNG_CLOSE = rf"(?:[{NOTES}]+|(?<!\S)#+)"
# Sound descriptions a turn's words end with (group 2: "[DOOR SLAMS]", "(laughs).", "[MUSIC] (cheering)"), after
# the spaces that part them from the words (group 1), and the notes a lyric's words end with before them
# ("♪ La la la ♪ [music]"): kept with the spaces, never read as a word of the lyric.
TAIL = re.compile(rf"(\s*{SUNG_CLOSE}\s+|\s+)({DESCRIPTION.pattern})$")
SUNG_START = re.compile(rf"{SUNG}\s*")  # the notes a lyric after a label opens with: kept with the label's spaces
ROUND = re.compile(r"(?:\([^()]*\)[\s.,;:!?…-]*)+")  # descriptions in parentheses alone: "(laughs)", "(tomorrow)."
ENDED = re.compile(r"[.!?…][\"'”’»)\]]*\s*$")  # words that end a sentence ("I'm leaving.", "Go!\"")


@dataclass
class Edges:
    """A turn's text in its parts: the no-break spaces ``lead`` (kept, with any spaces right after
    its start tags), ``label`` and the spaces ``after_label``, ``body`` (translated as the turn's
    sentence, run on with the cues beside it), the spaces ``before_tail``, ``tail``, and the
    no-break spaces ``trail`` (kept)."""

    body: str
    label: str = ""
    after_label: str = ""
    before_tail: str = ""
    tail: str = ""
    lead: str = ""
    trail: str = ""
    opened: int = 0  # how many start tags the text opens with before ``lead`` (1 in "<i>&nbsp;<b>Hi</b>.")
    # Where the part of ``label`` kept as written starts and ends (cue_labels.named): a speaker's name, "JOHN: ",
    # " ANNA:" of "[MUSIC] ANNA:"; what is before and after it is translated alone.
    kept: tuple[int, int] = (0, 0)

    def written(self, label: str, body: str, tail: str) -> str:
        """The turn's text again, of the ``label``, ``body`` and ``tail`` translated."""
        return self.led(label + self.after_label + body + self.before_tail + tail) + self.trail

    def speaker(self) -> str:
        """What of ``label`` is from its kept part on, spaces left out: "ANNA:" of "[MUSIC] ANNA:" (a name after
        descriptions starts a new speaker, as one at the start does), all of a label that opens with no
        descriptions."""
        return self.label[self.kept[0]:].lstrip()

    def led(self, text: str) -> str:
        """``text`` (the turn's translation, or its first line) with ``lead`` before it, after as many
        of the start tags it opens with as the source's came after (``opened``): after all of them,
        "<i>&nbsp;<b>Hi</b>" came back "<i><b>&nbsp;HI</b>", the space inside the bold."""
        at = 0
        for _ in range(self.opened):
            if (found := START.match(text, at)) is None:
                break
            at = found.end()
        return text[:at] + self.lead + text[at:]


def cue_edges(text: str, tags: re.Pattern[str], speakers: frozenset[str] = frozenset()) -> Edges:
    """``text`` (a turn's) in its parts (``Edges``), read as shown without its format's ``tags``
    (attnmt.documents.cue_text.tags_of), its label a name where it is one of the dialogue's ``speakers`` too
    (attnmt.documents.cue_labels.split_label): a description at its end is its tail where words come
    before it, not descriptions alone (a cue of those is set apart whole: subtitles.set_apart), and
    takes the start tags right before it ("<i>[DOOR SLAMS]</i>").  A lyric's notes after a label
    ("[singing] ♪ La la ♪") stay after it, with the spaces that part it from the words."""
    opening, lead = found.groups() if (found := LEAD.match(text)) else ("", "")
    opened = len(START.findall(opening))
    text = opening + text[len(opening) + len(lead):]
    trail = found.group() if (found := TRAIL.search(text, len(opening))) else ""
    label, after_label, rest = split_label(text[:len(text) - len(trail)], tags, speakers)
    if label and (notes := SUNG_START.match(rest)) and has_words(rest[notes.end():]):  # "JOHN: ♪ La la ♪"
        after_label, rest = after_label + notes.group(), rest[notes.end():]
    shown, places = shown_places(rest, tags)
    found = TAIL.search(shown)
    if (found is None or not has_words(shown[:found.start()]) or DESCRIPTION.fullmatch(shown[:found.start()])
            or in_sentence(shown[:found.start()], found.group(2))):
        return Edges(rest, label, after_label, lead=lead, trail=trail, opened=opened,
                     kept=named(label, tags, speakers))
    gap, start = places[found.start(1)], places[found.start(2)]
    for tag in reversed([match for match in tags.finditer(rest, gap, start) if match.end() <= start]):
        if tag.end() != start or (tag.group(1) or "")[:1] == "/":
            break
        start = tag.start()
    return Edges(rest[:gap], label, after_label, rest[gap:start], rest[start:], lead, trail, opened,
                 named(label, tags, speakers))


def in_sentence(words: str, tail: str) -> bool:
    """Whether ``tail``, which reads as descriptions after ``words``, is words of their sentence in
    parentheses, as prose writes them: in round brackets alone, not in capitals (captions write
    "(DOOR SLAMS)"), after ``words`` that end no sentence, and followed by the sentence's
    punctuation ("Call me (tomorrow).", "at five (or six)?") or holding a number ("(ext. 12)").
    Square brackets are captions' own, and "I'm leaving now (door slams)" stays a description."""
    return (ROUND.fullmatch(tail) is not None and not tail.isupper() and not ENDED.search(words)
            and (tail.rstrip()[-1] != ")" or any(character.isdigit() for character in tail)))


def apart(edges: Sequence[Edges]) -> list[tuple[int, int, str]]:
    """The texts of ``edges`` translated alone, each as (its turn's index, its place in the turn, 0
    and 1 for a label's before and after what is kept of it, 3 for a tail, the turn's body being 2;
    its text), in the turns' order: of a label, what is before and after a speaker's name (``Edges.kept``: "[MUSIC]"
    and "(whispering)" of "[MUSIC] ANNA: (whispering)"), which is kept as written."""
    return [(k, place, text) for k, edge in enumerate(edges)
            for place, text in ((0, edge.label[:edge.kept[0]]), (1, edge.label[edge.kept[1]:]), (3, edge.tail))
            if text]
