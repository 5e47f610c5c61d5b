"""The rows a search is decoding: each row one hypothesis of one source sentence, with the
encoder's output, the decoder's key/value cache and each step's logits (attnmt.decoding.search runs the
searches over it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from attnmt.attention import padding_mask
from attnmt.decoding import DEFAULT, Decoding
from attnmt.decoding.banks import extra_candidates
from attnmt.decoding.cache import KVCache
from attnmt.decoding.next_tokens import ChoosesFromTheStep, NextTokens, ban, next_tokens_of, outside_distribution
from attnmt.decoding.penalties import Penalties
from attnmt.model import Transformer


def output_limits(model: Transformer, src: Tensor, decoding: Decoding, prefixes: Tensor | None = None,
                  terms: Tensor | int = 0) -> Tensor:
    """src [B, S] -> each sentence's max_output_length [B], from its own (unpadded) length, with its
    prefix of ``prefixes`` [B] tokens and its ``terms`` [B] tokens of glossary terms on top
    (``Decoding.max_output_length``) where the model's positions allow."""
    c, count = model.config, src.size(0)
    lengths = (src != c.pad_id).sum(dim=1).tolist()
    prefix = [0] * count if prefixes is None else prefixes.tolist()
    need = terms.tolist() if isinstance(terms, Tensor) else [terms] * count
    return torch.tensor([decoding.max_output_length(n, c.longest_input, p, t)
                         for n, p, t in zip(lengths, prefix, need, strict=True)], device=src.device)


def take_only(top: Tensor, tokens: Tensor, rows: Tensor, token: Tensor, log_prob: Tensor) -> None:
    """In place: rows ``rows`` of the candidates top, tokens [N, k] hold only ``token`` [R], at
    ``log_prob`` [R]; their other places hold it too, at -inf.  Beam search fills its beam from those
    places where fewer candidates are finite (a prefix's first step has one): filled so, every row it
    keeps writes the prefix, and at the length limit every candidate is an EOS."""
    top[rows] = float("-inf")
    top[rows, 0] = log_prob
    tokens[rows] = token[:, None]


@dataclass(frozen=True)
class Recording:
    """What a search records of each token it writes: decoder layer ``layer``'s cross-attention
    weights at the step that wrote it, the mean of ``heads`` (None: all) — the weights
    ``attnmt.decoding.teacher_forcing.written_attention`` reads in a pass of its own."""

    layer: int = -1
    heads: tuple[int, ...] | None = None

    def mean(self, weights: Tensor) -> Tensor:
        """weights [N, H, S] -> [N, S] float, the mean of ``heads``."""
        return (weights[:, list(self.heads)] if self.heads else weights).float().mean(dim=1)


@dataclass
class DecoderState:
    """The rows being decoded; each row is one hypothesis of one source sentence.

    The rows are groups of ``width`` consecutive rows, one group per sentence
    (greedy search: width 1; beam search: width beam_size after the first step).

    sentence: [N]           index of each row's sentence in the input batch
    prefix:   [N, t + 1]    BOS and the t tokens chosen so far
    memory:   [G, S, d]     encoder output per sentence group, src_mask: [G, 1, 1, S]
    cache:    keys/values of ``prefix``, the model's own KVCache (None: recompute the whole prefix every step)
    record:   where given, each step's cross-attention weights are kept in ``attention`` [N, S] (``Recording``)
    """

    model: Transformer
    sentence: Tensor
    prefix: Tensor
    memory: Tensor
    src_mask: Tensor
    cache: KVCache | None
    choose: NextTokens
    penalties: Penalties | None = None
    wide: bool = False  # whether the logits must span the whole vocabulary (sampling reads them by id)
    record: Recording | None = None
    attention: Tensor | None = None  # [N, S]: the last step's weights, where ``record`` asks for them

    @classmethod
    def start(cls, model: Transformer, src: Tensor, use_cache: bool, decoding: Decoding = DEFAULT,
              memory: Tensor | None = None, record: Recording | None = None) -> DecoderState:
        """One row per sentence of src [B, S], holding just BOS; ``decoding``'s penalties apply to its
        logits.  ``memory``: the encoder's output for src, where the caller already has it."""
        c = model.config
        memory = model.encode(src) if memory is None else memory
        bos = torch.full((src.size(0), 1), c.bos_id, dtype=torch.long, device=src.device)
        return cls(
            model=model,
            sentence=torch.arange(src.size(0), device=src.device),
            prefix=bos,
            memory=memory,
            src_mask=padding_mask(src, c.pad_id),
            cache=model.start_decoding(memory) if use_cache else None,
            choose=next_tokens_of(model),
            penalties=Penalties.of(decoding),
            wide=decoding.sampling,
            record=record,
        )

    def __len__(self) -> int:
        return self.sentence.size(0)

    @property
    def width(self) -> int:
        """Rows per sentence group."""
        return len(self) // max(self.memory.size(0), 1)

    def logits(self, exempt: Tensor | None = None) -> Tensor:
        """[N, V] float logits of each row's next token (one decoder step), the penalties applied;
        exempt [N, W]: tokens a prefix or term forces (-1: none), which no n-gram ban rules out."""
        if self.cache is None:
            # The readable path: every row gets its own copy of its sentence's memory.
            memory, src_mask = (t.repeat_interleave(self.width, dim=0) for t in (self.memory, self.src_mask))
            tgt_in = self.prefix
        else:
            # The cache holds every earlier position; only the newest token is fed.
            memory, src_mask, tgt_in = self.memory, self.src_mask, self.prefix[:, -1:]
        if self.record is None:
            logits = self.model.decode(tgt_in, memory, src_mask, cache=self.cache)
        else:
            logits, weights = self.model.decode_recording(tgt_in, memory, src_mask, self.cache, self.record.layer)
            self.attention = self.record.mean(weights)
        logits = logits[:, -1].float()
        if self.wide or self.penalties is not None:  # read by token id below or by the caller
            logits = self.choose.full_width(logits)
        return logits if self.penalties is None else self.penalties(logits, self.prefix, exempt)

    def top_next_tokens(self, k: int, banned: Sequence[int], forced: Tensor,
                        wanted: Tensor | None = None, ruled_out: Tensor | None = None) -> tuple[Tensor, Tensor]:
        """Each row's k most likely next tokens: (log-probabilities [N, k], tokens [N, k]), best
        first, then (constrained search) the W ``wanted`` [N, W] ones (-1: none), at -inf where
        already among the k.  Normalised over the vocabulary but pad and BOS (``outside_distribution``);
        ``banned`` are never chosen.
        A row with a token in forced [N] (-1: none) may only take that one (EOS at its length
        limit, a prefix's next token), at the model's log-probability (its others are -inf).  The forced
        and wanted tokens are the user's prefix and terms: the n-gram ban (``Penalties``) spares them.
        ruled_out [N, V] (constrained search): each row's tokens left out of its k (a piece that would
        carry on a term just written), so that k tokens it may write remain; normalised as without them."""
        rows = (forced >= 0).nonzero().squeeze(1)
        outside = outside_distribution(self.model.config)
        chosen = None
        if (wanted is None and self.penalties is None and not self.wide
                and isinstance(self.model, ChoosesFromTheStep)):  # the model's own pass, where it has one
            chosen = self.chosen_by(self.model, k, banned, forced if len(rows) else None, outside)
        if chosen is not None:
            top, tokens, _, forced_log_prob = chosen
            if len(rows):
                take_only(top, tokens, rows, forced[rows], forced_log_prob[rows])
            return top, tokens
        exempt = None  # what the n-gram ban spares: built only where there is a ban, not at every constrained step
        if self.penalties is not None and self.penalties.no_repeat_ngram_size:
            exempt = forced[:, None] if wanted is None else torch.cat([forced[:, None], wanted], dim=1)
        logits = self.logits(exempt)
        if wanted is not None or len(rows):  # tokens read by id
            logits = self.choose.full_width(logits)
        top, tokens, normaliser = self.choose.top_log_probs(
            logits if ruled_out is None else logits.masked_fill(ruled_out, float("-inf")), k, banned, outside)
        if ruled_out is not None:  # the log-probs over the vocabulary but outside, the ruled-out tokens too
            whole = ban(logits, outside).logsumexp(dim=-1)
            top, normaliser = top + (normaliser - whole)[:, None], whole
        if wanted is not None:
            top = torch.cat([top, extra_candidates(logits, normaliser, tokens, wanted)], dim=1)
            tokens = torch.cat([tokens, wanted.clamp(min=0)], dim=1)
        if len(rows):
            take_only(top, tokens, rows, forced[rows], logits[rows, forced[rows]] - normaliser[rows])
        return top, tokens

    def chosen_by(self, model: ChoosesFromTheStep, k: int, banned: Sequence[int], forced: Tensor | None,
                  outside: Sequence[int]) -> tuple[Tensor, Tensor, Tensor, Tensor] | None:
        """The ``model``'s own choice of each row's k next tokens (ChoosesFromTheStep.decode_top), recording the
        step's cross-attention in ``attention`` where this search records; None where it cannot choose them."""
        given = (self.prefix[:, -1:], self.memory, self.src_mask, self.cache)
        if self.record is None:
            return model.decode_top(*given, k, banned, forced, outside)
        found = model.decode_top_recording(*given, self.record.layer, k, banned, forced, outside)
        if found is None:
            return None
        self.attention = self.record.mean(found[1])
        return found[0]

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
