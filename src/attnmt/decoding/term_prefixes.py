"""Target prefixes, the tokens an output must start with, as the searches force them (``prefix_table``), and
the glossary terms a prefix holds or ends part-way through (``holds``, ``prefix_tails``, ``carried_tails``), which
attnmt.decoding.constraints meets from the start or carries on right after it."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

Terms = Sequence[Sequence[int]]  # one sentence's terms, each a list of target token ids


def holds(output: Sequence[int], term: Sequence[int]) -> bool:
    """Whether the token ids ``term`` occur in ``output``, one after the other."""
    return any(list(output[i: i + len(term)]) == list(term) for i in range(len(output) - len(term) + 1))


def prefix_tails(prefix: Sequence[int], terms: Terms, space: int = -1) -> list[tuple[int, int]]:
    """The terms a prefix ends part-way through, as (term, k): the prefix's last k tokens are the
    term's first k pieces (0 < k < its length; not right after the lone "▁" piece ``space``, after
    which no term starts).  A term the prefix holds whole is left out: it is met already."""
    tails = []
    for c, term in enumerate(terms):
        if holds(prefix, term):
            continue
        for k in range(1, min(len(term), len(prefix) + 1)):
            start = len(prefix) - k  # where the term would begin
            if list(prefix[start:]) == list(term[:k]) and (start == 0 or prefix[start - 1] != space):
                tails.append((c, k))
    return tails


def prefix_table(prefixes: Sequence[Sequence[int]] | None, batch: int, device: torch.device) -> Tensor:
    """A target prefix per sentence (the tokens the output must start with, forced one a step by
    the searches) as a table [B, P + 1]: each sentence's prefix tokens, then -1 (P: the longest
    prefix; no prefixes: [B, 1])."""
    table = torch.full((batch, 1 + max(map(len, prefixes or []), default=0)), -1, dtype=torch.long)
    for i, prefix in enumerate(prefixes or []):
        table[i, : len(prefix)] = torch.tensor(prefix, dtype=torch.long)
    return table.to(device)


def carried_tails(tails: Tensor, tail_depths: Tensor, terms: Tensor, groups: Tensor, tokens: Tensor,
                  left: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """For candidates of sentences ``groups`` [M] writing ``tokens`` [M], ``left`` [M] prefix tokens
    before them: the terms their prefix ends part-way through (``tails`` [G, T], ``tail_depths`` [G, T] of their
    pieces, of the sentences' ``terms`` [G, C, L]: attnmt.decoding.constraints) that the token carries on,
    as readings [M, K] (K: the most of any candidate), each with the depth it reaches, and which
    readings there are.  Only the model's own candidates carry a term on (the next piece is not
    offered as the first pieces are, Constraints.wanted): the plain reading can still write the term whole
    later, and offered, "stein" after ``--prefix "Ein"`` made "Einstein Mann liest …"."""
    if tails.size(1) == 0:  # no prefix ends part-way through a term (no prefix at all, mostly): no dozen ops a step
        none = tokens.new_empty(len(tokens), 0)
        return none, none, none.bool()
    tails = tails.index_select(0, groups).masked_fill((left > 0)[:, None], -1)  # [M, T]
    depths = tail_depths.index_select(0, groups).clamp(min=0)
    following = terms[groups[:, None], tails.clamp(min=0), depths]  # each term's next piece
    carries = (tails >= 0) & (tokens[:, None] == following)
    first = carries.long().argsort(dim=1, descending=True, stable=True)
    first = first[:, : int(carries.sum(dim=1).max()) if len(groups) else 0]
    return tails.gather(1, first), depths.gather(1, first) + 1, carries.gather(1, first)
