"""Text in, text out: tokenise, batch by length, search, detokenise.

    sentences ─ encode ─ sort by length, batches of max_tokens ─ greedy / beam search ─ decode ─ translations

One output per input sentence, in input order; blank inputs give "".  How to search is one
``Decoding`` value (attnmt.decoding).  A sentence may also bring a glossary (attnmt.decoding.glossary:
the target terms of the source terms it holds must be in its translation, by constrained
beam search) and a prefix (its translation starts with it), one for all sentences or one each.
A translation given whole rather than searched is read by attnmt.decoding.teacher_forcing.

From the sentences to their hypotheses, outermost last:

    padded_sources       sentences -> (input indices, padded source ids) per length-sorted batch
    run_search           one batch -> its sentences' hypotheses, by the search ``decoding`` asks for
                         (attnmt.decoding.batch_search)
    searched_batches     sentences -> each batch searched (SearchedBatch), a failed one again a sentence at a time;
                         a sentence in capitals read in sentence case (attnmt.decoding.capitals); the sentences
                         whose plain translation missed a term, then those that dropped a number, searched again,
                         those of several batches together (attnmt.decoding.retry_pool)
    sentence_hypotheses  sentences -> (input index, its n-best) per non-blank sentence
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import torch
from torch import Tensor

from attnmt.decoding import DEFAULT, MAX_TOKENS, Decoding
from attnmt.decoding.batch_search import run_search
from attnmt.decoding.capitals import read_as
from attnmt.decoding.constraints import Terms
from attnmt.decoding.dictated import NOTHING, Dictated, source_terms
from attnmt.decoding.evaluating import evaluating
from attnmt.decoding.failed_sentences import SentencesFailed, each_alone
from attnmt.decoding.inputs import (
    Glossaries,
    Guides,
    Prefixes,
    TextCodec,
    check_not_sampled,
    check_target_terms,
    checked_call,
    padded_sources,
    writes_whole,
)
from attnmt.decoding.next_tokens import next_tokens_of, shortlisted
from attnmt.decoding.numbers_kept import numbers_kept
from attnmt.decoding.penalties import Penalties
from attnmt.decoding.plain_first import PlainBatch, holds_terms, missing
from attnmt.decoding.quality_options import checked_quality
from attnmt.decoding.retry_pool import HeldBatch, RetryPool, numbers_held, own_retries
from attnmt.decoding.search import Hypothesis
from attnmt.decoding.sentence_edges import read_sentences
from attnmt.decoding.sentence_parts import parted
from attnmt.decoding.state import Recording
from attnmt.decoding.term_after import term_pieces
from attnmt.decoding.term_ids import prefix_ids
from attnmt.decoding.term_warnings import warn_fewer, warn_missed
from attnmt.decoding.unread import passed_through, unread_hypotheses
from attnmt.decoding.written_text import final_text, written_assessment
from attnmt.errors import UserError
from attnmt.model import Transformer
from attnmt.text.terminal_codes import Edges

# Assessment, Assessor: of attnmt.decoding.quality, loaded where an annotation is read (attnmt.decoding.__getattr__)
if TYPE_CHECKING:
    import attnmt.decoding.quality
else:
    import attnmt


@dataclass
class Translation:
    """One hypothesis for one input sentence."""

    text: str
    score: float  # log_prob / length penalty: what beam search ranks by
    log_prob: float  # log P(output + EOS | input)
    # how far to trust it, where asked (translate_n_best's ``quality``)
    assessment: attnmt.decoding.quality.Assessment | None = None

    def fields(self) -> dict:
        """What JSON output carries: text, then score and log_prob to 4 decimals, null where no finite
        number (a hypothesis forced through a piece the model rules out, e.g. a prefix piece the model
        gives no probability, has log-prob -inf, which JSON has no number for)."""
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
    read: Sequence[str] = ()  # every sentence (by input index) as the model read it (capitals.read_as)
    # each sentence's prefix, glossary terms and numbers a retry required (numbers_kept): what the search forced
    dictated: Sequence[Dictated] = ()

    def dictated_in(self, k: int) -> Dictated:
        """What the search was made to write into sentence k's translations (none where not known)."""
        return self.dictated[k] if k < len(self.dictated) else NOTHING

    def model_log_probs(self, k: int, j: int) -> list[float] | None:
        """The log-probs the model gives sentence k's hypothesis j's tokens, then EOS, as the search
        scored them; None where it scored none, or a penalty or a shortlist (its softmax over the
        shortlist's pieces only) left them other than the whole vocabulary's."""
        each = self.hypotheses[k][j].token_log_probs
        return each if each and Penalties.of(self.decoding) is None and not self.shortlisted else None


def searched_batches(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, max_tokens: int,
    max_sentences: int | None, scored: bool, guides: Guides, record: Recording | None = None,
    recorded: Sequence[bool] | None = None,
) -> Iterator[SearchedBatch]:
    """Every non-blank sentence's ``decoding.n_best`` hypotheses, searched in length-sorted batches
    (``run_search``, which passes ``record`` on); the model in eval mode until the last batch has been read.
    ``recorded``: a flag per sentence, and only a batch holding a flagged one records (``batch_record``); None: all.

    A sentence in capitals is read in sentence case (``capitals.read_as``: the batches' ``read``), unless given a
    prefix; its translations are to be written in capitals (``written``), its glossary is matched in it as given.

    A batch whose plain translations miss glossary terms (``first_searched``) is held, and the misses of the batches
    held are searched with their terms together; then a batch with a sentence that dropped a number is held, and the
    retries of the batches held are searched together: each pool one batch's worth from at most HELD_BATCHES batches
    at a time (attnmt.decoding.retry_pool), before each batch is yielded: the batches come in no set order, each with
    its input indices.  A model that searches a shortlist (each batch's own vocabulary) searches each batch's misses
    and retries with it, at once.

    A batch the model fails on is searched again a sentence at a time, so that a sentence that breaks a search
    breaks only itself: after the last batch, SentencesFailed names those that failed alone; a pooled search that
    fails, each batch's own.  A user's mistake (UserError) stops at once, and sampling with a glossary before
    anything is searched (``check_not_sampled``)."""
    check_not_sampled(decoding, guides.glossaries)
    # Refuse a bad term or prefix before any work, each distinct one once.
    check_target_terms(tokenizer, model.config.unk_id, guides.glossaries)
    for prefix in dict.fromkeys(prefix for prefix in guides.prefixes if prefix):
        prefix_ids(tokenizer, prefix, model.config.unk_id)
    failures: dict[int, Exception] = {}
    pieces = lambda text: len(tokenizer.encode(text))  # noqa: E731 - how many pieces the model reads a text in
    read = [read_as(sentence, prefix, pieces) for sentence, prefix in zip(sentences, guides.prefixes, strict=True)]
    if max_sentences is None:  # what suits the search, as padded_sources would take it, for the pools' batch too
        max_sentences = next_tokens_of(model).sentences_per_batch(model.config, decoding.beam_size)
    given = (model, tokenizer, sentences, decoding)  # what every step of a batch's search reads first
    first = partial(first_searched, *given, scored, guides, read=read)
    with_terms = partial(searched_again, model, tokenizer, decoding, scored, record, recorded)
    again = partial(searched_again, model, tokenizer, decoding, True, record, recorded)

    def alone(indices: list[int], src: Tensor) -> SearchedBatch:  # a sentence of a failed batch, searched alone
        return searched(*given, scored, guides, indices, src, batch_record(record, recorded, indices), read)

    def alone_held(indices: list[int], src: Tensor) -> HeldBatch:  # so, with its terms, its retries still to search
        return held_searched(*given, scored, guides, indices, src, batch_record(record, recorded, indices), read)

    pad_id, pooled = model.config.pad_id, not shortlisted(model)
    alone_each = partial(each_alone, alone, failures, pad_id)
    misses = RetryPool(with_terms, partial(numbers_held, *given), partial(each_alone, alone_held, failures, pad_id),
                       pad_id, max_tokens, max_sentences, pooled)
    retries = RetryPool(again, partial(finished, *given, guides, read), alone_each, pad_id, max_tokens, max_sentences,
                        pooled)
    with evaluating(model):
        for indices, src in padded_sources(model, tokenizer, read, max_tokens, max_sentences, decoding.beam_size):
            try:
                plain = first(indices, src, batch_record(record, recorded, indices))
            except UserError:
                raise
            except Exception as error:  # noqa: BLE001 - one sentence must not cost the others their translations
                yield from alone_each(indices, src, error)
                continue
            for held in misses.taking(plain):
                yield from retries.taking(held)
        for held in misses.finished():
            yield from retries.taking(held)
        yield from retries.finished()
    if failures:
        raise SentencesFailed(failures)


def batch_record(record: Recording | None, recorded: Sequence[bool] | None, indices: list[int]) -> Recording | None:
    """``record`` for the batch of sentences ``indices`` where ``recorded`` flags one of them (None: every batch),
    else None: a batch that records keeps each step's attention, a copy of the weights at every step."""
    return record if recorded is None or any(recorded[i] for i in indices) else None


def searched(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, scored: bool,
             guides: Guides, indices: list[int], src: Tensor, record: Recording | None = None,
             read: Sequence[str] = ()) -> SearchedBatch:
    """The batch of sentences ``indices``, src [B, S] padded (from ``read``, the sentences as the model
    reads them), searched (``held_searched``), its retries too (``own_retries``), and ``finished``."""
    held = held_searched(model, tokenizer, sentences, decoding, scored, guides, indices, src, record, read)
    again = partial(searched_again, model, tokenizer, decoding, True, record, None)
    return finished(model, tokenizer, sentences, decoding, guides, read, held, own_retries(again, held))


def held_searched(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding,
                  scored: bool, guides: Guides, indices: list[int], src: Tensor, record: Recording | None = None,
                  read: Sequence[str] = ()) -> HeldBatch:
    """The batch of sentences ``indices``, src [B, S] padded (from ``read``), searched without glossary terms
    (``first_searched``), then its sentences whose translation misses them with them (``own_retries``), its
    sentences that drop a number still to search again (retry_pool.numbers_held)."""
    plain = first_searched(model, tokenizer, sentences, decoding, scored, guides, indices, src, record, read)
    with_terms = partial(searched_again, model, tokenizer, decoding, scored, record, None)
    return numbers_held(model, tokenizer, sentences, decoding, plain, own_retries(with_terms, plain))


def first_searched(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding,
                   scored: bool, guides: Guides, indices: list[int], src: Tensor, record: Recording | None = None,
                   read: Sequence[str] = ()) -> PlainBatch:
    """The batch of sentences ``indices``, src [B, S] padded (from ``read``), searched (``run_search``) with their
    prefixes, without glossary terms, and the sentences whose translation misses them, to search again with them
    (attnmt.decoding.plain_first; matched in the sentences as given: ``JOIN US`` holds the acronym ``US``); never
    with sampling, which takes no terms (check_not_sampled)."""
    longest, unk_id = model.config.longest_input, model.config.unk_id
    prefixes = [guides.prefix_ids(tokenizer, unk_id, i, longest) for i in indices]
    terms = [guides.terms(tokenizer, unk_id, sentences, i, max(0, longest - len(prefix)), model.target_lang)
             for i, prefix in zip(indices, prefixes, strict=True)]
    pieces = term_pieces(tokenizer, model.config.vocab_size) if any(terms) else (None, None, None)
    with torch.inference_mode():
        memory = model.encode(src)
    found = run_search(model, src, decoding, scored, prefixes, [[] for _ in indices], pieces[0], memory, record,
                       *pieces[1:])
    keeps = lambda k, found: holds_terms(tokenizer, found, terms[k], len(prefixes[k]), pieces,  # noqa: E731
                                         guides.glossaries[indices[k]], sentences[indices[k]])
    return PlainBatch(indices, src, memory, prefixes, terms, found, missing(terms, found, keeps))


def finished(model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, guides: Guides,
             read: Sequence[str], held: HeldBatch, retried: list[list[Hypothesis]]) -> SearchedBatch:
    """A ``held`` batch with its retries (``retried``) taken where numbers_kept keeps them, a taken retry dictating
    its numbers as terms do, and terms only where the search was made to write them (``HeldBatch.dictates_terms``);
    a term a translation came without, or holds fewer times than its sentence, is warned of (term_warnings)."""
    hypotheses, numbers = numbers_kept(tokenizer, [sentences[i] for i in held.indices], held.hypotheses,
                                       held.retries, held.first_scores, retried)
    for i, sentence_terms, found in zip(held.indices, held.terms, hypotheses, strict=True):
        if any(h.missed for h in found):
            warn_missed(guides.missed, tokenizer, sentence_terms, [h.tokens for h in found])
        warn_fewer(guides.fewer, guides.glossaries[i], sentences[i], tokenizer, [h.tokens for h in found])
    told = [held.dictates_terms(k, bool(required)) for k, required in enumerate(numbers)]
    dictated = [Dictated(tokenizer.decode(prefix), (*(tokenizer.decode(term) for term in sentence_terms), *required),
                         source_terms(guides.glossaries[i], sentences[i]))
                if terms_told else Dictated(tokenizer.decode(prefix))
                for i, prefix, sentence_terms, required, terms_told in zip(held.indices, held.prefixes, held.terms,
                                                                           numbers, told, strict=True)]
    return SearchedBatch(held.indices, held.src, held.memory, hypotheses, decoding, shortlisted(model), read, dictated)


def searched_again(model: Transformer, tokenizer: TextCodec, decoding: Decoding, scored: bool,
                   record: Recording | None, recorded: Sequence[bool] | None, indices: list[int], src: Tensor,
                   memory: Tensor, prefixes: list[list[int]], terms: list[Terms]) -> list[list[Hypothesis]]:
    """Sentences ``indices`` (input indices), src [R, S] (their encoder output ``memory``) searched again with
    ``terms`` (a plain translation that missed its glossary's, plain_first; one that dropped a number, its numbers
    required, numbers_kept: ``scored``), recording where ``recorded`` flags one of them (``batch_record``)."""
    continuing, space, stops = term_pieces(tokenizer, model.config.vocab_size)
    return run_search(model, src, decoding, scored, prefixes, terms, continuing, memory,
                      batch_record(record, recorded, indices), space, stops)


def sentence_hypotheses(
    model: Transformer, tokenizer: TextCodec, sentences: Sequence[str], decoding: Decoding, max_tokens: int,
    max_sentences: int | None, scored: bool, guides: Guides,
) -> Iterator[tuple[int, list[Hypothesis]]]:
    """(input index, its ``decoding.n_best`` hypotheses, best first) for every non-blank sentence
    (``searched_batches``)."""
    for batch in searched_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, scored, guides):
        yield from zip(batch.indices, batch.hypotheses, strict=True)


def written(translation: Translation, decoded: str, edges: Edges | None = None) -> Translation:
    """A ``translation`` whose text is written (written_text.final_text) from the model's ``decoded`` text, between
    the codes at its ``edges``, its assessment of ``decoded`` with the written text's words (written_assessment)."""
    return replace(translation, text=edges.around(translation.text) if edges else translation.text,
                   assessment=written_assessment(translation.assessment, decoded, translation.text))


def translate(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str | bytes],
    decoding: Decoding = DEFAULT,
    max_tokens: int = MAX_TOKENS,
    max_sentences: int | None = None,
    glossary: Glossaries = None,
    prefix: Prefixes = None,
) -> list[str]:
    """One translation per input sentence (a str, or its UTF-8 bytes), in input order; blank inputs give "", and one
    without letters or of one letter (``42``, ``A``) itself (attnmt.decoding.unread).  Where the model fails on some
    sentences, SentencesFailed names them and holds the others' translations.

    Sentences are sorted by length and batched by max_tokens padded source tokens (and at most max_sentences a
    batch, unless 0; None: what suits the model's search, ``NextTokens.sentences_per_batch``); beam_size 1 uses
    greedy search.  Inputs over the model's ``longest_input`` tokens are truncated (with a warning).  The model runs
    in eval mode and is left in the mode it came in.  ``glossary``: a Glossary (``read_glossary(path)``,
    ``Glossary.of(terms)``) or a dict ``{"source term": "target term"}`` for every sentence, or a list of one (or
    None) per sentence; anything else is a ConfigError, as a ``model`` that is no Transformer is.  ``prefix``: the
    text every translation (or each) starts with.

    Each sentence is the model's input as given, but for its tabs, line breaks and sound descriptions at its start,
    where it is cut and its parts translated apart (attnmt.decoding.sentence_parts), a list's mark at its start, and a
    terminal's codes and symbols the vocabulary cannot write (an emoji) at its edges, kept around its translation, and
    its soft hyphens, dropped, as ``attnmt translate`` does (attnmt.decoding.sentence_edges; codes between its words are
    read as words, with one warning: ``checked_call``; such symbols between them are left out): the spaces at its edges
    are left out and none is written back, and Unicode's bidirectional controls and marks (attnmt.documents.bidi) are
    read as any other character.  The package's ``attnmt.translate`` (attnmt.documents.sentence_translate) places them
    all.  A sentence in capitals is read in sentence case and written in capitals (attnmt.decoding.capitals).
    """
    given = checked_call(model, tokenizer, sentences, decoding, max_tokens, max_sentences)
    parts, guides = parted(given, Guides.of(len(given), glossary, prefix))
    edges, sentences = read_sentences(parts.texts, writes_whole(tokenizer, model.config.unk_id))
    kept, sentences = passed_through(parts.texts, sentences, guides.glossaries)
    with parts.keeping(kept, parts.joined) as outputs:
        for batch in searched_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, False, guides):
            for i, hypotheses in zip(batch.indices, batch.hypotheses, strict=True):
                text = final_text(sentences[i], batch.read[i], tokenizer.decode(hypotheses[0].tokens),
                                  guides.glossaries[i], model.target_lang)
                outputs[i] = edges[i].around(text)
    return parts.joined(parts.kept(model, tokenizer, guides, outputs))


def translate_n_best(
    model: Transformer,
    tokenizer: TextCodec,
    sentences: Sequence[str | bytes],
    decoding: Decoding = DEFAULT,
    max_tokens: int = MAX_TOKENS,
    max_sentences: int | None = None,
    glossary: Glossaries = None,
    prefix: Prefixes = None,
    quality: attnmt.decoding.quality.Assessor | None = None,
) -> list[list[Translation]]:
    """The ``decoding.n_best`` best translations of each input sentence, best first, with their scores (beam search,
    also for beam_size 1, where it equals greedy search); [] for blank inputs, one without letters or of one letter
    itself alone (attnmt.decoding.unread).  ``glossary`` and ``prefix`` as for ``translate``.  With ``quality`` (an
    attnmt.decoding.quality.Assessor; None or False: none), each translation also gets its ``assessment`` (quality
    and flags), as ``assess`` would give it, from each batch's encoder output as the search left it."""
    given = checked_call(model, tokenizer, sentences, decoding, max_tokens, max_sentences)
    quality, (parts, guides) = checked_quality(quality), parted(given, Guides.of(len(given), glossary, prefix))
    edges, sentences = read_sentences(parts.texts, writes_whole(tokenizer, model.config.unk_id))
    kept, sentences = passed_through(parts.texts, sentences, guides.glossaries)
    join = partial(parts.joined_n_best, quality=quality)
    with parts.keeping(unread_hypotheses(model, tokenizer, kept, quality), join) as outputs:
        record = quality.recording(model, decoding) if quality is not None else None  # what quality reads of it
        for batch in searched_batches(model, tokenizer, sentences, decoding, max_tokens, max_sentences, True, guides,
                                      record):
            texts = [[tokenizer.decode(h.tokens) for h in hypotheses] for hypotheses in batch.hypotheses]
            assessed = (quality.searched(model, tokenizer, batch.read, batch, texts) if quality
                        else [[None] * len(each) for each in texts])
            for i, hypotheses, each, found in zip(batch.indices, batch.hypotheses, texts, assessed, strict=True):
                final = partial(final_text, sentences[i], batch.read[i], glossary=guides.glossaries[i],
                                target_lang=model.target_lang)
                outputs[i] = [written(Translation(final(text), h.score, h.log_prob, a), text, edges[i])
                              for h, text, a in zip(hypotheses, each, found, strict=True)]
    return join(parts.kept_hypotheses(model, tokenizer, guides, outputs, quality))


# The helpers' earlier names (source_batches and search_batches sounded alike, and search_batch like
# both): importable, with a warning, for one more release.
RENAMED = {"source_batches": "padded_sources", "search_batches": "sentence_hypotheses", "search_batch": "run_search"}


def __getattr__(name: str) -> Any:
    if name in RENAMED:
        warnings.warn(f"attnmt.decoding.translate.{name} is now {RENAMED[name]}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return globals()[RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
