"""No-break spaces between two words (``10\u00a0km``, ``Mr.\u00a0Smith``, HTML's ``10&nbsp;km``), kept in
the translation between the words they bind.

A model's tokenizer reads a no-break space as a plain one (SentencePiece's NFKC), and writes the
translation with plain spaces: a unit came apart from its number at a line's end, a title from its
name.  Where the translations of the two words stand side by side, in order, with one plain space
between them, that space is written as the source's no-break space (U+00A0, or U+202F's narrow one);
elsewhere (the words turned round, or translated as one) the translation is left as the model wrote
it.  The placement of marks (attnmt.documents.spans) finds the words by their alignment, so a
sentence with such a space is aligned even where no mark is in it (``needs_alignment``)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attnmt.documents.flat import FlatText

if TYPE_CHECKING:
    from attnmt.documents.spans import Projector

BINDING = re.compile(r"(?<=\S)[\u00a0\u202f](?=\S)")  # one no-break space between two words


def needs_alignment(flat: FlatText, sentences: Sequence[tuple[int, int]]) -> list[bool]:
    """For each sentence of ``flat``, whether some mark starts, ends or sits strictly inside it, or
    a no-break space binds two of its words (else whole sentences map onto whole translations and no
    alignment is needed).  The marks' edges are sorted once and each sentence bisects them, not every
    mark gone through per sentence."""
    edges = sorted(edge for m in flat.marks for edge in (m.start, m.end))
    binding = [match.start() for match in BINDING.finditer(flat.text)]
    return [bisect_right(edges, start) < bisect_left(edges, end) or bisect_left(binding, start) < bisect_left(
        binding, end) for start, end in sentences]


def with_no_break_spaces(projector: Projector) -> str:
    """The projector's joined translation with each space between the translations of two words bound
    by a no-break space in the source written as that no-break space (module docstring)."""
    target = list(projector.target)
    source = projector.flat.text
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
    return "".join(target)
