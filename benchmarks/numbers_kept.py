"""Numbers a translation drops, searched again: what each margin (numbers_kept.WORSE_BY) keeps and costs.

    .venv/bin/python benchmarks/numbers_kept.py --model /work/demo_model [--multi30k /work/shared/data/multi30k]

Translates benchmarks/numbers_units.tsv's sentences and Multi30k's 2016 test set with ``attnmt.decoding.translate``
(float32, beam 4; no document rules: a time or a fraction is the model's here), recording for each sentence whose
translation dropped a number its first translation's score and its retry's (numbers_kept.number_score).  Then, at
each margin, the retry is taken where it scores at most the margin below the first: the numbers kept
(numbers_units.tsv's pieces, character for character, a number alone as the target language writes it too:
numbers_units.forms) and Multi30k's BLEU and chrF (sacreBLEU) against its references; "none" is no retry at all.
Prints the CPU, each retried sentence with both translations and scores.
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

from numbers_units import cpu_name, forms
from sacrebleu.metrics import BLEU, CHRF

import attnmt.decoding.numbers_kept as numbers_kept
from attnmt.checkpoint import load_model_dir
from attnmt.decoding.translate import translate

_HERE = Path(__file__).resolve().parent
MARGINS = [None, 0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 15.0, 20.0, float("inf")]  # None: no retry


class Retries:
    """Every retry a translation makes, by its first translation: (first's score, retry's score or None where it
    missed a number, the retry's text); the first translation is what ``translate`` returns."""

    def __init__(self, tokenizer) -> None:
        self.tokenizer, self.seen = tokenizer, {}

    def kept(self, first, first_score, retry, retry_score):
        text = self.tokenizer.decode(retry[0].tokens) if retry else ""
        self.seen[self.tokenizer.decode(first[0].tokens)] = (first_score, None if not retry or retry[0].missed
                                                             else retry_score, text)
        return first

    def at(self, margin: float | None, firsts: list[str]) -> list[str]:
        """Each translation as it is with ``margin``: the retry where it is taken."""
        def chosen(first: str) -> str:
            score, retry, text = self.seen.get(first, (0.0, None, ""))
            return text if margin is not None and retry is not None and retry >= score - margin else first
        return [chosen(first) for first in firsts]

    def show(self, sources: list[str], firsts: list[str]) -> None:
        for source, first in zip(sources, firsts, strict=True):
            if first in self.seen:
                score, retry, text = self.seen[first]
                print(f"  {source!r}: first {score:.2f} {first!r} | retry "
                      f"{'missed' if retry is None else f'{retry:.2f}'} {text!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--multi30k", type=Path, default=Path("/work/shared/data/multi30k"))
    args = parser.parse_args()
    model, tokenizer = load_model_dir(args.model)
    retries = Retries(tokenizer)
    numbers_kept.kept = retries.kept  # the first translation everywhere; each margin chooses below
    rows = [line.split("\t") for line in (_HERE / "numbers_units.tsv").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    firsts = translate(model, tokenizer, [row[0] for row in rows])
    print(f"CPU: {cpu_name()}; float32; numbers_units.tsv, {len(rows)} lines, "
          f"{sum(first in retries.seen for first in firsts)} searched again")
    for margin in MARGINS:
        outputs = retries.at(margin, firsts)
        kept = sum(any(form in output for form in forms(piece, model.target_lang))
                   for row, output in zip(rows, outputs, strict=True) for piece in row[1:])
        print(f"  margin {margin}: kept {kept} of {sum(len(row) - 1 for row in rows)}, "
              f"retries taken {sum(o != f for o, f in zip(outputs, firsts, strict=True))}")
    retries.show([row[0] for row in rows], firsts)
    retries.seen.clear()
    sources, references = (gzip.open(args.multi30k / f"test_2016_flickr.{side}.gz", "rt", encoding="utf-8")
                           .read().splitlines() for side in ("en", "de"))
    firsts = translate(model, tokenizer, sources)
    print(f"Multi30k test 2016 en-de, {len(sources)} lines, {sum(first in retries.seen for first in firsts)} "
          "searched again")
    for margin in MARGINS:
        outputs = retries.at(margin, firsts)
        print(f"  margin {margin}: retries taken {sum(o != f for o, f in zip(outputs, firsts, strict=True))}, "
              f"BLEU {BLEU().corpus_score(outputs, [references]).score:.2f}, "
              f"chrF {CHRF().corpus_score(outputs, [references]).score:.2f}")
    retries.show(sources, firsts)


if __name__ == "__main__":
    main()
