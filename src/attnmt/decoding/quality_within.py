"""A phrase the source does not say, added within a translation, between words that translate it: the ``added``
rule of quality (attnmt.decoding.quality) reads it beside quality_measures.added and quality_added, which read
the source's end.

A phrase added in mid-sentence ("Ein Mann mit einem roten Hut, der gestern in Berlin war, fährt Fahrrad." for "A
man in a red hat rides a bike.") does not read the source's end: its attention wanders over source words the
words around it translate.  Its words are unlikely (the model did not expect them), but so are the words of a
right translation the model would have put otherwise (a reference's "Sortiment an Bananen", a phrase moved).
What tells them apart is what the source does for them: a word that translates a source word is likelier with
that source than with none, and an added one is not.  So a run of words the model did not expect, far less likely
than the translation's other words, whose attention goes to source words the rest of the translation reads
already, is read once more with no source at all (a source of </s> alone, ``with_source_unread``): where the
source makes its words less likely on average than no source does (WITHIN_UNSUPPORTED), it does not say them.  On
the demo model, phrases put into Multi30k's validation references averaged a median -8.8 a word with their source
and -8.4 with none; the unlikely runs of the references as they are (-5 or less a word) 3.4 more with it.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from torch import Tensor

from attnmt.decoding.dictated import NOTHING, Dictated, counted_log_probs, dictated_pieces
from attnmt.decoding.forced import ForcedPass, WithoutSource, forced_passes
from attnmt.decoding.inputs import TextCodec, cut
from attnmt.decoding.quality_added import word_pieces
from attnmt.decoding.quality_measures import source_end
from attnmt.model import Transformer

# The words of a run added within: at least the first, at most the second, with a word before and after it.
WITHIN_RUN = (3, 6)
# Its words average this log-probability or less (a word's: its pieces' summed)...
WITHIN_UNLIKELY = -5.0
# ... at least this much less than the median of the translation's other words...
WITHIN_CONTRAST = 4.0
# ... and this share of its attention or more goes to source pieces the translation's other words read already
# (a piece they read once: attention 1 from them, ``read_elsewhere``).
WITHIN_READ_ELSEWHERE = 0.8
# With its source, the run's words average at least this much less log-probability than with none (at most this
# much more, were it positive): the source makes them no likelier, as it would the words that translate it.  On
# the demo model, with the settings above, 0 flagged 9 more of Multi30k's 1,014 validation references, -0.5 one
# more, -1 one more; none of its own translations of them at any.  The settings were chosen on the first half of
# them, the additions made from it (benchmarks/experiments/quality_added_within.py).
WITHIN_UNSUPPORTED = -0.5


class PieceReader(TextCodec, Protocol):
    """What ``with_source_unread`` reads of a tokenizer besides ``translate``'s: a source's pieces, and where each
    piece of a translation stands in it (load_model_dir's tokenizers have both)."""

    def pieces(self, text: str) -> list[str]: ...

    def target_spans(self, text: str) -> list[tuple[int, int]]: ...


def within_runs(log_probs: Sequence[float], cross: Tensor, words_end: int, translation: str,
                spans: Sequence[tuple[int, int]]) -> list[list[list[int]]]:
    """Each run of WITHIN_RUN words of ``translation``, a word before and after it, that the model did not expect
    (WITHIN_UNLIKELY, WITHIN_CONTRAST) and whose attention goes to source pieces the other words read
    (WITHIN_READ_ELSEWHERE): its words' pieces (indices).  ``log_probs``: each piece's; ``cross``: [T, S], the
    source's pieces before ``words_end`` its words'; ``spans``: each piece's characters in ``translation``."""
    words = word_pieces(translation, spans)
    word_lps = [sum(log_probs[k] for k in pieces) for pieces in words]
    reads = cross[:, :words_end]  # [T, S']: what each piece reads of the source's words
    found = []
    low, high = WITHIN_RUN
    for size in range(low, high + 1):
        for first in range(1, len(words) - size):
            mean = sum(word_lps[first:first + size]) / size
            others = word_lps[:first] + word_lps[first + size:]
            run = words[first:first + size]
            if mean <= WITHIN_UNLIKELY and mean <= statistics.median(others) - WITHIN_CONTRAST \
                    and read_elsewhere(reads, [k for pieces in run for k in pieces]) >= WITHIN_READ_ELSEWHERE:
                found.append(run)
    return found


def read_elsewhere(reads: Tensor, run: Sequence[int]) -> float:
    """The share of the ``run`` pieces' attention (``reads``: [T, S]) on source pieces the other pieces read, each
    counted up to what the others give it, at most 1 (a piece read once)."""
    inside = reads[list(run)].sum(dim=0)  # [S]
    outside = reads.sum(dim=0) - inside
    return float((inside * outside.clamp(max=1.0)).sum() / inside.sum().clamp(min=1e-9))


def added_within(forced: ForcedPass, log_probs: Sequence[float]) -> bool:
    """Whether a run the pass without a source was read for (``forced.without_source``: ``with_source_unread``;
    where it was not read, no run is) is one its source makes no likelier than no source (WITHIN_UNSUPPORTED).
    ``log_probs``: each piece's as quality counts them (a dictated piece's raised: dictated.counted_log_probs)."""
    read = forced.without_source
    return read is not None and any(
        sum(log_probs[k] - read.log_probs[k] for pieces in run for k in pieces) <= WITHIN_UNSUPPORTED * len(run)
        for run in read.runs)


def unlikely_runs(forced: ForcedPass, source_pieces: Sequence[str], translation: str,
                  spans: Sequence[tuple[int, int]], dictated: Dictated = NOTHING) -> list[list[list[int]]]:
    """``within_runs`` of ``translation`` from its ForcedPass, its log-probs as quality counts them (a piece
    ``dictated`` made the search write raised: dictated.counted_log_probs).  ``source_pieces``: the text of each
    source piece the pass read; ``spans``: each translation piece's characters."""
    counted = counted_log_probs(forced.log_probs, dictated_pieces(spans, dictated.spans(translation), translation))
    return within_runs(counted, forced.cross, source_end(source_pieces), translation, spans)


def with_source_unread(model: Transformer, tokenizer: PieceReader, passes: Mapping[int, ForcedPass],
                       sources: Sequence[str], translations: Sequence[str], max_tokens: int,
                       dictated: Sequence[Dictated] = ()) -> dict[int, ForcedPass]:
    """``passes`` (pair index: its ForcedPass), each with ``unlikely_runs`` read once more with no source (a
    source of </s> alone): its ``without_source``, the runs and their log-probs, which ``added_within`` reads
    without finding them again.  ``dictated``: what the search made each translation hold (none where not
    given).  Few translations have such a run (1 of the demo model's 1,014 own translations of Multi30k's
    validation sources, 97 of their references), so the pass costs little."""
    found = dict(passes)
    runs = {}
    for i, forced in passes.items():
        pieces = cut(tokenizer.pieces(sources[i]), len(forced.source), tokenizer.source_eos)
        spans = tokenizer.target_spans(translations[i])[: len(forced.target)]
        if unread := unlikely_runs(forced, pieces, translations[i], spans, dictated[i] if dictated else NOTHING):
            runs[i] = unread
    rows = list(runs)
    nothing = [model.config.eos_id]
    for k, read in forced_passes(model, [nothing] * len(rows), [passes[i].target for i in rows], max_tokens):
        found[rows[k]] = replace(passes[rows[k]], without_source=WithoutSource(runs[rows[k]], read.log_probs))
    return found
