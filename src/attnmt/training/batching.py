"""Batches by a token budget, cut from the lengths alone, fetched from the corpus when trained on.

    token_budget_batches   lengths -> batches of pair indices, each of at most `max_tokens` padded positions
    TokenBatcher           one corpus -> an endless, shuffled, resumable stream of Batches (a rank's share)
    WeightedBatcher        several corpora -> batches drawn from each by its weight

Batching by tokens rather than sentences, from length-sorted pairs, keeps padding low
and the cost of every step about the same (the paper's batches held ~25000 source and
~25000 target tokens).  Only the lengths are needed to cut the batches (numpy, a few
bytes a pair), so a corpus of millions of pairs never becomes millions of Python objects.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterator, Sequence

import numpy as np

from attnmt.errors import ConfigError
from attnmt.text.data import Batch, collate
from attnmt.text.tokenizer import BOS_ID, EOS_ID, PAD_ID
from attnmt.train_config import TrainConfig
from attnmt.training.corpus import TokenCorpus


def batch_cost(n_sentences: int, max_src_len: int, max_tgt_len: int) -> int:
    """Padded positions a batch occupies: sentences x the longer of source and target + 1."""
    return n_sentences * max(max_src_len, max_tgt_len + 1)


def token_budget_batches(src_lengths: np.ndarray, tgt_lengths: np.ndarray, max_tokens: int) -> list[np.ndarray]:
    """Pair indices sorted by (target length, source length), cut into consecutive batches of
    batch_cost <= max_tokens; a pair that alone exceeds the budget gets a batch of its own.

    Growing a batch never lowers its cost, so each batch's size is a binary search over the
    costs of its possible sizes rather than a Python step per pair.
    """
    order = np.lexsort((src_lengths, tgt_lengths))  # stable: equal lengths keep corpus order
    order = order.astype(np.int32) if len(order) < 2**31 else order
    # A sentence's own cost per batch slot: the longer of its source and its target + 1.
    widths = np.maximum(src_lengths[order].astype(np.int64), tgt_lengths[order].astype(np.int64) + 1)
    batches, start = [], 0
    while start < len(order):
        # Targets are sorted, so a batch of n holds at least n * widths[start] positions.
        end = min(len(order), start + max(1, max_tokens // int(widths[start])))
        costs = np.arange(1, end - start + 1) * np.maximum.accumulate(widths[start:end])
        size = max(1, int(np.searchsorted(costs, max_tokens, side="right")))
        batches.append(order[start : start + size])
        start += size
    return batches


class TokenBatcher:
    """Batches by a token budget from length-sorted pairs; reproducible shuffled order; resumable.

    The batches are cut once; each epoch only their order changes, shuffled with
    `random.Random(seed + epoch)`. With `world_size` > 1 every rank cuts and shuffles
    the same list, which is truncated to a multiple of `world_size`, and rank r takes
    batches r, r + world_size, ...; so all ranks take the same number of steps, and a
    rank reads only its own batches' pairs from the corpus.
    """

    def __init__(
        self,
        corpus: TokenCorpus,
        max_tokens: int = TrainConfig.max_tokens,
        seed: int = 0,
        shuffle: bool = True,
        rank: int = 0,
        world_size: int = 1,
        special_ids: tuple[int, int, int] = (PAD_ID, BOS_ID, EOS_ID),  # pad, bos, eos: as collate takes them
    ) -> None:
        if not len(corpus):
            raise ValueError("TokenBatcher needs at least one example")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be positive, got {max_tokens}")
        if not 0 <= rank < world_size:
            raise ValueError(f"rank must be in 0..world_size-1, got rank={rank}, "
                             f"world_size={world_size}")
        self.corpus = corpus
        self.seed = seed
        self.shuffle = shuffle
        self.rank = rank
        self.world_size = world_size
        self.special_ids = special_ids
        self.batches = token_budget_batches(corpus.src.lengths, corpus.tgt.lengths, max_tokens)
        if len(self.batches) < world_size:  # a user's setting (torchrun's processes): one line, not a traceback
            pairs = f"{len(corpus)} training pair{'s' if len(corpus) > 1 else ''}"
            count = f"{len(self.batches)} batch{'es' if len(self.batches) > 1 else ''}"
            raise ConfigError(f"max_tokens={max_tokens} cuts its {pairs} into {count}, fewer than "
                              f"the {world_size} processes training (each takes batches of its own): lower "
                              "max_tokens, or start fewer processes")
        self.epoch = 0
        self.position = 0  # index of the next batch within self.epoch

    def batches_per_epoch(self) -> int:
        """Batches this rank takes per epoch."""
        return len(self.batches) // self.world_size

    def epoch_batches(self, epoch: int) -> list[np.ndarray]:
        """Pair indices of this rank's batches in `epoch`, in order; deterministic in (seed, epoch)."""
        order = list(range(len(self.batches)))
        if self.shuffle:
            random.Random(self.seed + epoch).shuffle(order)
        order = order[: self.batches_per_epoch() * self.world_size]
        return [self.batches[b] for b in order[self.rank :: self.world_size]]

    def __iter__(self) -> Iterator[Batch]:
        """Endless Batches from (self.epoch, self.position) on.

        The state advances before each yield, so `state_dict()` taken after consuming
        a batch points at the next one. After an epoch's last batch position equals
        batches_per_epoch(); the epoch rolls over when the next batch is requested.
        """
        while True:
            batches = self.epoch_batches(self.epoch)
            while self.position < len(batches):
                indices = batches[self.position]
                self.position += 1
                yield collate(self.corpus.examples(indices), *self.special_ids)
            self.epoch += 1
            self.position = 0

    def state_dict(self) -> dict[str, int]:
        """Where iteration stands: {"epoch": ..., "position": ...}."""
        return {"epoch": self.epoch, "position": self.position}

    def load_state_dict(self, state: dict[str, int]) -> None:
        """Continue from a `state_dict()`; call before iterating."""
        for key in ("epoch", "position"):
            if not isinstance(state.get(key), int):
                raise ValueError(f"batcher state needs an integer {key!r}, got {state!r}")
        if not 0 <= state["position"] <= self.batches_per_epoch():
            raise ValueError(
                f"batcher state position {state['position']} is outside 0.."
                f"{self.batches_per_epoch()}; was it saved with other data or max_tokens?"
            )
        self.epoch, self.position = state["epoch"], state["position"]


class WeightedBatcher:
    """Batches from several corpora, each drawn with probability weight / sum of weights.

    Draw n picks its corpus from `random.Random(f"{seed}/{n}")`, so the sequence depends only
    on the seed and a resumed run picks exactly as the uninterrupted one; every rank picks
    the same corpus at the same draw and takes its own share of that corpus's batches.
    Each corpus keeps its own epochs (a small corpus with a large weight is seen more often).
    """

    def __init__(self, batchers: Sequence[TokenBatcher], weights: Sequence[float], seed: int) -> None:
        if len(batchers) != len(weights) or not batchers:
            raise ValueError(f"need one weight per corpus, got {len(weights)} for {len(batchers)}")
        self.batchers = list(batchers)
        self.cumulative = np.cumsum(weights).tolist()
        self.seed = seed
        self.draws = 0

    def batches_per_epoch(self) -> int:
        """This rank's batches in one pass over every corpus."""
        return sum(batcher.batches_per_epoch() for batcher in self.batchers)

    def corpus_of(self, draw: int) -> int:
        """Which corpus draw number ``draw`` takes its batch from."""
        point = random.Random(f"{self.seed}/{draw}").random() * self.cumulative[-1]
        return min(bisect.bisect_right(self.cumulative, point), len(self.batchers) - 1)

    def __iter__(self) -> Iterator[Batch]:
        streams = [iter(batcher) for batcher in self.batchers]
        while True:
            corpus = self.corpus_of(self.draws)
            self.draws += 1
            yield next(streams[corpus])

    def state_dict(self) -> dict:
        """{"draws": ..., "corpora": [each corpus's TokenBatcher state]}."""
        return {"draws": self.draws, "corpora": [batcher.state_dict() for batcher in self.batchers]}

    def load_state_dict(self, state: dict) -> None:
        """Continue from a `state_dict()`; call before iterating."""
        corpora = state.get("corpora")
        if not isinstance(state.get("draws"), int) or not isinstance(corpora, list):
            raise ValueError(f"weighted batcher state needs 'draws' and 'corpora', got {state!r}")
        if len(corpora) != len(self.batchers):
            raise ValueError(f"the state is of {len(corpora)} corpora, this run has {len(self.batchers)}; "
                             "was it saved with other training corpora?")
        for batcher, corpus_state in zip(self.batchers, corpora, strict=True):
            batcher.load_state_dict(corpus_state)
        self.draws = state["draws"]


def restore_position(batcher: TokenBatcher | WeightedBatcher, state: dict) -> list[str]:
    """Continues ``batcher`` from a checkpoint's data ``state``; where the position no longer fits its
    batches (more processes than the run had: fewer batches each), the epoch starts afresh, and the
    returned line says so.  (Other data or max_tokens are refused before: attnmt.training.run_dir.)"""
    try:
        batcher.load_state_dict(state)
        return []
    except ValueError as error:
        batcher.load_state_dict(epoch_start(state))
        return [f"the data position saved does not fit this run's batches ({error}): the epoch starts afresh"]


def epoch_start(state: dict) -> dict:
    """A batcher's state moved back to the start of its epoch (each corpus's, for a WeightedBatcher)."""
    if "corpora" in state:
        return {**state, "corpora": [epoch_start(corpus) for corpus in state["corpora"]]}
    return {**state, "position": 0}


def fixed_batches(corpus: TokenCorpus, max_tokens: int, special_ids: tuple[int, int, int]) -> list[Batch]:
    """All of a (validation) corpus's batches, length-sorted, unshuffled."""
    batcher = TokenBatcher(corpus, max_tokens, shuffle=False, special_ids=special_ids)
    return [collate(corpus.examples(indices), *special_ids) for indices in batcher.epoch_batches(0)]
