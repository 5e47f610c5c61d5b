"""Bidirectional controls inside a sentence (``He said \u2067שלום\u2069 to us.``, ``report.pdf\u200e``),
taken out of a flat text before a model reads it, and put back around the translation of the words
they held.

A model's tokenizer reads an isolate or an embedding (U+2066-U+2069, U+202A-U+202E) as an unknown
piece, and a mark (LRM, RLM, ALM) as a space between two words; it writes none back, so the
translation lost them and the words they held ran the wrong way in a right-to-left line.  Taken out
as atoms (as the symbols a model cannot write are: attnmt.documents.symbols), an opening control and
the control that closes it are the start and end of a range (Mark.opened_by), which go around the
translation of the words between them (range_order.range_points), and a lone mark or an unclosed control is a
point, which goes with the word it stood beside (rules 2 of attnmt.documents.spans).  Only those
inside a line's text are taken out: at a sentence's edges they are no part of it and stay where they
stand (attnmt.documents.bidi.edges)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace

from attnmt.documents.bidi import CONTROLS, is_edge
from attnmt.documents.flat import FlatText, Mark
from attnmt.documents.symbols import in_source_order, position_mover, symbol_atom
from attnmt.text.invisible import CLOSE_EMBEDDING, CLOSE_ISOLATE, EMBEDDINGS, ISOLATES

CLOSING = {**dict.fromkeys(ISOLATES, CLOSE_ISOLATE), **dict.fromkeys(EMBEDDINGS, CLOSE_EMBEDDING)}


def inside(text: str, position: int) -> bool:
    """Whether text[position] has something shown before and after it in its line (is_edge)."""
    start, end = text.rfind("\n", 0, position) + 1, text.find("\n", position)
    line = text[start:len(text) if end < 0 else end]
    at = position - start
    return any(not is_edge(c) for c in line[:at]) and any(not is_edge(c) for c in line[at + 1:])


def pairs(text: str, cuts: list[int]) -> dict[int, int]:
    """The opening control each closing one of ``cuts`` closes (its position -> the opener's), innermost first."""
    opened: list[int] = []
    closes = {}
    for position in cuts:
        character = text[position]
        if character in CLOSING:
            opened.append(position)
        elif opened and CLOSING[text[opened[-1]]] == character:
            closes[position] = opened.pop()
    return closes


def spaced_before(text: str, position: int, cuts: list[int]) -> bool:
    """Whether the line's start or a space comes before text[position], the ``cuts`` right before it passed over."""
    while position in cuts:
        position -= 1
    return position < 0 or text[position].isspace()


def take_out_controls(flat: FlatText) -> None:
    """In place: each bidirectional control ``inside`` a line of ``flat`` taken out of its text into an
    atom with the control as its literal, an opening and its closing control a range's start and end
    (module docstring); the marks and breaks after it move back (symbols.take_out_symbols)."""
    text = flat.text
    cuts = [k for k, character in enumerate(text) if character in CONTROLS and inside(text, k)]
    if not cuts:
        return
    # A space after it goes with it where one comes before it, as after a symbol: placed, the atom gets it back.
    fixed = {p for mark in flat.marks if not mark.atom for p in (mark.start, mark.end)} | set(flat.breaks)
    removed = [(k, k + 2 if text[k + 1:k + 2] == " " and text[k + 2:k + 3].strip() and spaced_before(text, k, cuts)
                and k + 1 not in fixed else k + 1) for k in cuts]
    moved = position_mover(removed)
    points: dict[int, list[Mark]] = {}  # position -> the atoms there, whose spacing a control beside them takes
    for mark in flat.marks:
        if mark.atom:
            points.setdefault(mark.start, []).append(mark)
    # Shown text no, so that a mark glued to a word goes with it (glued_points).
    atoms = {k: replace(symbol_atom(flat, k, k + 1, moved(k), points), shows_text=False) for k in cuts}
    starts = [mark.start for mark in flat.marks]
    places = [bisect_right(starts, k) for k in cuts]
    for mark in flat.marks:
        mark.start, mark.end = moved(mark.start), moved(mark.end)
    flat.breaks[:] = [moved(b) for b in flat.breaks]
    flat.line_ends[:] = [moved(b) for b in flat.line_ends]
    flat.marks[:] = in_source_order(flat.marks, [atoms[k] for k in cuts], places)
    number = {id(mark): n for n, mark in enumerate(flat.marks)}
    for end, start in pairs(text, cuts).items():
        atoms[end].opened_by = number[id(atoms[start])]
    kept = [0, *(p for cut in removed for p in cut), len(text)]
    flat.text = "".join(text[kept[k]:kept[k + 1]] for k in range(0, len(kept), 2))
