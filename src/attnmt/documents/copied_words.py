"""Which one target word a mark over one source word, or part of one, goes on (rule 1 of attnmt.documents.spans).

A number, a formula, a unit or a name often comes through as written (``E = mc<sup>2</sup>``, ``x<sub>i</sub>``,
``12 m<sup>2</sup>``, ``H<sub>2</sub>O``), yet the alignment may give its word several target words, or others than
the copy: stretched from the first to the last of them, the ``<sup>`` of ``m2`` went over "die alle tragen" and
"Football und ein", and the ``<sub>`` of ``H2O`` over "einem Tooooooo-St".  So such a mark goes on the target word
that writes its word unchanged (its punctuation aside: attnmt.documents.kept_words.is_kept), where its edges keep
their places in it, or on that part of a compound joined by hyphens (``<a>Nike</a> shirt`` -> ``<a>Nike</a>-Shirt``,
where the link went to "einem").  A copy the alignment gave the word counts for any word; one it gave to other words
only for a word that reads the same in either language (reads_alike) or one with the mark's edge inside its letters
(``x<sub>i</sub>``, a symbol): a plain word ("in", "die", "also") may be another word of the target language.  Where
there is no copy, a mark over part of a word (a script, a bold letter) or over a number goes on one target word, the
one that gives the word the most attention: a part of a word holds no more of the sentence's meaning than the word,
a number no more than one word ("fünf"), and stretched they covered words the source mark never held ("<b>von
fünf</b> Männern").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from difflib import SequenceMatcher

from attnmt.decoding.protected import KEY_COMBO
from attnmt.decoding.verbatim import word_value
from attnmt.documents.kept_words import core
from attnmt.text.invisible import folded, unaccented

Span = tuple[int, int]
# A number alone, with its sign and separators ("5", "-3", "1,000.50"): its translation is one word ("fünf").
NUMBER = re.compile(r"[-+\u2212]?\d+(?:[.,'\u00a0\u202f]\d+)*")
# A run of letters and digits, as the edges of kept_copies' patterns part them ("WHO", "HTML5", the "e" of "e.g.").
RUN = re.compile(r"[^\W_]+")
# Letters between full stops, a few each, as a translation writes an abbreviation ("z.B", "d.h", "p.ej": without
# the stop at its end, which kept_words.core took off).
DOTTED = re.compile(r"[^\W\d_]{1,3}(?:\.[^\W\d_]{1,3})+")
KEY_COMBINATION = re.compile(KEY_COMBO)  # Ctrl+C, Strg+Umschalt+P: a translation may name the keys its own way
KEYS_WRITTEN = re.compile(r"[^\W_]+(?:[+-][^\W_]+)*")  # keys in one word, joined by a "+" or a "-": Alt-F, Ctrl+T
ARTICLES = frozenset({"ein", "one"})  # words that name 1 and are more often an article or a pronoun (spelled_number)
RESPELT = 0.5  # how alike a word written for a name's word is to it, at least (respells: difflib's ratio)


class Copies:
    """Each sentence's target words, and the parts of those joined by hyphens, by their letters
    (kept_words.core: ``(H2O).`` is ``H2O``), in order: found once for all of a sentence's marks, as a
    paragraph of thousands of marks each going through all its words made placing them quadratic."""

    def __init__(self, target: str, target_words: Sequence[Sequence[Span]]) -> None:
        self.target, self.target_words = target, target_words
        # sentence -> letters -> (target word, span of the copy: the whole word, or a part of it), in order
        self.by_letters: dict[int, dict[str, list[tuple[int, Span]]]] = {}
        # (sentence, length, open start, open end) -> letters, lower case -> their starts, in order (run_starts)
        self.runs: dict[tuple[int, int, bool, bool], dict[str, list[int]]] = {}
        self.source_runs: dict[int, set[str]] = {}  # sentence -> the runs its source writes, lower case

    def of(self, i: int, letters: str) -> list[tuple[int, Span]]:
        """The target words of sentence i that write ``letters`` (their punctuation aside, or as a part
        between hyphens), in order, each with the span of that copy."""
        if i not in self.by_letters:
            found: dict[str, list[tuple[int, Span]]] = {}
            for t, word in enumerate(self.target_words[i]):
                start, end = core(self.target, *word)
                found.setdefault(self.target[start:end], []).append((t, word))
                for part in hyphen_parts(self.target, start, end):
                    found.setdefault(self.target[slice(*part)], []).append((t, part))
            self.by_letters[i] = found
        return self.by_letters[i].get(letters, [])

    def run_starts(self, i: int, run: str, open_start: bool = False, open_end: bool = False) -> list[int]:
        """Where in sentence i's translation ``run``, a run of letters and digits (RUN), is written but for its case,
        in order: as a whole run, or, where the source glued letters to it (``<abbr>API</abbr>s``), as the start of
        one (``open_end``), its end (``open_start``) or any part of it (both).  Found once for all of a sentence's
        kept marks of a length, as each searching all its translation made placing a sentence of thousands of
        abbreviations quadratic."""
        key = (i, len(run), open_start, open_end)
        if key not in self.runs:
            found: dict[str, list[int]] = {}
            for match in RUN.finditer(self.target, self.target_words[i][0][0], self.target_words[i][-1][1]):
                for at in run_places(match, len(run), open_start, open_end):
                    found.setdefault(self.target[at:at + len(run)].lower(), []).append(at)
            self.runs[key] = found
        return self.runs[key].get(run.lower(), [])

    def in_source(self, i: int, source: str, sentence: Span, letters: str) -> bool:
        """Whether sentence i, source[sentence[0]:sentence[1]], writes ``letters`` as a whole run (RUN) of its own,
        but for their case."""
        if i not in self.source_runs:
            self.source_runs[i] = {run.group().lower() for run in RUN.finditer(source, *sentence)}
        return letters.lower() in self.source_runs[i]


def run_places(match: re.Match[str], length: int, open_start: bool, open_end: bool) -> range:
    """Where in the run of letters and digits ``match`` found a copy ``length`` long may start (Copies.run_starts):
    at its start, where it ends the run too unless ``open_end``; at its end less ``length`` where ``open_start``;
    anywhere in it where both."""
    start, end = match.span()
    if open_start and open_end:
        return range(start, end - length + 1)
    if open_start:
        return range(end - length, end - length + 1) if end - start >= length else range(0)
    fits = end - start >= length if open_end else end - start == length
    return range(start, start + 1) if fits else range(0)


def hyphen_parts(text: str, start: int, end: int) -> list[Span]:
    """The parts of the word text[start:end] between its hyphens (``Nike-Shirt``: ``Nike``, ``Shirt``); none for a
    word without one."""
    parts, at = [], start
    for k in range(start, end + 1):
        if k == end or text[k] == "-":
            parts.append((at, k))
            at = k + 1
    return [part for part in parts if part[0] < part[1]] if len(parts) > 1 else []


def one_target(copies: Copies, i: int, source: str, word: Span, mark: Span, targets: Sequence[int],
               best: int | None) -> Span | None:
    """The span of the one target word (or part of one) of sentence i that ``mark``, over the source ``word``
    or part of it, goes on: its copy (copied_word), else the one word of ``targets`` (the target words aligned to
    it) or, for a mark over part of the word or over a number (``<b>5</b> men``: "von <b>fünf</b>", not "<b>von
    fünf</b>"), ``best``, the one that gives it the most attention; None where it goes over all of ``targets`` (or
    nowhere: none)."""
    inside = is_inside_word(source, word, mark)
    copy = copied_word(copies, i, source, word, targets, best, inside or reads_alike(source, word))
    if copy is not None:
        return copy
    if len(targets) == 1:
        return copies.target_words[i][targets[0]]
    alone = inside or NUMBER.fullmatch(source[slice(*core(source, *word))]) is not None
    return copies.target_words[i][best] if best is not None and targets and alone else None


def kept_target(copies: Copies, i: int, source: str, mark: Span, targets: Sequence[int],
                best: int | None, sentence: Span) -> list[tuple[int, int, bool]]:
    """Where an element kept whole over source[mark[0]:mark[1]] in sentence i, source[sentence[0]:sentence[1]]
    (Mark.kept_whole: an abbreviation), is written back in place of what the translation wrote there, as a stretch of
    rule 1 (none, or one): over its copy, as written but for its case and, where the translation moved or dropped
    it, the punctuation at its ends (``WHO`` for ``WHO``, the ``WHO`` of ``WHO-Büro``, ``et al.``, ``Mph`` starting a
    sentence), at the edges of a target word but on a side where the source glued a letter to it
    (``<abbr>API</abbr>s``: in ``APIs``), of several the one nearest the word attending to it most (``best``, else the
    first of ``targets``, those aligned to it); else over the abbreviation the translation wrote for it in its
    place (rewritten: ``OMS``, where the page showed ``WHO`` beside it, twice).  None where the translation has
    neither: it goes at a point (rule 2), and takes no word of the translation out.  Written over the one word
    attending to it most, it took what the demo model wrote for another ("von seinem Hund" for "from the UN walks his
    dog" lost "seinem")."""
    if not copies.target_words[i]:
        return []
    anchor = copies.target_words[i][best if best is not None else (targets[0] if targets else 0)][0]
    kept = source[slice(*mark)].rstrip()
    # a name before keys: keys_dropped read "Lagoon" of "Die Lagoon Blue" as the keys "Blue Lagoon" cut short
    found = kept_copies(copies, i, source, mark) or renamed_name(copies, i, kept, targets) or renamed_keys(
        copies, i, kept, targets, best) or spelled_number(copies, i, kept, targets, best) or [
        with_stop(copies.target, span, kept) for span in rewritten(copies, i, source, sentence, targets, best,
                                                                   kept.endswith("."))]
    return [(*min(found, key=lambda span: abs(span[0] - anchor)), False)] if found else []


def spelled_number(copies: Copies, i: int, kept: str, targets: Sequence[int], best: int | None) -> list[Span]:
    """The word the translation of sentence i wrote for a kept number (``kept``: a Word field's page number,
    fields.is_number_result) in its place, in the first of the words attending to it most (``best``) and those aligned
    to it (``targets``) that names it (verbatim.word_value, English's and German's: ``vier`` for ``4``); beside it,
    the page showed the number twice, "Vier {4} ...".  Not an article that names one too (``ein``, ``one``)."""
    if not kept.isdigit():
        return []
    for t in dict.fromkeys([*([best] if best is not None else []), *targets]):
        span = core(copies.target, *copies.target_words[i][t])
        written = copies.target[slice(*span)].lower()
        if written not in ARTICLES and word_value(written) == int(kept):
            return [span]
    return []


def renamed_name(copies: Copies, i: int, kept: str, targets: Sequence[int]) -> list[Span]:
    """The words the translation of sentence i wrote in the place of a kept name of several words (``kept``: ``Acme
    Widget Corp``, kept_names.shows_a_name), those aligned to it (``targets``), where they stand side by side, are no
    more than its words and each is written as a name is (is_name_word) and respells it: the name in another order or
    spelling (``Corp Widget Acme``, ``Akme Widgett``, ``Blaue Lagune``); written beside it, the page showed the name
    twice.  None where the words aligned to it part, are a sentence's words in lower case or other words (German's
    nouns have capitals: the ``Wasser`` of "Das Wasser ist warm.", which the name lost, went under it): it goes at a
    point, taking none of them."""
    words = kept.split()
    if len(words) < 2 or not all(map(is_name_word, words)) or not targets or len(targets) > len(words):
        return []
    if list(targets) != list(range(targets[0], targets[-1] + 1)):
        return []
    spans = [core(copies.target, *copies.target_words[i][t]) for t in targets]
    written = [copies.target[slice(*span)] for span in spans]
    if not all(is_name_word(word) and respells(word, words) for word in written):
        return []
    return [(spans[0][0], spans[-1][1])]


def respells(written: str, words: Sequence[str]) -> bool:
    """Whether ``written``, a word of a translation, spells one of a name's ``words`` or all of them joined, its
    accents, case and punctuation aside: the two are RESPELT alike or more, the letters they have in common in order
    half of all theirs (difflib's ratio: ``Akme`` for ``Acme`` 0.75, ``Lagune`` for ``Lagoon`` 0.67,
    ``Acme-Widget-Corp`` for the name 1.0), not another word (``Wasser`` for ``Blue`` 0.2, ``Lagoon`` 0.17)."""
    letters = spelling(written)
    return any(SequenceMatcher(None, letters, spelling(word)).ratio() >= RESPELT for word in (*words, "".join(words)))


def spelling(word: str) -> str:
    """The letters and digits of ``word``, case-folded and without accents (``Acme-Widget`` as ``acmewidget``)."""
    return "".join(RUN.findall(unaccented(folded(word))))


def is_name_word(word: str) -> bool:
    """Whether ``word`` is written as a name's word is: letters, a capital at its start or a capital or a digit
    after it (``Acme``, ``iPhone``, ``Web3``)."""
    return any(map(str.isalpha, word)) and (word[:1].isupper() or any(c.isupper() or c.isdigit() for c in word))


def renamed_keys(copies: Copies, i: int, kept: str, targets: Sequence[int], best: int | None) -> list[Span]:
    """The key combination the translation of sentence i wrote in the place of a kept one (``kept``), in the first of
    the words attending to it most (``best``) and those aligned to it (``targets``) that is one (KEY_COMBINATION):
    ``Strg+C`` for ``Ctrl+C``, as a German keyboard names the keys; or that writes some of its keys (keys_dropped:
    ``Alt-F`` for ``Alt-F4``); written beside it, the page showed both, the keys the model dropped flagged as a
    number changed."""
    renamed = KEY_COMBINATION.fullmatch(kept) is not None
    for t in dict.fromkeys([*([best] if best is not None else []), *targets]):
        span = core(copies.target, *copies.target_words[i][t])
        written = copies.target[slice(*span)]
        if (renamed and KEY_COMBINATION.fullmatch(written)) or keys_dropped(written, kept):
            return [span]
    return []


def keys_dropped(written: str, kept: str) -> bool:
    """Whether ``written``, a word of a translation, is the key combination ``kept`` (its keys joined: ``Alt-F4``,
    ``Ctrl+Shift+T``, ``Cmd K``) with keys dropped or cut short: a key of it alone (``F4``, ``Alt``, as written), or
    its keys joined in their order, each whole or its start, one whole at least (``Alt-F``, ``Ctrl+T``)."""
    keys = RUN.findall(kept)
    runs = RUN.findall(written)
    if len(keys) < 2 or written == kept or KEYS_WRITTEN.fullmatch(written) is None:
        return False
    if len(runs) == 1:
        return runs[0] in keys
    k, whole = 0, False
    for run in runs:
        while k < len(keys) and not keys[k].startswith(run):
            k += 1
        if k == len(keys):
            return False
        whole, k = whole or run == keys[k], k + 1
    return whole


def with_stop(target: str, span: Span, kept: str) -> Span:
    """``span`` with the full stop right after it where what is kept ends in one, which writes it (``USA.`` for
    ``U.S.`` ending a sentence, ``z.B.`` for ``e.g.``: "U.S..", "e.g.." otherwise)."""
    return (span[0], span[1] + 1) if kept.rstrip().endswith(".") and target[span[1]:span[1] + 1] == "." else span


def rewritten(copies: Copies, i: int, source: str, sentence: Span, targets: Sequence[int],
              best: int | None, stopped: bool) -> list[Span]:
    """The abbreviation the translation of sentence i wrote for a kept one in its place, in the first of the words
    attending to it most (``best``) and those aligned to it (``targets``) that holds one, or a part of it between
    hyphens does (``OMS-Büro``), or is one of its spaced pieces (spaced_pieces: ``z. B.`` for ``e.g.``, whose "z."
    alone was taken for a word cut short, and the page showed "e.g. B."): a short form (is_short_form: ``OMS`` for
    ``WHO``, ``USA`` for ``U.S.``, ``z.B.`` for ``e.g.``) beside a word in lower case (beside_lower), that the source
    writes nowhere (``UNICEF``, a name of its own the model kept, is no rewriting of ``WHO``); where the kept one ends
    in a full stop (``stopped``), a word cut short by one too (cut_short: ``ca.`` for ``approx.``)."""
    words = copies.target_words[i]
    for t in dict.fromkeys([*([best] if best is not None else []), *targets]):
        pieces = spaced_pieces(copies.target, words, t)
        if len(pieces) > 1:
            span = (core(copies.target, *words[pieces[0]])[0], core(copies.target, *words[pieces[-1]])[1])
            if copies.target[slice(*span)].lower() not in source[slice(*sentence)].lower() and (
                    beside_lower(copies, i, pieces)):
                return [span]
            continue
        start, end = core(copies.target, *words[t])
        short = stopped and t + 1 < len(words) and cut_short(copies.target, start, end)
        for part in [(start, end), *hyphen_parts(copies.target, start, end)]:
            letters = copies.target[slice(*part)]
            if (short or is_short_form(letters)) and not copies.in_source(i, source, sentence, letters) and (
                    beside_lower(copies, i, range(t, t + 1))):
                return [part]
    return []


def spaced_pieces(target: str, words: Sequence[Span], t: int) -> range:
    """The target words of an abbreviation written with a space after each of its stops that ``words[t]`` is a piece
    of (``z. B.``, ``d. h.``, ``p. ex.``, ``i. d. R.``), each a few letters and a stop (is_piece), in order; only t
    where it is none, or stands alone."""
    if not is_piece(target, words[t]):
        return range(t, t + 1)
    first, last = t, t
    while first > 0 and is_piece(target, words[first - 1]) and pieces_join(target, words[first - 1], words[first]):
        first -= 1
    while last + 1 < len(words) and is_piece(target, words[last + 1]) and pieces_join(target, words[last],
                                                                                       words[last + 1]):
        last += 1
    return range(first, last + 1)


def is_piece(target: str, word: Span) -> bool:
    """Whether ``word`` is, but for punctuation before it or after its stop, one to three letters and a full stop
    (``z.``, ``(p.``, ``B.,``): a piece of an abbreviation written spaced (spaced_pieces)."""
    start, end = core(target, *word)
    return 0 < end - start <= 3 and target[start:end].isalpha() and target[end:end + 1] == "."


def pieces_join(target: str, word: Span, after: Span) -> bool:
    """Whether two pieces (is_piece) in a row are one abbreviation's: nothing after the first one's stop, nothing
    before the letters of the second (``z. B.``, not ``z., B.`` nor ``z. (B.``)."""
    return core(target, *word)[1] + 1 == word[1] and core(target, *after)[0] == after[0]


def is_short_form(letters: str) -> bool:
    """Whether ``letters`` are an abbreviation as a translation writes one: capitals and digits, two capitals or more
    (``OMS``, ``UE``, ``H2O``), or a few letters between full stops (DOTTED)."""
    return (sum(map(str.isupper, letters)) >= 2 and all(c.isupper() or c.isdigit() for c in letters)) or (
        DOTTED.fullmatch(letters) is not None)


def cut_short(target: str, start: int, end: int) -> bool:
    """Whether target[start:end], a word that is not its sentence's last, is a few letters cut short by a full stop
    right after them (``ca.``, ``bzw.``, ``env.``): a stop inside a sentence, after a short word, ends no sentence."""
    return 0 < end - start <= 4 and target[start:end].isalpha() and target[end:end + 1] == "."


def beside_lower(copies: Copies, i: int, written: range) -> bool:
    """Whether a target word beside the ``written`` words of sentence i has a lower-case letter: capitals among words
    written in lower case stand out as a short form, not among others in capitals (a heading, ``DAS BÜRO DER OMS``)."""
    words = copies.target_words[i]
    return any(character.islower() for k in (written.start - 1, written.stop) if 0 <= k < len(words)
               for character in copies.target[slice(*words[k])])


def kept_copies(copies: Copies, i: int, source: str, mark: Span) -> list[Span]:
    """The copies in sentence i's translation of what source[mark[0]:mark[1]] shows (kept_target), in order: as
    written but for their case, else without the punctuation at its ends."""
    kept = source[slice(*mark)].strip()
    glued = (source[:mark[0]][-1:].isalnum(), source[mark[1]:mark[1] + 1].isalnum())
    opens = "" if glued[0] else r"(?<![^\W_])"  # a word's edge, unless glued in the source
    closes = "" if glued[1] else r"(?![^\W_])"
    start, end = copies.target_words[i][0][0], copies.target_words[i][-1][1]
    for written in dict.fromkeys((kept, kept[slice(*core(kept, 0, len(kept)))])):
        pattern = re.compile(opens + r"\s+".join(map(re.escape, written.split())) + closes, re.I)  # "et  al." too
        run = RUN.search(written)
        if run is None or written[:run.start()] != written[:run.start()].strip():
            found = [m.span() for m in pattern.finditer(copies.target, start, end)] if written else []
        else:  # only where the translation writes its first run of letters can a copy start
            open_start, open_end = glued[0] and not run.start(), glued[1] and run.end() == len(written)
            found = [m.span() for at in copies.run_starts(i, run.group(), open_start, open_end)
                     if at - run.start() >= start and (m := pattern.match(copies.target, at - run.start(), end))]
        if found:
            return found
    return []


def copied_word(copies: Copies, i: int, source: str, word: Span, targets: Sequence[int], best: int | None,
                anywhere: bool) -> Span | None:
    """The span of the copy of ``word`` in sentence i's translation: in one of ``targets`` (aligned to it) where
    one holds it, else, ``anywhere`` (a word that reads_alike, or one with the mark's edge inside its letters:
    ``x<sub>i</sub>``, a symbol, not a word of either language), in any; of several, the one nearest ``best``
    (the word attending to it most, else the first aligned to it).  None where there is none, or the word is
    punctuation alone."""
    start, end = core(source, *word)
    found = copies.of(i, source[start:end]) if start < end else []
    if not found:
        return None
    anchor = best if best is not None else (targets[0] if targets else 0)
    near = [found[k] for t in targets if (k := bisect_left(found, t, key=first)) < len(found) and found[k][0] == t]
    if not near and anywhere:
        k = bisect_left(found, anchor, key=first)  # only the copies either side of the anchor can be the nearest
        near = found[max(k - 1, 0):k + 1]
    return min(near, key=lambda copy: abs(copy[0] - anchor))[1] if near else None


def first(copy: tuple[int, Span]) -> int:
    return copy[0]


def reads_alike(source: str, word: Span) -> bool:
    """Whether the source ``word`` reads the same in any language, so that a copy of it is it wherever the
    translation puts it: it holds a digit (``m2``, ``12``) or a capital after its first letter (``H2O``,
    ``iPhone``, ``USB``), or it is a name, a capitalised word after a letter, a digit or a comma (``a Nike
    shirt``; not the first word of a sentence, ``Die Hard`` or "Die Kinder" alike)."""
    start, end = core(source, *word)
    letters = source[start:end]
    before = source[:word[0]].rstrip()[-1:]
    named = letters[:1].isupper() and (before.isalnum() or before == ",")
    return named or any(character.isdigit() for character in letters) or any(
        character.isupper() for character in letters[1:])


def is_inside_word(source: str, word: Span, mark: Span) -> bool:
    """Whether an edge of ``mark`` stands inside the letters of ``word`` (``m<sup>2</sup>``, ``<b>Hund</b>e``), not
    at their ends (``<b>word</b>.`` holds the whole word)."""
    start, end = core(source, *word)
    return start < mark[0] < end or start < mark[1] < end
