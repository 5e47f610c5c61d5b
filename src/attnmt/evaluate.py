"""Corpus-level translation scores with sacreBLEU: BLEU (13a tokenization, cased), chrF and TER.

Scores are computed on detokenized text, so they are comparable across papers;
the signature strings record every setting that affects the number.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from sacrebleu.metrics import BLEU, CHRF, TER

from attnmt.errors import DataError
from attnmt.text.data import given_texts

SACREBLEU_WIDTH = 1  # decimals of each score in sacrebleu_json: the sacrebleu command's (its -w default)
TEXT_WIDTH = 2  # decimals of each score in Scores.text


@dataclass
class Scores:
    """BLEU, chrF and TER of one corpus, each with its sacreBLEU signature."""

    bleu: float
    chrf: float
    ter: float
    bleu_signature: str
    chrf_signature: str
    ter_signature: str
    sacrebleu_json: list[dict] = field(default_factory=list, repr=False)  # as ``sacrebleu -f json`` prints them

    def __str__(self) -> str:
        return self.text()

    def text(self, width: int = TEXT_WIDTH) -> str:
        """A line per metric, its score with ``width`` decimals and its signature."""
        return (
            f"BLEU = {self.bleu:.{width}f} ({self.bleu_signature})\n"
            f"chrF = {self.chrf:.{width}f} ({self.chrf_signature})\n"
            f"TER = {self.ter:.{width}f} ({self.ter_signature})"
        )

    def json_text(self) -> str:
        """``sacrebleu_json`` as the sacrebleu command prints it with ``-f json``, byte for byte: each
        metric's object as sacreBLEU writes it (indent 1), in a list with no indent of its own."""
        return "[\n" + ",\n".join(json.dumps(metric, indent=1, ensure_ascii=False)
                                   for metric in self.sacrebleu_json) + "\n]"


def score(hypotheses: Sequence[str], references: Sequence[str], *more_references: Sequence[str],
          width: int = SACREBLEU_WIDTH) -> Scores:
    """sacreBLEU corpus BLEU, chrF and TER of hypotheses against one reference each, or against
    several (``more_references``: another reference translation of every line, as ``sacrebleu
    -r ref1 ref2`` takes them; the signatures say nrefs:2).  ``width``: the decimals of the scores
    in ``sacrebleu_json``, as sacrebleu's ``-w`` (the library's own default, 2, is not its command's)."""
    hyps, streams = _checked(hypotheses, references, *more_references)
    values, signatures, details = [], [], []
    for metric in (BLEU(), CHRF(), TER()):
        result, signature = metric.corpus_score(hyps, streams), str(metric.get_signature())
        values.append(result.score)
        signatures.append(signature)
        details.append(json.loads(result.format(width=width, signature=signature, is_json=True)))
    return Scores(*values, *signatures, sacrebleu_json=details)


def bleu(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Just the corpus BLEU of `score` (cheaper: chrF is not computed)."""
    hyps, streams = _checked(hypotheses, references)
    return BLEU().corpus_score(hyps, streams).score


def chrf(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Just the corpus chrF of `score`."""
    hyps, streams = _checked(hypotheses, references)
    return CHRF().corpus_score(hyps, streams).score


def _checked(hypotheses: Sequence[str], *references: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """The hypotheses and each stream of references as lists of texts (``given_texts``: one str was
    scored a character a line, 0.0 for a perfect translation; None a TypeError inside sacreBLEU; a
    generator had "no len()"); DataError unless as many references as hypotheses, and some."""
    hyps = given_texts(hypotheses, "hypotheses")
    streams = [given_texts(refs, "references" if k == 0 else f"more_references[{k - 1}]")
               for k, refs in enumerate(references)]
    for refs in streams:
        if len(hyps) != len(refs):
            raise DataError(
                f"{len(hyps)} hypotheses but {len(refs)} references; "
                "need exactly one reference line per hypothesis"
            )
    if not hyps:
        raise DataError("no hypotheses to score")
    return hyps, streams
