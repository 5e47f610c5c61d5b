"""Random sampling: each next token drawn from the model's distribution instead of the most likely
one taken (for back-translation, where varied sources teach more than the most likely ones;
Edunov et al., 2018).

The distribution is softmax(logits / temperature), cut to its ``sampling_topk`` most likely
tokens (0: all of them) and then to the fewest most likely whose probability adds up to at
least ``sampling_topp`` (Holtzman et al., 2020), as CTranslate2 and Hugging Face do.  Draws
come from one generator seeded with ``Decoding.seed``: the same input, options and seed give
the same output.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

from attnmt.decoding import Decoding


class Sampler:
    """Greedy search's choice of next token, drawn at random (``best_tokens``, as NextTokens has it)."""

    def __init__(self, decoding: Decoding, device: torch.device) -> None:
        self.top_k, self.top_p, self.temperature = (
            decoding.sampling_topk, decoding.sampling_topp, decoding.sampling_temperature)
        self.generator = torch.Generator(device=device)
        if decoding.seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(decoding.seed)

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        """logits [N, V] -> one token per row [N], drawn; never one in ``banned``."""
        logits = logits.float() / self.temperature
        if banned:
            logits = logits.index_fill(1, torch.tensor(banned, device=logits.device), float("-inf"))
        if 0 < self.top_k < logits.size(1):
            kth = logits.topk(self.top_k, dim=1).values[:, -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        if self.top_p < 1:
            logits = nucleus(logits, self.top_p)
        return torch.multinomial(logits.softmax(dim=1), 1, generator=self.generator).squeeze(1)


def nucleus(logits: Tensor, p: float) -> Tensor:
    """logits [N, V] at -inf outside each row's nucleus: the fewest most likely tokens whose
    probabilities add up to p or more."""
    ordered, order = logits.sort(dim=1, descending=True)
    probs = ordered.softmax(dim=1)
    before = probs.cumsum(dim=1) - probs  # the probability of the tokens ahead of each
    return logits.scatter(1, order, ordered.masked_fill(before >= p, float("-inf")))
