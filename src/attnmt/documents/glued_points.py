"""Where atoms glued to the end of a word go (rule 2 of attnmt.documents.spans).

A note's link or reference typed right after a word (``bench<a>[1]</a>.``, ``bike`` and a
superscript ``1, 2``) belongs to that word.  The model reads it parted from what follows (``bench
.``: an atom that shows text parts words, attnmt.documents.elements), so the rule for other points,
before the translation of the source word that follows, put it before the target word aligned to
the stop, wherever the word it was glued to went (``auf einer<a>[1]</a> Bank.``).  It goes after
that word's translation instead: at the end of the letters of the last target word aligned to it,
before the punctuation that ends that word (``auf einer Bank<a>[1]</a>.``).  Atoms that touch go
there together (``bench<a>[1]</a><a>[2]</a>.``: the first is glued to the word, the last to
nothing).  One glued to a word's start already goes before that word's translation, the word that
follows it.  Apart from spans.py so that the placing rules read on their own."""

from __future__ import annotations

from collections.abc import Sequence

from attnmt.documents.flat import FlatText, closing_length
from attnmt.documents.kept_words import core


def glued_word(flat: FlatText, words: Sequence[tuple[int, int]], position: int) -> int | None:
    """The index of the word of ``words`` ([start, end) in ``flat.text``) that the atoms at
    ``position`` are glued to the end of: a letter or digit right before the first of them, none
    right after the last (Mark.glued_before, glued_after), and nothing after them in that word but
    punctuation (``bench|``, ``bench|.``).  None where there is none, and where quotes and brackets
    alone follow them in it (``runs<b>.</b>"``: Projector.inside_closing and before_closing)."""
    atoms = [mark for mark in flat.marks if mark.atom and mark.start == position]
    if not atoms or not atoms[0].glued_before or atoms[-1].glued_after:
        return None
    for k, (start, end) in enumerate(words):
        rest = flat.text[position:end]
        if start < position <= end and core(flat.text, start, end)[1] == position:
            return k if not rest or closing_length(rest) != len(rest) else None
    return None


def letters_end(target: str, words: Sequence[tuple[int, int]]) -> int | None:
    """The end of the letters of the last of ``words`` ([start, end) in ``target``) that has any,
    before the punctuation that ends it (``Bank|.``); None where none has (a stop alone)."""
    return next((end for start, end in (core(target, *word) for word in reversed(words)) if start < end), None)
