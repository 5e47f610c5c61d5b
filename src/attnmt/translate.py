"""Text in, text out: tokenise, batch by length, search, detokenise.

    sentences ─ encode ─ sort by length, batches of max_tokens ─ greedy / beam search ─ decode ─ translations

One output per input sentence, in input order; blank inputs give "".
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import torch
from torch import Tensor

from attnmt.data import pad_rows
from attnmt.model import Transformer
from attnmt.search import beam_search, greedy_search
from attnmt.tokenizer import Tokenizer


class TextCodec(Protocol):
    """What ``translate`` needs of a tokenizer."""

    source_eos: bool  # whether encode ends a source with </s>

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...


def length_batches(lengths: Sequence[int], max_tokens: int, max_sentences: int = 0) -> list[list[int]]:
    """Indices of ``lengths``, sorted by length, cut into batches of at most max_tokens padded
    source tokens (sentences × longest) and, unless 0, at most max_sentences sentences; a
    sentence longer than the budget gets a batch alone."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        # Sorted ascending, so sentence i is the longest of current + [i].
        full = max_sentences and len(current) == max_sentences
        if current and (full or (len(current) + 1) * lengths[i] > max_tokens):
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
    if tokenizer.source_eos:  # a cut source still ends as the model was trained to read one
        return [ids[: max_len - 1] + ids[-1:] if len(ids) > max_len else ids for ids in encoded]
    return [ids[:max_len] for ids in encoded]


@dataclass
class Translation:
    """One hypothesis for one input sentence."""

    text: str
    score: float  # log_prob / length penalty: what beam search ranks by
    log_prob: float  # log P(output + EOS | input)


def source_batches(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], max_tokens: int, max_sentences: int | None
) -> Iterator[tuple[list[int], Tensor]]:
    """(input indices, padded source ids [B, S] on the model's device) per length-sorted batch,
    blank sentences left out; max_sentences None: the model's ``batch_sentences``."""
    device = next(model.parameters()).device
    if max_sentences is None:
        max_sentences = model.batch_sentences
    if max_tokens < 1 or max_sentences < 0:
        raise ValueError(f"need max_tokens >= 1 and max_sentences >= 0, got {max_tokens}, {max_sentences}")
    c = model.config
    encoded = encode_inputs(tokenizer, sentences, c.max_positions - 2)
    nonempty = [i for i, ids in enumerate(encoded) if ids]
    for batch in length_batches([len(encoded[i]) for i in nonempty], max_tokens, max_sentences):
        indices = [nonempty[b] for b in batch]
        yield indices, pad_rows([encoded[i] for i in indices], c.pad_id).to(device)


@contextmanager
def evaluating(model: Transformer) -> Iterator[None]:
    """The model in eval mode, then back in the mode it came in."""
    was_training = model.training
    model.eval()
    try:
        yield
    finally:
        model.train(was_training)


def translate(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    beam_size: int = 4,
    alpha: float = 0.6,
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_tokens: int = 4096,
    max_sentences: int | None = None,
) -> list[str]:
    """One translation per input sentence, in input order; blank inputs give "".

    Sentences are sorted by length and batched by max_tokens padded source tokens (and
    at most max_sentences a batch, unless 0; None: the model's ``batch_sentences``);
    beam_size=1 uses greedy search.  Inputs
    over max_positions - 2 tokens are truncated (with a warning).  The model runs in
    eval mode and is left in the mode it came in.
    """
    outputs = [""] * len(sentences)
    with evaluating(model):
        for indices, src in source_batches(model, tokenizer, sentences, max_tokens, max_sentences):
            if beam_size == 1:
                results = greedy_search(model, src, max_len_a, max_len_b)
            else:
                results = [h[0].tokens for h in beam_search(model, src, beam_size, alpha, 1, max_len_a, max_len_b)]
            for i, ids in zip(indices, results, strict=True):
                outputs[i] = tokenizer.decode(ids)
    return outputs


def translate_n_best(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    n_best: int = 1,
    beam_size: int = 4,
    alpha: float = 0.6,
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_tokens: int = 4096,
    max_sentences: int | None = None,
) -> list[list[Translation]]:
    """The n_best best translations of each input sentence, best first, with their scores
    (beam search, also for beam_size 1, where it equals greedy search); [] for blank inputs."""
    outputs: list[list[Translation]] = [[] for _ in sentences]
    with evaluating(model):
        for indices, src in source_batches(model, tokenizer, sentences, max_tokens, max_sentences):
            hypotheses = beam_search(model, src, beam_size, alpha, n_best, max_len_a, max_len_b)
            for i, n_best_list in zip(indices, hypotheses, strict=True):
                outputs[i] = [Translation(tokenizer.decode(h.tokens), h.score, h.log_prob) for h in n_best_list]
    return outputs


@torch.no_grad()
def token_confidence(
    model: Transformer, tokenizer: Tokenizer, source: str, translation: str
) -> list[tuple[str, float]]:
    """Each output piece of ``translation`` (then the end of sentence) with the probability the
    model gives it after the pieces before it: how sure it was, token by token (teacher-forced)."""
    c = model.config
    src_ids = tokenizer.encode(source)[: c.max_positions - 2]
    out_ids = tokenizer.encode_target(translation)[: c.max_positions - 2]
    if not src_ids:
        return []
    device = next(model.parameters()).device
    with evaluating(model):
        logits = model(torch.tensor([src_ids], device=device), torch.tensor([[c.bos_id, *out_ids]], device=device))
    targets = torch.tensor([*out_ids, c.eos_id], device=device)
    probs = logits[0].float().softmax(dim=-1).gather(1, targets[:, None]).squeeze(1).tolist()
    return [(tokenizer.id_to_piece(i), p) for i, p in zip(targets.tolist(), probs, strict=True)]
