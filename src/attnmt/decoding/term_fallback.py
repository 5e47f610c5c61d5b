"""A sentence's glossary terms searched again, more freely, where the model cannot write the forms the search allows
(attnmt.decoding.batch_search.run_search).

A term's rules (term_after, term_agreement, term_cases, term_plurals, term_weak) leave out the forms its source
rules out: the dative plural's "-n" with no dative in the English, a weak noun's "-n" for a singular subject, a
consonant's "-s" but for a loanword.  Where the model knows the word only in such a form, or the pieces where the
term's forms part lead the beam astray, the constrained search, its banks holding the beam on the term, went round
it in junk before the term: "Four proposals." came out "Vier Connnnnnnnnnn Vorschlag." (the vocabulary writes
Vorschläge "▁Vor" "sch" "lä" "ge", and the model goes on only with "gen").  A wrong case ending reads far better
than junk, so a sentence with such rules is searched again with its terms' forms freed of them (``fallbacks``: each
form free to take the term's own endings) and, where it wrote none of them inflected (``inflected``), with its terms
as given alone, and the best translation whose log-prob beats the rules' by more than MARGIN is taken (``better``):
"Vier Vorschlag.".  A weak noun whose source tells its number (``numbered``) stays in it in every search: written
in the other, it says another thing ("My customer sleeps." came out "Viele Kunden schlafen."), so "Colleague is
waiting." keeps the rules' "S Kollege Jugendliche warten." where the model cannot write "Kollege" before a verb.
A wrong form the rules leave out gains the model a few nats ("Vier Verträge." -26.3, "Vier
Verträgen." -21.2, "Vier Vertrag." -21.8 on the demo model); going round a form it cannot write costs many ("Vier
Connnnnnnnnnn Vorschlag." -40.4, "Vier Vorschlag." -21.7).
The rules' translation is kept where none beats it so, and for a sentence whose terms have no rules (a plain term,
one glued to a quote alone: ``ruled``), searched once.

Whatever its terms' rules, a translation may loop round a term the model cannot place: "Contributions arrived
yesterday." with "contribution" -> "Beitrag" came out "Sechs Connnnnnnnnnnnnns Beitrag." in all three searches.  So
a translation that is ``garbled`` is searched again with no piece bigram twice (``unlooped``: "Sechs Conner bessen
sich auf die Beitrag."; the n-gram ban never bars a term's pieces), and keeps its first where that loops too.  So is
one that writes a word twice back to back right before or after a term's form (``doubled``: "The drivers parked the
trucks." with "truck" -> "Lastwagen" came out "Der Fahrer geparkten geparkten Lastwagen.", the model stalling before
the term), which is no loop of three, searched again with no piece twice (DOUBLE_BAN): "Der Fahrer geparkten
Lastwagen.", which the model scores higher (-8.3, -8.7), a translation its beam had lost.

Round a term it cannot place, the model may make words up rather than loop ("Der Skifahrer ist vor dem Rühns.",
"Holzsprüht", "besieren"): words of three pieces or more that it finds unlikely (``made_up``).  The nats spent on
them count against a translation wherever one is chosen from others: a freer search's translation that spends fewer
is taken at up to MARGIN below the first, and the search after a loop is not taken where it spends more and is MARGIN
less likely ("Die Fans, die die Tomekiikkkränt haben, Vertrag." stays).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from torch import Tensor

from attnmt.decoding.quality_measures import LOOP_RUNS, repeats
from attnmt.decoding.search import Hypothesis
from attnmt.decoding.term_after import CASE_ENDING
from attnmt.decoding.term_agreement import WRONG_NUMBER
from attnmt.decoding.term_ids import Term, forms
from attnmt.decoding.term_prefixes import Terms

# How many nats a translation searched more freely must beat the rules' by to be taken: above what writing a form
# the rules leave out gains on the demo model (up to 5.4: "Diese drei Verträge." -31.1, "Diese drei Vertrag."
# -25.7), below what junk round a form it cannot write costs (9 to 26: "Einige rotes Hünnnnn Vertrag." -39.1,
# "Einige rotes Vertrag." -23.0).
MARGIN = 8.0

# (sentences, their terms, the n-gram of pieces no translation repeats: 0 for the decoding's own) -> their hypotheses
Search = Callable[[list[int], list[Terms], int], list[list[Hypothesis]]]
# The n-gram of pieces a garbled translation is searched again without repeating (penalties' no_repeat_ngram_size):
# with 3, "Connner" came out, "n" "n" "n" a loop of pieces still.
LOOP_BAN = 2
# The n-gram of pieces a translation that doubles a word is searched again without repeating: with 2, "geparkten
# geparkten" came out "geparkten geparkte"; a ban of every piece twice may cost a sentence its second "die" or "ein",
# so its translation is taken only where the model scores it as high (``unlooped``).
DOUBLE_BAN = 1
# A word the model made up round a term (``made_up``): MADE_UP_PIECES pieces or more, under MADE_UP_LOG_PROB nats
MADE_UP_PIECES = 3
MADE_UP_LOG_PROB = -6.0


def fallbacks(terms: Terms) -> list[Terms]:
    """The ways a sentence's ``terms`` may be written more freely than their rules allow, where some term has rules
    (``ruled``): each Term's forms ``freed``; then each term as given alone.  [] where no term has rules (nothing to
    free)."""
    if not any(map(ruled, terms)):
        return []
    free = [freed(term) if isinstance(term, Term) else term for term in terms]
    given = [term if numbered(term) or not isinstance(term, Term) else list(term) for term in terms]
    return [tier for tier in (free, given) if any(new is not old for new, old in zip(tier, terms, strict=True))]


def freed(term: Term) -> Term:
    """``term`` with each form free to take its own endings ("▁Kollege" + "n"), still agreeing with the article before
    them ("Ein Kollegen" stays out: term_agreement); a weak noun whose source's number tells its form (``numbered``)
    as it is."""
    if numbered(term):
        return term
    return Term(term, term.others, True, term.endings, (), term.cases, term.articles)


def numbered(term: Sequence[int]) -> bool:
    """Whether ``term`` is a weak noun whose source's number tells its form (term_weak.numbered): a singular subject's
    "-n" form of the WRONG_NUMBER ("My customer sleeps." came out "Viele Kunden schlafen." where the fallback let it
    be written), a plural's bare form bound to take its CASE_ENDING ("Kollegen warten").  Written in the other number,
    it would change what the sentence says, which no failed search excuses."""
    return isinstance(term, Term) and (WRONG_NUMBER in term.cases or CASE_ENDING in term.rules)


def ruled(term: Sequence[int]) -> bool:
    """Whether ``term`` is a Term with rules on what follows its forms or the article before them (term_ids.Term's
    ``inflects``, ``rules``, ``cases``), which may leave out the form the model writes."""
    return isinstance(term, Term) and bool(term.inflects or term.rules or term.cases)


def inflected(tokens: Sequence[int], terms: Terms) -> bool:
    """Whether the translation ``tokens`` writes one of ``terms`` in another form than as given: one of a Term's
    other forms, or its own pieces and one of its endings ("Zwei Budgets sind ihre Waren.", "mit Anfängen")."""
    text = tuple(tokens)
    for term in (each for each in terms if isinstance(each, Term) and ruled(each)):
        written = [tuple(form) for form in term.others] + [(*term, ending) for ending in term.endings]
        if any(text[i: i + len(form)] == form for form in written for i in range(len(text))):
            return True
    return False


def better(found: list[Hypothesis], other: list[Hypothesis], spent: tuple[float, float] = (0.0, 0.0)) -> bool:
    """Whether ``other``'s best translation may be taken for ``found``'s: it holds as many of the terms, and the
    model gives it more than MARGIN nats more, or, spending fewer on words made up (``spent``: found's and other's,
    ``with_fallbacks``' ``spending``), at most MARGIN less."""
    if other[0].missed > found[0].missed:
        return False
    return other[0].log_prob > found[0].log_prob + (-MARGIN if spent[1] < spent[0] else MARGIN)


def made_up(found: Hypothesis, terms: Terms, continuing: Tensor | None) -> float:
    """The nats the model spends on words of the translation ``found`` it made up round its ``terms``: words of
    MADE_UP_PIECES pieces or more (the vocabulary holds them neither whole nor as a stem and an ending) that it gives
    under MADE_UP_LOG_PROB all told, none of them in a term's form ("Rühns", -11.3, in "Der Skifahrer ist vor dem
    Rühns."); 0.0 where it made up none, the search gave no piece's log-prob, or words are unknown (``continuing``
    None)."""
    if continuing is None or not found.token_log_probs:
        return 0.0
    placed = {at for form, i in placements(found.tokens, terms) for at in range(i, i + len(form))}
    spent, start = 0.0, 0
    for word in words(found.tokens, continuing):
        end, log_prob = start + len(word), sum(found.token_log_probs[start: start + len(word)])
        if len(word) >= MADE_UP_PIECES and placed.isdisjoint(range(start, end)) and log_prob < MADE_UP_LOG_PROB:
            spent -= log_prob
        start = end
    return spent


def with_fallbacks(search: Search, terms: list[Terms], sources: Sequence[Sequence[int]],
                   continuing: Tensor | None = None) -> list[list[Hypothesis]]:
    """Each sentence's hypotheses, by ``search`` with its ``terms``; a sentence whose terms have rules (``fallbacks``)
    and whose translation is ``improvable`` searched again with them freed, and as given but where that is
    ``needless``, the best of those that are ``better`` than its own taken (the least spent on words ``made_up``, a
    ``garbled`` one spending all, then the likeliest); then one whose translation is ``garbled`` (its ``sources``:
    token ids) or ``doubled`` (its words cut at the pieces that do not carry one on: ``continuing``) searched again
    ``unlooped``."""
    def spending(k: int, hypotheses: list[Hypothesis]) -> float:  # a loop spends all
        tokens = hypotheses[0].tokens
        return math.inf if garbled(tokens, sources[k], terms[k]) else made_up(hypotheses[0], terms[k], continuing)

    found = search(list(range(len(terms))), terms, 0)
    freer = [fallbacks(each) if improvable(hypotheses) else [] for each, hypotheses in zip(terms, found, strict=True)]
    chosen = list(found)
    for tier in range(max(map(len, freer), default=0)):
        rows = [k for k, each in enumerate(freer) if len(each) > tier and not needless(each[tier], found[k], terms[k])]
        for k, hypotheses in zip(rows, search(rows, [freer[k][tier] for k in rows], 0) if rows else [], strict=True):
            ranks = [(spending(k, each), -each[0].log_prob) for each in (hypotheses, chosen[k])]
            if better(found[k], hypotheses, (spending(k, found[k]), ranks[0][0])) and ranks[0] < ranks[1]:
                chosen[k] = hypotheses
    return unlooped(search, terms, sources, chosen, continuing)


def improvable(found: list[Hypothesis]) -> bool:
    """Whether a translation could be ``better`` than ``found``'s: a log-prob is at most 0, so none beats one of -MARGIN
    or more by MARGIN ("Ein Mann hält zwei Flaschen." -2.7 was searched again for nothing)."""
    return found[0].log_prob < -MARGIN


def needless(tier: Terms, found: list[Hypothesis], terms: Terms) -> bool:
    """Whether searching with the terms as given (``tier``: none of them ``freed``) can only lose the forms the rules
    let the model write: the rules' translation (``found``) wrote one of ``terms`` in another form (``inflected``: "mit
    Anfängen" became "mit dem Anfang")."""
    return all(not isinstance(term, Term) or numbered(term) for term in tier) and inflected(found[0].tokens, terms)


def garbled(tokens: Sequence[int], source: Sequence[int], terms: Terms) -> bool:
    """Whether the translation ``tokens`` loops where its ``source`` (token ids) and its ``terms``' forms do not: some
    run of pieces (n <= 4) comes LOOP_RUNS times back to back, more than any of theirs, as quality's repetition flag
    reads words (quality_measures.repeats): "▁Co" "n" "n" "n" … ("Sechs Connnnnnnnnnnnnns Beitrag.", a piece fourteen
    times); a term's own ("Hmmm", "Zzz") is the user's.  Not its 4-gram met twice anywhere, which the flag counts
    among words too: four pieces are often one word or two."""
    def longest(ids: Sequence[int]) -> int:
        return repeats([str(token) for token in ids])[0]

    runs, own = longest(tokens), [longest(source), *(longest(form) for term in terms for form in forms(term))]
    return runs >= LOOP_RUNS and runs > max(own)


def doubled(tokens: Sequence[int], terms: Terms, continuing: Tensor | None) -> bool:
    """Whether the translation ``tokens`` writes a word twice back to back (its ``stem`` twice: "geparkten geparkte"
    too) right before or right after one of ``terms``' forms, none of them that form: the model stalling at the term
    ("Der Fahrer geparkten geparkten Lastwagen.", "Lastwagen" the term), which ``garbled`` leaves out, a word twice
    being no loop of LOOP_RUNS; or a term's form itself twice, word for word (a number required as a term: "COVID-19
    tests are free for 2 managers." came out "… um 2 2 Manager."), not with another ending or a comma between.
    Words are cut at the pieces that do not carry one on (``continuing`` [V]: term_after.continuing_pieces; each
    piece a word where it is None).  Not elsewhere in the sentence, where German
    writes a relative pronoun before its article ("Leute, die die Straße überqueren").  The source is not read: its
    pieces twice within a word ("▁su" "m" "m" "it") are no word twice, and a word it doubles on purpose ("very very")
    keeps its translation where the model scores that one higher (``unlooped``)."""
    placed = placements(tokens, terms)
    edges = {edge for form, i in placed for edge in (i, i + len(form))}
    own = {form for form, _ in placed}
    cut = words(tokens, continuing)
    starts = [sum(map(len, cut[:k])) for k in range(len(cut) + 1)]
    return any(stem(cut[k]) == stem(cut[k + 1]) and (cut[k] not in own or cut[k] == cut[k + 1])
               and (starts[k] in edges or starts[k + 2] in edges) for k in range(len(cut) - 1))


def placements(tokens: Sequence[int], terms: Terms) -> list[tuple[tuple[int, ...], int]]:
    """Each of ``terms``' forms where ``tokens`` hold it, with the index of its first piece there."""
    return [(tuple(form), i) for term in terms for form in forms(term)
            for i in range(len(tokens) - len(form) + 1) if tuple(tokens[i: i + len(form)]) == tuple(form)]


def stem(word: tuple[int, ...]) -> tuple[int, ...]:
    """``word``'s pieces but its last, an ending it may change ("geparkten geparkte": "▁geparkt" "en", "▁geparkt"
    "e"), where it has more than one."""
    return word[:-1] if len(word) > 1 else word


def words(tokens: Sequence[int], continuing: Tensor | None) -> list[tuple[int, ...]]:
    """``tokens`` cut into words, each starting at a piece that carries no word on (``continuing`` [V]), each piece a
    word of its own where ``continuing`` is None (a tokenizer that names no pieces)."""
    cut: list[list[int]] = []
    for token in tokens:
        if cut and continuing is not None and bool(continuing[token]):
            cut[-1].append(token)
        else:
            cut.append([token])
    return [tuple(word) for word in cut]


def unlooped(search: Search, terms: list[Terms], sources: Sequence[Sequence[int]],
             chosen: list[list[Hypothesis]], continuing: Tensor | None = None) -> list[list[Hypothesis]]:
    """``chosen`` (each sentence's hypotheses), but where a sentence with terms has a ``garbled`` translation, searched
    again with its terms and no piece bigram twice (LOOP_BAN: "Sechs Conner bessen sich auf die Beitrag."), which
    leaves no run of pieces three times but through a term's pieces the ban spares, where that is not garbled, but
    for one that spends more on words made up (``made_up``) and that the model gives MARGIN nats less or fewer ("Die
    Fans, die die Tomekiikkkränt haben, Vertrag.", -74.4, came out "… Tomekiikkrüne verwemenent haben, bewint, oder
    Vertrag.", -109.8); where it has a ``doubled`` one, with no piece twice (DOUBLE_BAN: "Der Fahrer geparkten
    Lastwagen."), where that is neither and the model gives it as much."""
    def looping(k: int, found: list[Hypothesis]) -> bool:
        return bool(terms[k]) and garbled(found[0].tokens, sources[k], terms[k])

    def doubling(k: int, found: list[Hypothesis]) -> bool:
        return bool(terms[k]) and doubled(found[0].tokens, terms[k], continuing)

    def made(found: list[Hypothesis], k: int) -> float:
        return made_up(found[0], terms[k], continuing)

    chosen = list(chosen)
    looped = [k for k, found in enumerate(chosen) if looping(k, found)]
    for k, hypotheses in zip(looped, search(looped, [terms[k] for k in looped], LOOP_BAN) if looped else [],
                             strict=True):
        likely = hypotheses[0].log_prob > chosen[k][0].log_prob - MARGIN
        if not looping(k, hypotheses) and (likely or made(hypotheses, k) <= made(chosen[k], k)):
            chosen[k] = hypotheses
    twice = [k for k, found in enumerate(chosen) if k not in looped and doubling(k, found)]
    for k, hypotheses in zip(twice, search(twice, [terms[k] for k in twice], DOUBLE_BAN) if twice else [],
                             strict=True):
        if hypotheses[0].log_prob >= chosen[k][0].log_prob and not (looping(k, hypotheses) or doubling(k, hypotheses)):
            chosen[k] = hypotheses
    return chosen
