"""Lexical constraints for beam search: target terms that every output must contain (glossaries);
and target prefixes, the tokens an output must start with (term_prefixes.prefix_table).

Constrained beam search with dynamic beam allocation (Post and Vilar, 2018), vectorised over a
batch as in Hu et al. (2019) and fairseq.  Each hypothesis keeps track of

- ``met`` [N, C]: which of its sentence's C terms it has written in full, and
- ``current``, ``depth`` [N]: the term it is in the middle of (-1: none) and how many of that
  term's pieces it has written so far.

Its *bank* is the number of constraint pieces it has produced: the pieces of the terms it met
plus ``depth``.  Each step, besides each hypothesis' best next tokens, the first piece of each
unmet term is a candidate too (``wanted``).  The beam is then shared among the banks
(``allocate``): round robin from the fullest bank down, each bank's candidates best first, so
hypotheses that have written more of the terms are kept even while they score worse than ones
that have written less.  EOS is only a candidate for a hypothesis that has met every term, so no
hypothesis finishes without them; only at the sentence's length limit does one finish with terms
missing (``missed``), ranked after every one that has them all.

A token that could start a term is read both ways, as two candidates (``advance``): as the
term's start (one reading per term it starts: "▁New" of "New York" and of "New Delhi"), after
which the hypothesis may only write the term's next piece until the term is met (``following``,
forced as a prefix's tokens are); and as a word of its own, in no term, its bank unchanged.
The banks then choose between them.  Were a started term free to break off,
each start would gain a bank over the hypotheses that wrote none, and "Acme Gm A Acme Gm Acme
GmbH" outranked the sentence, its half-written words left in the translation; were a started
term the only reading, a term's first piece that is a word of its own ("▁Ein" of "Einrad",
"▁die" of "die Bank") could no longer be written before the term: "Eine Mann … Einrad" (10eccb2,
withdrawn).  A prefix's tokens start no term (``--prefix "Ein"`` is not the start of
"Einstein"); a term the prefix holds whole is met from the start.  Typing stops mid-phrase,
though, and where the prefix ends with a term's first k pieces (term_prefixes.prefix_tails), the token
right after it is read both ways too: as a word of its own, and, where it is the term's next
piece, as the term carried on at depth k + 1 (then written whole).  ``--prefix "Ein kleiner"``
with "kleiner Junge" wrote "Ein kleiner kleiner Junge"; "auf einem Ein" + "rad" is "Einrad".
That next piece is a reading only where the model offers it among its best tokens, not offered
as a first piece is (term_prefixes.carried_tails), so "Ein" followed by "Mann" stays the word "Ein".
A term is a whole word (or words): its first piece starts a word (SentencePiece's "▁"), and
right after its last piece no piece that would carry the word on ("Hund" + "e", or a hyphen:
"Hund" + "-") may follow (term_after.continuing_pieces, from the target vocabulary), but as the rule of the form
written allows (term_after: an ending, for a source term in the plural; a compound's next part, for "dog owners"),
by that term's own endings (``endings``: "Polizist" takes "en" alone, where another term in the batch takes "e").
Nor may a term start right after SentencePiece's lone "▁" piece (``space``): its first piece brings its own "▁", and
"Der Junge" "▁" "▁2" "0" came out "Der Junge  20 Dollar", with two spaces.  Nor right after a piece that ends a
sentence (``stops``) where the model ends its translation (EOS its best token): "Ein Junge wirft einen Ball. Spielball."
came out, where the hypotheses that wrote the term before the stop now win; nor anything else after such a stop
("… um hoch zu arbeiten. Ein einem Gebäude zu arbeiten." wrote the term a word later).
A term may have other forms (attnmt.decoding.term_ids.Term: glued to a bracket or quote, "▁„" "H" "und"
beside "▁Hund"; with a capital first at a sentence's start), any of which meets it; only the model's own
choice of such a form's first piece starts it, and the search never offers one.  A term's forms that begin with
the same pieces are one reading until they part (``next_pieces``): there the hypothesis writes the next piece
of any of them that the model chooses.  A reading of each form filled a beam with copies at one score, and the
form the model writes ("▁Feuerwehrm" "änner" among twelve forms of "▁Feuerwehrm") was lost from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import Tensor

from attnmt.decoding.banks import Progress, allocate, per_step
from attnmt.decoding.term_after import CASE_ENDING, JOINED, after_space, after_stop, barred, barred_after, takes_ending
from attnmt.decoding.term_agreement import ENDING_WRITTEN, NONE, Articles, agreed_rule, disagrees
from attnmt.decoding.term_ids import articles_of, cases_of, endings_of, forms, rules_of

# Reading terms and prefixes into ids moved to attnmt.decoding.term_ids; importable from here too.
from attnmt.decoding.term_ids import fitting as fitting
from attnmt.decoding.term_ids import outermost as outermost
from attnmt.decoding.term_ids import prefix_ids as prefix_ids
from attnmt.decoding.term_ids import target_ids as target_ids
from attnmt.decoding.term_ids import term_tokens as term_tokens
from attnmt.decoding.term_prefixes import Terms, carried_tails, holds, prefix_tails


@dataclass
class Constraints:
    """The terms of G sentences and where each of their N hypotheses stands (module docstring).

    terms:   [G, C, L] token ids of each sentence's terms' forms (term_ids.forms: a term the sentence glues
             to an opening bracket or quote, or starts with, may be written so too), -1 past a form's end
             (and for sentences with fewer than C forms: empty terms, met from the start)
    lengths: [G, C] pieces per form
    term, primary: [G, C] the term each form writes, and whether it is the term's own form (``Term`` aside,
             each term's only one), which ``total`` and ``missed`` count; another form is never offered
             (``wanted``): only the model's own choice of its first piece starts it, as a prefix's tail is
             carried on (term_prefixes.carried_tails); once one form is written, no other of its term starts
    met [N, C], current [N], depth [N]: each hypothesis' progress; a sentence's hypotheses are
             consecutive rows, as in the search's DecoderState.
    ended [N]: the form the hypothesis' last token ended, -1 where it ended none (its rule: ``rule``)
    last [N]: the hypothesis' last token (-1: none yet)
    left [G]: the tokens of each sentence's prefix still to be written (forced by the search)
    tails, tail_depths [G, T]: the terms each sentence's prefix ends part-way through (-1: none),
             and how many of their pieces it holds (``prefix_tails``), until the token after it
    rules [G, C]: what may follow each form's last piece (term_ids.rules_of: the word ends; it takes an ending,
             its source term being in the plural; it is a compound's first part)
    continuing [V]: the pieces that carry a word on, which the rules bar (term_after.barred); None: any piece may
             follow a term; after [R, V + 1]: what each rule bars of them (term_after.barred_after)
    endings [G, C, E]: the ids of each form's term's own endings (term_ids.Term's ``endings``: "e", "en"), -1 past
             them, which its rule allows or bars (term_after.barred)
    space: the lone "▁" piece, after which no term may start (-1: none; ``lone_space``)
    stops [V]: the pieces that end a sentence, after which no term starts where the model ends (``arrange``)
    cases [G, C]: whether each form is a weak masculine noun's with or without its case ending (term_ids.cases_of),
             which agrees with the article right before it (term_agreement): ``articles`` reads each hypothesis'
             last ``word`` (its state), and ``before`` [N] is what the article before its term says
    """

    terms: Tensor
    lengths: Tensor
    met: Tensor
    current: Tensor
    depth: Tensor
    ended: Tensor
    last: Tensor
    left: Tensor
    tails: Tensor
    tail_depths: Tensor
    term: Tensor
    primary: Tensor
    rules: Tensor
    endings: Tensor
    cases: Tensor
    word: Tensor
    before: Tensor
    continuing: Tensor | None = None
    space: int = -1
    stops: Tensor | None = None
    articles: Articles | None = None
    after: Tensor | None = None
    step: dict[str, Tensor] = field(default_factory=dict, repr=False, compare=False)  # banks.per_step's, till keep

    @classmethod
    def start(cls, sentences: Sequence[Terms], device: torch.device, continuing: Tensor | None = None,
              space: int | None = None, prefixes: Sequence[Sequence[int]] | None = None,
              stops: Tensor | None = None) -> Constraints | None:
        """One row per sentence (nothing written yet); None where no sentence has a term.  A term
        that a sentence's prefix (``prefixes``) holds whole is met from the start: the prefix's
        tokens start no term (module docstring), yet the output holds it; one it ends part-way
        through may be carried on right after it (``prefix_tails``)."""
        if not any(sentences):
            return None
        written = [[(t, form) for t, term in enumerate(terms) for form in forms(term)] for terms in sentences]
        count = max(map(len, written))
        longest = max(len(form) for each_form in written for _, form in each_form)
        table = torch.full((len(sentences), count, longest), -1, dtype=torch.long)
        in_prefix = torch.zeros(len(sentences), count, dtype=torch.bool)
        term = torch.arange(count).repeat(len(sentences), 1) + count  # an empty form: a term of its own
        primary = torch.ones(len(sentences), count, dtype=torch.bool)
        rules = torch.zeros(len(sentences), count, dtype=torch.long)
        cases = torch.zeros(len(sentences), count, dtype=torch.long)
        own = [[endings_of(term) for term in terms for _ in forms(term)] for terms in sentences]
        endings = torch.full((len(sentences), count, max(map(len, sum(own, [])), default=0)), -1, dtype=torch.long)
        each = [prefixes[g] if prefixes else [] for g in range(len(sentences))]
        space = -1 if space is None else space
        tails = [prefix_tails(prefix, [form for _, form in each_form], space)
                 for prefix, each_form in zip(each, written, strict=True)]
        tail_table = torch.full((len(sentences), max(map(len, tails)), 2), -1, dtype=torch.long)
        for g, each_form in enumerate(written):
            rules[g, : len(each_form)] = torch.tensor([rule for term in sentences[g] for rule in rules_of(term)])
            cases[g, : len(each_form)] = torch.tensor([case for term in sentences[g] for case in cases_of(term)])
            for c, (t, form) in enumerate(each_form):
                table[g, c, : len(form)] = torch.tensor(form)
                endings[g, c, : len(own[g][c])] = torch.tensor(own[g][c], dtype=torch.long)
                in_prefix[g, c] = holds(each[g], form)
                term[g, c], primary[g, c] = t, c == 0 or each_form[c - 1][0] != t
            tail_table[g, : len(tails[g])] = torch.tensor(tails[g], dtype=torch.long).view(-1, 2)
        table, tail_table = table.to(device), tail_table.to(device)
        lengths = (table >= 0).sum(dim=2)
        start = torch.zeros(len(sentences), dtype=torch.long, device=device)
        left = torch.tensor(list(map(len, each)), dtype=torch.long, device=device)
        articles = articles_of(sentences)
        continuing = None if continuing is None else continuing.to(device)
        after = None if continuing is None else barred_after(continuing)
        return cls(table, lengths, (lengths == 0) | in_prefix.to(device), start - 1, start, start - 1,
                   start - 1, left, tail_table[:, :, 0], tail_table[:, :, 1], term.to(device), primary.to(device),
                   rules.to(device), endings.to(device), cases.to(device), start, start,
                   continuing, space, None if stops is None else stops.to(device),
                   None if articles is None else articles.to(device), after)

    def total(self) -> Tensor:
        """[G] the constraint pieces of each sentence: how long an output must at least be."""
        return (self.lengths * self.primary).sum(dim=1)

    @per_step
    def groups(self) -> Tensor:
        """[N] each row's sentence group."""
        width = self.met.size(0) // self.terms.size(0)
        return torch.arange(self.met.size(0), device=self.met.device) // width

    @per_step
    def all_met(self) -> Tensor:
        """[N] whether each hypothesis has written every term of its sentence."""
        return self.written(self.met, self.alike()).all(dim=1)

    @per_step
    def alike(self) -> Tensor:
        """[N, C, C] 1.0 where two forms of each hypothesis' sentence write one term, else 0.0 (``written``,
        ``advance``; symmetric).  Built once a step: ``written`` built it at each of its four calls a step, and
        ``advance`` once more."""
        term = self.term.index_select(0, self.groups())
        return (term[:, :, None] == term[:, None, :]).float()

    def written(self, met: Tensor, alike: Tensor) -> Tensor:
        """[M, (R,) C] whether each form's term is written, in this form or another, of the hypotheses whose
        forms ``met`` [M, (R,) C] says are written, and whose forms ``alike`` [M, C, C] says write one term
        (``alike``'s rows of those hypotheses): where any of its term's forms is met, counted (a few forms: exact in
        float) by one product; the any() of an [M, R, C, C] table took a third of ``advance``'s time in a glossary
        job."""
        counted = met.float() @ alike if met.dim() == 3 else (met.float()[:, None, :] @ alike).squeeze(1)
        return counted > 0

    @per_step
    def next_pieces(self) -> Tensor:
        """[N, C] the piece each form of a hypothesis' current term writes next, of the forms of that term that
        begin with the pieces it has written (module docstring); -1 for another form, and in no term."""
        groups = self.groups()
        terms, lengths, term = (t.index_select(0, groups) for t in (self.terms, self.lengths, self.term))
        current = self.current.clamp(min=0)
        own = terms.gather(1, current[:, None, None].expand(-1, 1, terms.size(2)))  # [N, 1, L]
        written = torch.arange(terms.size(2), device=terms.device)[None, :] < self.depth[:, None]  # [N, L]
        begins = ((terms == own) | ~written[:, None, :]).all(dim=2)  # [N, C]
        going = begins & (term == term.gather(1, current[:, None])) & (lengths > self.depth[:, None])
        place = self.depth.clamp(max=terms.size(2) - 1)[:, None, None].expand(-1, terms.size(1), 1)
        return terms.gather(2, place).squeeze(2).masked_fill(~going | (self.current < 0)[:, None], -1)

    @per_step
    def following(self) -> Tensor:
        """[N] the next piece of each hypothesis' current term, the one token it may write (a term
        once started is written whole: module docstring); -1 for a hypothesis in no term, or where
        its term's forms part (``parting``); or the case ending a weak noun's form just written must take
        (term_after.CASE_ENDING: "seinem Kollege" + "n"), forced, as the model may rank it anywhere."""
        pieces = self.next_pieces()
        first = pieces.amax(dim=1)
        first = first.masked_fill(((pieces != first[:, None]) & (pieces >= 0)).any(dim=1), -1)
        own = self.own_endings()
        return torch.where(self.rule() == CASE_ENDING, own[:, 0] if own.size(1) else -1, first)

    @per_step
    def parting(self) -> Tensor:
        """[N, C] the next pieces of the hypotheses whose term's forms part here, any of which each may write
        (``arrange`` rules out every other); -1 for the others' and for the rest."""
        return self.next_pieces().masked_fill((self.following() >= 0)[:, None], -1)

    @per_step
    def wanted(self) -> Tensor:
        """[N, 2C] tokens that make progress besides a hypothesis' best ones: the first piece of each
        unmet term, and the next pieces where its term's forms part (``parting``); -1 for none (a
        hypothesis in a term writes its next piece: ``following``)."""
        groups = self.groups()
        firsts = self.terms[:, :, 0].index_select(0, groups)
        firsts = firsts.masked_fill(self.written(self.met, self.alike()) | ~self.primary.index_select(0, groups), -1)
        return torch.cat([firsts, self.parting()], dim=1)

    def ruled_out(self) -> Tensor | None:
        """[N, V] the pieces each hypothesis may not write next: after a term, those its form's rule bars
        (term_after.barred: the pieces that would carry its word on); None where there are none.  Left out of a row's
        best tokens before they are chosen: a row whose best ones all carry the word on ("GmbH" + "a", "e",
        "ol", ...) would otherwise have none left to write, and, while the other rows write a term
        (one piece each), the beam would fill with rows at -inf."""
        if self.continuing is None or self.after is None or not bool((self.ended >= 0).any()):
            return None
        own, rule, pieces = self.own_endings(), self.rule(), len(self.continuing)  # [N, E], [N]
        # each row's rule's row of ``after``; then at its own endings (past them: the column of none), as endings
        spot = own.masked_fill(own < 0, pieces)
        ending = barred(rule[:, None], self.continuing[spot.clamp(max=pieces - 1)], torch.ones_like(spot).bool())
        return self.after.index_select(0, rule + 1).scatter_(1, spot, ending)[:, :-1]  # [N, V]

    @per_step
    def own_endings(self) -> Tensor:
        """[N, E] the ids of the endings of the term whose form each hypothesis has just ended (-1 past them, and
        where it ended none)."""
        own = self.endings[self.groups(), self.ended.clamp(min=0)]
        return own.masked_fill((self.ended < 0)[:, None], -1)

    def bars(self, rows: Tensor, tokens: Tensor) -> Tensor:
        """[rows' shape] whether each of hypotheses ``rows`` may not write the token of ``tokens`` next: what the
        rule of the form it has just written bars (term_after.barred); nothing where no pieces carry a word on."""
        if self.continuing is None:
            return torch.zeros_like(tokens, dtype=torch.bool)
        ending = (self.own_endings()[rows] == tokens[..., None]).any(dim=-1)
        return barred(self.rule()[rows], self.continuing[tokens], ending)

    @per_step
    def rule(self) -> Tensor:
        """[N] the rule (term_after) of the form each hypothesis has just ended, as the article before it makes it
        (term_agreement.agreed_rule); -1: none."""
        form, groups = self.ended.clamp(min=0), self.groups()
        rule = torch.where(self.ended >= 0, self.rules[groups, form], -1)
        return agreed_rule(rule, self.cases[groups, form], self.before)

    def advance(self, rows: Tensor, tokens: Tensor) -> tuple[Progress, Tensor]:
        """The progress of hypotheses ``rows`` [M] extended by ``tokens`` [M], in R readings of each
        token (module docstring), [M·R] candidate-major; and which readings there are, [M, R].
        Reading 0 carries the current term on, or else takes the token as a word of its own (a
        one-piece term's token meets it); the readings after it start each unmet term of several
        pieces that the token starts; a prefix's tokens start none.  Right after the prefix, the last
        readings carry on each term it ends part-way through (term_prefixes.carried_tails)."""
        groups, alike = self.groups().index_select(0, rows), self.alike().index_select(0, rows)  # [M], [M, C, C]
        lengths = self.lengths.index_select(0, groups)  # [M, C]
        left = self.left.index_select(0, groups)  # [M]: the prefix's tokens to write, this one included
        current, depth, met, pieces = (t.index_select(0, rows)
                                       for t in (self.current, self.depth, self.met, self.next_pieces()))
        just = self.rule().index_select(0, rows)  # the rule of the form each row has just written
        if self.continuing is not None:  # a compound's first part with its link ("▁Hunde"), once the model goes on
            joined = (just == JOINED) & self.continuing[tokens]
            met = met | (F.one_hot(self.ended[rows].clamp(min=0), met.size(1)).bool() & joined[:, None])
        goes = pieces == tokens[:, None]  # [M, C]: the forms the token carries on, one it ends first
        goes_on, ends = goes.any(dim=1), goes & (lengths == (depth + 1)[:, None])
        going = torch.where(ends.any(dim=1), ends.long().argmax(dim=1), goes.long().argmax(dim=1))
        firsts = self.terms[:, :, 0].index_select(0, groups).masked_fill(self.written(met, alike), -1)
        starts = (tokens[:, None] == firsts) & ((current < 0) & (left == 0))[:, None]  # [M, C]
        single, several = starts & (lengths == 1), starts & (lengths > 1)
        # one reading of a term's forms begun alike (module docstring): its first form the token starts, none of its
        # term's forms before it started ([C, C]: the column's form before the row's)
        earlier = torch.ones(several.size(1), several.size(1), dtype=alike.dtype, device=rows.device).tril(-1)
        several &= ((alike * earlier) @ several.float()[:, :, None]).squeeze(2) == 0
        count = several.sum(dim=1)
        width = int(count.max()) if len(rows) else 0
        # Each row's started terms first, in their order: the term reading j starts.
        started = several.long().argsort(dim=1, descending=True, stable=True)[:, :width]
        carried, carried_depths, carries = carried_tails(self.tails, self.tail_depths, self.terms, groups, tokens, left)
        word = self.word[rows]  # the article right before this token's word, and what it says of a weak noun
        opening = torch.zeros_like(word) if self.articles is None else self.articles.kinds[word]
        plain = torch.where(goes_on, going, torch.where(single.any(dim=1), single.long().argmax(dim=1), -1))
        current = torch.cat([plain[:, None], started, carried], dim=1)  # [M, R]
        depth = torch.cat([torch.where(goes_on, depth + 1, single.any(dim=1).long())[:, None],
                           torch.ones_like(started), carried_depths], dim=1)
        valid = torch.cat([torch.ones_like(count[:, None], dtype=torch.bool),
                           torch.arange(1, width + 1, device=rows.device)[None, :] <= count[:, None], carries], dim=1)
        done = (current >= 0) & (depth == lengths.gather(1, current.clamp(min=0)))
        ended = current.masked_fill(~done, -1)  # [M, R]
        own = self.own_endings().index_select(0, rows)
        took = takes_ending(just, own, tokens) & (ended[:, 0] < 0)  # "Patent" + "e"
        ended[:, 0] = torch.where(took, self.ended[rows], ended[:, 0])
        after = torch.where(took, ENDING_WRITTEN, torch.where(goes_on, self.before[rows], opening))
        before = torch.cat([after[:, None],
                            opening[:, None].expand_as(started), torch.full_like(carried, NONE)], dim=1)
        rule, case = (t.index_select(0, groups).gather(1, ended.clamp(min=0)) for t in (self.rules, self.cases))
        valid &= ~((ended >= 0) & disagrees(rule, case, before))  # "Ein Kunden", "dem Präsident"
        meets = done & (self.rules.index_select(0, groups).gather(1, current.clamp(min=0)) != JOINED)  # not yet
        met = met[:, None, :] | (F.one_hot(current.clamp(min=0), met.size(1)).bool() & meets[:, :, None])  # [M, R, C]
        current, depth = current.masked_fill(done, -1), depth.masked_fill(done, 0)
        written, primary = self.written(met, alike), self.primary.index_select(0, groups)[:, None, :]  # [M, R, C]
        # A term met in a form of fewer pieces ("▁Elefanten" for "▁E" "le" "f" "ant") counts its own form's: by the
        # form's, it fell behind the hypotheses in the middle of the term's own ("springen hoch in … Frau hoch").
        bank, missed = ((written & primary) * lengths[:, None, :]).sum(dim=2) + depth, (~written & primary).sum(dim=2)
        last = tokens[:, None].expand_as(done)
        word = (word if self.articles is None else self.articles.step(word, tokens))[:, None].expand_as(done)
        return Progress(met.flatten(0, 1), current.flatten(), depth.flatten(), bank.flatten(), missed.flatten(),
                        ended.flatten(), last.flatten(), word.flatten(), before.flatten()), valid

    def arrange(self, log_prob: Tensor, rows: Tensor, tokens: Tensor, eos: int,
                at_limit: Tensor, ending: Tensor) -> tuple[Tensor, Tensor, Progress, int]:
        """For candidates [G, M] (extending hypotheses ``rows`` by ``tokens``, at ``log_prob``): each
        candidate in R readings (``advance``), [G, M·R]: their log-probs, at -inf for a reading there is
        not, for EOS after a hypothesis that lacks a term and is not at its length limit (at_limit [N]),
        for a piece that would carry on a term just ended and for a term's first piece right after the
        lone "▁" (``space``: two spaces), and for any piece after a stop where the model ends a translation that
        lacks a term (``stops``; ending [N]: EOS its best token; "… Ball. Spielball."); the order [G, M·R] that
        shares the beam among the banks (``allocate``); each reading's progress ([G·M·R], group-major, in the
        readings' order); and R."""
        prefixed = self.left.index_select(0, self.groups()) > 0  # [N]: the rows that write a prefix's token
        progress, valid = self.advance(rows.flatten(), tokens.flatten())
        all_met = progress.missed.view(*tokens.shape, -1)[:, :, 0] == 0  # EOS starts no term: its first reading
        blocked = (tokens == eos) & ~(all_met | at_limit[rows])
        blocked |= self.bars(rows, tokens)  # what the rule of the form a row has just written bars
        free = (self.current[rows] < 0) & ~prefixed[rows]  # in no term, past the prefix
        last = self.last[rows]
        blocked |= free & (tokens[:, :, None] == self.wanted()[rows]).any(dim=2) & after_space(last, self.space)
        blocked |= free & ending[rows] & after_stop(last, self.stops) & ~self.all_met()[rows]  # its EOS is barred too
        parting = self.parting()[rows]  # [G, M, C]: a term's forms part; no other piece goes on
        blocked |= (parting >= 0).any(dim=2) & ~(tokens[:, :, None] == parting).any(dim=2)
        readings = valid.size(1)
        log_prob = log_prob.masked_fill(blocked, float("-inf"))[:, :, None].expand(*log_prob.shape, readings)
        log_prob = log_prob.masked_fill(~valid.view_as(log_prob), float("-inf")).flatten(1)
        return log_prob, allocate(log_prob, progress.bank.view_as(log_prob)), progress, readings

    def keep(self, progress: Progress, chosen: Tensor, groups: Tensor | None) -> None:
        """The hypotheses become the candidates at positions ``chosen`` [G, m] of each group's
        candidates in ``progress``; only sentence groups ``groups`` stay (None: all)."""
        self.step.clear()
        count = progress.bank.numel() // chosen.size(0)
        flat = chosen + torch.arange(chosen.size(0), device=chosen.device)[:, None] * count
        flat = (flat if groups is None else flat[groups]).flatten()
        self.met, self.current, self.depth, self.ended, self.last, self.word, self.before = (
            t.index_select(0, flat) for t in (progress.met, progress.current, progress.depth, progress.ended,
                                              progress.last, progress.word, progress.before))
        self.tails = self.tails.masked_fill((self.left == 0)[:, None], -1)  # carried on right after the prefix only
        self.left = (self.left - 1).clamp(min=0)
        if groups is not None:
            self.terms, self.lengths, self.left = self.terms[groups], self.lengths[groups], self.left[groups]
            self.tails, self.tail_depths = self.tails[groups], self.tail_depths[groups]
            self.term, self.primary, self.rules = self.term[groups], self.primary[groups], self.rules[groups]
            self.cases = self.cases[groups]
            self.endings = self.endings[groups]

