"""How to decode: one frozen value holding every search option, with its defaults in one place.

The Python API (attnmt.translate), ``attnmt translate`` / ``evaluate`` / ``serve``, the demo,
checkpoint averaging and the figures all take a :class:`Decoding`; nothing else spells a
default beam size, length penalty or length limit.  Change one option with
``dataclasses.replace(decoding, beam_size=1)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from attnmt.errors import ConfigError

# The widest beam accepted: beyond it the work grows with no gain in quality (and a typo such as
# 2000 would take minutes and gigabytes for one sentence).
MAX_BEAM = 64


@dataclass(frozen=True)
class Decoding:
    """The search settings of one translation request.

    beam_size:     hypotheses kept per sentence (1: greedy search)
    alpha:         GNMT length penalty α; scores are log_prob / ((5 + |Y|) / 6)^α
    n_best:        finished hypotheses returned per sentence, best first (at most beam_size)
    max_len_a, max_len_b: a sentence may have at most a·source_length + b output tokens
                   (and never more than the model's positions allow)
    min_len:       EOS is ruled out before this many output tokens (1: no empty output)
    early_stopping: beam search ends a sentence once beam_size hypotheses finished, whether or
                   not an active one could still beat them (Hugging Face's early_stopping=True)
    """

    beam_size: int = 4
    alpha: float = 0.6
    n_best: int = 1
    max_len_a: float = 1.5
    max_len_b: int = 10
    min_len: int = 1
    early_stopping: bool = False

    def __post_init__(self) -> None:
        for name in ("beam_size", "n_best", "max_len_b", "min_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"decoding option {name}: expected a whole number, got {value!r}")
        for name in ("alpha", "max_len_a"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ConfigError(f"decoding option {name}: expected a finite number, got {value!r}")
        if not 1 <= self.beam_size <= MAX_BEAM:
            raise ConfigError(f"decoding option beam_size: expected 1 to {MAX_BEAM}, got {self.beam_size}")
        if not 1 <= self.n_best <= self.beam_size:
            raise ConfigError(f"decoding option n_best {self.n_best} needs beam_size {self.n_best} or more "
                              f"(got beam_size {self.beam_size})")
        if self.alpha < 0:
            raise ConfigError(f"decoding option alpha: expected 0 or more, got {self.alpha}")
        if self.max_len_a < 0 or self.max_len_b < 0 or self.min_len < 0:
            raise ConfigError("decoding options max_len_a, max_len_b and min_len must be 0 or more, got "
                              f"{self.max_len_a}, {self.max_len_b}, {self.min_len}")

    @property
    def greedy(self) -> bool:
        """Whether one hypothesis per sentence is kept (greedy search)."""
        return self.beam_size == 1

    def max_output_length(self, src_len: int, longest: int) -> int:
        """At most a·src_len + b output tokens, and at most ``longest`` (what the model's positions
        allow: ``TransformerConfig.longest_input``)."""
        return max(0, min(int(self.max_len_a * src_len + self.max_len_b), longest))

    def with_max_length(self, max_length: int | None) -> Decoding:
        """This decoding with a fixed output limit of ``max_length`` tokens (None: unchanged)."""
        if max_length is None:
            return self
        return Decoding(**{**self.as_dict(), "max_len_a": 0.0, "max_len_b": max_length})

    def as_dict(self) -> dict:
        """The options as a plain dict (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT = Decoding()
