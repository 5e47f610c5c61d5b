"""Dynamic beam allocation (Post and Vilar, 2018) for the constrained beam search (attnmt.decoding.constraints): the
tokens each hypothesis is offered besides its best ones (``extra_candidates``), and the order in which the beam
takes the candidates so that it is shared among the banks, the hypotheses grouped by how much of their terms they
have written (``allocate``); what each candidate's progress would be (``Progress``, whose ``bank`` ``allocate``
reads); and the state's values read once a step (``per_step``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import torch
import torch.nn.functional as F
from torch import Tensor


def extra_candidates(logits: Tensor, normaliser: Tensor, tokens: Tensor, wanted: Tensor) -> Tensor:
    """The log-probs [N, W] of the ``wanted`` tokens [N, W] (normalised by ``normaliser`` [N]);
    -inf where a wanted token is none (-1), already among the row's candidate ``tokens`` [N, K],
    or wanted twice (its first place counts): no hypothesis enters the beam twice."""
    log_probs = logits.gather(1, wanted.clamp(min=0)) - normaliser[:, None]
    seen = (wanted[:, :, None] == tokens[:, None, :]).any(dim=2)
    place = torch.arange(wanted.size(1), device=wanted.device)
    earlier = place[None, :] < place[:, None]  # [W, W]: column before row
    twice = ((wanted[:, :, None] == wanted[:, None, :]) & earlier).any(dim=2)
    return log_probs.masked_fill(seen | twice | (wanted < 0), float("-inf"))


def allocate(log_prob: Tensor, bank: Tensor) -> Tensor:
    """Dynamic beam allocation: the order [G, M] in which to take each sentence's candidates,
    given their log_prob [G, M] and bank [G, M]: the best of each bank, from the highest bank
    down, then the second best of each, and so on; candidates at -inf last.  Taking the first
    beam_size shares the beam among the banks; with one bank it is the order of log_prob."""
    by_score = log_prob.argsort(dim=1, descending=True, stable=True)
    banks = bank.gather(1, by_score)
    n_banks = int(banks.max()) + 1
    one_hot = F.one_hot(banks, n_banks)  # [G, M, banks]
    rank = (one_hot.cumsum(dim=1) * one_hot).sum(dim=2) - 1  # place within its bank, best first
    key = rank * n_banks + (n_banks - 1 - banks)
    key = key.masked_fill(log_prob.gather(1, by_score) == float("-inf"), key.numel() * n_banks)
    return by_score.gather(1, key.argsort(dim=1, stable=True))


@dataclass
class Progress:
    """The constraint state each candidate would have, each reading of its token a candidate of its
    own (``Constraints.advance``): met [M, C], current [M], depth [M]; bank [M], the constraint
    pieces written; missed [M], the terms not yet met; ended [M], the form its token ended,
    -1 where it ended none; last [M], its token; word [M], the article its last word is so far, and before [M],
    what the article before its current or just-ended term says (term_agreement)."""

    met: Tensor
    current: Tensor
    depth: Tensor
    bank: Tensor
    missed: Tensor
    ended: Tensor
    last: Tensor
    word: Tensor
    before: Tensor


class Stepping(Protocol):
    """What ``per_step`` keeps a step's values in (attnmt.decoding.constraints.Constraints' ``step``)."""

    @property
    def step(self) -> dict[str, Tensor]: ...


Owner = TypeVar("Owner", bound=Stepping)


def per_step(method: Callable[[Owner], Tensor]) -> Callable[[Owner], Tensor]:
    """A method of the constraints' state read once a step: kept in ``step`` till the hypotheses move on (``keep``
    empties it).  ``next_pieces`` was read eight times a step (by ``following``, ``parting``, ``wanted``, ``advance``),
    each a dozen tensor operations over every hypothesis."""

    @functools.wraps(method)
    def kept(self: Owner) -> Tensor:
        found = self.step.get(method.__name__)
        if found is None:
            found = self.step[method.__name__] = method(self)
        return found

    return kept
