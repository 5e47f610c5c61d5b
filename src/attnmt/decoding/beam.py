"""What beam search keeps of each step's one-token extensions: the ``Candidates``, and the strategy
that ranks them, handed to the search (as fairseq hands its generator a ``BeamSearch`` or a
``LexicallyConstrainedBeamSearch``):

- ``BeamSearch``: each sentence's best extensions by log-prob;
- ``ConstrainedBeamSearch``: every extension, the beam shared among the banks of hypotheses that
  have written as much of their terms (attnmt.decoding.constraints), and EOS only after all of them.

beam_search (attnmt.decoding.search) takes the first beam_size that continue of whatever order the
strategy gives, and finishes the EOS ones among the first beam_size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.decoding.constraints import Constraints, Progress, Terms


@dataclass
class Candidates:
    """One-token extensions of the beams: each field [n_groups, count], in the order the beam takes them."""

    log_prob: Tensor  # log-prob of the extended hypothesis
    row: Tensor  # the DecoderState row it extends
    token: Tensor  # the token it adds
    token_log_prob: Tensor  # that token's own log-prob after the row's tokens
    missed: Tensor | None = None  # constrained search: the terms it has not written yet

    def take(self, pick: Tensor) -> Candidates:
        """The candidates at positions pick [n_groups, m] of each sentence's list."""
        return Candidates(self.log_prob.gather(1, pick), self.row.gather(1, pick), self.token.gather(1, pick),
                          self.token_log_prob.gather(1, pick),
                          None if self.missed is None else self.missed.gather(1, pick))

    def missed_of(self, group: int, rank: int) -> int:
        """The terms that the candidate at ``rank`` of sentence ``group`` has not written."""
        return 0 if self.missed is None else int(self.missed[group, rank])


def top_candidates(beam_log_prob: Tensor, row_top: Tensor, row_token: Tensor, n_groups: int, count: int) -> Candidates:
    """The ``count`` best one-token extensions of each sentence's beam, best first.

    beam_log_prob [N] (each row's log-prob so far); row_top, row_token [N, per_row]: each
    row's best next tokens' log-probs and ids, best first (``top_next_tokens``), per_row at
    least ``count`` where the vocabulary allows.  The N rows are n_groups sentences × width
    beams, a sentence's beams next to each other.  A sentence's best ``count`` come from
    its rows' best ``count`` each, so only those are compared.
    """
    width = row_top.size(0) // n_groups
    per_row = row_top.size(1)
    extended = (beam_log_prob[:, None] + row_top).view(n_groups, width * per_row)
    top, flat = extended.topk(min(count, width * per_row), dim=1)
    first_row = torch.arange(n_groups, device=flat.device)[:, None] * width
    return Candidates(top, first_row + flat // per_row, row_token.view(n_groups, -1).gather(1, flat),
                      row_top.view(n_groups, -1).gather(1, flat))


class BeamSearch:
    """Plain beam search: each sentence's ``count`` best extensions by log-prob, best first."""

    def need(self) -> Tensor | int:
        """[B] the tokens each sentence's output must at least have for this strategy (none)."""
        return 0

    def wanted(self) -> Tensor | None:
        """[N, W] tokens each row must offer as candidates besides its best ones (-1: none), or None."""
        return None

    def forced(self, prefix: Tensor) -> Tensor:
        """[N] the token each row must write next (-1: none), given its prefix's, ``prefix`` [N]."""
        return prefix

    def ruled_out(self) -> Tensor | None:
        """[N, V] the tokens each row may not write next, or None (all may)."""
        return None

    def finished_enough(self, beam_size: int, n_best: int) -> int:
        """With α > 0, the finished hypotheses a sentence needs before it may stop (``cannot_improve``):
        a longer hypothesis may still win then, so more than n_best must finish: beam_size (what
        stopping earlier costs: docs/translating.md)."""
        return beam_size

    def rank(self, beam_log_prob: Tensor, row_top: Tensor, row_token: Tensor, n_groups: int, count: int,
             eos: int, at_limit: Tensor) -> Candidates:
        """Each sentence's extensions in the order the beam takes them, from each row's best next tokens
        row_top, row_token [N, per_row] (and the ``wanted`` ones after them); at_limit [N]: rows at
        their length limit."""
        return top_candidates(beam_log_prob, row_top, row_token, n_groups, count)

    def keep(self, pick: Tensor, groups: Tensor | None) -> None:
        """The hypotheses become the ranked candidates at positions pick [n_groups, m]; only sentence
        groups ``groups`` stay (None: all)."""


class ConstrainedBeamSearch(BeamSearch):
    """Lexically constrained beam search (attnmt.decoding.constraints): every extension, ranked so
    that the beam is shared among the banks; EOS only once a hypothesis has written all its terms
    (or at its length limit, with ``missed`` terms)."""

    def __init__(self, constraints: Constraints) -> None:
        self.constraints = constraints
        self.order: Tensor | None = None  # the last step's ranking of the candidates [n_groups, M]
        self.progress: Progress | None = None  # and each candidate's progress, in their first order

    def need(self) -> Tensor:
        return self.constraints.total()

    def wanted(self) -> Tensor:
        return self.constraints.wanted()

    def forced(self, prefix: Tensor) -> Tensor:
        """The prefix's token, else the next piece of the term the row has started: a term once
        started is written whole (attnmt.decoding.constraints); a prefix's tokens start no term."""
        return torch.where(prefix >= 0, prefix, self.constraints.following())

    def ruled_out(self) -> Tensor | None:
        return self.constraints.ruled_out()

    def finished_enough(self, beam_size: int, n_best: int) -> int:
        """Half the beam: the banks leave the hypotheses that may end (the top bank's) a slot or two a
        step, so beam_size of them finish late, for little gain (docs/translating.md)."""
        return max(n_best, beam_size // 2)

    def rank(self, beam_log_prob: Tensor, row_top: Tensor, row_token: Tensor, n_groups: int, count: int,
             eos: int, at_limit: Tensor) -> Candidates:
        """Each candidate as many times as it has readings (a token that starts a term: as a word of
        its own, and as the term's start; attnmt.decoding.constraints), the beam shared among the banks; no
        term begun by a row whose best token is EOS (the model has ended its translation)."""
        every = top_candidates(beam_log_prob, row_top, row_token, n_groups, row_top.numel())
        log_prob, self.order, self.progress, readings = self.constraints.arrange(
            every.log_prob, every.row, every.token, eos, at_limit, row_token[:, 0] == eos)
        row, token, token_log_prob = (t.repeat_interleave(readings, dim=1)
                                      for t in (every.row, every.token, every.token_log_prob))
        return Candidates(log_prob, row, token, token_log_prob, self.progress.missed.view_as(log_prob)).take(self.order)

    def keep(self, pick: Tensor, groups: Tensor | None) -> None:
        self.constraints.keep(self.progress, self.order.gather(1, pick), groups)


def strategy_for(terms: Sequence[Terms] | None, device: torch.device, continuing: Tensor | None = None,
                 space: int | None = None, prefixes: Sequence[Sequence[int]] | None = None,
                 stops: Tensor | None = None) -> BeamSearch:
    """The beam's strategy for sentences with these ``terms`` (attnmt.decoding.constraints; ``continuing``
    [V]: the pieces that may not follow a term; ``space``: the lone "▁" piece, after which no term
    starts; ``prefixes``: the sentences' prefixes, whose tokens start no term; ``stops`` [V]: the pieces that end
    a sentence, after which no term starts where the model ends): constrained where any sentence has one, else
    plain."""
    constraints = Constraints.start(terms or [], device, continuing, space, prefixes, stops)
    return BeamSearch() if constraints is None else ConstrainedBeamSearch(constraints)
