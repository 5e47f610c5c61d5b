"""No-break spaces between two words (``10\u00a0km``, ``Mr.\u00a0Smith``, HTML's ``10&nbsp;km``), kept in
the translation between the words they bind; and so is a run of them (``One&nbsp;&nbsp;&nbsp;two``, a page's
spacing or indentation, plain spaces among them too), as long as it was.

A model's tokenizer reads a no-break space as a plain one (SentencePiece's NFKC), and writes the
translation with plain spaces: a unit came apart from its number at a line's end, a title from its
name.  Where the translations of the two words stand side by side, in order, with one plain space
between them, that space is written as the source's no-break space (U+00A0, or U+202F's narrow one);
elsewhere (the words turned round, or translated as one) the translation is left as the model wrote
it.  A run is written whole in that one space's place, and what is placed after it moves on by the characters it adds
(``shifted``): the demo model wrote ``A dog&nbsp;&nbsp;&nbsp;runs in the park.`` as "Ein Hund rennt im Park.", the
spacing gone.  The placement of marks (attnmt.documents.spans) finds the words by their alignment, so a
sentence with such a space is aligned even where no mark is in it (``needs_alignment``)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText

if TYPE_CHECKING:
    from attnmt.documents.spans import Projector

# A no-break space between two words, or a run of spaces with one in it ("\u00a0\u00a0\u00a0", " \u00a0 ")
BINDING = re.compile(r"(?<=\S)[ \u00a0\u202f]*[\u00a0\u202f][ \u00a0\u202f]*(?=\S)")


def needs_alignment(flat: FlatText, sentences: Sequence[tuple[int, int]]) -> list[bool]:
    """For each sentence of ``flat``, whether some mark starts, ends or sits strictly inside it, or
    a no-break space binds two of its words (else whole sentences map onto whole translations and no
    alignment is needed).  The marks' edges are sorted once and each sentence bisects them, not every
    mark gone through per sentence."""
    edges = sorted(edge for m in flat.marks for edge in (m.start, m.end))
    binding = [match.start() for match in BINDING.finditer(flat.text)]
    return [bisect_right(edges, start) < bisect_left(edges, end) or bisect_left(binding, start) < bisect_left(
        binding, end) for start, end in sentences]


def with_no_break_spaces(projector: Projector, spans: Sequence[tuple[int, int]]) -> tuple[
        str, list[tuple[int, int]], tuple[int, ...]]:
    """The projector's joined translation with each space between the translations of two words bound
    by no-break spaces in the source written as those spaces (module docstring); the marks' ``spans`` on it and
    where each sentence's translation starts in it, moved past the characters a run so written adds."""
    target = list(projector.target)
    source = projector.flat.text
    added = []  # (where, how many characters) each run written adds
    for match in BINDING.finditer(source):
        i = bisect_right(projector.sentence_ends, match.start())
        if i == len(projector.sentences) or projector.sentences[i][0] > match.start():
            continue  # between sentences: the spacing there is kept as it was
        k = bisect_left(projector.word_ends[i], match.start())  # the word that ends right before it
        before, after = projector.aligned(i, [k]), projector.aligned(i, [k + 1])
        if before and after and before[-1] + 1 == after[0]:
            end, start = projector.target_words[i][before[-1]][1], projector.target_words[i][after[0]][0]
            if start == end + 1 and target[end] == " ":
                target[end] = match.group()
                added += [(end, len(match.group()) - 1)] if len(match.group()) > 1 else []
    return ("".join(target), [(shifted(s, added), shifted(e, added)) for s, e in spans],
            tuple(shifted(start, added) for start in projector.target_starts))


def shifted(position: int, added: Sequence[tuple[int, int]]) -> int:
    """``position`` of the model's translation in the one with_no_break_spaces wrote: past each run written before it
    (``added``: where, how many characters), but one written at ``position`` itself (the space a mark ends before)."""
    return position + sum(count for at, count in added if at < position)
