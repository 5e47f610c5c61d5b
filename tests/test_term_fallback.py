"""A sentence's terms searched again more freely where the model cannot write the forms their rules allow
(attnmt.decoding.term_fallback)."""

import math

import torch
from support import EOS, ScriptedModel

from attnmt.decoding import Decoding
from attnmt.decoding.batch_search import run_search
from attnmt.decoding.search import Hypothesis
from attnmt.decoding.term_after import CASE_ENDING, WORD
from attnmt.decoding.term_agreement import BARE, CASED, WRONG_NUMBER
from attnmt.decoding.term_fallback import (
    DOUBLE_BAN,
    LOOP_BAN,
    MADE_UP_LOG_PROB,
    MARGIN,
    better,
    doubled,
    fallbacks,
    freed,
    garbled,
    made_up,
    with_fallbacks,
    words,
)
from attnmt.decoding.term_ids import Term, rules_of

# Piece 4 is the term ("▁Kollege"), 5 its ending ("n"), a piece that carries a word on; 8 the model's way round it.
CONTINUING = torch.tensor([False] * 5 + [True] + [False] * 4)
SOURCES = [[1, 2, 3], [1, 2, 3]]  # two sentences' source ids, no loop in them
# Pieces 5 and 6 carry a word on: 8 5 is "▁geparkt" "en", 8 6 "▁geparkt" "e"; 4 the term "▁Lastwagen".
ENDINGS = torch.tensor([False] * 5 + [True, True] + [False] * 3)


def kollege() -> Term:
    """The term whose rules bar its ending after it, as term_weak.numbered bars "Kollegen" for a singular subject."""
    return Term([4], (), False, [5], [WORD])


def searched(table: dict) -> Hypothesis:
    [[best]] = run_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=2, alpha=0.0), True,
                          [[]], [[kollege()]], CONTINUING)
    return best


def test_the_form_the_model_writes_is_taken_only_where_the_rules_form_costs_more_than_the_margin():
    """"Colleague is waiting." came out "S Kollege Jugendliche warten.": the model writes "Kollegen" alone; "Vier
    Verträge." stays, though the model gives "Vier Verträgen." a few nats more."""
    cannot = {(): {4: 1.0}, (4,): {5: 1.0 - 1e-5, 8: 1e-5}, (4, 8): {EOS: 1.0}}
    best = searched(cannot)
    assert best.tokens == [4, 5] and best.log_prob > -0.01
    can = {(): {4: 1.0}, (4,): {5: 0.9, 8: 0.1}, (4, 8): {EOS: 1.0}}
    best = searched(can)
    assert best.tokens == [4, 8] and math.isclose(best.log_prob, math.log(0.1), abs_tol=1e-4)


def test_a_term_is_freed_to_its_own_endings_then_written_as_given():
    free, given = fallbacks([Term([4], [[4, 5]], False, [5], [WORD, WORD])])
    assert rules_of(free[0]) != [WORD, WORD] and free[0].endings == [5] and free[0].others == [[4, 5]]
    assert given == [[4]] and type(given[0]) is list
    assert fallbacks([[4], [6, 7]]) == []  # plain terms: nothing to free
    assert fallbacks([Term([4], [[9, 4]])]) == []  # a form glued to a quote ("„" "Kollege") alone: no rules


def test_the_best_of_the_freer_searches_is_taken_and_only_for_the_sentences_with_rules():
    asked: list[list[int]] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append(rows)
        log_probs = {0: -30.0, 1: -5.0}.get(len(asked) - 1, -15.0)  # rules', freed forms', as given
        return [[Hypothesis([k], log_probs, log_probs)] for k in rows]

    chosen = with_fallbacks(search, [[Term([4], [[4, 5]], False, [5], [WORD, WORD])], [[6]]], SOURCES)
    assert asked == [[0, 1], [0], [0]]
    assert chosen[0][0].log_prob == -5.0 and chosen[1][0].log_prob == -30.0


def test_a_term_the_rules_translation_inflects_is_not_searched_again_as_given():
    """"Sie spricht mit Anfängen in der Hand." became "Sie spricht mit dem Anfang.": as given, the term can only lose
    the form the model wrote."""
    asked: list[list[int]] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append(rows)
        return [[Hypothesis([4, 5, 8] if len(asked) == 1 else [4, 8], 0.0, -30.0 + 10 * len(asked))] for _ in rows]

    [chosen] = with_fallbacks(search, [[Term([4], (), True, [5])]], SOURCES)
    assert asked == [[0], [0]] and chosen[0].tokens == [4, 8]


def test_a_weak_nouns_freed_forms_still_agree_with_the_article():
    """Freed of agreement, "I see a colleague." came out "Ein Kollegen."."""
    articles = object()
    term = freed(Term([4], [[4, 5]], False, [5], [WORD, WORD], [BARE, CASED], articles))
    assert term.cases == [BARE, CASED] and term.articles is articles and term.inflects


def test_a_weak_noun_whose_source_tells_its_number_is_written_in_it_by_every_search():
    """"My customer sleeps." came out "Viele Kunden schlafen.": freed, a singular subject's "Kunden" (term_weak's
    WRONG_NUMBER) was written, and a plural's bare form, bound to its CASE_ENDING, would be so too.  A sentence whose
    only ruled term is such a noun has nothing to search again."""
    singular = Term([4], [[6]], False, [5], [WORD, WORD], [BARE, WRONG_NUMBER], object())
    plural = Term([4], [[6]], False, [5], [CASE_ENDING, WORD], [BARE, 0], object())
    assert fallbacks([singular]) == [] and fallbacks([plural]) == []
    assert freed(singular) is singular and freed(plural) is plural
    other = Term([7], (), True, [5])
    [free, given] = fallbacks([singular, other])
    assert free[0] is singular and given[0] is singular and free[1].inflects and given[1] == [7]


def looping(tokens: list[int], banned: int, missed: int = 0) -> list[Hypothesis]:
    return [Hypothesis(tokens, -10.0 - banned, -10.0 - banned, missed)]


def test_a_looped_translation_is_searched_again_with_no_piece_bigram_twice():
    """"Contributions arrived yesterday." came out "Sechs Connnnnnnnnnnnnns Beitrag." ("▁Co" and "n" fourteen times);
    with no bigram of pieces twice, "Sechs Conner bessen sich auf die Beitrag."."""
    asked: list[tuple[list[int], int]] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append((rows, banned))
        return [looping([9, 5, 5, 5, 5, 4] if not banned else [9, 5, 5, 7, 4], banned) for _ in rows]

    [chosen] = with_fallbacks(search, [[[4]]], SOURCES)
    assert asked == [([0], 0), ([0], LOOP_BAN)] and chosen[0].tokens == [9, 5, 5, 7, 4]


def test_a_translation_that_loops_again_with_the_ban_keeps_its_first():
    asked: list[int] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append(banned)
        return [looping([9, 5, 5, 5, 4] if not banned else [9, 4, 4, 4, 8], banned) for _ in rows]

    [chosen] = with_fallbacks(search, [[[4]]], SOURCES)
    assert asked == [0, LOOP_BAN] and chosen[0].tokens == [9, 5, 5, 5, 4]


def test_a_loop_the_source_has_too_is_no_garbled_translation():
    """"Ha ha ha!" may be written "Ha ha ha!"; a piece twice in a row is no loop ("Conner"), nor four pieces met
    twice apart ("ein Mann in einem … ein Mann in einem")."""
    assert garbled([9, 5, 5, 5, 4], [1, 2, 3], [[4]]) and not garbled([9, 5, 5, 7, 4], [1, 2, 3], [[4]])
    assert not garbled([9, 5, 5, 5, 4], [1, 6, 6, 6, 3], [[4]])
    assert not garbled([1, 2, 3, 4, 9, 1, 2, 3, 4], [1, 2, 3], [[4]])  # four pieces twice apart: often a word or two


def test_a_terms_own_loop_is_no_garbled_translation():
    """A term "Hmmm" ("▁H" "m" "m" "m") is the user's: left out, the translation would lose it."""
    assert not garbled([9, 4, 5, 5, 5, 8], [1, 2, 3], [[4, 5, 5, 5]])
    assert not garbled([9, 4, 5, 5, 5, 8], [1, 2, 3], [Term([7], [[4, 5, 5, 5]])])
    assert garbled([9, 4, 5, 5, 5, 8], [1, 2, 3], [Term([7], [[4, 5]])])


def test_run_search_takes_the_translation_searched_with_no_piece_bigram_twice_where_the_first_loops():
    table = {(): {4: 1.0}, (4,): {7: 0.95, EOS: 0.05}, (4, 7): {7: 0.95, EOS: 0.05}, (4, 7, 7): {7: 0.95, EOS: 0.05},
             (4, 7, 7, 7): {EOS: 1.0}}
    [[free]] = run_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=2, alpha=0.0), True,
                          [[]], [[]], CONTINUING)
    assert free.tokens == [4, 7, 7, 7]  # without a term, the model's loop is its own
    [[best]] = run_search(ScriptedModel(table), torch.tensor([[4, 5]]), Decoding(beam_size=2, alpha=0.0), True,
                          [[]], [[[4]]], CONTINUING)
    assert best.tokens == [4, 7, 7] and best.missed == 0


def test_a_translation_no_other_could_beat_by_the_margin_is_not_searched_again():
    """"A man holds two bottles." with "bottle" -> "Flasche" scored -2.7 and was searched again: a log-prob is at most
    0, so only one under -MARGIN can be beaten by MARGIN."""
    asked: list[list[int]] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append(rows)
        return [[Hypothesis([9, 4, 8], 0.0, -MARGIN + 0.5 if k == 0 else -MARGIN - 0.5)] for k in rows]

    term = Term([4], [[4, 5]], False, [5], [WORD, WORD])
    with_fallbacks(search, [[term], [term]], SOURCES)
    assert asked == [[0, 1], [1], [1]]


def test_a_translation_is_cut_into_words_at_the_pieces_that_carry_none_on():
    assert words([9, 8, 5, 8, 6, 4], ENDINGS) == [(9,), (8, 5), (8, 6), (4,)]
    assert words([8, 5, 4], None) == [(8,), (5,), (4,)]  # a tokenizer that names no pieces: each piece a word


def test_a_word_twice_next_to_a_term_is_a_doubled_translation():
    """"The drivers parked the trucks." came out "Der Fahrer geparkten geparkten Lastwagen.", and with no piece bigram
    twice "Der Fahrer geparkten geparkte Lastwagen.": a word twice is no loop of three pieces."""
    assert doubled([9, 8, 5, 8, 5, 4], [[4]], ENDINGS) and not garbled([9, 8, 5, 8, 5, 4], [1, 2, 3], [[4]])
    assert doubled([9, 8, 5, 8, 6, 4], [[4]], ENDINGS)  # its ending changed
    assert doubled([9, 4, 7, 7, 2], [[4]], ENDINGS)  # right after the term
    assert not doubled([9, 8, 5, 7, 4], [[4]], ENDINGS)


def test_a_word_twice_away_from_the_terms_or_the_term_itself_twice_apart_is_not_doubled():
    """German writes "Leute, die die Straße überqueren"; a sentence may hold the term twice ("Router, Router", the
    comma a word of its own: 7), or in two forms ("Vertrag Verträge": 4 5)."""
    assert not doubled([7, 7, 9, 4, 2], [[4]], ENDINGS)
    assert not doubled([9, 4, 7, 4, 2], [[4]], ENDINGS)
    assert not doubled([9, 4, 4, 5, 2], [[4]], ENDINGS)
    assert not doubled([9, 8, 5, 8, 6, 4], [[4]], None)  # words unknown: "▁geparkt" "en" "▁geparkt" "e"


def test_a_terms_form_twice_word_for_word_is_doubled():
    """"COVID-19 tests are free for 2 managers." came out "Sechs Conn-Spielen um 2 2 Manager.": the number, required as
    a term (term_numbers), written twice was taken for a sentence holding the term twice, and never searched again."""
    assert doubled([9, 4, 4, 2], [[4]], ENDINGS)
    assert doubled([9, 8, 5, 8, 5, 2], [[8, 5]], ENDINGS)  # a term of two pieces


def test_pieces_twice_within_a_source_word_leave_a_doubled_translation_doubled():
    """"Six routes lead to the summit." ("▁su" "m" "m" "it") came out "Sechs Sechs Route führt die Gipfel zu."."""
    search, asked = doubling([9, 8, 5, 8, 5, 4], [9, 8, 5, 4], -8.3)
    [chosen] = with_fallbacks(search, [[[4]]], [[1, 2, 2, 3]], ENDINGS)
    assert asked == [0, DOUBLE_BAN] and chosen[0].tokens == [9, 8, 5, 4]


def doubling(first: list[int], again: list[int], log_prob: float):
    """A search whose translation doubles a word, and whose search with a ban writes ``again`` at ``log_prob``."""
    asked: list[int] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append(banned)
        return [[Hypothesis(again, log_prob, log_prob) if banned else Hypothesis(first, -8.7, -8.7)] for _ in rows]
    return search, asked


def test_a_doubled_translation_is_searched_again_with_no_piece_twice_and_taken_where_the_model_scores_it_as_high():
    """The demo model's beam lost "Der Fahrer geparkten Lastwagen." (-8.3) for "… geparkten geparkten …" (-8.7)."""
    search, asked = doubling([9, 8, 5, 8, 5, 4], [9, 8, 5, 4], -8.3)
    [chosen] = with_fallbacks(search, [[[4]]], SOURCES, ENDINGS)
    assert asked == [0, DOUBLE_BAN] and chosen[0].tokens == [9, 8, 5, 4]


def test_a_doubled_translation_keeps_its_first_where_the_ban_costs_the_model_more():
    """A ban of every piece twice may cost a sentence its second "die" ("Die Braut, die stellen das Koch Gast.")."""
    search, asked = doubling([9, 8, 5, 8, 5, 4], [9, 8, 5, 4], -9.0)
    [chosen] = with_fallbacks(search, [[[4]]], SOURCES, ENDINGS)
    assert asked == [0, DOUBLE_BAN] and chosen[0].tokens == [9, 8, 5, 8, 5, 4]


def spelled(log_prob: float, word: list[int] = [8, 5, 6]) -> Hypothesis:  # noqa: B006 (never changed)
    """ "▁Ein" ``word`` "▁Vertrag" ".", ``word``'s pieces at ``log_prob`` all told, the rest at -1 each."""
    tokens = [9, *word, 4, 7]
    pieces = [-1.0, *[log_prob / len(word)] * len(word), -1.0, -1.0, -1.0]  # and EOS
    return Hypothesis(tokens, sum(pieces), sum(pieces), 0, pieces)


def test_a_word_of_three_pieces_or_more_the_model_finds_unlikely_round_a_term_is_made_up():
    """"Der Skifahrer ist vor dem Rühns." ("▁R" "ü" "h" "n" "s", -11.3 to the demo model) for "The skiers are in front
    of the lodge."; "Schrün" -8.2, "besieren" -6.8."""
    assert made_up(spelled(MADE_UP_LOG_PROB - 1), [[4]], ENDINGS) == 1 - MADE_UP_LOG_PROB  # the nats spent on it
    assert made_up(spelled(MADE_UP_LOG_PROB + 1), [[4]], ENDINGS) == 0  # a word the model finds likely enough
    assert made_up(spelled(MADE_UP_LOG_PROB - 1, [8, 5]), [[4]], ENDINGS) == 0  # a stem and an ending: "geparkten"
    assert made_up(spelled(MADE_UP_LOG_PROB - 1), [[8, 5, 6]], ENDINGS) == 0  # the term's own: forced, unlikely
    assert made_up(spelled(MADE_UP_LOG_PROB - 1), [[4]], None) == 0  # words unknown
    assert made_up(Hypothesis([9, 8, 5, 6, 4, 7], 0.0, 0.0), [[4]], ENDINGS) == 0  # no piece's log-prob


def test_a_translation_that_spends_fewer_nats_on_words_made_up_is_better_at_a_cost_of_at_most_the_margin():
    """A wrong ending reads far better than junk: a freer search's translation spending fewer nats on words made up
    is taken at up to MARGIN nats less; one spending as many only at MARGIN nats more, as before."""
    junk = [Hypothesis([9], -30.0, -30.0)]
    for log_prob, taken in ((-30.0 - MARGIN + 0.5, True), (-30.0 - MARGIN - 0.5, False)):
        assert better(junk, [Hypothesis([9], log_prob, log_prob)], (7.0, 0.0)) is taken
    assert not better(junk, [Hypothesis([9], -25.0, -25.0)], (7.0, 7.0))
    assert not better(junk, [Hypothesis([9], -25.0, -25.0, 1)], (7.0, 0.0))  # a term fewer


def test_the_freer_translation_that_makes_up_no_word_is_taken_though_the_model_scores_it_lower():
    asked: list[list[int]] = []

    def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
        asked.append(rows)
        # rules' (a word made up), freed forms', as given: the model scores the first highest
        made, log_prob = [(spelled(-12.0), -30.0), (spelled(-2.0), -35.0), (spelled(-2.0), -37.0)][len(asked) - 1]
        return [[Hypothesis(made.tokens, 0.0, log_prob, 0, made.token_log_probs)] for _ in rows]

    [chosen] = with_fallbacks(search, [[Term([4], [[4, 5]], False, [5], [WORD, WORD])]], SOURCES, ENDINGS)
    assert len(asked) == 3 and made_up(chosen[0], [[4]], ENDINGS) == 0 and chosen[0].log_prob == -35.0


def test_the_search_after_a_loop_is_kept_out_only_where_it_makes_more_up_and_is_the_margin_less_likely():
    """"Die Fans, die die Tomekiikkkränt haben, Vertrag." (-74.4) came out "… Tomekiikkrüne verwemenent haben, bewint,
    oder Vertrag." (-109.8); "Der Mann, der die Tür aus dem geschlossenen geschlossenen … Maschinen." (-39.7), ten
    times, is better as "… von geschlossenen geschlossener Tür verst." (-27.2), a word made up."""
    loop, made = [9, 7, 7, 7, 4], [9, 8, 5, 6, 4, 7]
    for log_prob, kept in ((-20.0 - MARGIN - 0.5, loop), (-20.0 - MARGIN + 0.5, made)):
        def search(rows: list[int], terms: list, banned: int) -> list[list[Hypothesis]]:
            pieces = [-1.0, *[-12.0 / 3] * 3, -1.0, -1.0, -1.0] if banned else [-4.0] * 6  # noqa: B023
            tokens, score = (made, log_prob) if banned else (loop, -20.0)  # noqa: B023
            return [[Hypothesis(tokens, score, score, 0, pieces)] for _ in rows]
        [chosen] = with_fallbacks(search, [[[4]]], SOURCES, ENDINGS)
        assert chosen[0].tokens == kept
