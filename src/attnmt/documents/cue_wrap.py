"""A cue's translated text in lines, as a viewer sees them (attnmt.documents.cue_lines,
attnmt.documents.subtitles): wrapped at the spaces that make its lines most even in the
characters shown (tags and ASS codes count for nothing, an entity for one), never inside a tag or
an ASS code, and a line break the alignment put at an edge of a cue's text moved between its words.  A cue of
one line whose translation outgrows LINE_LENGTH is wrapped into MOST_LINES (``fitted``), as subtitlers wrap a cue,
and one that set a sentence a line keeps a sentence a line where it fits (``sentence_counts``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import accumulate

from attnmt.decoding.protected import AMPERSAND_NAME
from attnmt.documents.character_references import ENTITY
from attnmt.documents.cue_labels import shown_places
from attnmt.documents.cue_text import ASS_TEXT, tags_of
from attnmt.documents.hard_wrap import WRAP_SPACES  # group 3 of a cue's cut, after the format's tags

# The characters a subtitle line shows at most, and the lines a cue does (the EBU's and Netflix's guides for
# Latin scripts): a translation is often longer than its source, and a line of 60 ran off the screen's edge.
LINE_LENGTH = 42
MOST_LINES = 2
SENTENCE_END = re.compile(r"[.?!…][\"”’»)\]]*$")  # a line's shown text that ends a sentence, and any quotes after it
# A number as a word of its own, which the word after it counts or measures ("15 min", "3 Hunde", "€ 20"): subtitlers
# keep the two on one line.  Not one a comma, a stop or a colon ends ("1, 2, 3", "im Jahr 1995.", "MAN 2:").
NUMBER = re.compile(r"[-+−~≈$€£¥]?\d(?:[\d.,/-]*\d)?[%°]?")
# A name joined by "&" that passes through a cue whole (attnmt.decoding.protected.AMPERSAND_NAME), its "&" as the cue
# wrote it: its words stay on one line, as a subtitler keeps a name ("Tom &" / "Jerry" was cut so).
NAME = re.compile(AMPERSAND_NAME)

# A line break written in an SRT cue's text (ASS's \N and \n, <br>), ASS's hard space (\h), or tabs (cue_text.TABS,
# in WebVTT too), at the start of a cue's text, after any start tags and ASS codes (group 1), or at its end, before
# any end tags (group 2): "{\an8}\NText", "Text<br></i>", "\hTHERE. HELLO".
BREAKS = {False: r"(?:\\[Nnh]|<br\s*/?>|\t+)", True: r"\t+"}  # by vtt
BREAK_EDGES = {vtt: (re.compile(rf"^((?:<[^/<>][^<>]*>|\{{\\[^{{}}]*\}}|\s)*)({pattern})\s*", re.IGNORECASE),
                     re.compile(rf"\s*({pattern})((?:</[^<>]*>|\s)*)$", re.IGNORECASE))
               for vtt, pattern in BREAKS.items()}


def wrap(text: str, lines: int, tags: re.Pattern[str], sentences: Sequence[int] = (),
         held: Sequence[tuple[int, int]] = ()) -> list[str]:
    """``text`` in ``lines`` lines (fewer if it has fewer words), cut at the runs of spaces that make
    them most even in the characters a viewer sees (``visible_length``), or where its source set whole
    sentences a line (``sentences``: how many ended before each of its line breaks, ``sentence_counts``), after
    as many of its sentences, where its lines are then not too long (``fits_after``: "Hallo." / "Wo warst du?",
    not "Hallo. Wo" / "warst du?"; "Hallo." / "Ich bin Dr. Smiths Assistent.", not the more even "… Dr."), and
    never inside a piece that stays whole (``parts``: a kept speaker's name, ``held``; a name joined by "&", NAME; a
    number and its unit) where another space will do.  Only
    plain and ideographic spaces (WRAP_SPACES) outside tags and ASS codes (its format's ``tags``) are cut at,
    the line break taking their place, so every other character stays where it was: a ``<`` that opens no
    tag, a no-break space, an ideographic space between words on one line, ``{\\fad(200, 300)}`` whole."""
    text = text.strip(" ")
    spaces = re.compile(rf"{tags.pattern}|{WRAP_SPACES}")
    gaps = [match.span(3) for match in spaces.finditer(text) if match.group(3)]  # where a line may end
    bounds = [0, *(end for gap in gaps for end in gap), len(text)]
    widths = [visible_length(text[a:b], tags) for a, b in zip(bounds[::2], bounds[1::2], strict=True)]  # a word's
    held = [*held, *names(text, tags)]
    free = [k for k, gap in enumerate(gaps) if not parts(text[bounds[2 * k]:gap[0]], gap, held, tags)]
    stops = [k for k, (a, b) in enumerate(gaps)
             if sentences and ends_sentence(tags.sub("", text[:a]), tags.sub("", text[b:]))]  # gaps after a sentence
    cuts: list[int] = []  # the gaps cut at, by index
    for remaining in range(lines, 1, -1):
        first = cuts[-1] + 1 if cuts else 0  # the first word not yet on a line
        if len(widths) - first <= 1:
            break
        target = sum(width + 1 for width in widths[first:]) / remaining
        ended = len(cuts) < len(sentences) and 0 < sentences[len(cuts)] <= len(stops)
        wanted = stops[sentences[len(cuts)] - 1] if ended else -1  # the gap after as many sentences as its source's
        options = [k for k in range(1, len(widths) - first) if first - 1 + k in free] or range(1, len(widths) - first)
        cuts.append(wanted if wanted >= first and fits_after(text, gaps, first, wanted, remaining, tags) else
                    first - 1 + min(options,
                                    key=lambda k: abs(sum(width + 1 for width in widths[first:first + k]) - target)))
    starts = [0, *(gaps[k][1] for k in cuts)]
    ends = [*(gaps[k][0] for k in cuts), len(text)]
    return [text[a:b] for a, b in zip(starts, ends, strict=True)]


def parts(word: str, gap: tuple[int, int], held: Sequence[tuple[int, int]], tags: re.Pattern[str]) -> bool:
    """Whether a line break at ``gap`` would part what stays whole on a line: a span of ``held`` with the gap inside
    it (a kept speaker's name: "OFFICER" / "2: Zurück." was cut so), or the number ``word`` before it (``NUMBER``)
    from the word it counts or measures ("15" / "Min.")."""
    return (any(start < gap[0] and gap[1] < end for start, end in held)
            or NUMBER.fullmatch(tags.sub("", word)) is not None)


def names(text: str, tags: re.Pattern[str]) -> list[tuple[int, int]]:
    """The span in ``text`` of each name joined by "&" (NAME) that a viewer sees, the format's ``tags`` inside it
    aside (``<b>Tom</b> &amp; Jerry``)."""
    shown, places = shown_places(text, tags)
    return [(places[name.start()], places[name.end() - 1] + 1) for name in NAME.finditer(shown)]


def ends_sentence(before: str, after: str) -> bool:
    """Whether a sentence ends between the shown texts ``before`` and ``after`` a space: the first ends with a
    sentence's mark (SENTENCE_END), and the second does not go on in lower case ("e.g. the dog")."""
    return SENTENCE_END.search(before.rstrip()) is not None and not after.lstrip()[:1].islower()


def fits_after(text: str, gaps: Sequence[tuple[int, int]], first: int, gap: int, lines: int,
               tags: re.Pattern[str]) -> bool:
    """Whether the line of ``text`` from its word ``first`` to ``gaps[gap]`` is not too long (``too_long``), nor
    the rest of it for the ``lines`` - 1 lines after it."""
    line = text[gaps[first - 1][1] if first else 0:gaps[gap][0]]
    return not too_long(line, tags) and (ASS_TEXT.get() or visible_length(text[gaps[gap][1]:], tags)
                                         <= LINE_LENGTH * (lines - 1))


def sentence_counts(lines: Sequence[str], translation: str, tags: re.Pattern[str]) -> list[int]:
    """How many sentences a turn's source ``lines`` end before each of its line breaks, where each line ends one
    (SENTENCE_END), as its ``translation`` does: a subtitler's sentence a line ("Hi." / "Where were you?": [1];
    "Run. 3 < 5!" / "Go.": [2]), kept where it fits (``wrap``); [] where they set none."""
    shown = [tags.sub("", line).strip() for line in lines]
    if len(shown) < 2 or not all(SENTENCE_END.search(line) for line in [*shown, tags.sub("", translation).strip()]):
        return []
    ends = [sum(ends_sentence(word, after) for word, after in zip(own, [*own[1:], "X"], strict=True))
            for own in (line.split() for line in shown)]  # a line's last word ends one ("X": any capital)
    return list(accumulate(ends[:-1]))


def fitted(text: str, lines: int, spare: int, tags: re.Pattern[str], lead: str = "",
           sentences: Sequence[int] = (), held: Sequence[tuple[int, int]] = ()) -> list[str]:
    """``wrap(text, lines)`` (``held``: its spans kept whole), or where a line of it shows more than LINE_LENGTH
    characters (the first after ``lead`` shown before it: a speaker's dash), in a line more, up to ``spare`` more,
    while it has the words.
    Never in ASS Text (``too_long``): a ``\\N`` put in at 42 characters would break the line where its renderer,
    wrapping to the screen, has room."""
    wrapped = wrap(text, lines, tags, sentences, held)
    for more in range(lines + 1, lines + spare + 1):
        if not any(too_long(lead * (k == 0) + line, tags) for k, line in enumerate(wrapped)) or len(wrapped) < more - 1:
            break
        wrapped = wrap(text, more, tags, sentences, held)
    return wrapped


def too_long(line: str, tags: re.Pattern[str]) -> bool:
    """Whether a cue's ``line`` shows more than LINE_LENGTH characters (``visible_length``); never in ASS Text
    (``ASS_TEXT``), whose renderer wraps a line to the width its style's font leaves on the screen."""
    return not ASS_TEXT.get() and visible_length(line, tags) > LINE_LENGTH


def visible_length(text: str, tags: re.Pattern[str]) -> int:
    """The characters of cue text a viewer sees: its tags and ASS codes (its format's ``tags``: an
    SRT cue's "<3 my dog, he is >" is all seen) left out, an entity (``&amp;``) one character."""
    return len(ENTITY.sub("&", tags.sub("", text)))


def breaks_inside(source: str, text: str, vtt: bool) -> str:
    """A cue's translated ``text`` with a line break it starts or ends with (BREAK_EDGES: an SRT
    cue's ``\\N``, ``\\n``, ``<br>``, its hard space ``\\h``; tabs in either format) where its
    ``source`` did not moved between its words, at the space that makes the two lines most even
    (``wrap``): the alignment puts a break before the target word of the source word after it, which
    may be the first ("Hello\\Nthere." turned around read "\\NTHERE. HELLO"), and a viewer saw an
    empty line above the text (or below it).  Where the text has one word, the break is left out."""
    first, last = BREAK_EDGES[vtt]
    for edge in (first, last):
        found = edge.search(text)
        if found is None or edge.search(source):
            continue
        line_break, kept = (found.group(2), found.group(1)) if edge is first else found.groups()
        rest = kept + text[found.end():] if edge is first else text[:found.start()] + kept
        text = line_break.join(wrap(rest, 2, tags_of(vtt)))
    return text
