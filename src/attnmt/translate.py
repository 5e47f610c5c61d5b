"""Text in, text out: tokenise, batch by length, search, detokenise.

    sentences ─ encode ─ sort by length, batches of max_tokens ─ greedy / beam search ─ decode ─ translations

One output per input sentence, in input order; blank inputs give "".
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Protocol

from attnmt.data import pad_rows
from attnmt.model import Transformer
from attnmt.search import beam_search, greedy_search


class TextCodec(Protocol):
    """What ``translate`` needs of a tokenizer."""

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...


def length_batches(lengths: Sequence[int], max_tokens: int) -> list[list[int]]:
    """Indices of ``lengths``, sorted by length, cut into batches of at most max_tokens padded
    source tokens (sentences × longest); a sentence longer than the budget gets a batch alone."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        # Sorted ascending, so sentence i is the longest of current + [i].
        if current and (len(current) + 1) * lengths[i] > max_tokens:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches


def encode_inputs(tokenizer: TextCodec, sentences: Sequence[str], max_len: int) -> list[list[int]]:
    """Token ids per sentence ([] for blank ones), truncated to max_len with one warning."""
    encoded = [tokenizer.encode(s) if s.strip() else [] for s in sentences]
    n_long = sum(len(ids) > max_len for ids in encoded)
    if n_long:
        warnings.warn(
            f"{n_long} of {len(sentences)} input sentences were longer than {max_len} tokens "
            f"(the model's max_positions minus 2) and were truncated to their first {max_len} "
            "tokens; split long lines to translate them whole",
            stacklevel=3,
        )
    return [ids[:max_len] for ids in encoded]


def translate(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    beam_size: int = 4,
    alpha: float = 0.6,
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_tokens: int = 4096,
) -> list[str]:
    """One translation per input sentence, in input order; blank inputs give "".

    Sentences are sorted by length and batched by max_tokens padded source tokens;
    beam_size=1 uses greedy search.  Inputs over max_positions - 2 tokens are
    truncated (with a warning).  The model runs in eval mode and is left in the
    mode it came in.
    """
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be positive, got {max_tokens}")
    c = model.config
    device = next(model.parameters()).device
    encoded = encode_inputs(tokenizer, sentences, c.max_positions - 2)
    nonempty = [i for i, ids in enumerate(encoded) if ids]
    outputs = [""] * len(sentences)
    was_training = model.training
    model.eval()
    try:
        for batch in length_batches([len(encoded[i]) for i in nonempty], max_tokens):
            indices = [nonempty[b] for b in batch]
            src = pad_rows([encoded[i] for i in indices], c.pad_id).to(device)
            if beam_size == 1:
                results = greedy_search(model, src, max_len_a, max_len_b)
            else:
                hyps = beam_search(model, src, beam_size, alpha, 1, max_len_a, max_len_b)
                results = [h[0].tokens for h in hyps]
            for i, ids in zip(indices, results, strict=True):
                outputs[i] = tokenizer.decode(ids)
    finally:
        model.train(was_training)
    return outputs
