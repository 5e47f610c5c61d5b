"""Constrained beam search (attnmt.decoding.constraints): every output holds its terms, the beam is shared
among banks, and no term makes a search fail or hang."""

import dataclasses
import math
import re
import unicodedata

import pytest
import torch
from support import (
    EOS,
    CharTokenizer,
    EndingModel,
    NamedPieces,
    ScriptedModel,
    ending_model,
    lines_run,
    masked_log_probs,
    search_config,
)

from attnmt.decoding import Decoding
from attnmt.decoding.batch_search import run_search
from attnmt.decoding.constraints import Constraints, prefix_tails
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.inputs import Guides
from attnmt.decoding.search import beam_search
from attnmt.decoding.term_after import (
    FIRST_PART,
    JOINED,
    WORD,
    continuing_pieces,
    lone_space,
    stop_pieces,
)
from attnmt.decoding.term_ids import Term, forms, inflects, rules_of, target_ids, term_tokens, with_other_forms
from attnmt.decoding.translate import translate
from attnmt.errors import AttnmtWarning, DataError
from attnmt.model import Transformer

A, B, C, D = 4, 5, 6, 7
ONE_SOURCE = torch.tensor([[A, B]])
# Unconstrained, B + EOS wins (0.36); with C required, A C + EOS (0.6 · 0.35 = 0.21) beats B C (0.04).
TRAP = {(): {A: 0.6, B: 0.4}, (A,): {EOS: 0.4, C: 0.35, D: 0.25}, (B,): {EOS: 0.9, C: 0.1}}


def holds(tokens: list[int], term: list[int]) -> bool:
    return any(tokens[i: i + len(term)] == term for i in range(len(tokens) - len(term) + 1))


def test_the_best_hypothesis_holding_the_term_wins():
    decoding = Decoding(beam_size=2, alpha=0.0)
    [[free]] = beam_search(ScriptedModel(TRAP), ONE_SOURCE, decoding, use_cache=False)
    [[best]] = beam_search(ScriptedModel(TRAP), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]])
    assert free.tokens == [B]
    assert best.tokens == [A, C] and best.log_prob == pytest.approx(math.log(0.6 * 0.35)) and best.missed == 0


# The term C, glued to a quote, is written A D ("▁„" "H" "und" where the term is "▁Hund"), which the model prefers.
GLUED = {(): {A: 0.7, C: 0.3}, (A,): {D: 0.9, C: 0.1}}


@pytest.mark.parametrize("beam", [1, 2])
def test_a_term_is_met_by_its_other_form_where_the_model_writes_that_forms_first_piece(beam):
    """A D + EOS (0.63) holds the term in its other form (term_ids.Term), and wins; with C alone the term, C + EOS
    (0.3) did: a term glued to a bracket or quote came out with the bracket left out, or a space after it."""
    decoding = Decoding(beam_size=beam, alpha=0.0)
    [[plain]] = beam_search(ScriptedModel(GLUED), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]])
    [[glued]] = beam_search(ScriptedModel(GLUED), ONE_SOURCE, decoding, use_cache=False, terms=[[Term([C], [[A, D]])]])
    assert plain.tokens == [C] and glued.tokens == [A, D] and glued.missed == 0


def test_a_term_written_in_one_form_is_not_written_again_in_another():
    """Once A D has written the term, its form C is no longer wanted: A D C would have met it twice."""
    table = {(): {A: 0.7, C: 0.3}, (A,): {D: 0.9, C: 0.1}, (A, D): {C: 0.2, EOS: 0.8}}
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=3, alpha=0.0), use_cache=False,
                           terms=[[Term([C], [[A, D]])]])
    assert best.tokens == [A, D] and best.missed == 0


def test_a_multi_piece_term_is_written_whole_and_in_order():
    table = {(): {A: 0.5, B: 0.5}, (A,): {EOS: 0.9, C: 0.05, D: 0.05}, (A, C): {EOS: 0.5, D: 0.5}}
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                           terms=[[[C, D]]])
    assert best.tokens == [A, C, D] and best.log_prob == pytest.approx(math.log(0.5 * 0.05 * 0.5))


def test_a_started_term_is_written_whole_so_no_fragment_of_it_outranks_it():
    """C D is the term ("Acme" "GmbH").  C D + EOS (0.7 · 0.1 · 0.4) beats C C D + EOS (0.7 · 0.2 ·
    0.3 · 0.6), whose first C is a fragment; the search returned the fragment: C, free to break its
    term off, went on as C C (a second start) and C B, whose banks outranked C D + EOS, so that it
    never finished.  A started term now only goes on to its next piece."""
    table = Spread({(): {C: 0.7, A: 0.15, B: 0.1, D: 0.05}, (C,): {B: 0.4, C: 0.2, D: 0.1, EOS: 0.3},
                    (C, C): {A: 0.6, D: 0.3, C: 0.1}, (C, D): {EOS: 0.4, B: 0.35, A: 0.25},
                    (C, C, D): {EOS: 0.6, A: 0.4}})
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                           terms=[[[C, D]]])
    assert best.tokens == [C, D] and best.log_prob == pytest.approx(math.log(0.7 * 0.1 * 0.4))


# The term C D is "Einrad" ("▁Ein" "rad"); C alone is the word "Ein", B "Mann": "Ein Mann ... Einrad".
EIN_MANN = {(): {C: 0.6, A: 0.4}, (C,): {B: 0.9, D: 0.1}, (C, B): {C: 0.5, EOS: 0.5}, (C, B, C): {D: 1.0},
            (C, D): {A: 0.9, EOS: 0.1}, (C, D, A): {EOS: 1.0}, (C, B, C, D): {EOS: 1.0}}


@pytest.mark.parametrize("beam", [2, 3])  # 3: what --beam 1 searches with this term (term_beam)
def test_a_terms_first_piece_is_kept_both_as_the_terms_start_and_as_a_word_of_its_own(beam):
    """Forcing the term once C was written gave C D A (0.6 · 0.1 · 0.9: "Einrad", no "Ein Mann");
    the reading of C as a word of its own writes C B C D (0.6 · 0.9 · 0.5)."""
    [[best]] = beam_search(ScriptedModel(Spread(EIN_MANN)), ONE_SOURCE, Decoding(beam_size=beam, alpha=0.0),
                           use_cache=False, terms=[[[C, D]]])
    assert best.tokens == [C, B, C, D] and best.log_prob == pytest.approx(math.log(0.6 * 0.9 * 0.5))


def test_a_prefixs_tokens_start_no_term_and_a_term_the_prefix_holds_is_met():
    """--prefix "Ein" with the term "Einrad": the prefix's C is the word "Ein", not the term's start
    (forced on, it gave C D A); a prefix that holds the term whole needs it no second time."""
    decoding = Decoding(beam_size=2, alpha=0.0)
    [[ein]] = beam_search(ScriptedModel(Spread(EIN_MANN)), ONE_SOURCE, decoding, use_cache=False, prefixes=[[C]],
                          terms=[[[C, D]]])
    [[whole]] = beam_search(ScriptedModel(Spread({(C, D): {EOS: 0.9, C: 0.1}})), ONE_SOURCE, decoding, use_cache=False,
                            prefixes=[[C, D]], terms=[[[C, D]]])
    assert ein.tokens == [C, B, C, D] and whole.tokens == [C, D] and whole.missed == 0


@pytest.mark.parametrize("beam", [2, 3])  # 3: what --beam 1 searches with this term (term_beam)
def test_a_term_the_prefix_ends_part_way_through_is_carried_on_and_written_once(beam):
    """--prefix "Ein kleiner" (A C) with the term "kleiner Junge" (C D): the prefix's C started no
    term, so the model's "Junge" (D) was a word of its own and the term came again: A C D C D ("Ein
    kleiner Junge kleiner Junge", 0.9 · 0.1); D right after the prefix now carries the term on."""
    table = Spread({(A, C): {D: 0.9, B: 0.1}, (A, C, D): {B: 0.9, C: 0.1}, (A, C, D, B): {EOS: 1.0},
                    (A, C, D, C): {D: 1.0}, (A, C, D, C, D): {EOS: 1.0}})
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=beam, alpha=0.0), use_cache=False,
                           prefixes=[[A, C]], terms=[[[C, D]]])
    assert best.tokens == [A, C, D, B] and best.missed == 0
    assert best.log_prob == pytest.approx(math.log(0.25 * 0.25 * 0.9 * 0.9))  # the prefix's A, C: 0.25 each


def test_a_prefix_ending_in_a_terms_first_piece_stays_a_word_where_the_model_goes_on_otherwise():
    """--prefix "Ein" (C) with the term "Einstein" (C D): the model's best two after C are B ("Mann")
    and A; "stein" (D, 0.2) is not offered to carry the term on, so C stays the word "Ein" and the
    term comes later: C B C D (0.5 · 0.3), though C D (0.2) would score better."""
    table = Spread({(C,): {B: 0.5, A: 0.3, D: 0.2}, (C, B): {C: 0.3, EOS: 0.7}, (C, B, C): {D: 1.0},
                    (C, B, C, D): {EOS: 1.0}, (C, D): {EOS: 1.0}})
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=1, alpha=0.0), use_cache=False,
                           prefixes=[[C]], terms=[[[C, D]]])
    assert best.tokens == [C, B, C, D]


def test_the_terms_a_prefix_ends_part_way_through_are_found_with_the_pieces_it_holds():
    space = 9
    terms = [[C, D, B], [D, A], [C, D], [B], [space, D]]
    # C D B: its first 2 pieces end the prefix; D A: its first; C D is held whole; B has one piece.
    assert prefix_tails([A, C, D], terms, space) == [(0, 2), (1, 1)]
    assert prefix_tails([A, space, D], [[D, A]], space) == []  # no term starts right after the lone space
    assert prefix_tails([], terms, space) == []


def test_terms_that_share_a_first_piece_are_each_started_by_it():
    """C D and C A ("New York", "New Delhi"): C started only the first of them, so C A never counted
    until C D was met; each is a reading of its own now, and C A B C D (0.9 · 0.9 · 0.8 · 0.9) holds both."""
    table = Spread({(): {C: 1.0}, (C,): {A: 0.9, D: 0.1}, (C, A): {B: 0.9, EOS: 0.1}, (C, A, B): {C: 0.8, EOS: 0.2},
                    (C, A, B, C): {D: 0.9, A: 0.1}, (C, A, B, C, D): {EOS: 1.0}})
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=3, alpha=0.0), use_cache=False,
                           terms=[[[C, D], [C, A]]])
    assert best.tokens == [C, A, B, C, D] and best.missed == 0
    assert best.log_prob == pytest.approx(math.log(0.9 * 0.9 * 0.8 * 0.9))


def test_a_terms_forms_that_share_a_first_piece_are_one_reading_until_they_part():
    """The term B in its other forms C A, C B and C D ("▁Feuerwehrm" "ä" "n" "n", …, "▁Feuerwehrm" "änner"):
    C started a reading of each form, three at one score, so the beam of 2 kept C A's (forced on to A at 0.05)
    and C as a word of its own, whose C D (0.9 · 0.9), the form the model writes, met nothing, and B was then
    written again after it.  C is one reading of them all now, its next piece any of theirs: C D meets the term."""
    table = Spread({(): {C: 0.9, A: 0.1}, (C,): {D: 0.9, A: 0.05, B: 0.05}, (C, D): {EOS: 1.0},
                    (C, D, B): {EOS: 1.0}})
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                           terms=[[Term([B], [[C, A], [C, B], [C, D]])]])
    assert best.tokens == [C, D] and best.missed == 0
    assert best.log_prob == pytest.approx(math.log(0.9 * 0.9))


def test_a_hypothesis_whose_best_pieces_would_carry_a_term_on_writes_the_next_best_one():
    """After the term C, the row's two best pieces (D, B) carry the word on: both were ruled out
    after they were chosen, the row had nothing left, and the search went on at -inf."""
    table = {(): {C: 1.0}, (C,): {D: 0.5, B: 0.3, A: 0.15, EOS: 0.05}, (C, A): {EOS: 1.0}}
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[[B, D]] = True
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=1, alpha=0.0), use_cache=False,
                           terms=[[[C]]], continuing=continuing)
    assert best.tokens == [C, A] and best.log_prob == pytest.approx(math.log(0.15))


def batch() -> torch.Tensor:
    return torch.tensor([[9, 10, 11, 0, 0], [12, 13, 14, 15, 16], [17, 18, 0, 0, 0], [19, 20, 21, 22, 0]])


TERMS = [[[30, 31]], [[32]], [], [[33, 34, 35], [36]]]


@pytest.mark.parametrize("beam", [1, 4])
def test_every_hypothesis_holds_every_term_of_its_sentence(beam):
    found = beam_search(ending_model(), batch(), Decoding(beam_size=beam, n_best=beam), terms=TERMS)
    for hypotheses, terms in zip(found, TERMS, strict=True):
        assert len(hypotheses) == beam
        for h in hypotheses:
            assert h.missed == 0 and all(holds(h.tokens, term) for term in terms), (h.tokens, terms)


def test_each_token_of_a_constrained_hypothesis_carries_the_models_log_prob():
    model, src = ending_model(), batch()
    found = beam_search(model, src, Decoding(beam_size=4), terms=TERMS)
    for i, [best] in enumerate(found):
        expected = masked_log_probs(model, src[i : i + 1], best.tokens)  # pad and BOS out of the softmax
        assert best.token_log_probs == pytest.approx(expected.tolist(), abs=1e-4)


def test_no_terms_give_the_unconstrained_search_and_a_sentence_without_terms_is_searched_as_without():
    model, decoding = ending_model(), Decoding(beam_size=4, n_best=2)
    free = beam_search(model, batch(), decoding)
    assert beam_search(model, batch(), decoding, terms=[[]] * 4) == free
    assert beam_search(model, batch(), decoding, terms=TERMS)[2] == free[2]


@pytest.mark.parametrize("scored", [False, True])
def test_greedy_search_with_terms_gives_each_sentence_what_it_gets_alone(scored):
    model, src, greedy = ending_model(), batch(), Decoding(beam_size=1)
    together = run_search(model, src, greedy, scored, [[]] * 4, TERMS)
    for k, terms in enumerate(TERMS):
        [alone] = run_search(model, src[k: k + 1, : int((src[k] != 0).sum())], greedy, scored, [[]], [terms])
        assert [h.tokens for h in together[k]] == [h.tokens for h in alone], k


def test_the_cache_gives_the_same_constrained_search_as_recomputing():
    model, decoding = ending_model(), Decoding(beam_size=3)
    with_cache = beam_search(model, batch(), decoding, terms=TERMS)
    without = beam_search(model, batch(), decoding, use_cache=False, terms=TERMS)
    assert [[h.tokens for h in s] for s in with_cache] == [[h.tokens for h in s] for s in without]


def test_a_term_longer_than_the_length_limit_raises_the_limit_to_fit_it():
    decoding = Decoding(beam_size=2, max_len_a=0.0, max_len_b=1)
    term = [20, 21, 22, 23, 24]
    [[best]] = beam_search(ending_model(), batch()[:1], decoding, terms=[[term]])
    assert holds(best.tokens, term) and best.missed == 0


class Spread(dict):
    """A ScriptedModel's table where an output not in it goes on with A, B, C or D alike."""

    def get(self, output, default=None):
        return super().get(output, dict.fromkeys((A, B, C, D), 0.25))


def test_a_term_adds_its_pieces_to_the_length_limit_leaving_room_for_the_rest_of_the_sentence():
    # Unconstrained, A B + EOS (the limit, 2, fits it); with the term C D, A B C D + EOS, 4 tokens.
    # Any other output goes on with A, B, C or D alike, never EOS.
    table = Spread({(): {A: 0.9, C: 0.1}, (A,): {B: 0.9, C: 0.1}, (A, B): {EOS: 0.5, C: 0.5}, (A, B, C): {D: 1.0},
                    (A, B, C, D): {EOS: 1.0}})
    decoding = Decoding(beam_size=3, alpha=0.0, max_len_a=0.0, max_len_b=2)
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C, D]]])
    assert best.tokens == [A, B, C, D] and best.missed == 0


# The term C D: A B C D (0.81) is best, but at beam 2 the term's banks 2 and 1 take both slots at the second
# step (C D, A C), A B of bank 0 gets none, and C D (0.05) wins over A C D (0.045): the term not in its place.
LATE_TERM = Spread({(): {A: 0.9, C: 0.1}, (A,): {B: 0.9, C: 0.1}, (A, B): {C: 1.0}, (A, B, C): {D: 1.0},
                    (A, B, C, D): {EOS: 1.0}, (C,): {D: 1.0}, (C, D): {EOS: 0.5, A: 0.5}, (A, C): {D: 1.0},
                    (A, C, D): {EOS: 0.5, A: 0.5}})


def test_the_search_goes_on_while_a_hypothesis_that_lacks_a_term_may_still_do_better():
    """At beam 3, A B (0.81) keeps a slot, but C D (0.1) finished while A B still lacked the term, and the
    search stopped there: A B was left out of the bound on what the sentence may still reach."""
    table = Spread({**LATE_TERM, (C, D): {EOS: 1.0}, (A, C, D): {EOS: 1.0}})
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=3, alpha=0.0), use_cache=False,
                           terms=[[[C, D]]])
    assert best.tokens == [A, B, C, D] and best.log_prob == pytest.approx(math.log(0.81))


def test_a_beam_narrower_than_its_terms_banks_is_widened_to_keep_one_hypothesis_per_bank():
    [[narrow]] = beam_search(ScriptedModel(LATE_TERM), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                             terms=[[[C, D]]])
    assert narrow.tokens == [C, D]  # what --beam 2 searched before it was widened
    [[best]] = run_search(ScriptedModel(LATE_TERM), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), True, [[]],
                          [[[C, D]]])
    assert best.tokens == [A, B, C, D] and best.log_prob == pytest.approx(math.log(0.81))


def test_a_term_longer_than_the_models_positions_ends_at_the_limit_with_the_term_missed():
    torch.manual_seed(0)
    model = Transformer(search_config(max_positions=12)).eval()  # at most 10 output tokens
    [[best]] = beam_search(model, batch()[:1], Decoding(beam_size=2), terms=[[list(range(10, 24))]])
    assert best.missed == 1 and len(best.tokens) <= 10


@pytest.mark.parametrize("seed", range(4))
def test_an_n_best_list_leaves_out_the_hypotheses_the_limit_ended_without_a_term(seed):
    """These models never end: the third hypothesis used to be one the limit stopped short of the term."""
    torch.manual_seed(seed)
    model = Transformer(search_config(max_positions=12)).eval()
    [found] = beam_search(model, batch()[:1], Decoding(beam_size=3, n_best=3), terms=[[[30]]])
    assert found and all(h.missed == 0 and holds(h.tokens, [30]) for h in found)


def test_an_n_best_list_at_a_limit_the_terms_fill_holds_only_what_holds_the_terms():
    """With the term C D and no room besides (a limit of 2), C D + EOS (0.4 · 0.5) is the one
    translation with it; A B and A, cut off by the limit or at -inf, used to follow it."""
    table = {(): {A: 0.6, C: 0.4}, (A,): {EOS: 0.5, B: 0.5}, (C,): {D: 0.5, EOS: 0.5}}
    decoding = Decoding(beam_size=3, n_best=3, max_len_a=0.0, max_len_b=0)
    [found] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C, D]]])
    assert [h.tokens for h in found] == [[C, D]]
    assert found[0].missed == 0 and found[0].log_prob == pytest.approx(math.log(0.4 * 0.5))


@pytest.mark.parametrize("beam", [1, 2])
def test_the_n_gram_ban_never_rules_out_a_terms_own_piece(beam):
    """The term C C repeats C, which no_repeat_ngram_size 1 bans: the search left the term out,
    silently, and ran to the length limit (the ban is about the model's own repeats)."""
    table = {(): {C: 0.6, A: 0.4}, (C,): {C: 0.5, EOS: 0.5}, (C, C): {EOS: 1.0}}
    decoding = Decoding(beam_size=beam, alpha=0.0, no_repeat_ngram_size=1)
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C, C]]])
    assert best.tokens == [C, C] and best.missed == 0 and best.log_prob == pytest.approx(math.log(0.6 * 0.5))


class RulesOutX(EndingModel):
    """An EndingModel that gives the piece of "x" (CharTokenizer's 27) no probability."""

    def decode(self, *args, **kwargs):
        logits = super().decode(*args, **kwargs)
        logits[..., 27] = float("-inf")
        return logits


class CharCodec(CharTokenizer):
    def encode_target(self, text: str) -> list[int]:
        return self.encode(text)


def test_a_translation_the_search_ended_without_a_term_is_warned_of_naming_the_term():
    """It came back as if it held the term, with a finite score and no word said."""
    torch.manual_seed(0)
    model = RulesOutX(search_config()).eval()
    with pytest.warns(AttnmtWarning, match="glossary target term 'x' is not in a translation: the search reached "
                                           "the length limit without writing it"):
        [text] = translate(model, CharCodec(), ["a dog"], Decoding(beam_size=2), glossary={"dog": "x"})
    assert "x" not in text


class Letters:
    """A tokenizer with one piece per lower-case letter (ids 4..29) and <unk> (1) for anything else."""

    def encode_target(self, text: str) -> list[int]:
        return [4 + ord(ch) - ord("a") if "a" <= ch <= "z" else 1 for ch in text]

    def decode(self, ids) -> str:
        return "".join(chr(ord("a") + i - 4) if i >= 4 else "?" for i in ids)


def test_a_target_term_the_vocabulary_cannot_write_is_refused_in_one_line():
    with pytest.raises(DataError, match="glossary target term 'Hund': the model's target vocabulary cannot write it"):
        term_tokens(Letters(), ["Hund"], unk_id=1)


class Spaced(Letters):
    """Letters with a piece for a space (30); as SentencePiece, it writes any run of whitespace as one."""

    def encode_target(self, text: str) -> list[int]:
        return [30 if ch == " " else super(Spaced, self).encode_target(ch)[0] for ch in " ".join(text.split())]

    def decode(self, ids) -> str:
        return "".join(" " if i == 30 else super(Spaced, self).decode([i]) for i in ids)


@pytest.mark.parametrize("target", ["hund  bello", "hund\tbello", "hund\nbello"])
def test_a_target_term_whose_spaces_the_vocabulary_would_change_is_refused_naming_where(target):
    """It was written "hund bello", silently, though a term comes out exactly as written."""
    message = f"terms.tsv:3: glossary target term {target!r}: the model's target vocabulary writes it as 'hund bello'"
    with pytest.raises(DataError, match=f"^{re.escape(message)}; write the term that way$"):
        target_ids(Spaced(), target, unk_id=1, place="terms.tsv:3")
    assert Spaced().decode(target_ids(Spaced(), "hund bello", unk_id=1)) == "hund bello"


class Accented(Letters):
    """Letters with a piece for "é" (30); as SentencePiece, it reads the text in NFKC."""

    def encode_target(self, text: str) -> list[int]:
        return [30 if ch == "é" else super(Accented, self).encode_target(ch)[0]
                for ch in unicodedata.normalize("NFKC", text)]

    def decode(self, ids) -> str:
        return "".join("é" if i == 30 else super(Accented, self).decode([i]) for i in ids)


def test_a_target_term_in_another_canonically_equal_form_is_written_as_the_vocabulary_writes_it():
    """"café" typed with a combining accent was refused: the vocabulary "writes it as 'café'"."""
    assert Accented().decode(target_ids(Accented(), "cafe\u0301", unk_id=1)) == "café"


@pytest.mark.parametrize("target, shown", [
    ("ｃafé", "'ｃafé' ('\\uff43af\\u00e9'): the model's target vocabulary writes it as 'café' ('caf\\u00e9')"),
    ("\ufb01le", "'\ufb01le' ('\\ufb01le'): the model's target vocabulary writes it as 'file'"),
])
def test_a_target_term_the_vocabulary_writes_in_its_compatibility_form_is_refused_showing_its_code_points(
        target, shown):
    """A full-width letter or a ligature is no letter of the vocabulary's, but NFKC makes it one:
    the two reprs may look alike, so the message spells each out."""
    message = f"terms.tsv:3: glossary target term {shown}; write the term that way"
    with pytest.raises(DataError, match=f"^{re.escape(message)}$"):
        target_ids(Accented(), target, unk_id=1, place="terms.tsv:3")


def test_a_term_inside_another_or_repeated_is_needed_once():
    assert term_tokens(Letters(), ["hund", "hunde", "katze", "katze"], unk_id=1) == [
        Letters().encode_target("hunde"), Letters().encode_target("katze")]


def test_overlapping_terms_are_both_written():
    found = beam_search(ending_model(), batch()[:1], Decoding(beam_size=4), terms=[[[30, 31], [31, 32]]])
    assert all(holds(found[0][0].tokens, term) for term in ([30, 31], [31, 32]))


def test_no_piece_carries_a_terms_word_on_right_after_it():
    table = {(): {C: 0.9, A: 0.1}, (C,): {D: 0.9, EOS: 0.1}}  # D would turn the word C into "CD"
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    decoding = Decoding(beam_size=2, alpha=0.0)
    [[glued]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]])
    [[whole]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]],
                            continuing=continuing)
    assert glued.tokens == [C, D] and whole.tokens == [C]


def test_a_term_whose_source_is_in_the_plural_may_be_inflected_right_after_it():
    """"access points" with the term access point -> Zugangspunkt: the search wrote "Zugangspunkt" and no "e"."""
    table = {(): {C: 0.9, A: 0.1}, (C,): {D: 0.9, EOS: 0.1}}  # D inflects the word C: "Zugangspunkt" + "e"
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    decoding = Decoding(beam_size=2, alpha=0.0)
    [[plural]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False,
                             terms=[[Term([C], inflects=True, endings=[D])]], continuing=continuing)
    assert plural.tokens == [C, D]


def test_a_term_the_model_may_inflect_is_carried_on_by_an_inflection_ending_alone():
    """"Bank" + "ett" made "Bankett" (a banquet) for "banks": any piece could carry an inflected term on."""
    table = {(): {C: 0.9, A: 0.1}, (C,): {D: 0.9, EOS: 0.1}}  # D, "ett", is no ending
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    decoding = Decoding(beam_size=2, alpha=0.0)
    [[plural]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False,
                             terms=[[Term([C], inflects=True, endings=[B])]], continuing=continuing)
    assert plural.tokens == [C]


def test_a_term_that_is_a_compounds_first_part_may_be_carried_on_by_the_compounds_next_part_but_no_ending():
    """"car key" with car -> Auto: "▁Auto" "schlüssel" could not be written, "schlüssel" carrying the term on."""
    table = {(): {C: 0.9, A: 0.1}, (C,): {D: 0.9, EOS: 0.1}}  # D: "schlüssel", or an ending
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    decoding = Decoding(beam_size=2, alpha=0.0)
    outputs = [beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, continuing=continuing,
                           terms=[[Term([C], endings=endings, rules=[FIRST_PART])]])[0][0].tokens
               for endings in ([], [D])]
    assert outputs == [[C, D], [C]]


def test_a_compounds_first_part_with_its_link_meets_the_term_where_the_model_writes_the_compounds_next_part():
    """"Dog owners" with dog -> Hund: the model's "▁Hunde" "besitzer" met no term, and "Hund" came after it."""
    table = {(): {A: 0.9, C: 0.1}, (A,): {D: 0.9, EOS: 0.1}, (A, D): {EOS: 0.9, C: 0.1}}  # A "▁Hunde", D "besitzer"
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    [[compound]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                               terms=[[Term([C], [[A]], rules=[FIRST_PART, JOINED])]], continuing=continuing)
    assert compound.tokens == [A, D]


def test_a_compounds_first_part_with_its_link_and_no_next_part_is_the_plural_and_meets_no_term():
    """"▁Hunde" and a word of its own is "Hunde", dogs: the term is still to be written, as were "▁Hunde" no form."""
    table = {(): {A: 0.9, C: 0.01}, (A,): {B: 0.9, EOS: 0.1}, (A, B): {EOS: 0.9, C: 0.1}}  # B: a word of its own
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    [plural, plain] = [beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                                   terms=[[term]], continuing=continuing)[0][0].tokens
                       for term in (Term([C], [[A]], rules=[FIRST_PART, JOINED]), [C])]
    assert C in plural and plural == plain


def test_a_compounds_first_part_with_its_link_takes_no_beam_place_of_a_written_term_before_its_next_part():
    """Met at once and taken back where no next part came, "▁Straßen" filled the places of the hypotheses that had
    written "Straße", and worse translations came out: with one place, the term written keeps it."""
    table = {(): {A: 0.9, C: 0.1}, (A,): {B: 0.9, D: 0.1}, (A, B): {EOS: 0.9, C: 0.1}}
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    [[kept]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=1, alpha=0.0), use_cache=False,
                           terms=[[Term([C], [[A]], rules=[FIRST_PART, JOINED])]], continuing=continuing)
    assert kept.tokens == [C]


class Pieces:
    """A tokenizer that only names its pieces: as the hand-trained model's, with a bare "-"."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Saint", "-", "Louis", "Sch", "▁-", "–", "-Sch", "\u2011Sch"]

    def id_to_piece(self, i: int) -> str:
        return self.PIECES[i]


def test_no_hyphen_glues_a_term_into_a_compound_right_after_it():
    """Saint-Louis + "-" + "Sch…" came out "Saint-Louis-Schamaa", though a term is a word of its own;
    a dash, or a hyphen with a space before it, may follow."""
    continuing = continuing_pieces(Pieces(), len(Pieces.PIECES))
    assert [p for p, on in zip(Pieces.PIECES, continuing.tolist(), strict=True) if on] == [
        "-", "Louis", "Sch", "-Sch", "\u2011Sch"]
    table = Spread({(): {4: 0.9, 7: 0.1}, (4,): {5: 1.0}, (4, 5): {6: 1.0}, (4, 5, 6): {5: 0.8, EOS: 0.2},
                    (4, 5, 6, 5): {7: 1.0}, (4, 5, 6, 5, 7): {EOS: 1.0}})
    for allowed, expected in ((None, [4, 5, 6, 5, 7]), (continuing[:10], [4, 5, 6])):  # "Saint-Louis" alone
        [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                               terms=[[[4, 5, 6]]], continuing=allowed)
        assert best.tokens == expected


@pytest.mark.parametrize("beam", [2, 3])  # 3: what --beam 1 searches with this term (term_beam)
def test_no_term_starts_right_after_the_lone_space_piece(beam):
    """A is SentencePiece's lone "▁", and the term's first piece C brings its own: B A C D (0.7 ·
    0.8 · 0.9) came out "Der Junge  20 Dollar", with two spaces.  After A, the term may not start;
    B C D (0.7 · 0.2) is the best that holds it."""
    table = {(): {B: 0.7, A: 0.3}, (B,): {A: 0.8, C: 0.2}, (B, A): {C: 0.9, D: 0.1}, (B, A, C): {D: 1.0},
             (B, C): {D: 1.0}, (A,): {C: 1.0}, (A, C): {D: 1.0}}
    decoding = Decoding(beam_size=beam, alpha=0.0)
    [[doubled]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C, D]]])
    [[single]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C, D]]], space=A)
    assert doubled.tokens == [B, A, C, D] and single.tokens == [B, C, D]
    assert single.log_prob == pytest.approx(math.log(0.7 * 0.2)) and single.missed == 0


def test_the_lone_space_piece_is_found_by_its_name():
    class Spaces(Pieces):
        PIECES = [*Pieces.PIECES, "▁"]

    assert lone_space(Spaces(), len(Spaces.PIECES)) == len(Pieces.PIECES) and lone_space(Pieces(), 12) is None
    assert lone_space(CharTokenizer(), 31) is None  # names no pieces


def test_the_work_on_terms_grows_with_their_number_not_its_square():
    def terms(n: int) -> list[str]:  # n words of four letters ("aaaa", "aaab", ...), each with the next one too
        words = ["".join(chr(ord("a") + int(d)) for d in f"{i:04d}") for i in range(n + 1)]
        return [term for i in range(n) for term in (words[i], words[i] + words[i + 1])]

    few, many = (lines_run(lambda n=n: term_tokens(Letters(), terms(n), unk_id=1)) for n in (200, 2_000))
    assert many < 11 * few  # ten times the terms; the pairwise check this replaces took a hundred times the steps


class GluedWords:
    """Writes a word after a space as one piece ("▁hund") and one glued to a bracket or quote before it letter by
    letter ("▁(" "h" "u" "n" "d"), as SentencePiece writes them."""

    def __init__(self) -> None:
        self.pieces: dict[str, int] = {}

    def encode_target(self, text: str) -> list[int]:
        ids = []
        for word in text.split(" "):
            if word[:1] in "(„":
                ids += [self.pieces.setdefault("▁" + word[0], len(self.pieces) + 2)]
                ids += [self.pieces.setdefault(letter, len(self.pieces) + 2) for letter in word[1:]]
            else:
                ids.append(self.pieces.setdefault("▁" + word, len(self.pieces) + 2))
        return ids

    def decode(self, ids: list[int]) -> str:
        names = {number: piece for piece, number in self.pieces.items()}
        return "".join(names[number] for number in ids).replace("▁", " ").strip()


def test_a_term_the_sentence_glues_to_a_bracket_or_quote_may_be_written_glued_to_one():
    codec = GluedWords()  # nouns, with their capital: a word in small letters may be an adjective, which declines
    hund, katze = codec.encode_target("Hund"), codec.encode_target("Katze")
    sentence = 'the (dog) sees a cat'
    [glued, plain] = with_other_forms(codec, [hund, katze], sentence, [(5, 8, "Hund"), (17, 20, "Katze")])
    assert codec.encode_target("(Hund") in forms(glued) and codec.encode_target("„Hund") in forms(glued)
    assert forms(glued)[0] == hund and forms(plain) == [katze]


@pytest.mark.parametrize(("sentence", "found", "capitalised"), [
    ("Dog barks.", [(0, 3, "hund")], True),
    ('"Dog" barks.', [(1, 4, "hund")], True),  # first but for the quote
    ("A dog barks.", [(2, 5, "hund")], False),
    ("dog barks.", [(0, 3, "hund")], False),  # no capital: the source's case is the sentence's own
])
def test_a_lower_case_term_the_sentence_starts_with_may_be_written_with_a_capital(sentence, found, capitalised):
    """"Red cars are parked." with the term "rote" came out "Ein rote Autos …": the term could not start the
    translation as written, and the model put a word of its own first.  Its capitalised form meets it too."""
    codec = GluedWords()
    [term] = with_other_forms(codec, [codec.encode_target("hund")], sentence, found)
    assert (codec.encode_target("Hund") in forms(term)) == capitalised and forms(term)[0] == codec.encode_target("hund")


def test_a_term_whose_case_is_its_own_is_not_capitalised_at_a_sentences_start():
    codec = GluedWords()
    terms = [codec.encode_target("iPhone"), codec.encode_target("Hund")]
    assert with_other_forms(codec, terms, "Iphone dogs", [(0, 6, "iPhone"), (7, 11, "Hund")]) == terms


def test_a_term_the_sentence_starts_with_glued_to_a_quote_may_be_written_capitalised_and_glued():
    codec = GluedWords()
    [term] = with_other_forms(codec, [codec.encode_target("hund")], '"Dog" barks.', [(1, 4, "hund")])
    assert codec.encode_target("„Hund") in forms(term) and codec.encode_target("„hund") in forms(term)


class NamedWords(NamedPieces):
    """A vocabulary of whole words, each one piece after a space ("▁Hund", "▁Hunde"), that names its pieces; any
    other word is the unknown piece."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Hund", "▁Hunde", "▁Hunden", "▁Hundehütte", "e", "▁Katze", "▁Bank",
              "▁Banken", "▁Bankett", "▁Bankster"]


class WeakNouns(NamedPieces):
    """Whole words after a space, as NamedWords, of a weak masculine noun and a feminine one, and two endings."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Polizist", "▁Polizisten", "en", "e", "▁Katze", "▁Katzen", "s"]


def test_a_weak_masculine_term_may_take_its_case_ending_en_alone_in_the_singular():
    """"A man talks to a police officer" came out "mit einem Polizist": German's weak masculine nouns take "en" in
    the singular too ("Polizisten"), and no other ending; a feminine noun in "-e" takes none in the singular."""
    codec = WeakNouns()
    polizist, katze = codec.encode_target("Polizist"), codec.encode_target("Katze")
    text = "A man talks to a police officer and a cat."
    found = [(text.index("police"), text.index(" and"), "Polizist"), (text.index("cat"), len(text) - 1, "Katze")]
    [weak, plain] = with_other_forms(codec, [polizist, katze], text, found, german=True)
    assert forms(weak) == [polizist, codec.encode_target("Polizisten")] and weak.inflects
    # "▁Polizisten" is a piece of its own: "▁Polizist" + "en" + a piece more made a word that is none
    assert weak.endings == [codec.PIECES.index("en")] and rules_of(weak) == [WORD, WORD]
    assert plain == katze and not inflects(plain)


def test_a_weak_masculine_term_whose_source_is_in_the_plural_takes_en_alone_and_nothing_after_it():
    """"The elephants' trunks" with elephant -> Elefant: the term took every ending ("Elefant" + "e", "s") and
    "▁Elefanten" + "s", "Elefantens", which German never writes: a weak masculine noun takes "en" in every case and
    number but the nominative singular, and no genitive "s"."""
    codec = WeakNouns()
    polizist = codec.encode_target("Polizist")
    [weak] = with_other_forms(codec, [polizist], "Two police officers", [(4, 19, "Polizist")], {"Polizist"},
                              german=True)
    assert forms(weak) == [polizist, codec.encode_target("Polizisten")] and weak.inflects
    assert weak.endings == [codec.PIECES.index("en")] and rules_of(weak) == [WORD, WORD]


def test_a_term_whose_source_is_in_the_plural_may_be_written_in_a_piece_that_inflects_it():
    """"Two dogs play." with dog -> Hund came out "Zwei Hund spielen": "▁Hunde" is one piece, no "▁Hund" + "e"."""
    codec = NamedWords()
    hund, katze = codec.encode_target("Hund"), codec.encode_target("Katze")
    found = [(4, 8, "Hund"), (15, 18, "Katze")]
    [plural, singular] = with_other_forms(codec, [hund, katze], "Two dogs and a cat", found, {"Hund"})
    assert forms(plural) == [hund, codec.encode_target("Hunde"), codec.encode_target("Hunden")] and plural.inflects
    assert singular == katze and not isinstance(singular, Term)


class PatentPieces(NamedPieces):
    """A strong noun, two of its endings, and a piece that carries a word on and is none."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Patent", "e", "s", "chaf", "▁sind", "n"]


@pytest.mark.parametrize(("ending", "after"), [(5, 6), (5, 7), (9, 5)])
def test_a_terms_word_ends_with_the_ending_it_takes(ending, after):
    """"Three patents." came out "Drei Patentschammmm", "Zwei Pätentess": once a term whose source is in the
    plural has taken an ending ("Patent" + "e"), nothing carries the word on, another ending neither."""
    codec = PatentPieces()
    [term] = with_other_forms(codec, [[4]], "Two patents are new.", [(4, 11, "Patent")], {"Patent"})
    table = {(): {4: 1.0}, (4,): {ending: 1.0}, (4, ending): {after: 0.9, 8: 0.1}}
    [[best]] = beam_search(ScriptedModel(table), torch.tensor([[A, B, A, B, A]]), Decoding(beam_size=3, alpha=0.0),
                           use_cache=False, terms=[[term]], continuing=continuing_pieces(codec, 10))
    assert best.tokens == [4, ending, 8]


def test_a_term_given_in_the_plural_whose_source_is_in_the_singular_may_be_written_without_its_ending():
    """"A dog plays." with dogs -> Hunde: no match; matched, the search must not force "Hunde" for one dog."""
    codec = NamedWords()
    [term] = Guides.of(1, Glossary.of({"dogs": "Hunde"})).terms(codec, 1, ["A dog plays."], 0, room=10)
    assert forms(term) == [codec.encode_target(word) for word in ("Hunde", "Hunden", "Hund")] and term.inflects


class UmlautWords(NamedWords):
    """Whole words, as NamedWords, of German nouns whose plural takes an umlaut."""

    PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁Mann", "▁Männer", "▁Haus", "▁Häuser", "▁Häusern", "▁Männ"]
    vocab_size = len(PIECES)


def test_a_german_target_term_whose_source_is_in_the_plural_may_be_written_with_an_umlaut():
    """"Two men sit." with man -> Mann came out "Zwei Mann sitzen": "Männer" was no form of the term."""
    codec = UmlautWords()
    [mann, haus] = Guides.of(1, Glossary.of({"man": "Mann", "house": "Haus"})).terms(
        codec, 1, ["Two men and their houses."], 0, room=10)
    assert codec.encode_target("Männer") in forms(mann) and codec.encode_target("Häusern") in forms(haus)
    assert [codec.decode(form) for form in forms(haus)] == ["Haus", "Häuser", "Häusern"]


def test_a_german_plural_target_whose_source_is_in_the_singular_may_be_written_without_its_umlaut():
    """"A man sits." with men -> Männer came out "Ein Männer sitzt": "Mann" was no form of the term."""
    codec = UmlautWords()
    [term] = Guides.of(1, Glossary.of({"men": "Männer"})).terms(codec, 1, ["A man sits."], 0, room=10)
    assert codec.encode_target("Mann") in forms(term)


def test_a_target_term_whose_first_word_is_in_the_plural_may_be_written_in_the_singular():
    """"The access point is down." with access points -> points d'accès forced the plural "points"."""
    codec = NamedWords()
    codec.PIECES = [*NamedWords.PIECES, "▁points", "▁point", "▁d'accès", "▁puntos", "▁punto", "▁de", "▁acceso"]
    glossary = Glossary.of({"access points": "points d'accès", "ports": "puntos de acceso"})
    [french, spanish] = Guides.of(1, glossary).terms(codec, 1, ["The access point of a port."], 0, room=10)
    assert codec.encode_target("point d'accès") in forms(french)
    assert codec.encode_target("punto de acceso") in forms(spanish)


def test_a_target_term_whose_first_word_takes_the_plural_may_be_written_so():
    """"Two access points." with access point -> point d'accès forced the singular "point"."""
    codec = NamedWords()
    codec.PIECES = [*NamedWords.PIECES, "▁points", "▁point", "▁d'accès", "▁puntos", "▁punto", "▁de", "▁acceso"]
    glossary = Glossary.of({"access point": "point d'accès", "port": "punto de acceso"})
    [french, spanish] = Guides.of(1, glossary).terms(codec, 1, ["Two access points and ports."], 0, room=10)
    assert codec.encode_target("points d'accès") in forms(french) and french.inflects
    assert codec.encode_target("puntos de acceso") in forms(spanish)


class AdjectiveWords(NamedWords):
    """Whole words, as NamedWords, of a German adjective with its endings, and a verb."""

    PIECES = [*NamedWords.PIECES, "▁alt", "▁alte", "▁alten", "▁altem", "▁Alt", "▁Alte", "em", "▁gehen", "▁gehend"]
    vocab_size = len(PIECES)


def test_a_target_adjective_may_be_written_with_the_ending_its_noun_gives_it():
    """"The old man sits." with old -> alt came out "Der alte Mann sitzt alt": a German adjective takes an ending
    before its noun ("alte", "altem"; "Alte" first in a sentence), and the search let none follow the term.  A verb's
    infinitive ("gehen") is no adjective: "gehend" is another word."""
    codec = AdjectiveWords()
    [old, walk] = Guides.of(1, Glossary.of({"old": "alt", "walk": "gehen"})).terms(
        codec, 1, ["Old men walk with old dogs."], 0, room=10)
    assert old.inflects and codec.PIECES.index("em") in old.endings
    assert [codec.decode(form) for form in forms(old)] == ["alt", "Alt", "alte", "alten", "altem", "Alte"]
    assert walk == codec.encode_target("gehen") and not inflects(walk)

class SplitWords(NamedWords):
    """NamedWords, but "alt" is written "▁a" "lt", and "alte" in one piece, as SentencePiece may cut them."""

    PIECES = [*NamedWords.PIECES, "▁a", "lt", "▁alte"]
    vocab_size = len(PIECES)

    def encode_target(self, text: str) -> list[int]:
        return [self.PIECES.index("▁a"), self.PIECES.index("lt")] if text == "alt" else super().encode_target(text)


def test_a_term_that_inflects_may_be_written_in_the_pieces_the_vocabulary_writes_its_inflected_word_in():
    """"▁a" "lt" + "e" was the one way to write "alte"; the model writes "▁alte", and "Der alte alt Mann" came out."""
    codec = SplitWords()
    [old] = with_other_forms(codec, [codec.encode_target("alt")], "an old man", [(3, 6, "alt")])
    assert codec.encode_target("alte") in forms(old) and old.inflects

def test_a_piece_that_carries_a_term_on_by_letters_that_are_no_inflection_ending_is_no_form_of_it():
    """"▁Bankett" (a banquet) and "▁Bankster" were forms of the term "Bank": three letters or fewer were taken."""
    codec = NamedWords()
    [plural] = with_other_forms(codec, [codec.encode_target("Bank")], "the banks", [(4, 9, "Bank")], {"Bank"})
    assert forms(plural) == [codec.encode_target("Bank"), codec.encode_target("Banken")]


def test_the_terms_a_sentence_holds_in_the_plural_are_given_to_the_search_to_inflect():
    codec = NamedWords()
    guides = Guides.of(2, Glossary.of({"dog": "Hund"}))
    [plural] = guides.terms(codec, 1, ["Two dogs play.", "I see a dog."], 0, room=10)
    [singular] = guides.terms(codec, 1, ["Two dogs play.", "I see a dog."], 1, room=10)
    assert plural.inflects and codec.encode_target("Hunde") in forms(plural)
    assert forms(singular) == [codec.encode_target("Hund")] and not inflects(singular)


def test_a_sentences_endings_carry_on_its_own_term_alone_not_another_sentences_in_the_batch():
    """The endings were pooled per batch: "Polizist" (its only ending "en", B) took "Hund"'s "e" (D) in the same
    batch.  Each sentence alone, and the two together, write the same."""
    table = {(): {C: 0.9, A: 0.1}, (C,): {D: 0.9, EOS: 0.1}}  # D: an ending of the first sentence's term only
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    terms = [[Term([C], inflects=True, endings=[D])], [Term([C], inflects=True, endings=[B])]]
    decoding = Decoding(beam_size=2, alpha=0.0)
    alone = [beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[each],
                         continuing=continuing)[0][0].tokens for each in terms]
    together = beam_search(ScriptedModel(table), ONE_SOURCE.repeat(2, 1), decoding, use_cache=False, terms=terms,
                           continuing=continuing)
    assert alone == [[C, D], [C]] and [best.tokens for best, *_ in together] == alone


def test_a_terms_endings_carry_on_that_term_alone_not_another_of_its_sentence():
    """"Polizist" (its only ending "en", B) took the "e" (D) of "Hund" in the same sentence: "Polizist" + "e"."""
    table = {(): {C: 0.9, A: 0.1}, (C,): {D: 0.8, A: 0.2}, (C, D): {A: 0.9, EOS: 0.1}, (C, D, A): {EOS: 1.0},
             (C, A): {EOS: 0.9, D: 0.1}}
    continuing = torch.zeros(10, dtype=torch.bool)
    continuing[D] = True
    terms = [[Term([C], inflects=True, endings=[B]), Term([A], inflects=True, endings=[D])]]
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                           terms=terms, continuing=continuing)
    assert best.tokens == [C, A]


def test_a_term_met_in_a_form_of_fewer_pieces_is_in_the_bank_of_its_own_forms_pieces():
    """"▁Elefanten" meets "▁E" "le" "f" "ant": counted by its one piece, the hypothesis that wrote it fell behind
    those in the middle of the term's own form (the beam shared among the banks), and on Multi30k "Drei braune Hunde
    springen auf die Frau" was lost for "… springen hoch in blau gekleideten Frau hoch"."""
    constraints = Constraints.start([[Term([C, D, 8], [[A]])]], torch.device("cpu"))
    progress, valid = constraints.advance(torch.tensor([0, 0]), torch.tensor([A, C]))
    assert valid.tolist() == [[True, False], [True, True]]  # A: the form, met; C: a word of its own, the term begun
    assert progress.bank.tolist()[::2] == [3, 0] and progress.bank[3] == 1 and progress.missed[0] == 0


def test_a_term_is_not_begun_after_the_model_has_ended_its_translation():
    """"A boy throws a ball." with ball -> Spielball came out "Ein Junge wirft einen Ball. Spielball.": the model
    ended the sentence (EOS its best token after the stop), and the term was begun after it.  A (Ball) B (.) C
    (Spielball) B + EOS (0.095) outscored C B + EOS (0.05), the term in its place before the stop."""
    table = {(): {A: 0.95, C: 0.05}, (A,): {B: 1.0}, (A, B): {EOS: 0.9, C: 0.1}, (A, B, C): {B: 1.0},
             (C,): {B: 1.0}}
    stops = torch.zeros(10, dtype=torch.bool)
    stops[B] = True
    [[best]] = beam_search(ScriptedModel(table), ONE_SOURCE, Decoding(beam_size=2, alpha=0.0), use_cache=False,
                           terms=[[[C]]], stops=stops)
    assert best.tokens == [C, B] and best.log_prob == pytest.approx(math.log(0.05))


def test_a_term_may_begin_after_a_stop_where_the_model_goes_on_or_after_a_word_where_it_ends():
    """A second sentence may begin with the term ("Ein Hund rennt. Hunde bellen."), and a translation without a
    stop may end with it (TRAP: A C, where EOS is the model's best token after A)."""
    table = {(): {A: 0.9, C: 0.1}, (A,): {B: 0.9, C: 0.1}, (A, B): {D: 0.6, C: 0.4}}  # A B C + EOS: 0.324
    stops = torch.zeros(10, dtype=torch.bool)
    stops[B] = True
    decoding = Decoding(beam_size=2, alpha=0.0, n_best=2)  # the search goes on past C + EOS (0.1)
    [[second, *_]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]],
                                 stops=stops)
    [[last, *_]] = beam_search(ScriptedModel(TRAP), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]], stops=stops)
    assert second.tokens == [A, B, C] and last.tokens == [A, C]


def test_the_pieces_that_end_a_sentence_are_stops():
    codec = NamedPieces()
    codec.PIECES = ["<pad>", "<unk>", "<s>", "</s>", "▁.", ".", "!", "...", "▁?", "▁", ".\"", "▁Hund", ",", "▁.5"]
    assert stop_pieces(codec, len(codec.PIECES)).tolist() == [False] * 4 + [True] * 5 + [False] * 5


def test_a_hypothesis_that_lacks_a_term_writes_nothing_after_the_stop_the_model_ends_its_translation_with():
    """"… um hoch zu arbeiten. Ein einem Gebäude zu arbeiten." (a worker hoisted up high to work on a building, with
    building -> Gebäude): no term begun right after the stop, the words after it wrote it a word later.  A (Ball) B
    (.) D C B + EOS (0.095) outscored C B + EOS (0.05)."""
    table = {(): {A: 0.95, C: 0.05}, (A,): {B: 1.0}, (A, B): {EOS: 0.9, D: 0.1}, (A, B, D): {C: 1.0},
             (A, B, D, C): {B: 1.0}, (C,): {B: 1.0}}
    stops = torch.zeros(10, dtype=torch.bool)
    stops[B] = True
    decoding = Decoding(beam_size=2, alpha=0.0, n_best=2)  # the search goes on past C B + EOS
    [[best, *_]] = beam_search(ScriptedModel(table), ONE_SOURCE, decoding, use_cache=False, terms=[[[C]]], stops=stops)
    assert best.tokens == [C, B] and best.log_prob == pytest.approx(math.log(0.05))


def test_the_values_read_once_a_step_are_what_the_state_gives_afresh_at_every_step(monkeypatch):
    """banks.per_step keeps ``next_pieces``, ``following``, ``wanted`` and the rest for a step: at every step of
    searches with terms of several pieces, shared first pieces, a prefix and sentences that end early, each kept value
    equals the one a copy of the state without them computes, and the hypotheses' moving on (``keep``) drops them."""
    steps = []
    keep = Constraints.keep

    def checked(self, progress, chosen, groups):
        fresh = dataclasses.replace(self, step={})
        for name, kept in self.step.items():
            assert torch.equal(kept, getattr(fresh, name)()), name
        steps.append(sorted(self.step))
        keep(self, progress, chosen, groups)
        assert not self.step

    monkeypatch.setattr(Constraints, "keep", checked)
    model = ending_model(seed=3)
    src = torch.tensor([[5, 6, 7, 8, 9], [9, 8, 7, 0, 0], [11, 12, 0, 0, 0]])
    terms = [[[13, 14, 15], [13, 16]], [[20]], [[21, 22]]]
    found = beam_search(model, src, Decoding(beam_size=3, alpha=0.6, max_len_a=0.0, max_len_b=9), terms=terms,
                        prefixes=[[], [30], []])
    assert all(h.missed == 0 for hypotheses in found for h in hypotheses)
    assert len(steps) >= 3 and all({"next_pieces", "following", "wanted"} <= set(kept) for kept in steps)
