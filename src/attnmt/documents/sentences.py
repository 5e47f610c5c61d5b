"""Paragraphs into sentences, with sentencex (Wikimedia's segmenter).

The model was trained on single sentences, and a paragraph read as one long
"sentence" translates worse and can pass the model's length limit.  sentencex is
maintained (Wikimedia uses it for Content Translation), covers about 300 languages
with per-language abbreviation lists, has no dependencies, and gives each
sentence's character offsets, which keep the spacing between sentences exact.
pysbd, the other common choice, has not had a release since 2021.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from heapq import heappop, heappush
from itertools import accumulate, islice, pairwise

from sentencex import get_sentence_boundaries

from attnmt.decoding import protected
from attnmt.decoding.glossary import Glossary
from attnmt.documents.bidi import edges, kept_in_pairs
from attnmt.documents.markers import RAISED_NUMBERS
from attnmt.documents.stop_points import stop_point
from attnmt.errors import warn

# Where a sentence too long for the model is parted first (``fitting_parts``): after a clause's
# punctuation ("; ", ": ", ", ") or a dash between spaces (" – ", " — "); then at any space.
CLAUSE_CUTS = re.compile(r"(?:[;:,]|\s[–—])\s+")
SPACE_CUTS = re.compile(r"\s+")
# sentencex (1.0.32) panics, slicing inside a character, where a capital letter alone (an initial) stands
# before a stop and a space of more than one UTF-8 byte ("Plan A\xa0. A dog runs."): it is given the text
# with each such space as its ASCII one, a line or paragraph separator as a line feed, one character for
# one, so that the offsets it gives back are the text's own.
ASCII_SPACES = str.maketrans({c: "\n" if c in "\x85\u2028\u2029" else " "
                              for c in map(chr, range(0x80, 0x3001)) if c.isspace()})
# The notes' numbers in superscript digits after a stop (``note_after_stop``): "¹²", "¹⁻³", "² ³", "¹, ⁴".
NOTE_NUMBERS = re.compile(rf"{RAISED_NUMBERS.pattern}(?:,?[^\S\n]+{RAISED_NUMBERS.pattern})*")

# Common English abbreviations that sentencex (1.0.32) ends a sentence after, where none ends: "It is
# approx. 5 km." came in two, and "approx." was translated alone (``follows_an_abbreviation``).  Each
# is joined to what follows it where that starts with a digit or a small letter (no sentence does),
# those of NEVER_LAST before a capital too ("Prices incl. VAT"); "dept.", "fig.", "no." and "vs."
# sentencex knows.
ENGLISH_ABBREVIATIONS = frozenset({"approx", "incl", "excl", "est", "figs", "resp", "max", "avg", "vol", "ch",
                                   "govt", "misc", "hrs", "mins", "lbs", "tel"})
NEVER_LAST = frozenset({"approx", "incl", "excl"})
# A word (not one of "e.g."'s letters, nor the end of a longer word) and its stop, then any spaces, just before a break.
WORD_AND_STOP = re.compile(r"(?<![\w.])([A-Za-z]+)\.\s*\Z")


def sentence_spans(text: str, language: str = "en", split: bool = True, breaks: Sequence[int] = (),
                   stops: Sequence[tuple[int, str]] = (), glossary: Glossary | None = None,
                   fits: Callable[[str], bool] | None = None,
                   reads: Callable[[str], bool] | None = None, line_ends: Sequence[int] = ()) -> list[tuple[int, int]]:
    """[start, end) of each sentence of ``text``, the whitespace, bidirectional controls and other
    invisible characters around it left out (attnmt.documents.bidi.edges: they stay where they
    stand, as the spacing between sentences does, but for a control whose partner the sentence
    holds: ``kept_in_pairs``); one span for the whole (stripped) text when not ``split``; [] for
    blank text.  No sentence goes on past a position in ``breaks`` (a tab between fields, a line
    break before a new line's text: attnmt.documents.flat.FlatText.breaks), and none ends inside a
    word that starts with "." (".NET": ``splits_a_dotted_word``); a note's number in superscript
    digits right after a stop is a letterless span of its own between the sentence it follows and
    the next (``park.¹² A woman``: ``note_after_stop``), passed through as it is.
    ``stops``: (position, characters) that a reader sees in the text but ``text`` does not hold (a
    stop kept in markup, ``beach<b>.</b> A cat``), read where they stand (``with_stops``).  No
    sentence ends inside a term of ``glossary`` ("Wham! Guide", "We love you. Goodbye"): each
    sentence's terms are found in it alone (attnmt.decoding.inputs.Guides.terms), so a term cut in
    two would be required of neither half, and dropped silently (``across_terms``), unless ``fits``
    (the model's limit: attnmt.decoding.inputs.reads_whole) says the sentence so joined is too long.
    ``reads``: the model's own limit, where it is known; a sentence longer is parted into sentences
    that each fit it (``fitting_parts``), split or not, as the model would otherwise cut it and lose
    the rest.  ``line_ends``: those of ``breaks`` that a line break makes (a new line's text starts
    there), which a glossary term may run across (``Welcome to New<br>York``): its two sentences are
    joined, as a term across two cues of a subtitle joins them."""
    stop_point()  # a stopped job stops between the blocks it splits (a long text file: seconds of splitting)
    spans = segmented(text, language, split, breaks, stops)
    terms = [(start, end) for start, end, _ in glossary.found_in(text)] if glossary else []
    if terms and len(spans) > 1:
        spans = across_terms(text, spans, terms, sorted(set(breaks) - set(line_ends)), fits)
    if reads is not None:
        spans = fitting_parts(text, spans, reads, terms)
    return kept_in_pairs(text, spans)


def fitting_parts(text: str, spans: Sequence[tuple[int, int]], fits: Callable[[str], bool],
                  terms: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """``spans`` of ``text``, each one that does not ``fit`` the model parted into sentences that do,
    as a person parts one by hand for a model: its longest first part ending at a clause's end
    (``CLAUSE_CUTS``), else at a space, else, as a last resort, inside a word; none inside one of
    ``terms`` (a glossary's, which each part's translation must hold whole) where it can be helped.
    Each part is translated as a sentence, and the translations joined by the source's spacing
    between them (attnmt.documents.sentence_gaps): a space, or none inside a word or a script
    written without spaces.  Cut to the model's length instead, the rest of a long sentence was
    lost, with its markup."""
    parts: list[tuple[int, int]] = []
    across = terms_across(terms)
    for start, end in spans:
        kinds: list[Cuts] = []  # the sentence's cuts of each kind, found once it is to be parted
        fitting = fits(text[start:end])
        while not fitting:
            kinds = kinds or [Cuts(cuts, text, start, end) for cuts in (CLAUSE_CUTS, SPACE_CUTS)]
            cut = first_part_end(text, start, end, fits, kinds, lambda position: across(position, position))
            parts.append(edges(text, start, cut))
            part_length, start = cut - start, edges(text, cut, end)[0]
            fitting = rest_fits(text, start, end, fits, kinds[1], 2 * part_length)
        parts.append((start, end))
    return parts


def rest_fits(text: str, start: int, end: int, fits: Callable[[str], bool], spaces: Cuts, length: int) -> bool:
    """Whether ``text[start:end]``, the rest of a sentence that a part was cut from (``fitting_parts``),
    ``fits``: asked first of its beginning about ``length`` characters long (twice the part before it),
    then twice as long, and so on, and of the whole only once they all fit.  Asked of the whole rest
    each time, a paragraph parted into n parts handed ``fits`` (a real model's tokenizes what it is
    handed) about n times the paragraph; now about each part's length a few times.  This assumes, as
    ``last_fitting`` does, that a longer text never fits when a shorter one in it does not: a
    beginning that does not fit, the whole does not either.  Each beginning ends at a space where
    one lies ahead (``spaces``, the sentence's ``SPACE_CUTS``), not inside a word, which a subword
    tokenizer may read in more pieces than the whole word; else inside one, as ``last_fitting`` may."""
    while start + length < end:
        at = next((s for s, _ in spaces.after(start + length)), start + length)
        if not fits(text[slice(*edges(text, start, at))]):
            return False
        length = 2 * (at - start)
    return fits(text[start:end])


def terms_across(terms: Sequence[tuple[int, int]]) -> Callable[[int, int], bool]:
    """Whether one of ``terms`` (start, end) starts before a position ``before`` and ends after one
    ``after`` (runs across the gap between two sentences; with both the same, lies strictly around a
    place), found by bisection: of the terms that start before it, the one that ends furthest on."""
    ordered = sorted(terms)
    starts = [s for s, _ in ordered]
    furthest = list(accumulate((e for _, e in ordered), max))

    def across(before: int, after: int) -> bool:
        k = bisect_left(starts, before)
        return k > 0 and furthest[k - 1] > after
    return across


class Cuts:
    """The matches of one kind of cut (``CLAUSE_CUTS``, ``SPACE_CUTS``) in text[start:end], found once
    for a sentence parted into many, not once for each part: a search from a later position finds
    the same ones (whether a match starts at a place depends on the text from there on), but from
    inside one of them, where they are looked for anew."""

    def __init__(self, cuts: re.Pattern[str], text: str, start: int, end: int) -> None:
        self.cuts, self.text, self.end = cuts, text, end
        self.found = [m.span() for m in cuts.finditer(text, start, end)]
        self.starts = [s for s, _ in self.found]

    def after(self, position: int) -> Iterator[tuple[int, int]]:
        """(start, end) of each match a search of the text from ``position`` on finds, in order."""
        k = bisect_left(self.starts, position)
        if k and self.found[k - 1][1] > position:
            return (m.span() for m in self.cuts.finditer(self.text, position, self.end))
        return iter(self.found[k:])


def first_part_end(text: str, start: int, end: int, fits: Callable[[str], bool], kinds: Sequence[Cuts],
                   inside_term: Callable[[int], bool]) -> int:
    """Where the first part of ``text[start:end]``, a sentence too long for the model, ends
    (``fitting_parts``): the furthest cut of the first of ``kinds`` that has one, not ``inside_term``,
    that leaves a first part that ``fits``.  The cuts are read only as far as the search reaches: a
    long paragraph parted into many sentences is read about once, not once for each part."""
    def part_fits(at: int) -> bool:
        return fits(text[slice(*edges(text, start, at))])

    for cuts in kinds:
        ends = (e for s, e in cuts.after(start) if start < s and not inside_term(s))
        if (found := last_fitting(ends, part_fits)) is not None:
            return found
    found = last_fitting(range(start + 1, end), part_fits)
    return start + 1 if found is None else found  # one character: a part, however long its pieces


def last_fitting(ends: Iterable[int], fits: Callable[[int], bool]) -> int | None:
    """The last of ``ends`` (ascending) that ``fits``, None if the first does not: a longer part
    has as many pieces or more, so the ends that fit come first.  Found by doubling steps, then
    halving them, so each look reads at most about twice the part found, not the whole sentence;
    ``ends`` is read only as far as the steps reach."""
    read: list[int] = []
    rest = iter(ends)

    def has(k: int) -> bool:  # whether ends has a k-th, read up to it
        read.extend(islice(rest, max(0, k + 1 - len(read))))
        return k < len(read)

    if not has(0) or not fits(read[0]):
        return None
    good, step = 0, 1
    while has(good + step) and fits(read[good + step]):
        good, step = good + step, step * 2
    bad = good + step if has(good + step) else len(read)  # the first known not to fit, or past the end
    while bad - good > 1:
        middle = (good + bad) // 2
        good, bad = (middle, bad) if fits(read[middle]) else (good, middle)
    return read[good]


def across_terms(text: str, spans: Sequence[tuple[int, int]], terms: Sequence[tuple[int, int]],
                 breaks: Sequence[int], fits: Callable[[str], bool] | None = None) -> list[tuple[int, int]]:
    """``spans`` of ``text`` (in order) with each two that one of ``terms`` (start, end) runs across joined
    into one sentence, but for two a position in ``breaks`` (ascending) parts (a tab parts fields, and a term
    spans no two of them: attnmt.documents.letterless.fields_with_terms) and two whose joined
    sentence would not ``fit`` the model: it would be cut to the model's length, losing text.  There
    the term is left in two, with one warning naming it, as a term across two subtitle cues
    translated apart is (attnmt.documents.subtitles.chains).  Each question is answered by bisection
    or a pass in step with the spans: a paragraph of thousands of terms, sentences and fields."""
    joined: list[tuple[int, int]] = []
    runs_across = terms_across(terms)
    named = first_across(text, terms)
    for start, end in spans:
        if not joined or not runs_across(joined[-1][1], start):
            joined.append((start, end))
        elif any_between(breaks, joined[-1][1], start):
            warn(f"the glossary term {named(joined[-1][1], start)!r} runs across two fields translated apart "
                 "(a tab or a line break parts them), so its translation is not kept; write the term within one field")
            joined.append((start, end))
        elif fits is None or fits(text[joined[-1][0]:end]):
            joined[-1] = (joined[-1][0], end)
        else:
            warn(f"the glossary term {named(joined[-1][1], start)!r} was not kept in one sentence: the two sentences "
                 "it runs across are together longer than the model reads, so it is required of neither")
            joined.append((start, end))
    return joined


def any_between(ordered: Sequence[int], low: int, high: int) -> bool:
    """Whether one of ``ordered`` (ascending) lies in [low, high]: the first from ``low`` on, by bisection."""
    k = bisect_left(ordered, low)
    return k < len(ordered) and ordered[k] <= high


def first_across(text: str, terms: Sequence[tuple[int, int]]) -> Callable[[int, int], str]:
    """The text of the first of ``terms`` (start, end), in their order, that starts before a position ``before``
    and ends after one ``after`` (a warning names it: ``across_terms``), asked only where one does
    (``terms_across``), with ``before`` and ``after`` never falling.  The terms that start before it wait
    in a heap by their order; one that ends at or before ``after`` is dropped for good, as ``after`` only
    grows, so each term goes in and out once.  Each warning went through the terms from the first: a
    paragraph of thousands, each warned of, went through them thousands of times."""
    by_start = sorted(range(len(terms)), key=lambda k: terms[k][0])
    waiting: list[int] = []  # the terms (their places in ``terms``) that start before the last ``before``
    entered = 0

    def first(before: int, after: int) -> str:
        nonlocal entered
        while entered < len(by_start) and terms[by_start[entered]][0] < before:
            heappush(waiting, by_start[entered])
            entered += 1
        while terms[waiting[0]][1] <= after:
            heappop(waiting)
        return text[slice(*terms[waiting[0]])]
    return first


def segmented(text: str, language: str, split: bool, breaks: Sequence[int],
              stops: Sequence[tuple[int, str]]) -> list[tuple[int, int]]:
    """``sentence_spans`` with every control at a sentence's edges left out, paired or not."""
    if stops and split:
        return with_stops(text, language, breaks, stops)
    inner = sorted(b for b in set(breaks) if 0 < b < len(text))
    if inner:
        return [(start + s, start + e) for start, end in pairwise([0, *inner, len(text)])
                for s, e in segmented(text[start:end], language, split, (), ())]
    if not text.strip():
        return []
    if not split:
        return [span for span in [edges(text, 0, len(text))] if span[0] < span[1]]
    bounds: list[tuple[int, int]] = []
    hosts = [match.span() for match in protected.HOST.finditer(text)]
    for found in get_sentence_boundaries(language, text.translate(ASCII_SPACES)):
        start, end = found["start_index"], found["end_index"]
        if bounds and (splits_a_dotted_word(text, start) or follows_an_abbreviation(text, start, language)
                       or splits_a_host(hosts, start)):
            start = bounds.pop()[0]
        elif bounds and (number := note_after_stop(text, start)):
            bounds.append((start, start + number))  # the note's number, between the two sentences
            start += number
        bounds.append((start, end))
    spans = [edges(text, start, end) for start, end in bounds]
    return [span for span in spans if span[0] < span[1]]


def splits_a_dotted_word(text: str, at: int) -> bool:
    """Whether a sentence break at ``at`` would cut a word that starts with its "." (".NET",
    ".PDF"): sentencex breaks after a "." followed by a capital, space or none.  A break after
    a word's own full stop ("runs.A cat") is kept: there the "." does not start the word."""
    return (0 < at < len(text) and text[at - 1] == "." and not text[at].isspace()
            and (at == 1 or text[at - 2].isspace()))


def splits_a_host(hosts: Sequence[tuple[int, int]], at: int) -> bool:
    """Whether a sentence break at ``at`` falls inside one of the ``hosts`` (attnmt.decoding.protected.HOST's
    (start, end) in the text): sentencex breaks after a "." followed by a capital, so "Visit Bike.Com today." and
    "Visit BIKE.COM today." were "Visit Bike." and "Com today.", the host parted in two and translated as words;
    but "THE DOG.IT RAN AWAY.", which HOST reads as two sentences glued, is two."""
    return any(first < at < last for first, last in hosts)


def follows_an_abbreviation(text: str, at: int, language: str) -> bool:
    """Whether a sentence break at ``at`` in an English ``text`` ("en", "en-GB") follows one of
    ENGLISH_ABBREVIATIONS, as written ("approx.") or at a sentence's start ("Approx."), not in
    capitals ("EST." may be a time zone that ends one), before what it cannot end a sentence before."""
    if re.split(r"[-_]", language)[0].lower() != "en" or at >= len(text):
        return False
    found = WORD_AND_STOP.search(text, max(0, at - 16), at)
    if found is None:
        return False
    word = found.group(1)
    before_capital = word.lower() in NEVER_LAST or not text[at].isupper()
    return word.lower() in ENGLISH_ABBREVIATIONS and (word.islower() or word.istitle()) and before_capital

def note_after_stop(text: str, at: int) -> int:
    """How many characters long a note's number in superscript digits (markers.RAISED_NUMBERS: "¹²",
    "¹⁻³") is where it starts a sentence at ``at``, glued to the stop before it ("park.¹² A woman");
    0 where none does.  sentencex starts the next sentence with it, "¹² A woman is reading.", where
    a reader sees it end the one it follows, as an HTML page's ``park.<sup>12</sup>`` does.  It is
    a span of its own, part of neither sentence: with no letter it is kept as it is, where the model,
    given "park.¹²" or "grass.³", dropped the number.  More numbers after it, parted by spaces or a
    comma ("runs.² ³ A dog", "runs.¹, ⁴ A dog"), are notes of the same stop, in the same span: read
    with the next sentence, "³ A dog sleeps.", the model dropped the "³"."""
    found = NOTE_NUMBERS.match(text, at)
    return found.end() - at if found is not None and 0 < at and not text[at - 1].isspace() else 0


def with_stops(text: str, language: str, breaks: Sequence[int],
               stops: Sequence[tuple[int, str]]) -> list[tuple[int, int]]:
    """``segmented`` spans of ``text`` read with ``stops`` in it: the segmenter sees "beach. A cat"
    where ``text`` has "beach A cat" (the stop kept whole in its element), so a sentence ends there,
    as the reader sees it (and "Mr<b>.</b> Smith", an abbreviation, does not end one).  Each span is
    given back in ``text``; one that ends with a stop ends where the stop stands."""
    shown, places, ends = [], [], []  # each character read: itself, its place in text, where a span ending with it ends
    pending, k = sorted(stops), 0
    for position in range(len(text) + 1):
        while k < len(pending) and pending[k][0] <= position:
            characters, k = pending[k][1], k + 1
            shown += characters
            places += [position] * len(characters)
            ends += [position] * len(characters)
        if position < len(text):
            shown.append(text[position])
            places.append(position)
            ends.append(position + 1)
    read = "".join(shown)
    # A break stays after the stops at its place: "Name<b>.</b><tab/>John" ends "Name" with its stop.
    # places ascends, so the characters read before a break are found by bisection, not counted one by one.
    stop_lengths: dict[int, int] = {}
    for p, characters in stops:
        stop_lengths[p] = stop_lengths.get(p, 0) + len(characters)
    moved = [bisect_left(places, b) + stop_lengths.get(b, 0) for b in breaks]
    spans = [edges(text, places[s] if s < len(places) else len(text), ends[e - 1])
             for s, e in segmented(read, language, True, moved, ())]
    return [span for span in spans if span[0] < span[1]]
