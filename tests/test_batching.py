"""Batching by a token budget: the cut, the shuffled resumable stream, rank shards, corpora drawn by weight."""

import random
from collections import Counter

import numpy as np
import pytest
import torch

from attnmt.errors import ConfigError
from attnmt.text.data import Example
from attnmt.training.batching import (
    TokenBatcher,
    WeightedBatcher,
    batch_cost,
    restore_position,
    token_budget_batches,
)
from attnmt.training.corpus import TokenCorpus


def varied_examples(n: int = 200) -> list[Example]:
    rng = random.Random(1)
    return [Example([5] * rng.randint(1, 30), [6] * rng.randint(1, 30)) for _ in range(n)]


def batcher_of(examples, **settings) -> TokenBatcher:
    """A batcher over an in-memory corpus of ``examples``."""
    return TokenBatcher(TokenCorpus.from_examples(examples), **settings)


def lists(batches):
    return [batch.tolist() for batch in batches]


def sizes(batch_indices, examples):
    return [(len(examples[i].src), len(examples[i].tgt)) for i in batch_indices]


def greedy_batches(src_lengths, tgt_lengths, max_tokens):
    """The rule, one pair at a time: sort by (target, source) length; start a new batch when the next pair
    would take the batch over the budget."""
    order = sorted(range(len(src_lengths)), key=lambda i: (tgt_lengths[i], src_lengths[i]))
    batches, current = [], []
    for i in order:
        grown = [*current, i]
        if current and batch_cost(len(grown), max(src_lengths[j] for j in grown),
                                  max(tgt_lengths[j] for j in grown)) > max_tokens:
            batches.append(current)
            grown = [i]
        current = grown
    return [*batches, current]


@pytest.mark.parametrize("seed, max_tokens", [(0, 100), (1, 37), (2, 4096), (3, 5)])
def test_the_numpy_cut_is_the_greedy_rule(seed, max_tokens):
    rng = np.random.default_rng(seed)
    src, tgt = rng.integers(1, 60, size=500), rng.integers(1, 60, size=500)
    assert lists(token_budget_batches(src, tgt, max_tokens)) == greedy_batches(src.tolist(), tgt.tolist(), max_tokens)


def test_batches_respect_the_token_budget():
    examples = varied_examples()
    batcher = batcher_of(examples, max_tokens=100)
    for indices in batcher.epoch_batches(0):
        src, tgt = zip(*sizes(indices, examples), strict=True)
        assert batch_cost(len(indices), max(src), max(tgt)) <= 100


def test_collated_batch_has_at_most_max_tokens_positions():
    batcher = batcher_of(varied_examples(), max_tokens=100)
    for _, batch in zip(range(batcher.batches_per_epoch()), batcher, strict=False):
        assert len(batch) * max(batch.src.size(1), batch.tgt_in.size(1)) <= 100


def test_example_longer_than_the_budget_gets_a_batch_of_its_own():
    examples = [Example([5] * 50, [6] * 50), Example([5], [6])]
    batches = batcher_of(examples, max_tokens=10, shuffle=False).epoch_batches(0)
    assert lists(batches) == [[1], [0]]


def test_every_example_appears_exactly_once_per_epoch():
    examples = varied_examples()
    batcher = batcher_of(examples, max_tokens=100)
    for epoch in (0, 1):
        seen = sorted(i for batch in batcher.epoch_batches(epoch) for i in batch)
        assert seen == list(range(len(examples)))


def test_same_seed_same_order_and_new_epoch_new_order():
    examples = varied_examples()
    first = batcher_of(examples, max_tokens=100, seed=3)
    second = batcher_of(examples, max_tokens=100, seed=3)
    assert lists(first.epoch_batches(0)) == lists(second.epoch_batches(0))
    assert lists(first.epoch_batches(0)) != lists(first.epoch_batches(1))
    assert sorted(lists(first.epoch_batches(0))) == sorted(lists(first.epoch_batches(1)))  # same batches


def test_without_shuffle_batches_are_sorted_by_target_then_source_length():
    examples = varied_examples()
    batcher = batcher_of(examples, max_tokens=100, shuffle=False)
    flat = [i for batch in batcher.epoch_batches(0) for i in batch]
    lengths = [(len(examples[i].tgt), len(examples[i].src)) for i in flat]
    assert lengths == sorted(lengths)
    assert lists(batcher.epoch_batches(0)) == lists(batcher.epoch_batches(1))


def test_iteration_runs_through_epochs_and_tracks_its_state():
    batcher = batcher_of(varied_examples(), max_tokens=100)
    per_epoch = batcher.batches_per_epoch()
    stream = iter(batcher)
    for _ in range(per_epoch + 2):
        next(stream)
    assert batcher.state_dict() == {"epoch": 1, "position": 2}


def test_resume_from_state_dict_gives_the_identical_continuation():
    examples = varied_examples()
    original = batcher_of(examples, max_tokens=100, seed=7)
    stream = iter(original)
    for _ in range(original.batches_per_epoch() + 3):
        next(stream)
    state = original.state_dict()
    resumed = batcher_of(examples, max_tokens=100, seed=7)
    resumed.load_state_dict(state)
    steps = range(2 * original.batches_per_epoch())
    for expected, actual in zip((next(stream) for _ in steps), resumed, strict=False):
        assert torch.equal(expected.src, actual.src)
        assert torch.equal(expected.tgt_out, actual.tgt_out)


def test_resume_after_an_epochs_last_batch_starts_the_next_epoch():
    examples = varied_examples()
    original = batcher_of(examples, max_tokens=100)
    stream = iter(original)
    for _ in range(original.batches_per_epoch()):
        next(stream)
    resumed = batcher_of(examples, max_tokens=100)
    resumed.load_state_dict(original.state_dict())
    assert torch.equal(next(iter(resumed)).tgt_out, next(stream).tgt_out)
    assert resumed.state_dict() == original.state_dict() == {"epoch": 1, "position": 1}


def test_load_state_dict_rejects_a_position_past_the_epoch():
    batcher = batcher_of(varied_examples(), max_tokens=100)
    with pytest.raises(ValueError, match="position"):
        batcher.load_state_dict({"epoch": 0, "position": batcher.batches_per_epoch() + 1})


def test_rank_shards_are_disjoint_equal_and_cover_the_truncated_epoch():
    examples = varied_examples()
    single = batcher_of(examples, max_tokens=100, seed=5)
    shards = [
        batcher_of(examples, max_tokens=100, seed=5, rank=r, world_size=4).epoch_batches(2)
        for r in range(4)
    ]
    total = len(single.epoch_batches(2))
    assert total == 57  # so 1 batch is dropped: 57 = 4 * 14 + 1
    assert [len(s) for s in shards] == [14] * 4
    all_batches = [tuple(b) for shard in shards for b in shard]
    assert len(set(all_batches)) == len(all_batches)
    kept = [tuple(b) for b in single.epoch_batches(2)[:56]]
    assert sorted(all_batches) == sorted(kept)


def test_fewer_batches_than_ranks_is_an_error():
    with pytest.raises(ConfigError, match="max_tokens=100 cuts its 1 training pair into 1 batch, fewer than the 2"):
        batcher_of([Example([5], [6])], max_tokens=100, world_size=2)


def test_every_rank_draws_the_same_corpora_and_its_own_batches():
    corpora = [TokenCorpus.from_examples(varied_examples(60)), TokenCorpus.from_examples(varied_examples(40))]
    ranks = [WeightedBatcher([TokenBatcher(c, max_tokens=100, seed=2, rank=r, world_size=2) for c in corpora],
                             [1, 1], seed=2) for r in range(2)]
    assert [ranks[0].corpus_of(n) for n in range(50)] == [ranks[1].corpus_of(n) for n in range(50)]
    first = [next(iter(rank)) for rank in ranks]
    assert not torch.equal(first[0].tgt_out, first[1].tgt_out)


def test_batches_come_from_each_corpus_in_proportion_to_its_weight():
    corpora = [TokenCorpus.from_examples([Example([5 + c], [6])] * 40) for c in range(2)]
    stream = iter(WeightedBatcher([TokenBatcher(c, max_tokens=4, seed=1) for c in corpora], [3, 1], seed=1))
    drawn = Counter(next(stream).src[0, 0].item() - 5 for _ in range(400))
    assert drawn[0] + drawn[1] == 400 and 270 <= drawn[0] <= 330  # 300 expected


def test_a_position_that_no_longer_fits_restarts_its_epoch_saying_so():
    batcher = batcher_of(varied_examples(), max_tokens=100)
    past = batcher.batches_per_epoch() + 1  # saved by a run of fewer processes: more batches each
    said = restore_position(batcher, {"epoch": 3, "position": past})
    assert batcher.state_dict() == {"epoch": 3, "position": 0}
    assert said == [f"the data position saved does not fit this run's batches (batcher state position {past} is "
                    f"outside 0..{past - 1}; was it saved with other data or max_tokens?): the epoch starts afresh"]
    assert restore_position(batcher, {"epoch": 3, "position": 2}) == []
