"""The numbers retries (attnmt.decoding.numbers_kept) of a whole input searched together, not one search a batch.

A search step costs about as much for 4 rows as for 120 (the C++ step reads every weight once a step), so a retry
searched in its own batch cost nearly a whole batch's search: on the OPUS-MT-shaped benchmark 3 sentences of 150
that dropped a number, in three batches, cost the int8 job 1.75 s of 9.8 s
(benchmarks/results/opus_shape_epyc_zen4_s73.txt).  So a batch whose sentences need a retry is held (``HeldBatch``:
all its first search left), and the retries of the batches held are searched together (``together``: their sources
and encoder outputs padded to one length, the padding masked as in any batch), once they fill one batch of the input
(``RetryPool.fits``: memory stays bounded) or the input ends; then each held batch is finished and yielded
(attnmt.decoding.translate.searched_batches).  A sentence's search does not depend on the others beside it (in
float32, and in int8 through the C++ step, which quantises each row alone: docs/translating.md), so the retries come
out as each batch's own.

    HeldBatch    a batch searched once, its retries still to search
    RetryPool    the batches held, at most HELD_BATCHES and one batch's worth of retries
    together     the retries of several held batches as one batch: indices, src, memory, prefixes, terms
    taken_apart  the pooled search's hypotheses back to each held batch, attention cut to its source length
    own_retries  one held batch's retries searched in a batch of their own (before pooling; where pooling fails)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, TypeVar

import torch
from torch import Tensor

from attnmt.decoding import Decoding
from attnmt.decoding.batch_search import forced_hypotheses
from attnmt.decoding.constraints import Terms
from attnmt.decoding.inputs import length_batches
from attnmt.decoding.numbers_kept import Retries
from attnmt.decoding.search import Hypothesis
from attnmt.errors import UserError
from attnmt.model import Transformer
from attnmt.text.data import pad_rows

# At most so many batches wait for their retries: what they hold (their encoder outputs, for the consumer's quality
# and word weights) is the memory pooling takes beyond one batch's, and the retries still cost at most one search in
# so many batches, where each batch with one cost one.  (OPUS-MT's shape, 64 sentences of 30 pieces: 4 MB a batch.)
HELD_BATCHES = 8

T = TypeVar("T")  # what the caller makes of a finished batch (translate.SearchedBatch)
# (input indices, src [R, S], its encoder output memory [R, S, d], prefixes, terms) -> each sentence's hypotheses,
# searched again
RetrySearch = Callable[[list[int], Tensor, Tensor, list[list[int]], list[Terms]], list[list[Hypothesis]]]


@dataclass
class HeldBatch:
    """One length-sorted batch after its first search: input indices, padded source ids src [B, S], the encoder's
    output memory [B, S, d], each sentence's prefix and terms (ids) and hypotheses, the sentences to search again
    with their numbers required (``retries``), and the first search's score of each of those (``first_scores``)."""

    indices: list[int]
    src: Tensor
    memory: Tensor
    prefixes: list[list[int]]
    terms: list[Terms]
    hypotheses: list[list[Hypothesis]]
    retries: Retries
    first_scores: list[float] = field(default_factory=list)

    def retry_lengths(self, pad_id: int) -> list[int]:
        """The source length (pieces, padding left out) of each sentence to search again."""
        return [int((self.src[row] != pad_id).sum()) for row in self.retries.rows]


class RetryPool(Generic[T]):
    """The batches held for their retries, at most HELD_BATCHES, whose retries together fit one batch of the input
    (``fits``), and what finishes them: ``search`` searches retries (input indices, src, memory, prefixes, terms),
    ``finish`` makes a held batch with its retries what the caller yields, ``alone_each`` searches a batch's
    sentences alone (a batch's indices, src, the error it raised: failed_sentences.each_alone)."""

    def __init__(self, search: RetrySearch, finish: Callable[[HeldBatch, list[list[Hypothesis]]], T],
                 alone_each: Callable[[list[int], Tensor, Exception], Iterator[T]], pad_id: int, max_tokens: int,
                 max_sentences: int) -> None:
        self.search, self.finish, self.alone_each = search, finish, alone_each
        self.pad_id, self.max_tokens, self.max_sentences = pad_id, max_tokens, max_sentences
        self.held: list[HeldBatch] = []
        self.lengths: list[int] = []

    def fits(self, batch: HeldBatch) -> bool:
        """Whether ``batch`` may be held beside those held: fewer than HELD_BATCHES are, and its retries and theirs
        make one batch as the input's are cut (inputs.length_batches: at most max_tokens padded source tokens, and
        max_sentences sentences unless 0)."""
        lengths = [*self.lengths, *batch.retry_lengths(self.pad_id)]
        return len(self.held) < HELD_BATCHES and len(length_batches(lengths, self.max_tokens, self.max_sentences)) <= 1

    def holding(self, batch: HeldBatch) -> Iterator[T]:
        """``batch`` held, after the batches held so far are ``finished`` where its retries would not fit beside
        theirs."""
        if not self.fits(batch):
            yield from self.finished()
        self.held.append(batch)
        self.lengths += batch.retry_lengths(self.pad_id)

    def finished(self) -> Iterator[T]:
        """The batches held, in order, their retries searched together (``together``), each finished; where the
        pooled search raises, each one's own (``own_retries``); a batch that fails so, its sentences alone.  A
        UserError goes on."""
        held, self.held, self.lengths = self.held, [], []
        pooled: list[list[list[Hypothesis]] | None] = [None] * len(held)
        if len(held) > 1:
            try:
                pooled = list(taken_apart(self.search(*together(held, self.pad_id)), held))
            except UserError:
                raise
            except Exception:  # noqa: BLE001, S110 - each batch's own retry, so that a sentence breaks only its own
                pass
        for batch, found in zip(held, pooled, strict=True):
            try:
                done = self.finish(batch, own_retries(self.search, batch) if found is None else found)
            except UserError:
                raise
            except Exception as error:  # noqa: BLE001 - one sentence must not cost the others their translations
                yield from self.alone_each(batch.indices, batch.src, error)
                continue
            yield done


def together(held: Sequence[HeldBatch], pad_id: int
             ) -> tuple[list[int], Tensor, Tensor, list[list[int]], list[Terms]]:
    """The retries of the ``held`` batches as one batch, in order: their input indices, src [R, S'] (each sentence's
    source ids, padded
    with ``pad_id`` to the longest), memory [R, S', d] (each one's encoder output, zeros where padded, which the
    search masks as it masks any padding), and each one's prefix and terms (its own, then its numbers)."""
    rows = [(batch, row) for batch in held for row in batch.retries.rows]
    lengths = [length for batch in held for length in batch.retry_lengths(pad_id)]
    src = pad_rows([batch.src[row, :length].tolist() for (batch, row), length in zip(rows, lengths, strict=True)],
                   pad_id).to(held[0].src.device)
    first = held[0].memory
    memory = first.new_zeros(len(rows), src.size(1), first.size(2))
    for k, ((batch, row), length) in enumerate(zip(rows, lengths, strict=True)):
        memory[k, :length] = batch.memory[row, :length]
    prefixes = [batch.prefixes[row] for batch, row in rows]
    terms = [terms for batch in held for terms in batch.retries.terms]
    return [batch.indices[row] for batch, row in rows], src, memory, prefixes, terms


def taken_apart(found: list[list[Hypothesis]], held: Sequence[HeldBatch]) -> list[list[list[Hypothesis]]]:
    """The hypotheses of the pooled search (``together``'s rows, in order) as each held batch's retries, a recorded
    hypothesis's attention [T, S'] cut (or padded with zeros, the weight a masked position gets) to its own batch's
    source length S, as ``Hypothesis.attention`` reads."""
    each, start = [], 0
    for batch in held:
        count, width = len(batch.retries.rows), batch.src.size(1)
        each.append([[fitted(h, width) for h in hypotheses] for hypotheses in found[start:start + count]])
        start += count
    return each


def fitted(hypothesis: Hypothesis, width: int) -> Hypothesis:
    """``hypothesis`` with its recorded attention over ``width`` source positions."""
    attention = hypothesis.attention
    if attention is None or attention.size(-1) == width:
        return hypothesis
    if attention.size(-1) > width:
        return replace(hypothesis, attention=attention[..., :width])
    padding = attention.new_zeros(*attention.shape[:-1], width - attention.size(-1))
    return replace(hypothesis, attention=torch.cat([attention, padding], dim=-1))


def own_retries(search: RetrySearch, held: HeldBatch) -> list[list[Hypothesis]]:
    """``held``'s retries searched in a batch of their own (``search``: input indices, src, memory, prefixes, terms),
    its rows of
    its src and memory, as each batch's were before they were pooled; none where it has none."""
    rows = held.retries.rows
    if not rows:
        return []
    index = torch.tensor(rows, device=held.src.device)
    return search([held.indices[row] for row in rows], held.src[index], held.memory[index],
                  [held.prefixes[row] for row in rows], held.retries.terms)


def first_scores(model: Transformer, src: Tensor, decoding: Decoding, hypotheses: list[list[Hypothesis]],
                 rows: list[int]) -> list[float]:
    """The score of the best hypothesis of each of a batch's ``rows``: the search's, or, where a greedy search added
    up none, one teacher-forced pass's (``forced_hypotheses``)."""
    if not (decoding.greedy and all(hypotheses[row][0].score == 0.0 for row in rows)):
        return [hypotheses[row][0].score for row in rows]
    index = torch.tensor(rows, device=src.device)
    with torch.inference_mode():
        forced = forced_hypotheses(model, src[index], [hypotheses[row][0].tokens for row in rows], decoding.alpha)
    return [found[0].score for found in forced]
