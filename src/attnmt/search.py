"""Search: from a source sentence's encoding to output token ids, by greedy or beam search.

Both searches grow the output one token at a time from BOS::

    src [B, S] ─ encode ─ memory ─┐
                                  ▼
    BOS ─ decode ─ log-probs [rows, V] ─ choose next tokens ─ append ─ decode ─ …

Greedy search keeps one row per sentence and takes the most likely token.
Beam search keeps ``beam_size`` rows (hypotheses) per sentence and, each step,
the ``beam_size`` best one-token extensions among all of them (Sutskever et
al., 2014; Wu et al., 2016 for the length penalty).

Conventions shared by both:

- Pad and BOS are never generated; EOS may come at any step but the first.
  An empty output is ruled out by default (``Decoding.min_len`` 1; only a
  max_output_length of 0 gives one): a model gives it a small
  probability, yet often a larger one than any long translation's, so the
  better the search the more often it wins (Stahlberg and Byrne, 2019;
  docs/translating.md has what it cost on Multi30k); CTranslate2 rules it out
  too (``min_decoding_length=1``).
- A sentence may have at most ``max_output_length`` tokens.  There, only EOS may
  follow: beam search adds that forced EOS's log-prob like any other, so every
  hypothesis' ``log_prob`` is the model's log-probability of ``tokens + [EOS]``.
- Rows of finished sentences leave the batch (``cache.reorder`` with a smaller
  index), so the work shrinks as sentences end.
- The options (beam size, α, length limits, n-best) come in one ``Decoding`` value
  (attnmt.decoding); the next tokens are chosen from the logits by a :class:`NextTokens`
  (the model's own where it brings a faster one: the inference copy's is C++).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.attention import padding_mask
from attnmt.decoding import DEFAULT, Decoding
from attnmt.model import DecoderCache, Transformer


@dataclass
class Hypothesis:
    """One finished translation of one sentence."""

    tokens: list[int]  # output ids, without BOS and without the final EOS
    score: float  # log_prob / length_penalty(len(tokens) + 1, alpha): the final EOS counts
    log_prob: float  # plain sum of token log-probs, the final EOS included


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^α; dividing log-probs by it stops beams favouring short outputs."""
    return ((5 + length) / 6) ** alpha


def output_limits(model: Transformer, src: Tensor, decoding: Decoding) -> Tensor:
    """src [B, S] -> each sentence's max_output_length [B], from its own (unpadded) length."""
    c = model.config
    lengths = (src != c.pad_id).sum(dim=1).tolist()
    limits = [decoding.max_output_length(n, c.longest_input) for n in lengths]
    return torch.tensor(limits, device=src.device)


def row_top_k(scores: Tensor, k: int, chunk: int = 64) -> tuple[Tensor, Tensor]:
    """``scores.topk(k, dim=1)`` for scores [N, V] with a large V, found faster.

    torch.topk scans each row element by element; ``amax`` over chunks of the row is
    vectorised.  A row's k best values lie in the k chunks with the best maxima (any
    value outside them is beaten by those k maxima), so only those k·chunk values,
    and the row's last partial chunk, go to topk (docs/performance.md has the timings).
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


def ban(logits: Tensor, banned: Sequence[int]) -> Tensor:
    """logits [N, V] with the ``banned`` tokens' logits at -inf (a copy where any are banned)."""
    if not banned:
        return logits
    return logits.index_fill(1, torch.tensor(banned, device=logits.device), float("-inf"))


class NextTokens:
    """From logits to next tokens, as the searches choose them; written with PyTorch operations.

    The inference copy brings a C++ one (attnmt.fast.fused.FusedNextTokens, its
    ``next_tokens``) that never writes the [N, V] log-probabilities; ``next_tokens_of``
    picks the model's own.
    """

    # Sentences per batch that attnmt.translate uses unless told (0: its max_tokens decides).
    # Large batches suit the readable model: its per-operation costs are paid once per batch.
    batch_sentences = 0

    def top_log_probs(self, logits: Tensor, k: int, banned: Sequence[int]) -> tuple[Tensor, Tensor, Tensor]:
        """logits [N, V] -> each row's k most likely tokens under log_softmax over the whole
        vocabulary, best first, never one in ``banned``:
        (log-probs [N, k], tokens [N, k], the row's normaliser log Σ_v exp(logit_v) [N])."""
        normaliser = logits.logsumexp(dim=-1)  # [N]
        top, tokens = row_top_k(ban(logits, banned), k)
        return top - normaliser[:, None], tokens, normaliser

    def best_tokens(self, logits: Tensor, banned: Sequence[int]) -> Tensor:
        """Greedy search's choice: logits [N, V] -> each row's most likely token [N], never one in
        ``banned`` (the largest logit is the largest log-probability: no softmax needed)."""
        return row_top_k(ban(logits, banned), 1)[1][:, 0]


READABLE = NextTokens()


def next_tokens_of(model: Transformer) -> NextTokens:
    """The model's own next-token selection where it brings one (the inference copy), else the readable one."""
    return getattr(model, "next_tokens", READABLE)


@dataclass
class DecoderState:
    """The rows being decoded; each row is one hypothesis of one source sentence.

    The rows are groups of ``width`` consecutive rows, one group per sentence
    (greedy search: width 1; beam search: width beam_size after the first step).

    sentence: [N]           index of each row's sentence in the input batch
    prefix:   [N, t + 1]    BOS and the t tokens chosen so far
    memory:   [G, S, d]     encoder output per sentence group, src_mask: [G, 1, 1, S]
    cache:    keys/values of ``prefix`` (None: recompute the whole prefix every step)
    """

    model: Transformer
    sentence: Tensor
    prefix: Tensor
    memory: Tensor
    src_mask: Tensor
    cache: DecoderCache | None
    choose: NextTokens

    @classmethod
    def start(cls, model: Transformer, src: Tensor, use_cache: bool) -> DecoderState:
        """One row per sentence of src [B, S], holding just BOS."""
        c = model.config
        memory = model.encode(src)
        bos = torch.full((src.size(0), 1), c.bos_id, dtype=torch.long, device=src.device)
        return cls(
            model=model,
            sentence=torch.arange(src.size(0), device=src.device),
            prefix=bos,
            memory=memory,
            src_mask=padding_mask(src, c.pad_id),
            cache=model.start_decoding(memory) if use_cache else None,
            choose=next_tokens_of(model),
        )

    def __len__(self) -> int:
        return self.sentence.size(0)

    @property
    def width(self) -> int:
        """Rows per sentence group."""
        return len(self) // max(self.memory.size(0), 1)

    def logits(self) -> Tensor:
        """[N, V] float logits of each row's next token (one decoder step)."""
        if self.cache is None:
            # The readable path: every row gets its own copy of its sentence's memory.
            memory, src_mask = (t.repeat_interleave(self.width, dim=0) for t in (self.memory, self.src_mask))
            logits = self.model.decode(self.prefix, memory, src_mask)
        else:
            # The cache holds every earlier position; only the newest token is fed.
            logits = self.model.decode(self.prefix[:, -1:], self.memory, self.src_mask, cache=self.cache)
        return logits[:, -1].float()

    def top_next_tokens(self, k: int, banned: Sequence[int], forced: Tensor) -> tuple[Tensor, Tensor]:
        """Each row's k most likely next tokens: (log-probabilities [N, k], tokens [N, k]), best
        first.  Normalised over the whole vocabulary; pad, BOS and ``banned`` are never chosen.
        Rows where forced [N] is True are at their length limit: they may only take EOS, at the
        model's log-probability of EOS (their other k - 1 are -inf)."""
        c = self.model.config
        logits = self.logits()
        top, tokens, normaliser = self.choose.top_log_probs(logits, k, sorted({c.pad_id, c.bos_id, *banned}))
        if bool(forced.any()):
            top[forced] = float("-inf")
            top[forced, 0] = logits[forced, c.eos_id] - normaliser[forced]
            tokens[forced, 0] = c.eos_id
        return top, tokens

    def select(self, rows: Tensor, groups: Tensor | None = None) -> None:
        """Keeps rows ``rows`` [N'] (repeats and reorders allowed: beam parents) and sentence
        groups ``groups`` (None: all of them); rows must stay grouped by sentence."""
        self.sentence = self.sentence[rows]
        self.prefix = self.prefix[rows]
        if groups is not None:
            self.memory = self.memory[groups]
            self.src_mask = self.src_mask[groups]
        if self.cache is not None:
            self.cache.reorder(rows, groups)

    def keep(self, mask: Tensor) -> None:
        """Greedy search (one row per sentence): keeps the rows where mask [N] is True; no copying
        when all are."""
        if not bool(mask.all()):
            index = mask.nonzero().squeeze(1)
            self.select(index, index)

    def extend(self, tokens: Tensor) -> None:
        """Appends tokens [N], one per row."""
        self.prefix = torch.cat([self.prefix, tokens[:, None]], dim=1)


@torch.inference_mode()
def greedy_search(
    model: Transformer, src: Tensor, decoding: Decoding = DEFAULT, use_cache: bool = True
) -> list[list[int]]:
    """src [B, S] padded with pad_id -> B output id lists (no BOS, no EOS), by most likely token.

    A sentence ends at EOS or at its max_output_length; decoding stops when all have.
    EOS is ruled out before ``decoding.min_len`` tokens: by default no empty output
    (benchmarks force equal lengths with it).  ``decoding.beam_size`` is not read.
    Call ``model.eval()`` first: dropout is not switched off here.
    """
    eos, min_len = model.config.eos_id, decoding.min_len
    limits = output_limits(model, src, decoding)
    outputs: list[list[int]] = [[] for _ in range(src.size(0))]
    state = DecoderState.start(model, src, use_cache)
    state.keep(limits > 0)
    c = model.config
    banned = [sorted({c.pad_id, c.bos_id, eos}), sorted({c.pad_id, c.bos_id})]  # before min_len, after
    # The bookkeeping of a few dozen rows runs on Python lists: tensor ops cost more per call.
    sentence, limit = state.sentence.tolist(), limits[state.sentence].tolist()
    going = [True] * len(sentence)  # rows whose sentence has not ended
    step = 0
    make_room(state, limit, step)
    while any(going):
        tokens = state.choose.best_tokens(state.logits(), banned[step >= min_len])  # [N]
        step += 1
        for row, token in enumerate(tokens.tolist()):
            if going[row]:
                if token == eos:
                    going[row] = False
                else:
                    outputs[sentence[row]].append(token)
                    going[row] = limit[row] > step
        if compact(going):
            keep = [row for row, on in enumerate(going) if on]
            index = torch.tensor(keep, dtype=torch.long, device=src.device)
            state.select(index, index)  # one row per sentence: its rows and its groups alike
            tokens = tokens[index]
            sentence, limit, going = [sentence[r] for r in keep], [limit[r] for r in keep], [True] * len(keep)
            make_room(state, limit, step)
        state.extend(tokens)
    return outputs


def make_room(state: DecoderState, limit: list[int], step: int) -> None:
    """Tells the cache how many more positions greedy search may add, at most ROOM at a time: its
    rows stay in place between drops, so the keys/values can grow in place (``DecoderCache.reserve``)."""
    if state.cache is not None:
        state.cache.reserve(min(max(limit, default=step) - step, ROOM))


# Positions reserved at a time: a copy of the cache every ROOM steps costs little, and long
# inputs (whose limit is 1.5 × their length + 10) do not reserve memory for outputs they rarely reach.
ROOM = 64


# Greedy search drops the rows of ended sentences once this share of its rows has ended, not
# one by one: each drop copies every layer's cache, and an ended row kept a few more steps
# costs less (docs/performance.md).
COMPACT_SHARE = 0.5


def compact(going: list[bool]) -> bool:
    """Whether greedy search should drop its ended rows now (going: True for rows not ended)."""
    ended = going.count(False)
    return ended > 0 and ended >= COMPACT_SHARE * len(going)


@dataclass
class Candidates:
    """One-token extensions of the beams: each field [n_groups, count], best first per sentence."""

    log_prob: Tensor  # log-prob of the extended hypothesis
    row: Tensor  # the DecoderState row it extends
    token: Tensor  # the token it adds

    def take(self, pick: Tensor) -> Candidates:
        """The candidates at positions pick [n_groups, m] of each sentence's list."""
        return Candidates(self.log_prob.gather(1, pick), self.row.gather(1, pick),
                          self.token.gather(1, pick))


def top_candidates(beam_log_prob: Tensor, row_top: Tensor, row_token: Tensor, n_groups: int, count: int) -> Candidates:
    """The ``count`` best one-token extensions of each sentence's beam.

    beam_log_prob [N] (each row's log-prob so far); row_top, row_token [N, per_row]: each
    row's best next tokens' log-probs and ids, best first (``top_next_tokens``), per_row at
    least ``count`` where the vocabulary allows.  The N rows are n_groups sentences × width
    beams, a sentence's beams next to each other.  A sentence's best ``count`` come from
    its rows' best ``count`` each, so only those are compared.
    """
    width = row_top.size(0) // n_groups
    per_row = row_top.size(1)
    extended = (beam_log_prob[:, None] + row_top).view(n_groups, width * per_row)
    top, flat = extended.topk(min(count, width * per_row), dim=1)
    first_row = torch.arange(n_groups, device=flat.device)[:, None] * width
    return Candidates(top, first_row + flat // per_row, row_token.view(n_groups, -1).gather(1, flat))


def collect_finished(
    state: DecoderState, candidates: Candidates, ends: Tensor, sentences: list[int],
    finished: list[list[Hypothesis]], penalty: float,
) -> None:
    """For each candidate where ends [n_groups, m] is True, appends a Hypothesis to
    ``finished[sentences[group]]``."""
    for group, rank in ends.nonzero().tolist():
        log_prob = candidates.log_prob[group, rank].item()
        tokens = state.prefix[candidates.row[group, rank], 1:].tolist()
        finished[sentences[group]].append(Hypothesis(tokens, log_prob / penalty, log_prob))


def first_continuing(is_eos: Tensor, beam_size: int) -> Tensor:
    """Positions [n, beam_size] of the best ``beam_size`` non-EOS candidates in each row of is_eos [n, 2k].

    Candidates come best first; sorting by (is EOS, rank) puts the continuing ones first, in order.
    """
    rank = torch.arange(is_eos.size(1), device=is_eos.device)
    return (is_eos.long() * is_eos.size(1) + rank).argsort(dim=1)[:, :beam_size]


def cannot_improve(finished: list[Hypothesis], best_active_score: float, count: int) -> bool:
    """True when ``count`` hypotheses are finished and the best active one does not beat the worst of them.

    The active hypothesis is scored as if it ended now.  Growing only lowers its
    log-prob, so with α = 0 and count = n_best no active hypothesis can ever enter
    the n_best: the search is exact (CTranslate2 stops on the same condition).
    With α > 0 a longer hypothesis could still win through a larger length penalty,
    which this (like most toolkits) does not wait for; beam search then asks for
    count = beam_size, which keeps more candidates in play.  It is also what makes
    beam_size=1 equal greedy search.
    """
    if len(finished) < count:
        return False
    worst_kept = sorted(h.score for h in finished)[-count]
    return best_active_score <= worst_kept


@torch.inference_mode()
def beam_search(
    model: Transformer, src: Tensor, decoding: Decoding = DEFAULT, use_cache: bool = True
) -> list[list[Hypothesis]]:
    """src [B, S] padded with pad_id -> per sentence, up to ``decoding.n_best`` finished
    hypotheses, best first (beam_size, alpha, n_best, min_len, early_stopping: ``decoding``).

    All sentences and their beams decode together as B·beam_size rows.  Each step
    takes the 2·beam_size best extensions per sentence: the EOS ones among its top
    beam_size finish, the best beam_size others continue.  A sentence is done at
    its max_output_length or when ``cannot_improve``: with α = 0 as soon as no active
    hypothesis can enter its n_best (exact), with α > 0 once beam_size hypotheses are
    finished and none active beats them; its rows then leave the batch.
    ``early_stopping=True`` instead ends a sentence as soon as beam_size hypotheses
    are finished, whether or not an active one could beat them (Hugging Face's
    ``early_stopping=True``): a less exact search.
    EOS is ruled out before ``min_len`` tokens (unless max_output_length comes first):
    by default no empty output, which would otherwise win for some sentences.
    Call ``model.eval()`` first: dropout is not switched off here.
    """
    beam_size, alpha, n_best, min_len = decoding.beam_size, decoding.alpha, decoding.n_best, decoding.min_len
    eos = model.config.eos_id
    vocab = model.config.vocab_size - 3  # tokens that can be candidates: never pad or BOS, EOS not always
    limits = output_limits(model, src, decoding)
    limit_of = limits.tolist()
    # With α = 0 the n_best finished are final once nothing active beats them. With α > 0
    # stopping that early cost BLEU (docs/translating.md), so more must finish.
    enough = n_best if alpha == 0 else beam_size
    finished: list[list[Hypothesis]] = [[] for _ in range(src.size(0))]
    # The first step starts from one row per sentence (BOS); the beam widens after it.
    state = DecoderState.start(model, src, use_cache)
    beam_log_prob = torch.zeros(len(state), device=src.device)  # [N]
    step = 0
    while len(state):
        # Each beam has one EOS extension, so 2·beam_size candidates always
        # leave at least beam_size that continue.
        count = 2 * beam_size
        row_top, row_token = state.top_next_tokens(
            min(count, vocab), [eos] if step < min_len else [], limits[state.sentence] == step
        )
        sentences = state.sentence[::state.width].tolist()  # [n_groups]
        candidates = top_candidates(beam_log_prob, row_top, row_token, len(sentences), count)
        is_eos = candidates.token == eos
        penalty = length_penalty(step + 1, alpha)  # every candidate has step + 1 tokens, EOS included
        # Only an EOS that makes the top beam_size finishes: one ranked lower would
        # not have survived the beam (and beam_size=1 would then differ from greedy).
        collect_finished(state, candidates, is_eos[:, :beam_size], sentences, finished, penalty)
        active = candidates.take(first_continuing(is_eos, beam_size))  # [n_groups, beam_size]
        best_active = (active.log_prob[:, 0] / penalty).tolist()
        going = torch.tensor(
            [
                step < limit_of[s]
                and not (len(finished[s]) >= beam_size if decoding.early_stopping
                         else cannot_improve(finished[s], best, enough))
                for s, best in zip(sentences, best_active, strict=True)
            ],
            device=src.device,
        )
        # A beam never changes sentence: the sentences' memory only shrinks when some end.
        groups = None if bool(going.all()) else going.nonzero().squeeze(1)
        state.select(active.row[going].flatten(), groups)
        state.extend(active.token[going].flatten())
        beam_log_prob = active.log_prob[going].flatten()
        step += 1
    return [sorted(hyps, key=lambda h: h.score, reverse=True)[:n_best] for hyps in finished]
