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
- The rows being decoded, their cache and their logits are a ``DecoderState``
  (attnmt.decoding.state); the cache is a ``KVCache`` (attnmt.decoding.cache), whichever the
  model made.  Rows of finished sentences leave the batch (``cache.reorder`` with a smaller
  index), so the work shrinks as sentences end.
- The options (beam size, α, length limits, n-best) come in one ``Decoding`` value
  (attnmt.decoding); the next tokens are chosen from the logits by a :class:`NextTokens`
  (attnmt.decoding.next_tokens; the inference copy brings a C++ one).
- A sentence's output may be made to start with given tokens (``prefixes``: those tokens are
  forced, one a step, and scored like any other) and, in beam search, to contain given terms
  (``terms``: lexically constrained search, attnmt.decoding.constraints, the strategy
  attnmt.decoding.beam.ConstrainedBeamSearch).  The sentence's length limit gets its prefix's
  tokens and its terms' on top (``Decoding.max_output_length``), up to the model's positions.
  A model that searches a vocabulary shortlist (attnmt.fast.shortlist) may write those tokens
  too (``allow_forced``).
- Greedy search draws its tokens at random with ``Decoding.sampling`` (attnmt.decoding.next_tokens.Sampler),
  each sentence from a random stream of its own, so that its sample does not depend on its batch;
  ``repetition_penalty`` and ``no_repeat_ngram_size`` change the logits first (attnmt.decoding.penalties).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch
from torch import Tensor

from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.beam import Candidates, strategy_for
from attnmt.decoding.constraints import Terms
from attnmt.decoding.next_tokens import Sampler, allow_forced, never_generated
from attnmt.decoding.state import DecoderState, Recording, output_limits
from attnmt.decoding.term_ids import forms
from attnmt.decoding.term_prefixes import prefix_table
from attnmt.model import Transformer


@dataclass
class Hypothesis:
    """One finished translation of one sentence."""

    tokens: list[int]  # output ids, without BOS and without the final EOS
    score: float  # log_prob / length_penalty(len(tokens) + 1, alpha): the final EOS counts
    log_prob: float  # plain sum of token log-probs, the final EOS included
    missed: int = 0  # constrained search: terms not written (only where the length limit came first)
    # Each token's log-prob, then the final EOS's, as the search scored them ([] where it adds up none).
    token_log_probs: list[float] = field(default_factory=list)
    # Where the search recorded them (attnmt.decoding.state.Recording): [len(tokens), S] cross-attention
    # weights of the steps that wrote the tokens, over the batch's padded source positions.
    attention: Tensor | None = None


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^α; dividing log-probs by it stops beams favouring short outputs."""
    return ((5 + length) / 6) ** alpha


@torch.inference_mode()
def greedy_search(
    model: Transformer, src: Tensor, decoding: Decoding = DEFAULT, use_cache: bool = True,
    prefixes: Sequence[Sequence[int]] | None = None, memory: Tensor | None = None,
) -> list[list[int]]:
    """src [B, S] padded with pad_id -> B output id lists (no BOS, no EOS), by most likely token
    (drawn at random with ``decoding.sampling``), each starting with its ``prefixes`` (if any).

    A sentence ends at EOS or at its max_output_length; decoding stops when all have.
    EOS is ruled out before ``decoding.min_len`` tokens: by default no empty output
    (benchmarks force equal lengths with it).  ``decoding.beam_size`` is not read.
    Call ``model.eval()`` first: dropout is not switched off here.
    ``memory``: src's encoder output, where the caller has it already (and reads it again).
    """
    eos, min_len = model.config.eos_id, decoding.min_len
    table = prefix_table(prefixes, src.size(0), src.device)
    limits = output_limits(model, src, decoding, (table >= 0).sum(dim=1))
    outputs: list[list[int]] = [[] for _ in range(src.size(0))]
    state = DecoderState.start(model, src, use_cache, decoding, memory)
    allow_forced(model, table[table >= 0].tolist())
    state.keep(limits > 0)
    sampler = Sampler(decoding, src, model.config.pad_id) if decoding.sampling else None
    never = never_generated(model.config, decoding)
    banned = [sorted({*never, eos}), never]  # before min_len, after
    # The bookkeeping of a few dozen rows runs on Python lists: tensor ops cost more per call.
    sentence, limit = state.sentence.tolist(), limits[state.sentence].tolist()
    going = [True] * len(sentence)  # rows whose sentence has not ended
    step = 0
    make_room(state, limit, step)
    while any(going):
        logits, ruled_out = state.logits(), banned[step >= min_len]
        if sampler is None:
            tokens = state.choose.best_tokens(logits, ruled_out)  # [N]
        else:
            tokens = sampler.draw(logits, ruled_out, sentence)
        if step < table.size(1) - 1:
            forced = table[state.sentence, step]
            tokens = torch.where(forced >= 0, forced, tokens)
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
    """Tells the cache (``KVCache.reserve``) how many more positions the search may add: up to the
    longest row's length ``limit`` from ``step``, at most ROOM at a time."""
    if state.cache is not None:
        state.cache.reserve(min(max(limit, default=step) - step, ROOM))


# Positions reserved at a time: a cache that makes room for them copies its keys/values once per
# ROOM positions at most, and a long input (limit 1.5 × its length + 10) reserves no memory for
# outputs it rarely reaches.
ROOM = 64


# Greedy search drops the rows of ended sentences once this share of its rows has ended, not
# one by one: each drop copies every layer's cache, and an ended row kept a few more steps
# costs less.
COMPACT_SHARE = 0.5


def compact(going: list[bool]) -> bool:
    """Whether greedy search should drop its ended rows now (going: True for rows not ended)."""
    ended = going.count(False)
    return ended > 0 and ended >= COMPACT_SHARE * len(going)


def collect_finished(
    state: DecoderState, candidates: Candidates, ends: Tensor, sentences: list[int],
    finished: list[list[Hypothesis]], penalty: float, written: Tensor, seen: Tensor | None = None,
) -> None:
    """For each candidate where ends [n_groups, m] is True, appends a Hypothesis to
    ``finished[sentences[group]]``; written [N, t]: each row's tokens' log-probs; seen [N, t, S],
    where recorded, the cross-attention of the steps that wrote them."""
    groups, ranks = ends.nonzero(as_tuple=True)
    rows = candidates.row[groups, ranks]
    tokens, log_probs = state.prefix[rows, 1:].tolist(), candidates.log_prob[groups, ranks].tolist()
    each = torch.cat([written[rows], candidates.token_log_prob[groups, ranks][:, None]], dim=1).tolist()
    attention = seen[rows] if seen is not None else [None] * len(tokens)
    for k, (group, rank) in enumerate(zip(groups.tolist(), ranks.tolist(), strict=True)):
        finished[sentences[group]].append(
            Hypothesis(tokens[k], log_probs[k] / penalty, log_probs[k], candidates.missed_of(group, rank), each[k],
                       attention[k]))


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


def best_so_far(state: DecoderState, active: Candidates, sentences: list[int], finished: list[list[Hypothesis]],
                going: list[bool], penalty: float) -> dict[int, Hypothesis]:
    """Each sentence's best hypothesis after a step of beam search: its leading active one (best
    log-prob; ``score`` and ``log_prob`` those of its tokens so far, no EOS) where that scores
    higher as if it ended now (the bound of ``cannot_improve``) than every finished one, else its
    best finished one; for a sentence that ended at this step, what ``beam_search`` returns first.
    active [n_groups, beam_size] are the step's continuing extensions; state is not yet extended.
    """
    lead = active.log_prob.argmax(dim=1).tolist()
    best = {}
    for group, sentence in enumerate(sentences):
        done = min(finished[sentence], key=lambda h: (h.missed, -h.score), default=None)
        log_prob = active.log_prob[group, lead[group]].item()
        if going[group] and (done is None or log_prob / penalty > done.score):
            row, token = active.row[group, lead[group]], active.token[group, lead[group]]
            done = Hypothesis([*state.prefix[row, 1:].tolist(), int(token)], log_prob / penalty, log_prob)
        best[sentence] = done
    return best


@torch.inference_mode()
def beam_search(
    model: Transformer, src: Tensor, decoding: Decoding = DEFAULT, use_cache: bool = True,
    prefixes: Sequence[Sequence[int]] | None = None, terms: Sequence[Terms] | None = None,
    continuing: Tensor | None = None, memory: Tensor | None = None, space: int | None = None,
    on_step: Callable[[dict[int, Hypothesis]], None] | None = None, record: Recording | None = None,
    stops: Tensor | None = None,
) -> list[list[Hypothesis]]:
    """src [B, S] padded with pad_id -> per sentence, up to ``decoding.n_best`` distinct finished
    hypotheses, best first (``n_best_list``; beam_size, alpha, n_best, min_len, early_stopping: ``decoding``),
    each starting with its ``prefixes`` and containing its ``terms`` (if any; attnmt.decoding.constraints:
    the beam is then shared among banks, and a hypothesis ends only with all its terms, none of
    the ``continuing`` [V] pieces right after one, none started right after the lone "▁" piece ``space``, nor
    after a piece that ends a sentence, ``stops`` [V], where the model ends its translation).

    All sentences and their beams decode together as B·beam_size rows.  Each step
    ranks the extensions of every sentence's beam (the strategy: attnmt.decoding.beam, by
    log-prob, or constrained): the EOS ones among its first beam_size finish, the first
    beam_size others continue.  A sentence is done at
    its max_output_length or when ``cannot_improve``: with α = 0 as soon as no active
    hypothesis can enter its n_best (exact), with α > 0 once beam_size hypotheses are
    finished and none active beats them; its rows then leave the batch.
    ``early_stopping=True`` instead ends a sentence as soon as beam_size hypotheses
    are finished, whether or not an active one could beat them (Hugging Face's
    ``early_stopping=True``): a less exact search.
    ``on_step`` (e.g. a stream of the translation as it grows) is called after every step with
    each sentence still searched, by index, and its best hypothesis so far (``best_so_far``).
    EOS is ruled out before ``min_len`` tokens (unless max_output_length comes first):
    by default no empty output, which would otherwise win for some sentences.
    Call ``model.eval()`` first: dropout is not switched off here.
    ``memory``: src's encoder output, where the caller has it already (and reads it again).
    ``record``: each hypothesis keeps the cross-attention of the steps that wrote its tokens
    (``Hypothesis.attention``), as teacher forcing its output would give them.
    """
    beam_size, alpha, n_best, min_len = decoding.beam_size, decoding.alpha, decoding.n_best, decoding.min_len
    eos = model.config.eos_id
    vocab = model.config.vocab_size - 3  # tokens that can be candidates: never pad or BOS, EOS not always
    strategy = strategy_for(terms, src.device, continuing, space, prefixes, stops)
    table = prefix_table(prefixes, src.size(0), src.device)
    limits = output_limits(model, src, decoding, (table >= 0).sum(dim=1), strategy.need())
    limit_of = limits.tolist()
    never = never_generated(model.config, decoding)
    # With α = 0 the n_best finished are final once nothing active beats them; with α > 0 more must finish.
    enough = n_best if alpha == 0 else strategy.finished_enough(beam_size, n_best)
    finished: list[list[Hypothesis]] = [[] for _ in range(src.size(0))]
    # The first step starts from one row per sentence (BOS); the beam widens after it.
    state = DecoderState.start(model, src, use_cache, decoding, memory, record)
    allow_forced(model, [*table[table >= 0].tolist(),
                         *(t for each in terms or () for term in each for form in forms(term) for t in form)])
    make_room(state, limit_of, 0)
    # float32 whatever torch's default dtype: a host's bfloat16 default summed the log-probs in bf16.
    f32 = dict(dtype=torch.float32, device=src.device)
    beam_log_prob = torch.zeros(len(state), **f32)  # [N]
    written = torch.zeros(len(state), 0, **f32)  # [N, t]: the log-prob of each token of each row
    seen = None if record is None else torch.zeros(len(state), 0, src.size(1), **f32)  # [N, t, S]
    step = 0
    while len(state):
        # Each beam has one EOS extension, so 2·beam_size candidates always
        # leave at least beam_size that continue.
        count = 2 * beam_size
        at_limit = limits[state.sentence] == step
        forced = strategy.forced(table[state.sentence, min(step, table.size(1) - 1)]).masked_fill(at_limit, eos)
        row_top, row_token = state.top_next_tokens(
            min(count, vocab), sorted({*never, eos}) if step < min_len else never, forced, strategy.wanted(),
            strategy.ruled_out())
        sentences = state.sentence[::state.width].tolist()  # [n_groups]
        candidates = strategy.rank(beam_log_prob, row_top, row_token, len(sentences), count, eos, at_limit)
        is_eos = candidates.token == eos
        penalty = length_penalty(step + 1, alpha)  # every candidate has step + 1 tokens, EOS included
        # Only an EOS that makes the top beam_size finishes: one ranked lower would
        # not have survived the beam (and beam_size=1 would then differ from greedy).  At the
        # length limit every candidate is a forced EOS (state.take_only), so every sentence ends
        # with a hypothesis there, each finite one among them (one a row).
        ends = is_eos & (torch.arange(is_eos.size(1), device=src.device) < beam_size)
        collect_finished(state, candidates, ends, sentences, finished, penalty, written, seen)
        pick = first_continuing(is_eos, beam_size)
        active = candidates.take(pick)  # [n_groups, beam_size]
        # Every active hypothesis bounds what the sentence may still reach, one that lacks a term too: left out,
        # "A large group of people fill a street." (street -> Gasse) ended "Eine große Gasse.".
        best_active = (active.log_prob.amax(dim=1) / penalty).tolist()
        going = torch.tensor(
            [
                step < limit_of[s]
                and not (len(finished[s]) >= beam_size if decoding.early_stopping
                         else cannot_improve(finished[s], best, enough))
                for s, best in zip(sentences, best_active, strict=True)
            ],
            device=src.device,
        )
        if on_step is not None:
            on_step(best_so_far(state, active, sentences, finished, going.tolist(), penalty))
        # A beam never changes sentence: the sentences' memory only shrinks when some end.
        groups = None if bool(going.all()) else going.nonzero().squeeze(1)
        strategy.keep(pick, groups)
        rows = active.row[going].flatten()
        state.select(rows, groups)
        state.extend(active.token[going].flatten())
        beam_log_prob = active.log_prob[going].flatten()
        written = torch.cat([written[rows], active.token_log_prob[going].flatten()[:, None]], dim=1)
        if seen is not None:
            seen = torch.cat([seen[rows], state.attention[rows, None].to(seen.device)], dim=1)
        step += 1
    return [n_best_list(hyps, n_best) for hyps in finished]


def n_best_list(finished: list[Hypothesis], n_best: int) -> list[Hypothesis]:
    """A sentence's ``n_best`` best distinct finished hypotheses, best first: fewer where it has
    fewer that keep its promises as well as its best one does.

    Ranked by the terms each missed, then by score.  Kept are those that missed no more terms than
    the best and are finite where it is: at the length limit the search also finishes rows that
    missed terms (a translation with every term outranks them), and rows at -inf, which filled the
    beam where fewer candidates were finite (while a prefix is forced there is one).  A token
    sequence found twice (such a row and the one it copied) counts once, at its best score.
    """
    ranked = sorted(finished, key=lambda h: (h.missed, -h.score))
    best = ranked[0]
    kept: dict[tuple[int, ...], Hypothesis] = {}
    for h in ranked:
        if h.missed == best.missed and math.isfinite(h.score) == math.isfinite(best.score):
            kept.setdefault(tuple(h.tokens), h)
    return list(kept.values())[:n_best]
