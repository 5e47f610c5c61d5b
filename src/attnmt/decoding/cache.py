"""The decoder's key/value cache, as the searches hold it: ``KVCache``.

A search decodes one new position per row per step.  The decoder's keys and values of every
earlier position are kept, so that each step feeds only the newest token::

    model.start_decoding(memory) ─ cache ─┐   (the model makes it: the encoder's keys/values per layer)
                                          ▼
    search: model.decode(newest, …, cache) ─ appends each layer's new keys/values (append)
            cache.reorder(parents, groups)  ─ beam search's survivors, sentences that go on
            cache.reserve(positions)        ─ how many more positions to expect (a hint)

The search calls only what this interface names and never which cache it holds.  Two classes
implement it:

- attnmt.model.DecoderCache, the readable one: per layer (attnmt.layers.LayerCache) each row's
  keys/values [N, H, t, dk], grown by concatenation; a reorder copies the rows.
- attnmt.fast.cache.GrowingCache, the inference copy's: the C++ step appends each position into
  a buffer with room for the reserved ones, and a reorder moves no keys/values (it keeps the
  rows' parents and lineage); ``materialise`` makes it a readable one's per-row tensors.

Written as a ``typing.Protocol``, not a base class: the readable cache belongs to the paper's
model (attnmt.model), which imports nothing from decoding; it satisfies this interface by its
shape, and tests/test_cache.py checks both implementations against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from torch import Tensor

from attnmt.layers import LayerCache


@runtime_checkable
class KVCache(Protocol):
    """Keys and values of the positions decoded so far, for N rows in G sentence groups.

    The rows are G groups of N/G consecutive rows, one group per sentence (beam search: a
    sentence's hypotheses); the encoder's keys/values are kept once per sentence.

    length: positions each row holds.  The model's decode step advances it as it appends.
    layers: per decoder layer, a LayerCache: the sentences' encoder keys/values ``cross_k``,
        ``cross_v`` [G, H, S, dk], and the rows' own ``self_k``, ``self_v`` [N, H, length, dk],
        to which ``LayerCache.append`` adds new positions.  They hold each row's positions in
        row order only after ``materialise``: read them, or append to them from Python, after it.
    """

    length: int
    layers: Sequence[LayerCache]

    def reserve(self, positions: int) -> None:
        """A hint: up to ``positions`` more positions may be appended (whatever reorders come
        between).  A cache may make room for them at once; outputs never depend on it."""

    def reorder(self, rows: Tensor, groups: Tensor | None = None) -> None:
        """From now on row r is old row ``rows[r]`` (rows [N']: repeats and reorders allowed, a
        beam's parents), and only sentence groups ``groups`` stay (None: all); rows stay grouped
        by sentence."""

    def materialise(self) -> None:
        """Applies whatever is pending (reorders, a lineage of blocks), so that each layer's
        ``self_k``, ``self_v`` are every row's own positions in order [N, H, length, dk], as the
        model's Python step reads them."""
