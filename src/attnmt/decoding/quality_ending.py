"""How a translation ends, which quality estimation (attnmt.decoding.quality) reads apart from its words.

A sentence written without a final full stop ends on its last word, and ending there is no fault where
its source ends so too.  A model that learnt to end sentences with a mark (of Multi30k's 1,379 training
sources without one, 1,238 have a German reference with one) gives the end right after the last word a
low probability: the demo model read "Zwei Männer bauen eine blaue Eisfischerhütte auf einem zugefrorenen
See auf" with an end log-prob of -8.6, the least of the pass, and gave that reference quality 0.0009.
Where neither side ends with a final mark (``open_ended``), the end is read as the model's probability of
ending there or after a full stop, P(EOS) + P(STOP) · P(EOS | STOP), from a second pass over the text with
STOP after it (``with_stop_read``).  A translation cut off keeps its low end: the model expects no full
stop after "auf einem" either.


The ``punctuation`` rule (quality_measures.stop_lost) reads a translation only where the model can write its
source's final mark (``mark_written``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from attnmt.decoding.forced import ForcedPass, forced_passes
from attnmt.decoding.inputs import TextCodec
from attnmt.decoding.quality_measures import WORD, ends_sentence, final_character
from attnmt.model import Transformer

# (pair indices, the ids each is to be read as) -> (k, the ForcedPass of the k-th pair so read), for each with ids
Reread = Callable[[list[int], list[list[int]]], Iterable[tuple[int, ForcedPass]]]
STOP = "."  # the full stop read after an open-ended translation (``with_stop_read``)


def open_ended(source: str, translation: str) -> bool:
    """Whether neither ``source`` nor ``translation`` ends with a final mark (``ends_sentence``) and the
    translation has a word: its end is read with STOP after it too (``with_stop_read``)."""
    return not ends_sentence(source) and not ends_sentence(translation) and WORD.search(translation) is not None


def with_stop_read(model: Transformer, tokenizer: TextCodec, passes: Mapping[int, ForcedPass],
                   sources: Sequence[str], translations: Sequence[str], max_tokens: int,
                   read: Reread | None = None) -> dict[int, ForcedPass]:
    """``passes`` (pair index: its ForcedPass), the end of each ``open_ended`` pair's translation read as
    log(P(EOS) + P(STOP) · P(EOS | STOP)) (``stop_ending``) from one more forced pass over the translation
    with STOP after it, where its ids are the translation's ids and STOP's after them and fit the model.  ``read``:
    how to read those (``Reread``): assess_searched's against the search's encoder output, which that pass would
    otherwise compute again; None: forced_passes over the passes' sources."""
    longest = model.config.longest_input - 1  # as quality.translation_ids cuts a translation
    stopped: dict[int, list[int]] = {}
    for i, forced in passes.items():
        ids = tokenizer.encode_target(translations[i] + STOP) if open_ended(sources[i], translations[i]) else []
        if len(forced.target) < len(ids) <= longest and ids[:len(forced.target)] == forced.target:
            stopped[i] = ids
    found = dict(passes)
    rows = list(stopped)
    if read is None:
        read = lambda rows, targets: forced_passes(model, [passes[i].source for i in rows], targets,  # noqa: E731
                                                   max_tokens)
    for k, again in read(rows, [stopped[i] for i in rows]):
        found[rows[k]] = stop_ending(passes[rows[k]], again)
    return found


def stop_ending(forced: ForcedPass, stopped: ForcedPass) -> ForcedPass:
    """``forced`` with its end's log-prob (its last) log(P(EOS) + P(STOP) · P(EOS | STOP)), P(STOP) · P(EOS |
    STOP) being the probability of ``stopped``'s pieces after ``forced``'s and of its end."""
    after = math.fsum(stopped.log_probs[len(forced.target):])  # STOP's pieces, then EOS
    end = forced.log_probs[-1]
    either = max(end, after) + math.log1p(math.exp(-abs(end - after)))  # log(e^end + e^after), no overflow
    # At most 0: an end a search scored (assess_searched reads its log-probs) and STOP a forced pass scored are
    # of two distributions, which may give the two more than 1 together.
    return replace(forced, log_probs=[*forced.log_probs[:-1], min(0.0, either)])


def mark_written(tokenizer: TextCodec, source: str, unk_id: int) -> bool:
    """Whether the model's vocabulary writes ``source``'s final mark (``final_character``) with no unknown
    piece: a vocabulary without "." loses every full stop, and the ``punctuation`` rule would flag every line,
    as ``unknown`` would for punctuation alone (quality_features.unknown_pieces)."""
    mark = final_character(source)
    return bool(mark) and unk_id not in tokenizer.encode_target(mark)
