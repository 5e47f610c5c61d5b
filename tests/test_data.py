import gzip
import random

import pytest
import torch

from attnmt.batching import TokenBatcher, batch_cost
from attnmt.corpus import TokenCorpus
from attnmt.data import (
    Batch,
    DataError,
    Example,
    ReadReport,
    collate,
    encode_pairs,
    read_lines,
    read_parallel,
    read_tsv,
)


def write(path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


class WordTokenizer:
    """Stands in for Tokenizer: one id (7) per whitespace-separated word."""

    def encode_batch(self, texts):
        return [[7] * len(text.split()) for text in texts]


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


# reading


def test_read_parallel_pairs_lines_and_strips_them(tmp_path):
    src = write(tmp_path / "a.en", "Hello world\n  Two dogs \r\n")
    tgt = write(tmp_path / "a.de", "Hallo Welt\nZwei Hunde\n")
    pairs, report = read_parallel(src, tgt)
    assert pairs == [("Hello world", "Hallo Welt"), ("Two dogs", "Zwei Hunde")]
    assert report == ReadReport(pairs=2, skipped_empty=0)


def test_read_lines_reads_gzip_by_suffix(tmp_path):
    path = tmp_path / "a.de.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("Grüße\nSchöne Straße\n")
    assert read_lines(path) == ["Grüße", "Schöne Straße"]


def test_read_lines_keeps_inner_whitespace_and_last_line_without_newline(tmp_path):
    path = write(tmp_path / "a.txt", " a \t b \r\nlast")
    assert read_lines(path) == [" a \t b ", "last"]


def test_read_lines_drops_a_utf8_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfHallo\n")
    assert read_lines(path) == ["Hallo"]


def test_line_count_mismatch_names_both_files_and_counts(tmp_path):
    src = write(tmp_path / "three.en", "a\nb\nc\n")
    tgt = write(tmp_path / "two.de", "a\nb\n")
    with pytest.raises(DataError, match=r"three\.en has 3 lines, .*two\.de has 2"):
        read_parallel(src, tgt)


def test_invalid_utf8_names_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(DataError, match=r"bad\.txt:2: invalid UTF-8"):
        read_lines(path)


def test_corrupt_gzip_names_the_file(tmp_path):
    path = tmp_path / "broken.gz"
    path.write_bytes(b"not gzip at all")
    with pytest.raises(DataError, match=r"broken\.gz"):
        read_lines(path)


def test_pairs_with_an_empty_or_blank_side_are_skipped_and_counted(tmp_path):
    src = write(tmp_path / "a.en", "one\n\n   \nfour\nfive\n")
    tgt = write(tmp_path / "a.de", "eins\nzwei\ndrei\n \t \nfünf\n")
    pairs, report = read_parallel(src, tgt)
    assert pairs == [("one", "eins"), ("five", "fünf")]
    assert (report.pairs, report.skipped_empty) == (2, 3)


def test_read_tsv_splits_at_the_tab_and_skips_empty_lines(tmp_path):
    path = write(tmp_path / "a.tsv", "Hello world\tHallo Welt\n\nTwo dogs \t Zwei Hunde\n")
    pairs, report = read_tsv(path)
    assert pairs == [("Hello world", "Hallo Welt"), ("Two dogs", "Zwei Hunde")]
    assert (report.pairs, report.skipped_empty) == (2, 1)


def test_read_tsv_line_without_exactly_one_tab_names_file_and_line(tmp_path):
    path = write(tmp_path / "a.tsv", "a\tb\nno tab here\n")
    with pytest.raises(DataError, match=r"a\.tsv:2: .*found 0 tabs"):
        read_tsv(path)
    path = write(tmp_path / "b.tsv", "a\tb\tc\n")
    with pytest.raises(DataError, match=r"b\.tsv:1: .*found 2 tabs"):
        read_tsv(path)


# encoding and collating


def test_encode_pairs_filters_too_long_and_counts_them():
    pairs = [
        ("a b c", "x y"),  # kept: src 3 <= 3, tgt 2 + 1 <= 3
        ("a b c d", "x"),  # src 4 > 3
        ("a", "x y z"),  # tgt 3 + 1 > 3
    ]
    examples, filtered = encode_pairs(pairs, WordTokenizer(), max_len=3)
    assert examples == [Example([7, 7, 7], [7, 7])]
    assert filtered == 2


def test_collate_pads_and_places_bos_and_eos():
    batch = collate([Example([11, 12, 13], [21]), Example([14], [22, 23])])
    assert batch.src.tolist() == [[11, 12, 13], [14, 0, 0]]
    assert batch.tgt_in.tolist() == [[2, 21, 0], [2, 22, 23]]
    assert batch.tgt_out.tolist() == [[21, 3, 0], [22, 23, 3]]
    assert batch.src.dtype == batch.tgt_in.dtype == batch.tgt_out.dtype == torch.long
    assert (len(batch), batch.n_src_tokens, batch.n_tgt_tokens) == (2, 4, 5)


def test_batch_to_moves_tensors_and_keeps_counts():
    batch = collate([Example([11], [21])]).to("cpu")
    assert isinstance(batch, Batch) and batch.src.device.type == "cpu"
    assert (batch.n_src_tokens, batch.n_tgt_tokens) == (1, 2)


# batching


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
    with pytest.raises(ValueError, match="only 1 batches"):
        batcher_of([Example([5], [6])], max_tokens=100, world_size=2)
