"""Quality estimation benchmark: does ``quality`` tell good translations from bad ones, on sentences
its calibration did not see?

    .venv/bin/python benchmarks/quality.py --model runs/multi30k_en_de

The validation set is cut in two: the first half calibrates (attnmt.decoding.calibration), the
second half is held out.  On the held-out half it reports:

1. Spearman correlation with sentence chrF of the model's own beam-4 translations, for
   ``quality`` and for the raw mean token log-probability (Bergamot's signal, the baseline);
2. AUROC of telling good translations (the references and the model's own) from broken ones made
   from them: the source copied, cut in half, a loop, another sentence's translation, a clause
   dropped, two words swapped across the sentence; and each flag's rate on each kind;
3. the reliability table and expected calibration error (ECE) of ``quality`` on the model's own
   translations, and the ECE on translations it did not write: the references and the broken
   ones, each labelled by its own sentence chrF (many a broken reference still reaches chrF 50);
4. the cost: beam-4 translation alone against translation and assessment, alternated; and
   ``attnmt score``'s speed (the assessment of the references) in sentences/s.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
from sacrebleu.metrics import CHRF

from attnmt.decoding import Decoding
from attnmt.decoding.calibration import (
    CHRF_THRESHOLD,
    calibrate,
    fingerprint,
    reliability,
)
from attnmt.decoding.quality import FLAGS, assess
from attnmt.decoding.translate import translate
from attnmt.hardware import cpu_flags, cpu_model
from attnmt.text.data import read_lines

ROOT = Path(__file__).resolve().parent.parent
VAL_SRC = ROOT / "data/multi30k/val.en.gz"
VAL_REF = ROOT / "data/multi30k/val.de.gz"
KINDS = ("copied source", "cut in half", "loop", "another sentence's", "clause dropped", "words swapped")


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties sharing their mean rank."""
    order = np.argsort(values, kind="stable")
    r = np.empty(len(values))
    r[order] = np.arange(1, len(values) + 1)
    for v in np.unique(values):
        tied = values == v
        r[tied] = r[tied].mean()
    return r


def spearman(a, b) -> float:
    return float(np.corrcoef(ranks(np.asarray(a, float)), ranks(np.asarray(b, float)))[0, 1])


def auroc(good, bad) -> float:
    """P(a good translation's score > a broken one's), ties counting half (Mann-Whitney)."""
    r = ranks(np.asarray([*good, *bad], float))
    n_good, n_bad = len(good), len(bad)
    return float((r[:n_good].sum() - n_good * (n_good + 1) / 2) / (n_good * n_bad))


def broken(kind: str, source: str, good: str, other: str) -> str:
    """A broken translation of ``source`` made from a good one (``other``: another sentence's)."""
    words = good.split()
    n = len(words)
    if kind == "copied source":
        return source
    if kind == "cut in half":
        return " ".join(words[: max(1, n // 2)])
    if kind == "loop":
        chunk = words[max(0, n // 2 - 2): max(1, n // 2)]
        return " ".join(words[: max(1, n // 2)] + chunk * 4)
    if kind == "another sentence's":
        return other
    if kind == "clause dropped":  # the middle third of the words
        return " ".join(words[: n // 3] + words[2 * n // 3:]) if n >= 3 else words[0]
    i, j = n // 4, (3 * n) // 4  # words swapped across the sentence
    if i == j:
        return good
    words[i], words[j] = words[j], words[i]
    return " ".join(words)


def timed(fn):
    started = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - started


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True)
    p.add_argument("--src", default=str(VAL_SRC))
    p.add_argument("--ref", default=str(VAL_REF))
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--chrf-threshold", type=float, default=CHRF_THRESHOLD)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args()
    torch.set_num_threads(args.threads)

    from attnmt.checkpoint import load_model_dir

    model, tokenizer = load_model_dir(args.model)
    sources, references = read_lines(args.src), read_lines(args.ref)
    half = len(sources) // 2
    decoding = Decoding(beam_size=args.beam)
    calibration, fitted = calibrate(model, tokenizer, Path(args.model), sources[:half], references[:half], decoding,
                                    chrf_threshold=args.chrf_threshold)
    src, ref = sources[half:], references[half:]

    # Cost: translation alone, then translation + assessment, twice, alternated.
    plain, checked = [], []
    for _ in range(2):
        started = time.perf_counter()
        own = translate(model, tokenizer, src, decoding)
        plain.append(time.perf_counter() - started)
        started = time.perf_counter()
        own = translate(model, tokenizer, src, decoding)
        found = assess(model, tokenizer, src, own, calibration)
        checked.append(time.perf_counter() - started)
    on_refs, t_score = timed(lambda: assess(model, tokenizer, src, ref, calibration))

    chrf = CHRF()
    own_chrf = [chrf.sentence_score(t, [r]).score for t, r in zip(own, ref, strict=True)]
    quality = [a.quality for a in found]
    mean_lp = [a.features.mean_log_prob for a in found]
    labels = [float(c >= args.chrf_threshold) for c in own_chrf]
    held_out = reliability(quality, labels)

    goods = {"references": (ref, on_refs), "own": (own, found)}
    rows, all_good, all_bad = [], [], []
    others = ([a.quality for a in on_refs], [1.0] * len(ref))  # (quality, acceptable): a reference is chrF 100
    for name, (texts, assessed) in goods.items():
        all_good += [a.quality for a in assessed]
        for kind in KINDS:
            bad_texts = [broken(kind, s, t, texts[(k + 1) % len(texts)]) for k, (s, t) in enumerate(zip(src, texts,
                                                                                                      strict=True))]
            bad = assess(model, tokenizer, src, bad_texts, calibration)
            others[0].extend(a.quality for a in bad)
            others[1].extend(float(chrf.sentence_score(t, [r]).score >= args.chrf_threshold)
                             for t, r in zip(bad_texts, ref, strict=True))
            rows.append((name, kind, auroc([a.quality for a in assessed], [a.quality for a in bad]),
                         {f: sum(f in a.flags for a in bad) / len(bad) for f in FLAGS},
                         sum(bool(a.flags) for a in bad) / len(bad)))
            all_bad += [a.quality for a in bad]
    good_flags = {name: ({f: sum(f in a.flags for a in assessed) / len(assessed) for f in FLAGS},
                         sum(bool(a.flags) for a in assessed) / len(assessed)) for name, (_, assessed) in goods.items()}

    not_own = reliability(*others)
    report = {
        "model": args.model, "cpu": cpu_model(), "cpu_flags": sorted(cpu_flags() & {"avx2", "avx512f"}),
        "threads": args.threads, "beam": args.beam, "chrf_threshold": args.chrf_threshold,
        "calibration_sentences": calibration.sentences, "held_out_sentences": len(src),
        "acceptable_share_held_out": sum(labels) / len(labels),
        "spearman_quality": spearman(quality, own_chrf), "spearman_mean_log_prob": spearman(mean_lp, own_chrf),
        "auroc_overall": auroc(all_good, all_bad),
        "auroc": {f"{name}/{kind}": round(a, 4) for name, kind, a, _, _ in rows},
        "flag_rates_broken": {f"{name}/{kind}": {"any": round(anyf, 3), **{k: round(v, 3) for k, v in f.items()}}
                              for name, kind, _, f, anyf in rows},
        "flag_rates_good": {name: {"any": round(anyf, 3), **{k: round(v, 3) for k, v in f.items()}}
                            for name, (f, anyf) in good_flags.items()},
        "ece_fitting_half": fitted.ece, "ece_held_out": held_out.ece, "ece_not_own": not_own.ece,
        "acceptable_share_not_own": sum(others[1]) / len(others[1]),
        "references_low_fitting_half": fitted.references_low,
        "seconds_translate": plain, "seconds_translate_and_assess": checked,
        "cost_ratio": min(checked) / min(plain), "score_sentences_per_s": len(src) / t_score,
    }
    print(f"model {args.model} (sha256 {fingerprint(Path(args.model))[:12]}…), CPU {report['cpu']}, "
          f"{args.threads} thread(s), beam {args.beam}")
    print(f"calibrated on {calibration.sentences} sentences, held out {len(src)}; "
          f"acceptable (chrF >= {args.chrf_threshold:g}) on held-out: {report['acceptable_share_held_out']:.3f}")
    print(f"Spearman vs sentence chrF: quality {report['spearman_quality']:.3f}, "
          f"mean log-prob {report['spearman_mean_log_prob']:.3f}")
    print(f"AUROC good vs broken, overall: {report['auroc_overall']:.3f}")
    print(f"{'good':<11}{'broken':<21}{'AUROC':>7}{'flagged':>9}  " + " ".join(f"{f:>12}" for f in FLAGS))
    for name, kind, a, f, anyf in rows:
        print(f"{name:<11}{kind:<21}{a:7.3f}{anyf:9.3f}  " + " ".join(f"{f[k]:12.3f}" for k in FLAGS))
    for name, (f, anyf) in good_flags.items():
        print(f"{name:<11}{'(as they are)':<21}{'':>7}{anyf:9.3f}  " + " ".join(f"{f[k]:12.3f}" for k in FLAGS))
    print("held-out reliability, the model's own translations:")
    print(held_out.table())
    print(f"ECE on translations it did not write (references and broken ones, {len(others[0])}, "
          f"{report['acceptable_share_not_own']:.3f} acceptable): {not_own.ece:.3f}")
    print(f"cost: translate {min(plain):.1f} s, translate + assess {min(checked):.1f} s: "
          f"x{report['cost_ratio']:.3f}; score {report['score_sentences_per_s']:.1f} sentences/s")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
