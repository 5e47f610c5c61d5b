"""Quality as a trained model ships it, on a test set no calibration saw: the model directory's own
quality.json (what training fits on the whole validation set at its end, or ``attnmt calibrate``)
read on test_2016_flickr, with benchmarks/quality.py's broken kinds and figures.

    .venv/bin/python benchmarks/experiments/quality_on_test.py MODEL_DIR [--threads 1]

The model's own beam-4 translations get the quality the search gives them; the references and the
broken texts are scored as ``attnmt score`` scores them (attnmt.decoding.elsewhere).
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
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.fitting import reliability
from attnmt.decoding.quality import Assessor
from attnmt.decoding.translate import translate_n_best
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from quality import KINDS, auroc, broken, spearman  # noqa: E402

DATA = ROOT / "data" / "multi30k"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--src", default=str(DATA / "test_2016_flickr.en.gz"))
    parser.add_argument("--ref", default=str(DATA / "test_2016_flickr.de.gz"))
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    calibration = load_calibration(Path(args.model))
    if calibration is None:
        sys.exit(f"{args.model} has no quality.json: run attnmt calibrate --model {args.model}")
    src, ref = read_lines(args.src), read_lines(args.ref)
    decoding = Decoding(beam_size=4)
    best = [n_best[0] for n_best in translate_n_best(model, tokenizer, src, decoding, quality=Assessor(calibration))]
    own, own_quality = [b.text for b in best], np.array([b.quality for b in best])
    chrf = CHRF()
    own_chrf = np.array([chrf.sentence_score(t, [r]).score for t, r in zip(own, ref, strict=True)])
    mean_log_prob = np.array([b.assessment.features.mean_log_prob for b in best])
    ref_quality = np.array([a.quality for a in assess_elsewhere(model, tokenizer, src, ref, calibration, decoding,
                                                                 own=own)])
    rows, bad = [], []
    for name, texts, good in (("references", ref, ref_quality), ("own", own, own_quality)):
        for kind in KINDS:
            broken_texts = [broken(kind, s, t, texts[(k + 1) % len(texts)])
                            for k, (s, t) in enumerate(zip(src, texts, strict=True))]
            found = np.array([a.quality for a in assess_elsewhere(model, tokenizer, src, broken_texts, calibration,
                                                                  decoding, own=own)])
            bad.append(found)
            rows.append((name, kind, auroc(good, found)))
    labels = (own_chrf >= calibration.chrf_threshold).astype(float).tolist()
    print(f"{args.model}: its quality.json (fitted on {calibration.sentences} sentences), read on {args.src} "
          f"({len(src)} sentences)")
    ece = reliability(own_quality.tolist(), labels).ece
    print(f"Spearman with sentence chrF: quality {spearman(own_quality, own_chrf):.3f}, mean log-prob "
          f"{spearman(mean_log_prob, own_chrf):.3f}; ECE, own translations {ece:.3f}")
    print(f"flagged low_quality: references {(ref_quality < calibration.threshold).mean():.3f}, own "
          f"{(own_quality < calibration.threshold).mean():.3f}; AUROC good vs broken, overall "
          f"{auroc(np.concatenate([own_quality, ref_quality]), np.concatenate(bad)):.3f}")
    for name, kind, value in rows:
        print(f"  {name:11s} {kind:22s} {value:.3f}")


if __name__ == "__main__":
    main()
