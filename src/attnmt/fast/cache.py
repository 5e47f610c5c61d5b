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
    """The inference copy's decoder cache, a ``KVCache`` (attnmt.decoding.cache) whose keys/values
    the C++ step (csrc/decoder_step.cpp) appends to.

    - reserve: ``room``, how many more positions the search expects to add.  Where the C++ step
      must copy a layer's keys/values (``append_position``), it copies them into a buffer with that
      room (the first position goes into one of its own size: beam search widens the rows and
      copies at the second step), and appends the next positions into it in place, as long as no
      other tensor shares the buffer (``room_after``: the Python side keeps one reference to each
      layer's keys/values).
    - reorder: kept as ``parents`` [N] for the C++ step, which copies no keys or values for it.
      Each layer's self_k, self_v [M, H, t, dk] are blocks of positions, and ``lineage`` [N, t]
      says which block holds each row's position (``history_of``): the new position of row r goes
      into block r, and a row continuing another takes over its lineage.  Where the buffer is
      copied (full, shared, more rows than blocks) the copy puts each row's positions in its own
      block again.
    - materialise: turns the blocks into plain per-row float32 keys/values [N, H, t, dk], for the
      Python step.
    - record: where a decoder layer's index, the C++ step writes that layer's cross-attention weights
      at each new position into ``recorded`` [N, H, S] (a search's word alignment, read as it goes).

    Beside int8 layers the C++ step keeps the keys/values in float16 (its ``cache_type``)."""

    room: int = 0
    parents: Tensor | None = None
    lineage: Tensor | None = None
    record: int | None = None
    recorded: Tensor | None = None

    def reserve(self, positions: int) -> None:
        self.room = positions

    def reorder(self, rows: Tensor, groups: Tensor | None = None) -> None:
        self.parents = rows if self.parents is None else self.parents[rows]
        if groups is not None:
            for layer in self.layers:
                layer.reorder(None, groups)

    def materialise(self) -> None:
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

    def step_arguments(self, src_mask: Tensor, rows: int) -> list:
        """The cache and the source mask [G, 1, 1, S] as the C++ step takes them for ``rows`` new
        positions: each layer's self-attention keys, values, cross-attention keys, values (four
        lists), the mask [G, S], the room, the rows' parents (a reorder the step applies), their
        lineage, and where ``record`` is set, the [rows, H, S] tensor that receives its layer's
        cross-attention weights (``recorded``) and that layer's index."""
        layers = self.layers
        self.recorded = None
        if self.record is not None:
            cross_k = layers[self.record].cross_k  # [G, H, S, dk]
            self.recorded = torch.empty(rows, cross_k.size(1), cross_k.size(2), dtype=torch.float32)
        return [[layer.self_k for layer in layers], [layer.self_v for layer in layers],
                [layer.cross_k for layer in layers], [layer.cross_v for layer in layers],
                src_mask.view(src_mask.size(0), src_mask.size(-1)), self.room, self.parents, self.lineage,
                self.recorded, -1 if self.record is None else self.record % len(layers)]

    def recorded_weights(self) -> Tensor:
        """The cross-attention weights [N, H, S] that the last step wrote for layer ``record``: ``step_arguments``
        allocates them at every step where ``record`` is set.  A RuntimeError where the step recorded none: by then
        the cache holds the step's new position, and no caller may take the step as not taken."""
        if self.recorded is None:
            raise RuntimeError("the C++ step recorded no cross-attention weights: set GrowingCache.record before it")
        return self.recorded

    def take_step(self, out: list[Tensor]) -> None:
        """The C++ step's output [x, k_0, v_0, k_1, v_1, ..., lineage]: each layer's keys/values with
        the new position appended, and the rows' lineage in them (the reorder it applied)."""
        for i, layer in enumerate(self.layers):
            layer.self_k, layer.self_v = out[1 + 2 * i], out[2 + 2 * i]
        self.parents, self.lineage = None, out[-1]


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
