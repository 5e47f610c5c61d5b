"""Corpus-level translation scores with sacreBLEU: BLEU (13a tokenization, cased) and chrF.

Scores are computed on detokenized text, so they are comparable across papers;
the signature strings record every setting that affects the number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from sacrebleu.metrics import BLEU, CHRF


@dataclass
class Scores:
    """BLEU and chrF of one corpus, each with its sacreBLEU signature."""

    bleu: float
    chrf: float
    bleu_signature: str
    chrf_signature: str

    def as_dict(self) -> dict:
        """Plain dict, e.g. for JSON logs."""
        return asdict(self)

    def __str__(self) -> str:
        return (
            f"BLEU = {self.bleu:.2f} ({self.bleu_signature})\n"
            f"chrF = {self.chrf:.2f} ({self.chrf_signature})"
        )


def score(hypotheses: Sequence[str], references: Sequence[str]) -> Scores:
    """sacreBLEU corpus BLEU and chrF of hypotheses against one reference each."""
    hyps, refs = _checked(hypotheses, references)
    bleu_metric, chrf_metric = BLEU(), CHRF()
    bleu_score = bleu_metric.corpus_score(hyps, [refs])
    chrf_score = chrf_metric.corpus_score(hyps, [refs])
    return Scores(
        bleu=bleu_score.score,
        chrf=chrf_score.score,
        bleu_signature=str(bleu_metric.get_signature()),
        chrf_signature=str(chrf_metric.get_signature()),
    )


def bleu(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Just the corpus BLEU of `score` (cheaper: chrF is not computed)."""
    hyps, refs = _checked(hypotheses, references)
    return BLEU().corpus_score(hyps, [refs]).score


def _checked(hypotheses: Sequence[str], references: Sequence[str]) -> tuple[list[str], list[str]]:
    """Lists of hypotheses and references; ValueError unless equally many and not empty."""
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references)} references; "
            "need exactly one reference line per hypothesis"
        )
    if not hypotheses:
        raise ValueError("no hypotheses to score")
    return list(hypotheses), list(references)
