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
    [N, V] log-probabilities.  Needs the extension (``available()``).

    ``vocabulary_buffers``: how many [rows, V] 4-byte buffers a step's output layer writes: 1, the
    logits; 2 for torch.ao's int8 layer (fbgemm: AVX2 CPUs), which allocates its int32 products
    beside them, both afresh at every step.  ``key_value_bytes``: the bytes of each key and value
    the step keeps, 4 (float32) or 2 (float16, beside int8 layers)."""

    # The C++ step has little per-call cost to spread, so a batch holds a few dozen sentences (a
    # few hundred beam rows), not the hundreds that suit the readable model ...
    batch_sentences = 64
    # ... and fewer where a step's [rows, V] buffers would pass this many bytes: a step's memory
    # (its logits, and every row's keys/values) grows with the batch, its speed per sentence
    # hardly (the measurements: docs/performance.md).  fbgemm's two fresh buffers past it cost
    # more than memory: glibc gives their pages back and faults them in again at every step
    # (benchmarks/results/opus_int8_system_time_epyc_avx2.txt).
    logits_budget = 32 << 20
    # ... and fewer where the batch's keys and values, at 64 output positions, would pass this many
    # bytes: beam search's largest memory at OPUS-MT's size, where the output layer's pass writes no
    # logits (attnmt.fast.step.FusedDecoderStep.decode_top).  Its float32 copy decodes 26 sentences
    # a batch, not 36: about 70 MiB less at its peak for 3 % more time (benchmarks/results/
    # opus_fp32_batch_epyc_avx512.txt); beside int8 layers, whose keys and values are float16, the
    # logits' budget binds first.
    keys_values_budget = 160 << 20
    keys_values_positions = 64

    def __init__(self, vocabulary_buffers: int = 1, key_value_bytes: int = 4) -> None:
        self.vocabulary_buffers = vocabulary_buffers
        self.key_value_bytes = key_value_bytes

    def sentences_per_batch(self, config: TransformerConfig, rows_per_sentence: int) -> int:
        rows = max(rows_per_sentence, 1)
        logits = rows * config.vocab_size * 4 * self.vocabulary_buffers
        keys_values = (rows * config.decoder_layers * 2 * config.d_model * self.key_value_bytes
                       * self.keys_values_positions)
        return max(1, min(self.batch_sentences, self.logits_budget // logits, self.keys_values_budget // keys_values))

    def top_log_probs(self, logits: Tensor, k: int, banned: Sequence[int],
                      outside: Sequence[int] = ()) -> tuple[Tensor, Tensor, Tensor]:
        return torch.ops.attnmt.top_log_probs(logits, k, list(banned), list(outside))

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        return torch.ops.attnmt.best_tokens(logits, list(banned))
