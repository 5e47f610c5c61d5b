"""The noised translations quality's calibration also learns from: each edit, and their determinism."""

import random

from attnmt.decoding.noising import (
    EDITS,
    Donors,
    drop_words,
    duplicate_span,
    noised,
    replace_span,
    transpose_adjacent,
    truncate,
    untranslated_span,
)

WORDS = "ein mann fährt ein rotes fahrrad durch die stadt".split()
DONORS = Donors(other="zwei hunde rennen im park".split(), source="a man rides a red bike".split())


def edited(edit, seed: int) -> list[str]:
    return edit(list(WORDS), DONORS, random.Random(seed))


def test_drop_words_deletes_up_to_a_third_of_the_words_and_keeps_the_order():
    for seed in range(20):
        kept = edited(drop_words, seed)
        assert len(WORDS) - len(WORDS) // 3 <= len(kept) < len(WORDS)
        rest = iter(WORDS)
        assert all(word in rest for word in kept)  # a subsequence: nothing moved


def test_truncate_keeps_a_proper_prefix():
    for seed in range(20):
        cut = edited(truncate, seed)
        assert 1 <= len(cut) < len(WORDS) and cut == WORDS[: len(cut)]


def test_duplicate_span_writes_one_to_three_words_again_right_after_themselves():
    for seed in range(20):
        longer = edited(duplicate_span, seed)
        size = len(longer) - len(WORDS)
        assert 1 <= size <= 3
        assert any(longer[i:i + size] == longer[i + size:i + 2 * size]
                   and longer[:i + size] + longer[i + 2 * size:] == WORDS for i in range(len(WORDS)))


def test_transpose_adjacent_swaps_two_neighbours():
    for seed in range(20):
        swapped = edited(transpose_adjacent, seed)
        moved = [i for i, (a, b) in enumerate(zip(WORDS, swapped, strict=True)) if a != b]
        assert sorted(swapped) == sorted(WORDS)
        assert moved == [] or (len(moved) == 2 and moved[1] == moved[0] + 1)  # "ein … ein" may swap to itself


def test_replace_span_and_untranslated_span_borrow_their_words():
    for seed in range(20):
        assert set(edited(replace_span, seed)) - set(WORDS) <= set(DONORS.other)
        assert set(edited(untranslated_span, seed)) - set(WORDS) <= set(DONORS.source)
    assert any(edited(replace_span, seed) == DONORS.other for seed in range(200))  # all of it, now and then


def test_noised_makes_every_edit_of_every_translation_of_two_words_or_more():
    made = noised(["a dog runs", "hello", "a cat sleeps"], ["ein hund rennt", "hallo", "eine katze schläft"])
    assert [i for i, _ in made] == [0] * len(EDITS) + [2] * len(EDITS)
    assert all(text != "" for _, text in made)


def test_noised_is_the_same_every_time():
    sources, texts = ["a man rides a red bike"] * 5, [" ".join(WORDS)] * 5
    assert noised(sources, texts) == noised(sources, texts)
    assert noised(sources, texts) != noised(sources, texts, seed=1)
