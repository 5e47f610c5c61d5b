"""Symbols the model cannot write (an emoji, "©", "♥" where its vocabulary has no piece for them),
taken out of a flat text and kept as atoms, as its URLs are (attnmt.documents.flat).

The model reads such a symbol as an unknown piece and writes nothing for it: "A dog runs 👍🏽 fast."
came out "Ein Hund rennt um den Weg.". Taken out, the sentence the model reads is "A dog runs
fast.", and the symbol goes back where its neighbours' words went (attnmt.documents.spans): "Ein
Hund 👍🏽 rennt.". A symbol the vocabulary writes is left to the model, which may translate it; so is
every character that is neither an "other symbol" (Unicode's So) nor part of an emoji: "€", "→", and
"´", which the tokenizer reads as a space and an accent ("a man´s dog"). Which the vocabulary writes
only the translator knows (``translator_writes``), so this is done where a document's sentences are
split (pipeline.flat_sentences), for every format."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Iterator

from attnmt.documents.flat import FlatText, Mark

# What joins the characters of one emoji, or changes how it shows: the zero-width joiner (👨‍👩‍👧),
# the variation selectors (❤️), the keycap (1️⃣), the skin tones (👍🏽); and the tag characters of a
# subdivision's flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
JOINERS = (frozenset("\u200d\ufe0e\ufe0f\u20e3") | frozenset(map(chr, range(0x1F3FB, 0x1F400)))
           | frozenset(map(chr, range(0xE0020, 0xE0080))))
KEYCAP_BASES = frozenset("0123456789#*")  # "1" + U+FE0F + U+20E3 shows as one key, 1️⃣


def is_symbol(character: str) -> bool:
    """Whether ``character`` is an "other symbol" (Unicode's So: "👍", "©", "♥", a flag's half) or joins one."""
    return character in JOINERS or unicodedata.category(character) == "So"


def symbol_runs(text: str, edges: Collection[int]) -> Iterator[tuple[int, int]]:
    """[start, end) of each run of symbols in ``text`` (one emoji, "🐕🐕", a keycap with its base),
    cut at ``edges`` (where a mark starts or ends, where a sentence must end): a run of joiners
    alone holds no symbol, and is none."""
    start = None
    for i, character in enumerate(text + " "):
        if start is not None and (i in edges or not is_symbol(character)):
            if any(c == "\u20e3" or c not in JOINERS for c in text[start:i]):
                keycap = start > 0 and text[start - 1] in KEYCAP_BASES and text[start] in "\ufe0f\u20e3"
                yield (start - 1 if keycap and start not in edges else start, i)
            start = None
        if start is None and i < len(text) and is_symbol(character):
            start = i


def take_out_symbols(flat: FlatText, writes: Callable[[str], bool]) -> None:
    """In place: each run of symbols in ``flat`` that ``writes`` says the model's vocabulary cannot
    write (unknown pieces) taken out of its text into an atom with the run as its literal, which
    shows text (Mark.shows_text) and keeps the spaces around it, as FlatBuilder.add_atom keeps a
    URL's; one of the two spaces it stood between goes with it.  The marks and breaks after it move
    back; the new atoms come after the marks there were, so that every mark's number stays what it
    was (a format keeps some: attnmt.documents.ooxml's run atoms).  Taking them out again changes
    nothing: what is left, the vocabulary writes."""
    text = flat.text
    edges = {p for mark in flat.marks for p in (mark.start, mark.end)} | set(flat.breaks)
    cuts = [(s, e) for s, e in symbol_runs(text, edges) if not writes(text[s:e])]
    if not cuts:
        return
    # A space after the run goes too where one comes before it ("runs 👍🏽 fast" reads "runs fast").
    removed = [(s, e + 1 if text[e:e + 1] == " " and (s == 0 or text[s - 1].isspace()) and e not in edges else e)
               for s, e in cuts]

    def moved(position: int) -> int:
        return position - sum(max(0, min(e, position) - s) for s, e in removed)

    atoms = [Mark(moved(s), moved(s), innermost(flat.marks, s, e), None, True, text[s:e],
                  space_before=s == 0 or text[s - 1].isspace(), space_after=text[e:e + 1].isspace(),
                  shows_text=True, glued_before=text[s - 1:s].isalnum() if s else False,
                  glued_after=text[e:e + 1].isalnum()) for s, e in cuts]
    for mark in flat.marks:
        mark.start, mark.end = moved(mark.start), moved(mark.end)
    flat.breaks[:] = [moved(b) for b in flat.breaks]
    flat.marks.extend(atoms)
    kept = [0, *(p for cut in removed for p in cut), len(text)]
    flat.text = "".join(text[kept[k]:kept[k + 1]] for k in range(0, len(kept), 2))


def innermost(marks: list[Mark], start: int, end: int) -> int | None:
    """The innermost element of ``marks`` (the last in document order) that holds text[start:end]."""
    holding = [k for k, mark in enumerate(marks) if not mark.atom and mark.start <= start and end <= mark.end]
    return holding[-1] if holding else None
