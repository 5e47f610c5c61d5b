"""Text in, text out: tokenise, batch by length, search, detokenise.

    sentences ─ encode ─ sort by length, batches of max_tokens ─ greedy / beam search ─ decode ─ translations

One output per input sentence, in input order; blank inputs give "".  How to search is one
``Decoding`` value (attnmt.decoding).  ``score_pair`` is the teacher-forced pass over a
sentence and its translation that alignments, confidences and attention views read.
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
from attnmt.decoding import DEFAULT, Decoding
from attnmt.model import AttentionTrace, Transformer
from attnmt.search import Hypothesis, beam_search, greedy_search, next_tokens_of


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
    blank sentences left out; max_sentences None: what suits the model's search
    (``NextTokens.batch_sentences``)."""
    device = next(model.parameters()).device
    if max_sentences is None:
        max_sentences = next_tokens_of(model).batch_sentences
    if max_tokens < 1 or max_sentences < 0:
        raise ValueError(f"need max_tokens >= 1 and max_sentences >= 0, got {max_tokens}, {max_sentences}")
    c = model.config
    encoded = encode_inputs(tokenizer, sentences, c.longest_input)
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


def search_batches(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, max_tokens: int,
    max_sentences: int | None, scored: bool,
) -> Iterator[tuple[int, list[Hypothesis]]]:
    """(input index, its ``decoding.n_best`` hypotheses, best first) for every non-blank sentence,
    searched in length-sorted batches in eval mode.  Beam 1 without ``scored`` runs greedy search
    (the same output), whose hypotheses carry no scores (0.0): it adds up no log-probabilities."""
    with evaluating(model):
        for indices, src in source_batches(model, tokenizer, sentences, max_tokens, max_sentences):
            if decoding.greedy and not scored:
                found = [[Hypothesis(ids, 0.0, 0.0)] for ids in greedy_search(model, src, decoding)]
            else:
                found = beam_search(model, src, decoding)
            yield from zip(indices, found, strict=True)


def translate(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    decoding: Decoding = DEFAULT,
    max_tokens: int = 4096,
    max_sentences: int | None = None,
) -> list[str]:
    """One translation per input sentence, in input order; blank inputs give "".

    Sentences are sorted by length and batched by max_tokens padded source tokens (and
    at most max_sentences a batch, unless 0; None: what suits the model's search,
    ``NextTokens.batch_sentences``); beam_size 1 uses greedy search.  Inputs over the
    model's ``longest_input`` tokens are truncated (with a warning).  The model runs in
    eval mode and is left in the mode it came in.
    """
    outputs = [""] * len(sentences)
    for i, hypotheses in search_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, False):
        outputs[i] = tokenizer.decode(hypotheses[0].tokens)
    return outputs


def translate_n_best(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    decoding: Decoding = DEFAULT,
    max_tokens: int = 4096,
    max_sentences: int | None = None,
) -> list[list[Translation]]:
    """The ``decoding.n_best`` best translations of each input sentence, best first, with their
    scores (beam search, also for beam_size 1, where it equals greedy search); [] for blank inputs."""
    outputs: list[list[Translation]] = [[] for _ in sentences]
    for i, hypotheses in search_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, True):
        outputs[i] = [Translation(tokenizer.decode(h.tokens), h.score, h.log_prob) for h in hypotheses]
    return outputs


@dataclass
class ScoredPair:
    """One teacher-forced pass of the model over a sentence and a translation of it.

    source: the source ids; target: the output ids (no BOS, no EOS);
    probs: the probability the model gives each output id, then EOS, after the ids before it;
    trace: every attention matrix of the pass, one [1, H, ·, ·] tensor per layer.
    """

    source: list[int]
    target: list[int]
    probs: list[float]
    trace: AttentionTrace


@torch.no_grad()  # not inference_mode: the trace's tensors stay ordinary ones a notebook can change
def score_pair(model: Transformer, source: list[int], target: list[int]) -> ScoredPair:
    """Scores target ids (no BOS, no EOS) as a translation of source ids, recording the attention:
    the one pass that word alignments, token confidences and the attention views all read."""
    c = model.config
    device = next(model.parameters()).device
    with evaluating(model):
        logits, trace = model(torch.tensor([source], device=device),
                              torch.tensor([[c.bos_id, *target]], device=device), return_attention=True)
    following = torch.tensor([*target, c.eos_id], device=device)
    probs = logits[0].float().softmax(dim=-1).gather(1, following[:, None]).squeeze(1).tolist()
    return ScoredPair(source, target, probs, trace)
