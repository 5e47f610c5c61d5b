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
4. the cost: beam-4 translation alone, against translation then ``assess`` of its output, and
   against translation that assesses its hypotheses as it finds them (``translate_n_best`` with
   ``quality``), alternated; and ``attnmt score``'s speed (the assessment of the references) in
   sentences/s.

``--cost-only`` measures the cost alone, on the held-out half, with the model directory's own
calibration (or none); ``--fast`` translates and assesses with the inference copy that ``attnmt
translate`` uses (attnmt.fast.prepare: the C++ decoder step) instead of the readable model.
"""

from __future__ import annotations

import argparse
import json
import statistics
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
    load_calibration,
    reliability,
)
from attnmt.decoding.elsewhere import assess_elsewhere
from attnmt.decoding.quality import FLAGS, Assessor, assess
from attnmt.decoding.translate import translate, translate_n_best
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


def costs(model, tokenizer, src: list[str], decoding: Decoding, calibration, rounds: int) -> tuple[dict, dict, list]:
    """Wall and CPU seconds (this process's: on a shared machine the steadier of the two) of each way
    to translate ``src``, ``rounds`` times each, alternated; and the last in-search round's best
    translations."""
    ways = {
        "translate": lambda: translate(model, tokenizer, src, decoding),
        "translate + assess": lambda: assess(model, tokenizer, src, translate(model, tokenizer, src, decoding),
                                             calibration),
        "translate with quality": lambda: translate_n_best(model, tokenizer, src, decoding,
                                                           quality=Assessor(calibration)),
    }
    wall: dict[str, list[float]] = {name: [] for name in ways}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(rounds):
        for name, way in ways.items():
            started = time.process_time()
            found, spent = timed(way)
            wall[name].append(spent)
            cpu[name].append(time.process_time() - started)
    return wall, cpu, [hypotheses[0] for hypotheses in found]


def cost_line(seconds: dict, score_speed: float, clock: str = "") -> str:
    """Each way's fastest round over plain translation's, and the median of the rounds' own ratios
    (each round times the ways one after the other: the steadier figure where the machine's speed
    drifts between rounds)."""
    plain = min(seconds["translate"])
    after, within = min(seconds["translate + assess"]), min(seconds["translate with quality"])

    def paired(name: str) -> float:
        return statistics.median(t / p for t, p in zip(seconds[name], seconds["translate"], strict=True))

    return (f"cost{clock}: translate {plain:.2f} s, translate + assess {after:.2f} s: x{after / plain:.3f}, "
            f"translate with quality {within:.2f} s: x{within / plain:.3f} (median of the rounds' ratios: "
            f"x{paired('translate + assess'):.3f}, x{paired('translate with quality'):.3f}); "
            f"score {score_speed:.1f} sentences/s")


def cost_only(args: argparse.Namespace, model, tokenizer, src: list[str], ref: list[str]) -> None:
    calibration = load_calibration(Path(args.model))
    wall, cpu, _ = costs(model, tokenizer, src, Decoding(beam_size=args.beam), calibration, args.rounds)
    _, t_score = timed(lambda: assess(model, tokenizer, src, ref, calibration))
    print(f"model {args.model}{' (fast copy)' if args.fast else ''}, CPU {cpu_model()}, {args.threads} thread(s), "
          f"beam {args.beam}, {len(src)} sentences, {'calibrated' if calibration else 'uncalibrated'}, "
          f"{args.rounds} rounds alternated")
    for clock, seconds in (("wall", wall), ("CPU", cpu)):
        for name, each in seconds.items():
            print(f"{clock:<5}{name:<24}" + " ".join(f"{t:7.2f}" for t in each) + " s")
    print(cost_line(wall, len(src) / t_score, " (wall)"))
    print(cost_line(cpu, len(src) / t_score, " (CPU)"))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True)
    p.add_argument("--src", default=str(VAL_SRC))
    p.add_argument("--ref", default=str(VAL_REF))
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--chrf-threshold", type=float, default=CHRF_THRESHOLD)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", help="also write the figures here")
    p.add_argument("--rounds", type=int, default=2, help="times each way of translating is timed, alternated")
    p.add_argument("--cost-only", action="store_true", help="measure the cost alone (no calibration fitted)")
    p.add_argument("--fast", action="store_true", help="the inference copy attnmt translate uses")
    args = p.parse_args()
    torch.set_num_threads(args.threads)

    from attnmt.checkpoint import load_model_dir
    from attnmt.fast import prepare

    model, tokenizer = load_model_dir(args.model)
    if args.fast:
        model = prepare(model)
    sources, references = read_lines(args.src), read_lines(args.ref)
    half = len(sources) // 2
    if args.cost_only:
        cost_only(args, model, tokenizer, sources[half:], references[half:])
        return
    decoding = Decoding(beam_size=args.beam)
    calibration, fitted = calibrate(model, tokenizer, Path(args.model), sources[:half], references[:half], decoding,
                                    chrf_threshold=args.chrf_threshold)
    src, ref = sources[half:], references[half:]

    seconds, cpu, best = costs(model, tokenizer, src, decoding, calibration, args.rounds)
    own, found = [t.text for t in best], [t.assessment for t in best]
    on_refs, t_score = timed(lambda: assess_elsewhere(model, tokenizer, src, ref, calibration, decoding))
    _, t_forced = timed(lambda: assess(model, tokenizer, src, ref, calibration))

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
            bad = assess_elsewhere(model, tokenizer, src, bad_texts, calibration, decoding, own=own)
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
        "seconds_translate": seconds["translate"], "seconds_translate_and_assess": seconds["translate + assess"],
        "seconds_translate_with_quality": seconds["translate with quality"], "cpu_seconds": cpu,
        "cost_ratio": min(seconds["translate with quality"]) / min(seconds["translate"]),
        "cost_ratio_assess_after": min(seconds["translate + assess"]) / min(seconds["translate"]),
        "score_sentences_per_s": len(src) / t_score,
        "score_forced_pass_only_sentences_per_s": len(src) / t_forced,
        "references_low_fitting_half_elsewhere": fitted.references_low_elsewhere,
    }
    print(f"model {args.model}{' (fast copy)' if args.fast else ''} (sha256 {fingerprint(Path(args.model))[:12]}…), "
          f"CPU {report['cpu']}, {args.threads} thread(s), beam {args.beam}")
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
    print(f"attnmt score reads each text against the model's own translation of its source (a beam search, "
          f"then forced passes): {report['score_sentences_per_s']:.1f} sentences/s; the forced pass alone "
          f"(the fit for the model's own translations): {report['score_forced_pass_only_sentences_per_s']:.1f}")
    print(cost_line(seconds, report["score_sentences_per_s"]))
    print(cost_line(cpu, report["score_sentences_per_s"], " (CPU)"))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
