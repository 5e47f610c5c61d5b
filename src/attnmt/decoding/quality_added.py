"""A short phrase the source does not say, added at a translation's end: the ``added`` rule of quality
(attnmt.decoding.quality) reads it beside quality_measures.added, which reads longer runs of words.

A decoder that has translated every source word looks at the source's end (its final marks and </s>) and expects
the translation to end.  A phrase added there ("Ein Mann arbeitet an einem Gebäude im Regen." for "A guy works on a
building.") starts with a word that reads the source's end ("im": 0.69 of its attention on the demo model) and that
the model did not expect (-7.8), and the words after it come from nothing the model read (-8.3 for "Regen"); their
attention may wander back to the source, so no run of words read from its end shows it.  A German verb or particle
at a sentence's end reads the source's end too, but the model expects it.
"""

from __future__ import annotations

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


def tail_added(at_end: Sequence[float], log_probs: Sequence[float], translation: str,
               spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the last 2 to 4 words of ``translation`` (ADDED_TAIL) are a phrase added after it: the first of them
    gives ADDED_LEAD of its attention or more to the source's end, and they average ADDED_UNLIKELY or less.
    ``at_end``: each piece's attention to the source's end; ``log_probs``: each piece's; ``spans``: each piece's
    characters in ``translation``, one a row of both (EOS's past them is not read)."""
    words = word_readings(at_end, log_probs, translation, spans)
    low, high = ADDED_TAIL
    for size in range(low, min(high, len(words) - low) + 1):
        tail = words[-size:]
        if tail[0][0] >= ADDED_LEAD and sum(lp for _, lp in tail) / size <= ADDED_UNLIKELY:
            return True
    return False


def word_readings(at_end: Sequence[float], log_probs: Sequence[float], translation: str,
                  spans: Sequence[tuple[int, int]]) -> list[tuple[float, float]]:
    """(attention to the source's end, log-prob) of each word of ``translation`` with a letter or digit: the mean
    of its pieces' attention and the sum of their log-probs, punctuation pieces aside."""
    words: dict[int, list[tuple[float, float]]] = {}
    for (begin, stop), attention, lp in zip(spans, at_end, log_probs, strict=False):
        if any(ch.isalnum() for ch in translation[begin:stop]):
            words.setdefault(len(translation[:stop].split()), []).append((attention, lp))
    return [(sum(a for a, _ in read) / len(read), sum(lp for _, lp in read)) for _, read in sorted(words.items())]
