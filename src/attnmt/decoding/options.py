"""How to decode: one frozen value holding every search option, with its defaults in one place.

The Python API (attnmt.translate), ``attnmt translate`` / ``evaluate`` / ``serve``, the demo,
checkpoint averaging and the figures all take a :class:`Decoding`; nothing else spells a
default beam size, length penalty or length limit.  Change one option with
``dataclasses.replace(decoding, beam_size=1)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from attnmt.config_ranges import finite_number, truth_value, whole_number
from attnmt.errors import ConfigError

# The widest beam accepted: beyond it the work grows with no gain in quality (and a typo such as
# 2000 would take minutes and gigabytes for one sentence).
# GNMT's α is 0.6-1.0 in practice; one in the hundreds overflows ((5 + |Y|) / 6)^α, a float.
MAX_ALPHA = 10
MAX_BEAM = 64
# Padded source tokens per batch of sentences searched together (attnmt.decoding.translate and all that
# batch through it: alignments, documents, ``attnmt translate --max-tokens``).
MAX_TOKENS = 4096
# The sampler divides float32 logits by the temperature: above float32's largest number it is inf there,
# and a banned token's -inf / inf is NaN, which drew the padding token at every step (empty output).
MOST_TEMPERATURE = 3.4028234663852886e38
# The penalty divides the float32 logits of the tokens already written: a logit of 40 divided by 1e-37 is
# above float32's largest number, inf, and inf - inf in the softmax is NaN (the readable and prepared models
# wrote different garbage).  1e-30 keeps every logit under 3.4e8 finite, far above any model's.
LEAST_REPETITION_PENALTY = 1e-30
MOST_SEED = 2**64 - 1  # a seed is 64 bits of the key of each sentence's random stream (next_tokens.SentenceStreams)


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
    sampling_topk: 1: no sampling (the most likely token); 0 or k > 1: each token is drawn at
                   random from the whole distribution (0) or its k most likely tokens (k), as
                   CTranslate2's option of that name (with beam_size 1; for back-translation)
    sampling_topp: with sampling, draw from the fewest most likely tokens whose probability
                   adds up to at least p (nucleus sampling; 1: all of them)
    sampling_temperature: with sampling, draw from softmax(logits / temperature)
    seed:          with sampling, the seed of each sentence's random stream (0 to MOST_SEED): the
                   same sentence, options and seed give the same output, whatever it is batched
                   with (None: a new draw each time)
    no_repeat_ngram_size: no n-gram of this many tokens occurs twice in an output (0: off); the
                   pieces of a prefix or a glossary term are never banned
    repetition_penalty: logits of tokens already in the output are divided by this (multiplied,
                   where negative), as in CTRL (Keskar et al., 2019); 1: off; at least
                   LEAST_REPETITION_PENALTY
    disable_unk:   the unknown piece is never generated
    """

    beam_size: int = 4
    alpha: float = 0.6
    n_best: int = 1
    max_len_a: float = 1.5
    max_len_b: int = 10
    min_len: int = 1
    early_stopping: bool = False
    sampling_topk: int = 1
    sampling_topp: float = 1.0
    sampling_temperature: float = 1.0
    seed: int | None = None
    no_repeat_ngram_size: int = 0
    repetition_penalty: float = 1.0
    disable_unk: bool = False

    def __post_init__(self) -> None:
        # Any numeric type (NumPy's too) is read as the int or float the search takes; a bool is no number.
        for name in ("beam_size", "n_best", "max_len_b", "min_len", "sampling_topk", "no_repeat_ngram_size"):
            self.normalise(name, whole_number, "a whole number")
        for name in ("alpha", "max_len_a", "sampling_topp", "sampling_temperature", "repetition_penalty"):
            self.normalise(name, finite_number, "a finite number")
        if not 1 <= self.beam_size <= MAX_BEAM:
            raise ConfigError(f"decoding option beam_size: expected 1 to {MAX_BEAM}, got {self.beam_size}")
        if self.sampling and self.n_best > 1:  # before the beam n_best needs, which sampling would refuse next
            raise ConfigError(f"sampling draws one translation per sentence, so n_best {self.n_best} has no list to "
                              "return: leave out n_best or sampling")
        if self.n_best < 1:  # apart from the beam: 0 said "needs beam_size 0 or more", which every beam is
            raise ConfigError(f"decoding option n_best: expected 1 or more, got {self.n_best}")
        if self.n_best > self.beam_size:
            raise ConfigError(f"decoding option n_best {self.n_best} needs beam_size {self.n_best} or more "
                              f"(got beam_size {self.beam_size})")
        if not 0 <= self.alpha <= MAX_ALPHA:
            raise ConfigError(f"decoding option alpha: expected 0 to {MAX_ALPHA}, got {self.alpha}")
        if self.max_len_a < 0 or self.max_len_b < 0 or self.min_len < 0:
            raise ConfigError("decoding options max_len_a, max_len_b and min_len must be 0 or more, got "
                              f"{self.max_len_a}, {self.max_len_b}, {self.min_len}")
        self.check_sampling()
        if self.no_repeat_ngram_size < 0:
            raise ConfigError(f"decoding option no_repeat_ngram_size: expected 0 or more, "
                              f"got {self.no_repeat_ngram_size}")
        if self.repetition_penalty < LEAST_REPETITION_PENALTY:
            raise ConfigError(f"decoding option repetition_penalty: expected at least {LEAST_REPETITION_PENALTY:g} "
                              f"(a logit divided by less overflows float32), got {self.repetition_penalty}")
        for name in ("early_stopping", "disable_unk"):  # "false" was taken as True, without a word
            self.normalise(name, truth_value, "true or false")

    def normalise(self, name: str, read: Callable[[object], float | None], kind: str) -> None:
        """Option ``name`` as ``read`` (whole_number, finite_number) gives it; ConfigError where it gives None."""
        value = read(getattr(self, name))
        if value is None:
            raise ConfigError(f"decoding option {name}: expected {kind}, got {getattr(self, name)!r}")
        object.__setattr__(self, name, value)  # frozen: set once, here

    def check_sampling(self) -> None:
        if self.seed is not None:
            if (seed := whole_number(self.seed)) is None or not 0 <= seed <= MOST_SEED:
                raise ConfigError("decoding option seed: expected a whole number from 0 to 2**64 - 1, "
                                  f"got {self.seed!r}")
            object.__setattr__(self, "seed", seed)
        if self.sampling_topk < 0:
            raise ConfigError(f"decoding option sampling_topk: expected 0 (all tokens), 1 (no sampling) or more, "
                              f"got {self.sampling_topk}")
        if not 0 < self.sampling_topp <= 1:
            raise ConfigError(f"decoding option sampling_topp: expected more than 0 and at most 1, got "
                              f"{self.sampling_topp}")
        if not 0 < self.sampling_temperature <= MOST_TEMPERATURE:
            raise ConfigError(f"decoding option sampling_temperature: expected more than 0 and at most "
                              f"{MOST_TEMPERATURE:.4g} (float32's largest number), got {self.sampling_temperature}")
        unused = [name for name, value, off in (("sampling_topp", self.sampling_topp, 1.0),
                                                ("sampling_temperature", self.sampling_temperature, 1.0),
                                                ("seed", self.seed, None)) if value != off]
        if not self.sampling and unused:
            raise ConfigError(f"decoding option{'s' * (len(unused) > 1)} {' and '.join(unused)} only "
                              f"appl{'y' if len(unused) > 1 else 'ies'} when sampling: set sampling_topk to 0 (the "
                              "whole vocabulary) or a number above 1")
        if self.sampling and self.beam_size != 1:
            raise ConfigError(f"sampling draws one translation per sentence: set beam_size 1 (got {self.beam_size})")

    @property
    def sampling(self) -> bool:
        """Whether tokens are drawn at random (sampling_topk other than 1) rather than the most likely taken."""
        return self.sampling_topk != 1

    @property
    def greedy(self) -> bool:
        """Whether one hypothesis per sentence is kept (greedy search)."""
        return self.beam_size == 1

    def max_output_length(self, src_len: int, longest: int, prefix: int = 0, terms: int = 0) -> int:
        """At most a·src_len + b output tokens, then a ``prefix``'s tokens and ``terms`` more tokens for
        glossary terms on top, and at most ``longest`` (what the model's positions allow:
        ``TransformerConfig.longest_input``).  What the user put in the output is not taken from the
        room the source's words get: a term may be far longer than the words it stands for
        ("license" -> "GNU General Public License Version 3 oder später", 23 pieces), and a prefix
        may be longer than a·src_len + b itself (then the translation would end with it, without
        room for the rest of the sentence or a full stop); so too on a fixed limit (the server's
        ``max_length``, ``with_max_length``), which is the sentence's own."""
        own = self.max_len_a * src_len + self.max_len_b  # a float: inf where a huge a·src_len overflows
        if own >= longest:  # int(inf) is an OverflowError; any a this large means "up to the positions"
            return longest
        return min(max(0, int(own)) + prefix + terms, longest)

    def with_max_length(self, max_length: int | None) -> Decoding:
        """This decoding with a fixed output limit of ``max_length`` tokens (None: unchanged)."""
        if max_length is None:
            return self
        return replace(self, max_len_a=0.0, max_len_b=max_length)


DEFAULT = Decoding()
