"""A sentence with glossary terms searched first as without them: where its translation writes them already, it stays.

The constrained search (attnmt.decoding.constraints) shares its beam among banks by the term pieces written, so half
the beam goes to hypotheses that have not written a term yet, and the translation the model prefers may be lost even
where it holds every term: with the demo model and ``dog<TAB>Hund``, "A dog runs." came out "Ein Hund rennt über einen
Hund.", where the search without a glossary writes "Ein Hund rennt.".  So a batch is first searched as without a
glossary (``PlainBatch``), and a sentence whose translations (every one of its n-best) write each of its terms as
the constrained search would meet it (``writes_terms``) keeps them; only the others (``missing``) are searched with
their terms, those of several batches together (attnmt.decoding.retry_pool).
A kept sentence's terms are the model's words, not the user's: quality reads them as it reads the same
translation without a glossary (attnmt.decoding.dictated; ``HeldBatch.plain``).

Conservative: a term is written where one of its forms (term_ids.forms) stands in the output at a place the
constrained search could have met it, no other term's form on its pieces, and what follows allowed by the form's rule
(term_after: no piece that carries the word on after ``WORD``, an ending alone after ``INFLECTED``, ...).  A form
right after the lone "▁" piece or a stop ("… Ball. Spielball."), a weak noun's form that disagrees with the article
before it (term_agreement: "Ein Jungen") or where the term brings no articles to read it by, and a form whose rule
is not read here count as not written: such a sentence is searched with its terms, as it always was.

    PlainBatch      a batch searched without terms, the sentences that miss them still to search with them
    missing         the sentences of a batch whose hypotheses miss their terms
    holds_terms     whether a sentence's n-best each write its terms, and as many times as it holds their sources
    writes_terms    whether an output writes every one of a sentence's terms as the constrained search meets them
    term_places     where an output writes one term so, as (start, end) spans of its pieces
    article_before  what the word before a weak noun's form says of its case
    rule_kept       whether what follows a form's last piece keeps to its rule
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.decoding.constraints import Terms
from attnmt.decoding.glossary import Glossary
from attnmt.decoding.search import Hypothesis
from attnmt.decoding.term_after import CASE_ENDING, COMPOUND, FIRST_PART, INFLECTED, JOINED, WORD
from attnmt.decoding.term_agreement import NONE, agreed_rule, disagrees
from attnmt.decoding.term_ids import Term, cases_of, endings_of, forms, rules_of
from attnmt.decoding.term_warnings import fewer_in, repeated_terms


@dataclass
class PlainBatch:
    """One length-sorted batch searched without its glossary terms: input indices, padded source ids src [B, S], the
    encoder's output memory [B, S, d], each sentence's prefix and terms (ids) and hypotheses, and the sentences whose
    hypotheses miss their terms (``rows``, ``missing``), to search again with them (``again``)."""

    indices: list[int]
    src: Tensor
    memory: Tensor
    prefixes: list[list[int]]
    terms: list[Terms]
    hypotheses: list[list[Hypothesis]]
    rows: list[int]

    @property
    def again(self) -> list[Terms]:
        """The terms each of ``rows`` is searched again with: its own."""
        return [self.terms[k] for k in self.rows]

    def with_terms(self, found: list[list[Hypothesis]]) -> list[list[Hypothesis]]:
        """Each sentence's hypotheses: those of ``rows`` searched with their terms (``found``, in their order), the
        others' as searched without."""
        hypotheses = list(self.hypotheses)
        for k, each in zip(self.rows, found, strict=True):
            hypotheses[k] = each
        return hypotheses


def missing(terms: list[Terms], found: list[list[Hypothesis]], keeps: Callable[[int, list[Hypothesis]], bool]
            ) -> list[int]:
    """The rows of a batch searched without terms (``found``: each sentence's hypotheses) whose sentence has
    ``terms`` that its hypotheses do not keep (``keeps(row, hypotheses)``): to search again with them."""
    return [k for k, hypotheses in enumerate(found) if terms[k] and not keeps(k, hypotheses)]


def holds_terms(tokenizer, hypotheses: list[Hypothesis], terms: Terms, prefix: int,
                pieces: tuple[Tensor | None, int | None, Tensor | None], glossary: Glossary | None,
                sentence: str) -> bool:
    """Whether each of a sentence's ``hypotheses`` (its n-best; none: no) writes every one of its ``terms``
    (``writes_terms``, ``pieces``: term_after.term_pieces) and, where ``sentence`` holds a source term of its
    ``glossary`` twice or more, its target term as many times (term_warnings.fewer_in: the constrained search
    requires it once, and tells a translation with fewer)."""
    wanted = repeated_terms(glossary, sentence) if glossary else {}
    return bool(hypotheses) and all(
        writes_terms(h.tokens, terms, prefix, *pieces)
        and not (glossary and wanted and fewer_in(wanted, glossary, tokenizer.decode(h.tokens)))
        for h in hypotheses)


def writes_terms(tokens: Sequence[int], terms: Terms, prefix: int, continuing: Tensor | None, space: int | None,
                 stops: Tensor | None) -> bool:
    """Whether ``tokens`` (an output, its first ``prefix`` the prefix's) write every one of ``terms``, each at a
    place of its own (``term_places``): the constrained search writes one term at a time, so two terms on the same
    pieces ("kleiner Junge" and "Junge") are not both met by them."""
    places = [term_places(tokens, term, prefix, continuing, space, stops) for term in terms]
    return disjoint(places, [])


def disjoint(places: list[list[tuple[int, int]]], taken: list[tuple[int, int]]) -> bool:
    """Whether each term can have one of its ``places`` (spans) that overlaps no other term's, beside ``taken``."""
    if not places:
        return True
    return any(disjoint(places[1:], [*taken, span]) for span in places[0]
               if all(span[1] <= start or end <= span[0] for start, end in taken))


def term_places(tokens: Sequence[int], term: Sequence[int], prefix: int, continuing: Tensor | None,
                space: int | None, stops: Tensor | None) -> list[tuple[int, int]]:
    """The spans (start, end) of ``tokens`` where one of ``term``'s forms stands as the constrained search meets it:
    whole in the prefix (met from the start), or after it or carried on from it, not right after the lone "▁"
    ``space`` or a stop, a weak noun's form agreeing with the article before it (``article_before``), and followed
    as the form's rule, as that article makes it, allows (``rule_kept``)."""
    found = []
    endings = endings_of(term)
    for form, rule, case in zip(forms(term), rules_of(term), cases_of(term), strict=True):
        for start in range(len(tokens) - len(form) + 1):
            end = start + len(form)
            if not form or list(tokens[start:end]) != form:
                continue
            if end <= prefix:  # the prefix holds it whole
                found.append((start, end))
                continue
            before = tokens[start - 1] if start else None
            if before is not None and (before == space or stops is not None and bool(stops[before])):
                continue
            own = rule
            if case:  # a weak noun's form: as the article before it says (term_agreement)
                kind = article_before(tokens, start, prefix, term)
                if kind is None or bool(disagrees(*(torch.tensor(v) for v in (rule, case, kind)))):
                    continue
                own = int(agreed_rule(*(torch.tensor(v) for v in (rule, case, kind))))
            if rule_kept(own, tokens[end:end + 2], endings, continuing):
                found.append((start, end))
    return found


def article_before(tokens: Sequence[int], start: int, prefix: int, term: Sequence[int]) -> int | None:
    """What the word before ``tokens[start]`` says of a weak noun after it (term_agreement: NONE, NOMINATIVE, ...),
    read by ``term``'s ``articles`` as the constrained search reads it; NONE for a form carried on from the prefix;
    None where the term brings no articles."""
    articles = term.articles if isinstance(term, Term) else None
    if articles is None:
        return None
    if start < prefix:
        return NONE
    state = torch.tensor(0)
    for token in tokens[:start]:
        state = articles.step(state, torch.tensor(token))
    return int(articles.kinds[state])


def rule_kept(rule: int, after: Sequence[int], endings: Sequence[int], continuing: Tensor | None) -> bool:
    """Whether ``after`` (the one or two pieces after a form's last, fewer at the output's end) keeps to the form's
    ``rule`` (term_after), its term's ``endings``: ``WORD`` no piece that carries the word on, ``INFLECTED`` that
    or one of its endings ending the word, ``CASE_ENDING`` such an ending, ``FIRST_PART`` no ending, ``JOINED`` a
    compound's next part (met only then), ``COMPOUND`` anything; any other rule, or ``JOINED`` and ``CASE_ENDING``
    where no piece is known to carry a word on, is not read."""
    if continuing is None:
        return rule in (WORD, INFLECTED, FIRST_PART, COMPOUND)
    first, second = [*after, None, None][:2]
    carries = lambda token: token is not None and bool(continuing[token])  # noqa: E731 - a piece that goes on a word
    if rule == WORD:
        return not carries(first)
    if rule == INFLECTED:  # after its ending, the word ends
        return not carries(first) or first in endings and not carries(second)
    if rule == CASE_ENDING:  # its case ending, and the word ends
        return first in endings and not carries(second)
    if rule == FIRST_PART:
        return not (carries(first) and first in endings)
    if rule == JOINED:
        return carries(first) and first not in endings
    return rule == COMPOUND
