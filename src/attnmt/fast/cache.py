"""The inference copy's decoder caches: the C++ step's growing keys/values, and the Python
step's float16-rounded ones beside int8 layers."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.layers import LayerCache
from attnmt.model import DecoderCache


@dataclass
class GrowingCache(DecoderCache):
    """The inference copy's decoder cache: ``room`` is how many more positions the search expects
    to add (a search reserves them); the C++ step then appends each position into a buffer with that
    room instead of copying every layer's keys/values.

    A reorder of the rows (beam search's, every step) is kept as ``parents`` [N] for the C++ step,
    which copies no keys or values for it: each layer's self_k, self_v [M, H, t, dk] are blocks of
    positions, and ``lineage`` [N, t] says which block holds each row's position (the new position
    of row r goes into block r; a row continuing another takes over its lineage).  Where the buffer
    must be copied (full, held elsewhere, more rows than blocks) the copy puts each row's positions
    in its own block again.  Beside int8 layers the keys/values are float16 (the C++ step's
    ``cache_type``).  ``settle`` turns the cache into plain per-row float32 keys/values [N, H, t, dk]
    at once, for the Python step."""

    room: int = 0
    parents: Tensor | None = None
    lineage: Tensor | None = None

    def reserve(self, positions: int) -> None:
        self.room = positions

    def reorder(self, rows: Tensor, groups: Tensor | None = None) -> None:
        self.parents = rows if self.parents is None else self.parents[rows]
        if groups is not None:
            for layer in self.layers:
                layer.reorder(None, groups)

    def settle(self) -> None:
        """Applies the lineage and a pending reorder of the rows' keys/values."""
        if self.lineage is not None:
            lineage, positions = self.lineage, torch.arange(self.lineage.size(1))
            for layer in self.layers:  # [M, H, t, dk] -> row r's position j from block lineage[r, j]
                layer.self_k, layer.self_v = (kv.transpose(1, 2)[lineage, positions].transpose(1, 2).float()
                                              .contiguous() for kv in (layer.self_k, layer.self_v))
            self.lineage = None
        if self.parents is not None:
            for layer in self.layers:
                layer.reorder(self.parents)
            self.parents = None


class Float16LayerCache(LayerCache):
    """A decoder layer's cache beside int8 layers: its own keys/values rounded to float16 as they are
    added (kept in float32 here), so that the Python step reads the values the C++ step's float16
    cache holds (``cache_type``)."""

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        return super().append(*(to_float16(t) for t in (k, v)))


def to_float16(t: Tensor) -> Tensor:
    """t rounded to float16 and back (values beyond its range taking its largest), as the C++ step
    stores a float16 cache."""
    largest = torch.finfo(torch.float16).max
    return t.clamp(-largest, largest).half().float()
