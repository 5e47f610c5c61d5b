"""Symbols the model cannot write (an emoji, "©", "♥" where its vocabulary has no piece for them),
taken out of a flat text and kept as atoms, as its URLs are (attnmt.documents.flat).

The model reads such a symbol as an unknown piece and writes nothing for it: "A dog runs 👍🏽 fast."
came out "Ein Hund rennt um den Weg.". Taken out, the sentence the model reads is "A dog runs
fast.", and the symbol goes back where its neighbours' words went (attnmt.documents.spans): "Ein
Hund 👍🏽 rennt.". So is a run of symbols and punctuation of any kind (Unicode's S* and P*: "|",
"·", "»", "→", "€") that stands alone, a separator between links: "Home | About | Contact" came out
"Ein Krünnnnnnner verwämmmmmt.". So is a word the vocabulary cannot write, of a script it has no
pieces for ("Αθήνα"): a line of such words alone is then left with no letter, and passes through.
A symbol the vocabulary writes is left to the model, which may
translate it ("-", "&", "..."), but for an "other symbol" it writes only as the letters the tokenizer
reads it as ("™" as "TM", ``read_as_other``), which the model never wrote back; so is one inside or
glued to a word that is no "other symbol" (Unicode's So) nor part of an emoji: "e-mail", and "´",
which the tokenizer reads as a space and an accent ("a man´s dog"). Which the vocabulary writes only
the translator knows (``translator_writes``), so this is done where a document's sentences are split
(pipeline.flat_sentences), for every format."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterator, Sequence
from itertools import accumulate

from attnmt.decoding.sentence_edges import PAIRS
from attnmt.decoding.word_edges import SKIN_TONES, ZWJ
from attnmt.documents.flat import SENTENCE_ENDS, FlatText, Mark
from attnmt.documents.measures import measure_runs, read_as_other
from attnmt.documents.run_spaces import NO_BREAK, led_by_plain_spaces, spaces_taken
from attnmt.documents.stop_points import stop_point

# What joins the characters of one emoji, or changes how it shows: the zero-width joiner (👨‍👩‍👧),
# the variation selectors (❤️), the keycap (1️⃣), the skin tones (👍🏽); and the tag characters of a
# subdivision's flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
JOINERS = frozenset(ZWJ + "\ufe0e\ufe0f\u20e3") | SKIN_TONES | frozenset(map(chr, range(0xE0020, 0xE0080)))
STOPS = "".join(SENTENCE_ENDS)  # what may follow a sound's description's closing bracket: "(♪ soft music)."
KEYCAP_BASES = frozenset("0123456789#*")  # "1" + U+FE0F + U+20E3 shows as one key, 1️⃣
# A heart typed as text ("I <3 you", "</3"): one symbol, as "♥" is; its "<" read as an unknown piece, the model wrote
# "3" alone ("Dieser 3 bereitet sich.").
HEART = re.compile(r"(?<![^\s(\[])</?3+(?=[\s.,!?;:)\]]|\Z)")


def runs_of(text: str, edges: Collection[int], belongs: Callable[[str], bool]) -> Iterator[tuple[int, int]]:
    """[start, end) of each run of characters of ``text`` that ``belongs`` says are of one, cut at
    ``edges``: the runs ``symbol_runs`` and ``lone_runs`` choose from."""
    start = None
    for i, character in enumerate(text + " "):
        if start is not None and (i in edges or not belongs(character)):
            yield start, i
            start = None
        if start is None and i < len(text) and belongs(character):
            start = i


def is_symbol(character: str) -> bool:
    """Whether ``character`` is an "other symbol" (Unicode's So: "👍", "©", "♥", a flag's half) or joins one."""
    return character in JOINERS or unicodedata.category(character) == "So"


def symbol_runs(text: str, edges: Collection[int]) -> Iterator[tuple[int, int]]:
    """[start, end) of each run of symbols in ``text`` (one emoji, "🐕🐕", a keycap with its base),
    cut at ``edges`` (where a mark starts or ends, where a sentence must end): a run of joiners
    alone holds no symbol, and is none."""
    for start, end in runs_of(text, edges, is_symbol):
        if any(c == "\u20e3" or c not in JOINERS for c in text[start:end]):
            keycap = start > 0 and text[start - 1] in KEYCAP_BASES and text[start] in "\ufe0f\u20e3"
            yield (start - 1 if keycap and start not in edges else start, end)


def is_letter(character: str) -> bool:
    """Whether ``character`` is a letter or a mark on one (Unicode's L* and M*), not one that joins an emoji."""
    return character not in JOINERS and unicodedata.category(character)[0] in "LM"


def unwritable_words(text: str, edges: Collection[int], writes: Callable[[str], bool]) -> list[tuple[int, int]]:
    """[start, end) of each run of letters in ``text`` (a word, cut at ``edges`` as ``symbol_runs``
    cuts) none of whose letters ``writes`` says the model's vocabulary writes: a word of a script it
    has no pieces for (``Αθήνα``, ``東京タワー``, ``Привет`` for a Multi30k model), which the model reads
    as unknown and drops ("A dog runs to Αθήνα." was "Ein Hund rennt zu."), or, alone on a line,
    answers with a sentence of its own ("Ein bereitet sich.").  A word with a letter the vocabulary
    writes ("Łódź": its "ó", "d", "z") is the model's to read, and so is a run that starts with a
    mark, a stray accent ("´s", which the tokenizer reads as a space and an accent), and so is a
    word in capitals whose letters it writes in lower case ("DOG": a sentence in capitals is read in
    sentence case, attnmt.decoding.capitals).  Each distinct letter is asked once, and an ASCII
    letter never: every vocabulary of a spaced script writes them, and a word of them is the model's."""
    asked: dict[str, bool] = {}

    def unwritable(letter: str) -> bool:
        if letter not in asked:
            asked[letter] = not (letter.isascii() or writes(letter) or writes(letter.lower()))
        return asked[letter]

    words = [trimmed(text, start, end) for start, end in runs_of(text, edges, in_word)]
    return [(start, end) for start, end in words
            if start < end and unicodedata.category(text[start])[0] == "L"
            and all(unwritable(c) for c in text[start:end] if unicodedata.category(c)[0] == "L")]


# The invisible characters that stand inside a word: a zero-width space (between Thai words, written
# without spaces: "ฉัน\u200bกิน" is one run, taken out whole, not two around a lone U+200B), a
# (non-)joiner, a word joiner.
INSIDE_WORDS = frozenset("\u200b\u200c\u200d\u2060")


def in_word(character: str) -> bool:
    """Whether ``character`` is a letter (``is_letter``) or an invisible character inside a word (``INSIDE_WORDS``)."""
    return is_letter(character) or character in INSIDE_WORDS


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] without the characters at its edges that are no letters (``INSIDE_WORDS``'s)."""
    while start < end and not is_letter(text[start]):
        start += 1
    while end > start and not is_letter(text[end - 1]):
        end -= 1
    return start, end


def is_sign(character: str) -> bool:
    """Whether ``character`` is a symbol or punctuation of any kind (Unicode's S* and P*: "|", "»",
    "→", ".") or joins an emoji."""
    return character in JOINERS or unicodedata.category(character)[0] in "SP"


def lone_runs(text: str, edges: Collection[int], breaks: Collection[int]) -> Iterator[tuple[int, int]]:
    """[start, end) of each run of signs in ``text`` (``is_sign``), cut at ``edges`` as
    ``symbol_runs`` cuts, that stands alone: each side at a space, the text's edge or a line's end
    (``breaks``), or one of them at a mark's edge (" |<a>About").  "e-mail", "man´s", "3½?" hold none."""
    for start, end in runs_of(text, edges, is_sign):
        left = start in breaks or not text[max(start - 1, 0):start].strip()
        right = end in breaks or not text[end:end + 1].strip()
        if (left or start in edges) and (right or end in edges) and (left or right):
            if any(c not in JOINERS for c in text[start:end]):
                yield start, end


def take_out_symbols(flat: FlatText, writes: Callable[[str], bool],
                     terms: Callable[[str], Sequence[tuple[int, int]]] | None = None) -> None:
    """In place: each run of symbols in ``flat`` (``symbol_runs``, ``lone_runs``), each word
    (``unwritable_words``) and each measure, a number with its signs (``with_measures``), that ``writes``
    says the model's vocabulary cannot write (unknown pieces) taken out of its text into an atom
    with the run as its literal, which shows text (Mark.shows_text) and keeps the spaces around it,
    as FlatBuilder.add_atom keeps a URL's; one of the two spaces it stood between goes with it where
    the placement puts it back (a single space before a word), and every other space stays.  The
    marks and breaks after it move back, and each atom goes among the marks where the run stood
    in the source (``in_source_order``), so that atoms at one place keep their order: the "+" of
    ``<kbd>Ctrl</kbd>+<kbd>C</kbd>`` stays between the two keys.  A run inside one of
    ``terms(text)`` (the places of a glossary's source terms in the text, looked for only where a
    run was found) is left where it is: the glossary translates it ("20 %" is
    "zwanzig Prozent").  Taking them out again changes nothing: what is left, the vocabulary writes
    or a term holds."""
    stop_point()  # a stopped job stops between the blocks it looks through
    text = flat.text
    edges = {p for mark in flat.marks for p in (mark.start, mark.end)} | set(flat.breaks)
    runs = sorted([(s, e) for s, e in symbol_runs(text, edges) if not writes(text[s:e]) or read_as_other(text[s:e])]
                  + unwritable_words(text, edges, writes)
                  + [heart.span() for heart in HEART.finditer(text) if not writes(heart[0])])
    # A lone run goes where the vocabulary cannot write it even without those symbols ("| 👍");
    # "great 👍!" keeps its "!" for the model, as it did before lone runs were taken out.  What the
    # vocabulary writes at its edges stays too (".»" keeps its "."), so that a sentence still ends there.
    lone = [unwritable_part(text, s, e, writes, runs) for s, e in lone_runs(text, edges, flat.breaks)
            if not writes("".join(c for k, c in enumerate(text[s:e], s) if not any(a <= k < b for a, b in runs)))]
    taken = with_measures(text, lone + [(s, e) for s, e in runs if not any(a <= s and e <= b for a, b in lone)],
                          edges, writes)
    held = terms(text) if taken and terms is not None else ()
    cuts = with_leading_marks(text, listed(text, sorted((s, e) for s, e in taken
                                                        if not any(a < e and s < b for a, b in held)), edges),
                              edges, flat.breaks)
    cuts = with_wrapping_pair(text, cuts, edges, flat.breaks)
    if not cuts:
        return
    removed, closed, spaced = spaces_taken(text, cuts, flat.marks, edges, flat.breaks)
    moved = position_mover(removed)
    points: dict[int, list[Mark]] = {}  # position -> the atoms there, in order
    for mark in flat.marks:
        if mark.atom:
            points.setdefault(mark.start, []).append(mark)
    atoms = [symbol_atom(flat, s, e, moved(s), points, closed_up=s in closed, spaced_as=spaced.get(s, " "))
             for s, e in cuts]
    starts = [mark.start for mark in flat.marks]
    places = [bisect_right(starts, s) for s, _ in cuts]
    for mark in flat.marks:
        mark.start, mark.end = moved(mark.start), moved(mark.end)
    flat.breaks[:] = [moved(b) for b in flat.breaks]
    flat.line_ends[:] = [moved(b) for b in flat.line_ends]
    flat.marks[:] = in_source_order(flat.marks, atoms, places)
    kept, text = [0, *(p for cut in removed for p in cut), len(text)], led_by_plain_spaces(text, spaced, closed)
    flat.text = "".join(text[kept[k]:kept[k + 1]] for k in range(0, len(kept), 2))


def with_measures(text: str, taken: Sequence[tuple[int, int]], edges: Collection[int],
                  writes: Callable[[str], bool]) -> list[tuple[int, int]]:
    """``taken`` with each measure the vocabulary cannot write (attnmt.documents.measures: "12 °C", "€5") in
    place of the runs inside it: its sign taken alone, the number went to the model, which lost it.  A measure
    that a run reaches out of (the "°🔥" of "12°🔥", one run of symbols) is left to the runs."""
    measures = [(s, e) for s, e in measure_runs(text, edges, writes)
                if not any(a < e and s < b and not (s <= a and b <= e) for a, b in taken)]
    return measures + [(a, b) for a, b in taken if not any(s <= a and b <= e for s, e in measures)]


# What parts the items of a list: a comma and a space or none, as Latin, Chinese and Japanese write it.
LIST_COMMA = re.compile("[,，、] ?")
# What parts two runs of a list or a range in elements of their own (``<b>5 €</b>, <b>6 €</b>``, ``<i>9:00</i> –
# <i>17:00</i>``): a few signs that follow a word (``is_mark``: a comma, a semicolon, a colon, a slash, a dash),
# a space or none either side.
BETWEEN = re.compile(r" ?([^\w\s]{1,3}) ?")


def listed(text: str, cuts: Sequence[tuple[int, int]], edges: Collection[int]) -> list[tuple[int, int]]:
    """``cuts`` (sorted), those only a comma apart (LIST_COMMA) joined into one, the commas in it, where no edge
    stands between them: "We accept 5 €, 10 € and 20 €" read "We accept , and", and the demo model dropped the
    comma and wrote "5 €10 €".  Where edges stand there (an atom is of one element), what parts them is a run of
    its own (``separator``)."""
    joined: list[tuple[int, int]] = []
    for start, end in cuts:
        if joined and LIST_COMMA.fullmatch(text, joined[-1][1], start) \
                and not any(p in edges for p in range(joined[-1][1], start + 1)):
            joined[-1] = (joined[-1][0], end)
            continue
        joined += separator(text, joined[-1][1], start, edges) if joined else []
        joined.append((start, end))
    return joined


def separator(text: str, end: int, start: int, edges: Collection[int]) -> list[tuple[int, int]]:
    """[start, end) of the signs that alone part two runs, one ending at ``end`` and the next starting at ``start``,
    where a mark's edge (``edges``) stands between them and none inside the signs (``BETWEEN``, no sentence's end):
    ``Pay <b>5 €</b>, <b>6 €</b>, then go.`` read "Pay, , then go.", and the demo model dropped the comma between
    the prices ("<b>5 €</b> <b>6 €</b>"); read without it, "Pay, then go.", the comma comes back with them.  None
    where something else parts them."""
    between = BETWEEN.fullmatch(text, end, start)
    if between is None or not any(end <= p <= start for p in edges):
        return []
    signs = between.span(1)
    if any(signs[0] < p < signs[1] for p in edges) or not all(map(is_mark, between[1])) \
            or set(between[1]) & set(SENTENCE_ENDS):
        return []
    return [signs]


def with_leading_marks(text: str, cuts: Sequence[tuple[int, int]], edges: Collection[int],
                       breaks: Collection[int]) -> list[tuple[int, int]]:
    """``cuts`` (sorted), each that starts a sentence (nothing but spaces and cuts before it since
    the text's start, a break or a sentence's end) reaching over the punctuation glued after it
    that ends no sentence (",", ";", ":") up to a space, or up to anything where it or the word
    before it is full-width (``is_wide``: "注意：the dog runs.", "注意:the dog runs."): "Привет мир,
    a dog runs." gave the model ", a dog runs.", whose translation began with no comma ("Привет мир
    Ein Hund, der einen Hund rennt."), and "注意：the dog" gave it "：the dog", whose translation
    lost the colon; the mark goes with "мир" or "注意" into its atom, and is put back as written."""
    extended: list[tuple[int, int]] = []
    leading, last = True, 0  # whether a sentence starts at ``last``, the end of the cut before
    for k, (start, end) in enumerate(cuts):
        gap = text[last:start].rstrip()
        leading = (leading and not gap) or gap[-1:] in tuple(SENTENCE_ENDS) or any(last < b <= start for b in breaks)
        stop = cuts[k + 1][0] if k + 1 < len(cuts) else len(text)
        glued = end  # past the punctuation, which may start where an element around the words ends
        while (glued < stop and (glued == end or glued not in edges) and text[glued] not in SENTENCE_ENDS
               and is_mark(text[glued])):
            glued += 1
        if leading and glued > end and (not text[glued:glued + 1].strip() or is_wide(text[glued - 1])
                                         or is_wide(text[end - 1])):
            # an atom of its own after the element's end ("**Москва**,"), else one with the words
            extended += [(start, end)] if end in edges else []
            start, end = (end if end in edges else start), glued
        extended.append((start, end))
        last = end
    return extended


def with_wrapping_pair(text: str, cuts: Sequence[tuple[int, int]], edges: Collection[int],
                       breaks: Collection[int]) -> list[tuple[int, int]]:
    """``cuts`` (sorted), where one opens a sentence (after the text's start, a break or a sentence's end) right after
    a bracket or a quote (sentence_edges.PAIRS) and another ends it (before a break or the text's end) right before
    the mark that closes that one, a space parting each from the words, each reaching over its mark: "(♪" and "♪)"
    of "(♪ soft music ♪)", as "[♪" and "♪]" are taken where the vocabulary writes no "[".  Left to the model, "( soft
    music)" held no pair around a sentence, its "(" parted from the words by the space the run left
    (attnmt.decoding.sentence_edges.quoted_edges), and the demo model wrote "Ein♪ bereitet sich ♪", the brackets
    lost; it reads "soft music", and the marks come back where they were.  So do "(♪" and ")" of "(♪ soft music)",
    a note on one side only (the demo model wrote "Ein♪ bereitet sich", both brackets lost), and "[♪" and "]"
    (it wrote "[♪ Ein Musiker singt", the "]" lost); a stop after the closing mark stays after it ("(♪ soft music).":
    the demo model wrote "Ein♪ bereitet sich.")."""
    ends, out = sorted({0, *breaks, len(text)}), list(cuts)
    for k, (start, end) in enumerate(out):
        opener = start - 1 if PAIRS.get(text[start - 1:start]) and start else start  # in the cut: "[♪" unwritten
        closing = PAIRS.get(text[opener:opener + 1])
        first, stop = ends[bisect_right(ends, start - 1) - 1], ends[bisect_left(ends, end)]
        before = text[first:opener].rstrip()[-1:]  # a sentence's end, or none: its start
        if closing is None or start in edges or text[end:end + 1] != " " or (before and before not in SENTENCE_ENDS):
            continue
        last = next((j for j in range(len(out) - 1, k, -1) if out[j][1] < stop), None)
        if opener < start and last is not None and text[out[last][1]:out[last][1] + 1] == closing \
                and out[last][1] not in edges and text[out[last][0] - 1] == " " \
                and not text[out[last][1] + 1:stop].strip().strip(STOPS):
            out[k], out[last] = (start - 1, end), (out[last][0], len(text[:stop].rstrip()))  # its stop too
        elif last is None and (shut := len(text[:stop].rstrip().rstrip(STOPS)) - 1) > end and text[shut] == closing \
                and text[opener] not in text[end:shut] and not any(end <= b <= stop for _, b in out[k + 1:]):
            out[k] = (opener, end)  # a note on one side: "(♪" and ")" of "(♪ soft music)"
            out.append((shut, len(text[:stop].rstrip())))  # with a stop after it: "(♪ soft music)."
    return sorted(out)


def is_wide(character: str) -> bool:
    """Whether ``character`` is a full-width one (Unicode's East Asian Width F and W: "：", "，", "注"): Chinese and
    Japanese write no space after their punctuation ("注意：the dog", "价格：10 €", "注意:the dog")."""
    return unicodedata.east_asian_width(character) in "FW"


def is_mark(character: str) -> bool:
    """Whether ``character`` is punctuation that follows a word (Unicode's Po and Pd: ",", ";", "—"),
    no bracket or quote."""
    return unicodedata.category(character) in ("Po", "Pd")


def symbol_atom(flat: FlatText, start: int, end: int, position: int, points: dict[int, list[Mark]],
                closed_up: bool = False, spaced_as: str = " ") -> Mark:
    """The atom of the symbol run flat.text[start:end], at ``position`` once the runs are out: the
    spaces and letters either side of it as FlatBuilder.add_atom gives an atom's, where an atom
    it touched stands on a side (``<kbd>Ctrl</kbd>+``; ``points``: the atoms at each position of
    the text, in order) that atom's spacing on that side in place of the text's; ``closed_up``: the
    space before it went out with it (closing_marks.closes_up_run, Mark.closed_up); ``spaced_as``: the spacing before
    it as written, where it went out with it (Mark.space_before_as, run_spaces.no_breaks_before)."""
    text = flat.text
    before, after = points.get(start, []), points.get(end, [])
    space_before = before[-1].space_after if before else start == 0 or text[start - 1].isspace()
    space_after = after[0].space_before if after else text[end:end + 1].isspace()
    return Mark(position, position, innermost(flat.marks, start, end), None, True, text[start:end],
                space_before=space_before, space_after=space_after, shows_text=True, space_before_as=spaced_as,
                space_after_as=text[end] if not after and text[end:end + 1] in tuple(NO_BREAK) else " ",
                glued_before=not before and text[start - 1:start].isalnum() if start else False,
                glued_after=not after and text[end:end + 1].isalnum(), closed_up=closed_up)


def in_source_order(marks: Sequence[Mark], atoms: Sequence[Mark], places: Sequence[int]) -> list[Mark]:
    """``marks`` with each of ``atoms`` put before the mark numbered its ``places`` (sorted; len(marks):
    at the end), every mark's ``parent`` and ``opened_by`` (and the atoms' parents, numbers in
    ``marks``) renumbered to match.  A flat text's marks are in document order, and their starts
    with them (FlatBuilder adds each where its text has come to), so a symbol run at ``s`` goes
    before the first mark that starts after ``s`` (bisect_right of the starts): after the points
    before it and the elements that hold it, before what came after it (a run is cut at every
    mark's edge).  Placed, marks at one place are written in this order (range_order.written_order)."""
    def renumbered(k: int | None) -> int | None:
        return None if k is None else k + bisect_right(places, k)

    merged: list[Mark] = []
    waiting = 0  # the first atom not yet put in
    for k, mark in enumerate(marks):
        while waiting < len(atoms) and places[waiting] == k:
            merged.append(atoms[waiting])
            waiting += 1
        merged.append(mark)
    merged.extend(atoms[waiting:])
    for mark in merged:
        mark.parent, mark.opened_by = renumbered(mark.parent), renumbered(mark.opened_by)
    return merged


def position_mover(removed: Sequence[tuple[int, int]]) -> Callable[[int], int]:
    """Where a position in a text lands once the spans ``removed`` ([start, end), sorted and not
    overlapping) are cut out of it: position - sum(max(0, min(e, position) - s) for s, e in removed).
    The spans before a position are found by bisection and their lengths by running sums, so each
    position costs O(log n): summed span by span, the 6,000 positions of a paragraph of 1,500 bold
    items with an emoji each took 3 s to move past their 1,500 spans."""
    bounds = [p for span in removed for p in span]
    if bounds != sorted(bounds):  # the bisection below would count an overlap once, the sum twice
        raise ValueError(f"spans to remove must be sorted and not overlap: {list(removed)}")
    starts = [s for s, _ in removed]
    cut_before = list(accumulate((e - s for s, e in removed), initial=0))  # cut_before[k]: spans 0..k-1's length

    def moved(position: int) -> int:
        k = bisect_left(starts, position)  # spans 0..k-1 start before position; only the last may hold it
        if k == 0:
            return position
        s, e = removed[k - 1]
        return position - cut_before[k - 1] - (min(e, position) - s)

    return moved


def unwritable_part(text: str, start: int, end: int, writes: Callable[[str], bool],
                    runs: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """text[start:end], a lone run, without the characters the vocabulary writes at its edges (a
    stop, a comma, a bracket): ".»" is "»", and the "." is left to the model and the sentence
    splitter.  A character of a symbol run (``runs``: "#️⃣" with its base) is kept with its run."""
    def kept(k: int) -> bool:
        return not writes(text[k]) or any(a <= k < b for a, b in runs)
    while start < end - 1 and not kept(start):
        start += 1
    while end - 1 > start and not kept(end - 1):
        end -= 1
    return start, end


def innermost(marks: list[Mark], start: int, end: int) -> int | None:
    """The innermost element of ``marks`` (the last in document order) that holds text[start:end]."""
    holding = [k for k, mark in enumerate(marks) if not mark.atom and mark.start <= start and end <= mark.end]
    return holding[-1] if holding else None
