"""Text in, text out: tokenise, batch by length, search, detokenise.

    sentences ─ encode ─ sort by length, batches of max_tokens ─ greedy / beam search ─ decode ─ translations

One output per input sentence, in input order; blank inputs give "".  How to search is one
``Decoding`` value (attnmt.decoding).  A sentence may also bring a glossary (attnmt.decoding.glossary:
the target terms of the source terms it holds must be in its translation, by constrained
beam search) and a prefix (its translation starts with it), one for all sentences or one each.
``score_pair`` is the teacher-forced pass over a sentence and its translation that alignments,
confidences and attention views read.

From the sentences to their hypotheses, outermost last:

    padded_sources       sentences -> (input indices, padded source ids) per length-sorted batch
    run_search           one batch -> its sentences' hypotheses, by the search ``decoding`` asks for
    searched_batches     sentences -> each batch searched (SearchedBatch), a failed one again a sentence at a time
    sentence_hypotheses  sentences -> (input index, its n-best) per non-blank sentence
"""

from __future__ import annotations

import math
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import torch
from torch import Tensor

from attnmt.attention import padding_mask
from attnmt.decoding import DEFAULT, MAX_BEAM, MAX_TOKENS, Decoding
from attnmt.decoding.constraints import Terms, continuing_pieces, fitting, prefix_ids, target_ids, term_tokens
from attnmt.decoding.glossary import Glossary, as_glossary
from attnmt.decoding.next_tokens import allow_forced, next_tokens_of, shortlisted, whole_vocabulary_logits
from attnmt.decoding.penalties import Penalties
from attnmt.decoding.search import Hypothesis, beam_search, greedy_search, length_penalty
from attnmt.decoding.state import Recording
from attnmt.errors import AttnmtWarning, ConfigError, UserError
from attnmt.model import AttentionTrace, Transformer
from attnmt.text.data import check_encodable, given_texts, pad_rows
from attnmt.threads import recheck

if TYPE_CHECKING:
    from attnmt.decoding.quality import Assessment, Assessor


class TextCodec(Protocol):
    """What ``translate`` needs of a tokenizer."""

    source_eos: bool  # whether encode ends a source with </s>

    def encode(self, text: str) -> list[int]: ...

    def encode_target(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...


T = TypeVar("T")
# One glossary (or prefix) for every sentence, or one per sentence (None: none); a glossary may be
# given as a mapping {source term: target term}.
GivenGlossary = Glossary | Mapping[str, str]
Glossaries = GivenGlossary | Sequence[GivenGlossary | None] | None
Prefixes = str | Sequence[str | None] | None


@dataclass
class Guides:
    """What each input sentence's translation must hold: its glossary and its prefix (or None)."""

    glossaries: list[Glossary | None]
    prefixes: list[str | None]
    left_out: set[str] = field(default_factory=set)  # target terms too long to fit, each warned of once

    @classmethod
    def of(cls, count: int, glossary: Glossaries = None, prefix: Prefixes = None) -> Guides:
        """``glossary`` and ``prefix`` for each of ``count`` sentences (``translate``); a ConfigError for
        a glossary of another type (``as_glossary``)."""
        if isinstance(glossary, Sequence) and not isinstance(glossary, str):  # one per sentence
            glossaries = [as_glossary(g, f"glossary[{k}]")
                          for k, g in enumerate(each_sentence(glossary, Glossary, count, "glossary"))]
        else:
            glossaries = [as_glossary(glossary)] * count
        prefixes = each_sentence(prefix, str, count, "prefix")
        for k, each in enumerate(prefixes):
            if each is not None and not isinstance(each, str):
                raise ConfigError(f"prefix[{k}]: expected a str or None, got {type(each).__name__}")
        check_encodable(("prefix", each) for each in dict.fromkeys(p for p in prefixes if p))
        return cls(glossaries, prefixes)

    def terms(self, tokenizer: TextCodec, unk_id: int, sentences: Sequence[str], i: int, room: int) -> Terms:
        """The token ids of the target terms sentence i needs (DataError for one the vocabulary cannot
        write), less those that do not fit into ``room`` output tokens with the others: each left out
        with one warning (``constraints.fitting``), as the docs promise, not written in part."""
        glossary = self.glossaries[i]
        if not glossary:
            return []
        kept, left_out = fitting(term_tokens(tokenizer, glossary.matches(sentences[i]), unk_id), room)
        for term in left_out:
            self.warn_left_out(tokenizer.decode(term), len(term), room)
        return kept

    def warn_left_out(self, target: str, pieces: int, room: int) -> None:
        """One warning per target term left out of a translation (``terms``)."""
        if target not in self.left_out:
            self.left_out.add(target)
            shown = target[:40] + ("…" if len(target) > 40 else "")
            warnings.warn(f"glossary target term {shown!r} ({pieces} pieces) does not fit into a translation of "
                          f"at most {room} pieces (the model's positions, less the prefix and the sentence's other "
                          "terms); it is left out", AttnmtWarning, stacklevel=2)

    def prefix_ids(self, tokenizer: TextCodec, unk_id: int, i: int) -> list[int]:
        """The token ids sentence i's translation starts with (DataError for a prefix the vocabulary cannot write)."""
        prefix = self.prefixes[i]
        return prefix_ids(tokenizer, prefix, unk_id) if prefix else []


def each_sentence(value: T | Sequence[T | None] | None, kind: type, count: int, name: str) -> list[T | None]:
    """``value`` for each of ``count`` sentences: itself for all (one ``kind``, or None), or one each."""
    if value is None or isinstance(value, kind):
        return [value] * count
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):  # b"Ein" was 3 prefixes
        raise ConfigError(f"{name}: expected a {kind.__name__} (or one per sentence), got {type(value).__name__}")
    if len(value) != count:
        raise ConfigError(f"{name}: got {len(value)} for {count} sentences; give one for all or one each")
    return list(value)


def checked_call(sentences: object, decoding: object, max_tokens: object) -> list[str]:
    """A Python caller's sentences (given_texts), with one clear error for a decoding that is not
    a Decoding (a dict was an AttributeError deep in the search) or a max_tokens under 1."""
    if not isinstance(decoding, Decoding):
        raise ConfigError(f"decoding: expected attnmt.Decoding, got {type(decoding).__name__}; "
                          "e.g. Decoding(beam_size=4)")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ConfigError(f"max_tokens must be a whole number of at least 1, got {max_tokens!r}")
    return given_texts(sentences)


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
    """Token ids per sentence ([] for blank ones), truncated to max_len with one warning.

    The warning counts distinct sentences, blank ones left out: what it can count truly, as callers
    pass either every line (``translate``) or each distinct sentence of the input once (plain text
    split into sentences, documents: a repeated sentence is translated once)."""
    encoded = [tokenizer.encode(s) if s.strip() else [] for s in sentences]
    long = list(dict.fromkeys(s for s, ids in zip(sentences, encoded, strict=True) if len(ids) > max_len))
    if long:
        first = long[0][:40] + ("…" if len(long[0]) > 40 else "")
        distinct = len({s for s in sentences if s.strip()})
        warnings.warn(
            f"{len(long)} of the {distinct} distinct sentences translated were longer than {max_len} tokens "
            f"(the model's max_positions minus 2) and were truncated to their first {max_len} "
            f"tokens (the first starts {first!r}); split long lines to translate them whole", AttnmtWarning,
            stacklevel=3,
        )
    return [cut(ids, max_len, tokenizer.source_eos) for ids in encoded]


def cut(source: list[T], max_len: int, source_eos: bool) -> list[T]:
    """A source's ids (or pieces) cut to max_len; with ``source_eos`` a cut source still ends with
    its </s>, as the model was trained to read one."""
    if len(source) <= max_len:
        return source
    return source[: max_len - 1] + source[-1:] if source_eos else source[:max_len]


@dataclass
class Translation:
    """One hypothesis for one input sentence."""

    text: str
    score: float  # log_prob / length penalty: what beam search ranks by
    log_prob: float  # log P(output + EOS | input)
    assessment: Assessment | None = None  # how far to trust it, where asked (translate_n_best's ``quality``)

    def fields(self) -> dict:
        """What JSON output carries: text, then score and log_prob to 4 decimals, null where no finite
        number (a hypothesis forced through a piece the model rules out, e.g. a prefix that repeats an
        n-gram ``no_repeat_ngram_size`` bans, has log-prob -inf, which JSON has no number for)."""
        return {"text": self.text, **{name: round(value, 4) if math.isfinite(value) else None
                                      for name, value in (("score", self.score), ("log_prob", self.log_prob))}}

    @property
    def quality(self) -> float | None:
        """Its estimated quality in [0, 1] (attnmt.decoding.quality), or None where not assessed."""
        return self.assessment.quality if self.assessment else None

    @property
    def flags(self) -> list[str] | None:
        """The quality rules it breaks (attnmt.decoding.quality), or None where not assessed."""
        return self.assessment.flags if self.assessment else None


def padded_sources(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], max_tokens: int, max_sentences: int | None,
    beam_size: int = 1,
) -> Iterator[tuple[list[int], Tensor]]:
    """(input indices, padded source ids [B, S] on the model's device) per length-sorted batch,
    blank sentences left out; max_sentences None: what suits the model's search with
    ``beam_size`` rows a sentence (``NextTokens.sentences_per_batch``).  Before each batch, the
    thread count is looked at again where it follows the free cores (``attnmt.threads.recheck``)."""
    device = next(model.parameters()).device
    if max_sentences is None:
        max_sentences = next_tokens_of(model).sentences_per_batch(model.config, beam_size)
    if max_tokens < 1 or max_sentences < 0:
        raise ValueError(f"need max_tokens >= 1 and max_sentences >= 0, got {max_tokens}, {max_sentences}")
    c = model.config
    encoded = encode_inputs(tokenizer, sentences, c.longest_input)
    nonempty = [i for i, ids in enumerate(encoded) if ids]
    for batch in length_batches([len(encoded[i]) for i in nonempty], max_tokens, max_sentences):
        indices = [nonempty[b] for b in batch]
        recheck()  # the thread count, where it follows the free cores (attnmt.threads; at most once a second)
        yield indices, pad_rows([encoded[i] for i in indices], c.pad_id).to(device)


# id(model) -> (threads inside ``evaluating`` with it, the mode to restore when the last leaves)
EVALUATING: dict[int, tuple[int, bool]] = {}
EVALUATING_LOCK = threading.Lock()


@contextmanager
def evaluating(model: Transformer) -> Iterator[None]:
    """The model in eval mode, then back in the mode it came in once the last thread translating
    with it leaves.  Counted per model: a thread that came in after another had switched a training
    model to eval would otherwise take eval for the mode to restore, and leave the model in it, or
    switch it back to training under a thread still translating."""
    with EVALUATING_LOCK:
        inside, was_training = EVALUATING.get(id(model), (0, model.training))
        EVALUATING[id(model)] = (inside + 1, was_training)
        model.eval()
    try:
        yield
    finally:
        with EVALUATING_LOCK:
            inside, was_training = EVALUATING.pop(id(model))
            if inside > 1:
                EVALUATING[id(model)] = (inside - 1, was_training)
            else:
                model.train(was_training)


@dataclass
class SearchedBatch:
    """One length-sorted batch as the search saw it: input indices, padded source ids src [B, S],
    the encoder's output memory [B, S, d] (what a pass over the outputs can read again), each
    sentence's hypotheses, best first, and the options they were searched with."""

    indices: list[int]
    src: Tensor
    memory: Tensor
    hypotheses: list[list[Hypothesis]]
    decoding: Decoding
    shortlisted: bool = False  # whether the search wrote only a vocabulary shortlist's pieces

    def model_log_probs(self, k: int, j: int) -> list[float] | None:
        """The log-probs the model gives sentence k's hypothesis j's tokens, then EOS, as the search
        scored them; None where it scored none, or a penalty or a shortlist (its softmax over the
        shortlist's pieces only) left them other than the whole vocabulary's."""
        each = self.hypotheses[k][j].token_log_probs
        return each if each and Penalties.of(self.decoding) is None and not self.shortlisted else None


class SentencesFailed(RuntimeError):
    """The model failed on some sentences, each searched alone; every other sentence was translated.

    failures: {input index: what the search raised}; outputs: what the call would have returned,
    the failed sentences' outputs empty ("" or []), as blank inputs' are."""

    def __init__(self, failures: dict[int, Exception]) -> None:
        self.failures = failures
        self.outputs: Any = None
        first, error = next(iter(failures.items()))
        super().__init__(f"the model failed on {len(failures)} sentence(s), the first on sentence {first + 1}: "
                         f"{type(error).__name__}: {error}")


@contextmanager
def keeping(outputs: T) -> Iterator[T]:
    """Where sentences fail (SentencesFailed), the others' ``outputs`` go with the error."""
    try:
        yield outputs
    except SentencesFailed as failed:
        failed.outputs = outputs
        raise


def searched_batches(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, max_tokens: int,
    max_sentences: int | None, scored: bool, guides: Guides, record: Recording | None = None,
) -> Iterator[SearchedBatch]:
    """Every non-blank sentence's ``decoding.n_best`` hypotheses, searched in length-sorted batches
    (``run_search``, which passes ``record`` on); the model in eval mode until the last batch has been read.

    A batch the model fails on is searched again a sentence at a time, so that a sentence that
    breaks a search breaks only itself: after the last batch, SentencesFailed names those that
    failed alone.  A user's mistake (UserError) stops at once."""
    # Refuse a bad term or prefix before any work; each distinct one once, named where it was first
    # given (a JSONL line's glossary holds --glossary's too).
    places: dict[str, str | None] = {}
    for glossary in {id(g): g for g in guides.glossaries if g}.values():
        for source, target in glossary.terms:
            places.setdefault(target, glossary.place(source))
    for target, place in places.items():
        target_ids(tokenizer, target, model.config.unk_id, place)
    for prefix in dict.fromkeys(prefix for prefix in guides.prefixes if prefix):
        prefix_ids(tokenizer, prefix, model.config.unk_id)
    failures: dict[int, Exception] = {}
    with evaluating(model):
        for indices, src in padded_sources(model, tokenizer, sentences, max_tokens, max_sentences, decoding.beam_size):
            search = partial(searched, model, tokenizer, sentences, decoding, scored, guides, record=record)
            try:
                yield search(indices, src)
            except UserError:
                raise
            except Exception as error:  # noqa: BLE001 - one sentence must not cost the others their translations
                if len(indices) == 1:
                    failures[indices[0]] = error
                    continue
                for k, i in enumerate(indices):
                    with failing_alone(i, failures):
                        yield search([i], alone(src[k], model.config.pad_id))
    if failures:
        raise SentencesFailed(failures)


@contextmanager
def failing_alone(i: int, failures: dict[int, Exception]) -> Iterator[None]:
    """Puts what sentence i's search alone raises in ``failures``; a UserError goes on."""
    try:
        yield
    except UserError:
        raise
    except Exception as error:  # noqa: BLE001 - as searched_batches says
        failures[i] = error


def alone(row: Tensor, pad_id: int) -> Tensor:
    """One sentence of a padded batch [S] as a batch of its own, [1, its length]."""
    return row[: int((row != pad_id).sum())].unsqueeze(0)


def searched(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, scored: bool,
             guides: Guides, indices: list[int], src: Tensor, record: Recording | None = None) -> SearchedBatch:
    """The batch of sentences ``indices``, src [B, S] padded, searched (``run_search``)."""
    prefixes = [guides.prefix_ids(tokenizer, model.config.unk_id, i) for i in indices]
    terms = [guides.terms(tokenizer, model.config.unk_id, sentences, i, model.config.longest_input - len(prefix))
             for i, prefix in zip(indices, prefixes, strict=True)]
    continuing = continuing_pieces(tokenizer, model.config.vocab_size) if any(terms) else None
    with torch.inference_mode():
        memory = model.encode(src)
    return SearchedBatch(indices, src, memory,
                         run_search(model, src, decoding, scored, prefixes, terms, continuing, memory, record),
                         decoding, shortlisted(model))


def sentence_hypotheses(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, max_tokens: int,
    max_sentences: int | None, scored: bool, guides: Guides,
) -> Iterator[tuple[int, list[Hypothesis]]]:
    """(input index, its ``decoding.n_best`` hypotheses, best first) for every non-blank sentence
    (``searched_batches``)."""
    for batch in searched_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, scored, guides):
        yield from zip(batch.indices, batch.hypotheses, strict=True)


def run_search(model: Transformer, src: Tensor, decoding: Decoding, scored: bool, prefixes: list[list[int]],
                 terms: list[Terms], continuing: Tensor | None = None,
                 memory: Tensor | None = None, record: Recording | None = None) -> list[list[Hypothesis]]:
    """One batch's hypotheses, by the search ``decoding`` asks for.

    Beam 1 without ``scored`` runs greedy search (the same output), whose hypotheses carry no
    scores (0.0): it adds up no log-probabilities.  Sampling draws one output per sentence
    (scored, with ``scored``, by one teacher-forced pass).  Greedy search with a glossary: each
    sentence with terms runs constrained beam search with one hypothesis per bank (a beam of 1 +
    its term pieces, at most MAX_BEAM; ``greedy_with_terms``).  ``memory``: src's encoder output,
    where the caller has it already.  ``record``: beam search's hypotheses carry their
    cross-attention (``Hypothesis.attention``); greedy search's and sampling's do not.
    """
    if decoding.sampling:
        if any(terms):
            raise ConfigError("a glossary needs beam search (it steers the search to the terms); sampling draws "
                              "tokens at random: leave out sampling_topk, or the glossary")
        outputs = greedy_search(model, src, decoding, prefixes=prefixes, memory=memory)
        return forced_hypotheses(model, src, outputs, decoding.alpha) if scored else [
            [Hypothesis(ids, 0.0, 0.0)] for ids in outputs]
    if decoding.greedy and any(terms):
        return greedy_with_terms(model, src, decoding, scored, prefixes, terms, continuing, memory, record)
    if decoding.greedy and not scored:
        return [[Hypothesis(ids, 0.0, 0.0)]
                for ids in greedy_search(model, src, decoding, prefixes=prefixes, memory=memory)]
    return beam_search(model, src, decoding, prefixes=prefixes, terms=terms, continuing=continuing, memory=memory,
                       record=record)


def greedy_with_terms(model: Transformer, src: Tensor, decoding: Decoding, scored: bool, prefixes: list[list[int]],
                      terms: list[Terms], continuing: Tensor | None, memory: Tensor | None,
                      record: Recording | None) -> list[list[Hypothesis]]:
    """Greedy search of a batch where some sentences have terms: each sentence searched with its own
    beam, 1 + its term pieces (at most MAX_BEAM), one hypothesis per bank; those without terms
    greedily.  The sentences of one width are searched together, so that a sentence's translation
    never depends on the terms of the others in its batch (``--batch-size`` changes no output)."""
    widths = [min(MAX_BEAM, 1 + sum(map(len, sentence))) for sentence in terms]
    found: list[list[Hypothesis]] = [[] for _ in widths]
    for width in sorted(set(widths)):
        rows = [k for k, w in enumerate(widths) if w == width]
        index = torch.tensor(rows, device=src.device)
        own_prefixes, own_terms = [prefixes[k] for k in rows], [terms[k] for k in rows]
        own_memory = None if memory is None else memory[index]
        if width == 1:  # no terms: searched as without a glossary
            each = run_search(model, src[index], decoding, scored, own_prefixes, own_terms, memory=own_memory,
                              record=record)
        else:
            each = beam_search(model, src[index], replace(decoding, beam_size=width), prefixes=own_prefixes,
                               terms=own_terms, continuing=continuing, memory=own_memory, record=record)
        for k, hypotheses in zip(rows, each, strict=True):
            found[k] = hypotheses
    return found


@torch.inference_mode()
def forced_hypotheses(model: Transformer, src: Tensor, outputs: list[list[int]],
                      alpha: float) -> list[list[Hypothesis]]:
    """Each output of src [B, S] as a Hypothesis with the model's log-probability of it and EOS
    (one teacher-forced pass over the batch), its score with length penalty α: as the search that
    wrote it would score it (over a shortlist that also holds the outputs' pieces, where it has one)."""
    c = model.config
    rows = [[c.bos_id, *ids, c.eos_id] for ids in outputs]
    target = pad_rows(rows, c.pad_id).to(src.device)
    memory = model.encode(src)
    allow_forced(model, (t for ids in outputs for t in ids))  # a prefix's pieces, where off the shortlist
    logits = model.decode(target[:, :-1], memory, padding_mask(src, c.pad_id))
    log_probs = logits.float().log_softmax(dim=-1).gather(2, target[:, 1:, None]).squeeze(2)
    found = []
    for i, ids in enumerate(outputs):
        log_prob = log_probs[i, : len(ids) + 1].sum().item()
        found.append([Hypothesis(ids, log_prob / length_penalty(len(ids) + 1, alpha), log_prob, 0,
                                 log_probs[i, : len(ids) + 1].tolist())])
    return found


def translate(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    decoding: Decoding = DEFAULT,
    max_tokens: int = MAX_TOKENS,
    max_sentences: int | None = None,
    glossary: Glossaries = None,
    prefix: Prefixes = None,
) -> list[str]:
    """One translation per input sentence, in input order; blank inputs give "".  Where the model
    fails on some sentences, SentencesFailed names them and holds the others' translations.

    Sentences are sorted by length and batched by max_tokens padded source tokens (and
    at most max_sentences a batch, unless 0; None: what suits the model's search,
    ``NextTokens.sentences_per_batch``); beam_size 1 uses greedy search.  Inputs over the
    model's ``longest_input`` tokens are truncated (with a warning).  The model runs in
    eval mode and is left in the mode it came in.  ``glossary``: a Glossary
    (``read_glossary(path)``, ``Glossary.of(terms)``) or a dict ``{"source term": "target
    term"}`` for every sentence, or a list of one (or None) per sentence; anything else is a
    ConfigError.  ``prefix``: the text every translation (or each) starts with.
    """
    sentences = checked_call(sentences, decoding, max_tokens)
    guides = Guides.of(len(sentences), glossary, prefix)
    with keeping([""] * len(sentences)) as outputs:
        found = sentence_hypotheses(model, tokenizer, sentences, decoding, max_tokens, max_sentences, False, guides)
        for i, hypotheses in found:
            outputs[i] = tokenizer.decode(hypotheses[0].tokens)
    return outputs


def translate_n_best(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str],
    decoding: Decoding = DEFAULT,
    max_tokens: int = MAX_TOKENS,
    max_sentences: int | None = None,
    glossary: Glossaries = None,
    prefix: Prefixes = None,
    quality: Assessor | None = None,
) -> list[list[Translation]]:
    """The ``decoding.n_best`` best translations of each input sentence, best first, with their
    scores (beam search, also for beam_size 1, where it equals greedy search); [] for blank inputs.
    ``glossary`` and ``prefix`` as for ``translate``.  With ``quality`` (an
    attnmt.decoding.quality.Assessor), each translation also gets its ``assessment`` (quality and
    flags), as ``assess`` would give it, from each batch's encoder output as the search left it."""
    sentences = checked_call(sentences, decoding, max_tokens)
    guides = Guides.of(len(sentences), glossary, prefix)
    with keeping([[] for _ in sentences]) as outputs:
        record = Recording() if quality is not None else None  # the attention quality reads, from the search
        for batch in searched_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, True, guides,
                                      record):
            texts = [[tokenizer.decode(h.tokens) for h in hypotheses] for hypotheses in batch.hypotheses]
            assessed = (quality.searched(model, tokenizer, sentences, batch, texts) if quality
                        else [[None] * len(each) for each in texts])
            for i, hypotheses, each, found in zip(batch.indices, batch.hypotheses, texts, assessed, strict=True):
                outputs[i] = [Translation(text, h.score, h.log_prob, a)
                              for h, text, a in zip(hypotheses, each, found, strict=True)]
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
    the one pass that word alignments, token confidences and the attention views all read.  The
    probabilities are the whole vocabulary's, also where the model searches a shortlist."""
    c = model.config
    device = next(model.parameters()).device
    src, trace = torch.tensor([source], device=device), AttentionTrace()
    with evaluating(model):  # Transformer.forward with its trace, the output layer over the whole vocabulary
        memory = model.encode(src, trace)
        states = model.decoder_states(torch.tensor([[c.bos_id, *target]], device=device), memory,
                                      padding_mask(src, c.pad_id), trace)
        logits = whole_vocabulary_logits(model, states)
    following = torch.tensor([*target, c.eos_id], device=device)
    probs = logits[0].float().softmax(dim=-1).gather(1, following[:, None]).squeeze(1).tolist()
    return ScoredPair(source, target, probs, trace)


@torch.inference_mode()
def written_attention(model: Transformer, src: Tensor, memory: Tensor, targets: Sequence[Sequence[int]],
                      layer: int = -1, heads: Sequence[int] | None = None) -> Tensor:
    """Decoder ``layer``'s cross-attention, the mean of ``heads`` (default: all), at the steps that
    wrote each target's ids: [B, T, S] for src [B, S], its encoder output memory [B, S, d] and B
    non-empty target id lists (no BOS, no EOS), teacher-forced in one padded batch.

    The decoder runs only up to those weights (``Transformer.cross_attention``), and not its output
    projection to the vocabulary (a large share of a pass on a small model): the attention is all
    that is read.  Rows past a target's end are padding."""
    c = model.config
    tgt_in = pad_rows([[c.bos_id, *ids[:-1]] for ids in targets], c.pad_id).to(src.device)
    weights = model.cross_attention(tgt_in, memory, padding_mask(src, c.pad_id), layer).float()  # [B, H, T, S]
    return (weights[:, list(heads)] if heads else weights).mean(dim=1).cpu()


# The helpers' earlier names (source_batches and search_batches sounded alike, and search_batch like
# both): importable, with a warning, for one more release.
RENAMED = {"source_batches": "padded_sources", "search_batches": "sentence_hypotheses", "search_batch": "run_search"}


def __getattr__(name: str) -> Any:
    if name in RENAMED:
        warnings.warn(f"attnmt.decoding.translate.{name} is now {RENAMED[name]}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return globals()[RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
