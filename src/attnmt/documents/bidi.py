"""Unicode's bidirectional controls around and inside the sentences a model reads.

Right-to-left text mixed with left-to-right text is held in place by invisible controls
(Unicode's bidirectional algorithm, UAX #9): the isolates LRI, RLI, FSI (U+2066-U+2068), each
closed by a PDI (U+2069); the embeddings and overrides LRE, RLE, LRO, RLO (U+202A, U+202B,
U+202D, U+202E), each closed by a PDF (U+202C); and the marks LRM, RLM, ALM (U+200E, U+200F,
U+061C), which close nothing.  A model has rarely seen them (a SentencePiece model reads an isolate
as an unknown piece and writes none back), so:

- controls at a sentence's edges are no part of the sentence (``edges``), nor are the other
  characters there that show nothing (a zero-width space, a word joiner, a byte order mark, NUL):
  they stay where they stand, in the spacing between sentences, which a translation keeps as it
  was; an isolate around a sentence or a line comes back around its translation, in pairs, and
  the space after it stays;
- an element that held such controls with its sentence (``<span dir="rtl">\u2066A dog runs.\u2069</span>``)
  still holds them around its translation (``held``): outside it, they would change what it shows;
- controls inside a sentence go to a stand-in translator with it (a model's reads none:
  attnmt.documents.direction_controls takes them out), and whatever of them its translation holds
  is kept only in pairs (``balanced``): half a pair would mis-embed the rest of the line;
- a pair whose halves fall in two sentences, one of whose outputs holds its half (a sentence kept in
  its source, or without letters) while the other's lost its own (a translation), is left out of
  that output too (``without_lost_partners``);
- a text read whole as one sentence (a JSONL input line: attnmt.cli.translate_jsonl) is read
  without the controls, spaces and invisible characters at its edges (``whole``), and they come
  back around its translation as they stood (``rewrapped``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.text.invisible import CLOSE_EMBEDDING, CLOSE_ISOLATE, EMBEDDINGS, ISOLATES, invisible

if TYPE_CHECKING:
    from attnmt.documents.flat import Mark

MARKS = "\u200e\u200f\u061c"  # LRM, RLM, ALM
CONTROLS = frozenset(ISOLATES + CLOSE_ISOLATE + EMBEDDINGS + CLOSE_EMBEDDING + MARKS)

# One sentence's word weights, [target word][source word] (attnmt.documents.spans.Weights, which imports this module).
Rows = Sequence[Sequence[float]]


def is_edge(character: str) -> bool:
    """Whether ``character`` is left out at a sentence's edge: whitespace or a character that shows
    nothing and takes no room (attnmt.text.invisible.invisible: a bidirectional control, a zero-width
    space, a word joiner, a byte order mark, a C0 control such as NUL).  The model reads none of
    them as text, so at an edge they stay in the spacing between sentences, kept as it was: sent
    with the sentence, "\u200b A cat" lost its zero-width space and the space after it, which the
    model left out as a sentence's own, and a word joiner changed the translation."""
    return character.isspace() or invisible(character)


def edges(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) without the whitespace, bidirectional controls and other invisible characters
    at either end (``is_edge``: ``"\\u2067A man is walking.\\u2069\\u200b "`` -> ``"A man is walking."``)."""
    while start < end and is_edge(text[start]):
        start += 1
    while end > start and is_edge(text[end - 1]):
        end -= 1
    return start, end


def held(text: str, position: int, limit: int, step: int) -> int:
    """From a sentence's edge at ``position`` towards ``limit`` (``step`` -1: back, 1: on), over the
    whitespace, controls and other invisible characters left out of it (``edges``): where the
    farthest one that is no whitespace ends, so that an element holding them with the sentence
    holds them around its translation too; ``position`` where there is none (whitespace alone is
    hoisted out of an element, attnmt.documents.spans)."""
    farthest = k = position
    while (k > limit if step < 0 else k < limit) and is_edge(character := text[k - 1 if step < 0 else k]):
        k += step
        if not character.isspace():
            farthest = k
    return farthest


def controls_between(text: str, mark: Mark) -> bool:
    """Whether ``mark`` (an element over ``text``) holds bidirectional controls and nothing else but
    whitespace and invisible characters (``is_edge``): what it holds besides is atoms, a URL or a phone
    number that no sentence reads (``<span dir="ltr">\u2066+49 30 1234567\u2069</span>``).  Its stretch
    stands in the spacing between sentences, which a translation keeps as it was, so it goes there
    whole: made a point at its end, it held the atom and the closing control but not the opening one."""
    inside = text[mark.start:mark.end]
    return any(character in CONTROLS for character in inside) and all(map(is_edge, inside))


def partners(text: str) -> dict[int, int]:
    """Where each control of ``text`` that is paired stands -> where its partner stands (both
    ways): a PDI closes the last isolate still open, a PDF the last embedding or override opened
    inside it; an isolate's end cuts off the embeddings opened inside it, unclosed."""
    open_ones: list[int] = []  # where each control still open stands, innermost last
    found: dict[int, int] = {}
    for k, character in enumerate(text):
        if character in ISOLATES or character in EMBEDDINGS:
            open_ones.append(k)
        elif character == CLOSE_ISOLATE:
            isolates = [n for n, at in enumerate(open_ones) if text[at] in ISOLATES]
            if isolates:
                found[open_ones[isolates[-1]]] = k
                del open_ones[isolates[-1]:]
        elif character == CLOSE_EMBEDDING and open_ones and text[open_ones[-1]] in EMBEDDINGS:
            found[open_ones.pop()] = k
    return found | {closing: opening for opening, closing in found.items()}


def balanced(text: str) -> str:
    """``text`` with every control that opens or closes nothing (``partners``) left out; the
    paired ones stay, with the marks.  ``"Ein \u2067Mann geht."`` -> ``"Ein Mann geht."``."""
    if not any(character in CONTROLS for character in text):
        return text
    paired = partners(text)
    return "".join(character for k, character in enumerate(text)
                   if k in paired or character not in CONTROLS or character in MARKS)


def whole(text: str) -> tuple[int, int]:
    """[start, end) of ``text`` read as one sentence: without the whitespace, controls and invisible
    characters at its ``edges``, but for a control whose partner stays inside it (``kept_in_pairs``)."""
    [span] = kept_in_pairs(text, [edges(text, 0, len(text))])
    return span


def rewrapped(text: str, translation: str) -> str:
    """``translation`` of ``text`` read as one sentence (``whole``) between what was left out at its
    edges, as it stood: the controls, the whitespace and the other invisible characters (a zero-width
    space, a byte order mark), as a paragraph keeps the spacing around its sentences and the server
    a text's (``" \u2067 A man walks. \u2069 "`` -> ``" \u2067 Ein Mann geht. \u2069 "``), so a JSONL
    text's own leading and trailing spaces come back as a text line's do."""
    start, end = whole(text)
    return text[:start] + translation + text[end:]


def kept_in_pairs(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans``, [start, end) of the sentences of ``text`` with the controls at their ``edges``
    left out, each widened back over such a control whose partner (``partners``) stays inside a
    sentence: left between sentences, where the translation keeps it, it would lose its partner,
    which the model reads.  (``"\u2067A dog runs.\u2069 A cat" unsplit: the model reads
    the isolate whole, and its translation keeps it whole or not at all.)"""
    paired = partners(text)
    spans = list(spans)
    while True:  # one control at a time: widening a sentence can take in another one's partner
        inside = {k for start, end in spans for k in range(start, end)}
        k = next((k for k, partner in sorted(paired.items()) if k not in inside and partner in inside), None)
        if k is None:
            return spans
        if paired[k] > k:  # its partner is on: the next sentence starts here
            n = next(n for n, (start, _) in enumerate(spans) if start > k)
            spans[n] = (k, spans[n][1])
        else:
            n = max(n for n, (_, end) in enumerate(spans) if end <= k)
            spans[n] = (spans[n][0], k + 1)


def lone(text: str) -> list[int]:
    """Where each control of ``text`` that opens or closes nothing in it (``partners``) stands; marks close nothing."""
    paired = partners(text)
    return [k for k, character in enumerate(text) if character in CONTROLS and character not in MARKS
            and k not in paired]


def without_lost_partners(text: str, spans: Sequence[tuple[int, int]], outputs: Sequence[str],
                          weights: Sequence[Rows | None]) -> tuple[list[str], list[Rows | None]]:
    """``outputs``, what each sentence of ``text`` (``spans``) comes back as, and their ``weights``,
    without each control whose partner (``partners``) stands in another sentence, where the output of
    the one still holds it and the other's lost its own.  A translation keeps no half of a pair
    (``balanced``); a sentence kept in its source (``--below-quality source``, or written by the model
    as it was) or without letters (``with_terms``, a term in it or not) holds its half still, and alone
    it would mis-embed the rest of the line (``"\u2067A man walks. A dog\u2069 runs."``, the first kept:
    ``"A man walks. Ein Hund rennt."``).  What each output holds is read from the output itself, not
    from how it came: two outputs that both hold their halves keep the pair whole."""
    outputs, weights = list(outputs), list(weights)
    held: dict[int, tuple[int, int]] = {}  # where a half stands in text -> (its sentence, where in that output)
    lost: set[int] = set()
    for n, ((start, end), output) in enumerate(zip(spans, outputs, strict=True)):
        halves, holds = [start + k for k in lone(text[start:end])], lone(output)
        if [text[k] for k in halves] == [output[k] for k in holds]:
            held |= {k: (n, at) for k, at in zip(halves, holds, strict=True)}
        else:
            lost.update(halves)
    # From each output's end back, so that the places still to go stay where they are.
    for n, at in sorted((held[k] for k, partner in partners(text).items() if k in held and partner in lost),
                        reverse=True):
        outputs[n], weights[n] = without_control(outputs[n], at, weights[n])
    return outputs, weights


def without_control(text: str, at: int, weights: Rows | None) -> tuple[str, Rows | None]:
    """``text`` without the control at ``at``, and its ``weights`` [word][source word] to match.  A
    control standing alone between spaces is a word: it goes with a space beside it, and its row
    with it, so each word left keeps its own row (``<b>`` on the word after it stays on that word)."""
    before, after = text[:at], text[at + 1:]
    if before[-1:].strip() or after[:1].strip():  # glued to a word (or another control): no word goes
        return before + after, weights
    word = len(before.split())
    before, after = (before, after[1:]) if after[:1] else (before[:-1], after)
    return before + after, None if weights is None else [row for t, row in enumerate(weights) if t != word]
