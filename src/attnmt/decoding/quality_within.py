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

A word or two added ("Ein Hund rennt gestern durch das Gras." for "A dog runs through the grass.") is too short a
run to read so: a right word the model would have put otherwise, or the first word of a phrase moved ("Am Strand
spielen zwei Kinder Fußball."), is as unlikely and as unsupported.  What tells an added word apart is that nothing
needs it: read once more with the run left out, the translation's other words are no less likely ("Ein Hund rennt
durch das Gras."), where leaving out a needed word ("Strand spielen zwei Kinder Fußball.") makes the words after it
unlikely.  So a run of one
or two words the model did not expect, that its source makes far less likely than no source does
(SHORT_UNSUPPORTED), is read without its words (``left_out``); where the others lose nothing (SHORT_LEFT_OUT), it
is added.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
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
# A run of a word or two, as unlikely (WITHIN_UNLIKELY, WITHIN_CONTRAST) wherever its attention goes...
SHORT_RUN = (1, 2)
# ... that its source makes at least this much less likely a word than no source does (so can the first word of a
# phrase moved: "Am" in "Am Strand spielen zwei Kinder Fußball." by 5.8, "gestern" added by 3.2)...
SHORT_UNSUPPORTED = -3.0
# ... and without which the translation's other pieces and its end are at least this much likelier (their
# log-probs summed): nothing in it needs the run.  On the demo model these flagged 3 of Multi30k's 1,014 validation
# references and none of its own translations of them, chosen on the first half of the one- and two-word additions
# of benchmarks/experiments/quality_added_within.py: at 0.5, 2 references for 7 points less of the adjectives
# added (15 % of them caught); with SHORT_UNSUPPORTED at -2.5, 4 references for 5 to 7 points more.
SHORT_LEFT_OUT = 0.0


class PieceReader(TextCodec, Protocol):
    """What ``with_source_unread`` reads of a tokenizer besides ``translate``'s: a source's pieces, and where each
    piece of a translation stands in it (load_model_dir's tokenizers have both)."""

    def pieces(self, text: str) -> list[str]: ...

    def target_spans(self, text: str) -> list[tuple[int, int]]: ...


@dataclass(frozen=True)
class Words:
    """A translation cut into its words once, for ``within_runs`` and ``short_runs`` alike: each word's pieces
    (indices into the translation's pieces) and its log-prob (its pieces' summed)."""

    pieces: list[list[int]]
    log_probs: list[float]


def translation_words(log_probs: Sequence[float], translation: str, spans: Sequence[tuple[int, int]]) -> Words:
    """The Words of ``translation``; ``log_probs``: each piece's, ``spans``: each piece's characters in it."""
    pieces = word_pieces(translation, spans)
    return Words(pieces, [sum(log_probs[k] for k in word) for word in pieces])


def within_runs(words: Words, cross: Tensor, words_end: int) -> list[list[list[int]]]:
    """Each run of WITHIN_RUN ``words``, a word before and after it, that the model did not expect
    (``unlikely_runs``) and whose attention goes to source pieces the other words read (WITHIN_READ_ELSEWHERE): its
    words' pieces (indices).  ``cross``: [T, S], the source's pieces before ``words_end`` its words'."""
    reads = cross[:, :words_end]  # [T, S']: what each piece reads of the source's words
    return [run for run in unlikely_runs(words, WITHIN_RUN)
            if read_elsewhere(reads, [k for pieces in run for k in pieces]) >= WITHIN_READ_ELSEWHERE]


def short_runs(words: Words) -> list[list[list[int]]]:
    """Each run of SHORT_RUN ``words``, a word before and after it, that the model did not expect
    (``unlikely_runs``): its words' pieces (indices)."""
    return unlikely_runs(words, SHORT_RUN)


def unlikely_runs(words: Words, sizes: tuple[int, int]) -> list[list[list[int]]]:
    """Each run of ``sizes`` (fewest, most) ``words``, a word before and after it, whose words average
    WITHIN_UNLIKELY or less and WITHIN_CONTRAST under the median of the other words: its words' pieces."""
    lps = words.log_probs
    found = []
    for size in range(sizes[0], sizes[1] + 1):
        for first in range(1, len(lps) - size):
            mean, others = sum(lps[first:first + size]) / size, lps[:first] + lps[first + size:]
            if mean <= WITHIN_UNLIKELY and mean <= statistics.median(others) - WITHIN_CONTRAST:
                found.append(words.pieces[first:first + size])
    return found


def read_elsewhere(reads: Tensor, run: Sequence[int]) -> float:
    """The share of the ``run`` pieces' attention (``reads``: [T, S]) on source pieces the other pieces read, each
    counted up to what the others give it, at most 1 (a piece read once)."""
    inside = reads[list(run)].sum(dim=0)  # [S]
    outside = reads.sum(dim=0) - inside
    return float((inside * outside.clamp(max=1.0)).sum() / inside.sum().clamp(min=1e-9))


def added_within(forced: ForcedPass, log_probs: Sequence[float]) -> bool:
    """Whether a run of ``within_runs`` the pass without a source was read for is one its source makes no likelier
    than no source (WITHIN_UNSUPPORTED), or a run of ``short_runs`` one it makes far less likely (SHORT_UNSUPPORTED)
    and that the other words do not need (SHORT_LEFT_OUT), read from ``forced.without_source`` (``with_source_unread``;
    where it was not read, no run is).  ``log_probs``: each piece's as quality counts them (a dictated piece's
    raised: dictated.counted_log_probs)."""
    read = forced.without_source
    if read is None:
        return False
    return any(unsupported(run, log_probs, read.log_probs, WITHIN_UNSUPPORTED) for run in read.runs) \
        or any(unsupported(run, log_probs, read.log_probs, SHORT_UNSUPPORTED)
               and read.left_out.get(pieces_of(run), SHORT_LEFT_OUT - 1.0) >= SHORT_LEFT_OUT
               for run in read.short)


def unsupported(run: Sequence[Sequence[int]], log_probs: Sequence[float], unconditioned: Sequence[float],
                margin: float) -> bool:
    """Whether the ``run``'s words (their pieces' indices) average ``margin`` or less log-prob with their source
    (``log_probs``) than without (``unconditioned``)."""
    return sum(log_probs[k] - unconditioned[k] for pieces in run for k in pieces) <= margin * len(run)


def pieces_of(run: Sequence[Sequence[int]]) -> tuple[int, ...]:
    return tuple(k for pieces in run for k in pieces)


def with_source_unread(model: Transformer, tokenizer: PieceReader, passes: Mapping[int, ForcedPass],
                       sources: Sequence[str], translations: Sequence[str], max_tokens: int,
                       dictated: Sequence[Dictated] = ()) -> dict[int, ForcedPass]:
    """``passes`` (pair index: its ForcedPass), each with a run of ``within_runs`` or ``short_runs`` read once more
    with no source (a source of </s> alone): its ``without_source``, the runs and their log-probs, which
    ``added_within`` reads without finding them again; and each with a short run its source makes far less likely
    (SHORT_UNSUPPORTED) read once more without that run: its ``left_out`` gains.  The runs are found from the
    log-probs as quality counts them (``dictated``: what the search made each translation hold, none where not
    given: dictated.counted_log_probs).  Few of a model's own translations have such a run (28 of the demo model's
    1,014 of Multi30k's validation sources), most texts written by people do (643 of their references: a second
    pass for them), and few runs are so unsupported (none in its own, 43 in the references: a third pass for those
    alone)."""
    counted, runs, short = {}, {}, {}
    for i, forced in passes.items():
        pieces = cut(tokenizer.pieces(sources[i]), len(forced.source), tokenizer.source_eos)
        spans = tokenizer.target_spans(translations[i])[: len(forced.target)]
        told = dictated[i] if dictated else NOTHING
        lps = counted_log_probs(forced.log_probs, dictated_pieces(spans, told.spans(translations[i]), translations[i]))
        words = translation_words(lps, translations[i], spans)
        within, few = within_runs(words, forced.cross, source_end(pieces)), short_runs(words)
        if within or few:
            counted[i], runs[i], short[i] = lps, within, few
    rows = list(runs)
    nothing = [model.config.eos_id]
    read: dict[int, WithoutSource] = {}
    doubtful = {}
    for k, alone in forced_passes(model, [nothing] * len(rows), [passes[i].target for i in rows], max_tokens):
        i = rows[k]
        read[i] = WithoutSource(runs[i], alone.log_probs, short[i])
        doubtful[i] = [pieces_of(run) for run in short[i]
                       if unsupported(run, counted[i], alone.log_probs, SHORT_UNSUPPORTED)]
    for i, gains in left_out_gains(model, passes, doubtful, max_tokens).items():
        read[i] = replace(read[i], left_out=gains)
    return {**passes, **{i: replace(passes[i], without_source=without) for i, without in read.items()}}


def left_out_gains(model: Transformer, passes: Mapping[int, ForcedPass], runs: Mapping[int, Sequence[tuple[int, ...]]],
                   max_tokens: int) -> dict[int, dict[tuple[int, ...], float]]:
    """For each pair's ``runs`` (their pieces' indices): how much likelier the translation's other pieces and its
    end are, read with its source, with the run's pieces left out (their log-probs summed)."""
    todo = [(i, run) for i, found in runs.items() for run in found]
    shorter = [[piece for k, piece in enumerate(passes[i].target) if k not in run] for i, run in todo]
    gains: dict[int, dict[tuple[int, ...], float]] = defaultdict(dict)
    for n, read in forced_passes(model, [passes[i].source for i, _ in todo], shorter, max_tokens):
        i, run = todo[n]
        kept = sum(lp for k, lp in enumerate(passes[i].log_probs) if k not in run)
        gains[i][run] = sum(read.log_probs) - kept
    return gains
