"""From the logits of the next token to the token chosen: the most likely ones (greedy and beam
search) or one drawn at random (sampling).

``NextTokens`` is written with PyTorch operations; the inference copy brings a C++ one
(attnmt.fast.next_tokens.FusedNextTokens) that never writes the [N, V] log-probabilities: a model
that chooses its own next tokens is a ``ChoosesNextTokens``, and ``next_tokens_of`` picks its own.

Sampling: Random sampling: each next token drawn from the model's distribution instead of the most likely
one taken (for back-translation, where varied sources teach more than the most likely ones;
Edunov et al., 2018).

The distribution is softmax(logits / temperature), cut to its ``sampling_topk`` most likely
tokens (0: all of them) and then to the fewest most likely whose probability adds up to at
least ``sampling_topp`` (Holtzman et al., 2020), as CTranslate2 and Hugging Face do.  Each
sentence draws from a random stream of its own, seeded from ``Decoding.seed`` and the sentence's
source ids (``SentenceStreams``): the same sentence, options and seed give the same output,
whatever it is batched with and whichever rows are still running.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

import torch
from torch import Tensor

from attnmt.config import TransformerConfig
from attnmt.decoding import Decoding
from attnmt.decoding.cache import KVCache
from attnmt.model import Transformer


def row_top_k(scores: Tensor, k: int, chunk: int = 64) -> tuple[Tensor, Tensor]:
    """``scores.topk(k, dim=1)`` for scores [N, V] with a large V, found faster.

    torch.topk scans each row element by element; ``amax`` over chunks of the row is
    vectorised.  A row's k best values lie in the k chunks with the best maxima (any
    value outside them is beaten by those k maxima), so only those k·chunk values,
    and the row's last partial chunk, go to topk (the timings: docs/performance.md).
    """
    rows, vocab = scores.shape
    n_chunks = vocab // chunk
    if n_chunks <= k:
        return scores.topk(min(k, vocab), dim=1)
    full = n_chunks * chunk
    chunks = scores[:, :full].view(rows, n_chunks, chunk)
    best = chunks.amax(dim=2).topk(k, dim=1).indices  # [rows, k]
    values = chunks[torch.arange(rows, device=scores.device)[:, None], best].view(rows, k * chunk)
    columns = (best[:, :, None] * chunk + torch.arange(chunk, device=scores.device)).view(rows, k * chunk)
    if full < vocab:
        values = torch.cat([values, scores[:, full:]], dim=1)
        tail = torch.arange(full, vocab, device=scores.device).expand(rows, -1)
        columns = torch.cat([columns, tail], dim=1)
    top, position = values.topk(k, dim=1)
    return top, columns.gather(1, position)


def ban(logits: Tensor, banned: Sequence[int], in_place: bool = False) -> Tensor:
    """logits [N, V] with the ``banned`` tokens' logits at -inf (a copy where any are banned, unless
    ``in_place``: the caller's own copy)."""
    if not banned:
        return logits
    fill = logits.index_fill_ if in_place else logits.index_fill
    return fill(1, torch.tensor(banned, device=logits.device), float("-inf"))


class NextTokens:
    """From logits to next tokens, as the searches choose them; written with PyTorch operations.

    The inference copy brings a C++ one (attnmt.fast.next_tokens.FusedNextTokens, its
    ``next_tokens``: a ``ChoosesNextTokens``) that never writes the [N, V] log-probabilities;
    ``next_tokens_of`` picks the model's own.
    """

    # Sentences per batch that attnmt.decoding.translate uses unless told (0: its max_tokens decides).
    # Large batches suit the readable model: its per-operation costs are paid once per batch.
    batch_sentences = 0

    def sentences_per_batch(self, config: TransformerConfig, rows_per_sentence: int) -> int:
        """Sentences per batch for a search with ``rows_per_sentence`` rows each (beam_size);
        0: attnmt.decoding.translate's max_tokens decides."""
        return self.batch_sentences

    def top_log_probs(self, logits: Tensor, k: int, banned: Sequence[int],
                      outside: Sequence[int] = ()) -> tuple[Tensor, Tensor, Tensor]:
        """logits [N, V] -> each row's k most likely tokens under log_softmax over the vocabulary
        but ``outside`` (``outside_distribution``: pad and BOS), best first, never one in ``banned``
        or ``outside``: (log-probs [N, k], tokens [N, k], the row's normaliser log Σ_v exp(logit_v)
        over the tokens not outside [N]).  A banned token still counts in the normaliser."""
        logits = ban(logits, outside)  # no probability mass: left out before the softmax
        normaliser = logits.logsumexp(dim=-1)  # [N]
        # where pad or BOS were banned, ``logits`` is ban's copy already: the others banned in it, no second [N, V]
        top, tokens = row_top_k(ban(logits, banned, in_place=bool(outside)), k)
        return top - normaliser[:, None], tokens, normaliser

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        """Greedy search's choice: logits [N, V] -> each row's most likely token [N], never one in
        ``banned`` (the largest logit is the largest log-probability: no softmax needed)."""
        return row_top_k(ban(logits, banned), 1)[1][:, 0]

    def full_width(self, logits: Tensor) -> Tensor:
        """The logits over the whole vocabulary [N, V], for work that indexes them by token id
        (penalties, forced and wanted tokens, sampling).  The model's logits already are; an
        inference copy with a vocabulary shortlist (attnmt.fast.shortlist) computes only the
        shortlist's columns, which its own NextTokens widens here."""
        return logits


READABLE = NextTokens()


def outside_distribution(config: TransformerConfig) -> list[int]:
    """The tokens outside the next-token distribution at inference: pad and BOS, which the output
    layer has rows for (they share the vocabulary with the inputs) but no translation ever holds
    after its start.  Every next-token log-probability attnmt reports is a log-softmax over the
    other tokens, these masked *before* it: as CTranslate2 and transformers read an exported model,
    which has no pad row (attnmt.interop.marian.marian_order) and bans BOS, its start token.  Left
    in, p(pad) + p(BOS) was missing from each token's probability (about 1 % on a weak model).
    Training's loss still spreads its smoothing over the whole vocabulary."""
    return sorted({config.pad_id, config.bos_id})


def without_outside(logits: Tensor, config: TransformerConfig) -> Tensor:
    """logits [..., V] with the tokens ``outside_distribution`` at -inf, in place: the logits a
    log-softmax over the next-token distribution reads."""
    logits[..., outside_distribution(config)] = float("-inf")
    return logits


def never_generated(config: TransformerConfig, decoding: Decoding) -> list[int]:
    """Tokens no search ever chooses: pad, BOS, and the unknown piece with ``disable_unk``."""
    return sorted({*outside_distribution(config), *([config.unk_id] if decoding.disable_unk else [])})


@runtime_checkable
class ChoosesNextTokens(Protocol):
    """A model that chooses its next tokens its own way (attnmt.fast.FastTransformer: in C++, and
    over a shortlist's columns where it has one).  The model sets ``next_tokens`` itself."""

    next_tokens: NextTokens


@runtime_checkable
class ChoosesFromTheStep(Protocol):
    """A model that runs a cached decoding step and beam search's choice of its next tokens as one
    (attnmt.fast.FastTransformer: the output layer and the top-k in one C++ pass, the [N, V] logits
    never written), where it can."""

    def decode_top(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, cache: KVCache | None, k: int,
                   banned: Sequence[int], forced: Tensor | None = None,
                   outside: Sequence[int] = ()) -> tuple[Tensor, Tensor, Tensor, Tensor] | None:
        """``NextTokens.top_log_probs(logits, k, banned, outside)`` of ``decode(...)[:, -1]``'s logits for a
        cached step, and the log-prob of each row's token in forced [N] ([N]; NaN where it is -1 or
        no forced is given), the cache gaining the position; None, the cache untouched, where the
        model cannot."""

    def decode_top_recording(self, tgt_in: Tensor, memory: Tensor, src_mask: Tensor, cache: KVCache | None,
                             layer: int, k: int, banned: Sequence[int], forced: Tensor | None = None,
                             outside: Sequence[int] = ()
                             ) -> tuple[tuple[Tensor, Tensor, Tensor, Tensor], Tensor] | None:
        """``decode_top``, and decoder layer ``layer``'s cross-attention weights [N, H, S] at the new position, as
        ``Transformer.decode_recording`` gives them: a search that records its alignment keeps the fused choice."""


@runtime_checkable
class SearchesAShortlist(Protocol):
    """A model whose searches may write only a vocabulary shortlist's pieces, chosen per batch from
    its sources (attnmt.fast.FastTransformer given one: attnmt.fast.shortlist), the shortlist of the
    batch the calling thread encoded last (each thread searches its own batch's).  Its searches'
    log-probs are then normalised over that shortlist."""

    def shortlisted(self) -> bool:
        """Whether it has a shortlist now."""

    def allow(self, ids: Sequence[int]) -> None:
        """The batch this thread encoded last may also write ``ids``: the pieces a search forces or
        steers to (a prefix's, a glossary's), which off the shortlist would have log-prob -inf."""

    def whole_vocabulary_logits(self, states: Tensor) -> Tensor:
        """Decoder states [..., d_model] -> logits over the whole vocabulary [..., V], as without a
        shortlist: what a teacher-forced pass that scores a given translation reads."""


def shortlisted(model: Transformer) -> bool:
    """Whether ``model``'s searches write only a shortlist's pieces (``SearchesAShortlist``)."""
    return isinstance(model, SearchesAShortlist) and model.shortlisted()


def allow_forced(model: Transformer, ids: Iterable[int]) -> None:
    """A model that searches a shortlist may also write ``ids``, as Marian adds a batch's forced
    pieces to its shortlist: else a prefix or a glossary term off the list is lost."""
    if shortlisted(model):
        model.allow(sorted(set(ids)))


def whole_vocabulary_logits(model: Transformer, states: Tensor) -> Tensor:
    """The output layer over the whole vocabulary for decoder states [..., d_model] -> [..., V],
    shortlist or not (``SearchesAShortlist``): a teacher-forced pass scores a translation the same
    with or without the speed option, and a piece off the shortlist gets its own log-prob, not -inf."""
    return model.whole_vocabulary_logits(states) if isinstance(model, SearchesAShortlist) else model.output(states)


def next_tokens_of(model: Transformer) -> NextTokens:
    """The model's own next-token selection where it brings one (a ``ChoosesNextTokens``), else the readable one."""
    return model.next_tokens if isinstance(model, ChoosesNextTokens) else READABLE


class Sampler:
    """Greedy search's choice of next token, drawn at random by the Gumbel-max trick: the token
    whose logit + Gumbel noise is largest comes with probability softmax(logits) (Maddison et
    al., 2014), the noise from the row's sentence's own random stream (``SentenceStreams``).

    One generator for the batch, drawing over all its rows together, gave a sentence another
    sample with every other batch size, every other sentence beside it, and every time greedy
    search dropped the rows that ended.  Gumbel-max rather than a draw from the cumulative
    probabilities (as torch.multinomial draws): a sentence padded beside a longer one gets
    logits a few float32 roundings apart, which changes a Gumbel-max draw only where its two
    best noisy logits are that close, but a cumulative draw wherever it lands among the many
    tokens of tiny probability (in a hand check, 1 of 14 Multi30k sentences at sampling_topk 0).
    """

    def __init__(self, decoding: Decoding, src: Tensor, pad_id: int) -> None:
        self.top_k, self.top_p, self.temperature = (
            decoding.sampling_topk, decoding.sampling_topp, decoding.sampling_temperature)
        self.streams = SentenceStreams(decoding.seed, src, pad_id)

    def draw(self, logits: Tensor, banned: Sequence[int], sentences: Sequence[int]) -> Tensor:
        """logits [N, V] -> one token per row [N], drawn; never one in ``banned``.  Row r is the
        batch's sentence ``sentences[r]``, whose stream gives the step V numbers."""
        logits = tempered(ban(logits.float(), banned), self.temperature)
        if 0 < self.top_k < logits.size(1):
            kth = logits.topk(self.top_k, dim=1).values[:, -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
        if self.top_p < 1:
            logits = nucleus(logits, self.top_p)
        uniform = self.streams.uniform(sentences, logits.size(1))  # [N, V] in [0, 1)
        gumbel = -(-uniform.log()).log()  # a 0 gives -inf: that token is not drawn
        return (logits + gumbel).argmax(dim=1)


class SentenceStreams:
    """One random stream per sentence of a batch src [B, S] (padded with pad_id).  With a seed,
    a generator seeded from the seed and the sentence's source ids, so that its numbers depend on
    nothing else: a sentence given twice draws the same numbers, the same sample (attnmt
    translate translates a repeated sentence once anyway); another seed draws others.  With no
    seed, every sentence's stream starts at random, so a sentence given twice gets two samples."""

    def __init__(self, seed: int | None, src: Tensor, pad_id: int) -> None:
        self.device = src.device
        self.generators: list[torch.Generator] = []
        for row in src.tolist():
            if seed is None:
                start = secrets.randbits(64)
            else:
                ids = [t for t in row if t != pad_id]
                key = hashlib.blake2b(struct.pack(f"<Q{len(ids)}q", seed, *ids), digest_size=8).digest()
                start = int.from_bytes(key, "little")
            self.generators.append(torch.Generator(src.device).manual_seed(start))

    def uniform(self, sentences: Sequence[int], count: int) -> Tensor:
        """[len(sentences), count] numbers in [0, 1): row r the next ``count`` of sentence
        ``sentences[r]``'s stream."""
        numbers = torch.empty(len(sentences), count, dtype=torch.float32, device=self.device)
        for row, sentence in enumerate(sentences):
            numbers[row].uniform_(generator=self.generators[sentence])
        return numbers


def tempered(logits: Tensor, temperature: float) -> Tensor:
    """logits [N, V] / temperature, up to a constant per row (which softmax ignores): each row's
    largest logit at 0, the others below it.

    Divided as they come, float32 logits overflowed to +inf for a temperature below about 1e-38
    (several tokens tied at +inf, one drawn among them at random), and a temperature below about
    1e-45 is 0 in float32 (x / 0: inf, and NaN for a logit of 0).  Shifted so that the largest is
    0, a logit that overflows goes to -inf, never drawn, and the largest stays 0 (0 / 0 would be
    NaN): a tiny temperature gives greedy search's token, its limit."""
    shifted = logits - logits.amax(dim=1, keepdim=True)  # <= 0; NaN only where a row is all -inf
    return torch.where(shifted == 0, shifted, shifted / temperature)


def nucleus(logits: Tensor, p: float) -> Tensor:
    """logits [N, V] at -inf outside each row's nucleus: the fewest most likely tokens whose
    probabilities add up to p or more, so at least the most likely one, however small p is (a p
    below 1e-45 is 0 in float32, and ``before >= p`` held for every token, the first too)."""
    ordered, order = logits.sort(dim=1, descending=True)
    probs = ordered.softmax(dim=1)
    before = probs.cumsum(dim=1) - probs  # the probability of the tokens ahead of each
    outside = before >= p
    outside[:, 0] = False
    return logits.scatter(1, order, ordered.masked_fill(outside, float("-inf")))
