"""Which target word gives a stretch of source words the most attention (Projector.most_attending), found
without summing every target word's row.

``strongest([given(row, words) for row in weights])`` is the choice.  A paragraph of marks nested hundreds deep
asks it once a mark of ~1,000 rows, each a sum of ~500 weights: ~250 million additions, 4 of the 5 seconds
of 505 nested levels.  Each row's running sums (float64, ``numpy.cumsum``) give every stretch's sum as the
difference of two of them, in two operations a row.  That difference is not ``given``'s sum to the bit, but it
is within a bound of it: each of the two running sums, ``given``'s sum and the difference are off the exact
sum by at most (n + 1) * u * A (n: the row's length, u: 2^-53, A: the sum of the row's magnitudes; Higham,
*Accuracy and Stability of Numerical Algorithms*, 4.2), and ``SLACK`` * n * eps * A, eps = 2u, bounds them
together.  A row whose difference plus its slack is below another's difference less that one's slack gives
strictly less than that other row, whatever the rounding: it cannot be the strongest, nor the first of equals.
The rest, usually one or two rows, are summed by ``given``, and ``strongest`` chooses among them in their
order: the choice is the one over every row, to the bit.  A row of one weight that is not 0 (a word that attends
to one word alone, as ``spans.identity``'s rows do) has every sum exact, its running sums' and ``given``'s alike:
its slack is 0 and its difference is ``given``'s sum, read as it is (a stretch of ``identity``'s words has as many
rows that give it 1.0, each of which the sum would have read whole).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attnmt.documents.attention_given import given
from attnmt.documents.dropped_words import strongest

SLACK = 4  # 4 * n * eps = 8 * n * u: past the three sums' and the difference's (3n + 1) * u and terms in u^2


class RunningSums:
    """One sentence's weights [target word][source word] (a row may be short: a row the model truncated),
    with each row's running sums, made when first read."""

    def __init__(self, weights: Sequence[Sequence[float]]) -> None:
        self.weights = weights
        self.running: np.ndarray | None = None  # [T, S + 1]: row t's sums of its first 0, 1, ..., S weights
        self.slack: np.ndarray | None = None  # [T]: how far a difference of two of them is from given's sum

    def strongest(self, words: Sequence[int]) -> int | None:
        """``strongest([given(row, words) for row in weights])``: the target word that gives source ``words``
        (ascending) the most attention (None: none gives any)."""
        if not words or words[-1] - words[0] != len(words) - 1 or not self.weights:  # not side by side
            return strongest([given(row, words) for row in self.weights])
        running, slack = self.sums()
        width = running.shape[1] - 1
        near = running[:, min(words[-1] + 1, width)] - running[:, min(words[0], width)]  # [T]
        rows = np.flatnonzero(~(near + slack < (near - slack).max())).tolist()  # NaN: every row summed
        best = strongest([float(near[t]) if slack[t] == 0 else given(self.weights[t], words) for t in rows])
        return None if best is None else rows[best]

    def sums(self) -> tuple[np.ndarray, np.ndarray]:
        """The running sums [T, S + 1] and each row's slack [T], made on the first call."""
        if self.running is None or self.slack is None:
            width = max(map(len, self.weights))
            table = np.zeros((len(self.weights), width + 1))
            for t, row in enumerate(self.weights):
                table[t, 1 : len(row) + 1] = row
            self.running = table.cumsum(axis=1)
            bound = SLACK * (width + 1) * np.finfo(np.float64).eps * np.abs(table).sum(axis=1)
            self.slack = np.where(np.count_nonzero(table, axis=1) <= 1, 0.0, bound)  # one weight: every sum exact
        return self.running, self.slack
