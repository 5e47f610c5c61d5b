"""The sentences that recur across the calls a document is translated in (a footer on every page,
a table's headings), so that each is translated once and its translation kept no longer than needed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from attnmt.documents.flat import FlatText, pairs
from attnmt.documents.no_break_spaces import needs_alignment
from attnmt.documents.spans import Weights


@dataclass
class Repeats:
    """The sentences that recur across the ``translate_flats`` calls of one document (a footer on
    every page, a table's headings): each is translated in the first call that holds it, weighed if
    any of its uses needs it, and its translation is kept only until the last call that holds it.

    left:    calls still to come that hold the sentence
    weighed: sentences some use of which needs word weights (``needs_alignment``)
    kept:    sentence -> (translation, weights) from an earlier call"""

    left: dict[str, int]
    weighed: set[str]
    kept: dict[str, tuple[str, Weights | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, calls: Sequence[tuple[Sequence[FlatText], Sequence[list[tuple[int, int]]]]]) -> Repeats:
        """The repeats of the calls (flat texts, their ``flat_sentences``) a document is cut into."""
        left: Counter[str] = Counter()
        weighed = set()
        for flats, sentences in calls:
            left.update({flat.text[s:e] for flat, (s, e) in pairs(flats, sentences)})
            weighed |= {flat.text[s:e] for flat, spans in zip(flats, sentences, strict=True)
                        for (s, e), need in zip(spans, needs_alignment(flat, spans), strict=True) if need}
        return cls({sentence: n for sentence, n in left.items() if n > 1}, weighed)

    def done(self, translated: dict[str, tuple[str, Weights | None]]) -> None:
        """A call's sentences translated: those a later call holds are kept, the rest let go."""
        for sentence in translated.keys() & self.left.keys():
            self.left[sentence] -= 1
            if self.left[sentence]:
                self.kept[sentence] = translated[sentence]
            else:
                del self.left[sentence]
                self.kept.pop(sentence, None)
