"""Which signal tells a short label's good translation from a garbled one, on the hand-judged sets of
short_labels_labelled.py (``short_labels/*.tsv``): each rule's good translations lost and garbled ones kept out, per
set.  The signals, each from the demo model's own reading of the label and its translation as written:

    with end      exp(mean log-prob) of the translation's pieces and its end (the guard's reading before)
    words         the geometric mean of its words' probabilities, its end left out (garbled_labels.plausibility_of)
    least piece   the probability of its least likely piece or end (Features.min_log_prob)
    int8          the int8 copy (attnmt.fast) writes another translation
    n-best        fewer than 2 of the other 4 of 5 hypotheses start with the best one's first word
    +2 words      the translation has two words more than the label or over (a caption's sentence: "Dog" -> "Ein Hund
                  schwimmt")

    PYTHONPATH=src .venv/bin/python benchmarks/experiments/short_labels_signals.py MODEL_DIR
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

import torch

import attnmt
from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.garbled_labels import plausibility_of
from attnmt.decoding.quality import assess
from attnmt.decoding.translate import translate_n_best
from attnmt.fast.prepared import load_int8
from attnmt.text.sentence_ends import ended_as_source

HERE = Path(__file__).parent / "short_labels"
Row = dict[str, object]


def signals(model, fast, tokenizer, path: Path) -> list[Row]:
    """Each judged row of ``path`` with its signals (module docstring)."""
    rows = [line.split("\t") for line in path.read_text("utf-8").splitlines() if line.strip()]
    labels, judged = [label for _, label, _ in rows], [text for _, _, text in rows]
    found = assess(model, tokenizer, labels, judged)
    int8 = attnmt.translate(fast, tokenizer, labels)
    n_best = translate_n_best(model, tokenizer, labels, Decoding(beam_size=5, n_best=5))
    out = []
    for (judgment, label, text), a, fast, hypotheses in zip(rows, found, int8, n_best, strict=True):
        texts = [ended_as_source(label, h.text) for h in hypotheses]
        out.append({"set": path.name, "good": judgment == "good", "with end": a.quality, "words": plausibility_of(a),
                    "least piece": math.exp(a.features.min_log_prob), "int8": ended_as_source(label, fast) != text,
                    "n-best": sum(other.split()[:1] == texts[0].split()[:1] for other in texts[1:]) < 2,
                    "+2 words": len(text.split()) >= len(label.split()) + 2})
    return out


RULES: dict[str, Callable[[Row], bool]] = {
    "with end < 0.3 (before)": lambda r: r["with end"] < 0.3,
    "words < 0.25": lambda r: r["words"] < 0.25,
    "words < 0.3 (after)": lambda r: r["words"] < 0.3,
    "words < 0.35": lambda r: r["words"] < 0.35,
    "least piece < 0.05": lambda r: r["least piece"] < 0.05,
    "int8 differs": lambda r: r["int8"],
    "n-best disagrees": lambda r: r["n-best"],
    "words < 0.3 or least piece < 0.01": lambda r: r["words"] < 0.3 or r["least piece"] < 0.01,
    "words < 0.3 or int8 differs": lambda r: r["words"] < 0.3 or r["int8"],
    "words < 0.3 or n-best disagrees": lambda r: r["words"] < 0.3 or r["n-best"],
    "words < 0.3 or +2 words": lambda r: r["words"] < 0.3 or r["+2 words"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    args = parser.parse_args()
    torch.set_num_threads(1)
    model, tokenizer = load_model_dir(args.model)
    fast, _ = load_int8(args.model)
    by_set = {path.name: signals(model, fast, tokenizer, path) for path in sorted(HERE.glob("*.tsv"))}
    for name, rule in RULES.items():
        counts = []
        for rows in by_set.values():
            good, bad = [r for r in rows if r["good"]], [r for r in rows if not r["good"]]
            counts.append(f"{sum(map(rule, good))}/{len(good)} {sum(map(rule, bad))}/{len(bad)}")
        print(f"{name:36} " + " | ".join(counts))
    print("columns: " + ", ".join(by_set) + "; each: good lost, garbled kept out")


if __name__ == "__main__":
    main()
