"""The searches' next tokens from the C++ extension (``csrc/top_tokens.cpp``), and how many
sentences the C++ step decodes at once."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

from attnmt.decoding.next_tokens import NextTokens
from attnmt.model import TransformerConfig


class FusedNextTokens(NextTokens):
    """The searches' next tokens in one C++ pass each (top_tokens.cpp), without writing the
    [N, V] log-probabilities.  Needs the extension (``available()``)."""

    # The C++ step decodes a few dozen sentences (a few hundred beam rows) faster per sentence
    # than hundreds, unlike the readable model (docs/design/fast-decoder.md) ...
    batch_sentences = 64
    # ... and fewer where a step's [rows, V] float32 logits would pass this: with a large vocabulary
    # (OPUS-MT's 58,101 pieces) a smaller batch was as fast and held far less memory (the logits,
    # and the keys/values of every row: docs/design/fast-decoder.md).
    logits_budget = 32 << 20

    def sentences_per_batch(self, config: TransformerConfig, rows_per_sentence: int) -> int:
        per_sentence = max(rows_per_sentence, 1) * config.vocab_size * 4
        return max(1, min(self.batch_sentences, self.logits_budget // per_sentence))

    def top_log_probs(self, logits: Tensor, k: int, banned: Sequence[int]) -> tuple[Tensor, Tensor, Tensor]:
        return torch.ops.attnmt.top_log_probs(logits, k, list(banned))

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        return torch.ops.attnmt.best_tokens(logits, list(banned))
