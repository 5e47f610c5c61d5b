"""Experiment (issue 43): which signals, beside the ones quality reads, rank a model's own beam
translations by sentence chrF better than the mean token log-probability; fitted on the
validation set and read on a test set, and fitted on the validation set's first half and read
on its second.

    .venv/bin/python benchmarks/experiments/quality_signals.py MODEL_DIR [--threads 1]

Each way: the same least squares to chrF, with the mean log-prob cut into stretches as
``fit_calibration`` cuts it (no directions held, no second stage: neither changes the order much),
on quality's inputs without the attention's spread ("today but attention"), with it (what quality
reads), and with one more group of signals:

- the attention's spread (attnmt.decoding.quality.attention_spread) of every decoder layer's
  cross-attention, heads averaged, and of each head of the last layer (quality reads the last
  layer's mean, the one the search records);
- the output distribution: each piece's entropy (mean and largest) and the margin between its two
  likeliest pieces (the search would have to compute them; quality does not);
- the n-best agreement: the best translation's mean sentence chrF against the beam's other three
  (plain translation has no n-best list, so quality does not read it).

The last row, "quality", is the calibration ``fit_calibration`` writes, read the same way.
Results: benchmarks/results/quality_attention_epyc.txt (its last section).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch
from sacrebleu.metrics import CHRF

from attnmt.attention import padding_mask
from attnmt.checkpoint import load_model_dir
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import fit_calibration
from attnmt.decoding.quality import ATTENTION, Assessor, attention_spread
from attnmt.decoding.translate import translate_n_best
from attnmt.model import AttentionTrace
from attnmt.text.data import pad_rows, read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from quality import spearman  # noqa: E402

DATA = ROOT / "data" / "multi30k"


def collect(model, tokenizer, sources: list[str], references: list[str]) -> dict:
    """Per sentence: the best translation's Features and chrF, and every extra signal ([N, ·] arrays)."""
    found = translate_n_best(model, tokenizer, sources, Decoding(beam_size=4, n_best=4), quality=Assessor())
    chrf = CHRF()
    best = [hyps[0] for hyps in found]
    agreement = [np.mean([chrf.sentence_score(hyps[0].text, [h.text]).score for h in hyps[1:]]) if len(hyps) > 1
                 else 100.0 for hyps in found]
    c = model.config
    layers, heads, output = [], [], []
    with torch.inference_mode():
        for start in range(0, len(sources), 64):
            rows = range(start, min(start + 64, len(sources)))
            source_ids = [tokenizer.encode(sources[i]) for i in rows]
            target_ids = [tokenizer.encode_target(best[i].text) for i in rows]
            src = pad_rows(source_ids, c.pad_id)
            tgt = pad_rows([[c.bos_id, *t, c.eos_id] for t in target_ids], c.pad_id)
            trace = AttentionTrace()
            states = model.decoder_states(tgt[:, :-1], model.encode(src), padding_mask(src, c.pad_id), trace)
            log_probs = model.output(states).float().log_softmax(-1)  # [B, T + 1, V]
            entropy = -(log_probs.exp() * log_probs).sum(-1)
            top2 = log_probs.topk(2, dim=-1).values
            for k, (s, t) in enumerate(zip(source_ids, target_ids, strict=True)):
                pieces = tokenizer.pieces(sources[rows[k]])
                layers.append([v for layer in trace.cross
                               for v in attention_spread(layer[k].mean(0)[: len(t), : len(s)], pieces)])
                last = trace.cross[-1][k]
                heads.append([v for h in range(last.shape[0])
                              for v in attention_spread(last[h, : len(t), : len(s)], pieces)])
                real = slice(0, len(t) + 1)
                output.append([float(entropy[k, real].mean()), float(entropy[k, real].max()),
                               float((top2[k, real, 0] - top2[k, real, 1]).mean())])
    ratios = [len(tokenizer.encode_target(r)) / max(1, len(tokenizer.encode(s)) - tokenizer.source_eos)
              for s, r in zip(sources, references, strict=True)]
    return {"features": [b.assessment.features for b in best],
            "chrf": np.array([chrf.sentence_score(b.text, [r]).score for b, r in zip(best, references, strict=True)]),
            "ratios": ratios, "all layers": np.array(layers), "last layer's heads": np.array(heads),
            "output distribution": np.array(output), "n-best agreement": np.array(agreement)[:, None]}


def ridge(x: np.ndarray, y: np.ndarray, l2: float = 1.0):
    """Least squares on standardised inputs with an L2 penalty (not on the intercept): a scorer."""
    mean, scale = x.mean(0), np.maximum(x.std(0), 1e-6)
    z = np.c_[(x - mean) / scale, np.ones(len(x))]
    penalty = l2 * np.eye(z.shape[1])
    penalty[-1, -1] = 0
    w = np.linalg.solve(z.T @ z + penalty, z.T @ y)
    return lambda other: np.c_[(other - mean) / scale, np.ones(len(other))] @ w


def gains(fit: dict, read: dict, fit_rows: slice, read_rows: slice) -> dict[str, float]:
    """Spearman with chrF over the mean log-prob's, on ``read``'s rows, of each way fitted on ``fit``'s."""
    features = fit["features"][fit_rows]
    calibration = fit_calibration(features, fit["chrf"][fit_rows].tolist(), fit["ratios"][fit_rows], "")
    names = calibration.inputs
    without = [n for n in names if n not in ATTENTION]

    def inputs(data: dict, rows: slice, chosen) -> np.ndarray:
        return np.array([f.inputs(calibration.length_center, calibration.length_range, calibration.knots, chosen)
                         for f in data["features"][rows]])

    chrf = read["chrf"][read_rows]
    base = spearman(np.array([f.mean_log_prob for f in read["features"][read_rows]]), chrf)
    found = {}
    for name, chosen in (("today but attention", without), ("today", names)):
        found[name] = spearman(ridge(inputs(fit, fit_rows, chosen), fit["chrf"][fit_rows])(
            inputs(read, read_rows, chosen)), chrf) - base
    for group in ("all layers", "last layer's heads", "output distribution", "n-best agreement"):
        x_fit = np.c_[inputs(fit, fit_rows, names), fit[group][fit_rows]]
        x_read = np.c_[inputs(read, read_rows, names), read[group][read_rows]]
        found[f"today + {group}"] = spearman(ridge(x_fit, fit["chrf"][fit_rows])(x_read), chrf) - base
    found["quality"] = spearman(np.array([calibration.quality(f) for f in read["features"][read_rows]]), chrf) - base
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--test", default="test_2016_flickr", help="the test set under data/multi30k")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    model, tokenizer = load_model_dir(args.model)
    model.eval()
    val = collect(model, tokenizer, read_lines(DATA / "val.en.gz"), read_lines(DATA / "val.de.gz"))
    test = collect(model, tokenizer, read_lines(DATA / f"{args.test}.en.gz"), read_lines(DATA / f"{args.test}.de.gz"))
    half = len(val["chrf"]) // 2
    readings = {f"val -> {args.test}": gains(val, test, slice(None), slice(None)),
                "val 1st half -> 2nd half": gains(val, val, slice(0, half), slice(half, None))}
    print(f"{args.model}: Spearman with sentence chrF over the mean log-prob's, beam 4")
    print(f"{'inputs':<36}" + "".join(f"{name:>28}" for name in readings))
    for way in next(iter(readings.values())):
        print(f"{way:<36}" + "".join(f"{found[way]:+28.3f}" for found in readings.values()))


if __name__ == "__main__":
    main()
