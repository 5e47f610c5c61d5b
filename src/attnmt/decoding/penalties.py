"""Rules that change the next-token logits from what a hypothesis has written so far.

Two of the decoding options the other toolkits have (CTranslate2, fairseq, Hugging Face):

- ``repetition_penalty`` r (CTRL, Keskar et al., 2019): the logit of every token already in the
  output is divided by r where it is positive and multiplied by r where it is negative, so
  with r > 1 repeating is less likely;
- ``no_repeat_ngram_size`` n: a token that would complete an n-gram the output already holds
  is ruled out (fairseq's and Hugging Face's option of that name).

Both read the output so far (without BOS); the searches apply them to the logits before
choosing, so the scores they report are those of the changed distribution.  The n-gram ban is
about the model's own repeats: it never rules out a piece the user's prefix or glossary term
forces (``exempt``), which would leave the term out of the translation, or the prefix at -inf
with the rest of the translation chosen among -inf hypotheses.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.decoding import Decoding


@dataclass(frozen=True)
class Penalties:
    repetition_penalty: float = 1.0
    no_repeat_ngram_size: int = 0

    @classmethod
    def of(cls, decoding: Decoding) -> Penalties | None:
        """The rules ``decoding`` asks for; None where it asks for none (the searches then skip them)."""
        if decoding.repetition_penalty == 1 and decoding.no_repeat_ngram_size == 0:
            return None
        return cls(decoding.repetition_penalty, decoding.no_repeat_ngram_size)

    def __call__(self, logits: Tensor, prefix: Tensor, exempt: Tensor | None = None) -> Tensor:
        """logits [N, V] of the next token after prefix [N, 1 + t] (BOS, then t tokens) -> changed logits;
        exempt [N, W]: the tokens each row's prefix or terms force next (-1: none), never banned."""
        output = prefix[:, 1:]
        if self.repetition_penalty != 1 and output.size(1):
            logits = repeated_penalised(logits, output, self.repetition_penalty)
        if self.no_repeat_ngram_size and output.size(1) >= self.no_repeat_ngram_size:
            logits = completing_ngrams_banned(logits, output, self.no_repeat_ngram_size, exempt)
        return logits


def repeated_penalised(logits: Tensor, output: Tensor, penalty: float) -> Tensor:
    """logits [N, V] with those of the tokens in output [N, t] divided by ``penalty`` where
    positive and multiplied by it where negative."""
    seen = logits.gather(1, output)
    changed = torch.where(seen > 0, seen / penalty, seen * penalty)
    return logits.scatter(1, output, changed)


def completing_ngrams_banned(logits: Tensor, output: Tensor, n: int, exempt: Tensor | None = None) -> Tensor:
    """logits [N, V] at -inf for each token that would complete an n-gram already in output [N, t]
    (t >= n): the tokens that followed an earlier occurrence of the last n - 1 tokens; the row's
    ``exempt`` [N, W] tokens (-1: none) stay as they are."""
    ngrams = output.unfold(1, n, 1)  # [N, t - n + 1, n]
    tail = output[:, output.size(1) - (n - 1):]  # [N, n - 1]
    repeats = (ngrams[:, :, : n - 1] == tail[:, None, :]).all(dim=2)  # [N, t - n + 1]
    if exempt is not None:
        repeats &= ~(ngrams[:, :, n - 1, None] == exempt[:, None, :]).any(dim=2)
    banned = ngrams[:, :, n - 1].where(repeats, ngrams[:, :, n - 1].new_tensor(-1))
    rows, places = (banned >= 0).nonzero(as_tuple=True)
    logits = logits.clone()
    logits[rows, banned[rows, places]] = float("-inf")
    return logits
