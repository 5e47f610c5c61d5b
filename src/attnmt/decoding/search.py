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
  (attnmt.decoding.state).  Rows of finished sentences leave the batch (``cache.reorder``
  with a smaller index), so the work shrinks as sentences end.
- The options (beam size, α, length limits, n-best) come in one ``Decoding`` value
  (attnmt.decoding); the next tokens are chosen from the logits by a :class:`NextTokens`
  (attnmt.decoding.next_tokens; the inference copy brings a C++ one).
- A sentence's output may be made to start with given tokens (``prefixes``: those tokens are
  forced, one a step, and scored like any other) and, in beam search, to contain given terms
  (``terms``: lexically constrained search, attnmt.decoding.constraints).  Either raises the sentence's
  length limit to what they need, up to the model's positions.
- Greedy search draws its tokens at random with ``Decoding.sampling`` (attnmt.decoding.next_tokens.Sampler);
  ``repetition_penalty`` and ``no_repeat_ngram_size`` change the logits first (attnmt.decoding.penalties).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.constraints import Constraints, Terms, prefix_table, ready
from attnmt.decoding.next_tokens import Sampler, never_generated
from attnmt.decoding.state import DecoderState, output_limits
from attnmt.model import Transformer


@dataclass
class Hypothesis:
    """One finished translation of one sentence."""

    tokens: list[int]  # output ids, without BOS and without the final EOS
    score: float  # log_prob / length_penalty(len(tokens) + 1, alpha): the final EOS counts
    log_prob: float  # plain sum of token log-probs, the final EOS included
    missed: int = 0  # constrained search: terms not written (only where the length limit came first)


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
    state.keep(limits > 0)
    choose = Sampler(decoding, src.device) if decoding.sampling else state.choose
    never = never_generated(model.config, decoding)
    banned = [sorted({*never, eos}), never]  # before min_len, after
    # The bookkeeping of a few dozen rows runs on Python lists: tensor ops cost more per call.
    sentence, limit = state.sentence.tolist(), limits[state.sentence].tolist()
    going = [True] * len(sentence)  # rows whose sentence has not ended
    step = 0
    make_room(state, limit, step)
    while any(going):
        tokens = choose.best_tokens(state.logits(), banned[step >= min_len])  # [N]
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
    """Tells the cache how many more positions the search may add, at most ROOM at a time: greedy
    search's rows stay in place between drops, and beam search's reorders move no keys/values in the
    inference copy's step (its cache's lineage), so the keys/values can grow in place
    (``DecoderCache.reserve``)."""
    if state.cache is not None:
        state.cache.reserve(min(max(limit, default=step) - step, ROOM))


# Positions reserved at a time: a copy of the cache every ROOM steps costs little, and long
# inputs (whose limit is 1.5 × their length + 10) do not reserve memory for outputs they rarely reach.
ROOM = 64


# Greedy search drops the rows of ended sentences once this share of its rows has ended, not
# one by one: each drop copies every layer's cache, and an ended row kept a few more steps
# costs less.
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
    finished: list[list[Hypothesis]], penalty: float, missed: Tensor | None = None,
) -> None:
    """For each candidate where ends [n_groups, m] is True, appends a Hypothesis to
    ``finished[sentences[group]]`` (with its missed [n_groups, M] terms, if given)."""
    for group, rank in ends.nonzero().tolist():
        log_prob = candidates.log_prob[group, rank].item()
        tokens = state.prefix[candidates.row[group, rank], 1:].tolist()
        terms_missed = 0 if missed is None else int(missed[group, rank])
        finished[sentences[group]].append(Hypothesis(tokens, log_prob / penalty, log_prob, terms_missed))


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
    continuing: Tensor | None = None, memory: Tensor | None = None,
    on_step: Callable[[dict[int, Hypothesis]], None] | None = None,
) -> list[list[Hypothesis]]:
    """src [B, S] padded with pad_id -> per sentence, up to ``decoding.n_best`` finished
    hypotheses, best first (beam_size, alpha, n_best, min_len, early_stopping: ``decoding``),
    each starting with its ``prefixes`` and containing its ``terms`` (if any; attnmt.decoding.constraints:
    the beam is then shared among banks, and a hypothesis ends only with all its terms, none of
    the ``continuing`` [V] pieces right after one).

    All sentences and their beams decode together as B·beam_size rows.  Each step
    takes the 2·beam_size best extensions per sentence: the EOS ones among its top
    beam_size finish, the best beam_size others continue.  A sentence is done at
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
    """
    beam_size, alpha, n_best, min_len = decoding.beam_size, decoding.alpha, decoding.n_best, decoding.min_len
    eos = model.config.eos_id
    vocab = model.config.vocab_size - 3  # tokens that can be candidates: never pad or BOS, EOS not always
    table = prefix_table(prefixes, src.size(0), src.device)
    constraints = Constraints.start(terms or [], src.device, continuing)
    need = (table >= 0).sum(dim=1) + (0 if constraints is None else constraints.total())
    limits = output_limits(model, src, decoding, need)
    limit_of = limits.tolist()
    never = never_generated(model.config, decoding)
    # With α = 0 the n_best finished are final once nothing active beats them. With α > 0
    # stopping that early cost BLEU (docs/translating.md), so more must finish: beam_size, or,
    # with terms, half of it (the banks leave the top one a slot or two a step, so beam_size
    # finished took much longer for little gain: docs/translating.md, Terminology).
    enough = n_best if alpha == 0 else beam_size if constraints is None else max(n_best, beam_size // 2)
    finished: list[list[Hypothesis]] = [[] for _ in range(src.size(0))]
    # The first step starts from one row per sentence (BOS); the beam widens after it.
    state = DecoderState.start(model, src, use_cache, decoding, memory)
    make_room(state, limit_of, 0)
    beam_log_prob = torch.zeros(len(state), device=src.device)  # [N]
    step = 0
    while len(state):
        # Each beam has one EOS extension, so 2·beam_size candidates always
        # leave at least beam_size that continue.
        count = 2 * beam_size
        at_limit = limits[state.sentence] == step
        forced = table[state.sentence, min(step, table.size(1) - 1)].masked_fill(at_limit, eos)
        row_top, row_token = state.top_next_tokens(
            min(count, vocab), sorted({*never, eos}) if step < min_len else never, forced,
            None if constraints is None else constraints.wanted(),
        )
        sentences = state.sentence[::state.width].tolist()  # [n_groups]
        if constraints is None:
            candidates, progress = top_candidates(beam_log_prob, row_top, row_token, len(sentences), count), None
            missed = order = None
        else:  # every candidate, in the order that shares the beam among the banks
            candidates = top_candidates(beam_log_prob, row_top, row_token, len(sentences), row_top.numel())
            log_prob, order, progress = constraints.arrange(candidates.log_prob, candidates.row, candidates.token,
                                                            eos, at_limit)
            candidates = Candidates(log_prob, candidates.row, candidates.token).take(order)
            missed = progress.missed.view_as(order).gather(1, order)  # [n_groups, M], in the new order
        is_eos = candidates.token == eos
        penalty = length_penalty(step + 1, alpha)  # every candidate has step + 1 tokens, EOS included
        # Only an EOS that makes the top beam_size finishes: one ranked lower would
        # not have survived the beam (and beam_size=1 would then differ from greedy).  At the
        # length limit every row's forced EOS does, also one at -inf (a forced prefix or term
        # token the model rules out), so that every sentence ends with a hypothesis.
        ends = is_eos & ((torch.arange(is_eos.size(1), device=src.device) < beam_size)
                         | (limits[state.sentence[::state.width]] == step)[:, None])
        collect_finished(state, candidates, ends, sentences, finished, penalty, missed)
        pick = first_continuing(is_eos, beam_size)
        active = candidates.take(pick)  # [n_groups, beam_size]
        best_active = (ready(active.log_prob, missed, pick).amax(dim=1) / penalty).tolist()
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
        if constraints is not None:
            constraints.keep(progress, order.gather(1, pick), groups)
        state.select(active.row[going].flatten(), groups)
        state.extend(active.token[going].flatten())
        beam_log_prob = active.log_prob[going].flatten()
        step += 1
    return [sorted(hyps, key=lambda h: (h.missed, -h.score))[:n_best] for hyps in finished]
