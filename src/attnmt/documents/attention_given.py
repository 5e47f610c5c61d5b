"""What a target word gives source words of attention: the one sum the alignment rules read marks by.

A mark's words are side by side (``range(a, b)``), so the sum is taken over a slice of the row, in C, where a
generator over the words took Python's loop: a paragraph of marks nested hundreds deep reads each of its ~1,000
target words' rows once a mark, and the generator's loop made 505 levels of Markdown emphasis 22 seconds of
sums.  The additions are the same, in the same order from 0, so the floats are the generator's to the bit.
"""

from __future__ import annotations

from collections.abc import Sequence


def given(row: Sequence[float], words: Sequence[int]) -> float:
    """What a target word whose attention is ``row`` gives the source ``words`` (ascending), summed in their
    order; a word past the row's end (a row the model truncated) gives nothing."""
    if words and words[-1] - words[0] == len(words) - 1:  # side by side: a slice, its end cut at the row's
        return sum(row[words[0]:words[-1] + 1])
    return sum(row[k] for k in words if k < len(row))
