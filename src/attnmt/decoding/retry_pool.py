"""The sentences of a whole input searched a second time, searched together, not one search a batch: plain first's
glossary misses (attnmt.decoding.plain_first: searched with their terms) and the numbers retries
(attnmt.decoding.numbers_kept).

A search step costs about as much for 4 rows as for 120 (the C++ step reads every weight once a step), so a retry
searched in its own batch cost nearly a whole batch's search: on the OPUS-MT-shaped benchmark 3 sentences of 150
that dropped a number, in three batches, cost the int8 job 1.75 s of 9.8 s
(benchmarks/results/opus_shape_epyc_zen4_s73.txt).  So a batch with sentences to search again is held (``Held``: all
its first search left), and those of the batches held are searched together (``together``: their sources and encoder
outputs padded to one length, the padding masked as in any batch), once they fill one batch of the input
(``RetryPool.fits``: memory stays bounded) or the input ends; then each held batch is finished and passed on.
attnmt.decoding.translate.searched_batches holds a batch in two pools in turn: one for the sentences whose plain
translation misses a term (a PlainBatch, searched with their terms: ``numbers_held``), then one for those that drop
a number (a ``HeldBatch``).  A sentence's search does not depend on the others beside it (in float32, and in int8
through the C++ step, which quantises each row alone: docs/translating.md), so each comes out as its batch's own.

    Held          what a pool holds: a batch searched once, some of its sentences still to search again
    HeldBatch     a batch searched with its terms, its numbers retries still to search
    numbers_held  a batch searched plain with its misses searched with their terms: a HeldBatch
    RetryPool     the batches held, at most HELD_BATCHES and one batch's worth of sentences to search again
    together      the sentences of several held batches to search again as one batch: indices, src, memory, ...
    taken_apart   the pooled search's hypotheses back to each held batch, attention cut to its source length
    own_retries   one held batch's sentences searched again in a batch of their own (where it may not wait; where
                  pooling fails)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, Protocol, TypeVar

import torch
from torch import Tensor

from attnmt.decoding import Decoding
from attnmt.decoding.batch_search import forced_hypotheses
from attnmt.decoding.constraints import Terms
from attnmt.decoding.inputs import TextCodec, length_batches
from attnmt.decoding.numbers_kept import Retries, retries
from attnmt.decoding.plain_first import PlainBatch
from attnmt.decoding.search import Hypothesis
from attnmt.errors import UserError
from attnmt.model import Transformer
from attnmt.text.data import pad_rows

# At most so many batches wait in a pool (searched_batches fills two in turn: twice so many in all): what they hold
# (their encoder outputs, for the consumer's quality and word weights) is the memory pooling takes beyond one batch's,
# and their searches again still cost at most one search in so many batches, where each batch with one cost one.
# (OPUS-MT's shape, 64 sentences of 30 pieces: 4 MB a batch.)
HELD_BATCHES = 8

# (input indices, src [R, S], its encoder output memory [R, S, d], prefixes, terms) -> each sentence's hypotheses,
# searched again
RetrySearch = Callable[[list[int], Tensor, Tensor, list[list[int]], list[Terms]], list[list[Hypothesis]]]


class Held(Protocol):
    """What a pool holds: one length-sorted batch searched once, its input indices, padded source ids src [B, S], the
    encoder's output memory [B, S, d], each sentence's prefix, and the sentences to search again (``rows``), each
    with the terms it is searched with (``again``)."""

    @property
    def indices(self) -> list[int]: ...
    @property
    def src(self) -> Tensor: ...
    @property
    def memory(self) -> Tensor: ...
    @property
    def prefixes(self) -> list[list[int]]: ...
    @property
    def rows(self) -> list[int]: ...
    @property
    def again(self) -> list[Terms]: ...


H = TypeVar("H", bound=Held)  # what a pool holds: plain_first.PlainBatch, HeldBatch
T = TypeVar("T")  # what the caller makes of a finished batch (a HeldBatch, translate.SearchedBatch)


@dataclass
class HeldBatch:
    """One length-sorted batch after its first search, with its terms: input indices, padded source ids src [B, S],
    the encoder's output memory [B, S, d], each sentence's prefix and terms (ids) and hypotheses, the sentences to
    search again with their numbers required (``retries``), the first search's score of each of those
    (``first_scores``), and whether each sentence kept the hypotheses it was searched for without its terms
    (``plain``: plain_first)."""

    indices: list[int]
    src: Tensor
    memory: Tensor
    prefixes: list[list[int]]
    terms: list[Terms]
    hypotheses: list[list[Hypothesis]]
    retries: Retries
    first_scores: list[float] = field(default_factory=list)
    plain: list[bool] = field(default_factory=list)

    def dictates_terms(self, row: int, retried: bool) -> bool:
        """Whether sentence ``row``'s translations were made to write its terms: not where it kept its plain
        hypotheses, whose terms the model wrote, and no retry (searched with them) was taken (``retried``)."""
        return retried or not (self.plain and self.plain[row])

    @property
    def rows(self) -> list[int]:
        """The sentences to search again: those that dropped a number."""
        return self.retries.rows

    @property
    def again(self) -> list[Terms]:
        """The terms each of ``rows`` is searched again with: its own, then its numbers."""
        return self.retries.terms


def numbers_held(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding,
                 plain: PlainBatch, found: list[list[Hypothesis]]) -> HeldBatch:
    """The batch searched without terms (``plain``), its sentences that missed them with them (``found``), and the
    sentences (of ``sentences``, by input index) whose translation drops a number to search again with it required
    (attnmt.decoding.numbers_kept), with their first scores; none with sampling, which takes no terms."""
    hypotheses = plain.with_terms(found)
    wanted = Retries([], [], []) if decoding.sampling else retries(
        tokenizer, [sentences[i] for i in plain.indices], hypotheses, plain.terms, model.target_lang)
    scores = first_scores(model, plain.src, decoding, hypotheses, wanted.rows) if wanted.rows else []
    kept = [bool(terms) and k not in plain.rows for k, terms in enumerate(plain.terms)]
    return HeldBatch(plain.indices, plain.src, plain.memory, plain.prefixes, plain.terms, hypotheses, wanted, scores,
                     kept)


class RetryPool(Generic[H, T]):
    """The batches held for their sentences to search again, at most HELD_BATCHES, whose such sentences together fit
    one batch of the input (``fits``), and what finishes them: ``search`` searches them (input indices, src, memory,
    prefixes, terms), ``finish`` makes a held batch with their hypotheses what the caller takes, ``alone_each``
    searches a batch's sentences alone (a batch's indices, src, the error it raised: failed_sentences.each_alone).
    ``pooled``: whether a batch may wait (not for a model whose searches read each batch's own shortlist)."""

    def __init__(self, search: RetrySearch, finish: Callable[[H, list[list[Hypothesis]]], T],
                 alone_each: Callable[[list[int], Tensor, Exception], Iterator[T]], pad_id: int, max_tokens: int,
                 max_sentences: int, pooled: bool = True) -> None:
        self.search, self.finish, self.alone_each = search, finish, alone_each
        self.pad_id, self.max_tokens, self.max_sentences, self.pooled = pad_id, max_tokens, max_sentences, pooled
        self.held: list[H] = []
        self.lengths: list[int] = []

    def fits(self, batch: H) -> bool:
        """Whether ``batch`` may be held beside those held: fewer than HELD_BATCHES are, and its sentences to search
        again and theirs make one batch as the input's are cut (inputs.length_batches: at most max_tokens padded
        source tokens, and max_sentences sentences unless 0)."""
        lengths = [*self.lengths, *again_lengths(batch, self.pad_id)]
        return len(self.held) < HELD_BATCHES and len(length_batches(lengths, self.max_tokens, self.max_sentences)) <= 1

    def taking(self, batch: H) -> Iterator[T]:
        """``batch`` held where it has sentences to search again and may wait (``holding``), else finished at once,
        with its own search again."""
        if batch.rows and self.pooled:
            yield from self.holding(batch)
        else:
            yield from self.each_finished([batch], [None])

    def holding(self, batch: H) -> Iterator[T]:
        """``batch`` held, after the batches held so far are ``finished`` where its sentences to search again would
        not fit beside theirs."""
        if not self.fits(batch):
            yield from self.finished()
        self.held.append(batch)
        self.lengths += again_lengths(batch, self.pad_id)

    def finished(self) -> Iterator[T]:
        """The batches held, in order, their sentences to search again searched together (``together``), each
        finished (``each_finished``); where the pooled search raises, each one's own.  A UserError goes on."""
        held, self.held, self.lengths = self.held, [], []
        pooled: list[list[list[Hypothesis]] | None] = [None] * len(held)
        if len(held) > 1:
            try:
                pooled = list(taken_apart(self.search(*together(held, self.pad_id)), held))
            except UserError:
                raise
            except Exception:  # noqa: BLE001, S110 - each batch's own search, so that a sentence breaks only its own
                pass
        yield from self.each_finished(held, pooled)

    def each_finished(self, held: Sequence[H], found: Sequence[list[list[Hypothesis]] | None]) -> Iterator[T]:
        """Each ``held`` batch finished with its hypotheses searched again (``found``; None: its own search,
        ``own_retries``); a batch that fails so, its sentences alone.  A UserError goes on."""
        for batch, hypotheses in zip(held, found, strict=True):
            try:
                done = self.finish(batch, own_retries(self.search, batch) if hypotheses is None else hypotheses)
            except UserError:
                raise
            except Exception as error:  # noqa: BLE001 - one sentence must not cost the others their translations
                yield from self.alone_each(batch.indices, batch.src, error)
                continue
            yield done


def again_lengths(batch: Held, pad_id: int) -> list[int]:
    """The source length (pieces, padding left out) of each of ``batch``'s sentences to search again."""
    return [int((batch.src[row] != pad_id).sum()) for row in batch.rows]


def together(held: Sequence[Held], pad_id: int) -> tuple[list[int], Tensor, Tensor, list[list[int]], list[Terms]]:
    """The sentences to search again of the ``held`` batches as one batch, in order: their input indices, src
    [R, S'] (each sentence's source ids, padded with ``pad_id`` to the longest), memory [R, S', d] (each one's encoder
    output, zeros where padded, which the search masks as it masks any padding), and each one's prefix and the terms
    it is searched again with."""
    rows = [(batch, row) for batch in held for row in batch.rows]
    lengths = [length for batch in held for length in again_lengths(batch, pad_id)]
    src = pad_rows([batch.src[row, :length].tolist() for (batch, row), length in zip(rows, lengths, strict=True)],
                   pad_id).to(held[0].src.device)
    first = held[0].memory
    memory = first.new_zeros(len(rows), src.size(1), first.size(2))
    for k, ((batch, row), length) in enumerate(zip(rows, lengths, strict=True)):
        memory[k, :length] = batch.memory[row, :length]
    prefixes = [batch.prefixes[row] for batch, row in rows]
    terms = [terms for batch in held for terms in batch.again]
    return [batch.indices[row] for batch, row in rows], src, memory, prefixes, terms


def taken_apart(found: list[list[Hypothesis]], held: Sequence[Held]) -> list[list[list[Hypothesis]]]:
    """The hypotheses of the pooled search (``together``'s rows, in order) as each held batch's, a recorded
    hypothesis's attention [T, S'] cut (or padded with zeros, the weight a masked position gets) to its own batch's
    source length S, as ``Hypothesis.attention`` reads."""
    each, start = [], 0
    for batch in held:
        count, width = len(batch.rows), batch.src.size(1)
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


def own_retries(search: RetrySearch, held: Held) -> list[list[Hypothesis]]:
    """``held``'s sentences to search again searched in a batch of their own (``search``: input indices, src, memory,
    prefixes, terms), its rows of its src and memory, as each batch's were before they were pooled; none where it has
    none."""
    rows = held.rows
    if not rows:
        return []
    index = torch.tensor(rows, device=held.src.device)
    return search([held.indices[row] for row in rows], held.src[index], held.memory[index],
                  [held.prefixes[row] for row in rows], held.again)


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
