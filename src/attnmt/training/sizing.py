"""Whether a model's size suits its training data: parameters per training pair, looked at once
when a run starts from random weights.

A model far larger than its corpus learns the pairs by heart instead of learning to translate
(Sennrich & Zhang 2019; Araabi & Monz 2020: shape and regularisation tuned to the data size beat the
large-data defaults); one far smaller than its corpus cannot take in what the corpus holds.  The
rule costs nothing: the count of pairs is the length of the prepared corpora, already in memory.
Its thresholds, the suggested shapes and which parts of them are judgement are explained in
docs/training.md, "Choosing a config for your corpus size".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from attnmt.config import TransformerConfig
from attnmt.training.start import Start

# Parameters per training pair outside which a model trained from random weights is clearly the wrong
# size for its data.  Working configurations sit well inside: configs/multi30k_en_de.yaml has 160 a pair
# on Multi30k, fairseq's IWSLT14 recipe 230-250, the paper's base model 14 on WMT14 English-German
# (65M for 4.5M pairs), its big model 47 there and 6 on English-French (213M for 36M pairs).
MOST_PER_PAIR = 1000
LEAST_PER_PAIR = 1
GUIDE = "docs/training.md, 'Choosing a config for your corpus size'"


@dataclass(frozen=True)
class Suggestion:
    """A starting shape for corpora of up to ``most_pairs`` training pairs (docs/training.md's table)."""

    most_pairs: float
    d_model: int
    layers: int  # encoder layers, and as many decoder layers
    n_heads: int
    d_ff: int
    dropout: float
    vocab_size: int

    def model_config(self) -> TransformerConfig:
        return TransformerConfig(vocab_size=self.vocab_size, d_model=self.d_model, n_heads=self.n_heads,
                                 encoder_layers=self.layers, decoder_layers=self.layers, d_ff=self.d_ff,
                                 dropout=self.dropout)

    def __str__(self) -> str:
        return (f"d_model {self.d_model}, {self.layers}+{self.layers} layers, {self.n_heads} heads, "
                f"d_ff {self.d_ff}, dropout {self.dropout}, vocab_size {self.vocab_size}")


SUGGESTIONS = (
    Suggestion(20_000, d_model=192, layers=3, n_heads=4, d_ff=768, dropout=0.3, vocab_size=4000),
    Suggestion(60_000, d_model=192, layers=3, n_heads=4, d_ff=768, dropout=0.1, vocab_size=8000),  # Multi30k's
    Suggestion(500_000, d_model=512, layers=6, n_heads=4, d_ff=1024, dropout=0.3, vocab_size=10000),  # IWSLT's
    Suggestion(10_000_000, d_model=512, layers=6, n_heads=8, d_ff=2048, dropout=0.1, vocab_size=32000),  # base
    Suggestion(math.inf, d_model=1024, layers=6, n_heads=16, d_ff=4096, dropout=0.1, vocab_size=32000),  # big
)


def suggested(pairs: int) -> Suggestion:
    """The starting shape for a corpus of ``pairs`` training pairs."""
    return next(suggestion for suggestion in SUGGESTIONS if pairs <= suggestion.most_pairs)


def size_warning(parameters: int, pairs: int) -> str:
    """One line when ``parameters`` per training pair is outside [LEAST_PER_PAIR, MOST_PER_PAIR],
    naming both counts and a shape for the data; "" when the size suits it, or no pair is known."""
    if pairs <= 0:
        return ""
    per_pair = parameters / pairs
    if per_pair > MOST_PER_PAIR:
        why = f"over {MOST_PER_PAIR:,} a pair, a model tends to learn its pairs by heart, not how to translate"
        advice = f"try {suggested(pairs)}, or fine-tune a trained model (init_from)"
        if suggested(pairs).model_config().parameter_count() / pairs > MOST_PER_PAIR:  # too few for any shape
            advice = "fine-tune a trained model (init_from), or gather more pairs: no shape suits so few"
    elif per_pair < LEAST_PER_PAIR:
        why = f"under {LEAST_PER_PAIR} a pair, a model is too small to use what its data holds"
        advice = f"try {suggested(pairs)}, unless a small, fast model is the aim (a distilled student, say)"
    else:
        return ""
    ratio = f"{per_pair:,.0f}" if per_pair >= 10 else f"{per_pair:.2g}"
    return (f"warning: {parameters:,} parameters for {pairs:,} training pairs ({ratio} a pair; {why}): "
            f"{advice} ({GUIDE})")


def check_size(start: Start, pairs: int, say: Callable[[str], None]) -> None:
    """Says size_warning's line, if any, for a model trained from random weights; a model fine-tuned
    from trained weights keeps its size whatever the data (a large model on few pairs is the point),
    also when the run is resumed from its own checkpoint."""
    warning = "" if start.fine_tuned else size_warning(start.model_config.parameter_count(), pairs)
    if warning:
        say(warning)
