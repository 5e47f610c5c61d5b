"""A sentence whose translation without its glossary already writes its terms keeps that translation
(attnmt.decoding.plain_first); the others are searched with their terms, as before."""

import warnings

import pytest
import torch
from support import EOS, CharTokenizer, NamedPieces, TableModel

from attnmt.decoding import Decoding
from attnmt.decoding.plain_first import rule_kept, writes_terms
from attnmt.decoding.term_after import (
    CASE_ENDING,
    FIRST_PART,
    INFLECTED,
    JOINED,
    WORD,
    continuing_pieces,
    lone_space,
    stop_pieces,
)
from attnmt.decoding.term_agreement import BARE, articles
from attnmt.decoding.term_ids import Term
from attnmt.decoding.translate import translate, translate_n_best

# CharTokenizer's ids: a letter's is 4 + its place in the alphabet, a space 30; the term "x" is 27, "xy" 27 28.
A, B, C, X, Y, SPACE = 4, 5, 6, 27, 28, 30
# Without the term, "b c x" (0.4) beats "a" (0.3); it holds the term x.  Searched with it at beam 2, the banks kept
# "x" (bank 1) and "a" (bank 0): "b" was lost, and "a x" (0.2) came out.
BANKS = {(): {A: 0.5, B: 0.4, X: 0.1}, (A,): {EOS: 0.6, SPACE: 0.4}, (A, SPACE): {X: 1.0},
         (B,): {SPACE: 1.0}, (B, SPACE): {C: 1.0}, (B, SPACE, C): {SPACE: 1.0}, (B, SPACE, C, SPACE): {X: 1.0}}


class Chars(CharTokenizer):
    def encode_target(self, text: str) -> list[int]:
        return self.encode(text)


def run(table, sentences, glossary=None, **options) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return translate(TableModel(table), Chars(), sentences, Decoding(**{"beam_size": 2, "alpha": 0.0, **options}),
                         glossary=glossary)


def test_a_sentence_whose_plain_translation_holds_its_term_keeps_that_translation():
    """It came out "a x", the constrained search's banks having lost "b c x", the translation without a glossary."""
    assert run(BANKS, ["a dog"]) == ["b c x"]
    assert run(BANKS, ["a dog"], {"dog": "x"}) == ["b c x"]


def test_a_sentence_whose_plain_translation_misses_its_term_still_gets_it():
    table = {**BANKS, (B, SPACE, C, SPACE): {A: 1.0}}  # "b c a": no x
    assert run(table, ["a dog"]) == ["b c a"]
    assert run(table, ["a dog"], {"dog": "x"}) == ["a x"]


def test_greedy_search_keeps_its_translation_that_holds_the_term():
    """Greedy "a xy" holds the term xy; searched with it (a beam of 3, one per bank: batch_search.term_beam),
    "b c xy" came out."""
    greedy = {(): {A: 0.45, B: 0.4, X: 0.15}, (A,): {SPACE: 0.55, EOS: 0.45}, (A, SPACE): {X: 1.0},
              (A, SPACE, X): {Y: 1.0}, (B,): {SPACE: 1.0}, (B, SPACE): {C: 1.0}, (B, SPACE, C): {SPACE: 1.0},
              (B, SPACE, C, SPACE): {X: 1.0}, (B, SPACE, C, SPACE, X): {Y: 1.0}}
    assert run(greedy, ["a dog"], beam_size=1) == ["a xy"]
    assert run(greedy, ["a dog"], {"dog": "xy"}, beam_size=1) == ["a xy"]
    greedy[(A, SPACE)] = {C: 1.0}  # "a c": no term, searched with it
    assert run(greedy, ["a dog"], {"dog": "xy"}, beam_size=1) == ["b c xy"]


def test_a_term_the_sentence_holds_twice_needs_as_many_in_the_plain_translation():
    """"b c x" writes x once for "dog … dog": searched with the term, as before (which writes it once too)."""
    assert run(BANKS, ["a dog and a dog"], {"dog": "x"}) == ["a x"]
    twice = {**BANKS, (B, SPACE, C): {SPACE: 1.0}, (B, SPACE, C, SPACE, X): {SPACE: 1.0},
             (B, SPACE, C, SPACE, X, SPACE): {X: 1.0}}  # "b c x x"
    assert run(twice, ["a dog and a dog"], {"dog": "x"}) == ["b c x x"]


def test_a_prefix_is_kept_and_a_term_it_holds_counts():
    """With the prefix "b", the plain translation "b c x" holds the term; with "a x" the prefix holds it whole."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, decoding = TableModel(BANKS), Decoding(beam_size=2, alpha=0.0)
        assert translate(model, Chars(), ["a dog"], decoding, glossary={"dog": "x"}, prefix="b") == ["b c x"]
        assert translate(model, Chars(), ["a dog"], decoding, glossary={"dog": "x"}, prefix="a x") == ["a x"]


def test_n_best_keep_the_plain_ones_only_where_every_one_holds_the_term():
    """At n_best 2 the plain search's "a" lacks x: both come from the search with the term, as before."""
    decoding = Decoding(beam_size=2, n_best=2, alpha=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [found] = translate_n_best(TableModel(BANKS), Chars(), ["a dog"], decoding, glossary={"dog": "x"})
        both = {**BANKS, (A,): {SPACE: 1.0}}  # "b c x" and "a x": each holds x
        [plain] = translate_n_best(TableModel(both), Chars(), ["a dog"], decoding)
        [kept] = translate_n_best(TableModel(both), Chars(), ["a dog"], decoding, glossary={"dog": "x"})
    assert [t.text for t in found] == ["a x", "x"]
    assert [t.text for t in plain] == ["a x", "b c x"] and [(t.text, t.score) for t in kept] == [
        (t.text, t.score) for t in plain]


@pytest.mark.parametrize("batch", [1, 2, 0])
def test_sentences_with_and_without_terms_in_one_batch_equal_each_alone(batch):
    sentences = ["a dog", "a cat", "a dog and a dog", "a bird"]
    glossaries = [{"dog": "x"}, None, {"dog": "x"}, {"bird": "x"}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together = translate(TableModel(BANKS), Chars(), sentences, Decoding(beam_size=2, alpha=0.0),
                             max_sentences=batch, glossary=glossaries)
        alone = [translate(TableModel(BANKS), Chars(), [s], Decoding(beam_size=2, alpha=0.0), glossary=[g])[0]
                 for s, g in zip(sentences, glossaries, strict=True)]
    assert together == alone == ["b c x", "b c x", "a x", "b c x"]


# Pieces: 4 "▁Hund", 5 "e" (an ending, carries the word on), 6 "▁lief", 7 "▁", 8 ".", 9 "en"
CONTINUING = torch.tensor([False] * 5 + [True, False, False, False, True])
STOPS = torch.tensor([False] * 8 + [True, False])


def holds(tokens, term, prefix=0):
    return writes_terms(tokens, [term], prefix, CONTINUING, 7, STOPS)


def test_a_term_is_written_only_where_its_rule_lets_the_search_meet_it():
    assert holds([4, 6], [4]) and holds([6, 4], [4])
    assert not holds([4, 5, 6], [4])  # "Hunde": a word's start, not the term ("Hund" + "e" barred)
    assert holds([4, 5, 6], Term([4], inflects=True, endings=[5]))  # the term takes its ending
    assert not holds([4, 5, 9], Term([4], inflects=True, endings=[5]))  # nor more after it
    assert not holds([7, 4], [4]) and not holds([6, 8, 4], [4])  # after the lone "▁", after a stop
    assert holds([7, 4], [4], prefix=2)  # the prefix holds it whole


def test_two_terms_on_the_same_pieces_are_not_both_written():
    assert writes_terms([6, 4], [[6, 4], [4]], 0, CONTINUING, 7, STOPS) is False
    assert writes_terms([6, 4, 4], [[6, 4], [4]], 0, CONTINUING, 7, STOPS) is True


def test_each_rule_is_read_as_the_search_reads_it():
    assert rule_kept(CASE_ENDING, [5, 6], [5], CONTINUING) and not rule_kept(CASE_ENDING, [6], [5], CONTINUING)
    assert rule_kept(JOINED, [9], [5], CONTINUING) and not rule_kept(JOINED, [6], [5], CONTINUING)
    assert rule_kept(FIRST_PART, [9], [5], CONTINUING) and not rule_kept(FIRST_PART, [5], [5], CONTINUING)
    assert rule_kept(INFLECTED, [], [5], CONTINUING) and rule_kept(WORD, [], [], CONTINUING)


class WeakPieces(NamedPieces):
    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Ein", "▁einen", "▁Junge", "n", "▁sieht", "."]


def test_a_weak_nouns_form_is_written_where_it_agrees_with_the_article_before_it():
    """"Ein Junge" and "einen Junge" + "n" are the term "Junge" as the search meets it; "einen Junge" is not."""
    codec = WeakPieces()
    pieces = (continuing_pieces(codec, codec.vocab_size), lone_space(codec, codec.vocab_size),
              stop_pieces(codec, codec.vocab_size))
    plain = Term([6], cases=[BARE], endings=[7], articles=articles(codec))
    inflecting = Term([6], cases=[BARE], endings=[7], rules=[INFLECTED], articles=articles(codec))
    assert writes_terms([4, 6, 8, 9], [plain], 0, *pieces)  # Ein Junge sieht.
    assert not writes_terms([8, 5, 6, 9], [plain], 0, *pieces)  # sieht einen Junge.
    assert writes_terms([8, 5, 6, 7, 9], [inflecting], 0, *pieces)  # sieht einen Jungen.
    assert not writes_terms([8, 5, 6, 9], [inflecting], 0, *pieces)
    assert not writes_terms([4, 6, 8, 9], [Term([6], cases=[BARE])], 0, *pieces)  # no articles to read it by
