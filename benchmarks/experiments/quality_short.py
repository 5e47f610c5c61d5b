"""low_quality on very short pairs, good and broken, as ``assess`` reads them (the fit for the model's own
translations: translate, the server) and as ``attnmt score`` does (read against the model's own translation,
quality_broken.scored): benchmarks/experiments/quality_short/pairs_en_de.tsv holds 40 good pairs of 1 to 5 words
and 40 broken ones (a noun, verb or number dropped, a number changed, one word of junk, the source copied, a word
doubled), each line "good" or "broken", the source and its translation.

    .venv/bin/python benchmarks/experiments/quality_short.py MODEL_DIR
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from quality_broken import scored  # this folder is on the path when the script runs

from attnmt.checkpoint import load_model_dir
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.quality import assess
from attnmt.decoding.quality_language import Languages

PAIRS = Path(__file__).resolve().parent / "quality_short" / "pairs_en_de.tsv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    calibration = load_calibration(Path(args.model))
    rows = [line.split("\t") for line in PAIRS.read_text("utf-8").splitlines()]
    sources, translations = [s for _, s, _ in rows], [t for _, _, t in rows]
    by_score = scored(model, tokenizer, calibration, sources, translations)
    by_assess = assess(model, tokenizer, sources, translations, calibration, languages=Languages("en", "de"))
    flagged: dict[tuple[str, str], list[int]] = {}
    for (kind, source, translation), own, elsewhere in zip(rows, by_assess, by_score, strict=True):
        print(f"{kind:7} assess {own.quality:.3f} score {elsewhere.quality:.3f} {elsewhere.flags} | {source} | "
              f"{translation}")
        for reader, found in (("assess", own), ("score", elsewhere)):
            counts = flagged.setdefault((kind, reader), [0, 0])
            counts[0] += "low_quality" in found.flags
            counts[1] += 1
    for (kind, reader), (low, n) in sorted(flagged.items()):
        print(f"{kind:7} {reader:7} low_quality {low} of {n}")


if __name__ == "__main__":
    main()
