"""How often ``low_quality`` flags a model's own translations, and whether the lines it flags are the bad ones: on
Multi30k's validation set (what the model's quality.json was fitted on) and test_2016_flickr (which no fit saw).

For each set: the share flagged; the AUROC of quality against each line's sentence chrF under a cut (the chance a
line at or over the cut scores above one under it); the flag's precision and recall for the lines under each cut;
and, where a file of hand labels is given (quality_flag_rate/val_hand_labels.tsv: line, ``check`` or ``ok``), the
flag's precision and recall for the lines a reader marked ``check``.  chrF against one reference is a proxy: a right
translation worded otherwise scores low, a wrong one that shares the reference's frame scores high.

    .venv/bin/python benchmarks/experiments/quality_flag_rate.py MODEL_DIR [--threads 1] [--labels FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch
from sacrebleu.metrics import CHRF

from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import load_calibration
from attnmt.decoding.quality import Assessor
from attnmt.decoding.translate import translate_n_best
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from quality import auroc  # noqa: E402

DATA = ROOT / "data" / "multi30k"
SETS = (("validation", "val"), ("test_2016_flickr", "test_2016_flickr"))
CUTS = (30, 35, 40, 50)


def hand_labels(path: Path) -> dict[int, bool]:
    """Line number (1-based): whether a reader marked it ``check``."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return {int(row[0]): row[1] == "check" for row in rows}


def precision_recall(flagged: np.ndarray, bad: np.ndarray) -> str:
    caught = int((flagged & bad).sum())
    return f"precision {caught / max(1, flagged.sum()):.3f}, recall {caught / max(1, bad.sum()):.3f}"


def report(name: str, quality: np.ndarray, flagged: np.ndarray, chrf: np.ndarray) -> None:
    print(f"{name}: {len(quality)} lines, low_quality {flagged.mean():.3f}, chrF under 50 {(chrf < 50).mean():.3f}")
    for cut in CUTS:
        bad = chrf < cut
        separation = auroc(quality[~bad], quality[bad])
        print(f"  chrF < {cut}: {bad.sum():4d} lines ({bad.mean():.3f}); AUROC {separation:.3f}; "
              f"low_quality {precision_recall(flagged, bad)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--labels", type=Path, default=Path(__file__).parent / "quality_flag_rate" /
                        "val_hand_labels.tsv", help="hand labels of validation lines (line<TAB>check|ok)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    calibration = load_calibration(Path(args.model))
    if calibration is None:
        sys.exit(f"{args.model} has no quality.json: run attnmt calibrate --model {args.model}")
    chrf = CHRF()
    for name, stem in SETS:
        src, ref = read_lines(str(DATA / f"{stem}.en.gz")), read_lines(str(DATA / f"{stem}.de.gz"))
        best = [n[0] for n in translate_n_best(model, tokenizer, src, Decoding(beam_size=4),
                                               quality=Assessor(calibration))]
        quality = np.array([b.quality for b in best])
        flagged = np.array(["low_quality" in b.flags for b in best])
        scores = np.array([chrf.sentence_score(b.text, [r]).score for b, r in zip(best, ref, strict=True)])
        report(name, quality, flagged, scores)
        if stem == "val" and args.labels.exists():
            labels = hand_labels(args.labels)
            lines = sorted(labels)
            check = np.array([labels[k] for k in lines])
            print(f"  hand labels ({args.labels.name}): {check.sum()} of {len(lines)} marked check; low_quality "
                  f"flags {flagged[[k - 1 for k in lines]].sum()}, "
                  f"{precision_recall(flagged[[k - 1 for k in lines]], check)}")


if __name__ == "__main__":
    main()
