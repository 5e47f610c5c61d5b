"""A short phrase the source does not say, added at a translation's end: the ``added`` rule of quality
(attnmt.decoding.quality) reads it beside quality_measures.added, which reads longer runs of words.

A decoder that has translated every source word looks at the source's end (its final marks and </s>) and expects
the translation to end.  A phrase added there ("Ein Mann arbeitet an einem Gebäude im Regen." for "A guy works on a
building.") starts with a word that reads the source's end ("im": 0.69 of its attention on the demo model) and that
the model did not expect (-7.8), and the words after it come from nothing the model read (-8.3 for "Regen"); their
attention may wander back to the source, so no run of words read from its end shows it.  A German verb or particle
at a sentence's end reads the source's end too, but the model expects it.  A right translation's last phrase may
start as unexpectedly ("aus" -8.1 in "neben einem Gebäude aus Stein." for "near a stone building."), but once it has
started, the source says what follows ("Stein" -2.3 for "stone"); and a translation the model finds unlikely
throughout, an idiom it never learnt ("Wie geht es dir?" for "How are you?": -7.4 to -11.3 a word), has no tail it
expected less than the rest.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

# The words of an added tail: at least the first, at most the second, before the translation's final marks; and
# at least the first before it (a translation is left that the tail is added to).
ADDED_TAIL = (2, 4)
# The first word of the tail gives this share of its attention or more to the source's end (end_attention)...
ADDED_LEAD = 0.6
# ... and its words average this log-probability or less (under 0.7 %: a word's, its pieces' log-probs summed).
# On the demo model, the tail alone at 0.6 and -5 flagged 7 of 2,243 good pairs (Multi30k's validation and test
# references, the held-out news, software and travel ones), at 0.6 and -4 10, at 0.5 and -5 15; 0.7 and -5 caught
# half the additions 0.6 did.
ADDED_UNLIKELY = -5.0
# ... the words after the first average this log-probability or less: they say nothing the source said...
ADDED_AFTER_LEAD = -3.0
# ... and the tail averages at least this much less than the median word before it.  On the demo model, the tail
# without the last two conditions flagged 6 of Multi30k's 1,714 validation and test references and "Wie geht es
# dir?", with them 4 and not it; of the phrases added at the end of 400 test references 129, with them 128; of
# quality_labelled.py's 269 and 26 clauses added 84 and 14, with them 84 and 13.  ADDED_CONTRAST 4 left 3 references
# but 80 and 11; ADDED_AFTER_LEAD alone left 4 references and "Wie geht es dir?"
# (benchmarks/experiments/quality_added_tail.py, benchmarks/results/quality_added_contrast_xeon.txt).
ADDED_CONTRAST = 2.0


def tail_added(at_end: Sequence[float], log_probs: Sequence[float], translation: str,
               spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the last 2 to 4 words of ``translation`` (ADDED_TAIL) are a phrase added after it: the first of them
    gives ADDED_LEAD of its attention or more to the source's end, they average ADDED_UNLIKELY or less, those after
    the first ADDED_AFTER_LEAD or less, and all of them ADDED_CONTRAST less than the median word before them.
    ``at_end``: each piece's attention to the source's end; ``log_probs``: each piece's; ``spans``: each piece's
    characters in ``translation``, one a row of both (EOS's past them is not read)."""
    words = word_readings(at_end, log_probs, translation, spans)
    low, high = ADDED_TAIL
    for size in range(low, min(high, len(words) - low) + 1):
        tail, before = [lp for _, lp in words[-size:]], [lp for _, lp in words[:-size]]
        mean = sum(tail) / size
        if words[-size][0] >= ADDED_LEAD and mean <= ADDED_UNLIKELY and sum(tail[1:]) / (size - 1) <= ADDED_AFTER_LEAD \
                and mean <= statistics.median(before) - ADDED_CONTRAST:
            return True
    return False


def word_readings(at_end: Sequence[float], log_probs: Sequence[float], translation: str,
                  spans: Sequence[tuple[int, int]]) -> list[tuple[float, float]]:
    """(attention to the source's end, log-prob) of each word of ``translation`` with a letter or digit: the mean
    of its pieces' attention and the sum of their log-probs, punctuation pieces aside."""
    return [(sum(at_end[k] for k in read) / len(read), sum(log_probs[k] for k in read))
            for read in word_pieces(translation, spans[: min(len(at_end), len(log_probs))])]


def word_pieces(translation: str, spans: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The pieces (indices into ``spans``, each piece's characters) of each word of ``translation`` with a letter
    or digit, in order; a piece of punctuation alone is no word's."""
    words: dict[int, list[int]] = {}
    for k, (begin, stop) in enumerate(spans):
        if any(ch.isalnum() for ch in translation[begin:stop]):
            words.setdefault(len(translation[:stop].split()), []).append(k)
    return [pieces for _, pieces in sorted(words.items())]
