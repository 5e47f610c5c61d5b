"""The teacher-forced pass that quality estimation reads (attnmt.decoding.quality): a translation
given to the decoder whole, its log-probability piece by piece over the whole output layer (also
where the search read a shortlist), and the last layer's cross-attention.  ``searched_passes``
spares the work a search has done already.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

import torch
from torch import Tensor

from attnmt.attention import padding_mask
from attnmt.decoding import MAX_TOKENS
from attnmt.decoding.evaluating import evaluating
from attnmt.decoding.inputs import length_batches
from attnmt.decoding.next_tokens import whole_vocabulary_logits, without_outside
from attnmt.decoding.teacher_forcing import written_attention
from attnmt.decoding.translate import SearchedBatch
from attnmt.model import AttentionTrace, Transformer
from attnmt.text.data import pad_rows

# A searched batch's sentences are alike in length, their translations less so: the pass over them
# goes in chunks of at most this many tokens, which pad less and multiply as fast per position.
PASS_TOKENS = 512


@dataclass
class ForcedPass:
    """One translation read by the model: its source and target ids (no BOS/EOS on the target),
    log P of each target id then EOS (T + 1 of them), and the last decoder layer's cross-attention
    (mean of its heads) at the steps that wrote the target ids, [T, S] (S: source ids, </s> included)."""

    source: list[int]
    target: list[int]
    log_probs: list[float]
    cross: Tensor
    # the translation read once more with no source, where quality reads it (quality_within)
    without_source: WithoutSource | None = None


@dataclass(frozen=True)
class WithoutSource:
    """A translation read once more with no source (a source of </s> alone): words the source makes no likelier
    than nothing does are no translation of it (quality_within).  ``runs``: the runs of words it was read for,
    each word its pieces' indices (quality_within.within_runs); ``log_probs``: log P of each target id then EOS,
    so read; ``short``: the runs of a word or two it was read for (quality_within.short_runs); ``left_out``: for
    each of those its source makes far less likely (its pieces' indices), how much likelier the translation's
    other pieces and EOS are, read with the source, with the run left out (quality_within.left_out_gains)."""

    runs: list[list[list[int]]]
    log_probs: list[float]
    short: list[list[list[int]]] = field(default_factory=list)
    left_out: dict[tuple[int, ...], float] = field(default_factory=dict)


def forced_passes(model: Transformer, sources: Sequence[list[int]], targets: Sequence[list[int]],
                  max_tokens: int = MAX_TOKENS) -> Iterator[tuple[int, ForcedPass]]:
    """(pair index, its ForcedPass) for each pair with ids on both sides, teacher-forced in
    length-sorted padded batches of at most max_tokens tokens (the longer side counts)."""
    c = model.config
    device = next(model.parameters()).device
    todo = [i for i in range(len(sources)) if sources[i] and targets[i]]
    with evaluating(model), torch.inference_mode():
        for batch in length_batches([max(len(sources[i]), len(targets[i]) + 1) for i in todo], max_tokens):
            rows = [todo[b] for b in batch]
            src = pad_rows([sources[i] for i in rows], c.pad_id).to(device)
            yield from zip(rows, forced_pass(model, src, model.encode(src), [sources[i] for i in rows],
                                             [targets[i] for i in rows]), strict=True)


def forced_pass(model: Transformer, src: Tensor, memory: Tensor, sources: Sequence[list[int]],
                targets: Sequence[list[int]]) -> list[ForcedPass]:
    """The decoder, teacher-forced, over each target (ids, no BOS/EOS) against its row of the
    encoder's output: src [B, S] (row k: the ids ``sources[k]``, padded), memory [B, S, d]."""
    c = model.config
    tgt = pad_rows([[c.bos_id, *t, c.eos_id] for t in targets], c.pad_id).to(memory.device)
    trace = AttentionTrace()
    states = model.decoder_states(tgt[:, :-1], memory, padding_mask(src, c.pad_id), trace)  # [B, T + 1, d]
    following = tgt[:, 1:]
    real = following != c.pad_id  # the output layer and its softmax, the most of the pass, skip padding
    # [N, V], row k's T_k + 1 positions one after the other; the whole vocabulary's, also where the
    # model searches a shortlist: the quality does not depend on that speed option; pad and BOS at -inf,
    # outside the distribution the searches' log-probs come from (next_tokens.outside_distribution)
    logits = without_outside(whole_vocabulary_logits(model, states[real]).float(), c)
    log_probs = chosen_log_probs(logits, following[real]).tolist()
    cross = trace.cross[-1].float().mean(dim=1).cpu()  # [B, T + 1, S]
    ends = list(accumulate(len(t) + 1 for t in targets))
    return [ForcedPass(s, t, log_probs[end - len(t) - 1 : end], cross[k, : len(t), : len(s)])
            for k, (s, t, end) in enumerate(zip(sources, targets, ends, strict=True))]


def chosen_log_probs(logits: Tensor, chosen: Tensor) -> Tensor:
    """log P(y) = logit(y) - logsumexp(logits) of each row's ``chosen`` id y [N], from logits [N, V], which it
    overwrites: logsumexp's steps (max, subtract, exp, sum, log, add the max back) done in place on the logits,
    the very numbers ``logits.logsumexp(dim=-1)`` gives, where it would write an [N, V] copy to exponentiate,
    as much again as the output layer wrote (58101 pieces: 0.2 GiB for 1,000 positions)."""
    picked = logits.gather(1, chosen[:, None]).squeeze(1)  # [N], read before the logits are overwritten
    most = logits.amax(dim=-1, keepdim=True)  # [N, 1]
    most.masked_fill_(most.isinf(), 0.0)  # a row of -inf stays -inf, as logsumexp leaves it
    return picked - logits.sub_(most).exp_().sum(dim=-1).log_().add_(most.squeeze(1))


def searched_passes(model: Transformer, batch: SearchedBatch, rows: Sequence[int], targets: Sequence[list[int]],
                    known: Sequence[list[float] | None], max_tokens: int,
                    recorded: Sequence[Tensor | None] | None = None) -> Iterator[tuple[int, ForcedPass]]:
    """(pair index, its ForcedPass) for each pair with target ids: pair p is ``targets[p]`` (no
    BOS/EOS) as a translation of the batch's sentence ``rows[p]``, read against the batch's source
    ids and encoder output, in length-sorted chunks of at most max_tokens (and PASS_TOKENS) tokens.
    Where ``known[p]`` holds its log-probs [T + 1] (the search's) and ``recorded[p]`` the last layer's
    cross-attention [T, S] (the search's, ``Recording``), nothing runs; where only the log-probs are
    known, only the cross-attention is computed (``written_attention``); elsewhere the whole forced
    pass runs (``forced_pass``)."""
    c = model.config
    lengths = (batch.src != c.pad_id).sum(dim=1).tolist()
    sources = [row[:n] for row, n in zip(batch.src.tolist(), lengths, strict=True)]
    with_ids = [p for p, target in enumerate(targets) if target]
    recorded = recorded or [None] * len(targets)
    for p in with_ids:
        if known[p] is not None and recorded[p] is not None:
            s, t = sources[rows[p]], targets[p]
            yield p, ForcedPass(s, t, known[p], recorded[p][: len(t), : len(s)])
    with_ids = [p for p in with_ids if known[p] is None or recorded[p] is None]
    budget = min(max_tokens, PASS_TOKENS)
    for todo in ([p for p in with_ids if known[p] is not None], [p for p in with_ids if known[p] is None]):
        for chunk in length_batches([max(lengths[rows[p]], len(targets[p]) + 1) for p in todo], budget):
            picked = [todo[b] for b in chunk]
            index = torch.tensor([rows[p] for p in picked], device=batch.src.device)
            width = max(lengths[rows[p]] for p in picked)  # the chunk's longest source: no wider padding
            src, memory = batch.src[index, :width], batch.memory[index, :width]
            ids = [sources[rows[p]] for p in picked], [targets[p] for p in picked]
            if known[picked[0]] is None:
                yield from zip(picked, forced_pass(model, src, memory, *ids), strict=True)
            else:
                cross = written_attention(model, src, memory, ids[1])  # [B, T, S]
                yield from ((p, ForcedPass(s, t, known[p], cross[k, : len(t), : len(s)]))
                            for k, (p, s, t) in enumerate(zip(picked, *ids, strict=True)))
