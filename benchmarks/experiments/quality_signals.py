"""Experiment (issue 43): which signals, beside the ones quality reads, rank a model's own beam
translations by sentence chrF better than the mean token log-probability; fitted on the
validation set and read on a test set, and fitted on the validation set's first half and read
on its second.

    .venv/bin/python benchmarks/experiments/quality_signals.py MODEL_DIR [--threads 1]

Each way: the same least squares to chrF, with the mean log-prob cut into stretches as
``fit_calibration`` cuts it (no directions held, no second stage: neither changes the order much),
on quality's inputs without the attention's spread ("today but attention"), with it (what quality
reads), and with one more group of signals:

- the attention's spread (attnmt.decoding.quality_measures.attention_spread) of every decoder layer's
  cross-attention, heads averaged, and of each head of the last layer (quality reads the last
  layer's mean, the one the search records);
- the output distribution: each piece's entropy (mean and largest) and the margin between its two
  likeliest pieces (the search would have to compute them; quality does not);
- the n-best agreement: the best translation's mean sentence chrF against the beam's other three
  (plain translation has no n-best list, so quality does not read it);
- dropout passes (Fomicheva et al. 2020, "Unsupervised Quality Estimation for Neural Machine
  Translation"): the mean and the spread of the mean log-prob over DROPOUT_PASSES forced passes
  with training's dropout on (D-TP, D-Var): DROPOUT_PASSES times the forced pass's cost;
- the source left out: the mean log-prob minus the same translation's with the source cut to its
  </s> (how much the source, not the language, makes the translation likely): one more pass;
- the lengths: log source pieces, log translation pieces;
- everything above at once.

Two more rows: "today, fitted on every hypothesis" fits quality's own inputs on all four beam
hypotheses of each sentence (four times the rows) and reads the best ones as before; the last,
"quality", is the calibration ``fit_calibration`` writes, read the same way.
Results: benchmarks/results/quality_attention_epyc.txt (its last section, the first four groups),
benchmarks/results/quality_ceiling_epyc.txt (all of them, on three models).
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
from attnmt.decoding.quality import ATTENTION, Assessor
from attnmt.decoding.quality_measures import attention_spread
from attnmt.decoding.translate import translate_n_best
from attnmt.model import AttentionTrace
from attnmt.text.data import pad_rows, read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from quality import spearman  # noqa: E402

DATA = ROOT / "data" / "multi30k"
DROPOUT_PASSES = 16
GROUPS = ("all layers", "last layer's heads", "output distribution", "n-best agreement", "dropout passes",
          "source left out", "lengths")


def mean_log_probs(model, tokenizer, sources: list[str], texts: list[str], passes: int = 1,
                   source_left_out: bool = False) -> np.ndarray:
    """[N, passes]: each text's mean log-prob (its pieces and EOS) as a translation of its source,
    teacher-forced; with passes > 1 each pass with training's dropout on (in every layer), and with
    ``source_left_out`` against the source's </s> alone."""
    c = model.config
    found = []
    with torch.inference_mode():
        for start in range(0, len(sources), 64):
            rows = range(start, min(start + 64, len(sources)))
            source_ids = [tokenizer.encode(sources[i]) for i in rows]
            source_ids = [s[-1:] for s in source_ids] if source_left_out else source_ids
            target_ids = [tokenizer.encode_target(texts[i]) for i in rows]
            src = pad_rows(source_ids, c.pad_id).repeat(passes, 1)
            tgt = pad_rows([[c.bos_id, *t, c.eos_id] for t in target_ids], c.pad_id).repeat(passes, 1)
            model.train(passes > 1)
            states = model.decoder_states(tgt[:, :-1], model.encode(src), padding_mask(src, c.pad_id))
            model.eval()
            log_probs = model.output(states).float().log_softmax(-1).gather(2, tgt[:, 1:, None]).squeeze(2)
            real = (tgt[:, 1:] != c.pad_id).float()
            found.append(((log_probs * real).sum(1) / real.sum(1)).view(passes, len(rows)).T)
    return torch.cat(found).numpy()


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
    texts = [b.text for b in best]
    dropped = mean_log_probs(model, tokenizer, sources, texts, DROPOUT_PASSES)
    alone = mean_log_probs(model, tokenizer, sources, texts, source_left_out=True)[:, 0]
    every = [(i, h.assessment.features, chrf.sentence_score(h.text, [references[i]]).score)
             for i, hyps in enumerate(found) for h in hyps if h.assessment]
    return {"features": [b.assessment.features for b in best], "every hypothesis": every,
            "chrf": np.array([chrf.sentence_score(b.text, [r]).score for b, r in zip(best, references, strict=True)]),
            "ratios": ratios, "all layers": np.array(layers), "last layer's heads": np.array(heads),
            "output distribution": np.array(output), "n-best agreement": np.array(agreement)[:, None],
            "dropout passes": np.c_[dropped.mean(1), dropped.std(1)],
            "source left out": np.array([b.assessment.features.mean_log_prob for b in best])[:, None] - alone[:, None],
            "lengths": np.array([[np.log(len(tokenizer.encode(s))), np.log(1 + len(tokenizer.encode_target(t)))]
                                 for s, t in zip(sources, texts, strict=True)])}


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
    for group in (*((g,) for g in GROUPS), GROUPS):
        x_fit = np.c_[(inputs(fit, fit_rows, names), *(fit[g][fit_rows] for g in group))]
        x_read = np.c_[(inputs(read, read_rows, names), *(read[g][read_rows] for g in group))]
        label = "everything" if len(group) > 1 else group[0]
        found[f"today + {label}"] = spearman(ridge(x_fit, fit["chrf"][fit_rows])(x_read), chrf) - base
    start, stop = fit_rows.start or 0, len(fit["chrf"]) if fit_rows.stop is None else fit_rows.stop
    every = [(f, score) for i, f, score in fit["every hypothesis"] if start <= i < stop]
    on_every = fit_calibration([f for f, _ in every], [score for _, score in every], fit["ratios"][fit_rows], "")
    found["today, fitted on every hypothesis"] = spearman(
        np.array([on_every.quality(f) for f in read["features"][read_rows]]), chrf) - base
    found["quality"] = spearman(np.array([calibration.quality(f) for f in read["features"][read_rows]]), chrf) - base
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--test", default="test_2016_flickr", help="the test set under data/multi30k")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)  # the dropout passes' masks
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
